#!/usr/bin/env bash
# Fetch MPICH's own test suite (test/mpi of Debian bookworm's mpich 4.0.2
# source package) into BUILD/src/mpich-tests, once.
#
# Usage: tests/mpi/mpich/fetch.sh BUILD_DIR
#
# Trixie's mpich source answers 404 from this machine's archive; bookworm's
# downloads once apt has a bookworm deb-src entry (scripts/apt-deb-src.py
# adds it, as for trixie). The upstream tarball is checked against the
# size and SHA-256 apt's signed index lists; only test/mpi is unpacked
# (Debian's patches do not touch it).
set -euo pipefail
BUILD=${1:?usage: fetch.sh BUILD_DIR}
VERSION=4.0.2-3
ORIG=mpich_4.0.2.orig.tar.xz
DEST=$BUILD/src/mpich-tests
MARK=$DEST/.scc-source
HERE=$(cd "$(dirname "$0")/../../.." && pwd)
say() { echo "fetch-mpich: $*"; }
die() { echo "fetch-mpich: error: $*" >&2; exit 1; }

if [[ -f $MARK ]]; then
    say "mpich=$(head -n 1 "$MARK") tests already in $DEST"
    exit 0
fi
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
# whole outputs, not pipes a reader may close early (pipefail)
src=$(apt-cache showsrc mpich 2>/dev/null || true)
showsrc() { printf '%s\n' "$src"; }
if ! grep -qx "Version: $VERSION" <<<"$src"; then
    python3 "$HERE/scripts/apt-deb-src.py" has bookworm ||
        $SUDO python3 "$HERE/scripts/apt-deb-src.py" add bookworm \
            /etc/apt/sources.list.d/scc-bookworm-src.sources
    $SUDO apt-get update -q </dev/null
    src=$(apt-cache showsrc mpich 2>/dev/null || true)
fi
line=$(showsrc | awk -v want="$VERSION" -v f="$ORIG" '
    /^Version: /                { v = $2 }
    /^Checksums-Sha256:/        { insum = 1; next }
    /^[^ ]/                     { insum = 0 }
    insum && v == want && $3 == f { print $1, $2; exit }')
dir=$(showsrc | awk -v want="$VERSION" '/^Version: /{v=$2} /^Directory: /{if (v == want) {print $2; exit}}')
[[ -n $line && -n $dir ]] || die "apt-cache showsrc mpich lists no $VERSION (is bookworm's deb-src entry there?)"
read -r sha size <<<"$line"
uri=$(python3 - "$HERE" <<'PY'
import re, sys, glob
for f in glob.glob("/etc/apt/sources.list.d/*.sources") + ["/etc/apt/sources.list"]:
    try:
        t = open(f).read()
    except OSError:
        continue
    for stanza in t.split("\n\n"):
        if "deb-src" in stanza and "bookworm" in stanza:
            m = re.search(r"^URIs:\s*(\S+)", stanza, re.M)
            if m:
                print(m.group(1)); sys.exit(0)
sys.exit(1)
PY
) || die "no bookworm deb-src URI"
mkdir -p "$BUILD/dl"
file=$BUILD/dl/$ORIG
if [[ ! -f $file ]] || [[ $(sha256sum "$file" | cut -d' ' -f1) != "$sha" ]]; then
    say "downloading $uri/$dir/$ORIG ($size bytes)"
    curl -fsSL --retry 3 -o "$file.part" "$uri/$dir/$ORIG"
    mv "$file.part" "$file"
fi
[[ $(sha256sum "$file" | cut -d' ' -f1) == "$sha" ]] || die "$ORIG: SHA-256 differs from apt's index"
tmp=$(mktemp -d "$BUILD/src/.mpich-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$file" -C "$tmp" --strip-components=3 --wildcards 'mpich-*/test/mpi/*'
[[ -f $tmp/util/mtest.c && -f $tmp/pt2pt/testlist.in ]] || die "unexpected tarball layout"
printf '%s\n%s %s\n' "$VERSION" "$ORIG" "$sha" > "$tmp/.scc-source"
rm -rf "$DEST"
mv "$tmp" "$DEST"
trap - EXIT
say "mpich=$VERSION tests unpacked in $DEST"

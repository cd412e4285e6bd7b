#!/usr/bin/env bash
# Fetch and unpack QEMU's source: the Debian source package of the QEMU 10.0
# series, from Debian 13 "trixie".
#
# Usage: scripts/fetch-qemu.sh BUILD_DIR
#
#   BUILD_DIR/dl/                 downloaded .dsc, .orig.tar.xz, .debian.tar.xz
#   BUILD_DIR/src/qemu-pristine/  the unpacked tree, Debian's patches applied
#   BUILD_DIR/qemu-version.txt    the exact Debian version (written last)
#
# Environment:
#   QEMU_DEB_VERSION   use this exact version instead of the newest 1:10.0.*
#
# The downloaded files are checked against the Checksums-Sha256 that apt lists.
# The tree is unpacked into a temporary directory and moved into place, so a
# failure never leaves a half-unpacked tree behind.
set -euo pipefail

BUILD=${1:?usage: fetch-qemu.sh BUILD_DIR}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
SUITE=trixie
SERIES='1:10.0.'
HERE=$(cd "$(dirname "$0")" && pwd)
DL=$BUILD/dl
DEST=$BUILD/src/qemu-pristine
VERSION_FILE=$BUILD/qemu-version.txt
SRC_LIST=/etc/apt/sources.list.d/scc-qemu-src.sources

die() { echo "fetch-qemu: error: $*" >&2; exit 1; }
say() { echo "fetch-qemu: $*"; }

if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive

# Versions of source package qemu that apt knows, one per line.
known_versions() {
    apt-cache showsrc qemu 2>/dev/null |
        awk '/^Package: /{p=$2} /^Version: /{if (p=="qemu") print $2}' | sort -u
}

# Newest version in the 1:10.0 series, or nothing.
newest_in_series() {
    local best= v
    while read -r v; do
        [[ $v == "$SERIES"* ]] || continue
        if [[ -z $best ]] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
    done < <(known_versions)
    echo "$best"
}

# --- 1. Make sure apt knows trixie's source packages --------------------------
version=${QEMU_DEB_VERSION:-}
have_version() {
    if [[ -n ${QEMU_DEB_VERSION:-} ]]; then
        known_versions | grep -qxF "$QEMU_DEB_VERSION"
    else
        [[ -n $(newest_in_series) ]]
    fi
}

if ! have_version; then
    if ! python3 "$HERE/apt-deb-src.py" has "$SUITE"; then
        say "apt has no deb-src entry for $SUITE; adding $SRC_LIST"
        $SUDO python3 "$HERE/apt-deb-src.py" add "$SUITE" "$SRC_LIST"
    fi
    say "apt-get update"
    $SUDO apt-get update -q </dev/null
fi

if [[ -z $version ]]; then
    version=$(newest_in_series)
    [[ -n $version ]] || die "apt-cache showsrc qemu lists no version ${SERIES}* (the QEMU 10.0 series of Debian $SUITE). Versions apt knows: $(known_versions | tr '\n' ' ')"
else
    known_versions | grep -qxF "$version" ||
        die "QEMU_DEB_VERSION=$version is not among the versions apt knows: $(known_versions | tr '\n' ' ')"
fi
say "QEMU source package qemu=$version"

# --- 2. Expected files and checksums, from apt's own index --------------------
# Lines "sha256 size name" of the stanza with this version.
checksums=$(apt-cache showsrc qemu 2>/dev/null | awk -v want="$version" '
    /^Package: /        { p = $2 }
    /^Version: /        { v = $2 }
    /^[^ ]/             { insum = ($1 == "Checksums-Sha256:") ; next }
    /^$/                { insum = 0; if (done) exit; next }
    insum && p == "qemu" && v == want { print $1, $2, $3; done = 1 }
')
[[ -n $checksums ]] || die "apt-cache showsrc qemu=$version lists no Checksums-Sha256"

dsc= orig= debtar=
while read -r _ _ name; do
    case $name in
        *.dsc) dsc=$name ;;
        *.orig.tar.*) orig=$name ;;
        *.debian.tar.*) debtar=$name ;;
    esac
done <<<"$checksums"
[[ -n $dsc && -n $orig && -n $debtar ]] ||
    die "unexpected file list for qemu=$version (want .dsc, .orig.tar.*, .debian.tar.*): $(echo $checksums)"

# verify NAME -> 0 if DL/NAME exists and matches apt's checksum and size
verify() {
    local name=$1 sum size line
    line=$(awk -v n="$name" '$3 == n' <<<"$checksums")
    sum=${line%% *}; size=$(awk '{print $2}' <<<"$line")
    [[ -f $DL/$name ]] || return 1
    [[ $(stat -c %s "$DL/$name") == "$size" ]] || return 1
    [[ $(sha256sum "$DL/$name" | awk '{print $1}') == "$sum" ]]
}

# --- 3. Download (apt-get source skips files already present and correct) -----
mkdir -p "$DL"
bad=()
for attempt in 1 2 3; do
    bad=()
    for f in "$dsc" "$orig" "$debtar"; do verify "$f" || bad+=("$f"); done
    ((${#bad[@]})) || break
    say "downloading ${bad[*]} (attempt $attempt)"
    for f in "${bad[@]}"; do rm -f "$DL/$f"; done
    (cd "$DL" && apt-get source -q --download-only -o Acquire::Retries=3 -o APT::Sandbox::User=root "qemu=$version" </dev/null) ||
        echo "fetch-qemu: apt-get source failed (attempt $attempt)" >&2
done
bad=()
for f in "$dsc" "$orig" "$debtar"; do verify "$f" || bad+=("$f"); done
for f in "${bad[@]}"; do
    if [[ -f $DL/$f ]]; then
        echo "fetch-qemu: $f: checksum or size does not match apt's index; removing it" >&2
        rm -f "$DL/$f"
    else
        echo "fetch-qemu: $f: could not be downloaded" >&2
    fi
done
for f in "${bad[@]}"; do
    [[ $f == "$dsc" ]] || die "cannot get $f of qemu=$version (see above); nothing was unpacked"
done
say "verified against apt's Checksums-Sha256: $(for f in "$dsc" "$orig" "$debtar"; do verify "$f" && printf '%s ' "$f"; done)"

# --- 4. Unpack into a temporary directory, then move into place ---------------
tmp=$(mktemp -d "$BUILD/.qemu-unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ((${#bad[@]} == 0)); then
    say "dpkg-source -x $dsc"
    (cd "$tmp" && dpkg-source -q --no-copy -x "$DL/$dsc" tree) >"$tmp/unpack.log" 2>&1 ||
        { cat "$tmp/unpack.log" >&2; die "dpkg-source -x $dsc failed"; }
else
    # The .dsc alone is missing: unpack the (verified) tarballs by hand and
    # apply debian/patches/series, which is what dpkg-source would do.
    say "the .dsc is missing: unpacking $orig and $debtar by hand"
    mkdir "$tmp/tree"
    tar -xf "$DL/$orig" -C "$tmp/tree" --strip-components=1
    tar -xf "$DL/$debtar" -C "$tmp/tree"
    if [[ -f $tmp/tree/debian/patches/series ]]; then
        while read -r p _; do
            [[ -z $p || $p == \#* ]] && continue
            patch -d "$tmp/tree" -p1 -s --batch --no-backup-if-mismatch \
                -i "debian/patches/$p" </dev/null ||
                die "Debian patch $p does not apply"
        done <"$tmp/tree/debian/patches/series"
    fi
fi
[[ -x $tmp/tree/configure ]] || die "unpacked tree has no configure script"

mkdir -p "$(dirname "$DEST")"
if [[ -e $DEST ]]; then
    mv "$DEST" "$tmp/old"
fi
mv "$tmp/tree" "$DEST"
printf '%s\n' "$version" >"$tmp/version"
mv "$tmp/version" "$VERSION_FILE"
say "unpacked qemu=$version into $DEST"

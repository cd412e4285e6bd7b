#!/usr/bin/env bash
# Fetch and unpack a Debian source package of one upstream series, from
# Debian 13 "trixie" (the newest version of the series apt knows).
#
# Usage: scripts/fetch-debsrc.sh [--orig-only] PKG SERIES BUILD_DIR DEST CHECK...
#
#   --orig-only  unpack the upstream tarball alone, without Debian's patches
#               (GRUB: its Debian patches are distribution integration, and
#               the tree must be the same whether or not the archive still
#               serves the debian tarball)
#   PKG        the source package (picolibc, grub2)
#   SERIES     the upstream version wanted: SERIES or SERIES.* (1.8, 2.12)
#   DEST       where the tree goes, under BUILD_DIR/src/
#   CHECK...   paths the unpacked tree must have (a sanity check)
#
#   BUILD_DIR/dl/                  the downloaded .orig.tar.* (+ .debian.tar.*)
#   BUILD_DIR/src/DEST/            the unpacked tree, Debian's patches applied
#   BUILD_DIR/src/DEST/.scc-source what was unpacked: version, files, patches
#                                  (its first line is the exact Debian version)
#
# Fetched once: when .scc-source exists (and names the wanted version, if
# PKG_DEB_VERSION is set: PICOLIBC_DEB_VERSION, GRUB2_DEB_VERSION) this does
# nothing, without asking the network. Delete the tree to fetch anew.
#
# Each file used is checked against the size and SHA-256 that
# `apt-cache showsrc PKG` lists (apt's signed index). The .dsc is not
# needed: Debian's picolibc 1.8.10-2 .dsc answers 404 on the archive while
# its tarballs download, so the tree is always unpacked by hand, the way
# dpkg-source does it for format "3.0 (quilt)": the orig tarball, then the
# debian tarball on top, then debian/patches/series applied in order. The
# orig tarball is required; without the debian tarball the tree is unpacked
# with a warning. Unpacking happens in a temporary directory that is moved
# into place at the end, so a failure never leaves a half-unpacked tree.
set -euo pipefail

usage="usage: fetch-debsrc.sh [--orig-only] PKG SERIES BUILD_DIR DEST CHECK..."
ORIG_ONLY=
if [[ ${1:-} == --orig-only ]]; then ORIG_ONLY=1; shift; fi
PKG=${1:?$usage}
SERIES=${2:?$usage}
BUILD=${3:?$usage}
DEST_NAME=${4:?$usage}
shift 4
CHECKS=("$@")
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
SUITE=trixie
HERE=$(cd "$(dirname "$0")" && pwd)
DL=$BUILD/dl
DEST=$BUILD/src/$DEST_NAME
VERSION_VAR=$(tr 'a-z-' 'A-Z_' <<<"$PKG")_DEB_VERSION
WANT_VERSION=${!VERSION_VAR:-}
MARK=$DEST/.scc-source
SRC_LIST=/etc/apt/sources.list.d/scc-$SUITE-src.sources

die() { echo "fetch-debsrc($PKG): error: $*" >&2; exit 1; }
say() { echo "fetch-debsrc($PKG): $*"; }
warn() { echo "fetch-debsrc($PKG): warning: $*" >&2; }

# --- 0. Already unpacked? -------------------------------------------------------
if [[ -f $MARK ]]; then
    have=$(head -n 1 "$MARK")
    if [[ -z $WANT_VERSION || $WANT_VERSION == "$have" ]]; then
        say "$PKG=$have already unpacked in $DEST"
        exit 0
    fi
    say "have $PKG=$have, want $VERSION_VAR=$WANT_VERSION: fetching"
fi

if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive

# Versions of source package PKG that apt knows, one per line.
known_versions() {
    apt-cache showsrc "$PKG" 2>/dev/null |
        awk -v pkg="$PKG" '/^Package: /{p=$2} /^Version: /{if (p==pkg) print $2}' | sort -u
}

# Whether a Debian version belongs to the series: upstream part (no epoch,
# no Debian revision) is 1.8 or 1.8.something.
in_series() {
    local up=${1#*:}
    up=${up%-*}
    [[ $up == "$SERIES" || $up == "$SERIES".* ]]
}

newest_in_series() {
    local best= v
    while read -r v; do
        [[ -n $v ]] && in_series "$v" || continue
        if [[ -z $best ]] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
    done < <(known_versions)
    echo "$best"
}

have_version() {
    if [[ -n $WANT_VERSION ]]; then
        known_versions | grep -qxF "$WANT_VERSION"
    else
        [[ -n $(newest_in_series) ]]
    fi
}

# --- 1. Make sure apt knows trixie's source packages ----------------------------
if ! have_version; then
    if ! python3 "$HERE/apt-deb-src.py" has "$SUITE"; then
        say "apt has no deb-src entry for $SUITE; adding $SRC_LIST"
        $SUDO python3 "$HERE/apt-deb-src.py" add "$SUITE" "$SRC_LIST"
    fi
    say "apt-get update"
    $SUDO apt-get update -q </dev/null
fi

version=$WANT_VERSION
if [[ -z $version ]]; then
    version=$(newest_in_series)
    [[ -n $version ]] || die "apt-cache showsrc $PKG lists no version $SERIES.* (the $SERIES series of Debian $SUITE). Versions apt knows: $(known_versions | tr '\n' ' ')"
else
    known_versions | grep -qxF "$version" ||
        die "$VERSION_VAR=$version is not among the versions apt knows: $(known_versions | tr '\n' ' ')"
fi
say "source package $PKG=$version"

# --- 2. Expected files and checksums, from apt's own index ----------------------
checksums=$(apt-cache showsrc "$PKG" 2>/dev/null | awk -v want="$version" -v pkg="$PKG" '
    /^Package: /        { p = $2 }
    /^Version: /        { v = $2 }
    /^[^ ]/             { insum = ($1 == "Checksums-Sha256:") ; next }
    /^$/                { insum = 0; if (done) exit; next }
    insum && p == pkg && v == want { print $1, $2, $3; done = 1 }
')
[[ -n $checksums ]] || die "apt-cache showsrc $PKG=$version lists no Checksums-Sha256"

orig= debtar=
while read -r _ _ name; do
    case $name in
        *.orig.tar.*) orig=$name ;;
        *.debian.tar.*) debtar=$name ;;
    esac
done <<<"$checksums"
[[ -n $orig ]] || die "apt lists no .orig.tar.* for $PKG=$version: $(echo $checksums)"
[[ -z $ORIG_ONLY ]] || debtar=
[[ $orig =~ ^[A-Za-z0-9._+~-]+$ && ( -z $debtar || $debtar =~ ^[A-Za-z0-9._+~-]+$ ) ]] ||
    die "unexpected file names in apt's index: $orig $debtar"

# verify NAME -> 0 if DL/NAME exists and matches apt's size and sha256
verify() {
    local name=$1 line sum size
    line=$(awk -v n="$name" '$3 == n' <<<"$checksums")
    sum=$(awk '{print $1}' <<<"$line"); size=$(awk '{print $2}' <<<"$line")
    [[ -n $sum && -f $DL/$name ]] || return 1
    [[ $(stat -c %s "$DL/$name") == "$size" ]] || return 1
    [[ $(sha256sum "$DL/$name" | awk '{print $1}') == "$sum" ]]
}

# --- 3. Download ------------------------------------------------------------------
# `apt-get source --download-only` fetches every file of the package and fails
# as a whole if one of them (the .dsc) is missing, but it keeps those it got;
# apt itself checks them against the index, and so do we, below.
mkdir -p "$DL"
want=("$orig"); [[ -n $debtar ]] && want+=("$debtar")
for attempt in 1 2 3; do
    bad=()
    for f in "${want[@]}"; do verify "$f" || bad+=("$f"); done
    ((${#bad[@]})) || break
    say "downloading ${bad[*]} (attempt $attempt)"
    for f in "${bad[@]}"; do rm -f "$DL/$f"; done
    (cd "$DL" && apt-get source -q --download-only -o Acquire::Retries=3 \
        -o APT::Sandbox::User=root "$PKG=$version" </dev/null) >"$DL/.$PKG-download.log" 2>&1 ||
        true  # judged by the checksums below
done
bad=()
for f in "${want[@]}"; do verify "$f" || bad+=("$f"); done
for f in "${bad[@]}"; do
    if [[ -f $DL/$f ]]; then
        warn "$f: size or sha256 does not match apt's index; removing it"
        rm -f "$DL/$f"
    else
        warn "$f: could not be downloaded"
    fi
done
if ! verify "$orig"; then
    sed 's/^/    /' "$DL/.$PKG-download.log" >&2 || true
    die "cannot get $orig of $PKG=$version (apt-get source said the above); nothing was unpacked"
fi
patched="no Debian patches (no debian tarball)"
[[ -z $ORIG_ONLY ]] || patched="no Debian patches (--orig-only)"
if [[ -n $debtar ]] && ! verify "$debtar"; then
    warn "unpacking without Debian's patches: $debtar is missing"
    debtar=
fi
say "verified against apt's Checksums-Sha256: $orig${debtar:+ $debtar}"

# --- 4. Unpack into a temporary directory, then move into place -----------------
mkdir -p "$BUILD/src"
tmp=$(mktemp -d "$BUILD/src/.$DEST_NAME-unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tree"
say "unpacking $orig"
tar -xf "$DL/$orig" -C "$tmp/tree" --strip-components=1 --no-same-owner ||
    die "cannot unpack $orig"
for c in "${CHECKS[@]}"; do
    [[ -e $tmp/tree/$c ]] || die "$orig does not look like $PKG's source (no $c)"
done
if [[ -n $debtar ]]; then
    rm -rf "$tmp/tree/debian"
    tar -xf "$DL/$debtar" -C "$tmp/tree" --no-same-owner || die "cannot unpack $debtar"
    patched="0 patches"
    if [[ -f $tmp/tree/debian/patches/series ]]; then
        n=0
        while read -r p _; do
            [[ -z $p || $p == \#* ]] && continue
            patch -d "$tmp/tree" -p1 -s --batch --no-backup-if-mismatch \
                -i "debian/patches/$p" </dev/null ||
                die "Debian patch $p does not apply; nothing was unpacked"
            say "applied debian/patches/$p"
            n=$((n + 1))
        done <"$tmp/tree/debian/patches/series"
        patched="$n patches from $debtar"
    fi
fi
{
    printf '%s\n' "$version"
    printf 'files: %s\n' "$orig${debtar:+ $debtar}"
    printf 'debian patches: %s\n' "$patched"
} >"$tmp/tree/.scc-source"

if [[ -e $DEST ]]; then
    mv "$DEST" "$tmp/old"
fi
mv "$tmp/tree" "$DEST"
say "unpacked $PKG=$version into $DEST ($patched)"

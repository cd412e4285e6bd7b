#!/usr/bin/env bash
# Assemble BUILD/src/qemu: the pristine Debian tree + qemu/patches/*.patch
# (applied in name order with patch -p1) + the files of qemu/overlay/ on top
# + the guest ABI headers of include/standard-headers/ (the project's one
# definition of what the machine and the guest code share) into QEMU's
# include/standard-headers/, where the machine includes them from.
#
# Usage: scripts/qemu-tree.sh BUILD_DIR OVERLAY_DIR PATCH_DIR [HEADERS_DIR]
#        (HEADERS_DIR defaults to the repository's include/standard-headers)
#
# Does nothing when the stamp BUILD/src/qemu.stamp holds the hash of the
# overlay and patches (contents, names, modes), the QEMU version and these
# scripts. Otherwise the tree is assembled in BUILD/src/qemu-stage and synced
# into BUILD/src/qemu by sync-tree.py, which rewrites only files whose content
# changed, so ninja recompiles only what the change touches.
set -euo pipefail

BUILD=${1:?usage: qemu-tree.sh BUILD_DIR OVERLAY_DIR PATCH_DIR}
OVERLAY=${2:?usage: qemu-tree.sh BUILD_DIR OVERLAY_DIR PATCH_DIR}
PATCHES=${3:?usage: qemu-tree.sh BUILD_DIR OVERLAY_DIR PATCH_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
HEADERS=${4:-$HERE/../include/standard-headers}
PRISTINE=$BUILD/src/qemu-pristine
STAGE=$BUILD/src/qemu-stage
DEST=$BUILD/src/qemu
STAMP=$BUILD/src/qemu.stamp
MANIFEST=$BUILD/src/qemu.manifest
export LC_ALL=C

die() { echo "qemu-tree: error: $*" >&2; exit 1; }

[[ -f $BUILD/qemu-version.txt ]] ||
    die "no $BUILD/qemu-version.txt (run scripts/fetch-qemu.sh $BUILD)"
[[ -d $OVERLAY ]] || die "overlay directory $OVERLAY does not exist"
[[ -d $HEADERS ]] || die "ABI header directory $HEADERS does not exist"

# The patches, in name order (a missing patch directory means no patches).
patches=()
if [[ -d $PATCHES ]]; then
    while IFS= read -r -d '' p; do patches+=("$p"); done \
        < <(find "$PATCHES" -maxdepth 1 -type f -name '*.patch' -print0 | sort -z)
fi

# Hash of everything the assembled tree depends on.
inputs_hash() {
    {
        echo "version $(cat "$BUILD/qemu-version.txt")"
        sha256sum "$HERE/qemu-tree.sh" "$HERE/sync-tree.py" | awk '{print "script", $1}'
        for p in ${patches[@]+"${patches[@]}"}; do
            echo "patch $(basename "$p") $(sha256sum <"$p" | awk '{print $1}')"
        done
        for tree in overlay headers; do
            dir=$OVERLAY
            [[ $tree == headers ]] && dir=$HEADERS
            echo "tree $tree"
            (cd "$dir" && find . \( -type f -o -type l \) -print0 | sort -z |
                while IFS= read -r -d '' f; do
                    if [[ -L $f ]]; then
                        echo "link $f $(readlink "$f")"
                    else
                        echo "file $f $(stat -c %a "$f") $(sha256sum <"$f" | awk '{print $1}')"
                    fi
                done)
        done
    } | sha256sum | awk '{print $1}'
}

hash=$(inputs_hash)
if [[ -f $STAMP && -d $DEST && $(cat "$STAMP") == "$hash" ]]; then
    echo "qemu-tree: $DEST is up to date"
    exit 0
fi

echo "qemu-tree: assembling $DEST (QEMU $(cat "$BUILD/qemu-version.txt"), ${#patches[@]} patches, overlay $OVERLAY)"
if [[ ! -d $PRISTINE ]]; then
    # The unpacked tree is gone (the download is kept): unpack the same version.
    QEMU_DEB_VERSION=$(cat "$BUILD/qemu-version.txt") "$HERE/fetch-qemu.sh" "$BUILD"
fi
rm -rf "$STAGE"
# The stage starts as hard links to the pristine files (fast, no data copied).
# Nothing writes through them: GNU patch replaces a file it patches with a new
# one, and the overlay is copied with --remove-destination.
cp -al "$PRISTINE" "$STAGE"
for p in ${patches[@]+"${patches[@]}"}; do
    echo "qemu-tree: applying $(basename "$p")"
    if ! patch -d "$STAGE" -p1 -s --batch --forward --no-backup-if-mismatch \
            --reject-file=- -i "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")" </dev/null; then
        rm -rf "$STAGE"
        die "patch $p does not apply to QEMU $(cat "$BUILD/qemu-version.txt")"
    fi
done
cp -a --remove-destination "$OVERLAY/." "$STAGE/"
mkdir -p "$STAGE/include/standard-headers"
cp -a --remove-destination "$HEADERS/." "$STAGE/include/standard-headers/"
rm -f "$STAMP"
python3 "$HERE/sync-tree.py" "$STAGE" "$DEST" "$MANIFEST"
rm -rf "$STAGE"
echo "$hash" >"$STAMP"

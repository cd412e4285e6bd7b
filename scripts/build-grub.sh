#!/usr/bin/env bash
# Build GRUB 2 for the i386-multiboot platform (the image the machine boots
# on each core with `scc-run --grub`, docs/grub.md), and GRUB's "scc" module.
#
# Usage: scripts/build-grub.sh BUILD_DIR
#
#   BUILD_DIR/src/grub2/            the source (scripts/fetch-debsrc.sh grub2)
#   BUILD_DIR/grub/                 GRUB's build tree:
#       grub-mkimage                  the image maker (a host program)
#       grub-core/kernel.img, *.mod   GRUB's kernel and modules
#       grub-core/scc.mod             ours (grub/scc.c, grub/scc.mk)
#   BUILD_DIR/grub-version.txt      the source's Debian version (written last)
#
# Only grub-core and grub-mkimage are built (not grub-install and the other
# tools). The target code is compiled by the project's i686 cross compiler.
# GRUB's own link address (0x9000) is kept: the machine's boot stub ends
# below it (abi.h BOOT_STUB_END).
set -euo pipefail

BUILD=${1:?usage: build-grub.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SRC=$BUILD/src/grub2
OUT=$BUILD/grub
CROSS=${CROSS:-i686-linux-gnu-}
JOBS=${JOBS:-$(nproc)}

die() { echo "build-grub: error: $*" >&2; exit 1; }
say() { echo "build-grub: $*"; }

[[ -f $SRC/.scc-source ]] || die "no GRUB source in $SRC (scripts/fetch-debsrc.sh grub2 makes it)"
version=$(head -n 1 "$SRC/.scc-source")

# GRUB 2.12's release tarball lacks grub-core/extra_deps.lst, which its
# grub-core/Makefile needs (fixed upstream after 2.12; Debian adds it in its
# packaging). This is upstream's content of the file.
[[ -f $SRC/grub-core/extra_deps.lst ]] || echo "depends bli part_gpt" >"$SRC/grub-core/extra_deps.lst"

mkdir -p "$OUT"
if [[ ! -f $OUT/config.status || $(head -n 1 "$OUT/.scc-configured" 2>/dev/null) != "$version" ]]; then
    say "configuring GRUB $version for i386-multiboot"
    (cd "$OUT" && "$SRC/configure" --target=i386 --with-platform=multiboot \
        TARGET_CC="${CROSS}gcc" TARGET_OBJCOPY="${CROSS}objcopy" \
        TARGET_STRIP="${CROSS}strip" TARGET_NM="${CROSS}nm" TARGET_RANLIB="${CROSS}ranlib" \
        --disable-werror --disable-nls --disable-grub-mkfont --disable-grub-themes \
        --disable-grub-mount --disable-device-mapper --disable-liblzma \
        --disable-libzfs --disable-efiemu >"$OUT/configure.log" 2>&1) ||
        { tail -n 30 "$OUT/configure.log" >&2; die "configure failed (all of it: $OUT/configure.log)"; }
    echo "$version" >"$OUT/.scc-configured"
fi

say "building grub-core and grub-mkimage"
make -C "$OUT/grub-core/lib/gnulib" -j"$JOBS" -s >"$OUT/make.log" 2>&1 &&
make -C "$OUT" -j"$JOBS" -s grub-mkimage >>"$OUT/make.log" 2>&1 &&
make -C "$OUT/grub-core" -j"$JOBS" -s >>"$OUT/make.log" 2>&1 ||
    { tail -n 30 "$OUT/make.log" >&2; die "make failed (all of it: $OUT/make.log)"; }

make -C "$OUT/grub-core" -s -f Makefile -f "$REPO/grub/scc.mk" \
    SCC_MODULE_SRC="$REPO/grub/scc.c" SCC_INCLUDE="$REPO/include/standard-headers" \
    scc.mod >>"$OUT/make.log" 2>&1 ||
    { tail -n 30 "$OUT/make.log" >&2; die "the scc module failed to build"; }

for f in grub-mkimage grub-core/kernel.img grub-core/multiboot.mod grub-core/scc.mod; do
    [[ -f $OUT/$f ]] || die "$OUT/$f was not built"
done
echo "$version" >"$BUILD/grub-version.txt"
say "GRUB $version for i386-multiboot in $OUT"

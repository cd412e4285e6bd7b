#!/usr/bin/env bash
# Build picolibc for the SCC's cores (P54C: i586 with an x87, no MMX/SSE;
# bare metal) and install it into BUILD_DIR/picolibc.
#
# Usage: scripts/build-picolibc.sh BUILD_DIR
#
#   BUILD_DIR/src/picolibc/        the source (scripts/fetch-debsrc.sh picolibc ...)
#   BUILD_DIR/picolibc-build/      meson's build directory, and the cross file
#   BUILD_DIR/picolibc/            include/, lib/libc.a, lib/libm.a
#   BUILD_DIR/picolibc-version.txt the exact Debian version built (written last)
#
# The build is a meson cross build (the project venv's meson) with the
# options the runtime in libscc/sys/ expects: one library (no multilib), no
# picocrt (libscc/sys/crt0.S is the entry), no semihosting, no TLS (errno is
# a plain global), single-threaded, POSIX console (stdin/stdout/stderr go
# through read/write on fds 0-2), printf with double support by default.
# Optimized for speed (-O2, with debug information), not picolibc's default
# of size: at -Os its memcpy, memmove and memset (and the clearing in its
# malloc) go a byte at a time, and on the SCC every such store that misses
# the caches is written around them, about 100 core cycles each
# (docs/timing.md). The C libraries RCCE programs ran on copied words.
# It always starts from an empty build directory and installs into a
# temporary prefix that replaces BUILD_DIR/picolibc at the end, so a failure
# leaves the previous installation (and no version file) behind.
#
# Environment: CROSS (default i686-linux-gnu-), MESON (default
# BUILD_DIR/venv/bin/meson), NINJAFLAGS.
set -euo pipefail

BUILD=${1:?usage: build-picolibc.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
CROSS=${CROSS:-i686-linux-gnu-}
MESON=${MESON:-$BUILD/venv/bin/meson}
SRC=$BUILD/src/picolibc
WORK=$BUILD/picolibc-build
DEST=$BUILD/picolibc
VERSION_FILE=$BUILD/picolibc-version.txt

die() { echo "build-picolibc: error: $*" >&2; exit 1; }
say() { echo "build-picolibc: $*"; }

[[ -f $SRC/.scc-source ]] || die "no picolibc source in $SRC (scripts/fetch-debsrc.sh picolibc makes it: run make picolibc)"
[[ -x $MESON ]] || die "no meson at $MESON (make builds the venv)"
command -v "${CROSS}gcc" >/dev/null || die "${CROSS}gcc not found (scripts/deps.sh installs it)"
command -v ninja >/dev/null || die "ninja not found (scripts/deps.sh installs it)"
version=$(head -n 1 "$SRC/.scc-source")

rm -f "$VERSION_FILE"
rm -rf "$WORK"
mkdir -p "$WORK"
cat >"$WORK/cross-i586-scc.txt" <<EOF
# Written by scripts/build-picolibc.sh: the SCC's P54C cores, bare metal.
[binaries]
c = ['${CROSS}gcc', '-m32', '-march=pentium', '-mno-mmx', '-mno-sse', '-fno-pic', '-fno-PIE', '-static', '-nostdlib']
ar = '${CROSS}ar'
as = '${CROSS}as'
ld = '${CROSS}ld'
nm = '${CROSS}nm'
strip = '${CROSS}strip'

[host_machine]
system = 'none'
cpu_family = 'x86'
cpu = 'i386'
endian = 'little'

[properties]
skip_sanity_check = true
EOF

stage=$(mktemp -d "$BUILD/.picolibc-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT

start=$SECONDS
say "configuring picolibc $version (meson $("$MESON" --version))"
if ! "$MESON" setup "$WORK/obj" "$SRC" \
        --cross-file "$WORK/cross-i586-scc.txt" \
        --prefix "$stage" --includedir include --libdir lib \
        -Dmultilib=false -Dpicocrt=false -Dsemihost=false -Dtests=false \
        -Dthread-local-storage=false -Dsingle-thread=true -Dspecsdir=none \
        -Dposix-console=true -Dformat-default=double \
        --buildtype=debugoptimized \
        >"$WORK/setup.log" 2>&1; then
    tail -n 40 "$WORK/setup.log" >&2
    die "meson setup failed; full log: $WORK/setup.log"
fi
say "building (log: $WORK/build.log)"
# shellcheck disable=SC2086
if ! ninja -C "$WORK/obj" ${NINJAFLAGS:-} >"$WORK/build.log" 2>&1; then
    tail -n 40 "$WORK/build.log" >&2
    die "ninja failed; full log: $WORK/build.log"
fi
if ! ninja -C "$WORK/obj" install >"$WORK/install.log" 2>&1; then
    tail -n 40 "$WORK/install.log" >&2
    die "ninja install failed; full log: $WORK/install.log"
fi
for f in include/stdio.h include/picolibc.h lib/libc.a lib/libm.a; do
    [[ -f $stage/$f ]] || die "the installation lacks $f"
done

rm -rf "$DEST.old"
[[ -e $DEST ]] && mv "$DEST" "$DEST.old"
mv "$stage" "$DEST"
rm -rf "$DEST.old"
printf '%s\n' "$version" >"$VERSION_FILE.tmp"
mv "$VERSION_FILE.tmp" "$VERSION_FILE"
say "installed picolibc $version into $DEST in $((SECONDS - start)) s"

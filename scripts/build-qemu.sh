#!/usr/bin/env bash
# Build BUILD/qemu/qemu-system-i386 with the SCC machine.
#
# Usage: scripts/build-qemu.sh BUILD_DIR OVERLAY_DIR PATCH_DIR
#
# 1. scripts/qemu-tree.sh assembles BUILD/src/qemu (a no-op when qemu/ did
#    not change);
# 2. configure runs out of tree in BUILD/qemu when there is no configured
#    build or the options or QEMU version changed (then BUILD/qemu is wiped);
# 3. ninja builds only the qemu-system-i386 binary (a no-op when nothing
#    changed; meson re-runs by itself when a meson.build or Kconfig changes).
#
# Environment: NINJAFLAGS (e.g. -j2), QEMU_EXTRA_CONFIGURE (extra options).
set -euo pipefail

BUILD=${1:?usage: build-qemu.sh BUILD_DIR OVERLAY_DIR PATCH_DIR}
OVERLAY=${2:?}
PATCHES=${3:?}
HERE=$(cd "$(dirname "$0")" && pwd)

"$HERE/qemu-tree.sh" "$BUILD" "$OVERLAY" "$PATCHES"

BUILD_ABS=$(cd "$BUILD" && pwd)
SRC=$BUILD_ABS/src/qemu
OUT=$BUILD_ABS/qemu
PYTHON=$BUILD_ABS/venv/bin/python
[[ -x $PYTHON ]] || { echo "build-qemu: error: no virtualenv at $BUILD/venv (run make)" >&2; exit 1; }

CONFIGURE_OPTS=(
    --target-list=i386-softmmu
    --without-default-features
    --without-default-devices
    --with-devices-i386=scc
    --enable-tcg
    --enable-plugins
    --disable-docs
    --disable-install-blobs
    --disable-werror
    --disable-containers
    --disable-download
    --python="$PYTHON"
)
# shellcheck disable=SC2206
CONFIGURE_OPTS+=(${QEMU_EXTRA_CONFIGURE:-})

config_id=$(printf '%s\n' "$(cat "$BUILD_ABS/qemu-version.txt")" "$SRC" "${CONFIGURE_OPTS[@]}" | sha256sum | awk '{print $1}')
if [[ ! -f $OUT/build.ninja || ! -f $OUT/.scc-configured || $(cat "$OUT/.scc-configured") != "$config_id" ]]; then
    echo "build-qemu: configuring in $OUT"
    rm -rf "$OUT"
    mkdir -p "$OUT"
    start=$SECONDS
    if ! (cd "$OUT" && "$SRC/configure" "${CONFIGURE_OPTS[@]}") >"$BUILD_ABS/qemu-configure.log" 2>&1; then
        tail -n 40 "$BUILD_ABS/qemu-configure.log" >&2
        echo "build-qemu: error: configure failed; full log: $BUILD/qemu-configure.log" >&2
        exit 1
    fi
    echo "$config_id" >"$OUT/.scc-configured"
    echo "build-qemu: configured in $((SECONDS - start)) s (log: $BUILD/qemu-configure.log)"
fi

# shellcheck disable=SC2086
ninja -C "$OUT" ${NINJAFLAGS:-} qemu-system-i386

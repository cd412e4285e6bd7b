#!/usr/bin/env bash
# Install the Debian packages the build needs, and only those that are missing.
#
# Usage: scripts/deps.sh [STAMP]
#   Checks every package with dpkg-query; runs `apt-get update` and
#   `apt-get install` only when something is missing. With STAMP, writes that
#   file on success (the Makefile uses it so a warm build does not re-check).
set -euo pipefail

PACKAGES=(
    # host C toolchain for QEMU
    gcc libc6-dev make pkg-config ninja-build flex bison
    # QEMU's libraries: glib (with gmodule, for --enable-plugins), zlib, pixman, fdt
    libglib2.0-dev zlib1g-dev libpixman-1-dev libfdt-dev
    # fetching and unpacking QEMU's Debian source package
    dpkg-dev patch xz-utils
    # the project's Python virtualenv (PyPI over HTTPS)
    python3 python3-venv ca-certificates
    # guest code: the i686 cross toolchain (the machine loads ELF files
    # itself, or GRUB does: no disk images, so no xorriso or mtools)
    gcc-i686-linux-gnu binutils-i686-linux-gnu
    # scc-run --grub: building GRUB 2 (i386-multiboot) from its source
    gawk
    # scc-run --gdb: debugging a core (docs/debugging.md)
    gdb
)

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
    if [[ "$status" != ii* ]]; then
        missing+=("$pkg")
    fi
done

if ((${#missing[@]})); then
    echo "deps: installing missing packages: ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        SUDO=sudo
    else
        SUDO=
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q </dev/null
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
else
    echo "deps: all ${#PACKAGES[@]} packages present"
fi

if [[ $# -ge 1 ]]; then
    mkdir -p "$(dirname "$1")"
    printf '# written by scripts/deps.sh: host packages checked\n' >"$1"
fi

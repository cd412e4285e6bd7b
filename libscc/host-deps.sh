#!/usr/bin/env bash
# The host compiler's sanitizer runtimes, for libscc's host test builds
# (ThreadSanitizer, AddressSanitizer, UBSan). Installs only what is missing.
#
# Usage: libscc/host-deps.sh STAMP   (writes STAMP on success)
set -euo pipefail

PACKAGES=(gcc libc6-dev libtsan2 libasan8 libubsan1)

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
    [[ "$status" == ii* ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
    echo "libscc: installing missing packages: ${missing[*]}"
    SUDO=; [[ $(id -u) -eq 0 ]] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q </dev/null
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi
mkdir -p "$(dirname "$1")"
echo "# written by libscc/host-deps.sh" >"$1"

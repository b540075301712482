#!/usr/bin/env bash
# Installs what scripts/cross_test.sh and scripts/windows_test.sh need, on Debian or Ubuntu: the aarch64
# cross compiler and C library, qemu's user-mode emulator, the MinGW-w64 compiler for x86-64 Windows and Wine,
# plus the two Rust targets. Safe to run again: apt-get and rustup skip what is already there.
#
#   scripts/install_cross_deps.sh            # as root, or with sudo on the PATH
set -euo pipefail

packages=(
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross # link aarch64 Linux binaries
    qemu-user                                   # run them: qemu-aarch64 -L /usr/aarch64-linux-gnu
    gcc-mingw-w64-x86-64                        # link x86_64-pc-windows-gnu, build the test-only DLL
    wine wine64                                 # run chuhan.exe
)

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "apt packages: all installed"
fi
# aarch64-linux-android only for `cargo check`: linking it needs the NDK.
rustup target add aarch64-unknown-linux-gnu aarch64-linux-android x86_64-pc-windows-gnu

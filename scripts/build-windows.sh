#!/usr/bin/env bash
# Build chuhan.exe for 64-bit Windows, pack a release archive and smoke-test it under Wine, from
# a clean Debian/Ubuntu machine (root, network to the Debian mirror and crates.io). docs/windows.md
# tells the why and the figures of the last run. Usage:
#   sudo scripts/build-windows.sh [--no-smoke]
# Steps, each skipped when its result is already there (the script is idempotent):
#   1. a Debian sid build root made with debootstrap (the host's toolchain has no Windows target,
#      Debian stable's is too old), cached in $CHUHAN_WINDOWS_CACHE;
#   2. rustc, cargo, rust-src, the MinGW-w64 cross compiler and Wine, from Debian's packages;
#   3. the working tree (tracked and untracked, not ignored files) copied into the root, and
#      built there twice: for Linux (the reference of the smoke test) and for
#      x86_64-pc-windows-gnu (linker x86_64-w64-mingw32-gcc-posix, +crt-static so the .exe needs
#      no MinGW DLL, std built from rust-src when Debian ships no prebuilt one for the target);
#   4. the .exe stripped, its debug info kept beside it (chuhan.exe.debug, found by gdb through
#      a .gnu_debuglink), and packed with README.md and the licence into a .zip (the opening
#      book and the network are compiled into the binary);
#   5. scripts/windows-smoke.sh under Wine in the root.
# Env: CHUHAN_WINDOWS_CACHE (default /var/cache/chuhan-windows), CHUHAN_WINDOWS_OUT (default
# target/windows), DEBIAN_MIRROR (default http://deb.debian.org/debian), CARGO_BUILD_JOBS.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${CHUHAN_WINDOWS_CACHE:-/var/cache/chuhan-windows}
out=${CHUHAN_WINDOWS_OUT:-$repo/target/windows}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=sid
root=$cache/$suite-root
target=x86_64-pc-windows-gnu
packages=(ca-certificates rustc cargo rust-src gcc-mingw-w64-x86-64-posix
    binutils-mingw-w64-x86-64 wine wine64 zip)
smoke=1
case "${1:-}" in
"") ;;
--no-smoke) smoke=0 ;;
*)
    sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

die() {
    echo "build-windows: $*" >&2
    exit 1
}
step() { echo "== $(date -u +%H:%M:%S) $*"; }
started=$(date +%s)

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot); run it with sudo"
for tool in git unshare chroot mount; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed"
done
if ! command -v debootstrap >/dev/null; then
    step "installing debootstrap"
    apt-get install -y -q debootstrap >/dev/null ||
        die "cannot install debootstrap (apt-get install debootstrap failed)"
fi
version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)
expected_bench=$(git -C "$repo" log --format=%B |
    sed -n 's/^Bench: *\([0-9][0-9]*\) *$/\1/p' | head -n 1)
[ -n "$expected_bench" ] || die "no commit carries a 'Bench: N' line to check the .exe against"

# A command in the build root, in a mount namespace of its own: /proc and /dev are mounted
# there and vanish with it, so an interrupted run leaves no mount behind.
# shellcheck disable=SC2016 # $0, $1, $2 are the inner shell's
in_root() {
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # Cargo trusts what the host trusts (a proxy's own CA, say), not only Debian's bundle.
    local ca=/etc/ssl/certs/ca-certificates.crt
    [ -f "$ca" ] || ca=$root$ca
    mkdir -p "$root/build"
    cp -L "$ca" "$root/build/host-ca.crt"
    unshare --mount --propagation private -- sh -c '
        mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" &&
        exec chroot "$0" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            DEBIAN_FRONTEND=noninteractive CARGO_HOME=/build/cargo-home \
            CARGO_TARGET_DIR=/build/target CARGO_HTTP_CAINFO=/build/host-ca.crt \
            CARGO_BUILD_JOBS="$1" /bin/bash -euo pipefail -c "$2"
    ' "$root" "${CARGO_BUILD_JOBS:-$(nproc)}" "$1"
}

# 1. The build root.
if [ ! -f "$root/.chuhan-root" ]; then
    step "debootstrap $suite into $root (a few minutes, once)"
    mkdir -p "$cache"
    rm -rf "$root.partial"
    debootstrap --variant=minbase "$suite" "$root.partial" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
        die "debootstrap of Debian $suite from $mirror failed; see $cache/debootstrap.log"
    touch "$root.partial/.chuhan-root"
    rm -rf "$root"
    mv "$root.partial" "$root"
fi

# 2. The toolchain, installed again only when the package list changes.
wanted="${packages[*]}"
# Debian's mirror (or the snapshot of it this machine sees) may serve a Release file past its
# Valid-Until date; apt still checks the signatures, it only stops refusing old metadata.
echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99chuhan-valid-until"
if [ "$(cat "$root/.chuhan-packages" 2>/dev/null)" != "$wanted" ]; then
    step "apt-get install $wanted"
    in_root "apt-get update -q >/dev/null" || die "apt-get update failed in $root (mirror $mirror)"
    missing=$(in_root "for p in $wanted; do
        apt-cache policy \$p | grep 'Candidate: [0-9]' >/dev/null || echo -n \" \$p\"
    done")
    [ -z "$missing" ] || die "Debian $suite ($mirror) has no installable package:$missing"
    in_root "apt-get install -y -q --no-install-recommends $wanted >/tmp/apt.log 2>&1 ||
        { tail -n 30 /tmp/apt.log; exit 1; }" ||
        die "apt-get install failed in $root (the packages' dependencies cannot be had?)"
    echo "$wanted" >"$root/.chuhan-packages"
fi
in_root "rustc --version; cargo --version; x86_64-w64-mingw32-gcc-posix --version | head -n 1; wine --version"

# 3. The source, exactly the working tree's files, then the two builds.
step "copying the working tree into $root/build/src"
rm -rf "$root/build/src"
mkdir -p "$root/build/src"
(cd "$repo" && git ls-files -z -c -o --exclude-standard |
    while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done |
    tar --null -T - -cf -) | tar -xf - -C "$root/build/src"

step "cargo build --release (Linux, the reference)"
in_root "cd /build/src && cargo build --release --locked --quiet --bin chuhan"

step "cargo build --release --target $target"
build_start=$(date +%s)
in_root "
    cd /build/src
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc-posix
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS='-C target-feature=+crt-static'
    if [ -d \"\$(rustc --print sysroot)/lib/rustlib/$target/lib\" ]; then
        echo 'std for $target: the prebuilt one'
        cargo build --release --locked --quiet --bin chuhan --target $target
    else
        echo 'std for $target: built from rust-src (-Zbuild-std)'
        RUSTC_BOOTSTRAP=1 cargo build --release --locked --quiet --bin chuhan --target $target \
            -Zbuild-std=std,panic_abort
    fi"
build_secs=$(($(date +%s) - build_start))

# 4. Symbols apart, and the archive.
step "stripping and packing"
name=chuhan-$version-windows-x86_64
in_root "
    rm -rf /build/out && mkdir -p /build/out/$name
    cd /build/out
    exe=/build/target/$target/release/chuhan.exe
    x86_64-w64-mingw32-objcopy --only-keep-debug \$exe chuhan.exe.debug
    x86_64-w64-mingw32-strip --strip-all -o $name/chuhan.exe \$exe
    x86_64-w64-mingw32-objcopy --add-gnu-debuglink=chuhan.exe.debug $name/chuhan.exe
    cp /build/src/README.md $name/README.md
    licence=\$(ls /build/src/LICENSE* /build/src/COPYING* 2>/dev/null | head -n 1 || true)
    cp \"\${licence:-/usr/share/common-licenses/GPL-3}\" $name/COPYING.txt
    TZ=UTC touch -d @\$(stat -c %Y /build/src/Cargo.toml) $name/*
    zip -q -X -r $name.zip $name"
rm -rf "$out"
mkdir -p "$out"
cp "$root/build/out/$name.zip" "$root/build/out/chuhan.exe.debug" "$out/"
cp "$root/build/out/$name/chuhan.exe" "$out/"
size() { stat -c %s "$1" | awk '{ printf "%.1f MB (%d bytes)", $1 / 1e6, $1 }'; }
echo "unstripped .exe: $(size "$root/build/target/$target/release/chuhan.exe")"
echo "chuhan.exe:      $(size "$out/chuhan.exe")"
echo "chuhan.exe.debug: $(size "$out/chuhan.exe.debug")"
echo "$name.zip: $(size "$out/$name.zip")"
echo "Windows build: $build_secs s"

# 5. The smoke test.
if [ "$smoke" = 1 ]; then
    step "smoke test under Wine"
    in_root "WINEPREFIX=/build/wine-prefix /build/src/scripts/windows-smoke.sh \
        /build/out/$name/chuhan.exe /build/target/release/chuhan $expected_bench"
fi
step "done in $(($(date +%s) - started)) s: $out"

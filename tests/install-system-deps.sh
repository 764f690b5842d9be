#!/usr/bin/env sh
# The Debian packages the tests drive for real: a virtual X display, xdotool and xwininfo for playing the app by hand,
# ImageMagick for screenshots, espeak-ng and sox for the announcer, mosquitto for the venue broker, Chromium and
# its WebDriver for the phone companion, libcairo2 (cairosvg) and ghostscript for the build guide's true-scale PDF,
# Node.js for running the firmware under MicroPython's WebAssembly port (its npm package is pinned in
# tests/mpy/package-lock.json and installed here with npm ci). Idempotent: installs only what is missing. Needs root
# (CI runs as root).
set -eu
pkgs="xvfb xdotool x11-utils imagemagick espeak-ng sox mosquitto chromium chromium-driver libcairo2 ghostscript nodejs"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing Debian packages:$missing"
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=""; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
mpy_dir="$(dirname "$0")/mpy"
if [ ! -f "$mpy_dir/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "npm not found: install Node.js with npm to run the MicroPython checks" >&2
        exit 1
    fi
    echo "installing the MicroPython WebAssembly port (npm ci in tests/mpy)"
    (cd "$mpy_dir" && npm ci --no-audit --no-fund --silent)
fi

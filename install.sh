#!/usr/bin/env bash
# Install ParamTally on Debian 12 (or Ubuntu): the system libraries Qt needs, a venv in .venv, and
# the package in it (editable, so `python main.py` and edits in this checkout run as installed).
#
#   bash install.sh          the app: window and commands
#   bash install.sh --test   also the test extras, Xvfb, xdotool and a window manager for the
#                            tests that drive the window with real X events, and librsvg's
#                            rsvg-convert, which draws the exported SVGs as GNOME and Inkscape do,
#                            and a CJK font (WenQuanYi Micro Hei) to judge Chinese reports and screenshots
#
# System packages are installed only when missing, with sudo only when not root (containers and
# CI hosts often run as root without sudo). `.ci/run` calls this same script.
set -euo pipefail
cd "$(dirname "$0")"

test_extras=0
case "${1:-}" in
  "") ;;
  --test) test_extras=1 ;;
  *) echo "usage: bash install.sh [--test]" >&2; exit 2 ;;
esac

# Qt's xcb platform for a real window (PySide6-Essentials brings Qt itself), fonts (without them
# every label renders as empty boxes) and Debian's venv module.
packages=(
  python3-venv fonts-dejavu-core libgl1 libegl1 libglib2.0-0 libfontconfig1 libfreetype6
  libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0 libx11-6 libx11-xcb1 libxcb-cursor0 libxcb-icccm4
  libxcb-keysyms1 libxcb-image0 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-shm0
  libxcb-sync1 libxcb-xfixes0 libxcb-xkb1
)
if [ "$test_extras" = 1 ]; then
  packages+=(xvfb xauth xdotool matchbox-window-manager librsvg2-bin fonts-wqy-microhei)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install.sh: these system packages are missing and installing them needs root or sudo:" >&2
    echo "  ${missing[*]}" >&2
    exit 1
  fi
  echo "== system packages: ${missing[*]}"
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

echo "== .venv with ParamTally"
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# -qq: setuptools announces every editable install of a mapped package-dir with an
# informational "be careful with folders named like your package" note; errors still show.
if [ "$test_extras" = 1 ]; then
  .venv/bin/python -m pip install -qq -e ".[test]"
else
  .venv/bin/python -m pip install -qq -e .
fi
# An editable install leaves ParamTally's own modules uncompiled: compile them now, as pip does a
# wheel's, so no start compiles them again — a shell with PYTHONDONTWRITEBYTECODE set would
# otherwise compile every module on every start (a command, the window, each test's subprocess).
.venv/bin/python -m compileall -q -j 0 main.py __init__.py __main__.py core gui presets resources >/dev/null

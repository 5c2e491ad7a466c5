#!/usr/bin/env bash
# Install the Dungeonopoly companion as a boot-time kiosk on Raspberry Pi OS (Bookworm or later,
# Lite or desktop). Run from a checkout of the project:   sudo ./systemd/install.sh
#
# What it does (safe to run again; it updates in place):
#   1. apt packages: python3-picamera2, python3-lgpio, python3-opencv and friends. These come
#      from Raspberry Pi OS because the pip wheels either do not exist for the Pi camera stack
#      (libcamera) or clash with it; the venv sees them through --system-site-packages.
#   2. a venv in /opt/companion/venv with the project and the PyPI packages pinned with their
#      hashes in systemd/requirements-pi.txt pip-installed into it;
#   3. the unprivileged user 'companion' in the groups video, render, input and gpio;
#   4. /etc/companion/companion.toml (only if missing: your edits are kept);
#   5. the unit /etc/systemd/system/companion.service, enabled (and started unless --no-start).
#
# Options: --no-start   install and enable, but do not start now (e.g. when building an image)
#          --no-apt     skip apt (packages already installed, or offline)
set -euo pipefail

PREFIX=/opt/companion
VENV="$PREFIX/venv"
SERVICE_USER=companion
GROUPS_WANTED=(video render input gpio)
CONFIG_DIR=/etc/companion
UNIT_DIR=/etc/systemd/system
APT_PACKAGES=(
    python3-venv python3-pip python3-picamera2 python3-lgpio python3-gpiozero
    python3-opencv python3-numpy libsdl2-2.0-0
)

start_now=1
use_apt=1
for arg in "$@"; do
    case "$arg" in
        --no-start) start_now=0 ;;
        --no-apt) use_apt=0 ;;
        -h | --help)
            awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
            exit 0
            ;;
        *)
            echo "install.sh: unknown option '$arg' (use --no-start, --no-apt or --help)" >&2
            exit 2
            ;;
    esac
done

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

[[ $(id -u) -eq 0 ]] || die "run as root: sudo $0 $*"
command -v systemctl >/dev/null || die "systemctl not found: this installs a systemd service"

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ -f "$SRC/pyproject.toml" && -f "$SRC/systemd/companion.service" ]] ||
    die "run this script from the project checkout (no pyproject.toml next to systemd/ in $SRC)"

if ! grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; then
    say "warning: this does not look like a Raspberry Pi; continuing (the camera and GPIO need one)"
fi

if [[ $use_apt -eq 1 ]]; then
    say "installing system packages: ${APT_PACKAGES[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
fi

say "creating the venv $VENV (with system site packages for picamera2, lgpio and OpenCV)"
install -d -m 0755 "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv --system-site-packages "$VENV"
fi
# numpy, gpiozero, lgpio and picamera2 come from apt. Everything from PyPI is pinned with its
# hash in systemd/requirements-pi.txt (made by scripts/pi_requirements.py for the numpy of
# Bookworm and of Trixie), so installing twice gives the same bytes; --no-deps keeps pip from
# replacing the apt numpy that picamera2's compiled helpers were built against.
"$VENV/bin/python" -c 'import numpy' ||
    die "numpy is not importable in $VENV: install python3-numpy (or drop --no-apt)"
py_version=$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case "$py_version" in
    3.11 | 3.13) ;;
    *) die "Python $py_version: systemd/requirements-pi.txt has hashes for 3.11 (Bookworm) and 3.13 (Trixie)" ;;
esac
"$VENV/bin/python" -m pip install --require-hashes --no-deps \
    -r "$SRC/systemd/requirements-pi.txt" ||
    die "pip could not install the pinned packages of systemd/requirements-pi.txt (see above)"
"$VENV/bin/python" -m pip install --no-deps --no-build-isolation "$SRC" ||
    die "pip could not install the companion from $SRC (see above)"
if ! "$VENV/bin/python" -c 'import onnxruntime' 2>/dev/null; then
    say "warning: onnxruntime is not usable; the dice reader will use OpenCV's DNN module (about 1.6x slower)"
fi
"$VENV/bin/python" -c 'import cv2; cv2.aruco.ArucoDetector' ||
    die "OpenCV in $VENV lacks cv2.aruco.ArucoDetector (4.7 or later is needed): see the error above"
[[ -x "$VENV/bin/companion" ]] || die "pip did not install the 'companion' command into $VENV/bin"
"$VENV/bin/python" -c 'import numpy, cv2, pygame, gpiozero' ||
    die "the venv cannot import numpy, cv2, pygame and gpiozero: see the error above"
if ! "$VENV/bin/python" -c 'import picamera2' 2>/dev/null; then
    say "warning: picamera2 is not importable; only USB cameras (device:0) will work"
fi

say "documentation in $PREFIX/docs"
install -d -m 0755 "$PREFIX/docs"
for doc in install-pi.md hardware.md; do
    if [[ -f "$SRC/docs/$doc" ]]; then
        install -m 0644 "$SRC/docs/$doc" "$PREFIX/docs/$doc"
    fi
done

say "user '$SERVICE_USER'"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/companion --no-create-home \
        --shell /usr/sbin/nologin --comment "Dungeonopoly companion kiosk" "$SERVICE_USER"
fi
for group in "${GROUPS_WANTED[@]}"; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" "$SERVICE_USER"
    else
        say "warning: group '$group' does not exist here; skipped (needed on a Pi for the" \
            "camera, screen, keyboard and buttons)"
    fi
done

say "settings in $CONFIG_DIR/companion.toml"
install -d -m 0755 "$CONFIG_DIR"
if [[ ! -f "$CONFIG_DIR/companion.toml" ]]; then
    install -m 0644 "$SRC/assets/config/companion.toml" "$CONFIG_DIR/companion.toml"
else
    say "kept your existing $CONFIG_DIR/companion.toml"
fi

say "systemd unit"
install -m 0644 "$SRC/systemd/companion.service" "$UNIT_DIR/companion.service"
systemctl daemon-reload
systemctl enable companion.service
if [[ $start_now -eq 1 ]]; then
    # The unit conflicts with the login prompt on tty1, so starting it replaces that prompt.
    systemctl restart companion.service
    say "started: 'systemctl status companion' shows it, 'journalctl -u companion -f' its log"
else
    say "enabled; it starts at the next boot"
fi

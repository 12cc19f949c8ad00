#!/usr/bin/env bash
# Install (or update) the table companion on Raspberry Pi OS Bookworm as a service.
# docs/install.md walks through it. Run from a checkout of the project:
#
#   sudo ./systemd/install.sh [--dry-run] [--apply-config-txt] [--with-rpi-ws281x]
#
# What it does, each step only if not done already (so it is safe to run again,
# and running it from a newer checkout is how the box is updated):
#   1. apt packages (the lists read afresh first): python3-venv, python3-pip,
#      python3-opencv, python3-numpy, python3-lgpio, python3-picamera2 (from apt, so
#      they match the system's libcamera and numpy), rsync; gcc and python3-dev with
#      --with-rpi-ws281x (refused on a Pi 5, which has no use for it). python3-lgpio and
#      python3-picamera2 come from the Raspberry Pi OS archive: on a plain Debian
#      lgpio's wheel is installed with pip instead, and the camera module is left out
#   2. the user `companion` (no login) in the groups gpio, spi and video
#   3. a copy of this checkout in /opt/table-companion/app and a venv in
#      /opt/table-companion/venv made with --system-site-packages (it sees apt's
#      OpenCV, lgpio and picamera2), the project installed into it with its
#      `appliance` extra (gpiozero, zeroconf) and, with --with-rpi-ws281x, `leds`
#   4. /etc/table-companion/config.toml with every key at its default (never
#      overwritten), checked: a file with problems stops the install
#   5. the udev rule that gives /dev/leds0 (the Pi 5 LED driver) to the gpio group
#   6. the config.txt / cmdline.txt lines the configured LED backend needs:
#      printed, and written only with --apply-config-txt (then reboot)
#   7. the systemd unit, enabled and (re)started
#
# --dry-run prints every command and file instead of running or writing it.
set -euo pipefail

# shellcheck source=/dev/null  # common.sh is checked on its own
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GROUPS_NEEDED=(gpio spi video)
VENV=$PREFIX/venv
APP=$PREFIX/app
CONFIG=$CONFIG_DIR/config.toml

DRY_RUN=0
APPLY_CONFIG_TXT=0
WITH_WS281X=0
PIP_LGPIO=0

usage() {
    sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    echo "options: --dry-run  --apply-config-txt  --with-rpi-ws281x  --help"
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --apply-config-txt) APPLY_CONFIG_TXT=1 ;;
            --with-rpi-ws281x) WITH_WS281X=1 ;;
            -h|--help) usage; exit 0 ;;
            *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
        esac
        shift
    done
}


# write_file PATH MODE OWNER:GROUP, content on stdin; rewritten only when it differs.
write_file() {
    local path=$1 mode=$2 owner=$3 content
    content=$(cat)
    if [[ -f $path ]] && [[ "$(cat "$path")" == "$content" ]]; then
        echo "unchanged: $path"
        return
    fi
    if [[ $DRY_RUN == 1 ]]; then
        echo "+ write $path (mode $mode, owner $owner):"
        printf '%s\n' "$content" | sed 's/^/    | /'
        return
    fi
    local temporary
    temporary=$(mktemp)
    printf '%s\n' "$content" > "$temporary"
    install -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$temporary" "$path"
    rm -f "$temporary"
    echo "wrote $path"
}

# The project's own Python for the helper modules: the venv once it exists, else
# the system's python3 reading this checkout (a dry run has no venv).
helper_python() {
    if [[ -x $VENV/bin/python ]]; then
        "$VENV/bin/python" "$@"
    else
        PYTHONPATH=$SOURCE python3 "$@"
    fi
}

preflight() {
    if [[ $DRY_RUN == 0 && $(id -u) != 0 ]]; then
        echo "run as root: sudo $0 $*" >&2
        exit 1
    fi
    [[ -f $SOURCE/pyproject.toml ]] || { echo "not a checkout of the project: $SOURCE" >&2; exit 1; }
    local codename
    # shellcheck disable=SC1091  # the running system's file
    codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}") || echo unknown)
    if [[ $codename != bookworm ]]; then
        echo "note: this script is written for Raspberry Pi OS Bookworm; this is '$codename'"
    fi
    refuse_ws281x_on_a_pi5
    [[ $DRY_RUN == 1 ]] && echo "dry run: nothing is changed, every step is printed"
    return 0
}

# The board's model as its device tree names it ("Raspberry Pi 5 Model B Rev 1.0"), or
# nothing off a Pi. COMPANION_MODEL_FILE reads another file (a test, an image built elsewhere).
board_model() {
    local file files=(/proc/device-tree/model /sys/firmware/devicetree/base/model)
    [[ -n ${COMPANION_MODEL_FILE:-} ]] && files=("$COMPANION_MODEL_FILE")
    for file in "${files[@]}"; do
        if [[ -r $file ]]; then
            tr -d '\0' < "$file"
            return
        fi
    done
}

# rpi_ws281x drives the strip through the Pi 4's and older PWM, PCM and SPI blocks; the
# Pi 5 moved them to its RP1 chip, which the library does not know (it fails at the first
# frame). The Pi 5 lights the strip with the kernel's driver instead (docs/leds.md).
refuse_ws281x_on_a_pi5() {
    [[ $WITH_WS281X == 1 ]] || return 0
    local model
    model=$(board_model)
    if [[ $model == *"Raspberry Pi 5"* || $model == *"Compute Module 5"* ]]; then  # Pi 5, Pi 500, CM5
        echo "--with-rpi-ws281x is not for this board ($model): rpi_ws281x cannot drive a Pi 5's pins." >&2
        echo "Run again without it: a Pi 5 lights the strip with the kernel's LED driver (docs/leds.md)." >&2
        exit 2
    fi
}

apt_available() { apt-cache show "$1" >/dev/null 2>&1; }

# A tool the step needs; a dry run shows its commands anyway.
have() { [[ $DRY_RUN == 1 ]] || command -v "$1" >/dev/null 2>&1; }

install_packages() {
    say "apt packages"
    local packages=(python3-venv python3-pip python3-numpy python3-opencv rsync)
    [[ $WITH_WS281X == 1 ]] && packages+=(gcc python3-dev)
    # The lists first: on a fresh card they are empty, and every lookup below would say
    # "not in the apt sources" even on Raspberry Pi OS.
    run apt-get update
    if apt_available python3-lgpio; then
        packages+=(python3-lgpio)
    else
        echo "python3-lgpio is not in the apt sources (Raspberry Pi OS has it): pip installs lgpio into the venv"
        PIP_LGPIO=1
    fi
    if apt_available python3-picamera2; then
        packages+=(python3-picamera2)
    else
        echo "python3-picamera2 is not in the apt sources (Raspberry Pi OS only): no camera module support"
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
}

create_user() {
    say "the service user $SERVICE_USER (groups ${GROUPS_NEEDED[*]})"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        echo "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table companion service" "$SERVICE_USER"
    fi
    run usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
}

install_app() {
    say "the app in $APP and its venv in $VENV"
    run install -d -m 0755 "$PREFIX" "$APP"
    run rsync -a --delete --exclude .git --exclude .venv --exclude __pycache__ --exclude '*.egg-info' \
        --exclude .pytest_cache --exclude .mypy_cache --exclude .hypothesis --exclude build "$SOURCE/" "$APP/"
    if [[ -x $VENV/bin/python ]]; then
        echo "venv exists"
    else
        run python3 -m venv --system-site-packages "$VENV"
    fi
    local extras=appliance
    [[ $WITH_WS281X == 1 ]] && extras=appliance,leds
    # Editable: the service serves web/ from the app folder. pip installs only what apt
    # lacks (Flask, Flask-SocketIO, gpiozero, zeroconf) and leaves apt's numpy and OpenCV alone.
    run "$VENV/bin/pip" install --disable-pip-version-check --quiet --editable "${APP}[${extras}]"
    if [[ $PIP_LGPIO == 1 ]]; then
        run "$VENV/bin/pip" install --disable-pip-version-check --quiet "lgpio>=0.2.2"
    fi
    # Compiled now, as root: the service cannot write into /opt (ProtectSystem=strict).
    run "$VENV/bin/python" -m compileall -q "$APP/companion" "$APP/hardware" "$APP/calibration"
}

install_config() {
    say "the configuration $CONFIG"
    run install -d -m 0755 "$CONFIG_DIR"
    if [[ -f $CONFIG ]]; then
        echo "kept the existing $CONFIG"
    else
        helper_python -m companion.config defaults | write_file "$CONFIG" 0640 "root:$SERVICE_USER"
    fi
    if [[ -f $CONFIG ]]; then
        helper_python -m companion.config check --config "$CONFIG" || {
            echo "fix $CONFIG (every problem is listed above), then run this script again" >&2
            exit 1
        }
    fi
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
}

install_udev_rule() {
    say "udev: /dev/leds0 (Pi 5 LED driver) for the gpio group"
    write_file "$UDEV_RULE" 0644 root:root <<'EOF'
# table-companion: the ws2812-pio LED driver's node (Pi 5) for the gpio group,
# so the service needs no root to light the board.
KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"
EOF
    if have udevadm; then
        run udevadm control --reload-rules
        run udevadm trigger --sysname-match='leds[0-9]*'
    else
        echo "udevadm is not here (a container or chroot?): the rule applies from the next boot"
    fi
}

boot_config() {
    say "boot settings for the LED backend"
    local boot_dir=/boot/firmware config_args=()
    [[ -d $boot_dir ]] || boot_dir=/boot
    [[ -f $CONFIG ]] && config_args=(--config "$CONFIG")
    helper_python -m companion.appliance.bootconfig "${config_args[@]}" --boot-dir "$boot_dir"
    if [[ $APPLY_CONFIG_TXT == 1 ]]; then
        run "$VENV/bin/python" -m companion.appliance.bootconfig "${config_args[@]}" --boot-dir "$boot_dir" --apply
    else
        echo "(not written: run again with --apply-config-txt to write these lines, then reboot)"
    fi
}

install_unit() {
    say "the systemd unit"
    write_file "$UNIT" 0644 root:root < "$SOURCE/systemd/$NAME.service"
    if ! have systemctl; then
        echo "systemctl is not here (a container or chroot?): once systemd runs, enable and start the service:"
        echo "  systemctl daemon-reload && systemctl enable --now $NAME.service"
        return
    fi
    run systemctl daemon-reload
    run systemctl enable "$NAME.service"
    run systemctl restart "$NAME.service"
}

where_to_go() {
    say "done"
    local config_args=()
    [[ -f $CONFIG ]] && config_args=(--config "$CONFIG")
    helper_python -m companion.appliance.discovery "${config_args[@]}" || true
    echo "status: systemctl status $NAME   log: journalctl -u $NAME -f"
}

main() {
    parse_args "$@"
    preflight "$@"
    install_packages
    create_user
    install_app
    install_config
    install_udev_rule
    boot_config
    install_unit
    where_to_go
}

main "$@"

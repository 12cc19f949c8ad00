#!/usr/bin/env bash
# Remove the table companion service installed by systemd/install.sh (docs/install.md).
#
#   sudo ./systemd/uninstall.sh [--dry-run] [--revert-config-txt] [--purge]
#
# Stops and removes the unit, the udev rule and /opt/table-companion (the app and
# its venv). Keeps the games, pairings and calibrations in /var/lib/table-companion,
# the configuration in /etc/table-companion and the user `companion`, unless
# --purge is given. --revert-config-txt takes out the LED lines install.sh wrote
# into config.txt / cmdline.txt (then reboot). apt packages stay: other programs
# may use them. Safe to run again; --dry-run prints every step instead of doing it.
set -euo pipefail

# shellcheck source=/dev/null  # common.sh is checked on its own
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DRY_RUN=0
PURGE=0
REVERT_CONFIG_TXT=0

usage() {
    sed -n '2,4p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    echo "options: --dry-run  --revert-config-txt  --purge  --help"
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --purge) PURGE=1 ;;
            --revert-config-txt) REVERT_CONFIG_TXT=1 ;;
            -h|--help) usage; exit 0 ;;
            *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
        esac
        shift
    done
}


# remove PATH...: only what exists, so a second run has nothing to do.
remove() {
    local path
    for path in "$@"; do
        if [[ -e $path || -L $path ]]; then
            run rm -rf -- "$path"
        else
            echo "already gone: $path"
        fi
    done
}

preflight() {
    if [[ $DRY_RUN == 0 && $(id -u) != 0 ]]; then
        echo "run as root: sudo $0" >&2
        exit 1
    fi
    [[ $DRY_RUN == 1 ]] && echo "dry run: nothing is changed, every step is printed"
    return 0
}

stop_service() {
    say "the service"
    if [[ -f $UNIT ]]; then
        run systemctl disable --now "$NAME.service"
    else
        echo "no unit installed"
    fi
    remove "$UNIT"
    run systemctl daemon-reload
    run systemctl reset-failed "$NAME.service" || true
}

revert_boot_config() {
    [[ $REVERT_CONFIG_TXT == 1 ]] || return 0
    say "the LED lines in the boot files"
    local boot_dir=/boot/firmware python=(env "PYTHONPATH=$SOURCE" python3)
    [[ -d $boot_dir ]] || boot_dir=/boot
    [[ -x $PREFIX/venv/bin/python ]] && python=("$PREFIX/venv/bin/python")
    run "${python[@]}" -m companion.appliance.bootconfig --boot-dir "$boot_dir" --remove
}

remove_files() {
    say "the app, its venv and the udev rule"
    remove "$PREFIX" "$UDEV_RULE"
    run udevadm control --reload-rules
}

purge() {
    if [[ $PURGE == 0 ]]; then
        say "kept"
        echo "games, pairings and calibrations: $STATE_DIR"
        echo "configuration: $CONFIG_DIR"
        echo "user: $SERVICE_USER (run again with --purge to remove these too)"
        return
    fi
    say "purge: games, pairings, calibrations, configuration and the user"
    remove "$STATE_DIR" "$CONFIG_DIR"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run userdel "$SERVICE_USER"
    else
        echo "no user $SERVICE_USER"
    fi
}

main() {
    parse_args "$@"
    preflight
    revert_boot_config
    stop_service
    remove_files
    purge
}

main "$@"

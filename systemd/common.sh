# shellcheck shell=bash
# Shared by install.sh and uninstall.sh (sourced, not run): how each step is
# announced, and how --dry-run shows a command instead of running it.
# The sourcing script sets DRY_RUN (0 or 1) before calling run.

# Where the service lives, the same for installing and removing it.
# shellcheck disable=SC2034  # used by the scripts that source this file
{
NAME=table-companion
SERVICE_USER=companion
PREFIX=/opt/$NAME
CONFIG_DIR=/etc/$NAME
STATE_DIR=/var/lib/$NAME
UNIT=/etc/systemd/system/$NAME.service
UDEV_RULE=/etc/udev/rules.d/99-$NAME-leds.rules
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # the checkout being installed
}

say() { printf '\n== %s\n' "$*"; }

# Run a command, or with --dry-run only show it.
run() {
    if [[ ${DRY_RUN:-0} == 1 ]]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

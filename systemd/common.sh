# shellcheck shell=bash
# Shared by install.sh and uninstall.sh (sourced, not run): how each step is
# announced, and how --dry-run shows a command instead of running it.
# The sourcing script sets DRY_RUN (0 or 1) before calling run.

say() { printf '\n== %s\n' "$*"; }

# Run a command, or with --dry-run only show it.
run() {
    if [[ ${DRY_RUN:-0} == 1 ]]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

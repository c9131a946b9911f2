#!/usr/bin/env bash
# setup.sh [PACKAGE...]: installs the Debian packages the workbook lacks (make setup, which
# names the ones its checks found missing; none: nothing to do). As root, or with sudo when
# it needs no password; otherwise, or without apt-get, it stops and names the exact
# packages to install.
set -uo pipefail
[ $# -gt 0 ] || exit 0
missing=" $*"
echo "setup: missing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    sudo="sudo"
else
    echo "setup: cannot install them here (not root, no sudo). Run:"
    echo "    sudo apt-get install$missing"
    exit 1
fi
if ! command -v apt-get > /dev/null; then
    echo "setup: no apt-get on this machine; install the equivalents of:$missing"
    exit 1
fi
# shellcheck disable=SC2086 # $missing is a list of package names
$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing || {
    echo "setup: apt-get failed; install by hand:$missing"
    exit 1
}

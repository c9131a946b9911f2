#!/usr/bin/env bash
# setup.sh WHAT LOOP_PACKAGES [PACKAGE...]: installs the Debian packages that WHAT (the make
# command, for the messages) lacks; make's setup-GROUP names the ones its checks found
# missing (none: nothing to do). LOOP_PACKAGES are the ones the student's loop needs, so
# that someone who cannot install a package knows whether they can do without it.
# Installs as root, or with sudo when it needs no password; otherwise, or without apt-get,
# it stops and says what to ask for.
set -uo pipefail
what=$1 loop=$2
shift 2
[ $# -gt 0 ] || exit 0
missing=" $*"
echo "setup: $what needs Debian packages this machine lacks:$missing"
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    sudo="sudo"
else
    echo "setup: they cannot be installed from here (not root, and sudo is absent or asks for a password)."
    echo "  If you may use sudo, run:  sudo apt-get install$missing"
    echo "  Otherwise ask whoever runs this machine to install the Debian packages:$missing"
    echo "  (make exercise-N and make watch-N need only: $loop inotify-tools;"
    echo "   the others are for the book, the benchmarks, the profiles and the speed budget (valgrind),"
    echo "   grading and make test.)"
    exit 1
fi
if ! command -v apt-get > /dev/null; then
    echo "setup: no apt-get on this machine; install the equivalents of:$missing"
    exit 1
fi
# shellcheck disable=SC2086 # $missing is a list of package names
$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing && exit 0
# A package this release does not have (Debian 13 has no similarity-tester) cannot be installed
# by hand either: say which, and that only this target needs it.
absent=""
for p in $missing; do
    apt-cache show "$p" > /dev/null 2>&1 || absent="$absent $p"
done
if [ -n "$absent" ]; then
    echo "setup: this system's package archive has no$absent: $what cannot run here"
    echo "  (the targets that do not need it still work)"
else
    echo "setup: apt-get failed; install by hand:$missing"
fi
exit 1

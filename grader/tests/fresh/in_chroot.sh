#!/usr/bin/env bash
# in_chroot.sh ROOT USER COMMAND: runs COMMAND (one line for bash) in the Debian system
# unpacked at ROOT, as USER (a user of that system: root, or one made with useradd), in USER's
# home folder and a clean environment (PATH, HOME, USER, LANG=C.UTF-8 and nothing of the
# caller's: no MAKEFLAGS, no LUA_PATH), as a student's own shell would start it.
# Exit status: COMMAND's.
#
# /proc, /dev and /sys are mounted in a mount namespace of this command's own (unshare), never
# in the caller's: however the command ends (even killed), the kernel drops the namespace and
# its mounts with it, so nothing stays mounted under ROOT, and removing ROOT afterwards cannot
# reach into the host's /dev. The trap unmounts as well, for a namespace kept alive by a
# process the command left behind.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: in_chroot.sh ROOT USER COMMAND" >&2; exit 2; }
root=$(realpath -- "$1") user=$2 command=$3
[ "$root" != / ] && [ -x "$root/bin/sh" ] || { echo "in_chroot.sh: $1 holds no system" >&2; exit 2; }
uid=$(chroot "$root" id -u "$user") gid=$(chroot "$root" id -g "$user")
home=$(chroot "$root" getent passwd "$user" | cut -d: -f6)
exec unshare --mount --propagation private -- bash -c '
    set -eu
    root=$1 user=$2 uid=$3 gid=$4 home=$5 command=$6
    unmount() { umount -R "$root/sys" "$root/dev" "$root/proc" 2> /dev/null || true; }
    trap unmount EXIT
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    status=0 # not exec: the trap runs after the command
    chroot --userspec="$uid:$gid" --groups="$gid" "$root" /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" \
        USER="$user" LOGNAME="$user" LANG=C.UTF-8 \
        /bin/bash -c "cd \"\$HOME\" && $command" || status=$?
    exit $status
' in_chroot "$root" "$user" "$uid" "$gid" "$home" "$command"

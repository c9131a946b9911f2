#!/usr/bin/env bash
# make_edition.sh DEST [FORCE] [CHAPTER]: writes the student edition into DEST (make
# student-edition).
#
# The edition is the workbook without anything that answers the exercises: the paths
# grader/edition/ships.txt names (a whitelist), the student README (each chapter's
# grader/N/student-README.md, one after the other), and nothing else. With CHAPTER, only that
# chapter's folders of exercises/ and chapters/ ship (the engine's all do). Run from the
# workbook's root.
#
# - Only files git tracks or would track are copied (tar, so modes are kept): no build
#   outputs, no editor leftovers. Outside a git checkout, every file except *.o and
#   callgrind.out.* (the .gitignore's patterns) and build/ folders.
# - The student's files (exercises/N/*.c, N a chapter) are taken from git HEAD, so a stub that
#   somebody filled in while trying the exercise never ships.
# - DEST must be empty, or FORCE=1: then everything in it except .git is replaced, so
#   an existing template repository can be updated and committed. DEST may not be the
#   workbook, a folder inside it (except under build/), or a folder holding it, and
#   FORCE never empties a folder that looks like an instructor's workbook.
# - Last, check_edition.lua must find no build output and nothing of solutions/ or
#   grader/; otherwise the edition is removed again and the command fails.
set -uo pipefail

die() {
    echo "student-edition: $*" >&2
    exit 1
}

dest=${1:-}
force=${2:-}
chapter=${3:-}
[ -n "$dest" ] || die "usage: make student-edition DEST=dir [FORCE=1]"
[ -f grader/edition/ships.txt ] || die "run it from the workbook's root (make student-edition)"

root=$(realpath .)
target=$(realpath -m -- "$dest")
case "$root/" in
"$target"/*) die "DEST=$dest is the workbook or holds it" ;;
esac
case "$target/" in
"$root"/build/*) ;;
"$root"/*) die "DEST=$dest is inside the workbook (only build/ may hold an edition)" ;;
esac
[ "$target" != / ] && [ "$target" != "$(realpath -m ~)" ] || die "DEST=$dest: not there"

[ ! -e "$target" ] || [ -d "$target" ] || die "DEST=$dest exists and is not a folder"
if [ -d "$target" ] && [ -n "$(ls -A "$target")" ]; then
    [ "$force" = 1 ] || die "DEST=$dest is not empty; FORCE=1 replaces what is in it (but .git)"
    [ ! -e "$target/solutions" ] && [ ! -e "$target/grader" ] ||
        die "DEST=$dest looks like an instructor's workbook (solutions/ or grader/): not touching it"
    find "$target" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} + ||
        die "could not empty $dest"
fi
mkdir -p "$target" || die "cannot create $dest"

mapfile -t shipped < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*$//' grader/edition/ships.txt)
# The chapters that ship: CHAPTER, or every one with an exercise.
chapters=()
for dir in exercises/[0-9]*/; do
    n=$(basename "$dir")
    [ -f "$dir/chapter.lua" ] && { [ -z "$chapter" ] || [ "$n" = "$chapter" ]; } && chapters+=("$n")
done
[ ${#chapters[@]} -gt 0 ] || die "no chapter ${chapter:+$chapter }to publish (no exercises/N/chapter.lua)"
for n in "${chapters[@]}"; do
    [ -f "grader/$n/student-README.md" ] || die "chapter $n has no grader/$n/student-README.md (the edition's README)"
done
# A chapter's folder in exercises/ or chapters/ that is not one of them stays behind.
other_chapter() {
    case $1 in
    exercises/[0-9]*/* | chapters/[0-9]*/*)
        n=${1#*/}
        n=${n%%/*}
        for c in "${chapters[@]}"; do [ "$c" = "$n" ] && return 1; done
        return 0
        ;;
    esac
    return 1
}
in_git=no
[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$root" ] && in_git=yes
list_files() {
    if [ $in_git = yes ]; then
        git ls-files -z --cached --others --exclude-standard -- "${shipped[@]}" |
            while IFS= read -r -d '' f; do [ -f "$f" ] && ! other_chapter "$f" && printf '%s\0' "$f"; done
    else
        find "${shipped[@]}" -name build -prune -o -type f ! -name '*.o' ! -name 'callgrind.out.*' -print0 |
            while IFS= read -r -d '' f; do ! other_chapter "$f" && printf '%s\0' "$f"; done
    fi
}
list_files | tar --null -T - -cf - | tar -xf - -C "$target" || die "could not copy the files"

# The student's files as committed.
if [ $in_git = yes ]; then
    for file in exercises/[0-9]*/*.c; do
        [ -f "$file" ] && ! other_chapter "$file" || continue
        if git cat-file -e "HEAD:$file" 2>/dev/null; then
            git show "HEAD:$file" > "$target/$file" || die "git show HEAD:$file failed"
            git diff --quiet HEAD -- "$file" ||
                echo "student-edition: $file has changes that are not committed: the edition has the committed one"
        fi
    done
fi
for n in "${chapters[@]}"; do cat "grader/$n/student-README.md"; done > "$target/README.md" ||
    die "could not write README.md"

if ! "${LUA:-lua5.4}" grader/edition/check_edition.lua "$target"; then
    find "$target" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    die "the edition was removed again: fix what check_edition found above"
fi
echo "student-edition: written to $dest ($(find "$target" -name .git -prune -o -type f -print | wc -l) files)."
echo "  Publish it as a folder, a tarball or a template repository: see README.md, 'Publishing the student edition'."

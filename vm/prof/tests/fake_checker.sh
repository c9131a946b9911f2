#!/bin/sh
# fake_checker.sh --cases FILE --run CASE --results PATH: a stand-in for a chapter's checker
# in the tests of `dripprof top/files/rows --with` (cases/*.txt, test_robust.c). It computes
# nothing: it writes the answers file the test names, as it is, and misbehaves when asked to,
# so the tests see what dripprof does with each answer and each failure without vm/ holding
# an implementation of an exercise function.
#
#   FAKE_ANSWERS    the answers to write to PATH (KEY<TAB>ANSWER lines, escaped, usually
#                   ending in "end<TAB>ok")
#   FAKE_MISBEHAVE  crash (SIGSEGV), loop (until the CPU limit), noend (the answers without
#                   their end line), fail (the answers, then exit 1), flood (2 MB on stdout),
#                   refuse (say the case is not in the cases file), chatter-crash (four
#                   lines on stderr, then SIGSEGV)
#   FAKE_KEEP       a path to copy the cases file to, for the test to read
#
# Like a real checker it refuses a case the cases file does not hold (exit 2).
cases="" run="" results=""
while [ $# -gt 1 ]; do
    case $1 in
    --cases) cases=$2 ;;
    --run) run=$2 ;;
    --results) results=$2 ;;
    *) echo "fake_checker: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
[ -n "$FAKE_KEEP" ] && cp "$cases" "$FAKE_KEEP"
if [ "${FAKE_MISBEHAVE:-}" = refuse ] || ! cut -f1 "$cases" | grep -qxF "$run"; then
    echo "fake_checker: $cases: no case $run" >&2
    exit 2
fi
case ${FAKE_MISBEHAVE:-} in
crash) kill -SEGV $$ ;;
loop) while :; do :; done ;;
noend) grep -v "^end	ok\$" "$FAKE_ANSWERS" > "$results"; exit 0 ;;
flood) head -c 2000000 /dev/zero | tr '\0' x ;;
chatter-crash) printf 'debug: one\ndebug: two\ndebug: three\ndebug: four\n' >&2; kill -SEGV $$ ;;
esac
cat "$FAKE_ANSWERS" > "$results"
[ "${FAKE_MISBEHAVE:-}" = fail ] && exit 1
exit 0

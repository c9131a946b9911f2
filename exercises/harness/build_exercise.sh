#!/usr/bin/env bash
# build_exercise.sh OUT BRIEF -- CC WORDS...: compiles the code under test with the test
# driver's objects into OUT/tests (make exercise-N), the compiler's words in OUT/build.log.
#
# A student reads what happens here, so a failed build is said in plain words before the
# compiler's own ("Fix the first error first"), and warnings are shown after the build
# (BRIEF=1, watch mode: not here, the report shows them after its progress line). Exit
# status: 0 built, 1 not built. A failed build removes the last good OUT/tests, so no
# run (watch mode's, or one by hand) can take the old code's verdicts for the new code's.
set -uo pipefail
out=$1 brief=$2
shift 3
mkdir -p "$out"
if ! "$@" -o "$out/tests" > "$out/build.log" 2>&1; then
    rm -f "$out/tests"
    echo
    echo "Your code does not compile yet, so no test could run. The compiler says:"
    echo
    sed 's/^/    /' "$out/build.log"
    echo
    echo "Fix the first error first: later ones are often caused by it."
    # The one error the C standard's own names cause: strdup and strndup are POSIX.
    if grep -Eq "implicit declaration of function .(strdup|strndup)" "$out/build.log"; then
        echo "strdup and strndup are POSIX, not C11: <string.h> declares them only when"
        echo "profile.c starts with the stub's first line, #define _POSIX_C_SOURCE 200809L,"
        echo "above every #include."
    fi
    exit 1
fi
if [ -s "$out/build.log" ] && [ -z "$brief" ]; then
    echo "The compiler warns (warnings often point at real bugs):"
    sed 's/^/    /' "$out/build.log"
fi
exit 0

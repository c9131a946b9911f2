#!/usr/bin/env bash
# regenerate.sh OUTDIR: re-creates the callgrind fixtures in vm/prof/tests/data.
#
# The committed files came from Debian 12 (gcc 12.2, glibc 2.36, valgrind 3.19).
# Static binaries keep the dynamic loader out, so the profiles stay small;
# shared-jumps is dynamic on purpose: jumps into libc give jfi= lines.
# Counts change with the toolchain, so the tests derive every expectation from
# the files themselves (totals, self costs), never from numbers written here.
set -euo pipefail
out=${1:-vm/prof/tests/data}
mkdir -p "$out" && out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in fib shared mutual; do
    gcc -O0 -g -static -fno-inline -o "$tmp/$p" "$src/$p.c"
done
gcc -O0 -g -o "$tmp/shared-dyn" "$src/shared.c"
cg() { name=$1; shift; valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind.out" "$@" 2>/dev/null; }
cd "$tmp"
cg fib ./fib
cg fib-separate --separate-callers=30 --separate-recs=20 ./fib
cg fib-instr --dump-instr=yes ./fib
cg shared ./shared
cg shared-separate --separate-callers=10 ./shared
cg mutual ./mutual
cg mutual-separate --separate-callers=5 ./mutual
cg shared-jumps --collect-jumps=yes ./shared-dyn
# Two parts in one file: the start-up before main, then main (the sum is the run).
cg fib-parts --combine-dumps=yes --dump-before=main ./fib
# Not callgrind: cachegrind's format, which dripprof must recognise and refuse.
valgrind --tool=cachegrind --cachegrind-out-file="$out/fib.cachegrind.out" ./fib 2>/dev/null
# The annotate fixture: callgrind_annotate's table of the jumps profile.
(cd "$out" && callgrind_annotate --auto=no --threshold=100 shared-jumps.callgrind.out \
    > shared-jumps.annotate.txt)

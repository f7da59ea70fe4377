#!/bin/sh
# bench/run-calls.sh — what a call costs: bench/seq/fib.mos (the doubly
# recursive Fibonacci function, nothing but calls, compares and adds)
# beside the same function in C, and beside C versions that add, one at a
# time, what Mosaic's code generator adds to a call (bench/calls/
# fib_costs.c): the stack check on entry, then the check on the virtual
# frame that keeps "stack overflow" when LLVM turns a self call into a
# jump (codegen/checks.c).  gcc is also run without its recursive inlining
# (-fno-inline-small-functions), the transformation that makes its fib
# twice as fast as clang's and that Mosaic's code generator does itself
# (codegen/stmt.c, unroll_self_recursion).  `make bench` runs it.
#
# Usage: bench/run-calls.sh [MOSAICC]        (default ./mosaicc)
#
# Each variant runs BENCH_RUNS times (default 5), the variants taking
# turns; the table shows the median wall time and its ratio to gcc's
# plain C.  Every variant must print fib(n)'s line; one that prints
# another shows "!" before its time.  No verdict: the exit status is 0
# unless the script is misused.  CSV: bench/results/calls-<date>.csv.
#
# Environment: BENCH_RUNS, BENCH_N (default 44, about a second of gcc's
# C), BENCH_QUICK=1 (n = 39), BENCH_TIMEOUT=s (one run; default 300).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
N=${BENCH_N:-44}
[ "${BENCH_QUICK:-0}" = 1 ] && N=39
WORK=bench/work/calls
RESULTS=bench/results
require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_N "$N"
mkdir -p "$WORK" "$RESULTS" || exit 2

# name|how it is built (a command whose last word is the output)
VARIANTS=(
  "gcc -O2 (C)|gcc -O2 -DPLAIN $here/calls/fib_costs.c -o"
  "gcc -O2 -fno-inline-small-functions|gcc -O2 -fno-inline-small-functions -DPLAIN $here/calls/fib_costs.c -o"
  "gcc -O2, stack check|gcc -O2 -DCHECK $here/calls/fib_costs.c -o"
  "gcc -O2, stack check on a virtual frame|gcc -O2 -DVFRAME $here/calls/fib_costs.c -o"
  "clang -O2|clang -O2 -DPLAIN $here/calls/fib_costs.c -o"
  "clang -O2, stack check|clang -O2 -DCHECK $here/calls/fib_costs.c -o"
  "clang -O2, stack check on a virtual frame|clang -O2 -DVFRAME $here/calls/fib_costs.c -o"
  "Mosaic -O2|$MOSAICC -O2 $here/seq/fib.mos -o"
  "Mosaic -O2 --no-checks|$MOSAICC -O2 --no-checks $here/seq/fib.mos -o"
)
declare -A BIN TIMES LINE
notes=()
for i in "${!VARIANTS[@]}"; do
  name=${VARIANTS[$i]%%|*}
  build=${VARIANTS[$i]#*|}
  log "  $build $WORK/v$i"
  # shellcheck disable=SC2086  # the build command, word by word
  if $build "$WORK/v$i" >"$WORK/v$i.log" 2>&1; then BIN[$i]=$WORK/v$i
  else notes+=("'$name' did not build (see $WORK/v$i.log)"); fi
done

expected="fib: n=$N fib=$(awk -v n="$N" 'BEGIN { a = 0; b = 1; for (i = 0; i < n; i++) { t = a + b; a = b; b = t }; printf "%d", a }')"
for run in $(seq 1 "$RUNS"); do
  log "round $run of $RUNS"
  for i in "${!VARIANTS[@]}"; do
    [ -n "${BIN[$i]:-}" ] || continue
    measured_run /dev/null "$WORK/out" "$WORK/err" "${BIN[$i]}" "$N"
    if [ "$RUN_STATUS" -ne 0 ]; then notes+=("'${VARIANTS[$i]%%|*}' ended with status $RUN_STATUS"); continue; fi
    LINE[$i]=$(tail -n 1 "$WORK/out")
    TIMES[$i]="${TIMES[$i]:-} $RUN_SECONDS"
  done
done

stamp=$(date +%Y%m%d-%H%M%S)
csv=$RESULTS/calls-$stamp.csv
echo "variant,n,median_s,ratio_to_gcc,output" >"$csv"
echo
echo "What a call costs — fib($N), median of $RUNS runs; $(uname -m), $(nproc) cores"
echo
echo "| variant | s | /gcc -O2 |"
echo "|---|---:|---:|"
# shellcheck disable=SC2086
base=$([ -n "${TIMES[0]:-}" ] && median ${TIMES[0]})
for i in "${!VARIANTS[@]}"; do
  name=${VARIANTS[$i]%%|*}
  if [ -z "${TIMES[$i]:-}" ]; then echo "| $name | n/a | n/a |"; continue; fi
  # shellcheck disable=SC2086
  t=$(median ${TIMES[$i]})
  mark=""; [ "${LINE[$i]}" = "$expected" ] || mark="!"
  ratio=n/a; [ -n "$base" ] && ratio=$(fmt_ratio "$t" "$base")
  echo "| $name | $mark$(fmt_time "$t") | $ratio |"
  echo "\"$name\",$N,$t,$ratio,\"${LINE[$i]}\"" >>"$csv"
done
echo
for n in "${notes[@]}"; do echo "- $n"; done
echo "CSV: $csv"
exit 0

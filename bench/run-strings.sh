#!/bin/sh
# bench/run-strings.sh — building a string by repeated `+=` (LANGUAGE.md
# §3's string `+`), in Mosaic, in C and in Python, one table (DESIGN.md §5;
# `make bench` runs it).  The programs are bench/strings/append.{mos,c,py}:
# n single bytes appended, then n numbers with a comma.
#
# Usage: bench/run-strings.sh [MOSAICC]        (default ./mosaicc)
#
# Each program runs BENCH_RUNS times (default 5), the three taking turns;
# the table shows the median wall time and peak memory (GNU time's %M,
# n/a without /usr/bin/time) and the ratios to C.  A peer that is missing
# (no cc, no python3) shows n/a.  Each run's result line must be the same
# for all three (a differing one is marked "!").  A CSV copy goes to
# bench/results/strings-<date>.csv.  No verdict: the exit status is 0
# unless the script is misused.
#
# Environment: BENCH_RUNS, BENCH_SIZES (default "1000000 10000000"),
# BENCH_QUICK=1 (a tenth of the sizes), BENCH_TIMEOUT=s (default 300),
# BENCH_CC (default cc).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/strings"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
SIZES=${BENCH_SIZES:-"1000000 10000000"}
CC=${BENCH_CC:-cc}
WORK=bench/work/strings
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
for n in $SIZES; do require_positive BENCH_SIZES "$n"; done
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  q=""; for n in $SIZES; do q="$q $((n / 10 > 0 ? n / 10 : 1))"; done; SIZES=$q
fi

mkdir -p "$WORK" "$RESULTS" || exit 2
notes=()
GNU_TIME=
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; else notes+=("no GNU time at /usr/bin/time: memory is n/a"); fi

declare -A CMD
log "  mosaicc -O2 append.mos"
if "$MOSAICC" -O2 -o "$WORK/append" "$src/append.mos" >"$WORK/append.log" 2>&1; then
  CMD[Mosaic]="$WORK/append"
else
  notes+=("append.mos did not build (see $WORK/append.log)")
fi
log "  $CC -O2 append.c"
if "$CC" -O2 -o "$WORK/append-c" "$src/append.c" >"$WORK/append-c.log" 2>&1; then
  CMD[C]="$WORK/append-c"
else
  notes+=("no C compiler '$CC', or append.c did not build")
fi
if command -v python3 >/dev/null 2>&1; then
  CMD[Python]="python3 $src/append.py"
else
  notes+=("no python3: its column is n/a")
fi
SYSTEMS="Mosaic C Python"

declare -A TIMES MEMS LINE
for n in $SIZES; do
  log "n=$n x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for sys in $SYSTEMS; do
      [ -n "${CMD[$sys]:-}" ] || continue
      k=$sys:$n
      [ "${LINE[$k]:-}" != fail ] || continue
      # shellcheck disable=SC2086  # a command line of several words
      measured_run /dev/null "$WORK/out" "$WORK/err" ${CMD[$sys]} "$n"
      if [ $RUN_STATUS -ne 0 ]; then LINE[$k]=fail; notes+=("$sys n=$n failed with status $RUN_STATUS"); continue; fi
      record_run "$k"
    done
  done
done

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/strings-$stamp.csv"
echo "n,system,seconds,peak_kib,over_c" >"$csv"
mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
echo
echo "Building a string with += — median of $RUNS runs (whole process); Mosaic -O2, C $CC -O2, Python $(python3 --version 2>/dev/null | cut -d' ' -f2 || echo n/a)"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}"
echo
echo "| n | Mosaic s | C s | Python s | Mosaic/C | Python/C | Mosaic KiB | C KiB | Python KiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  declare -A t m
  for sys in $SYSTEMS; do
    k=$sys:$n
    t[$sys]=""; m[$sys]="n/a"
    if [ -n "${TIMES[$k]:-}" ]; then
      t[$sys]=$(median ${TIMES[$k]})
      [ -n "${MEMS[$k]:-}" ] && m[$sys]=$(median -d 0 ${MEMS[$k]})
    fi
  done
  cell() { if [ -n "${t[$1]}" ]; then local c; c=$(fmt_time "${t[$1]}"); [ "${LINE[$1:$n]}" != "${LINE[C:$n]:-${LINE[$1:$n]}}" ] && c="!$c"; echo "$c"; else echo "n/a"; fi; }
  ratio() { if [ -n "${t[$1]}" ] && [ -n "${t[C]}" ]; then fmt_ratio "${t[$1]}" "${t[C]}"; else echo "n/a"; fi; }
  echo "| $n | $(cell Mosaic) | $(cell C) | $(cell Python) | $(ratio Mosaic) | $(ratio Python) | ${m[Mosaic]} | ${m[C]} | ${m[Python]} |"
  for sys in $SYSTEMS; do
    r=""; [ -n "${t[$sys]}" ] && [ -n "${t[C]}" ] && r=$(fmt_ratio "${t[$sys]}" "${t[C]}")
    echo "$n,$sys,${t[$sys]},${m[$sys]#n/a},$r" >>"$csv"
  done
done
echo
echo "!: printed a different result line than C; n/a: not built, not installed or failed."
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

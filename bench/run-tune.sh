#!/bin/bash
# bench/run-tune.sh — the layout tuner on the layout workloads: does the
# advisor's cost model pick the layout that measures fastest? (issue 21;
# DESIGN.md §5 "Layouts"; `make bench` runs it).
#
# Usage: bench/run-tune.sh [MOSAICC]       (default ./mosaicc)
#
# For each workload W of bench/layouts/ (particle, nbody, column), it runs
# `MOSAICC --tune-layouts --runs BENCH_RUNS W.mos N STEPS` (the arguments
# bench/run-layouts.sh gives; BENCH_QUICK=1 a tenth of the objects) on a
# copy of W.mos without its "time:" line — the tuner checks that every
# layout prints the same, and a line of the program's own timing differs
# from run to run — and reads the tuner's table back: the candidate the
# advisor predicts cheapest (predicted rank 1: every one of them when
# several tie, since the cost model cannot tell them apart, the fastest of
# them timed), the candidate measured fastest, and the ratio of their
# median times.  The target: the advisor's pick is the winner or within 5 %
# of it on every workload.  The tuner times whole runs, allocation and
# start-up included, where bench/run-layouts.sh times the steps alone, so
# its ratios are smaller.  One markdown table on stdout, no verdict beyond
# the "within 5 %" column; the tuner's own tables are kept in
# bench/work/tune/<W>.txt (BENCH_REUSE=1 formats the last ones again).
set -u
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
QUICK=${BENCH_QUICK:-0}
src=$(cd "$(dirname "$0")" && pwd)
work=bench/work/tune
mkdir -p "$work"
. "$src/lib.sh"

echo "| workload | objects x steps | candidates | advisor's pick (bytes/obj) | its median s | fastest | its median s | pick/fastest | within 5 % |"
echo "|---|---|---:|---|---:|---|---:|---:|---|"
for w in particle nbody column; do
  grep -v '"time: "' "$src/layouts/$w.mos" >"$work/$w.mos"
  read -r n steps <<<"$(layout_params "$w")"
  if [ "${BENCH_REUSE:-0}" = 1 ] && [ -s "$work/$w.txt" ]; then
    :   # the tables of the last run, formatted again
  elif ! "$MOSAICC" --tune-layouts --runs "$RUNS" --tune-timeout 300 "$work/$w.mos" "$n" "$steps" \
        >"$work/$w.txt" 2>"$work/$w.err" </dev/null; then
    echo "| $w | $n x $steps | n/a | the tuner failed: see $work/$w.err | | | | | |"
    continue
  fi
  # rows: "  LABEL  MEDIAN  MIN-MAX  BYTES  PREDICTED  MEASURED"
  awk -v w="$w" -v ns="$n x $steps" '
    /^  layout / || /^  fastest:/ || /^pool / { next }
    /^  / {
      nf = NF; measured = $nf; predicted = $(nf - 1); bytes = $(nf - 2); median = $(nf - 4)
      label = $0; sub(/^  /, "", label); sub(/ +[0-9.]+ +[0-9.]+-[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+$/, "", label)
      count++
      if (predicted == 1) {
        # the advisor cannot tell tied candidates apart: each is its pick
        picks = picks (picks == "" ? "" : ", ") label
        npicks++
        if (pick_t == "" || median < pick_t) pick_t = median
        pick_b = bytes
      }
      if (measured == 1 && best == "") { best = label; best_t = median }
    }
    END {
      ratio = best_t > 0 ? pick_t / best_t : 0
      if (npicks > 1) picks = picks " (tied)"
      printf "| %s | %s | %d | %s (%s) | %.3f | %s | %.3f | %.2f | %s |\n", w, ns, count, picks,
             pick_b, pick_t, best, best_t, ratio, ratio <= 1.05 ? "yes" : "no"
    }' "$work/$w.txt"
done
echo
echo "machine: $(nproc) cores, $(uname -m); $("$MOSAICC" --version | head -n 1); $RUNS runs per candidate"

#!/bin/sh
# bench/run-waiting.sh — what waiting in `get` costs: the memory of an
# actor suspended in get and the time of a get that must wait (DESIGN.md
# §5; `make bench` runs it).  The programs are in bench/waiting/.
#
# Usage: bench/run-waiting.sh [MOSAICC]        (default ./mosaicc)
#
# Rows:
#   chain      n actors each waiting on the next (bench/waiting/chain.mos),
#              run with n = BENCH_WAITERS and n = BENCH_WAITERS / 10: the
#              growth of the peak resident memory divided by the growth of
#              n is the memory one waiting actor costs (its actor, message,
#              future and suspended turn), and the growth of the time the
#              time per waiter (create, wait, resume).
#   roundtrip  one actor asking another k = BENCH_ROUNDS times in a row
#              and waiting each time (bench/waiting/roundtrip.mos), with 1
#              and with 2 worker threads: wall time / k.
#   deep       one actor waiting at every level of a recursion
#              BENCH_ROUNDS deep (bench/waiting/deep.mos), one worker:
#              wall time / waits; then three such actors waiting by turns,
#              each BENCH_ROUNDS / 10 deep.
# Each figure is the median of BENCH_RUNS runs (default 5).  The table goes
# to stdout, a CSV copy to bench/results/waiting-<date>.csv.  The peak
# memory comes from GNU time (/usr/bin/time); without it those cells are
# n/a.  No verdict: the exit status is 0 unless the script is misused.
#
# Environment: BENCH_RUNS, BENCH_WAITERS (default 300000), BENCH_ROUNDS
# (default 1000000), BENCH_QUICK=1 (a tenth of both), BENCH_TIMEOUT=s
# (default 300); MOSAIC_THREADS is set by each row.

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/waiting"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
WAITERS=${BENCH_WAITERS:-300000}
ROUNDS=${BENCH_ROUNDS:-1000000}
WORK=bench/work/waiting
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_WAITERS "$WAITERS"
require_positive BENCH_ROUNDS "$ROUNDS"
if [ "${BENCH_QUICK:-0}" = 1 ]; then WAITERS=$((WAITERS / 10)); ROUNDS=$((ROUNDS / 10)); fi
[ "$WAITERS" -ge 10 ] || { echo "$script: BENCH_WAITERS must be at least 10" >&2; exit 2; }

mkdir -p "$WORK" "$RESULTS" || exit 2
rm -f "$WORK/failures"
notes=()
GNU_TIME=
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; else notes+=("no GNU time at /usr/bin/time: memory is n/a"); fi

declare -A BUILT
for p in chain roundtrip deep; do
  log "  mosaicc -O2 $p.mos"
  if "$MOSAICC" -O2 -o "$WORK/$p" "$src/$p.mos" >"$WORK/$p.log" 2>&1 && [ -x "$WORK/$p" ]; then
    BUILT[$p]=1
  else
    notes+=("$p did not build (see $WORK/$p.log)")
  fi
done

# run THREADS PROGRAM ARGS: one run; prints "seconds kib" (kib empty without
# GNU time), or nothing when the run fails.  ARGS is one word, split here.
run() {
  local t0 t1 rc kib=
  t0=$(now)
  if [ -n "$GNU_TIME" ]; then
    MOSAIC_THREADS=$1 timeout "$TIMEOUT" "$GNU_TIME" -f %M -o "$WORK/$2.mem" "$WORK/$2" $3 >"$WORK/$2.out" 2>"$WORK/$2.err"
  else
    MOSAIC_THREADS=$1 timeout "$TIMEOUT" "$WORK/$2" $3 >"$WORK/$2.out" 2>"$WORK/$2.err"
  fi
  rc=$?
  t1=$(now)
  if [ $rc -ne 0 ]; then
    # in a subshell: the note goes through a file
    echo "$2 $3 with MOSAIC_THREADS=$1 failed with status $rc (see $WORK/$2.err)" >>"$WORK/failures"
    return
  fi
  [ -n "$GNU_TIME" ] && kib=$(tail -n 1 "$WORK/$2.mem")
  echo "$(elapsed "$t0" "$t1") $kib"
}

# measure THREADS PROGRAM ARG: the medians of RUNS runs, "seconds kib".
measure() {
  local r out secs kib times=() mems=()
  for ((r = 1; r <= RUNS; r++)); do
    out=$(run "$@")
    [ -n "$out" ] || return
    read -r secs kib <<<"$out"
    times+=("$secs")
    [ -n "$kib" ] && mems+=("$kib")
  done
  echo "$(median "${times[@]}") $( [ ${#mems[@]} -gt 0 ] && median -d 0 "${mems[@]}")"
}

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/waiting-$stamp.csv"
echo "row,threads,parameter,seconds,peak_kib,per_unit" >"$csv"
rows=()

if [ -n "${BUILT[chain]:-}" ]; then
  small=$((WAITERS / 10))
  log "chain: $small and $WAITERS waiters x $RUNS"
  for t in 1 2; do
    a=$(measure $t chain $small); b=$(measure $t chain $WAITERS)
    if [ -n "$a" ] && [ -n "$b" ]; then
      read -r ta ka <<<"$a"; read -r tb kb <<<"$b"
      mem="n/a"
      [ -n "${ka:-}" ] && mem=$(awk -v a="$ka" -v b="$kb" -v n=$((WAITERS - small)) 'BEGIN { printf "%.0f B", (b - a) * 1024 / n }')
      per=$(awk -v a="$ta" -v b="$tb" -v n=$((WAITERS - small)) 'BEGIN { printf "%.2f µs", (b - a) * 1e6 / n }')
      rows+=("| chain of $WAITERS waiting at once | $t | $(fmt_time "$tb") s | ${kb:-n/a} KiB | $mem per waiter, $per per waiter |")
      echo "chain,$t,$WAITERS,$tb,${kb:-},$mem" >>"$csv"
    else
      rows+=("| chain of $WAITERS waiting at once | $t | fail | | |")
    fi
  done
fi
# per_get_row CSVNAME "LABEL" THREADS PROGRAM "ARGS" GETS: one row of a
# program whose wall time divided by GETS is the time per get.
per_get_row() {
  local name=$1 label=$2 t=$3 prog=$4 args=$5 gets=$6 a ta ka per
  a=$(measure "$t" "$prog" "$args")
  if [ -z "$a" ]; then rows+=("| $label | $t | fail | | |"); return; fi
  read -r ta ka <<<"$a"
  per=$(awk -v a="$ta" -v n="$gets" 'BEGIN { printf "%.3f µs", a * 1e6 / n }')
  rows+=("| $label | $t | $(fmt_time "$ta") s | ${ka:-n/a} KiB | $per per get |")
  echo "$name,$t,$args,$ta,${ka:-},$per" >>"$csv"
}

if [ -n "${BUILT[roundtrip]:-}" ]; then
  log "roundtrip: $ROUNDS gets x $RUNS"
  for t in 1 2; do
    per_get_row roundtrip "$ROUNDS gets in a row, actor to actor" $t roundtrip "$ROUNDS" "$ROUNDS"
  done
fi
if [ -n "${BUILT[deep]:-}" ]; then
  log "deep: $ROUNDS waits x $RUNS"
  per_get_row deep "a wait at each level of a recursion $ROUNDS deep" 1 deep "$ROUNDS" "$ROUNDS"
  d=$((ROUNDS / 10))
  per_get_row deep3 "three actors by turns, each waiting at each level of a recursion $d deep" \
    1 deep "$d 3" $((3 * d))
fi

mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
echo
echo "Waiting in get — median of $RUNS runs (whole process), built with -O2"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}"
echo
echo "| row | threads | time | peak memory | per unit |"
echo "|---|---:|---:|---:|---|"
for row in "${rows[@]}"; do echo "$row"; done
echo
echo "per waiter: the growth of time and peak memory from $((WAITERS / 10)) to $WAITERS waiters, divided by the growth."
[ -f "$WORK/failures" ] && while IFS= read -r line; do notes+=("$line"); done <"$WORK/failures"
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

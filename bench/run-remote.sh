#!/bin/sh
# bench/run-remote.sh — what `--count-remote` costs: each program of
# bench/remote/ built twice, plain and instrumented, one table (DESIGN.md §5,
# LANGUAGE.md §5 "Measured effects"; `make bench` runs it).
#
# Usage: bench/run-remote.sh [MOSAICC]        (default ./mosaicc)
#
# What it does, in order:
#   1. Builds every program of bench/remote/ into bench/work/remote/ (in the
#      current directory, normally the build tree) twice: `MOSAICC -O2` and
#      `MOSAICC -O2 --count-remote`.  A program that does not build gets
#      "n/a" and the compiler's output stays in
#      bench/work/remote/<name>[-counted].log.
#   2. Runs each program BENCH_RUNS times (default 5) per variant under
#      MOSAIC_NODES=BENCH_NODES (default 2 virtual nodes), the two variants
#      taking turns within each round so that a slow phase of the machine
#      hurts both alike, and keeps the median wall time of the whole process
#      (start to exit).
#   3. Reads the number of remote accesses from the first line of the
#      counted variant's report on stderr ("remote accesses: R reads, W
#      writes"), checks that both variants printed the same result line (a
#      differing line marks the cell with "!" and is listed under the
#      table), then prints ONE markdown table on stdout and writes the same
#      numbers as CSV to bench/results/remote-<date>.csv.
#
# What it does not do: judge.  There is no pass or fail and the exit status
# is 0 unless the script itself is misused.
#
# Environment:
#   BENCH_RUNS=k        runs per program and variant (default 5)
#   BENCH_ONLY="a b"    run only these programs (names as in the table)
#   BENCH_QUICK=1       about a tenth of the default sizes (a smoke test)
#   BENCH_TIMEOUT=s     limit for one run, in seconds (default 300)
#   BENCH_NODES=k       virtual nodes, passed as MOSAIC_NODES (default 2)
#   MOSAIC_THREADS etc. reach the programs unchanged.

# bash for arrays; `make` runs this with /bin/sh.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/remote"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
QUICK=${BENCH_QUICK:-0}
NODES=${BENCH_NODES:-2}
WORK=bench/work/remote
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_NODES "$NODES"

# The table's rows, in order (bench/README.md describes each program).
ALL="fields local_sum methods actor_array"
PROGS=${BENCH_ONLY:-$ALL}
require_known program "$ALL" $PROGS

# The programs' parameters: their defaults (each also has them built in),
# and about a tenth of the work for BENCH_QUICK.
params() {
  if [ "$QUICK" = 1 ]; then
    case $1 in
      fields) echo 10000000;; local_sum) echo 100000 2500;;
      methods) echo 10000000;; actor_array) echo 1000000 30;;
    esac
  else
    case $1 in
      fields) echo 100000000;; local_sum) echo 100000 25000;;
      methods) echo 100000000;; actor_array) echo 1000000 300;;
    esac
  fi
}

mkdir -p "$WORK" "$RESULTS" || exit 2

# ---- 1. builds ----------------------------------------------------------------

declare -A BUILT  # BUILT[variant:name]=1 when the program can run
notes=()          # lines printed under the table
VARIANTS="normal counted"

bin_of() { if [ "$1" = counted ]; then echo "$WORK/$2-counted"; else echo "$WORK/$2"; fi; }

build() {  # variant name
  local v=$1 n=$2 bin flags=""
  bin=$(bin_of "$v" "$n")
  [ "$v" = counted ] && flags="--count-remote"
  log "  mosaicc -O2${flags:+ $flags} $n.mos"
  rm -f "$bin"
  "$MOSAICC" -O2 $flags -o "$bin" "$src/$n.mos" >"$bin.log" 2>&1 && [ -x "$bin" ]
}

if ! { [ -x "$MOSAICC" ] || command -v "$MOSAICC" >/dev/null 2>&1; }; then
  notes+=("no compiler at '$MOSAICC' (build it first: make)")
else
  log "building into $WORK/"
  for p in $PROGS; do
    for v in $VARIANTS; do
      if build $v $p; then BUILT[$v:$p]=1; else notes+=("$p ($v) did not build (see $(bin_of $v $p).log)"); fi
    done
  done
fi

# ---- 2. runs ------------------------------------------------------------------

declare -A TIMES LINE STATUS READS WRITES

for p in $PROGS; do
  log "running $p ($(params $p)) x $RUNS, MOSAIC_NODES=$NODES"
  for ((r = 1; r <= RUNS; r++)); do
    for v in $VARIANTS; do
      k=$v:$p
      [ -n "${BUILT[$k]:-}" ] || continue
      [ "${STATUS[$k]:-ok}" = ok ] || continue
      bin=$(bin_of $v $p)
      t0=$(now)
      MOSAIC_NODES=$NODES timeout "$TIMEOUT" "$bin" $(params $p) >"$bin.out" 2>"$bin.err"
      rc=$?
      t1=$(now)
      if [ $rc -ne 0 ]; then
        STATUS[$k]=fail
        if [ $rc -eq 124 ]; then why="timed out after ${TIMEOUT}s"; else why="failed with status $rc"; fi
        notes+=("$p ($v) $why (see $bin.err)")
        continue
      fi
      line=$(grep -v '^[[:space:]]*$' "$bin.out" | tail -n 1)
      if [ -z "${LINE[$k]+set}" ]; then
        LINE[$k]=$line
      elif [ "$line" != "${LINE[$k]}" ]; then
        notes+=("$p ($v) printed '$line' after '${LINE[$k]}' in an earlier run")
      fi
      if [ "$v" = counted ]; then
        # The report's first line: "remote accesses: R reads, W writes".
        report=$(grep -m 1 '^remote accesses: ' "$bin.err")
        rd=$(printf '%s\n' "$report" | sed -n 's/^remote accesses: \([0-9]*\) reads, \([0-9]*\) writes$/\1/p')
        wr=$(printf '%s\n' "$report" | sed -n 's/^remote accesses: \([0-9]*\) reads, \([0-9]*\) writes$/\2/p')
        if [ -z "$rd" ] || [ -z "$wr" ]; then
          STATUS[$k]=fail
          notes+=("$p (counted) printed no 'remote accesses:' report (see $bin.err)")
          continue
        fi
        if [ -z "${READS[$p]+set}" ]; then
          READS[$p]=$rd; WRITES[$p]=$wr
        elif [ "$rd $wr" != "${READS[$p]} ${WRITES[$p]}" ]; then
          notes+=("$p (counted) counted $rd reads, $wr writes after ${READS[$p]} reads, ${WRITES[$p]} writes in an earlier run")
        fi
      fi
      TIMES[$k]="${TIMES[$k]:-} $(elapsed "$t0" "$t1")"
    done
  done
done

# ---- 3. table -----------------------------------------------------------------

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/remote-$stamp.csv"
echo "program,parameters,nodes,remote_reads,remote_writes,remote_accesses,normal_s,counted_s,counted_over_normal,normal_result,counted_result" >"$csv"

mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)

echo
echo "Cost of --count-remote — median wall time of $RUNS runs, in seconds (whole process), MOSAIC_NODES=$NODES"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}; both variants built with -O2"
[ "$QUICK" = 1 ] && echo "BENCH_QUICK=1: reduced sizes"
echo
echo "| program | remote accesses | normal s | counted s | counted/normal |"
echo "|---|---:|---:|---:|---:|"

csv_quote() { printf '"%s"' "${1//\"/\"\"}"; }
declare -A cell med

for p in $PROGS; do
  for v in $VARIANTS; do
    k=$v:$p
    med[$v]=""
    if [ -z "${BUILT[$k]:-}" ]; then
      cell[$v]="n/a"
    elif [ "${STATUS[$k]:-ok}" != ok ] || [ -z "${TIMES[$k]:-}" ]; then
      cell[$v]="fail"
    else
      med[$v]=$(median ${TIMES[$k]})
      cell[$v]=$(fmt_time "${med[$v]}")
    fi
  done
  if [ -n "${med[normal]}" ] && [ -n "${med[counted]}" ] && [ "${LINE[normal:$p]}" != "${LINE[counted:$p]}" ]; then
    cell[counted]="!${cell[counted]}"
    notes+=("$p: counted variant printed '${LINE[counted:$p]}', normal '${LINE[normal:$p]}'")
  fi
  ratio="n/a"
  [ -n "${med[normal]}" ] && [ -n "${med[counted]}" ] && ratio=$(fmt_ratio "${med[counted]}" "${med[normal]}")
  remote="n/a"; total=""
  if [ -n "${med[counted]}" ]; then
    total=$((READS[$p] + WRITES[$p]))
    remote=$total
  fi
  echo "| $p | $remote | ${cell[normal]} | ${cell[counted]} | $ratio |"
  {
    printf '%s,%s,%s,' "$p" "$(csv_quote "$(params $p)")" "$NODES"
    printf '%s,%s,%s,' "${READS[$p]:-}" "${WRITES[$p]:-}" "$total"
    printf '%s,%s,%s,' "${med[normal]}" "${med[counted]}" "${ratio#n/a}"
    printf '%s,%s\n' "$(csv_quote "${LINE[normal:$p]:-}")" "$(csv_quote "${LINE[counted:$p]:-}")"
  } >>"$csv"
done

echo
echo "remote accesses: reads + writes, from the first line of the counted run's report."
echo "n/a: not built; fail: a run failed; !: the two variants printed different results."
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

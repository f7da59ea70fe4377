#!/bin/sh
# bench/run-layouts.sh — what a pool's layout is worth, and what Mosaic pays
# for it against C: three loops over millions of objects, each built with
# every layout, beside the same loops written by hand in C, one table
# (DESIGN.md §5 "Layouts", LANGUAGE.md §6; `make bench` runs it).
#
# Usage: bench/run-layouts.sh [MOSAICC]       (default ./mosaicc)
#
# What it does, in order:
#   1. Builds, into bench/work/layouts/ (in the current directory, normally
#      the build tree), for each workload W of bench/layouts/ (particle,
#      nbody, column):
#        - W.mos with `MOSAICC -O2 --layout POOL=L` for L = aos, soa and
#          Hot (the hot/cold layout W.mos declares), each also with
#          --no-checks: six programs;
#        - W_objects.mos (the same class and loop on an array of plain
#          objects, no pool) with `MOSAICC -O2`, and with --no-checks;
#        - W.c with `BENCH_CC BENCH_CFLAGS -ffp-contract=off -DLAYOUT_AOS`
#          (an array of structs), -DLAYOUT_SOA (an array per field) and
#          -DLAYOUT_HOT (the hot/cold split of W.mos as two arrays of
#          structs).  -ffp-contract=off: no fused multiply-add, as in Mosaic
#          (LANGUAGE.md §3), or the checksums would differ.
#      A program that does not build gets "n/a"; the compiler's output stays
#      in bench/work/layouts/<W>-<variant>.log.
#   2. Runs every variant BENCH_RUNS times (default 5), all the variants of a
#      workload taking turns within each round so that a slow phase of the
#      machine hurts all alike.  Each program times its own steps (the
#      loops over the objects, not the allocation, the initialisation or the
#      checksum) and prints two lines: the result, with a checksum of the
#      objects' fields after the steps, and "time: SECONDS".  The table
#      keeps the median time, divided by objects x steps.
#   3. Checks that every variant of a workload printed the result line of
#      the C AoS program (a differing line marks the cell with "!" and is
#      listed under the table: the same arithmetic in the same order must
#      give the same bits, LANGUAGE.md §3), then prints ONE markdown table
#      on stdout and writes the same numbers as CSV to
#      bench/results/layouts-<date>.csv.
#
# What it does not do: judge.  There is no pass or fail and the exit status
# is 0 unless the script itself is misused.
#
# Environment:
#   BENCH_RUNS=k        runs per variant (default 5)
#   BENCH_ONLY="a b"    run only these workloads (particle nbody column)
#   BENCH_QUICK=1       a tenth of the objects (a smoke test; the arrays then
#                       fit in a large cache, which changes the picture)
#   BENCH_TIMEOUT=s     limit for one run, in seconds (default 300)
#   BENCH_CC=cc         the C compiler for the peers (default cc)
#   BENCH_CFLAGS=-O2    its optimisation flags (default -O2; gcc vectorises
#                       little at -O2, clang and gcc -O3 more)
#   MOSAIC_THREADS etc. reach the programs unchanged.

# bash for arrays; `make` runs this with /bin/sh.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/layouts"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
QUICK=${BENCH_QUICK:-0}
CC=${BENCH_CC:-cc}
CFLAGS="${BENCH_CFLAGS:--O2} -ffp-contract=off"
WORK=bench/work/layouts
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"

# The table's workloads, in order (bench/README.md describes each).
ALL="particle nbody column"
WORKLOADS=${BENCH_ONLY:-$ALL}
require_known workload "$ALL" $WORKLOADS

# The pool each program declares (the NAME of --layout NAME=SPEC).
pool_of() {
  case $1 in particle) echo ps;; nbody) echo bodies;; column) echo rows;; esac
}
# What the step touches, for the table's title lines.
touches() {
  case $1 in
    particle) echo "x += vx * dt: reads 2 of 8 float fields, writes 1";;
    nbody) echo "force towards the origin + Euler step: reads 8 of 8, writes 6";;
    column) echo "sum += c: reads 1 of 8 float fields";;
  esac
}
params() { layout_params "$1"; }     # bench/lib.sh

# The variants, in the order they run and appear in the CSV.  m- are
# Mosaic (pool with a layout, or objects in an array), -nc with --no-checks;
# c- the C peers.
VARIANTS="c-aos m-aos m-aos-nc c-soa m-soa m-soa-nc c-hot m-hot m-hot-nc m-objects m-objects-nc"

mkdir -p "$WORK" "$RESULTS" || exit 2

# ---- 1. builds ----------------------------------------------------------------

declare -A BUILT  # BUILT[workload:variant]=1 when the program can run
notes=()          # lines printed under the table
declare -A HOTDESC # HOTDESC[workload]: the Hot layout as the compiler reports it

bin_of() { echo "$WORK/$1-$2"; }

build() {  # workload variant
  local w=$1 v=$2 bin layout pool nc=""
  bin=$(bin_of "$w" "$v")
  pool=$(pool_of "$w")
  rm -f "$bin"
  case $v in *-nc) nc="--no-checks";; esac
  case $v in
    c-*)
      layout=$(printf '%s' "${v#c-}" | tr a-z A-Z)
      log "  $CC $CFLAGS -DLAYOUT_$layout $w.c"
      "$CC" $CFLAGS -DLAYOUT_$layout -o "$bin" "$src/$w.c" >"$bin.log" 2>&1 && [ -x "$bin" ]
      ;;
    m-objects*)
      log "  mosaicc -O2${nc:+ $nc} ${w}_objects.mos"
      "$MOSAICC" -O2 $nc -o "$bin" "$src/${w}_objects.mos" >"$bin.log" 2>&1 && [ -x "$bin" ]
      ;;
    m-*)
      layout=${v#m-}; layout=${layout%-nc}
      [ "$layout" = hot ] && layout=Hot
      log "  mosaicc -O2 --layout $pool=$layout${nc:+ $nc} $w.mos"
      "$MOSAICC" -O2 --layout "$pool=$layout" $nc -o "$bin" "$src/$w.mos" >"$bin.log" 2>&1 && [ -x "$bin" ]
      ;;
  esac
}

have_mosaicc=1
if ! { [ -x "$MOSAICC" ] || command -v "$MOSAICC" >/dev/null 2>&1; }; then
  notes+=("no compiler at '$MOSAICC' (build it first: make)")
  have_mosaicc=0
fi
if ! command -v "$CC" >/dev/null 2>&1; then
  notes+=("no C compiler '$CC' (set BENCH_CC)")
fi

log "building into $WORK/"
for w in $WORKLOADS; do
  for v in $VARIANTS; do
    case $v in m-*) [ $have_mosaicc = 1 ] || continue;; esac
    if build "$w" "$v"; then BUILT[$w:$v]=1; else notes+=("$w ($v) did not build (see $(bin_of "$w" "$v").log)"); fi
  done
  if [ $have_mosaicc = 1 ]; then
    # The first line of the --layouts report: "pool NAME: CLASS layout CLUSTERS".
    HOTDESC[$w]=$("$MOSAICC" --layouts --layout "$(pool_of "$w")=Hot" "$src/$w.mos" 2>/dev/null |
                  sed -n '1s/^pool [^:]*: [^ ]* layout //p')
  fi
done

# ---- 2. runs ------------------------------------------------------------------

declare -A TIMES LINE STATUS

for w in $WORKLOADS; do
  log "running $w ($(params "$w")) x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for v in $VARIANTS; do
      k=$w:$v
      [ -n "${BUILT[$k]:-}" ] || continue
      [ "${STATUS[$k]:-ok}" = ok ] || continue
      bin=$(bin_of "$w" "$v")
      timeout "$TIMEOUT" "$bin" $(params "$w") >"$bin.out" 2>"$bin.err"
      rc=$?
      if [ $rc -ne 0 ]; then
        STATUS[$k]=fail
        if [ $rc -eq 124 ]; then why="timed out after ${TIMEOUT}s"; else why="failed with status $rc"; fi
        notes+=("$w ($v) $why (see $bin.err)")
        continue
      fi
      t=$(sed -n 's/^time: \([0-9.e+-]*\)$/\1/p' "$bin.out" | tail -n 1)
      line=$(grep -v -e '^time: ' -e '^[[:space:]]*$' "$bin.out" | tail -n 1)
      if [ -z "$t" ]; then
        STATUS[$k]=fail
        notes+=("$w ($v) printed no 'time:' line (see $bin.out)")
        continue
      fi
      if [ -z "${LINE[$k]+set}" ]; then
        LINE[$k]=$line
      elif [ "$line" != "${LINE[$k]}" ]; then
        notes+=("$w ($v) printed '$line' after '${LINE[$k]}' in an earlier run")
      fi
      TIMES[$k]="${TIMES[$k]:-} $t"
    done
  done
done

# ---- 3. table -----------------------------------------------------------------

# Seconds for the whole loop -> nanoseconds per object and step.
per_object() {  # seconds workload
  local n steps
  read -r n steps <<<"$(params "$2")"
  awk -v t="$1" -v n="$n" -v s="$steps" 'BEGIN { printf "%.4f", t * 1e9 / (n * s) }'
}
fmt_ns() { awk -v t="$1" 'BEGIN { printf (t < 10 ? "%.2f" : "%.1f"), t }'; }
fmt_pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", (a / b - 1) * 100 }'; }

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/layouts-$stamp.csv"
echo "workload,objects,steps,variant,layout,ns_per_object_step,median_s,min_s,max_s,runs,result,matches_c_aos" >"$csv"

mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
cc_version=$("$CC" --version 2>/dev/null | head -n 1 || true)

csv_quote() { printf '"%s"' "${1//\"/\"\"}"; }
declare -A NS CELL

echo
echo "Layouts — median of $RUNS runs, nanoseconds per object per step (the timed loops only)"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a} with -O2; C: ${cc_version:-n/a} with $CFLAGS"
[ "$QUICK" = 1 ] && echo "BENCH_QUICK=1: a tenth of the objects"
echo
for w in $WORKLOADS; do
  read -r n steps <<<"$(params "$w")"
  echo "- $w: $n objects x $steps steps; $(touches "$w")"
done
echo
echo "| workload | layout | C ns | Mosaic ns | Mosaic/C | --no-checks ns | --no-checks/C | cost of checks | note |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"

for w in $WORKLOADS; do
  ref=${LINE[$w:c-aos]:-}
  refv=c-aos
  if [ -z "$ref" ]; then   # no C AoS result: compare with the first that has one
    for v in $VARIANTS; do
      if [ -n "${LINE[$w:$v]:-}" ]; then ref=${LINE[$w:$v]}; refv=$v; break; fi
    done
  fi
  for v in $VARIANTS; do
    k=$w:$v
    NS[$v]=""
    if [ -z "${BUILT[$k]:-}" ]; then
      CELL[$v]="n/a"
    elif [ "${STATUS[$k]:-ok}" != ok ] || [ -z "${TIMES[$k]:-}" ]; then
      CELL[$v]="fail"
    else
      med=$(median -d 9 ${TIMES[$k]})
      NS[$v]=$(per_object "$med" "$w")
      CELL[$v]=$(fmt_ns "${NS[$v]}")
      match=yes
      if [ "${LINE[$k]}" != "$ref" ]; then
        CELL[$v]="!${CELL[$v]}"
        match=no
        notes+=("$w ($v) printed '${LINE[$k]}', $refv '$ref'")
      fi
      layout=${v#?-}; layout=${layout%-nc}
      {
        printf '%s,%s,%s,%s,%s,' "$w" "$n" "$steps" "$v" "$layout"
        printf '%s,%s,' "${NS[$v]}" "$med"
        printf '%s,%s,' "$(printf '%s\n' ${TIMES[$k]} | sort -g | head -n 1)" "$(printf '%s\n' ${TIMES[$k]} | sort -g | tail -n 1)"
        printf '%s,' "$(set -- ${TIMES[$k]}; echo $#)"
        printf '%s,%s\n' "$(csv_quote "${LINE[$k]}")" "$match"
      } >>"$csv"
    fi
  done
  read -r n steps <<<"$(params "$w")"
  for row in aos soa hot objects; do
    if [ $row = objects ]; then c=c-aos; else c=c-$row; fi
    m=m-$row; mnc=m-$row-nc
    ratio="n/a"; ratio_nc="n/a"; cost="n/a"; note=""
    [ -n "${NS[$c]}" ] && [ -n "${NS[$m]}" ] && ratio=$(fmt_ratio "${NS[$m]}" "${NS[$c]}")
    [ -n "${NS[$c]}" ] && [ -n "${NS[$mnc]}" ] && ratio_nc=$(fmt_ratio "${NS[$mnc]}" "${NS[$c]}")
    [ -n "${NS[$m]}" ] && [ -n "${NS[$mnc]}" ] && cost=$(fmt_pct "${NS[$m]}" "${NS[$mnc]}")
    case $row in
      aos) label="aos";;
      soa) label="soa"
           if [ -n "${NS[m-aos]}" ] && [ -n "${NS[m-soa]}" ]; then
             note="aos/soa: Mosaic $(fmt_ratio "${NS[m-aos]}" "${NS[m-soa]}")x"
             [ -n "${NS[c-aos]}" ] && [ -n "${NS[c-soa]}" ] && note="$note, C $(fmt_ratio "${NS[c-aos]}" "${NS[c-soa]}")x"
           fi;;
      hot) label="Hot"
           note="${HOTDESC[$w]:-}"
           if [ -n "${NS[m-aos]}" ] && [ -n "${NS[m-hot]}" ]; then
             note="${note:+$note; }aos/Hot: Mosaic $(fmt_ratio "${NS[m-aos]}" "${NS[m-hot]}")x"
             [ -n "${NS[c-aos]}" ] && [ -n "${NS[c-hot]}" ] && note="$note, C $(fmt_ratio "${NS[c-aos]}" "${NS[c-hot]}")x"
           fi;;
      objects) label="objects in an array"
           note="no pool; C column: the C AoS array"
           [ -n "${NS[m-objects]}" ] && [ -n "${NS[m-aos]}" ] &&
             note="$note; objects/pool aos: $(fmt_ratio "${NS[m-objects]}" "${NS[m-aos]}")x";;
    esac
    echo "| $w | $label | ${CELL[$c]} | ${CELL[$m]} | $ratio | ${CELL[$mnc]} | $ratio_nc | $cost | $note |"
  done
done

echo
echo "ns: median time of the steps / (objects x steps).  Mosaic/C: the same layout in C (objects: C's array of structs)."
echo "cost of checks: Mosaic (checked) over Mosaic --no-checks, minus 1."
echo "n/a: not built; fail: a run failed; !: a result line other than C AoS's (listed below)."
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

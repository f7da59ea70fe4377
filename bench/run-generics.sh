#!/bin/sh
# bench/run-generics.sh — what generic code costs the compiler: a program
# with 3N instantiations of generic classes and functions beside the same
# program with every instance written out by hand (LANGUAGE.md §11;
# DESIGN.md §5, "Compiler"; `make bench` runs it).
#
# Code is generated once per instantiation, so a program that uses Box[T]
# at a thousand types is a program of a thousand classes either way; what
# generics add is the instantiating (finding or making the instance,
# substituting the type arguments, checking the uses against it).  The
# target of issue 20, item 6, is that this stays linear and small: a
# build within 1.5 times that of the hand-instantiated program, at
# `--check` and at `-O2`.  bench/gen-generics.sh writes both programs,
# the same N units in the same order (N = BENCH_UNITS, default 1000: a
# class CK and a function useK that instantiates Box[CK], Pair[CK, int]
# and first[CK], so 3,000 instantiations; --hand writes Box_CK,
# Pair_CK_int and first_CK by hand instead).  The generic file is less
# than half as long: its bodies are written once.
#
# Rows, each a build of both programs:
#
#   check     mosaicc --check (parse and type-check, nothing written);
#   check2x   the same with 2N units, for linearity: the table's last
#             line gives the factor from N to 2N units of each program,
#             2.00 when linear (a --check of 1,000 units takes a tenth of
#             a second, so this row costs nothing);
#   O0, O2    mosaicc -O0 / -O2 -o EXE, a full build with LLVM and the
#             link, as bench/run-frontend.sh builds.
#
# Each build runs BENCH_RUNS times (default 3), generic and hand-written
# taking turns; the table shows the median wall time and peak memory (GNU
# time's %M, n/a without /usr/bin/time) of each, their ratio and the
# target.  The executables of the first -O0 and -O2 builds are run, and
# both must print the line the generator's header promises ("generics:
# units=N total=T"): a build that printed another line is marked "!" and
# the lines are listed under the table; a failed build shows n/a, its
# errors in bench/work/generics/.  A CSV copy goes to
# bench/results/generics-<date>.csv.  No verdict: the exit status is 0
# unless the script is misused.
#
# Usage: bench/run-generics.sh [MOSAICC]     (default ./mosaicc)
#
# Environment: BENCH_UNITS (default 1000), BENCH_RUNS (default 3),
# BENCH_ONLY (rows, of "check check2x O0 O2"), BENCH_QUICK=1 (a tenth of
# the units), BENCH_TIMEOUT=s (one build; default 600).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
MOSAICC=${1:-./mosaicc}
UNITS=${BENCH_UNITS:-1000}
RUNS=${BENCH_RUNS:-3}
TIMEOUT=${BENCH_TIMEOUT:-600}
ROWS="check check2x O0 O2"
ONLY=${BENCH_ONLY:-$ROWS}
WORK=bench/work/generics
RESULTS=bench/results

require_positive BENCH_UNITS "$UNITS"
require_positive BENCH_RUNS "$RUNS"
require_known row "$ROWS" $ONLY
wanted() { case " $ONLY " in *" $1 "*) return 0;; esac; return 1; }
if [ "${BENCH_QUICK:-0}" = 1 ]; then UNITS=$((UNITS / 10 > 0 ? UNITS / 10 : 1)); fi

mkdir -p "$WORK" "$RESULTS" || exit 2
notes=()
GNU_TIME=
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; else notes+=("no GNU time at /usr/bin/time: memory is n/a"); fi

VERSIONS="generic hand"
declare -A UNITS_OF=([check]=$UNITS [check2x]=$((2 * UNITS)) [O0]=$UNITS [O2]=$UNITS)
declare -A LABEL=([check]="--check" [check2x]="--check" [O0]="-O0" [O2]="-O2")

# The programs: generic-U.mos and hand-U.mos for every size a row needs,
# and the line each must print.
declare -A EXPECT SRC
for row in $ROWS; do
  wanted "$row" || continue
  u=${UNITS_OF[$row]}
  [ -n "${EXPECT[$u]:-}" ] && continue
  for v in $VERSIONS; do
    flag=""; [ "$v" = hand ] && flag=--hand
    SRC[$v:$u]="$WORK/$v-$u.mos"
    if ! sh "$here/gen-generics.sh" $flag "$u" >"${SRC[$v:$u]}" 2>"$WORK/gen.err"; then
      echo "$script: bench/gen-generics.sh $flag $u failed (see $WORK/gen.err)" >&2; exit 2
    fi
  done
  EXPECT[$u]=$(sed -n 's|^// prints: ||p' "${SRC[generic:$u]}")
done

declare -A TIMES MEMS LINE
log "generics: $UNITS units ($((3 * UNITS)) instantiations), $RUNS run(s) of each build"
for ((r = 1; r <= RUNS; r++)); do
  for row in $ROWS; do
    wanted "$row" || continue
    u=${UNITS_OF[$row]}
    for v in $VERSIONS; do
      k=$v:$row
      [ "${TIMES[$k]:-}" != fail ] || continue
      exe="$WORK/$v-$u-$row"
      case $row in
        check*) set -- "$MOSAICC" --check "${SRC[$v:$u]}";;
        *) set -- "$MOSAICC" "-$row" -o "$exe" "${SRC[$v:$u]}";;
      esac
      log "  $v: mosaicc ${LABEL[$row]} ($u units), run $r"
      err="$WORK/$v-$u-$row.log"
      measured_run /dev/null "$WORK/out" "$err" "$@"
      if [ "$RUN_STATUS" -ne 0 ]; then
        TIMES[$k]=fail; notes+=("$v ${LABEL[$row]} of $u units failed with status $RUN_STATUS (see $err)"); continue
      fi
      TIMES[$k]="${TIMES[$k]:-} $RUN_SECONDS"
      [ -n "$GNU_TIME" ] && MEMS[$k]="${MEMS[$k]:-} $(tail -n 1 "$WORK/mem")"
      # The first build of an executable is run: both must print EXPECT.
      if [ "$r" = 1 ] && [ "${row#check}" = "$row" ]; then
        if timeout "$TIMEOUT" "$exe" >"$WORK/run.out" 2>"$WORK/run.err"; then
          LINE[$k]=$(tail -n 1 "$WORK/run.out")
        else
          LINE[$k]="(failed with status $?, see $WORK/run.err)"
        fi
      fi
    done
  done
done

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/generics-$stamp.csv"
echo "row,build,units,instantiations,version,seconds,peak_kib,generic_over_hand,result" >"$csv"
mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
lines_of() { wc -l <"$1" | tr -d ' '; }

declare -A T M
for row in $ROWS; do
  for v in $VERSIONS; do
    k=$v:$row
    T[$k]=""; M[$k]="n/a"
    if [ -n "${TIMES[$k]:-}" ] && [ "${TIMES[$k]}" != fail ]; then
      # shellcheck disable=SC2086  # the runs, one word each
      T[$k]=$(median ${TIMES[$k]})
      # shellcheck disable=SC2086
      [ -n "${MEMS[$k]:-}" ] && M[$k]=$(median -d 0 ${MEMS[$k]})
    fi
  done
done
cell() {  # cell VERSION ROW: the median time, "!" in front when the output was wrong
  local k=$1:$2
  if [ -z "${T[$k]}" ]; then echo "n/a"; return; fi
  local c
  c=$(fmt_time "${T[$k]}")
  if [ -n "${LINE[$k]:-}" ] && [ "${LINE[$k]}" != "${EXPECT[${UNITS_OF[$2]}]}" ]; then c="!$c"; fi
  echo "$c"
}
ratio() { if [ -n "${T[generic:$1]}" ] && [ -n "${T[hand:$1]}" ]; then fmt_ratio "${T[generic:$1]}" "${T[hand:$1]}"; else echo "n/a"; fi; }

echo
echo "Generic code against the same code written by hand — median of $RUNS run(s) of each build"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}"
sizes=""
for u in $UNITS $((2 * UNITS)); do
  [ -n "${SRC[generic:$u]:-}" ] && sizes="$sizes, generic $(lines_of "${SRC[generic:$u]}") lines and hand-written $(lines_of "${SRC[hand:$u]}") at N = $u"
done
echo "programs: bench/gen-generics.sh [--hand] N$sizes"
echo
echo "| build | units | instantiations | generic s | hand-written s | generic/hand | target | generic KiB | hand-written KiB |"
echo "|---|---:|---:|---:|---:|---:|---|---:|---:|"
differ=()
for row in $ROWS; do
  wanted "$row" || continue
  u=${UNITS_OF[$row]}
  echo "| ${LABEL[$row]} | $u | $((3 * u)) | $(cell generic "$row") | $(cell hand "$row") | $(ratio "$row") | ≤ 1.50 | ${M[generic:$row]} | ${M[hand:$row]} |"
  for v in $VERSIONS; do
    k=$v:$row
    rr=""; [ "$v" = generic ] && rr=$(ratio "$row" | sed 's|n/a||')
    echo "$row,${LABEL[$row]},$u,$((3 * u)),$v,${T[$k]},${M[$k]#n/a},$rr,${LINE[$k]:-}" >>"$csv"
    if [ -n "${LINE[$k]:-}" ] && [ "${LINE[$k]}" != "${EXPECT[$u]}" ]; then
      differ+=("$v ${LABEL[$row]} ($u units) printed: ${LINE[$k]}" "  expected: ${EXPECT[$u]}")
    fi
  done
done
echo
if wanted check && wanted check2x; then
  lin() { if [ -n "${T[$1:check]}" ] && [ -n "${T[$1:check2x]}" ]; then fmt_ratio "${T[$1:check2x]}" "${T[$1:check]}"; else echo "n/a"; fi; }
  echo "--check from $UNITS to $((2 * UNITS)) units: generic ×$(lin generic), hand-written ×$(lin hand) (×2.00 is linear)"
fi
echo "!: the executable printed another line than the generator promised (listed below); n/a: the build failed."
for d in "${differ[@]}"; do echo "$d"; done
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

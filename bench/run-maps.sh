#!/bin/sh
# bench/run-maps.sh — Map<K, V> (LANGUAGE.md §9) in Mosaic beside what a
# user would pick instead: a hash table written by hand in C, Go's map and
# Python's dict, one table (DESIGN.md §5; `make bench` runs it).  The
# programs are bench/maps/*.{mos,c,go,py}:
#
#   wordfreq  the word frequencies of a text read from standard input, §9's
#             example: lines split at single spaces, a Map<string, int>
#             (C: open addressing, FNV-1a), then the distinct words, the
#             words, the sum of count × length and the first and last word;
#   intkeys   n int keys (default 1,000,000) inserted into a Map<int, int>,
#             each looked up, every second one removed, all looked up again
#             (C: open addressing, Fibonacci hashing, backward-shift
#             deletion).
#
# The text is written once per run of this script, by bench/maps/gen_text.c
# (built with the C compiler): BENCH_TEXT_MB megabytes (10^6 bytes, default
# 50) of lines of about ten pseudo-words drawn from 50,000 with Zipf's law,
# the same bytes on every machine.  It stays in bench/work/maps/text.txt.
#
# Usage: bench/run-maps.sh [MOSAICC]        (default ./mosaicc)
#
# Each program runs BENCH_RUNS times (default 5), the four taking turns;
# the table shows the median wall time and peak memory (GNU time's %M,
# n/a without /usr/bin/time) and the ratios to C.  A peer that is missing
# (no cc, no go, no python3) shows n/a; Go is Debian's golang-go package,
# which this script does not install.  Each run's result line must be the
# same for all four (a differing one is marked "!" and listed under the
# table).  A CSV copy, with every system's result line, goes to
# bench/results/maps-<date>.csv.  No verdict: the exit status is 0 unless
# the script is misused.
#
# Environment: BENCH_RUNS, BENCH_ONLY="wordfreq intkeys" (the rows to run),
# BENCH_TEXT_MB (default 50), BENCH_KEYS (default 1000000), BENCH_QUICK=1
# (a tenth of the text and of the keys), BENCH_TIMEOUT=s (default 300),
# BENCH_CC (default cc), BENCH_GO (default go).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/maps"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
ALL="wordfreq intkeys"
ONLY=${BENCH_ONLY:-$ALL}
TEXT_MB=${BENCH_TEXT_MB:-50}
KEYS=${BENCH_KEYS:-1000000}
CC=${BENCH_CC:-cc}
GO=${BENCH_GO:-go}
WORK=bench/work/maps
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_TEXT_MB "$TEXT_MB"
require_positive BENCH_KEYS "$KEYS"
require_known benchmark "$ALL" $ONLY
TEXT_BYTES=$((TEXT_MB * 1000000))
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  TEXT_BYTES=$((TEXT_BYTES / 10)); KEYS=$((KEYS / 10 > 0 ? KEYS / 10 : 1))
fi

mkdir -p "$WORK" "$RESULTS" || exit 2
notes=()
GNU_TIME=
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; else notes+=("no GNU time at /usr/bin/time: memory is n/a"); fi

# The rows: a label, a size for the CSV, the argument and the standard input.
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
declare -A LABEL SIZE ARGS INPUT
LABEL[wordfreq]="wordfreq ($(awk -v b="$TEXT_BYTES" 'BEGIN { printf "%g", b / 1e6 }') MB)"
SIZE[wordfreq]=$TEXT_BYTES; ARGS[wordfreq]=""; INPUT[wordfreq]=$WORK/text.txt
LABEL[intkeys]="int keys ($(commas "$KEYS"))"
SIZE[intkeys]=$KEYS; ARGS[intkeys]=$KEYS; INPUT[intkeys]=/dev/null

have_go=
if command -v "$GO" >/dev/null 2>&1; then have_go=1; else notes+=("no '$GO': its column is n/a (Debian's golang-go package provides it)"); fi
have_python=
if command -v python3 >/dev/null 2>&1; then have_python=1; else notes+=("no python3: its column is n/a"); fi

declare -A CMD
for b in $ONLY; do
  log "  mosaicc -O2 $b.mos"
  if "$MOSAICC" -O2 -o "$WORK/$b" "$src/$b.mos" >"$WORK/$b.log" 2>&1; then
    CMD[Mosaic:$b]="$WORK/$b"
  else
    notes+=("$b.mos did not build (see $WORK/$b.log)")
  fi
  log "  $CC -O2 $b.c"
  if "$CC" -O2 -o "$WORK/$b-c" "$src/$b.c" >"$WORK/$b-c.log" 2>&1; then
    CMD[C:$b]="$WORK/$b-c"
  else
    notes+=("no C compiler '$CC', or $b.c did not build (see $WORK/$b-c.log)")
  fi
  if [ -n "$have_go" ]; then
    log "  $GO build $b.go"
    if "$GO" build -o "$WORK/$b-go" "$src/$b.go" >"$WORK/$b-go.log" 2>&1; then
      CMD[Go:$b]="$WORK/$b-go"
    else
      notes+=("$b.go did not build (see $WORK/$b-go.log)")
    fi
  fi
  [ -n "$have_python" ] && CMD[Python:$b]="python3 $src/$b.py"
done
SYSTEMS="Mosaic C Go Python"

case " $ONLY " in *" wordfreq "*)
  log "  $CC -O2 gen_text.c; text of $TEXT_BYTES bytes"
  if ! { "$CC" -O2 -o "$WORK/gen_text" "$src/gen_text.c" >"$WORK/gen_text.log" 2>&1 &&
         "$WORK/gen_text" "$TEXT_BYTES" >"$WORK/text.txt"; }; then
    notes+=("gen_text.c did not build or run (see $WORK/gen_text.log): no wordfreq row")
    for sys in $SYSTEMS; do unset "CMD[$sys:wordfreq]"; done
  fi;;
esac

declare -A TIMES MEMS LINE
for b in $ONLY; do
  log "$b x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for sys in $SYSTEMS; do
      k=$sys:$b
      [ -n "${CMD[$k]:-}" ] || continue
      [ "${LINE[$k]:-}" != fail ] || continue
      err="$WORK/$b-$sys.err"
      # shellcheck disable=SC2086  # a command line of several words
      measured_run "${INPUT[$b]}" "$WORK/out" "$err" ${CMD[$k]} ${ARGS[$b]}
      if [ $RUN_STATUS -ne 0 ]; then LINE[$k]=fail; notes+=("$sys $b failed with status $RUN_STATUS (see $err)"); continue; fi
      record_run "$k"
    done
  done
done

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/maps-$stamp.csv"
echo "benchmark,size,system,seconds,peak_kib,over_c,result" >"$csv"
mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
go_version=n/a
[ -n "$have_go" ] && go_version=$("$GO" version 2>/dev/null | awk '{ sub(/^go/, "", $3); print $3 }')
python_version=n/a
[ -n "$have_python" ] && python_version=$(python3 --version 2>/dev/null | cut -d' ' -f2)
echo
echo "Maps — median of $RUNS runs (whole process); Mosaic -O2, C $CC -O2 (hand-written hash tables), Go ${go_version:-n/a}, Python ${python_version:-n/a}"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}"
echo
echo "| benchmark | Mosaic s | C s | Go s | Python s | Mosaic/C | Go/C | Python/C | Mosaic KiB | C KiB | Go KiB | Python KiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
differ=()
for b in $ONLY; do
  # shellcheck disable=SC2086  # the systems, one word each
  row_medians "$b" $SYSTEMS
  echo "| ${LABEL[$b]} | $(row_cell Mosaic "$b") | $(row_cell C "$b") | $(row_cell Go "$b") | $(row_cell Python "$b") | $(row_ratio Mosaic) | $(row_ratio Go) | $(row_ratio Python) | ${ROW_M[Mosaic]} | ${ROW_M[C]} | ${ROW_M[Go]} | ${ROW_M[Python]} |"
  for sys in $SYSTEMS; do
    r=""; [ -n "${ROW_T[$sys]}" ] && [ -n "${ROW_T[C]}" ] && r=$(row_ratio "$sys")
    line=""; [ -n "${ROW_T[$sys]}" ] && line=${LINE[$sys:$b]//,/;}
    echo "$b,${SIZE[$b]},$sys,${ROW_T[$sys]},${ROW_M[$sys]#n/a},$r,$line" >>"$csv"
    [ -n "${ROW_T[$sys]}" ] && [ "$sys" != C ] && ! row_same "$sys" "$b" && differ+=("$sys ${LABEL[$b]}: ${LINE[$sys:$b]}" "  C ${LABEL[$b]}: ${LINE[C:$b]}")
  done
done
echo
echo "!: printed a different result line than C (listed below); n/a: not built, not installed or failed."
for d in "${differ[@]}"; do echo "$d"; done
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

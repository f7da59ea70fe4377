#!/bin/sh
# bench/run-actors.sh — the Savina actor benchmarks: Mosaic against CAF and
# Erlang, one table (DESIGN.md §5; `make bench` runs it).
#
# Usage: bench/run-actors.sh [MOSAICC]        (default ./mosaicc)
#
# What it does, in order:
#   1. Makes sure the peers are there: the CAF headers and libraries
#      (Debian libcaf-dev, CAF 0.17) with a C++ compiler, and Erlang
#      (erlang-base: erl and erlc).  Missing ones are installed with apt-get
#      when running as root; otherwise it says what to install and leaves
#      those columns "n/a".
#   2. Builds every program of bench/savina/ into bench/work/ (in the
#      current directory, normally the build tree): the CAF ones with
#      `g++ -O2` (rebuilt only when the source is newer, since each takes
#      seconds), the Erlang ones with erlc, the Mosaic ones with
#      `MOSAICC -O2`.  A program that does not build gets "n/a" and its
#      compiler output stays in bench/work/<system>/<name>.log.
#   3. Runs each benchmark BENCH_RUNS times (default 5) per system, the
#      systems taking turns within each round so that a slow phase of the
#      machine hurts all of them alike, and keeps the median wall time of
#      the whole process (start to exit, runtime start-up included: the
#      "startup" row shows that fixed cost for each system).
#   4. Checks that every system printed the same result line (a differing
#      line marks the cell with "!" and is listed under the table), then
#      prints ONE table on stdout and writes the same numbers as CSV to
#      bench/results/actors-<date>.csv.
#
# What it does not do: judge.  There is no pass or fail and the exit status
# is 0 unless the script itself is misused; a benchmark prints a table, not
# a verdict.  It also never runs benchmarks in parallel (each one already
# uses every core).
#
# Environment:
#   BENCH_RUNS=k        runs per benchmark and system (default 5)
#   BENCH_ONLY="a b"    run only these benchmarks (names as in the table)
#   BENCH_QUICK=1       about a tenth of the default sizes (a smoke test;
#                       the numbers are then not Savina's)
#   BENCH_TIMEOUT=s     limit for one run, in seconds (default 300)
#   BENCH_NO_INSTALL=1  never call apt-get
#   BENCH_CXX=c++       the C++ compiler for CAF (default g++)
#   MOSAIC_THREADS etc. reach the Mosaic programs unchanged.

# bash for arrays; `make` runs this with /bin/sh.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/savina"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
QUICK=${BENCH_QUICK:-0}
CXX=${BENCH_CXX:-g++}
WORK=bench/work
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"

# The table's rows, in order.  "startup" is a baseline, not a Savina program.
ALL="startup pingpong counting threadring fjthrput fib chameneos big"
BENCHES=${BENCH_ONLY:-$ALL}
require_known benchmark "$ALL" $BENCHES

# Savina's default parameters (see bench/README.md for their sources), and
# the reduced ones of BENCH_QUICK.  Every program takes them as arguments.
params() {
  if [ "$QUICK" = 1 ]; then
    case $1 in
      pingpong) echo 4000;; counting) echo 100000;; threadring) echo 100 10000;;
      fjthrput) echo 60 1000;; fib) echo 18;; chameneos) echo 100 20000;;
      big) echo 120 2000;; startup) echo;;
    esac
  else
    case $1 in
      pingpong) echo 40000;; counting) echo 1000000;; threadring) echo 100 100000;;
      fjthrput) echo 60 10000;; fib) echo 25;; chameneos) echo 100 200000;;
      big) echo 120 20000;; startup) echo;;
    esac
  fi
}

fib() { local a=0 b=1 i t; for ((i = 0; i < $1; i++)); do t=$((a + b)); a=$b; b=$t; done; echo $a; }

# Messages a run sends, by the protocol the three versions share (setup
# messages included; README.md derives each count).
messages() {
  set -- $1 $(params $1)
  case $1 in
    pingpong) echo $((2 * $2));;
    counting) echo $(($2 + 2));;
    threadring) echo $(($3 + 1 + $2));;
    fjthrput) echo $(($2 * $3 + 2 * $2));;
    fib) local actors=$((2 * $(fib $2) - 1)); echo $((2 * actors - 1));;
    chameneos) echo $((4 * $3 + 3 * $2));;
    big) echo $((2 * $2 * $3 + 3 * $2));;
    startup) echo 2;;
  esac
}

mkdir -p "$WORK/mosaic" "$WORK/caf" "$WORK/erlang" "$RESULTS" || exit 2

system_label() { case $1 in mosaic) echo Mosaic;; caf) echo CAF;; erlang) echo Erlang;; esac; }

# ---- 1. peers ---------------------------------------------------------------

have_cxx() { command -v "$CXX" >/dev/null 2>&1; }
# Compiling the header takes seconds: the answer is kept (forget it with caf_known="").
caf_known=""
have_caf() {
  if [ -z "$caf_known" ]; then
    if printf '#include <caf/all.hpp>\n' | "$CXX" -std=c++17 -x c++ -fsyntax-only - >/dev/null 2>&1
    then caf_known=yes; else caf_known=no; fi
  fi
  [ "$caf_known" = yes ]
}
have_erlang() { command -v erl >/dev/null 2>&1 && command -v erlc >/dev/null 2>&1; }

find_missing() {  # sets $missing to the Debian packages to install
  missing=""
  have_cxx || missing="$missing g++"
  { have_cxx && have_caf; } || missing="$missing libcaf-dev"
  have_erlang || missing="$missing erlang-base"
  missing=${missing# }
}

find_missing
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ "${BENCH_NO_INSTALL:-0}" != 1 ]; then
    log "installing the peers: apt-get install -y $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y $missing >"$WORK/apt.log" 2>&1 ||
      { apt-get update >>"$WORK/apt.log" 2>&1 && apt-get install -y $missing >>"$WORK/apt.log" 2>&1; } ||
      log "apt-get failed (see $WORK/apt.log)"
    caf_known=""
    find_missing
  fi
  [ -n "$missing" ] && log "missing: $missing — install with: apt-get install $missing (as root); those columns show n/a"
fi

# ---- 2. builds ----------------------------------------------------------------

declare -A BUILT  # BUILT[system:name]=1 when the program can run
notes=()          # lines printed under the table

build_caf() {
  local n=$1 s="$src/caf/$1.cpp" bin="$WORK/caf/$1"
  if [ ! -x "$bin" ] || [ "$s" -nt "$bin" ]; then
    log "  c++     caf/$n.cpp"
    "$CXX" -O2 -std=c++17 "$s" -o "$bin" -lcaf_core -lcaf_io -lpthread >"$WORK/caf/$n.log" 2>&1 ||
      { rm -f "$bin"; return 1; }
  fi
}

build_erlang() {
  log "  erlc    erlang/$1.erl"
  erlc -o "$WORK/erlang" "$src/erlang/$1.erl" >"$WORK/erlang/$1.log" 2>&1
}

build_mosaic() {
  log "  mosaicc $1.mos"
  rm -f "$WORK/mosaic/$1"
  "$MOSAICC" -O2 -o "$WORK/mosaic/$1" "$src/$1.mos" >"$WORK/mosaic/$1.log" 2>&1 && [ -x "$WORK/mosaic/$1" ]
}

# Decide once what can be built.
CAF_OK=""; ERLANG_OK=""; MOSAIC_OK=""
have_cxx && have_caf && CAF_OK=1
have_erlang && ERLANG_OK=1
{ [ -x "$MOSAICC" ] || command -v "$MOSAICC" >/dev/null 2>&1; } && MOSAIC_OK=1

log "building into $WORK/"
mosaic_failed=""
for b in $BENCHES; do
  if [ -n "$MOSAIC_OK" ]; then
    if build_mosaic $b; then BUILT[mosaic:$b]=1; else mosaic_failed="$mosaic_failed $b"; fi
  fi
  if [ -n "$CAF_OK" ]; then
    if build_caf $b; then BUILT[caf:$b]=1; else notes+=("CAF: $b did not build (see $WORK/caf/$b.log)"); fi
  fi
  if [ -n "$ERLANG_OK" ]; then
    if build_erlang $b; then BUILT[erlang:$b]=1; else notes+=("Erlang: $b did not build (see $WORK/erlang/$b.log)"); fi
  fi
done
if [ -z "$MOSAIC_OK" ]; then
  notes+=("Mosaic: no compiler at '$MOSAICC' (build it first: make)")
elif [ -n "$mosaic_failed" ]; then
  notes+=("Mosaic: mosaicc could not compile:$mosaic_failed (see $WORK/mosaic/<name>.log)")
fi

# ---- 3. runs ------------------------------------------------------------------

command_for() {  # system name -> the command line, as words
  local sys=$1 n=$2
  case $sys in
    mosaic) echo "$WORK/mosaic/$n $(params $n)";;
    caf) echo "$WORK/caf/$n $(params $n)";;
    erlang) echo "erl -noshell -pa $WORK/erlang -run $n main $(params $n)";;
  esac
}

declare -A TIMES LINE STATUS
SYSTEMS="mosaic caf erlang"

for b in $BENCHES; do
  log "running $b ($(params $b | sed 's/^$/no parameters/')) x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for sys in $SYSTEMS; do
      k=$sys:$b
      [ -n "${BUILT[$k]:-}" ] || continue
      [ "${STATUS[$k]:-ok}" = ok ] || continue
      out="$WORK/$sys/$b.out"
      t0=$(now)
      timeout "$TIMEOUT" $(command_for $sys $b) >"$out" 2>"$WORK/$sys/$b.err"
      rc=$?
      t1=$(now)
      if [ $rc -ne 0 ]; then
        STATUS[$k]=fail
        if [ $rc -eq 124 ]; then why="timed out after ${TIMEOUT}s"; else why="failed with status $rc"; fi
        notes+=("$(system_label $sys): $b $why (see $WORK/$sys/$b.err)")
        continue
      fi
      line=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
      if [ -z "${LINE[$k]+set}" ]; then
        LINE[$k]=$line
      elif [ "$line" != "${LINE[$k]}" ]; then
        notes+=("$(system_label $sys): $b printed '$line' after '${LINE[$k]}' in an earlier run")
      fi
      TIMES[$k]="${TIMES[$k]:-} $(elapsed "$t0" "$t1")"
    done
  done
done

# ---- 4. table -----------------------------------------------------------------

fmt_rate() {
  awk -v m="$1" -v t="$2" 'BEGIN {
    r = m / t
    if (r >= 1e9) printf "%.2fG", r / 1e9; else if (r >= 1e6) printf "%.2fM", r / 1e6;
    else if (r >= 1e3) printf "%.1fk", r / 1e3; else printf "%.0f", r }'
}

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/actors-$stamp.csv"
echo "benchmark,parameters,messages,mosaic_s,caf_s,erlang_s,mosaic_over_caf,mosaic_over_erlang,mosaic_msgs_per_s,mosaic_result,caf_result,erlang_result" >"$csv"

caf_version=$(dpkg-query -W -f '${Version}' libcaf-dev 2>/dev/null || echo '?')
otp_version=$([ -n "$ERLANG_OK" ] && erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().' 2>/dev/null || echo '?')
mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)

echo
echo "Savina actor benchmarks — median wall time of $RUNS runs, in seconds (whole process, start-up included)"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}; CAF: $caf_version; Erlang/OTP: $otp_version"
[ "$QUICK" = 1 ] && echo "BENCH_QUICK=1: reduced sizes, not Savina's"
echo
fmt='%-11s %9s %9s %9s %11s %14s %16s\n'
printf "$fmt" benchmark "Mosaic s" "CAF s" "Erlang s" "Mosaic/CAF" "Mosaic/Erlang" "msgs/s (Mosaic)"
printf "$fmt" ----------- --------- --------- --------- ----------- -------------- ----------------

csv_quote() { printf '"%s"' "${1//\"/\"\"}"; }
declare -A cell med

for b in $BENCHES; do
  # The reference result: CAF's line, else Erlang's, else Mosaic's.
  ref=""
  for sys in caf erlang mosaic; do
    k=$sys:$b
    if [ "${STATUS[$k]:-ok}" = ok ] && [ -n "${LINE[$k]+set}" ]; then ref=${LINE[$k]}; break; fi
  done
  for sys in $SYSTEMS; do
    k=$sys:$b
    med[$sys]=""
    if [ -z "${BUILT[$k]:-}" ]; then
      cell[$sys]="n/a"
    elif [ "${STATUS[$k]:-ok}" != ok ]; then
      cell[$sys]="fail"
    else
      med[$sys]=$(median ${TIMES[$k]})
      cell[$sys]=$(fmt_time "${med[$sys]}")
      if [ "${LINE[$k]}" != "$ref" ]; then
        cell[$sys]="!${cell[$sys]}"
        notes+=("$(system_label $sys): $b printed '${LINE[$k]}', expected '$ref'")
      fi
    fi
  done
  msgs=$(messages $b)
  mc="n/a"; me="n/a"; rate="n/a"; rate_csv=""
  if [ -n "${med[mosaic]}" ]; then
    [ -n "${med[caf]}" ] && mc=$(fmt_ratio "${med[mosaic]}" "${med[caf]}")
    [ -n "${med[erlang]}" ] && me=$(fmt_ratio "${med[mosaic]}" "${med[erlang]}")
    if [ "$b" = startup ]; then
      rate="-"
    else
      rate=$(fmt_rate "$msgs" "${med[mosaic]}")
      rate_csv=$(awk -v m="$msgs" -v t="${med[mosaic]}" 'BEGIN { printf "%.0f", m / t }')
    fi
  fi
  printf "$fmt" "$b" "${cell[mosaic]}" "${cell[caf]}" "${cell[erlang]}" "$mc" "$me" "$rate"
  {
    printf '%s,%s,%s,' "$b" "$(csv_quote "$(params $b)")" "$msgs"
    printf '%s,%s,%s,' "${med[mosaic]}" "${med[caf]}" "${med[erlang]}"
    printf '%s,%s,%s,' "${mc#n/a}" "${me#n/a}" "$rate_csv"
    printf '%s,%s,%s\n' "$(csv_quote "${LINE[mosaic:$b]:-}")" "$(csv_quote "${LINE[caf:$b]:-}")" \
      "$(csv_quote "${LINE[erlang:$b]:-}")"
  } >>"$csv"
done

echo
echo "n/a: not built or not installed; fail: a run failed; !: printed a different result than the others."
echo "Mosaic/CAF and Mosaic/Erlang are time ratios (below 1: Mosaic is faster)."
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

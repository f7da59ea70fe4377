# bench/lib.sh — the helpers every table-making benchmark script shares.
#
# Sourced (never run) by run-actors.sh, run-remote.sh and run-layouts.sh, so
# that a median or a ratio is computed and printed the same way in every
# table.  Each function writes its answer to stdout; log writes to stderr so
# that progress never mixes with a table.

log() { printf '%s\n' "$*" >&2; }

# The settings checks: a bad BENCH_ variable stops the script with status 2
# and a message naming the script, before anything is built.
script=${0##*/}

# require_positive VARIABLE VALUE: VALUE must be a positive integer.
require_positive() {
  case $2 in ''|*[!0-9]*|0) echo "$script: $1 must be a positive integer" >&2; exit 2;; esac
}

# require_known WHAT "KNOWN NAMES" NAME...: every NAME must be a known one.
require_known() {
  local what=$1 known=$2 name
  shift 2
  for name in "$@"; do
    case " $known " in *" $name "*) ;; *) echo "$script: unknown $what '$name' (known: $known)" >&2; exit 2;; esac
  done
}

now() {  # wall-clock seconds, with the finest fraction the shell offers
  if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi
}

elapsed() {  # elapsed T0 T1: the seconds from now's T0 to now's T1
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'
}

# measured_run IN OUT ERR COMMAND...: runs COMMAND with standard input IN,
# output OUT and errors ERR, under `timeout $TIMEOUT`, and under GNU time
# when $GNU_TIME names it (the peak memory, in KiB, then goes to
# $WORK/mem).  Sets RUN_STATUS and RUN_SECONDS (wall time).
measured_run() {
  local in=$1 out=$2 err=$3 t0 t1
  shift 3
  t0=$(now)
  if [ -n "${GNU_TIME:-}" ]; then
    timeout "$TIMEOUT" "$GNU_TIME" -f %M -o "$WORK/mem" "$@" <"$in" >"$out" 2>"$err"
  else
    timeout "$TIMEOUT" "$@" <"$in" >"$out" 2>"$err"
  fi
  RUN_STATUS=$?
  t1=$(now)
  RUN_SECONDS=$(elapsed "$t0" "$t1")
}

# record_run KEY: after a measured_run whose output went to $WORK/out, its
# last line into LINE[KEY], its time and peak memory onto TIMES[KEY] and
# MEMS[KEY] (arrays of the table script).
record_run() {
  LINE[$1]=$(tail -n 1 "$WORK/out")
  TIMES[$1]="${TIMES[$1]:-} $RUN_SECONDS"
  if [ -n "${GNU_TIME:-}" ]; then MEMS[$1]="${MEMS[$1]:-} $(tail -n 1 "$WORK/mem")"; fi
}

# The cells of one row of a table of systems against C, from the arrays a
# table script fills: TIMES[SYS:ROW] and MEMS[SYS:ROW] (the runs' seconds
# and KiB) and LINE[SYS:ROW] (the output).  row_medians ROW SYS... sets
# ROW_T[SYS] (the median time, empty when it never ran) and ROW_M[SYS]
# (the median memory, or n/a).
row_medians() {
  local row=$1 sys k
  shift
  declare -gA ROW_T ROW_M
  for sys in "$@"; do
    k=$sys:$row
    ROW_T[$sys]=""; ROW_M[$sys]="n/a"
    if [ -n "${TIMES[$k]:-}" ]; then
      # shellcheck disable=SC2086  # the runs, one word each
      ROW_T[$sys]=$(median ${TIMES[$k]})
      # shellcheck disable=SC2086
      [ -n "${MEMS[$k]:-}" ] && ROW_M[$sys]=$(median -d 0 ${MEMS[$k]})
    fi
  done
}
# row_same SYS ROW: SYS printed what C printed (or C did not run).
row_same() { [ "${LINE[$1:$2]}" = "${LINE[C:$2]:-${LINE[$1:$2]}}" ]; }
# row_cell SYS ROW: SYS's time, "!" in front when its output is not C's.
row_cell() {
  if [ -z "${ROW_T[$1]}" ]; then echo "n/a"; return; fi
  local c
  c=$(fmt_time "${ROW_T[$1]}")
  row_same "$1" "$2" || c="!$c"
  echo "$c"
}
# row_ratio SYS: SYS's time over C's.
row_ratio() {
  if [ -n "${ROW_T[$1]}" ] && [ -n "${ROW_T[C]}" ]; then fmt_ratio "${ROW_T[$1]}" "${ROW_T[C]}"; else echo "n/a"; fi
}

# median [-d DIGITS] NUMBER...: their median, with DIGITS decimals (6 unless
# told; the layout tables time nanosecond loops and ask for 9).
median() {
  local digits=6
  if [ "${1:-}" = -d ]; then digits=$2; shift 2; fi
  printf '%s\n' "$@" | sort -g |
    awk -v d="$digits" '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%." d "f", m }'
}

fmt_time() { awk -v t="$1" 'BEGIN { printf (t < 10 ? "%.3f" : "%.2f"), t }'; }
fmt_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# layout_params WORKLOAD: the arguments of bench/layouts/WORKLOAD.mos,
# objects and steps: about 0.1 to 1 s of steps per variant on a 2020s
# machine; a tenth of the objects when QUICK=1 (run-layouts.sh, run-tune.sh).
layout_params() {
  local n=4000000
  [ "${QUICK:-0}" = 1 ] && n=400000
  case $1 in
    particle) echo "$n 50";;
    nbody) echo "$n 20";;
    column) echo "$n 50";;
  esac
}

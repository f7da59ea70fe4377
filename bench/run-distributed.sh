#!/bin/sh
# bench/run-distributed.sh — the distributed engine (`mosaicc
# --distributed`, nodes as MPI ranks, LANGUAGE.md §10) beside what it is
# built on and what a user would pick instead, three tables (DESIGN.md §5;
# `make bench` runs it).  The programs are in bench/distributed/.
#
# Usage: bench/run-distributed.sh [MOSAICC]        (default ./mosaicc)
#
# A distributed program pays for every message and every remote access
# with a trip between processes.  What that trip costs is the one number
# that decides whether putting actors on two ranks is worth it, so the
# tables set it beside its floor and beside its rivals:
#
#   (a) pingpong: one round trip between two nodes, in microseconds —
#       hand-written C with MPI_Send/MPI_Recv (pingpong_mpi.c, `mpicc
#       -O2`): the floor, what Open MPI itself takes; the same exchange
#       with MPI called as the transport calls it (pingpong_mpi_posted.c:
#       receives from any rank kept posted and polled with MPI_Test,
#       MPI_Isend), what that way costs before any runtime work; Erlang distribution,
#       two `erl -sname` VMs on this machine (pingpong.erl): the actor
#       language that has done this for decades; Mosaic --distributed under
#       `mpirun -np 2` (pingpong.mos, Savina's message-passing ping-pong
#       with Pong on node(1)); and the same Mosaic program built plainly and
#       run with MOSAIC_NODES=2, where the two nodes share one process: the
#       reference the distributed engine is measured against.
#   (b) counting and threadring: Savina's throughput into one remote
#       mailbox and latency of a chain of cross-node hops (counting.mos,
#       threadring.mos), --distributed under mpirun beside the plain build
#       with MOSAIC_NODES=2.
#   (c) remote_read: the cost of one field read of an object on node(1)
#       from main (64 such objects read in turn, so that no read can be
#       taken out of the loop), and of a loop over a field main's effects
#       prove local, --distributed against the plain build (for the local
#       loop they must be the same code: LANGUAGE.md §10).
#
# Every figure is the program's own clock around its exchange (clock() in
# Mosaic, MPI_Wtime in C, erlang:monotonic_time in Erlang), so that the
# start of mpirun, of MPI and of the Erlang VMs, which is a second or so
# and has nothing to do with messages, is left out; the whole process's
# wall time is shown beside it.  Each run prints a check value (a count or
# a sum); the script computes the value each variant must print from its
# arguments, and a run that prints another one is reported "n/a (wrong
# result)" with both lines under the table, never as a time.  Each
# variant's sizes give runs of about a second to a few on a 2-core machine
# (Savina's own sizes for counting and threadring): the C round trip is
# the quickest, so it makes more of them; the tables are per round trip,
# per message, per access, so the sizes need not agree.
#
# Each program runs BENCH_RUNS times (default 3) per variant, the variants
# taking turns within each round so that a slow phase of the machine hurts
# all of them alike; the tables show the median.  A variant that does not
# build, is not installed, fails, times out or prints a wrong result shows
# "n/a (reason)", with the details under the table; the --distributed
# builds show that until the engine exists.  Erlang (Debian's erlang-base,
# which brings epmd) is installed with apt-get when missing and running as
# root, as run-actors.sh does; Open MPI (mpicc, mpirun) is not: configure
# needs it for --distributed anyway.  No verdict: the exit status is 0
# unless the script itself is misused.  A CSV copy goes to
# bench/results/distributed-<date>.csv, scratch files to
# bench/work/distributed/.
#
# Environment:
#   BENCH_RUNS=k          runs per program and variant (default 3)
#   BENCH_ONLY="a b"      only these programs (pingpong counting threadring
#                         remote_read)
#   BENCH_QUICK=1         a tenth of every size (a smoke test)
#   BENCH_TIMEOUT=s       limit for one run, in seconds (default 60)
#   BENCH_NO_INSTALL=1    never call apt-get
#   BENCH_MPIRUN_FLAGS=…  more flags for mpirun (say "--bind-to none")
#   MOSAIC_THREADS etc.   reach the Mosaic programs unchanged.

# bash for arrays; `make` runs this with /bin/sh.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/distributed"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-3}
TIMEOUT=${BENCH_TIMEOUT:-60}
QUICK=${BENCH_QUICK:-0}
WORK=bench/work/distributed
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_TIMEOUT "$TIMEOUT"

ALL="pingpong counting threadring remote_read"
PROGS=${BENCH_ONLY:-$ALL}
require_known program "$ALL" $PROGS

# Always root-proof and core-count-proof: as root mpirun refuses to start
# without --allow-run-as-root, and with more ranks than it counts slots
# (cores) without --oversubscribe.  Nothing else: for 2 ranks Open MPI
# binds each to one core, which is what a user of `mpirun -np 2` gets (a
# rank's workers then share that core); BENCH_MPIRUN_FLAGS="--bind-to
# none" lets each rank's workers use every core instead.
# shellcheck disable=SC2206  # the user's flags, as words
MPIRUN=(mpirun --allow-run-as-root --oversubscribe ${BENCH_MPIRUN_FLAGS:-} -np 2)

mkdir -p "$WORK/erlang" "$RESULTS" || exit 2
notes=()

# ---- programs, variants, sizes -----------------------------------------------

# The variants: c_mpi, c_posted and erlang exist for pingpong only.
variants() { if [ "$1" = pingpong ]; then echo "c_mpi c_posted erlang dist shared"; else echo "dist shared"; fi; }
# A program's parts: what it times and checks (one "NAME: …" check line and
# one "NAME seconds: T" line each).  remote_read has two loops.
parts() { if [ "$1" = remote_read ]; then echo "remote_read local_loop"; else echo "$1"; fi; }
label() {
  case $1 in
    c_mpi) echo "C, MPI_Send/MPI_Recv (mpirun -np 2)";;
    c_posted) echo "C, MPI as the transport calls it (mpirun -np 2)";;
    erlang) echo "Erlang distribution (2 VMs, erl -sname)";;
    dist) echo "Mosaic --distributed (mpirun -np 2)";;
    shared) echo "Mosaic, MOSAIC_NODES=2 (one process)";;
  esac
}

# Each variant's arguments.  The C round trip takes 1 to 3 µs here,
# Erlang's 25 or more, so C makes more of them; the Mosaic pair always gets
# the same sizes, so that its two columns are the same work.
params() {  # program variant
  local a
  case $1:$2 in
    pingpong:c_mpi|pingpong:c_posted) a="300000";;
    pingpong:erlang) a="100000";;
    pingpong:*) a="200000";;
    counting:*) a="1000000";;           # Savina's N
    threadring:*) a="100 100000";;      # Savina's 100 members, 100000 hops (an even ring: every hop crosses)
    remote_read:*) a="200000 500000000";;
  esac
  if [ "$QUICK" = 1 ]; then
    local w out=""
    for w in $a; do
      # the ring's size stays: a tenth of the hops is enough
      if [ "$1" = threadring ] && [ -z "$out" ]; then out=$w; else out="$out $((w / 10 > 0 ? w / 10 : 1))"; fi
    done
    a=${out# }
  fi
  echo "$a"
}

# remote_read's local loop: v ← v·a + c from 1, wrapping; its value after L
# steps by composing the step with itself (log L squarings), in bash's
# 64-bit arithmetic, which wraps as Mosaic's does.
lcg_after() {
  local x=$1 n=$2 a=6364136223846793005 c=1442695040888963407 ra=1 rc=0
  while ((n > 0)); do
    if ((n & 1)); then ra=$((a * ra)); rc=$((a * rc + c)); fi
    c=$((a * c + c)); a=$((a * a)); n=$((n >> 1))
  done
  echo $((ra * x + rc))
}

# The check line a part must print, from the variant's arguments.
expected() {  # part args…
  local p=$1; shift
  case $p in
    pingpong) echo "pingpong: pings=$1 sum=$(($1 * ($1 + 1) / 2))";;
    counting) echo "counting: count=$1";;
    threadring) echo "threadring: hops=$2 last=$(($2 % $1))";;
    remote_read)  # cell j holds j + 1: 1 + … + 64 = 2080 a round of the cells
      local rounds=$(($1 / 64)) rest=$(($1 % 64))
      echo "remote_read: reads=$1 sum=$((rounds * 2080 + rest * (rest + 1) / 2))";;
    local_loop) echo "local_loop: steps=$2 v=$(lcg_after 1 "$2")";;
  esac
}

# What the times are divided by: round trips, messages, accesses.
count_of() {  # part args…
  local p=$1; shift
  case $p in
    pingpong) echo "$1";;                   # round trips (2 messages each)
    counting) echo $(($1 + 2));;            # N incr, the total's request and reply
    threadring) echo $(($2 + 2));;          # T+1 token sends and done (links and start precede the clock)
    remote_read) echo "$1";;                # remote reads
    local_loop) echo "$2";;                 # steps, each one read and one write
  esac
}

# ---- peers --------------------------------------------------------------------

have() { command -v "$1" >/dev/null 2>&1; }
need_erlang=""
case " $PROGS " in *" pingpong "*) need_erlang=1;; esac
if [ -n "$need_erlang" ] && ! { have erl && have erlc && have epmd; }; then
  if [ "$(id -u)" = 0 ] && have apt-get && [ "${BENCH_NO_INSTALL:-0}" != 1 ]; then
    log "installing the peer: apt-get install -y erlang-base"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y erlang-base >"$WORK/apt.log" 2>&1 ||
      { apt-get update >>"$WORK/apt.log" 2>&1 && apt-get install -y erlang-base >>"$WORK/apt.log" 2>&1; } ||
      log "apt-get failed (see $WORK/apt.log)"
  fi
  { have erl && have erlc && have epmd; } ||
    notes+=("Erlang: not installed — apt-get install erlang-base (as root)")
fi

# ---- builds -------------------------------------------------------------------

declare -A WHY   # WHY[variant:part]: why that cell is n/a (unset: it is fine)
declare -A BIN   # BIN[variant:program]: what to run

fail_all() {  # variant program reason: every part of the program is n/a
  local p
  for p in $(parts "$2"); do [ -n "${WHY[$1:$p]:-}" ] || WHY[$1:$p]=$3; done
}
first_error() { grep -m 1 -i 'error' "$1" 2>/dev/null || head -n 1 "$1" 2>/dev/null; }

have_mosaicc=""
{ [ -x "$MOSAICC" ] || have "$MOSAICC"; } && have_mosaicc=1
[ -n "$have_mosaicc" ] || notes+=("no compiler at '$MOSAICC' (build it first: make)")
have mpirun || notes+=("no mpirun: the MPI variants are n/a (Debian: openmpi-bin libopenmpi-dev)")

log "building into $WORK/"
for prog in $PROGS; do
  for v in $(variants "$prog"); do
    case $v in
      c_mpi|c_posted)
        c=pingpong_mpi; [ $v = c_posted ] && c=pingpong_mpi_posted
        bin="$WORK/$c"
        if ! have mpicc; then fail_all $v $prog "no mpicc"; continue; fi
        if ! have mpirun; then fail_all $v $prog "no mpirun"; continue; fi
        log "  mpicc -O2 $c.c"
        if mpicc -O2 -o "$bin" "$src/$c.c" >"$bin.log" 2>&1; then BIN[$v:$prog]=$bin
        else fail_all $v $prog "does not build"; notes+=("$c.c did not build (see $bin.log)"); fi;;
      erlang)
        if ! { have erl && have erlc && have epmd; }; then fail_all $v $prog "not installed"; continue; fi
        log "  erlc pingpong.erl"
        if erlc -o "$WORK/erlang" "$src/pingpong.erl" >"$WORK/erlang/pingpong.log" 2>&1; then BIN[$v:$prog]=erl
        else fail_all $v $prog "does not build"; notes+=("pingpong.erl did not build (see $WORK/erlang/pingpong.log)"); fi;;
      dist|shared)
        [ -n "$have_mosaicc" ] || { fail_all $v $prog "no mosaicc"; continue; }
        if [ $v = dist ]; then bin="$WORK/$prog-dist"; flags="--distributed"; else bin="$WORK/$prog"; flags=""; fi
        if [ $v = dist ] && ! have mpirun; then fail_all $v $prog "no mpirun"; continue; fi
        log "  mosaicc ${flags:+$flags }-O2 $prog.mos"
        rm -f "$bin"
        if "$MOSAICC" $flags -O2 "$src/$prog.mos" -o "$bin" >"$bin.log" 2>&1 && [ -x "$bin" ]; then BIN[$v:$prog]=$bin
        else
          fail_all $v $prog "does not build"
          notes+=("$prog.mos${flags:+ ($flags)} did not build: $(first_error "$bin.log") (see $bin.log)")
        fi;;
    esac
  done
done

# ---- the Erlang pair ----------------------------------------------------------

# Distribution needs epmd, the node name server.  If it is not running,
# start it and stop it again at the end; one that was running stays.
epmd_started=""
pong_pid=""
stop_pong() {
  # pingpong.erl halts the Pong VM at its end; give it 5 s, then end it
  # (through the timeout that started it, which passes the signal on).
  [ -n "$pong_pid" ] || return 0
  local i
  for ((i = 0; i < 50; i++)); do kill -0 "$pong_pid" 2>/dev/null || break; sleep 0.1; done
  kill "$pong_pid" 2>/dev/null
  wait "$pong_pid" 2>/dev/null
  pong_pid=""
}
cleanup() {
  stop_pong
  if [ -n "$epmd_started" ]; then epmd -kill >/dev/null 2>&1; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "${BIN[erlang:pingpong]:-}" ] && ! epmd -names >/dev/null 2>&1; then
  if epmd -daemon && sleep 0.2 && epmd -names >/dev/null 2>&1; then epmd_started=1
  else fail_all erlang pingpong "no epmd"; unset "BIN[erlang:pingpong]"; notes+=("Erlang: epmd did not start"); fi
fi
cookie="mosaicbench$$"

# run OUT ERR COMMAND…: COMMAND under `timeout`, with no input; sets
# RUN_STATUS and RUN_SECONDS (wall time).  -k: mpirun passes the TERM on
# to its ranks, and if one of them does not end, KILL follows 5 s later.
run() {
  local out=$1 err=$2 t0 t1
  shift 2
  t0=$(now)
  timeout -k 5 "$TIMEOUT" "$@" </dev/null >"$out" 2>"$err"
  RUN_STATUS=$?
  t1=$(now)
  RUN_SECONDS=$(elapsed "$t0" "$t1")
}

# run_erlang ROUND N: the Pong VM in the background, then the Ping VM,
# which times N round trips; sets RUN_STATUS, RUN_SECONDS (the Ping VM's
# wall time).  Names carry the script's pid and the round, so that a VM
# left over from an earlier run can never answer.
run_erlang() {
  local pong="mosbench_pong_$$_$1" ping="mosbench_ping_$$_$1"
  timeout "$TIMEOUT" erl -sname "$pong" -setcookie "$cookie" -noshell -pa "$WORK/erlang" \
    </dev/null >"$WORK/erlang/pong.out" 2>&1 &
  pong_pid=$!
  run "$WORK/out" "$WORK/erlang-pingpong.err" \
    erl -sname "$ping" -setcookie "$cookie" -noshell -pa "$WORK/erlang" -run pingpong main "$pong" "$2"
  stop_pong
}

# ---- runs ---------------------------------------------------------------------

declare -A TIMES WALLS LINE
for prog in $PROGS; do
  log "running $prog x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for v in $(variants "$prog"); do
      [ -n "${BIN[$v:$prog]:-}" ] || continue
      # A variant that failed once is not run again.
      ok=""; for p in $(parts "$prog"); do [ -z "${WHY[$v:$p]:-}" ] && ok=1; done
      [ -n "$ok" ] || continue
      args=$(params "$prog" $v)
      err="$WORK/$v-$prog.err"
      # shellcheck disable=SC2086  # the arguments, as words
      case $v in
        c_mpi|c_posted|dist) run "$WORK/out" "$err" "${MPIRUN[@]}" "${BIN[$v:$prog]}" $args;;
        shared) run "$WORK/out" "$err" env MOSAIC_NODES=2 "${BIN[$v:$prog]}" $args;;
        erlang) run_erlang "$r" $args; err="$WORK/erlang-pingpong.err";;
      esac
      cp "$WORK/out" "$WORK/$v-$prog.out"
      if [ "$RUN_STATUS" -ne 0 ]; then
        if [ "$RUN_STATUS" -eq 124 ]; then why="timed out"; else why="failed, status $RUN_STATUS"; fi
        fail_all $v $prog "$why"
        [ "$RUN_STATUS" -eq 124 ] && why="timed out after ${TIMEOUT}s"
        notes+=("$(label $v): $prog $why (see $err)")
        continue
      fi
      checked=""
      for p in $(parts "$prog"); do
        [ -z "${WHY[$v:$p]:-}" ] || continue
        # shellcheck disable=SC2086
        want=$(expected $p $args)
        # Exactly one check line: a build that ran main on every rank would
        # print it twice, and the second copy is no less wrong.
        got=$(grep "^$p: " "$WORK/out" | paste -s -d '|')
        secs=$(sed -n "s/^$p seconds: \([-+0-9.eE]*\).*/\1/p" "$WORK/out" | tail -n 1)
        if [ "$got" != "$want" ]; then
          WHY[$v:$p]="wrong result"
          notes+=("$(label $v): $p printed '${got:-nothing}', expected '$want' (see $WORK/$v-$prog.out)")
        elif [ -z "$secs" ]; then
          WHY[$v:$p]="no time printed"
          notes+=("$(label $v): $p printed no '$p seconds:' line (see $WORK/$v-$prog.out)")
        else
          LINE[$v:$p]=$got
          TIMES[$v:$p]="${TIMES[$v:$p]:-} $secs"
          checked=1
        fi
      done
      # The wall time too only of a run that printed something right.
      [ -n "$checked" ] && WALLS[$v:$prog]="${WALLS[$v:$prog]:-} $RUN_SECONDS"
    done
  done
done

# ---- tables -------------------------------------------------------------------

# sig X: three significant digits, without exponents (table cells).
sig() {
  awk -v x="$1" 'BEGIN { a = x < 0 ? -x : x
    if (a >= 100) printf "%.0f", x; else if (a >= 10) printf "%.1f", x;
    else if (a >= 1) printf "%.2f", x; else if (a >= 0.01) printf "%.3f", x; else printf "%.2g", x }'
}
fmt_rate() {
  awk -v m="$1" -v t="$2" 'BEGIN { if (t <= 0) { print "n/a"; exit }
    r = m / t
    if (r >= 1e9) printf "%.2fG", r / 1e9; else if (r >= 1e6) printf "%.2fM", r / 1e6;
    else if (r >= 1e3) printf "%.1fk", r / 1e3; else printf "%.0f", r }'
}
per() { awk -v t="$1" -v n="$2" -v s="$3" 'BEGIN { printf "%.9g", (n > 0 ? t / n * s : 0) }'; }  # (): a bare > in printf would redirect
ratio() { if [ -n "$1" ] && [ -n "$2" ]; then awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; else echo "n/a"; fi; }

# med VARIANT PART: the median of its times (empty when it has none), to
# the picosecond: the shared-memory reads of (c) take 0.1 ms in all;
# wall VARIANT PROGRAM: the median of its runs' wall times, while one of
# its parts still stands.
med() { if [ -z "${WHY[$1:$2]:-}" ] && [ -n "${TIMES[$1:$2]:-}" ]; then median -d 12 ${TIMES[$1:$2]}; fi; }
wall() {
  local p ok=""
  for p in $(parts "$2"); do [ -z "${WHY[$1:$p]:-}" ] && ok=1; done
  if [ -n "$ok" ] && [ -n "${WALLS[$1:$2]:-}" ]; then fmt_time "$(median ${WALLS[$1:$2]})"; else echo "n/a"; fi
}
na() { echo "n/a (${WHY[$1:$2]:-no run})"; }
in_progs() { case " $PROGS " in *" $1 "*) return 0;; esac; return 1; }

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/distributed-$stamp.csv"
echo "program,part,variant,parameters,count,seconds,per_unit,unit,wall_s,result" >"$csv"
csv_row() {  # program part variant unit scale
  local m a n u=""
  m=$(med "$3" "$2"); a=$(params "$1" "$3")
  # shellcheck disable=SC2086
  n=$(count_of "$2" $a)
  [ -n "$m" ] && u=$(per "$m" "$n" "$5")
  printf '%s,%s,%s,"%s",%s,%s,%s,%s,%s,"%s"\n' "$1" "$2" "$3" "$a" "$n" "$m" "$u" "$4" \
    "$(wall "$3" "$1" | sed 's|n/a||')" "${LINE[$3:$2]:-${WHY[$3:$2]:-}}" >>"$csv"
}

mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
mpi_version=$(mpirun --version 2>/dev/null | head -n 1 || true)
otp_version=$(have erl && erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().' 2>/dev/null || true)

echo
echo "Distributed engine — median of $RUNS runs; times are the programs' own clocks around the exchange (start-up excluded), wall s the whole process"
echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}; MPI: ${mpi_version:-n/a}; Erlang/OTP: ${otp_version:-n/a}"
echo "mpirun: ${MPIRUN[*]}"
[ "$QUICK" = 1 ] && echo "BENCH_QUICK=1: a tenth of the sizes"

if in_progs pingpong; then
  c=$(med c_mpi pingpong); e=$(med erlang pingpong)
  cu=""; eu=""
  [ -n "$c" ] && cu=$(per "$c" "$(params pingpong c_mpi)" 1e6)
  [ -n "$e" ] && eu=$(per "$e" "$(params pingpong erlang)" 1e6)
  echo
  echo "(a) ping-pong between two nodes: one round trip = a ping and its pong"
  echo
  echo "| system | round trips | µs per round trip | /C MPI | /Erlang | wall s |"
  echo "|---|---:|---:|---:|---:|---:|"
  for v in $(variants pingpong); do
    m=$(med $v pingpong); n=$(params pingpong $v)
    if [ -n "$m" ]; then
      u=$(per "$m" "$n" 1e6)
      echo "| $(label $v) | $n | $(sig "$u") | $(ratio "$u" "$cu") | $(ratio "$u" "$eu") | $(wall $v pingpong) |"
    else
      echo "| $(label $v) | $n | $(na $v pingpong) | n/a | n/a | $(wall $v pingpong) |"
    fi
    csv_row pingpong pingpong $v us_per_round_trip 1e6
  done
fi

if in_progs counting || in_progs threadring; then
  echo
  echo "(b) Savina counting and thread ring across two nodes: --distributed under mpirun -np 2 against the plain build with MOSAIC_NODES=2"
  echo
  echo "| benchmark | messages | --distributed s | MOSAIC_NODES=2 s | distributed/shared | msgs/s distributed | msgs/s shared | wall s distributed | wall s shared |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for prog in counting threadring; do
    in_progs $prog || continue
    a=$(params $prog shared)
    # shellcheck disable=SC2086
    n=$(count_of $prog $a)
    declare -A cell rate
    for v in dist shared; do
      m=$(med $v $prog)
      if [ -n "$m" ]; then cell[$v]=$(fmt_time "$m"); rate[$v]=$(fmt_rate "$n" "$m"); else cell[$v]=$(na $v $prog); rate[$v]="n/a"; fi
      csv_row $prog $prog $v s_per_message 1
    done
    echo "| $prog ($a) | $n | ${cell[dist]} | ${cell[shared]} | $(ratio "$(med dist $prog)" "$(med shared $prog)") | ${rate[dist]} | ${rate[shared]} | $(wall dist $prog) | $(wall shared $prog) |"
  done
fi

if in_progs remote_read; then
  a=$(params remote_read shared)
  echo
  echo "(c) field accesses from main (node 0): reads of Cell<node(1)>s, and a loop over a Cell<here>, --distributed under mpirun -np 2 against the plain build with MOSAIC_NODES=2"
  echo
  echo "| access | count | --distributed ns | MOSAIC_NODES=2 ns | distributed/shared |"
  echo "|---|---:|---:|---:|---:|"
  for p in remote_read local_loop; do
    # shellcheck disable=SC2086
    n=$(count_of $p $a)
    declare -A cell uu
    for v in dist shared; do
      m=$(med $v $p); uu[$v]=""
      if [ -n "$m" ]; then uu[$v]=$(per "$m" "$n" 1e9); cell[$v]=$(sig "${uu[$v]}"); else cell[$v]=$(na $v $p); fi
      csv_row remote_read $p $v ns_per_access 1e9
    done
    case $p in
      remote_read) what="remote read: far[i & 63].v, 64 cells on node(1)";;
      local_loop) what="local step: read and write near.v, near on here";;
    esac
    echo "| $what | $n | ${cell[dist]} | ${cell[shared]} | $(ratio "${uu[dist]}" "${uu[shared]}") |"
  done
fi

echo
echo "n/a (reason): the variant did not build, is not installed, failed, timed out or printed a wrong result (details below)."
echo "Ratios are of the per-unit times (below 1: faster)."
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

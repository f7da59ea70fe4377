#!/bin/sh
# bench/run-seq.sh — Mosaic's sequential code beside C: nine classic
# single-threaded programs, then what every program pays whatever it does
# (start-up, the size of the executable) and what the compiler costs on a
# large program (DESIGN.md §5; `make bench` runs it).  The programs are
# bench/seq/NAME.{mos,c}, each written twice, the same algorithm with the
# same output, the C as a C programmer writes it:
#
#   nbody          the Benchmarks Game's n-body, 5 bodies as objects,
#                  6,500,000 steps, the energy with nine decimals;
#   spectralnorm   its spectral-norm, n = 4,000;
#   fannkuchredux  its fannkuch-redux, n = 10, the whole count 4 times;
#   binarytrees    its binary-trees, depth 18 (Mosaic: a class Node and the
#                  collector; C: malloc and free);
#   mandelbrot     its mandelbrot, 3,500 × 3,500 points, counted instead of
#                  written as a bitmap;
#   sieve          Eratosthenes up to 25,000,000, 10 rounds;
#   strings        3,500,000 records formatted, joined, checksummed, split,
#                  parsed and rebuilt;
#   richards       Richards's scheduler benchmark, objects for tasks and
#                  packets, the classic run 2,000 times;
#   fib            the doubly recursive Fibonacci function, fib(44): what
#                  a call costs.
#
# Each size makes the C program take about a second on the 2-core machine
# of bench/README.md (binarytrees 1.8 s: depth 17 takes 0.6 s); every
# program takes its size as arguments, with these as defaults.  Mosaic
# is built twice, with `mosaicc -O2` and with `-O2 --no-checks` (no null or
# bounds checks), C with `$BENCH_CC -O2 -ffp-contract=off -lm` (Mosaic does
# no fused float operations, and neither may C, or the floats would
# differ; on x86-64 the flag changes nothing).
#
# Under the table, --no-checks beside checked code round by round: the
# ratio of the two builds' times in each round (they take turns), and a
# verdict, "slower in every round", "faster in every round" or "within
# noise", so that a gap between two medians on a noisy machine is not
# taken for a difference of code.
#
# Then three small tables:
#
#   start-up   hello world (bench/seq/hello.{mos,c}) run BENCH_STARTS times
#              in a loop (default 200), the loop's time divided by the
#              runs, and the system calls of one run (`strace -f -c`, so
#              the runtime's threads count; n/a without strace);
#   size       the bytes of the hello-world executables, as built and
#              stripped;
#   compile    a large generated program, BENCH_LINES lines (default
#              50,000): bench/gen-large.sh's for mosaicc, and its C twin
#              from bench/seq/gen-large-c.sh (the same units, one for one,
#              the same number of lines) for cc: `mosaicc --check` beside
#              `cc -fsyntax-only`, then `-O0 -c` and `-O2 -c` (an object
#              file, no linking) with each; one run each, since an -O2
#              build of 50,000 lines takes minutes.
#
# Usage: bench/run-seq.sh [MOSAICC]        (default ./mosaicc)
#
# Each program runs BENCH_RUNS times (default 5), the three builds taking
# turns; the tables show the median wall time of the whole process and the
# peak memory (GNU time's %M, n/a without /usr/bin/time), and the ratios to
# C.  A build that is missing or fails shows n/a.  Each run's output must be
# the same for all three (a differing one is marked "!" and listed under
# the table).  A CSV copy, with every result, goes to
# bench/results/seq-<date>.csv.  No verdict: the exit status is 0 unless
# the script is misused.
#
# Environment: BENCH_RUNS, BENCH_ONLY (rows and tables, of "nbody
# spectralnorm fannkuchredux binarytrees mandelbrot sieve strings richards
# fib startup size compile"), BENCH_QUICK=1 (about a tenth of the work of every
# program, of the start-up runs and of the lines), BENCH_STARTS (default
# 200), BENCH_LINES (default 50000), BENCH_COMPILE_RUNS (default 1),
# BENCH_TIMEOUT=s (one run; default 300), BENCH_CC (default cc).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$here/seq"
MOSAICC=${1:-./mosaicc}
RUNS=${BENCH_RUNS:-5}
TIMEOUT=${BENCH_TIMEOUT:-300}
BENCHMARKS="nbody spectralnorm fannkuchredux binarytrees mandelbrot sieve strings richards fib"
ALL="$BENCHMARKS startup size compile"
ONLY=${BENCH_ONLY:-$ALL}
STARTS=${BENCH_STARTS:-200}
LINES=${BENCH_LINES:-50000}
COMPILE_RUNS=${BENCH_COMPILE_RUNS:-1}
CC=${BENCH_CC:-cc}
WORK=bench/work/seq
RESULTS=bench/results

require_positive BENCH_RUNS "$RUNS"
require_positive BENCH_STARTS "$STARTS"
require_positive BENCH_LINES "$LINES"
require_positive BENCH_COMPILE_RUNS "$COMPILE_RUNS"
require_known "benchmark or table" "$ALL" $ONLY
wanted() { case " $ONLY " in *" $1 "*) return 0;; esac; return 1; }

# The programs' arguments: about a second of C, and (BENCH_QUICK=1) about a
# tenth of that work — the sizes that are not linear in the work are
# chosen, not divided (n² points, n! permutations, 2^depth nodes).
declare -A ARGS QUICK_ARGS
ARGS[nbody]=6500000;        QUICK_ARGS[nbody]=650000
ARGS[spectralnorm]=4000;    QUICK_ARGS[spectralnorm]=1260
ARGS[fannkuchredux]="10 4"; QUICK_ARGS[fannkuchredux]="9 4"
ARGS[binarytrees]=18;       QUICK_ARGS[binarytrees]=15
ARGS[mandelbrot]=3500;      QUICK_ARGS[mandelbrot]=1100
ARGS[sieve]=25000000;       QUICK_ARGS[sieve]=2500000
ARGS[strings]=3500000;      QUICK_ARGS[strings]=350000
ARGS[richards]=2000;        QUICK_ARGS[richards]=200
ARGS[fib]=44;               QUICK_ARGS[fib]=39
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  for b in $BENCHMARKS; do ARGS[$b]=${QUICK_ARGS[$b]}; done
  STARTS=$((STARTS / 10 > 0 ? STARTS / 10 : 1))
  LINES=$((LINES / 10 > 0 ? LINES / 10 : 1))
fi

mkdir -p "$WORK" "$RESULTS" || exit 2
notes=()
GNU_TIME=
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; else notes+=("no GNU time at /usr/bin/time: memory is n/a"); fi

# The three builds of a program: mosaicc -O2, mosaicc -O2 --no-checks, cc.
SYSTEMS="Mosaic NoChecks C"
declare -A CMD
build() {  # build NAME [--checked-only]: sets CMD[<system>:NAME] for every build that works
  local b=$1 only=${2:-}
  log "  mosaicc -O2 $b.mos"
  if "$MOSAICC" -O2 -o "$WORK/$b" "$src/$b.mos" >"$WORK/$b.log" 2>&1; then
    CMD[Mosaic:$b]="$WORK/$b"
  else
    notes+=("$b.mos did not build (see $WORK/$b.log)")
  fi
  [ -z "$only" ] && log "  mosaicc -O2 --no-checks $b.mos"
  if [ -n "$only" ]; then :
  elif "$MOSAICC" -O2 --no-checks -o "$WORK/$b-nc" "$src/$b.mos" >"$WORK/$b-nc.log" 2>&1; then
    CMD[NoChecks:$b]="$WORK/$b-nc"
  else
    notes+=("$b.mos did not build with --no-checks (see $WORK/$b-nc.log)")
  fi
  log "  $CC -O2 $b.c"
  if "$CC" -O2 -ffp-contract=off -o "$WORK/$b-c" "$src/$b.c" -lm >"$WORK/$b-c.log" 2>&1; then
    CMD[C:$b]="$WORK/$b-c"
  else
    notes+=("no C compiler '$CC', or $b.c did not build (see $WORK/$b-c.log)")
  fi
}
for b in $BENCHMARKS; do wanted "$b" && build "$b"; done
if wanted startup || wanted size; then build hello --checked-only; fi

# The output of a run as one line: its lines joined by a space (tabs too).
result_of() { tr '\n\t' '  ' <"$1" | tr -s ' ' | sed -e 's/ $//'; }

declare -A TIMES MEMS LINE
for b in $BENCHMARKS; do
  wanted "$b" || continue
  log "$b ${ARGS[$b]} x $RUNS"
  for ((r = 1; r <= RUNS; r++)); do
    for sys in $SYSTEMS; do
      k=$sys:$b
      [ -n "${CMD[$k]:-}" ] || continue
      [ "${LINE[$k]:-}" != fail ] || continue
      err="$WORK/$b-$sys.err"
      # shellcheck disable=SC2086  # the arguments are several words
      measured_run /dev/null "$WORK/out" "$err" ${CMD[$k]} ${ARGS[$b]}
      if [ $RUN_STATUS -ne 0 ]; then LINE[$k]=fail; notes+=("$sys $b failed with status $RUN_STATUS (see $err)"); continue; fi
      LINE[$k]=$(result_of "$WORK/out")
      TIMES[$k]="${TIMES[$k]:-} $RUN_SECONDS"
      [ -n "$GNU_TIME" ] && MEMS[$k]="${MEMS[$k]:-} $(tail -n 1 "$WORK/mem")"
    done
  done
done

# Start-up: the first run checks the output (under the timeout, with GNU
# time for the memory), then a loop of STARTS runs is timed, taking turns.
declare -A START SYSCALLS
if wanted startup; then
  log "start-up: hello world, $RUNS loops of $STARTS runs"
  for ((r = 1; r <= RUNS; r++)); do
    for sys in Mosaic C; do
      k=$sys:hello
      [ -n "${CMD[$k]:-}" ] || continue
      [ "${LINE[$k]:-}" != fail ] || continue
      measured_run /dev/null "$WORK/out" "$WORK/hello-$sys.err" "${CMD[$k]}"
      if [ $RUN_STATUS -ne 0 ]; then LINE[$k]=fail; notes+=("$sys hello failed with status $RUN_STATUS"); continue; fi
      LINE[$k]=$(result_of "$WORK/out")
      [ -n "$GNU_TIME" ] && MEMS[$k]="${MEMS[$k]:-} $(tail -n 1 "$WORK/mem")"
      exe=${CMD[$k]}
      t0=$(now)
      for ((i = 0; i < STARTS; i++)); do "$exe" >/dev/null || break; done
      t1=$(now)
      if [ "$i" -lt "$STARTS" ]; then LINE[$k]=fail; unset "START[$k]"; notes+=("$sys hello failed in the loop, after $i runs"); continue; fi
      START[$k]="${START[$k]:-} $(awk -v s="$(elapsed "$t0" "$t1")" -v n="$STARTS" 'BEGIN { printf "%.9f", s / n }')"
    done
  done
  if command -v strace >/dev/null 2>&1; then
    for ((r = 1; r <= RUNS; r++)); do
      for sys in Mosaic C; do
        k=$sys:hello
        [ -n "${CMD[$k]:-}" ] && [ "${LINE[$k]:-}" != fail ] || continue
        f="$WORK/strace-$sys.txt"
        if timeout "$TIMEOUT" strace -f -c -o "$f" "${CMD[$k]}" >/dev/null 2>"$WORK/strace-$sys.err"; then
          n=$(awk '$NF == "total" { print $4 }' "$f")
          [ -n "$n" ] && SYSCALLS[$k]="${SYSCALLS[$k]:-} $n"
        fi
      done
    done
    [ -n "${SYSCALLS[C:hello]:-}${SYSCALLS[Mosaic:hello]:-}" ] ||
      notes+=("strace did not run (see $WORK/strace-C.err): system calls are n/a")
  else
    notes+=("no strace: system calls are n/a")
  fi
fi

# Compile time: the generated programs, one build after the other.
declare -A COMPILE CMEM
CROWS="check O0 O2"
declare -A CLABEL=([check]="--check / cc -fsyntax-only" [O0]="-O0 -c" [O2]="-O2 -c")
if wanted compile; then
  log "compile: $LINES generated lines, $COMPILE_RUNS run(s) each"
  if ! bash "$here/gen-large.sh" "$LINES" >"$WORK/big.mos" 2>"$WORK/gen.err" ||
     ! bash "$src/gen-large-c.sh" "$LINES" >"$WORK/big.c" 2>>"$WORK/gen.err"; then
    notes+=("a generator failed (see $WORK/gen.err): no compile table")
  else
    for ((r = 1; r <= COMPILE_RUNS; r++)); do
      for row in $CROWS; do
        for sys in Mosaic C; do
          k=$sys:$row
          [ "${COMPILE[$k]:-}" != fail ] || continue
          case $sys:$row in
            Mosaic:check) set -- "$MOSAICC" --check "$WORK/big.mos";;
            Mosaic:*) set -- "$MOSAICC" "-$row" -c -o "$WORK/big-mos.o" "$WORK/big.mos";;
            C:check) set -- "$CC" -fsyntax-only "$WORK/big.c";;
            C:*) set -- "$CC" "-$row" -c -o "$WORK/big-c.o" "$WORK/big.c";;
          esac
          log "  $sys ${CLABEL[$row]}"
          measured_run /dev/null "$WORK/compile.out" "$WORK/compile-$sys-$row.err" "$@"
          if [ $RUN_STATUS -ne 0 ]; then COMPILE[$k]=fail; notes+=("$sys ${CLABEL[$row]} of $LINES lines failed with status $RUN_STATUS (see $WORK/compile-$sys-$row.err)"); continue; fi
          COMPILE[$k]="${COMPILE[$k]:-} $RUN_SECONDS"
          [ -n "$GNU_TIME" ] && CMEM[$k]="${CMEM[$k]:-} $(tail -n 1 "$WORK/mem")"
        done
      done
    done
  fi
fi

stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/seq-$stamp.csv"
echo "table,row,size,system,value,unit,peak_kib,over_c,result" >"$csv"
mosaic_version=$("$MOSAICC" --version 2>/dev/null | head -n 1 || true)
cc_version=$("$CC" --version 2>/dev/null | head -n 1 || true)
csv_system() { case $1 in NoChecks) echo Mosaic-no-checks;; *) echo "$1";; esac; }
differ=()

if [ -n "$(for b in $BENCHMARKS; do wanted "$b" && echo "$b"; done)" ]; then
  echo
  echo "Sequential programs — median of $RUNS runs (whole process); Mosaic -O2, Mosaic -O2 --no-checks, C $CC -O2"
  echo "machine: $(nproc) cores, $(uname -m); Mosaic: ${mosaic_version:-n/a}; C: ${cc_version:-n/a}"
  echo
  echo "| benchmark | Mosaic s | --no-checks s | C s | Mosaic/C | --no-checks/C | Mosaic KiB | --no-checks KiB | C KiB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for b in $BENCHMARKS; do
    wanted "$b" || continue
    # shellcheck disable=SC2086  # the systems, one word each
    row_medians "$b" $SYSTEMS
    echo "| $b (${ARGS[$b]}) | $(row_cell Mosaic "$b") | $(row_cell NoChecks "$b") | $(row_cell C "$b") | $(row_ratio Mosaic) | $(row_ratio NoChecks) | ${ROW_M[Mosaic]} | ${ROW_M[NoChecks]} | ${ROW_M[C]} |"
    for sys in $SYSTEMS; do
      r=""; [ -n "${ROW_T[$sys]}" ] && [ -n "${ROW_T[C]}" ] && r=$(row_ratio "$sys")
      line=""; [ -n "${ROW_T[$sys]}" ] && line=${LINE[$sys:$b]//,/;}
      echo "bench,$b,${ARGS[$b]},$(csv_system "$sys"),${ROW_T[$sys]},s,${ROW_M[$sys]#n/a},$r,$line" >>"$csv"
      [ -n "${ROW_T[$sys]}" ] && [ "$sys" != C ] && ! row_same "$sys" "$b" && differ+=("$(csv_system "$sys") $b: ${LINE[$sys:$b]}" "  C $b: ${LINE[C:$b]}")
    done
  done
  echo
  echo "!: printed a different output than C (listed below); n/a: not built or failed."

  # --no-checks beside the checked build, run by run.  The two builds take
  # turns, so a round's two times saw the same machine; the ratio of each
  # round cancels the drift of a noisy machine that the medians keep.  A
  # build is slower only when it is slower in every round (with 5 rounds,
  # a chance of 1 in 32 were the two the same code): otherwise the
  # difference is within this machine's noise.
  echo
  echo "--no-checks beside checked code — the ratio of each round's two times (the builds take turns)"
  echo
  echo "| benchmark | median --no-checks/checked | lowest | highest | verdict |"
  echo "|---|---:|---:|---:|---|"
  for b in $BENCHMARKS; do
    wanted "$b" || continue
    read -r -a checked <<<"${TIMES[Mosaic:$b]:-}"
    read -r -a unchecked <<<"${TIMES[NoChecks:$b]:-}"
    if [ ${#checked[@]} -eq 0 ] || [ ${#checked[@]} -ne ${#unchecked[@]} ]; then
      echo "| $b | n/a | n/a | n/a | n/a |"
      continue
    fi
    ratios=()
    for ((i = 0; i < ${#checked[@]}; i++)); do
      ratios+=("$(awk -v a="${unchecked[$i]}" -v b="${checked[$i]}" 'BEGIN { printf "%.6f", a / b }')")
    done
    lo=$(printf '%s\n' "${ratios[@]}" | sort -g | head -n 1)
    hi=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -n 1)
    verdict="within noise"
    awk -v l="$lo" 'BEGIN { exit !(l > 1) }' && verdict="slower in every round"
    awk -v h="$hi" 'BEGIN { exit !(h < 1) }' && verdict="faster in every round"
    med=$(median -d 2 "${ratios[@]}")
    echo "| $b | $med | $(printf '%.2f' "$lo") | $(printf '%.2f' "$hi") | $verdict |"
    echo "nochecks,$b,${ARGS[$b]},Mosaic-no-checks,$med,ratio,,,$verdict" >>"$csv"
  done
fi

if wanted startup; then
  declare -A st sc sm
  for sys in Mosaic C; do
    k=$sys:hello
    st[$sys]=""; sc[$sys]="n/a"; sm[$sys]="n/a"
    [ -n "${START[$k]:-}" ] && st[$sys]=$(median -d 9 ${START[$k]})
    [ -n "${SYSCALLS[$k]:-}" ] && sc[$sys]=$(median -d 0 ${SYSCALLS[$k]})
    [ -n "${MEMS[$k]:-}" ] && sm[$sys]=$(median -d 0 ${MEMS[$k]})
  done
  both() { if [ "$1" != n/a ] && [ "$2" != n/a ] && [ -n "$1" ] && [ -n "$2" ]; then fmt_ratio "$1" "$2"; else echo "n/a"; fi; }
  declare -A sms
  for sys in Mosaic C; do
    sms[$sys]="n/a"
    if [ -n "${st[$sys]}" ]; then
      sms[$sys]=$(awk -v s="${st[$sys]}" 'BEGIN { printf "%.3f", s * 1000 }')
      [ "${LINE[$sys:hello]}" = "${LINE[C:hello]:-${LINE[$sys:hello]}}" ] || sms[$sys]="!${sms[$sys]}"
    fi
  done
  [ -n "${st[Mosaic]}" ] && [ -n "${st[C]}" ] && [ "${LINE[Mosaic:hello]}" != "${LINE[C:hello]}" ] &&
    differ+=("Mosaic hello: ${LINE[Mosaic:hello]}" "  C hello: ${LINE[C:hello]}")
  echo
  echo "Start-up — hello world: median of $RUNS loops of $STARTS runs (each loop's time divided by $STARTS), system calls of one run (strace -f -c), peak memory"
  echo
  echo "| hello world | Mosaic | C | Mosaic/C |"
  echo "|---|---:|---:|---:|"
  echo "| start-up ms | ${sms[Mosaic]} | ${sms[C]} | $(both "${st[Mosaic]:-n/a}" "${st[C]:-n/a}") |"
  echo "| system calls | ${sc[Mosaic]} | ${sc[C]} | $(both "${sc[Mosaic]}" "${sc[C]}") |"
  echo "| peak KiB | ${sm[Mosaic]} | ${sm[C]} | $(both "${sm[Mosaic]}" "${sm[C]}") |"
  for sys in Mosaic C; do
    line=${LINE[$sys:hello]:-}
    echo "startup,hello,$STARTS,$sys,${st[$sys]},s,${sm[$sys]#n/a},$(both "${st[$sys]:-n/a}" "${st[C]:-n/a}" | sed 's|n/a||'),${line//,/;}" >>"$csv"
    echo "syscalls,hello,,$sys,${sc[$sys]#n/a},calls,,$(both "${sc[$sys]}" "${sc[C]}" | sed 's|n/a||')," >>"$csv"
  done
fi

if wanted size; then
  declare -A sz
  for sys in Mosaic C; do
    k=$sys:hello
    sz[$sys:built]="n/a"; sz[$sys:stripped]="n/a"
    [ -n "${CMD[$k]:-}" ] || continue
    sz[$sys:built]=$(wc -c <"${CMD[$k]}" | tr -d ' ')
    if strip -o "$WORK/hello-$sys-stripped" "${CMD[$k]}" 2>/dev/null; then
      sz[$sys:stripped]=$(wc -c <"$WORK/hello-$sys-stripped" | tr -d ' ')
    fi
  done
  sratio() { if [ "${sz[Mosaic:$1]}" != n/a ] && [ "${sz[C:$1]}" != n/a ]; then awk -v a="${sz[Mosaic:$1]}" -v b="${sz[C:$1]}" 'BEGIN { printf "%.1f", a / b }'; else echo "n/a"; fi; }
  echo
  echo "Executable size — hello world, bytes (Mosaic: mosaicc -O2, its runtime linked in; C: $CC -O2)"
  echo
  echo "| executable | Mosaic bytes | C bytes | Mosaic/C |"
  echo "|---|---:|---:|---:|"
  for how in built stripped; do
    label="hello world, as built"; [ $how = stripped ] && label="hello world, stripped"
    echo "| $label | ${sz[Mosaic:$how]} | ${sz[C:$how]} | $(sratio $how) |"
    for sys in Mosaic C; do
      r=""; [ $sys = Mosaic ] && r=$(sratio $how | sed 's|n/a||'); [ $sys = C ] && [ "${sz[C:$how]}" != n/a ] && r=1.0
      echo "size,hello $how,,$sys,${sz[$sys:$how]#n/a},bytes,,$r," >>"$csv"
    done
  done
  if [ -n "${CMD[Mosaic:hello]:-}" ] && command -v ldd >/dev/null 2>&1; then
    libs=$(ldd "${CMD[Mosaic:hello]}" 2>/dev/null | awk '$1 ~ /^lib/ { sub(/\.so.*/, "", $1); printf "%s%s", sep, $1; sep = ", " }')
    [ -n "$libs" ] && notes+=("the Mosaic executable loads $libs at start-up; C's loads libc")
  fi
fi

if wanted compile && [ -s "$WORK/big.c" ]; then
  declare -A ct cm
  for row in $CROWS; do
    for sys in Mosaic C; do
      k=$sys:$row
      ct[$k]=""; cm[$k]="n/a"
      if [ -n "${COMPILE[$k]:-}" ] && [ "${COMPILE[$k]}" != fail ]; then
        ct[$k]=$(median ${COMPILE[$k]})
        [ -n "${CMEM[$k]:-}" ] && cm[$k]=$(median -d 0 ${CMEM[$k]})
      fi
    done
  done
  csec() { if [ -n "${ct[$1]}" ]; then fmt_time "${ct[$1]}"; else echo "n/a"; fi; }
  lps() { if [ -n "${ct[$1]}" ]; then awk -v n="$LINES" -v s="${ct[$1]}" 'BEGIN { printf "%.0f", n / s }'; else echo "n/a"; fi; }
  cratio() { if [ -n "${ct[Mosaic:$1]}" ] && [ -n "${ct[C:$1]}" ]; then fmt_ratio "${ct[Mosaic:$1]}" "${ct[C:$1]}"; else echo "n/a"; fi; }
  echo
  echo "Compile time — $LINES generated lines ($(wc -c <"$WORK/big.mos" | tr -d ' ') bytes of Mosaic, bench/gen-large.sh; $(wc -c <"$WORK/big.c" | tr -d ' ') bytes of C, bench/seq/gen-large-c.sh), median of $COMPILE_RUNS run(s)"
  echo
  echo "| build | Mosaic s | C s | Mosaic/C | Mosaic lines/s | C lines/s | Mosaic KiB | C KiB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for row in $CROWS; do
    echo "| ${CLABEL[$row]} | $(csec Mosaic:$row) | $(csec C:$row) | $(cratio $row) | $(lps Mosaic:$row) | $(lps C:$row) | ${cm[Mosaic:$row]} | ${cm[C:$row]} |"
    for sys in Mosaic C; do
      r=""; [ -n "${ct[$sys:$row]}" ] && [ -n "${ct[C:$row]}" ] && r=$(fmt_ratio "${ct[$sys:$row]}" "${ct[C:$row]}")
      echo "compile,${CLABEL[$row]},$LINES,$sys,${ct[$sys:$row]},s,${cm[$sys:$row]#n/a},$r," >>"$csv"
    done
  done
fi

echo
for d in "${differ[@]}"; do echo "$d"; done
for note in "${notes[@]}"; do echo "note: $note"; done
echo "CSV: $csv"
exit 0

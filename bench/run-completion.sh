#!/bin/sh
# bench/run-completion.sh — how often mosaic-lsp's completion puts first the
# name the programmer actually wrote, how fast it answers and how much
# memory it holds: a replay of programs that were not written for it, one
# table (issue 22, item 1; `make bench` runs it).
#
# Usage: bench/run-completion.sh [MOSAIC_LSP] [DIR...]
#        (default ./mosaic-lsp, and the project's tests/run, examples and
#        bench programs)
#
# Why a replay.  A completer is as good as the rank of what the user goes
# on to type.  Programs written to exercise it would say what their
# author expected of it; programs written for something else — the
# conformance suite, the examples, the benchmarks, or whatever directory
# of .mos files is given, so that anyone can measure it on their own
# code — say what people actually write.  Every identifier in them is a
# question whose answer is known.
#
# What it does, in order (bench/completion/replay.py does the work, in
# Python 3 with nothing beyond its standard library):
#   1. Collects the .mos files of the directories (bench/work/ and
#      bench/results/, scratch and generated files, left out), sorted, and
#      scans each with Mosaic's lexical rules (LANGUAGE.md §1: comments,
#      strings with escapes, numbers, identifiers).  Every identifier that
#      is not a keyword, not in a comment or string and not a name being
#      declared (after `let`, `var`, `val`, `def`, `class`, `for`, a name
#      followed by `:`, and a declared function's or class's type and
#      place parameters) is a probe, in one of three contexts: after `.`,
#      after `!`, elsewhere (the start of an expression, a type's name).
#      At most BENCH_PROBES per file, every k-th in file order.
#   2. Starts ONE mosaic-lsp for the whole corpus and speaks the Language
#      Server Protocol to it as an editor does, over its standard input
#      and output: initialize (an editor's client capabilities),
#      initialized, then per file didOpen, the probes, didClose; shutdown
#      and exit at the end.  Per probe, two incremental didChange edits,
#      each followed by a textDocument/completion at the cursor: the
#      identifier cut down to its first character, cursor after it ("one
#      typed"), then the identifier removed, cursor where it began ("none
#      typed"); the rest of the file as it is.  After each change the
#      client waits for the diagnostics the server publishes for it, so
#      the latency of a completion (request sent to response read) is its
#      own, not the re-check's.
#   3. Records the rank of the written name in the list (1-based, in the
#      server's sortText order; "missing" when absent), the latency of
#      every request, and the server's peak resident memory (VmHWM of
#      /proc/PID/status, read after every file and before shutdown).
#   4. Prints ONE markdown table on stdout — per context and overall: the
#      probes, top-1 and top-5 with one character typed and with none,
#      median and 99th-percentile latency per request — then the peak
#      memory, the counts of odd answers (errors, empty lists) and the
#      targets beside which to read it: top-5 >= 97 % and top-1 >= 75 % in
#      every context, p99 <= 8 ms, peak <= 6 MB.  Every probe, with its
#      ranks, times and the time of each change's re-check, goes to
#      bench/results/completion-<date>.csv.
#
# What it does not do: judge.  There is no pass or fail and the exit
# status is 0 unless the script is misused (2) or the server cannot be
# started (1).  A server that dies or hangs is started again for the next
# file, and the probes lost are counted under the table.
#
# Environment:
#   BENCH_PROBES=n      probes per file at most (default 200)
#   BENCH_QUICK=1       one file in ten (a smoke test)
#   BENCH_TIMEOUT=s     the longest wait for one answer, in seconds
#                       (default 60; past it the server counts as hung)
#   BENCH_SYNC=full     send the whole text on each change instead of the
#                       range edits (the ranks must not change)
#   BENCH_PYTHON=cmd    the Python 3 to run the client (default python3)

# bash for arrays; `make` runs this with /bin/sh.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
top=$(cd "$here/.." && pwd)

# The first argument is the server unless it is a directory or a .mos file.
LSP=./mosaic-lsp
if [ $# -gt 0 ] && [ ! -d "$1" ]; then
  case $1 in *.mos) ;; *) LSP=$1; shift;; esac
fi
if [ $# -gt 0 ]; then
  DIRS=("$@")
else
  DIRS=("$top/tests/run" "$top/examples" "$top/bench")
fi
PROBES=${BENCH_PROBES:-200}
QUICK=${BENCH_QUICK:-0}
TIMEOUT=${BENCH_TIMEOUT:-60}
SYNC=${BENCH_SYNC:-incremental}
PYTHON=${BENCH_PYTHON:-python3}
RESULTS=bench/results

require_positive BENCH_PROBES "$PROBES"
require_positive BENCH_TIMEOUT "$TIMEOUT"
case $SYNC in incremental|full) ;; *) echo "$script: BENCH_SYNC is incremental or full" >&2; exit 2;; esac
if [ ! -x "$LSP" ]; then
  echo "$script: $LSP is not an executable language server (usage: $script [MOSAIC_LSP] [DIR...])" >&2
  exit 2
fi
for d in "${DIRS[@]}"; do
  if [ ! -e "$d" ]; then echo "$script: no such file or directory: $d" >&2; exit 2; fi
done
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "$script: $PYTHON not found; the client needs Python 3 (Debian: apt-get install python3)" >&2
  exit 2
fi
mkdir -p "$RESULTS" || exit 2

# A server given as a bare relative path runs from here as ./NAME.
case $LSP in */*) ;; *) LSP=./$LSP;; esac

opts=(--probes "$PROBES" --timeout "$TIMEOUT" --sync "$SYNC"
      --exclude "$here/work" --exclude "$here/results" --exclude "$RESULTS" --exclude bench/work)
[ "$QUICK" = 1 ] && opts+=(--quick)
stamp=$(date +%Y%m%d-%H%M%S)
csv="$RESULTS/completion-$stamp.csv"

log "completion: $LSP over ${DIRS[*]} (at most $PROBES probes per file)"
"$PYTHON" "$here/completion/replay.py" "${opts[@]}" --csv "$csv" "$LSP" "${DIRS[@]}"
status=$?
# 1: the server could not be started; 2: the client was misused.
exit $status

#!/bin/sh
# bench/gen-large.sh — writes a large, valid Mosaic program to stdout, for
# timing the compiler on it (DESIGN.md §5, "Compiler": lines per second for
# `--check`, `-O0` and `-O2`).
#
# Usage: bench/gen-large.sh [--no-places] N > big.mos
#
# The program is N lines long, exactly (at least one unit, below): a header
# comment, then U "units" of the same shape, one-line padding functions to
# reach N, and a `main` that calls every unit once and prints one line,
# `large: units=U total=T`.  Unit K (K = 0 … U-1) holds
#
#   - class AccK<n>: three fields (one an array living with the object),
#     methods with declared effects (`writes(n)`), a loop over the array, and
#     a method generic in another account's place, `move_to<p>(other: AccK<p>)`;
#   - class VecK: float fields, init, methods taking another VecK;
#   - active class WorkerK: a message with a loop, answered through a future;
#   - sumK (a while loop over an array, declared `local`), transferK<p, q>
#     (loops of method calls on two accounts at two places), mixK (recursion
#     into itself and into the previous unit's mixJ), and runK, which builds
#     the unit's objects — one account and the worker on node(1) — calls all
#     of the above, the previous unit's sumJ, `get`s the worker's answer and
#     returns a checksum.
#
# Every unit has the same number of lines, so N decides U.  The names carry
# K, so no two units share a declaration and the checker sees U times the
# same work, not one cached answer.
#
# --no-places writes the same program, line for line, without any place or
# effect: no place parameters or arguments (`class AccK`, `move_to(other:
# AccK)`, `new AccK`), no `node(1)`, no effect clauses.  It is the language
# as it was before places (the compilers of that time refuse place
# parameters with E0900), so that an old and a new compiler can be timed on
# one file; it prints the same line as the program with places.

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

usage() { echo "usage: gen-large.sh [--no-places] N > FILE.mos" >&2; exit 2; }

places=1
case ${1:-} in --no-places) places=0; shift;; esac
[ $# -eq 1 ] || usage
N=$1
case $N in ''|*[!0-9]*) usage;; esac

# The place-dependent fragments of a unit: with places, and without.
if [ $places = 1 ]; then
  CLS='<n>'; W_N=' writes(n)'; LOCAL=' local'
  MP='<p>'; AP='<p>'; PQ='<p, q>'; AQ='<q>'; AT1='<node(1)>'
  mode="with place parameters and effects"
else
  CLS=''; W_N=''; LOCAL=''
  MP=''; AP=''; PQ=''; AQ=''; AT1=''
  mode="without places (--no-places)"
fi

HEADER_LINES=5
UNIT_LINES=91     # the lines unit() writes; checked at the end
MAIN_FIXED=4      # main's lines besides one per unit

# Units that fit (each costs its lines, a blank line and its call in main),
# then one-line padding functions for the rest.
U=$(( (N - HEADER_LINES - MAIN_FIXED) / (UNIT_LINES + 2) ))
[ $U -lt 1 ] && U=1
PAD=$(( N - HEADER_LINES - MAIN_FIXED - U * (UNIT_LINES + 2) ))
[ $PAD -lt 0 ] && PAD=0

unit() {  # K J: unit K, whose previous unit is J
  local K=$1 J=$2
  cat <<EOF
// ---- unit $K: accounts, vectors, a worker, functions ----------------------

class Acc$K$CLS {
  var balance: int = 0
  var moves: int = 0
  var hist: [int] = new [int](8)
  def deposit(x: int)$W_N {
    balance += x
    moves += 1
    hist[moves % 8] = x
  }
  def take(x: int): bool$W_N {
    if balance < x { return false }
    balance -= x
    moves += 1
    return true
  }
  def move_to$MP(other: Acc$K$AP, x: int) {
    if take(x) { other.deposit(x) }
  }
  def recent(): int {
    var s = 0
    for h in hist { s += h }
    return s
  }
}

class Vec$K {
  var x: float = 0.0
  var y: float = 0.0
  def init(x: float, y: float) { this.x = x; this.y = y }
  def add(o: Vec$K) { x += o.x; y += o.y }
  def scale(f: float) {
    x = x * f
    y = y * f
  }
  def norm2(): float { return x * x + y * y }
}

active class Worker$K {
  var done: int = 0
  def work(n: int): int {
    var s = 0
    for i in 0..n { s += (i * $K + 1) % 7 }
    done += 1
    return s + done
  }
}

def sum$K(xs: [int], n: int): int$LOCAL {
  var s = 0
  var i = 0
  while i < n and i < xs.length {
    if xs[i] % 2 == 0 { s += xs[i] } else { s -= 1 }
    i += 1
  }
  return s
}

def transfer$K$PQ(a: Acc$K$AP, b: Acc$K$AQ, n: int): int {
  for i in 0..n {
    a.move_to(b, i % 3 + 1)
    b.move_to(a, i % 2 + 1)
  }
  return a.balance - b.balance + a.recent()
}

def mix$K(n: int): int {
  if n < 2 { return n + $K % 3 }
  return mix$K(n - 1) + mix$J(n - 2)
}

def run$K(seed: int): int {
  let a = new Acc$K$AT1
  let b = new Acc$K
  a.deposit(seed % 100 + 10)
  b.deposit($K % 50 + 5)
  let xs = new [int](16)
  for i in 0..xs.length { xs[i] = i * seed + $K }
  let v = new Vec$K(1.5, float($K % 10))
  v.add(new Vec$K(0.5, 2.0))
  v.scale(0.5)
  let w = new Worker$K$AT1
  let f = w!work(10 + $K % 5)
  var r = transfer$K(a, b, 20) + sum$K(xs, 12) + int(v.norm2()) % 1000
  r += sum$J(xs, 4) + mix$K(6)
  for k in [1, 2, 3] { r += k * seed }
  let label = "unit $K: " + r
  r += get f
  return r % 100000 + label.length
}

EOF
}

printf '%s\n' "// Generated by bench/gen-large.sh $N: $U units of $UNIT_LINES lines, $PAD padding"
printf '%s\n' "// functions, $mode."
printf '%s\n' "// A program for timing mosaicc on many lines (DESIGN.md §5, Compiler);"
printf '%s\n' "// it prints one line, large: units=$U total=..."
printf '\n'

for ((k = 0; k < U; k++)); do
  j=$(( k == 0 ? 0 : k - 1 ))
  unit $k $j
done
for ((i = 0; i < PAD; i++)); do
  printf 'def pad%d(x: int): int { return x * %d + %d }\n' $i $((i % 7 + 1)) $((i % 11))
done

printf '%s\n' "def main() {"
printf '%s\n' "  var total = 0"
for ((k = 0; k < U; k++)); do
  printf '  total = (total + run%d(%d)) %% 1000000007\n' $k $((k % 97 + 3))
done
printf '%s\n' "  println(\"large: units=$U total=\" + total)"
printf '%s\n' "}"

# The line count above assumes UNIT_LINES; a template edit must update it.
got=$(unit 0 0 | wc -l)
if [ "$got" -ne $((UNIT_LINES + 1)) ]; then
  echo "gen-large.sh: internal error: a unit has $((got - 1)) lines, UNIT_LINES says $UNIT_LINES" >&2
  exit 1
fi

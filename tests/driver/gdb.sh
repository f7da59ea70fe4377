#!/bin/sh
# gdb.sh — a -g program under gdb, as docs/debugging.md tells a user to
# debug one: break on a function by its Mosaic name, the arguments at its
# first line, strings, arrays, objects and maps through the pretty-printers
# that the executable names itself (.debug_gdb_scripts), `this` and a bare
# field in a method, the frames at the breakpoint for runtime errors
# (mos_runtime_error), and a pooled object's fields.
#
# Skips, saying why, when there is no gdb, or when gdb cannot run a program
# here (no ptrace permission in a container, say).  The printers are the
# ones beside $MOSAICC (stdlib/mosaic-gdb.py of the build tree), trusted
# with -iex as a user's ~/.gdbinit would; in a VPATH build, where the
# build tree has no copy, the source tree's is sourced instead, and the
# check that gdb found them by itself is skipped.
. "$(dirname "$0")/tap.sh"
here=$(pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
printers_dir=$(cd "$(dirname "$mosaicc")" && pwd)/stdlib
case $mosaicc in /*) ;; *) mosaicc=$here/$mosaicc ;; esac
cd "$tmp" || exit 99

if ! command -v gdb >/dev/null 2>&1; then
    echo "1..0 # SKIP no gdb"
    exit 0
fi
if command -v timeout >/dev/null 2>&1; then
    limit="timeout -k 5 120"
else
    limit=
fi
# An ASan build of the runtime: LeakSanitizer cannot work under ptrace.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

if [ -f "$printers_dir/mosaic-gdb.py" ]; then
    load="add-auto-load-safe-path $printers_dir"
    autoload=yes
else
    load="source $srcdir/stdlib/mosaic-gdb.py"
    autoload=
fi

# run_gdb OUT PROGRAM COMMAND...: gdb in batch mode on PROGRAM, one -ex
# per command (an error in one does not stop the others), the user's own
# init files ignored; everything gdb and the program print goes to OUT.
run_gdb() {
    out=$1 prog=$2
    shift 2
    count=$#
    while [ "$count" -gt 0 ]; do
        set -- "$@" -ex "$1"
        shift
        count=$((count - 1))
    done
    $limit gdb -batch -nx -iex "$load" "$@" "$prog" >"$out" 2>&1 </dev/null
}

cat >prog.mos <<'EOF'
class Counter {
  var count: int = 0
  var label: string = "clicks"
  var history: [int] = [7, 8]
  def incr(k: int) {
    count += k
    history.push(count)
  }
}

def add(a: int, b: int): int {
  let s = a + b
  return s
}

def main() {
  let c = new Counter
  let xs = [10, 20, 30]
  let greeting = "hello, gdb"
  let ages = {"ann": 31, "bob": 42}
  let r = add(2, 3)
  c.incr(r)
  println(greeting + " " + r + " " + xs.length + " " + ages.size)
}
EOF
"$mosaicc" -g -O0 -o prog prog.mos 2>compile.err || {
    echo "1..0 # SKIP mosaicc -g failed: $(head -n 1 compile.err)"
    exit 0
}

# Can gdb run a program at all here?
run_gdb probe.out ./prog run
if ! grep -q "exited normally" probe.out; then
    echo "1..0 # SKIP gdb cannot run a program here: $(grep -v '^\[' probe.out | head -n 1)"
    exit 0
fi

echo "1..17"

# By name alone, before the program runs: a shared library's own `add` (the
# sanitizers' runtime has one) would add locations once it is loaded, so
# the session below names the file too, as docs/debugging.md advises.
run_gdb s0.out ./prog "break add" "break Counter.incr"
grep -q "Breakpoint 1 at .*: file prog.mos, line 12" s0.out &&
    grep -q "Breakpoint 2 at .*: file prog.mos, line 6" s0.out
check "break add, break Counter.incr: functions are found by their Mosaic names" $?

run_gdb s1.out ./prog "break prog.mos:add" run "info args" "print a" up "print greeting" \
    "print xs" "print c" "print ages" "print *c" "break prog.mos:Counter.incr" continue \
    "print this" "print this.count" "print this->label" "print count" "print history" \
    "info args"
grep -q "^a = 2$" s1.out && grep -q "^b = 3$" s1.out
check "info args at add's first line shows the real arguments" $?
grep -q '^\$1 = 2$' s1.out
check "print a" $?
grep -q '^\$2 = "hello, gdb"$' s1.out
check "a string prints as its text" $?
grep -q '^\$3 = \[10, 20, 30\] (length 3)$' s1.out
check "an array prints its elements and its length" $?
grep -q '^\$4 = Counter@0x[0-9a-f]* = {count = 0, label = "clicks", history = \[7, 8\] (length 2)}$' s1.out
check "an object prints as its fields" $?
grep -q '^\$5 = {"ann": 31, "bob": 42} (size 2)$' s1.out
check "a map prints its entries in order" $?
grep -q '^\$6 = {count = 0, label = "clicks", history = \[7, 8\] (length 2)}$' s1.out
check "print *c: the struct of the class" $?
grep -q "Counter.incr (this=Counter@0x[0-9a-f]* = {...}, k=5) at prog.mos:6" s1.out
check "a method's breakpoint: this and the arguments" $?
grep -q '^\$7 = Counter@0x[0-9a-f]* = {count = 0, ' s1.out
check "print this in a method" $?
grep -q '^\$8 = 0$' s1.out && grep -q '^\$9 = "clicks"$' s1.out
check "print this.count and this->label" $?
grep -q '^\$10 = 0$' s1.out && grep -q '^\$11 = \[7, 8\] (length 2)$' s1.out
check "print count: a bare field, as the method's code writes it" $?

if [ -n "$autoload" ]; then
    run_gdb s2.out ./prog "info auto-load python-scripts"
    grep -q "^Yes .*/mosaic-gdb.py" s2.out
    check "gdb loads the printers the executable names" $?
else
    echo "ok $((n = n + 1)) # SKIP no printers beside $mosaicc (a VPATH build)"
fi

cat >oob.mos <<'EOF'
def get_at(xs: [int], i: int): int {
  return xs[i]
}

def main() {
  println(get_at([1, 2, 3], 5))
}
EOF
"$mosaicc" -g -O0 -o oob oob.mos
run_gdb s3.out ./oob "break mos_runtime_error" run "info args" bt
grep -q 'where=0x[0-9a-f]* "oob.mos:2:10"' s3.out &&
    grep -q 'message=0x[0-9a-f]* "index out of bounds: index 5, length 3"' s3.out
check "break mos_runtime_error stops before the error is printed" $?
grep -q "in get_at (xs=\[1, 2, 3\] (length 3), i=5) at oob.mos:2" s3.out &&
    grep -q "in main () at oob.mos:6" s3.out
check "the failing code's frames are there to see at mos_runtime_error" $?

cat >pooled.mos <<'EOF'
class P {
  var x: float
  var id: int
  def move(dx: float) {
    x += dx
  }
}
layout Split: P = rec{x} + rec{id}
pool ps: P layout Split

def main() {
  for i in 0..3 { let o = new P<ps>; o.id = i * 10 }
  ps[2].move(1.5)
  println(ps[2].x)
}
EOF
"$mosaicc" -g -O0 -o pooled pooled.mos
run_gdb s4.out ./pooled "break pooled.mos:P.move" run "print id" "print x" next "print x"
grep -q '^\$1 = 20$' s4.out && grep -q '^\$2 = 0.0$' s4.out && grep -q '^\$3 = 1.5$' s4.out
check "a pooled object's fields, in their clusters, by name" $?

# Generic code (LANGUAGE.md §11): an instance's functions and objects go by
# the instance's name, type arguments and all.
cat >generic.mos <<'EOF'
class Stack[T] {
  var items: [T] = []
  var label: string = "s"
  def push(x: T) { items.push(x) }
}

def main() {
  let s = new Stack[int]
  s.push(1)
  s.push(2)
  println(s.items.length)
}
EOF
"$mosaicc" -g -O0 -o generic generic.mos
run_gdb s5.out ./generic "break Stack[int].push" run continue "info args" "print *this" bt
grep -q 'Stack\[int\]\.push (this=Stack\[int\]@0x[0-9a-f]* = {...}, x=2) at generic.mos:4' s5.out &&
    grep -q '^this = Stack\[int\]@0x[0-9a-f]* = {items = \[1\] (length 1), label = "s"}$' s5.out &&
    grep -q '^x = 2$' s5.out && grep -q '^#0  Stack\[int\]\.push' s5.out
check "break Stack[int].push: an instance's method, its this and arguments, by their names" $?

[ "$failed" -eq 0 ]

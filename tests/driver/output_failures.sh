#!/bin/sh
# output_failures.sh — no lost output: a program whose standard output
# fails (a full device, a closed pipe) ends with a runtime error naming the
# failure and status 101, from main and from an actor; mosaicc itself exits
# 2 with a message when what it writes to standard output fails.
. "$(dirname "$0")/tap.sh"

echo "1..7"
cat >"$tmp/main.mos" <<'MOS'
class P { var x: int }
pool ps: P
def main() { println("hello") }
MOS
cat >"$tmp/actor.mos" <<'MOS'
active class A { def talk() { for i in 0..100000 { println("line " + i) } } }
def main() {
  let a = new A
  get a!talk()
}
MOS
"$mosaicc" -o "$tmp/main" "$tmp/main.mos" && "$mosaicc" -o "$tmp/actor" "$tmp/actor.mos" || exit 99

"$tmp/main" >/dev/full 2>"$tmp/err"
st=$?
[ $st -eq 101 ] && grep -q "runtime error: i/o error: cannot write to standard output" "$tmp/err"
check "main's output to a full device: status 101 and a message (got $st)" $?

"$tmp/actor" >/dev/full 2>"$tmp/err"
st=$?
[ $st -eq 101 ] && grep -q "i/o error" "$tmp/err"
check "an actor's output to a full device: status 101 (got $st)" $?

# a closed pipe: the reader stops after one line
( "$tmp/actor" 2>"$tmp/err"; echo $? >"$tmp/status" ) | head -n 1 >/dev/null
st=$(cat "$tmp/status")
[ "$st" -eq 101 ] && grep -q "i/o error" "$tmp/err"
check "output to a closed pipe: status 101 (got $st)" $?

for mode in --dump-ast --effects --layouts; do
    "$mosaicc" $mode "$tmp/main.mos" >/dev/full 2>"$tmp/err"
    st=$?
    [ $st -eq 2 ] && grep -q "mosaicc: error: cannot write to standard output" "$tmp/err"
    check "mosaicc $mode to a full device: status 2 and a message (got $st)" $?
done

"$mosaicc" --emit=llvm -o - "$tmp/main.mos" >/dev/full 2>"$tmp/err"
st=$?
[ $st -eq 2 ]
check "mosaicc --emit=llvm -o - to a full device: status 2 (got $st)" $?
exit 0

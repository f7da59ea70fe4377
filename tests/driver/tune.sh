#!/bin/sh
# tune.sh — mosaicc --tune-layouts (driver/tune.c): every candidate layout
# of every pool built and run, the table of measured and predicted ranks,
# the winners written as a layout file that --layout-file reads back, the
# program's arguments and standard input given to every run, and the
# error paths: a program whose output differs between runs, a run that
# outlives --tune-timeout, an interrupt (no file left behind), bad options.
# Times are printed, never checked: tests do not depend on timing.
. "$(dirname "$0")/tap.sh"
echo "1..11"
TMPDIR=$tmp/scratch
export TMPDIR
mkdir "$TMPDIR"

cat >"$tmp/p.mos" <<'MOS'
class P {
  var x: float
  var y: float
  var vx: float
  var vy: float
  var mass: float = 1.0
  var id: int
}
layout Hot: P = rec{x, vx} + rec{y, vy, mass, id}
pool ps: P layout Hot
pool qs: P

def main(args: [string]) {
  let n = parse_int(args[0])
  for i in 0..n { let p = new P<ps>; p.id = i; p.vx = 1.0; new P<qs>.y = 2.0 }
  for _s in 0..3 { for p in ps { p.x += p.vx * 0.5 } }
  var s = 0.0
  for q in qs { s += q.y }
  println(s + " " + ps[n - 1].x + " " + read_line())
}
MOS
echo "from stdin" | "$mosaicc" --tune-layouts --runs 2 --tune-out "$tmp/best.layout" \
    "$tmp/p.mos" 100 >"$tmp/out" 2>"$tmp/err"
st=$?
# ps: its hot/cold split is Hot itself, listed once; qs: Hot is declared
[ $st -eq 0 ] && grep -q '^pool ps: P, 1 loop over it; 3 layouts, 2 runs each$' "$tmp/out" &&
    grep -q '^pool qs: P, 1 loop over it; 4 layouts, 2 runs each$' "$tmp/out" &&
    grep -q '^  Hot (declared) ' "$tmp/out"
check "a table per pool: the layout in force, aos, soa, declared and hot/cold, each once (got $st)" $?
grep -Eq '^  Hot \(in force\) +[0-9.]+ +[0-9.]+-[0-9.]+ +32 +2 +[0-9]+$' "$tmp/out" &&
    grep -Eq '^  soa +[0-9.]+ +[0-9.]+-[0-9.]+ +24 +1 +[0-9]+$' "$tmp/out" &&
    grep -Eq '^  aos +[0-9.]+ +[0-9.]+-[0-9.]+ +96 +3 +[0-9]+$' "$tmp/out"
check "each row: median, range, the advisor's bytes per object and both ranks" $?
grep -Eq '^  rec\{y\} \+ rec\{x, vx, vy, mass, id\} \(hot/cold\) +[0-9.]+ .* 8 +1 ' "$tmp/out"
check "the hot/cold split of what the loops touch, predicted cheapest for qs" $?
grep -q '^  fastest: ' "$tmp/out" && grep -q '^tune: variant 1 of 6: the layouts in force' "$tmp/err" &&
    grep -q '^tune: done in ' "$tmp/err"
check "the fastest of each pool; progress on standard error, variant i of n" $?
[ "$(grep -c '^ps = \|^qs = ' "$tmp/best.layout")" -eq 2 ] &&
    out=$(echo "from stdin" | "$mosaicc" --layout-file "$tmp/best.layout" --run "$tmp/p.mos" 100) &&
    [ "$out" = "200.0 1.5 from stdin" ]
check "--tune-out writes a layout file that --layout-file reads back, same output" $?
[ -z "$(ls "$TMPDIR")" ]
check "nothing is left in TMPDIR" $?

cat >"$tmp/clock.mos" <<'MOS'
class P { var x: float; var y: float }
pool ps: P
def main() {
  new P<ps>
  for p in ps { p.x = clock() }
  println(ps[0].x)
}
MOS
"$mosaicc" --tune-layouts --runs 2 "$tmp/clock.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "did not print the same on two runs with the layouts in force" "$tmp/err"
check "output that differs from run to run is said so, status 1 (got $st)" $?

cat >"$tmp/loop.mos" <<'MOS'
class P { var x: float; var y: float }
pool ps: P
def main() {
  new P<ps>
  var s = 0.0
  while s >= 0.0 { for p in ps { s += p.x } }
  println(s)
}
MOS
"$mosaicc" --tune-layouts --runs 1 --tune-timeout 0.5 "$tmp/loop.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "ran for more than 0.5 s and was stopped" "$tmp/err"
check "a run that outlives --tune-timeout is stopped and reported, status 1 (got $st)" $?

"$mosaicc" --tune-layouts --runs 1 --tune-timeout 60 "$tmp/loop.mos" >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while ! grep -q 'variant 1' "$tmp/err" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT $pid
wait $pid
st=$?
sleep 0.2
[ $st -ne 0 ] && [ -z "$(ls "$TMPDIR")" ] && ! pgrep -f "$TMPDIR/mosaic-tune" >/dev/null
check "an interrupt stops the run and removes every file (status $st)" $?

"$mosaicc" --runs 3 "$tmp/p.mos" 2>"$tmp/err"
st1=$?
"$mosaicc" --tune-layouts --runs 0 "$tmp/p.mos" 2>>"$tmp/err"
st2=$?
"$mosaicc" --tune-layouts -o x "$tmp/p.mos" 2>>"$tmp/err"
st3=$?
[ $st1 -eq 2 ] && [ $st2 -eq 2 ] && [ $st3 -eq 2 ] &&
    grep -q "'--runs' is an option of '--tune-layouts'" "$tmp/err" &&
    grep -q "invalid number of runs '0'" "$tmp/err"
check "bad tuning options are usage errors, status 2" $?

printf 'def main() { println(1) }\n' >"$tmp/none.mos"
[ "$("$mosaicc" --tune-layouts "$tmp/none.mos")" = "no loop visits a pool in $tmp/none.mos: nothing to tune" ]
check "a program without pool loops: nothing to tune, status 0" $?
exit $failed

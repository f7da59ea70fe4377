#!/bin/sh
# layouts_report.sh — `mosaicc --layouts` prints exactly the report of
# LANGUAGE.md §6 (the reference's own Particle example, an override, soa's
# field order, a pool statement), and nothing else on stdout; the layout
# advisor speaks only under --layout-advice.
. "$(dirname "$0")/tap.sh"
echo "1..11"

cat >"$tmp/parts.mos" <<'MOS'
class Particle {
  var x: float; var y: float              // members end at a newline or ';'
  var vx: float; var vy: float
  var mass: float
  var id: int
  def step(dt: float) { x += vx * dt; y += vy * dt }
}

layout Hot: Particle = rec{x, y, vx, vy} + rec{mass, id}

pool ps: Particle layout Hot              // a global pool of Particles, on node 0

def main() {
  for _i in 0..1000 { new Particle<ps> }   // allocated in ps
  for p in ps { p.vx = 1.0; p.step(0.5) } // visits objects in allocation order
  println(ps.size + " " + ps[999].x)       // 1000 0.5
}
MOS

"$mosaicc" --layouts "$tmp/parts.mos" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && printf '%s\n' \
    'pool ps: Particle layout rec{x, y, vx, vy} + rec{mass, id}' \
    '  rec{x, y, vx, vy}: 32 bytes per object' \
    '  rec{mass, id}: 16 bytes per object' | cmp -s - "$tmp/out"
check "the reference's example: the report exactly, nothing else" $?

"$mosaicc" --layouts --layout ps=soa "$tmp/parts.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && printf '%s\n' \
    'pool ps: Particle layout rec{x} + rec{y} + rec{vx} + rec{vy} + rec{mass} + rec{id}' \
    '  rec{x}: 8 bytes per object' '  rec{y}: 8 bytes per object' \
    '  rec{vx}: 8 bytes per object' '  rec{vy}: 8 bytes per object' \
    '  rec{mass}: 8 bytes per object' '  rec{id}: 8 bytes per object' | cmp -s - "$tmp/out"
check "soa: one cluster per field, in the class's order" $?

"$mosaicc" --layouts --layout 'ps=rec{id, vy} + rec{mass, x, vx, y}' "$tmp/parts.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && printf '%s\n' \
    'pool ps: Particle layout rec{vy, id} + rec{x, y, vx, mass}' \
    '  rec{vy, id}: 16 bytes per object' \
    '  rec{x, y, vx, mass}: 32 bytes per object' | cmp -s - "$tmp/out"
check "a literal override: clusters in its order, fields in the class's" $?

"$mosaicc" --layout-advice "$tmp/parts.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(head -n 3 "$tmp/out" | tail -n 1)" = '  rec{mass, id}: 16 bytes per object' ] &&
    grep -q '^loop .*parts.mos:15: for p in ps' "$tmp/out"
check "--layout-advice: the report, then the advisor's loops" $?

cat >"$tmp/local.mos" <<'MOS'
class P { var x: float; var y: float; var id: int }
def work(): float {
  pool q: P layout soa
  for i in 0..10 {
    let p = new P<q>
    p.x = float(i)
  }
  var s = 0.0
  for p in q { s += p.x }
  return s
}
def main() {
  println(work())
}
MOS
"$mosaicc" --layouts --layout q=aos "$tmp/local.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && printf '%s\n' 'pool q: P layout rec{x, y, id}' \
    '  rec{x, y, id}: 24 bytes per object' | cmp -s - "$tmp/out"
check "--layout names a pool declared by a statement" $?

"$mosaicc" --layout 'q=rec{y} + rec{x, id}' --run "$tmp/local.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "45.0" ]
check "... and the program's output does not change" $?

"$mosaicc" --layouts --layout 'q=rec{x} + rec{zz}' "$tmp/local.mos" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "error\[E0402\].*no field 'zz'" "$tmp/err"
check "a bad override of a local pool is E0402" $?

"$mosaicc" --layouts --layout nope=aos "$tmp/local.mos" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "error\[E0402\].*'nope' is not a pool or layout of the program" "$tmp/err"
check "a name that is no pool or layout is E0402" $?
# Why a loop is not vectorised, in words about the loop: a call with no
# vector form (named), and a float sum kept in source order.
cat >"$tmp/why.mos" <<'MOS'
class P { var x: float; var y: float; var id: int }
pool ps: P
def main() {
  for i in 0..100 { new P<ps>.x = float(i) }
  for p in ps { p.y = p.x * 2.0; println(p.y) }
  var s = 0.0
  for p in ps { s += p.y }
  println(s)
}
MOS
"$mosaicc" --layout-advice "$tmp/why.mos" >"$tmp/out" 2>&1
grep -qx "  vectorised at -O2: no (the loop calls 'println', which has no vector form)" "$tmp/out" &&
    grep -qx '  vectorised at -O2: no (it adds up floats, and another order could change the result: Mosaic keeps float arithmetic in source order)' "$tmp/out"
check "--layout-advice says why a loop is not vectorised, in words about the loop" $?

# A generic class in pools (LANGUAGE.md §11): each pool names its
# instance, and a layout of the generic gives each instance its own sizes.
cat >"$tmp/generic.mos" <<'MOS'
class Pair[A, B] {
  var first: A
  var second: B
}
layout Split: Pair = rec{second} + rec{first}
pool ps: Pair[int, bool] layout Split
pool qs: Pair[bool, bool] layout Split
def main() { new Pair[int, bool]<ps> }
MOS
"$mosaicc" --layouts "$tmp/generic.mos" >"$tmp/out" 2>&1
[ $? -eq 0 ] && printf '%s\n' 'pool ps: Pair[int, bool] layout rec{second} + rec{first}' \
    '  rec{second}: 1 bytes per object' '  rec{first}: 8 bytes per object' \
    'pool qs: Pair[bool, bool] layout rec{second} + rec{first}' \
    '  rec{second}: 1 bytes per object' '  rec{first}: 1 bytes per object' | cmp -s - "$tmp/out"
check "pools of a generic class's instances, with the generic's layout" $?

"$mosaicc" --layouts --layout qs=aos "$tmp/generic.mos" 2>&1 | grep -qx 'pool qs: Pair\[bool, bool\] layout rec{first, second}'
check "... and --layout overrides one of them" $?
exit $failed

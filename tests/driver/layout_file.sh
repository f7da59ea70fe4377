#!/bin/sh
# layout_file.sh — --layout-file FILE: layout overrides kept in a file
# beside the program (driver/layout_file.c): the report names the line
# that set each layout, the program's output does not change, a later
# flag wins, a layout of a generic class applies to an instance's pool,
# and every bad line or file is a clear error: E0402 at the file's own
# line and column, status 2 for a file that cannot be read.
. "$(dirname "$0")/tap.sh"
echo "1..10"

cat >"$tmp/p.mos" <<'MOS'
class P {
  var x: float
  var y: float
  var id: int
}
layout Hot: P = rec{x, y} + rec{id}
pool ps: P
pool qs: P layout Hot
def main() {
  for i in 0..4 { new P<ps>.x = float(i); new P<qs>.id = i }
  var s = 0.0
  for p in ps { s += p.x }
  println(s + " " + qs[3].id)
}
MOS
cat >"$tmp/exp.layout" <<'EOF'
# x and y are read together
ps = rec{x, y} + rec{id}   # hot, then cold

Hot=soa
EOF
"$mosaicc" --layouts --layout-file "$tmp/exp.layout" "$tmp/p.mos" >"$tmp/out" 2>&1
printf '%s\n' "pool ps: P layout rec{x, y} + rec{id} (from $tmp/exp.layout:2)" \
    '  rec{x, y}: 16 bytes per object' '  rec{id}: 8 bytes per object' \
    "pool qs: P layout rec{x} + rec{y} + rec{id} (from $tmp/exp.layout:4)" \
    '  rec{x}: 8 bytes per object' '  rec{y}: 8 bytes per object' \
    '  rec{id}: 8 bytes per object' | cmp -s - "$tmp/out"
check "--layouts: the file's layouts, each with the line that set it" $?

"$mosaicc" --layouts "$tmp/p.mos" | grep -q 'from' 
[ $? -ne 0 ]
check "... and without a layout file, the report of LANGUAGE.md §6 exactly" $?

out=$("$mosaicc" --layout-file "$tmp/exp.layout" --run "$tmp/p.mos" 2>&1)
[ "$out" = "6.0 3" ] && [ "$("$mosaicc" --run "$tmp/p.mos" 2>&1)" = "6.0 3" ]
check "the program prints the same with and without the file" $?

"$mosaicc" --layouts --layout-file "$tmp/exp.layout" --layout ps=aos "$tmp/p.mos" |
    grep -qx 'pool ps: P layout rec{x, y, id}'
check "a --layout flag after the file wins over it" $?

cat >"$tmp/bad.layout" <<'EOF'
ps = rec{x, zz} + rec{id}
qs soa
nope = aos
Hot =
qs = Nowhere
EOF
"$mosaicc" --check --layout-file "$tmp/bad.layout" "$tmp/p.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
grep -q "bad.layout:1:13: error\[E0402\]: invalid layout for 'ps': class 'P' has no field 'zz'" "$tmp/err" &&
    grep -q '^    1 | ps = rec{x, zz} + rec{id}$' "$tmp/err" &&
    grep -q '^      |             ^~$' "$tmp/err"
check "a field the class lacks: E0402 at its line and column, with a caret" $?
grep -q "bad.layout:2:4: error\[E0402\]: expected 'NAME = SPEC'" "$tmp/err" &&
    grep -q "bad.layout:3:1: error\[E0402\]: 'nope' is not a pool or layout of the program" "$tmp/err" &&
    grep -q "bad.layout:4:5: error\[E0402\]: expected a layout after '=' for 'Hot'" "$tmp/err" &&
    grep -q "bad.layout:5:6: error\[E0402\]: invalid layout for 'qs': unknown layout 'Nowhere'" "$tmp/err"
check "a line without '=', an unknown pool, a missing SPEC, an unknown layout: each at its place" $?
[ $st -eq 1 ] && [ "$(grep -c 'error\[' "$tmp/err")" -eq 6 ]
check "every bad line is reported, status 1 (got $st)" $?

"$mosaicc" --check --layout-file "$tmp/none.layout" "$tmp/p.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "cannot read layout file '$tmp/none.layout': No such file or directory" "$tmp/err"
check "a missing layout file: status 2 and the system's reason (got $st)" $?

"$mosaicc" --check --layout-file "$tmp" "$tmp/p.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "cannot read layout file" "$tmp/err"
check "a directory as a layout file: status 2 (got $st)" $?

cat >"$tmp/g.mos" <<'MOS'
class Pair[A, B] {
  var first: A
  var second: B
}
layout Split: Pair = rec{first} + rec{second}
pool ps: Pair[int, bool]
def main() { new Pair[int, bool]<ps>.second = true; println(ps[0].second) }
MOS
printf 'ps = Split\n' >"$tmp/g.layout"
"$mosaicc" --layouts --layout-file "$tmp/g.layout" "$tmp/g.mos" 2>&1 | head -n 1 |
    grep -qx "pool ps: Pair\[int, bool\] layout rec{first} + rec{second} (from $tmp/g.layout:1)" &&
    [ "$("$mosaicc" --layout-file "$tmp/g.layout" --run "$tmp/g.mos")" = "true" ]
check "a layout of a generic class, from a file, for a pool of one of its instances" $?
exit $failed

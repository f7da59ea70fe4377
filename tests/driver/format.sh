#!/bin/sh
# format.sh — mosaicc --format (parser/format.c): on every program of the
# tree that parses, formatting twice gives the text of formatting once and
# the formatted text parses to the very same tree (--dump-ast); every test
# program that formatting changes still passes its own test, formatted;
# --format --check; the project's examples are in the canonical layout; and
# a file that does not parse, or is missing, is refused.  Long lines: the
# golden files of tests/format (NAME.mos formats to NAME.expected, which
# formatting leaves as it is), and every program of the tree formatted at
# narrow widths by tests/format/narrow, so that nearly every list is broken,
# still parses to its own tree and is a fixed point.
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
case $mosaicc in /*) ;; *) mosaicc=$(pwd)/$mosaicc ;; esac
echo "1..10"

nprog=0 bad=""
changed=""
for f in $(cd "$src" && find tests examples bench -name '*.mos' | sort); do
    "$mosaicc" --dump-ast "$src/$f" >"$tmp/a1" 2>/dev/null || continue   # not a program
    nprog=$((nprog + 1))
    "$mosaicc" --format "$src/$f" >"$tmp/f1.mos" 2>/dev/null &&
        "$mosaicc" --format "$tmp/f1.mos" >"$tmp/f2.mos" 2>/dev/null &&
        cmp -s "$tmp/f1.mos" "$tmp/f2.mos" &&
        "$mosaicc" --dump-ast "$tmp/f1.mos" >"$tmp/a2" 2>/dev/null &&
        cmp -s "$tmp/a1" "$tmp/a2" || bad="$bad $f"
    cmp -s "$tmp/f1.mos" "$src/$f" || changed="$changed $f"
done
echo "# $nprog programs formatted"
[ "$nprog" -gt 500 ] && [ -z "$bad" ]
check "every program of the tree: formatting is idempotent and keeps the syntax tree$bad" $?

# every test program that formatting changes passes its own test, formatted
failed_tests=""
ntests=0
for f in $changed; do
    case $f in
        tests/run/*|tests/run-fail/*|tests/compile-fail/*|tests/effects/*|tests/ir/*) ;;
        *) continue ;;
    esac
    kind=$(basename "$(dirname "$f")")
    mkdir -p "$tmp/t/$kind"
    "$mosaicc" --format "$src/$f" >"$tmp/t/$kind/$(basename "$f")"
    ntests=$((ntests + 1))
    sh "$src/tests/run-test.sh" --mosaicc "$mosaicc" "$tmp/t/$kind/$(basename "$f")" \
        >"$tmp/t/out" 2>&1 && grep -q '^ok' "$tmp/t/out" || failed_tests="$failed_tests $f"
done
echo "# $ntests changed test programs run formatted"
[ -z "$failed_tests" ]
check "each test program formatting changes still passes its own test$failed_tests" $?

bad=""
for f in "$src"/examples/*.mos; do
    "$mosaicc" --format --check "$f" >/dev/null 2>&1 || bad="$bad $(basename "$f")"
done
[ -z "$bad" ]
check "the examples are in the canonical layout$bad" $?

printf 'class A {\n    var x:int=0\n  def f( k:int ):int {return k*2}\n}\n\n\n\ndef main() {\n  let a=new A\n  println(a.f(1)+ a.x)   // two\n  println(a.f(1 /* k */ ) , a.x)\n}\n\n' >"$tmp/ugly.mos"
printf 'class A {\n  var x: int = 0\n  def f(k: int): int { return k * 2 }\n}\n\ndef main() {\n  let a = new A\n  println(a.f(1)+ a.x)   // two\n  println(a.f(1 /* k */), a.x)\n}\n' >"$tmp/pretty.mos"
"$mosaicc" --format "$tmp/ugly.mos" | cmp -s - "$tmp/pretty.mos"
check "indentation, spacing, blank lines; a space kept where it could matter; comments kept, a comma or closer after one tight" $?

"$mosaicc" --format --check "$tmp/ugly.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
"$mosaicc" --check --format "$tmp/pretty.mos" >"$tmp/out2" 2>&1
st2=$?
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "is not in the canonical layout" "$tmp/err" &&
    [ $st2 -eq 0 ] && [ ! -s "$tmp/out2" ]
check "--format --check: status 1 and a message for a file to change, 0 and silence otherwise" $?

printf 'def main() {\n  let x = (1 +\n}\n' >"$tmp/broken.mos"
"$mosaicc" --format "$tmp/broken.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q 'error\[E0002\]' "$tmp/err"
check "a file that does not parse is not formatted: its syntax errors, status 1 (got $st)" $?

"$mosaicc" --format "$tmp/nowhere.mos" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "cannot read" "$tmp/err"
check "a missing file: status 2 (got $st)" $?

# golden files: a long call, a nested one, a long signature, long literals,
# comments in and after a broken call, lines that cannot be broken
bad="" ngolden=0
for f in "$src"/tests/format/*.mos; do
    want=${f%.mos}.expected
    ngolden=$((ngolden + 1))
    "$mosaicc" --format "$f" >"$tmp/got" 2>/dev/null && cmp -s "$tmp/got" "$want" ||
        { bad="$bad $(basename "$f")"; diff "$want" "$tmp/got" | sed 's/^/# /' | head -20; }
done
[ "$ngolden" -ge 6 ] && [ -z "$bad" ]
check "long lines broken at their lists as tests/format/*.expected show$bad" $?

bad=""
for f in "$src"/tests/format/*.expected; do
    cp "$f" "$tmp/golden.mos"
    "$mosaicc" --format --check "$tmp/golden.mos" >/dev/null 2>&1 &&
        "$mosaicc" --dump-ast "$tmp/golden.mos" >"$tmp/a2" 2>/dev/null &&
        "$mosaicc" --dump-ast "${f%.expected}.mos" >"$tmp/a1" 2>/dev/null &&
        cmp -s "$tmp/a1" "$tmp/a2" || bad="$bad $(basename "$f")"
done
[ -z "$bad" ]
check "a line broken so stays as it is, and the broken program has the tree of the long one$bad" $?

narrow=$(dirname "$mosaicc")/tests/format/narrow
progs=$(cd "$src" && find tests examples bench -name '*.mos' | sort)
bad=""
for width in 60 30 12; do
    (cd "$src" && "$narrow" "$width" $progs) >"$tmp/narrow" 2>"$tmp/narrow.err" ||
        bad="$bad $(tr '\n' ' ' <"$tmp/narrow")"
    sed 's/^/# /' "$tmp/narrow.err"
done
[ -z "$bad" ]
check "at widths 60, 30 and 12, every program formatted parses to its own tree and formats to itself$bad" $?
exit $failed

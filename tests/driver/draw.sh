#!/bin/sh
# draw.sh — mosaicc --draw=topology|layouts (driver/draw.c): the DOT of
# two programs against golden files (tests/driver/draw/*.dot, whose every
# line the programs beside them explain: nodes as boxes holding main, the
# actors started there and the pools, arrows labelled with the effects;
# each pool's clusters with offsets and sizes, overrides applied), Graphviz's
# dot accepting it and drawing SVG, measured counts as dashed arrows, and
# the error paths: an unknown drawing, dot missing, a bad counts file.
. "$(dirname "$0")/tap.sh"
golden=$(cd "$(dirname "$0")/draw" && pwd)
mosaicc=$(cd "$(dirname "$mosaicc")" && pwd)/$(basename "$mosaicc")
echo "1..12"
cp "$golden/bank.mos" "$golden/particles.mos" "$tmp/"
cd "$tmp" || exit 99

"$mosaicc" --draw=topology bank.mos >bank.dot 2>err && cmp -s bank.dot "$golden/bank.dot"
check "--draw=topology: the golden DOT (boxes per node, actors, a pool, effects)" $?
"$mosaicc" --draw=layouts --layout qs=soa particles.mos -o particles.dot 2>err &&
    cmp -s particles.dot "$golden/particles.dot"
check "--draw=layouts -o F.dot: the golden DOT (clusters, offsets, sizes, the override)" $?

if command -v dot >/dev/null 2>&1; then
    dot -Tsvg bank.dot >/dev/null 2>dot.err && dot -Tsvg particles.dot >/dev/null 2>>dot.err &&
        [ ! -s dot.err ]
    check "dot accepts both drawings, without a warning" $?
    "$mosaicc" --draw=topology bank.mos -o bank.svg && head -n 1 bank.svg | grep -q '^<?xml' &&
        grep -q '<svg' bank.svg
    check "-o F.svg draws it with dot" $?
else
    echo "ok 3 # SKIP Graphviz's dot is not installed"
    echo "ok 4 # SKIP Graphviz's dot is not installed"
    n=$((n + 2))
fi

printf '%s\n' 'remote accesses: 5 reads, 2 writes' '  from node 0 to node 1: 5 reads, 2 writes' \
    '  at bank.mos:3: 0 reads, 2 writes' 'messages: ...' \
    '  sent from node 0 to node 1: 3 messages, 96 bytes' >counts.txt
"$mosaicc" --draw=topology --counts counts.txt bank.mos >out.dot &&
    grep -q '^  "node 0" -> "node 1" \[style=dashed, .*label="measured: 5 reads, 2 writes"\];$' out.dot &&
    grep -q 'label="measured: 3 messages, 96 bytes"' out.dot
check "--counts FILE: the measured accesses and messages as dashed arrows" $?

"$mosaicc" --draw=pictures bank.mos >out 2>err
st=$?
[ $st -eq 2 ] && grep -q "unknown drawing 'pictures'" err
check "--draw of an unknown kind: status 2 (got $st)" $?

mkdir nodot
ln -s "$(command -v cc || echo /bin/true)" nodot/cc 2>/dev/null
PATH=$tmp/nodot "$mosaicc" --draw=topology bank.mos -o bank2.svg >out 2>err
st=$?
[ $st -eq 2 ] && grep -q "Graphviz's 'dot' is not installed" err && [ ! -e bank2.svg ]
check "dot missing: status 2, a message saying what to do (got $st)" $?
PATH=$tmp/nodot "$mosaicc" --draw=topology bank.mos -o bank2.dot && cmp -s bank2.dot "$golden/bank.dot"
check "... and -o F.dot needs no dot" $?

"$mosaicc" --draw=topology --counts nowhere.txt bank.mos >out 2>err
st=$?
[ $st -eq 2 ] && grep -q "cannot read counts file 'nowhere.txt'" err
check "a counts file that cannot be read: status 2 (got $st)" $?

"$mosaicc" --draw=layouts --counts counts.txt bank.mos >out 2>err
st1=$?
"$mosaicc" --draw=topology bank.mos -o bank.jpeg.x >out 2>err2
st2=$?
[ $st1 -eq 2 ] && grep -q "'--counts' is an option of '--draw=topology'" err && [ $st2 -eq 2 ]
check "--counts without --draw=topology, a format dot does not know: status 2" $?

# the report a --count-remote=FILE program writes at exit, drawn
"$mosaicc" --count-remote="$tmp/run.counts" -o bank bank.mos 2>err &&
    MOSAIC_NODES=2 ./bank >out 2>err && grep -q '^remote accesses: ' err &&
    cmp -s err run.counts &&
    "$mosaicc" --draw=topology --counts run.counts bank.mos >out.dot &&
    grep -q '^  "node 0" -> "node 1" \[style=dashed, .*label="measured: [0-9]* reads, [0-9]* writes"\];$' out.dot
check "--count-remote=FILE writes the report to FILE as well as stderr, and --counts draws it" $?

printf 'def main() { let x: int = "a" }\n' >bad.mos
"$mosaicc" --draw=topology bad.mos -o bad.dot >out 2>err
st=$?
[ $st -eq 1 ] && [ ! -e bad.dot ] && grep -q 'error\[E0200\]' err
check "a program with errors: status 1, its errors, no picture (got $st)" $?
exit $failed

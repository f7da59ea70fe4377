#!/bin/sh
# differential.sh — generated programs (tests/diff/gen.awk: wrapping ints,
# floats, arrays, loops, calls) compiled at -O0 and at -O2 must print the
# same and end with the same status: the optimiser may not change what a
# program does (LANGUAGE.md §3: wrapping arithmetic, IEEE floats in source
# order, checked conversions and indices).
mosaicc=${MOSAICC:-./mosaicc}
gen=$(cd "$(dirname "$0")/.." && pwd)/diff/gen.awk
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-diff.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
seeds=40
echo "1..$seeds"
for seed in $(seq 1 $seeds); do
    p=$tmp/p$seed
    awk -v seed="$seed" -f "$gen" >"$p.mos"
    if ! "$mosaicc" -O0 -o "$p.0" "$p.mos" 2>"$p.err" || ! "$mosaicc" -O2 -o "$p.2" "$p.mos" 2>>"$p.err"; then
        echo "not ok $seed - seed $seed does not compile"
        sed 's/^/# /' "$p.err" | head -5
        continue
    fi
    "$p.0" >"$p.out0" 2>/dev/null; s0=$?
    "$p.2" >"$p.out2" 2>/dev/null; s2=$?
    if [ "$s0" -eq "$s2" ] && cmp -s "$p.out0" "$p.out2"; then
        echo "ok $seed - seed $seed: -O0 and -O2 agree (status $s0)"
    else
        echo "not ok $seed - seed $seed: -O0 (status $s0) and -O2 (status $s2) differ"
        diff "$p.out0" "$p.out2" | head -5 | sed 's/^/# /'
    fi
done
exit 0

#!/bin/sh
# reference.sh — every example of docs/reference.md: each ```mosaic block,
# with the ```output block that follows it, is compiled and run with
# `mosaicc --run` (standard input empty, in a scratch directory), and its
# standard output must be exactly the expected text.
. "$(dirname "$0")/tap.sh"
doc=$(cd "$(dirname "$0")/../../docs" && pwd)/reference.md
[ -r "$doc" ] || { echo "Bail out! cannot read $doc"; exit 99; }
case $mosaicc in /*) ;; *) mosaicc=$(pwd)/$mosaicc ;; esac

# Split the document: example K is $tmp/exK.mos, its expected output
# $tmp/exK.out (missing when no ```output block follows the example).
awk -v dir="$tmp" '
    mode == "" && /^```mosaic[ \t]*$/ { k++; mode = "src"; f = dir "/ex" k ".mos"; printf "" >f; next }
    mode == "" && want && /^```output[ \t]*$/ { mode = "out"; f = dir "/ex" k ".out"; printf "" >f; want = 0; next }
    mode != "" && /^```[ \t]*$/ { close(f); want = (mode == "src"); mode = ""; next }
    mode != "" { print >f; next }
    /[^ \t]/ { want = 0 }
' "$doc" || exit 99
total=$(grep -c '^```mosaic[ 	]*$' "$doc")

echo "1..$total"
k=1
while [ "$k" -le "$total" ]; do
    line=$(awk -v k="$k" '/^```mosaic[ \t]*$/ && ++i == k { print NR; exit }' "$doc")
    if [ ! -f "$tmp/ex$k.out" ]; then
        check "example $k (line $line) is followed by an output block" 1
    else
        (cd "$tmp" && "$mosaicc" --run "ex$k.mos" </dev/null >"ex$k.got" 2>"ex$k.err")
        st=$?
        cmp -s "$tmp/ex$k.out" "$tmp/ex$k.got"
        ok=$?
        if [ $ok -ne 0 ] || [ $st -ne 0 ]; then
            diff "$tmp/ex$k.out" "$tmp/ex$k.got" | sed 's/^/# /'
            sed 's/^/# stderr: /' "$tmp/ex$k.err"
            [ $ok -eq 0 ] && ok=$st
        fi
        check "example $k (line $line) prints its output (status $st)" $ok
    fi
    k=$((k + 1))
done
exit $failed

#!/bin/sh
# examples.sh — the programs of examples/ that read standard input, run as
# the README shows, on fixed input: their output, and their error paths;
# and the tour, which tests/run/example_tour.mos must copy line for line.
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)/examples

echo "1..6"
"$mosaicc" -o "$tmp/wordfreq" "$src/wordfreq.mos" &&
    "$mosaicc" -o "$tmp/csv_report" "$src/csv_report.mos" || exit 99

printf 'The cat and the hat.\nthe cat sat; the end\n' | "$tmp/wordfreq" 3 >"$tmp/out"
printf '10 words, 6 different\n4 the\n2 cat\n1 and\n' | cmp -s - "$tmp/out"
check "wordfreq counts words in lower case, the most frequent first" $?

printf 'item, price ,qty\napple, 1.25, 3\n\npear,2.5,1\nplum, 0.25 ,10\n' |
    "$tmp/csv_report" price >"$tmp/out"
[ "$(cat "$tmp/out")" = "price: 3 rows, sum 4.0, mean 1.3333333333333333" ]
check "csv_report sums and averages a named column" $?

printf 'a,b\n1,2\n3,4\n' | "$tmp/csv_report" >"$tmp/out"
[ "$(cat "$tmp/out")" = "b: 2 rows, sum 6.0, mean 3.0" ]
check "csv_report takes the second column without an argument" $?

printf 'item,price\n' | "$tmp/csv_report" qty >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "no column 'qty'" "$tmp/err" && [ ! -s "$tmp/out" ]
check "csv_report: an unknown column is a message and status 1 (got $st)" $?

printf 'item,price\napple,cheap\n' | "$tmp/csv_report" price >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 101 ] && grep -q "runtime error: invalid float: 'cheap'" "$tmp/err"
check "csv_report: a value that is not a number is a runtime error (got $st)" $?

# The test is the example with its expected output after it: the example's
# lines must be the test's first lines, exactly.
lines=$(wc -l <"$src/tour.mos")
head -n "$lines" "$src/../tests/run/example_tour.mos" | cmp -s - "$src/tour.mos"
check "tests/run/example_tour.mos begins with examples/tour.mos, unchanged" $?
exit $failed

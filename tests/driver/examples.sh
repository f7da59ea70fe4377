#!/bin/sh
# examples.sh — the programs of examples/ that read standard input, run as
# the README shows, on fixed input: their output, and their error paths;
# the tour and the generics example, which tests/run/example_tour.mos and
# example_generics.mos must copy line for line; and
# the distributed word count, with two virtual nodes and (with Open MPI,
# MOSAIC_MPI=yes) under mpirun -np 2, where it must print the same lines.
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)/examples

echo "1..9"
"$mosaicc" -o "$tmp/wordfreq" "$src/wordfreq.mos" &&
    "$mosaicc" -o "$tmp/csv_report" "$src/csv_report.mos" &&
    "$mosaicc" -o "$tmp/distributed" "$src/distributed.mos" || exit 99

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
lines=$(wc -l <"$src/generics.mos")
head -n "$lines" "$src/../tests/run/example_generics.mos" | cmp -s - "$src/generics.mos"
check "tests/run/example_generics.mos begins with examples/generics.mos, unchanged" $?

# The distributed word count: its chunks dealt out to two workers.
cat >"$tmp/walk.txt" <<'EOF'
The cat sat on the mat.
The dog sat on the log.
A cat and a dog met on the road,
and the cat said: "It's a fine day."
The dog said nothing at all.

They walked on together
past the mill and the bridge,
the cat in front, the dog behind,
until the road ended at the river.
There the cat sat down,
and the dog sat down beside it,
and they watched the water go by.

"Tomorrow," said the cat,
"we shall walk the other way."
The dog said nothing,
which was his way of saying yes.
EOF
cat >"$tmp/walk.expected" <<'EOF'
worker 0 on node 0: 2 chunks, 56 words, 31 different
worker 1 on node 1: 1 chunk, 43 words, 29 different
99 words, 50 different, in 3 chunks on 2 nodes
most frequent:
    19 the
     6 cat
     6 dog
     5 and
     4 on
     4 said
     4 sat
     3 a
     2 at
     2 down
word lengths:
  1      3 ##
  2     12 #########
  3     50 ########################################
  4     15 ############
  5      9 #######
  6      5 ####
  7      3 ##
  8      2 #
EOF
MOSAIC_NODES=2 "$tmp/distributed" <"$tmp/walk.txt" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && cmp -s "$tmp/walk.expected" "$tmp/out" && [ ! -s "$tmp/err" ]
check "distributed counts words on two virtual nodes, from standard input (got $st)" $?

if [ "${MOSAIC_MPI:-no}" != yes ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "ok 8 # SKIP no Open MPI (MOSAIC_MPI=${MOSAIC_MPI:-unset})"
    exit $failed
fi
"$mosaicc" --distributed -o "$tmp/distributed-mpi" "$src/distributed.mos" &&
    (cd "$tmp" && OMPI_MCA_orte_tmpdir_base="$tmp" timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -np 2 \
        ./distributed-mpi walk.txt >out 2>/dev/null) &&
    cmp -s "$tmp/walk.expected" "$tmp/out"
check "distributed prints the same lines under mpirun -np 2, from a file" $?
exit $failed

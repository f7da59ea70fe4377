#!/bin/sh
# bench/run-frontend.sh — the front end against program size, for the
# shapes that used to be quadratic: many fields in one class, many locals
# in one scope, one long array literal of numbers (issue: a linear front
# end).  A table of seconds for `--check` and for a `-O2` build; never a
# test (DESIGN.md §5).
#
# Usage: bench/run-frontend.sh [MOSAICC]     (default ./mosaicc)
#   BENCH_SIZES="10000 50000 100000"   the sizes (elements of each shape)
mosaicc=${1:-./mosaicc}
sizes=${BENCH_SIZES:-"10000 50000 100000"}
work=bench/work/frontend
mkdir -p "$work" || exit 1

gen() {     # gen SHAPE N > file
    awk -v shape="$1" -v n="$2" 'BEGIN {
        if (shape == "fields") {
            print "class Big {"; for (i = 0; i < n; i++) print "  var f" i ": int"; print "}"
            print "def main() { let b = new Big\n  println(b.f7) }"
        } else if (shape == "locals") {
            print "def main() {"; for (i = 0; i < n; i++) print "  let x" i " = " i
            print "  println(x7)\n}"
        } else {
            printf "def main() {\n  let xs = ["
            for (i = 0; i < n; i++) printf "%s%d", (i ? ", " : ""), i
            print "]\n  println(xs[7])\n}"
        }
    }'
}

seconds() {     # seconds CMD...: wall time of one run
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }'
}

echo
echo "Front end against size — seconds, one run each, $(nproc 2>/dev/null || echo ?) cores"
echo
echo "| shape | elements | --check s | -O2 build s |"
echo "|---|---:|---:|---:|"
for shape in fields locals literal; do
    for n in $sizes; do
        gen "$shape" "$n" >"$work/$shape-$n.mos"
        c=$(seconds "$mosaicc" --check "$work/$shape-$n.mos")
        b=$(seconds "$mosaicc" -O2 -o "$work/$shape-$n" "$work/$shape-$n.mos")
        echo "| $shape | $n | $c | $b |"
    done
done

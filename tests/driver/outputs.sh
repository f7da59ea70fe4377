#!/bin/sh
# outputs.sh — the driver never destroys its input and names every failure
# to write an output (exit 2); a file named .mos gets a default output name;
# a byte-order mark is skipped; bad runtime settings are reported.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..12"
printf 'def main() { println("hi") }\n' >a.mos
cp a.mos a.orig

for flags in "" "-S" "-c" "--emit=llvm"; do
    # shellcheck disable=SC2086
    "$mosaicc" $flags a.mos -o ./a.mos 2>err
    st=$?
    [ $st -eq 2 ] && cmp -s a.mos a.orig && grep -q "input file" err
    check "mosaicc $flags a.mos -o ./a.mos is refused, the source untouched (got $st)" $?
done
ln a.mos linked.mos
"$mosaicc" a.mos -o linked.mos 2>err
[ $? -eq 2 ] && cmp -s a.mos a.orig
check "an output that is a hard link of the input is refused" $?

mkdir d && cp a.mos d/.mos
"$mosaicc" d/.mos && [ -x d/a.out ]
check "d/.mos gives the executable d/a.out" $?

"$mosaicc" a.mos -o missing/dir/x 2>err
[ $? -eq 2 ] && grep -q "^mosaicc: error: cannot write 'missing/dir/x'" err
check "an output in a missing directory: exit 2 and a message" $?

"$mosaicc" a.mos -o d 2>err
[ $? -eq 2 ] && grep -q "^mosaicc: error: cannot write 'd': it is a directory" err
check "-o naming a directory: exit 2 and a message" $?

printf '\357\273\277def main() { println("bom") }\n' >bom.mos
[ "$("$mosaicc" --run bom.mos)" = "bom" ]
check "a byte-order mark at the start of a file is skipped" $?

cat >actors.mos <<'MOS'
active class A { def f(): int { return 1 } }
def main() { let a = new A; println(get a!f()) }
MOS
"$mosaicc" -o actors actors.mos || exit 99
out=$(MOSAIC_THREADS=lots ./actors 2>err)
[ "$out" = "1" ] && grep -q "ignoring MOSAIC_THREADS='lots'" err
check "an invalid MOSAIC_THREADS is reported and ignored" $?
out=$(MOSAIC_NODES=0 ./actors 2>err)
[ "$out" = "1" ] && grep -q "ignoring MOSAIC_NODES='0'" err
check "an invalid MOSAIC_NODES is reported and ignored" $?
out=$(MOSAIC_STACK_SIZE=12q ./actors 2>err)
[ "$out" = "1" ] && grep -q "ignoring MOSAIC_STACK_SIZE='12q'" err
check "an invalid MOSAIC_STACK_SIZE is reported and ignored" $?
exit 0

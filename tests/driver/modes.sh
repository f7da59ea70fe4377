#!/bin/sh
# modes.sh — every output mode of LANGUAGE.md §7 and every exit status:
# -c, -S, --emit=llvm (to a file and with -o -), --check, --run, and the
# statuses 0 (success), 1 (the program has errors), 2 (bad usage or an
# unreadable input), the program's own with --run.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..14"
printf 'def main(): int { println("hi"); return 3 }\n' >p.mos
printf 'def main() { println(nope) }\n' >bad.mos

"$mosaicc" -c p.mos && [ -s p.o ] && [ ! -e p ]
check "-c writes p.o and no executable" $?
"$mosaicc" -S p.mos && grep -q "mos_program_main" p.s
check "-S writes assembly to p.s" $?
"$mosaicc" --emit=llvm p.mos && grep -q "define" p.ll
check "--emit=llvm writes p.ll" $?
"$mosaicc" --emit=llvm -o - p.mos | grep -q "define"
check "--emit=llvm -o - writes IR to standard output" $?
"$mosaicc" -S -o - p.mos | grep -q "mos_program_main"
check "-S -o - writes assembly to standard output" $?
rm -f p
"$mosaicc" --check p.mos && [ ! -e p ]
check "--check succeeds and writes nothing" $?
"$mosaicc" p.mos && [ -x p ] && [ "$(./p)" = "hi" ]
check "the default is an executable named after the file" $?
./p >/dev/null
[ $? -eq 3 ]
check "main's int result is the exit status" $?
"$mosaicc" --run p.mos >out
[ $? -eq 3 ] && [ "$(cat out)" = "hi" ]
check "--run runs the program and exits with its status" $?
"$mosaicc" bad.mos 2>err
[ $? -eq 1 ] && grep -q "error\[E0100\]" err
check "a program with errors: status 1" $?
"$mosaicc" --no-such-option p.mos 2>/dev/null
[ $? -eq 2 ]
check "an unknown option: status 2" $?
"$mosaicc" missing.mos 2>err
[ $? -eq 2 ] && grep -q "mosaicc: error: cannot read 'missing.mos'" err
check "an unreadable input: status 2" $?
"$mosaicc" 2>/dev/null
[ $? -eq 2 ]
check "no input file: status 2" $?
"$mosaicc" --check -o x p.mos 2>/dev/null
[ $? -eq 2 ]
check "-o with --check: status 2" $?
exit 0

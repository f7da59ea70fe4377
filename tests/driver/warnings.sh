#!/bin/sh
# warnings.sh — warnings (docs/warnings.md) and the options that choose
# what becomes of them: a warning is printed and the program compiles
# (status 0); -w, -Wno-NAME (or -Wno-CODE) turn warnings off; -Werror and
# -Werror=NAME make them errors (status 1); the last option on a warning
# wins; an unknown name is bad usage (status 2).  A program with errors
# gets no warnings; --error-format=json gives them the "warning" severity.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..12"

cat >w.mos <<'MOS'
def main() {
  let unused = 1
  if "hi".length < 0 { println("never") }
  println("hi")
}
MOS

"$mosaicc" --check w.mos 2>err
[ $? -eq 0 ] && grep -q "^w.mos:2:7: warning\[W0001\]: variable 'unused' is never used" err &&
    grep -q "^w.mos:3:6: warning\[W0006\]: this comparison is always false" err &&
    grep -q "^note: if it is unused on purpose, name it '_unused'" err
check "a warning is printed at its place, and the program compiles" $?

"$mosaicc" -O0 -o w w.mos 2>/dev/null && [ "$(./w)" = "hi" ]
check "a program with warnings builds and runs" $?

"$mosaicc" --check -w w.mos 2>err
[ $? -eq 0 ] && [ ! -s err ]
check "-w: no warnings" $?

"$mosaicc" --check -Wno-unused-variable w.mos 2>err
[ $? -eq 0 ] && ! grep -q W0001 err && grep -q "warning\[W0006\]" err
check "-Wno-NAME turns one warning off" $?

"$mosaicc" --check -Wno-W0006 w.mos 2>err
[ $? -eq 0 ] && grep -q W0001 err && ! grep -q W0006 err
check "-Wno-CODE does too" $?

"$mosaicc" --check -Werror w.mos 2>err
[ $? -eq 1 ] && grep -q "^w.mos:2:7: error\[W0001\]" err && grep -q "^w.mos:3:6: error\[W0006\]" err &&
    [ "$(grep -c "is an error here (-Werror)" err)" -eq 1 ]
check "-Werror: every warning an error, status 1, one note saying why" $?

"$mosaicc" --check -Werror=constant-comparison w.mos 2>err
[ $? -eq 1 ] && grep -q "warning\[W0001\]" err && grep -q "error\[W0006\]" err
check "-Werror=NAME: that warning alone is an error" $?

"$mosaicc" --check -Werror -Wno-unused-variable -Wunused-variable w.mos 2>err
[ $? -eq 1 ] && grep -q "warning\[W0001\]" err && grep -q "error\[W0006\]" err
check "options apply in order: the last on a warning wins" $?

"$mosaicc" --check -Wno-such-thing w.mos 2>err
[ $? -eq 2 ] && grep -q "unknown warning 'such-thing' in '-Wno-such-thing' (the warnings: unused-variable, " err
check "an unknown warning is bad usage naming the warnings" $?

printf 'def main() {\n  let unused = 1\n  let x: int = "s"\n}\n' >e.mos
"$mosaicc" --check e.mos 2>err
[ $? -eq 1 ] && grep -q "error\[E0200\]" err && ! grep -q "warning\[" err
check "a program with errors gets no warnings" $?

"$mosaicc" --check --error-format=json w.mos 2>err
[ $? -eq 0 ] && grep -q '"code":"W0001","severity":"warning"' err
check "json: a warning has the warning severity" $?

"$mosaicc" --explain W0001 >out 2>&1 && head -n 1 out | grep -q "^# W0001: unused variable"
check "--explain W0001 prints the warning's page" $?

#!/bin/sh
# diag_formats.sh — diagnostics for people and for tools (LANGUAGE.md §7,
# docs/diagnostics.md): --color, and without colour the very text the
# rest of the suite compares.  Terminal cases run under script(1), which
# gives the compiler a terminal; without it they are skipped.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..10"

# skip DESCRIPTION REASON: a TAP line for a check that cannot run here.
skip() {
    n=$((n + 1))
    echo "ok $n # SKIP $1: $2"
}

esc=$(printf '\033')
printf 'def main() {\n  let sum = 1\n  println(sun)\n}\n' >s.mos

# ---- colour -------------------------------------------------------------------

"$mosaicc" --check --color=always s.mos 2>always.err
[ $? -eq 1 ] && grep -qF "${esc}[1;31merror[E0100]${esc}[0m" always.err &&
    grep -qF "${esc}[1;32mnote${esc}[0m" always.err &&
    grep -qF "${esc}[1;34m    3 |${esc}[0m" always.err
check "--color=always: red error, green note, blue gutter" $?

"$mosaicc" --check s.mos 2>plain.err
[ $? -eq 1 ] && ! grep -q "$esc" plain.err
check "auto, stderr not a terminal: no colour" $?

"$mosaicc" --check --color=never s.mos 2>never.err
cmp -s plain.err never.err
check "--color=never is byte for byte the default in a pipe" $?

sed "s/${esc}\[[0-9;]*m//g" always.err | cmp -s - plain.err
check "colour only adds escape sequences to the plain text" $?

NO_COLOR=1 "$mosaicc" --check --color=always s.mos 2>&1 | grep -q "$esc"
check "--color=always wins over NO_COLOR" $?

# on_tty ENV...: the compiler's output on a terminal, with the environment
# given (NO_COLOR unset otherwise), CRs of the terminal's line ends dropped.
on_tty() {
    env -u NO_COLOR TERM=xterm "$@" script -qec "'$mosaicc' --check s.mos" /dev/null \
        </dev/null | tr -d '\r'
}
if script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    on_tty | grep -q "${esc}\[1;31merror"
    check "auto on a terminal: colour" $?
    on_tty NO_COLOR=1 | grep -q "$esc"
    [ $? -ne 0 ]
    check "auto on a terminal with NO_COLOR=1: none" $?
    on_tty NO_COLOR= | grep -q "$esc"
    check "auto on a terminal with NO_COLOR empty: colour (no-color.org)" $?
    on_tty | sed "s/${esc}\[[0-9;]*m//g" | cmp -s - plain.err
    check "on a terminal, the same text under the colours" $?
else
    for what in "auto on a terminal" "NO_COLOR=1" "NO_COLOR empty" "same text"; do
        skip "$what" "script(1) cannot give a terminal here"
    done
fi

"$mosaicc" --check --color=maybe s.mos 2>bad.err
[ $? -eq 2 ] && grep -q "invalid value 'maybe' for '--color' (use auto, always or never)" bad.err
check "--color=maybe is bad usage naming the values" $?


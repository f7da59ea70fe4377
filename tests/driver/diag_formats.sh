#!/bin/sh
# diag_formats.sh — diagnostics for people and for tools (LANGUAGE.md §7,
# docs/diagnostics.md): --color, and without colour the very text the
# rest of the suite compares; --error-format=json, read back with
# python3's json module.  Terminal cases run under script(1), which gives
# the compiler a terminal; without it, or without python3, checks are
# skipped.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..22"

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

# ---- json -----------------------------------------------------------------------

have_python=no
python3 -c 'import json' 2>/dev/null && have_python=yes

# json NAME DESCRIPTION EXPR: NAME.json is JSON Lines (strict UTF-8, every
# line an object) and the Python expression EXPR holds, with `d` the list
# of objects, `src` the bytes of NAME.mos and `text(F)` the text of file F.
json() {
    if [ $have_python = no ]; then
        skip "$2" "no python3"
        return
    fi
    python3 -c '
import json, sys
def text(name):
    with open(name, encoding="utf-8") as f:
        return f.read()
with open(sys.argv[1] + ".json", encoding="utf-8") as f:
    d = [json.loads(line) for line in f]
src = open(sys.argv[1] + ".mos", "rb").read()
sys.exit(0 if all(isinstance(o, dict) for o in d) and eval("(" + sys.argv[2] + ")") else 1)
' "$1" "$3" >"$1.py.err" 2>&1
    check "$2" $?
}

# compile NAME FLAGS...: NAME.mos with --check and the flags; stderr in
# NAME.json; the status in $status.
compile() {
    name=$1
    shift
    "$mosaicc" --check "$@" "$name.mos" 2>"$name.json"
    status=$?
}

printf 'def main() { prinltn(1) }\n' >typo.mos
compile typo --error-format=json
[ $status -eq 1 ]
check "json: a program with errors is status 1" $?
json typo "json: a misspelt call is one object, E0100, an error" \
    'len(d) == 1 and d[0]["code"] == "E0100" and d[0]["severity"] == "error"
     and d[0]["message"] == "undefined function '\''prinltn'\''"'
json typo "json: its span, 1-based, the end just past the name" \
    'd[0]["spans"] == [dict(file="typo.mos", line_start=1, column_start=14, line_end=1,
     column_end=21, byte_start=13, byte_end=20, is_primary=True, label=None)]'
json typo "json: the did-you-mean, as a note and as a suggestion that applies" \
    'd[0]["notes"] == [dict(message="did you mean '\''println'\''?", span=None)]
     and [(s["replacement"], src[:s["span"]["byte_start"]] + s["replacement"].encode()
           + src[s["span"]["byte_end"]:]) for s in d[0]["suggestions"]]
         == [("println", b"def main() { println(1) }\n")]'
"$mosaicc" --check typo.mos 2>typo.err
json typo "json: rendered is the human text" 'd[0]["rendered"] == text("typo.err")'

cp s.mos note.mos
compile note --error-format=json
json note "json: a note with a place has its span" \
    'd[0]["notes"][0]["message"] == "did you mean '\''sum'\''?"
     and (d[0]["notes"][0]["span"]["line_start"], d[0]["notes"][0]["span"]["column_start"]) == (2, 7)
     and d[0]["suggestions"][0]["span"]["line_start"] == 3'

printf 'def main() {\n  let s = "caf\303\251 \342\202\254" + @\n}\n' >lex.mos
compile lex --error-format=json
json lex "json: a lexical error (E0001), its column in code points" \
    'd[0]["code"] == "E0001" and d[0]["spans"][0]["line_start"] == 2
     and d[0]["spans"][0]["column_start"] == 22
     and d[0]["spans"][0]["byte_start"] == src.index(b"@")'

printf 'def main() {\n  let s = "\377\001" + 1\n}\n' >bytes.mos
compile bytes --error-format=json
json bytes "json: invalid UTF-8 and a control character in the source still give JSON" \
    'len(d) >= 1 and "\ufffd" in d[0]["rendered"]'

printf 'def main() {}\n' >noloc.mos
compile noloc --error-format=json --layout nothing
json noloc "json: an error with no place (E0402) has no spans" \
    '[(o["code"], o["spans"]) for o in d] == [("E0402", [])]'

printf 'def main() {\n  let a: int = "one"\n  println(b)\n}\n' >two.mos
"$mosaicc" --check two.mos 2>two.err
compile two --error-format=json
json two "json: one object per error; their rendered texts make the human output" \
    'len(d) == 2 and "".join(o["rendered"] for o in d) == text("two.err")'

printf 'def main() {}\n' >clean.mos
compile clean --error-format=json
[ $status -eq 0 ] && [ ! -s clean.json ]
check "json: a program without errors writes nothing" $?

"$mosaicc" --check two.mos --error-format=xml 2>bad.err
[ $? -eq 2 ] && grep -q "invalid value 'xml' for '--error-format' (use human or json)" bad.err
check "--error-format=xml is bad usage naming the formats" $?

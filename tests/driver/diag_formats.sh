#!/bin/sh
# diag_formats.sh — diagnostics for people and for tools (LANGUAGE.md §7,
# docs/diagnostics.md): --color, and without colour the very text the
# rest of the suite compares; --error-format=json, read back with
# python3's json module; --error-format=sarif, validated with jsonschema
# against sarif-2.1.0-subset.schema.json beside this file (a subset of
# SARIF 2.1.0 written from the specification).  Terminal cases run under
# script(1), which gives the compiler a terminal; without it, python3 or
# its jsonschema module, checks are skipped.
. "$(dirname "$0")/tap.sh"
schema=$(cd "$(dirname "$0")" && pwd)/sarif-2.1.0-subset.schema.json
cd "$tmp" || exit 99
echo "1..36"

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
# of objects, `src` the bytes of NAME.mos and `text(F)` the text of file F
# (without the closing --explain hint).
json() {
    if [ $have_python = no ]; then
        skip "$2" "no python3"
        return
    fi
    python3 -c '
import json, sys
def text(name):
    # the human output, less the closing --explain hint of the run, which no
    # diagnostic renders (json and sarif leave it out)
    with open(name, encoding="utf-8") as f:
        return "".join(l for l in f if not l.startswith("note: run " + chr(39) + "mosaicc --explain "))
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
[ $? -eq 2 ] && grep -q "invalid value 'xml' for '--error-format' (use human, json or sarif)" bad.err
check "--error-format=xml is bad usage naming the formats" $?

# ---- sarif ------------------------------------------------------------------------

have_jsonschema=no
[ $have_python = yes ] && python3 -c 'import jsonschema' 2>/dev/null && have_jsonschema=yes

# sarif NAME DESCRIPTION EXPR: NAME.json (the compiler's stderr) is one
# JSON document, and EXPR holds with `log` that document, `run` its run,
# `res` its results and `src` the bytes of NAME.mos.
sarif() {
    if [ $have_python = no ]; then
        skip "$2" "no python3"
        return
    fi
    python3 -c '
import json, sys
with open(sys.argv[1] + ".json", encoding="utf-8") as f:
    log = json.load(f)
run = log["runs"][0]
res = run["results"]
src = open(sys.argv[1] + ".mos", "rb").read()
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
' "$1" "$3" >"$1.py.err" 2>&1
    check "$2" $?
}

# jsonschema DESCRIPTION SCRIPT ARGS...: the Python SCRIPT, with `schema`
# loaded and checked as a draft-07 schema and `validator` made from it,
# exits 0.
jsonschema() {
    what=$1
    script=$2
    shift 2
    if [ $have_jsonschema = no ]; then
        skip "$what" "no python3 jsonschema module (Debian: python3-jsonschema)"
        return
    fi
    python3 -c '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
def load(name):
    with open(name, encoding="utf-8") as f:
        return json.load(f)
'"$script" "$schema" "$@" >jsonschema.err 2>&1
    check "$what" $?
}

cp typo.mos styp.mos
compile styp --error-format=sarif
[ $status -eq 1 ]
check "sarif: a program with errors is status 1" $?
sarif styp "sarif: one log, version 2.1.0, the tool mosaicc, its invocation" \
    'log["version"] == "2.1.0" and "sarif-schema-2.1.0.json" in log["$schema"]
     and run["tool"]["driver"]["name"] == "mosaicc"
     and run["invocations"] == [dict(executionSuccessful=True, exitCode=1)]
     and run["columnKind"] == "unicodeCodePoints"'
sarif styp "sarif: the result, its rule from errors.def, its region" \
    'len(res) == 1 and res[0]["ruleId"] == "E0100" and res[0]["level"] == "error"
     and res[0]["message"]["text"] == "undefined function '\''prinltn'\''"
     and run["tool"]["driver"]["rules"][res[0]["ruleIndex"]]
         == dict(id="E0100", shortDescription=dict(text="undefined variable or function"),
                 defaultConfiguration=dict(level="error"))
     and res[0]["locations"] == [dict(physicalLocation=dict(artifactLocation=dict(uri="styp.mos"),
         region=dict(startLine=1, startColumn=14, endLine=1, endColumn=21, byteOffset=13,
                     byteLength=7)))]'
sarif styp "sarif: the did-you-mean is a related location and a fix that applies" \
    '[l["message"]["text"] for l in res[0]["relatedLocations"]] == ["did you mean '\''println'\''?"]
     and [(r["insertedContent"]["text"], src[:r["deletedRegion"]["byteOffset"]]
           + r["insertedContent"]["text"].encode()
           + src[r["deletedRegion"]["byteOffset"] + r["deletedRegion"]["byteLength"]:])
          for f in res[0]["fixes"] for c in f["artifactChanges"] for r in c["replacements"]]
         == [("println", b"def main() { println(1) }\n")]'

cp s.mos snote.mos
compile snote --error-format=sarif
sarif snote "sarif: a note with a place is a related location there" \
    'res[0]["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 2
     and res[0]["relatedLocations"][0]["message"]["text"] == "did you mean '\''sum'\''?"'

cp noloc.mos snoloc.mos
compile snoloc --error-format=sarif --layout nothing
sarif snoloc "sarif: an error with no place (E0402) is a result without locations" \
    '[(r["ruleId"], "locations" in r) for r in res] == [("E0402", False)]'

for i in $(seq 120); do echo "def f$i() { let x: int = \"s\" }"; done >slimit.mos
echo 'def main() {}' >>slimit.mos
compile slimit --error-format=sarif
[ $status -eq 1 ]
check "sarif: the error limit's exit is status 1" $?
sarif slimit "sarif: the log is written on the error limit's exit, the note a notification" \
    'len(res) == 100 and len(run["tool"]["driver"]["rules"]) == 1
     and [n["message"]["text"][:15] for n in run["invocations"][0]["toolExecutionNotifications"]]
         == ["too many errors"]'

printf 'def main() {\n  let s = "\303\251\377" + 1\n}\n' >"my prog.mos"
"$mosaicc" --check --error-format=sarif "my prog.mos" 2>spath.json
cp "my prog.mos" spath.mos
sarif spath "sarif: a path with a space is a URI reference; bad bytes still give JSON" \
    'res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20prog.mos"'

cp clean.mos sclean.mos
compile sclean --error-format=sarif
[ $status -eq 0 ]
check "sarif: a program without errors is status 0" $?
sarif sclean "sarif: and its log has no results" \
    'res == [] and run["invocations"][0]["executionSuccessful"] is True'

"$mosaicc" --check --error-format=sarif 2>susage.json
[ $? -eq 2 ] && ! grep -q '{' susage.json
check "sarif: bad usage writes its message and no log" $?

jsonschema "sarif: every log validates against the SARIF 2.1.0 subset schema" '
bad = 0
for name in sys.argv[2:]:
    for e in validator.iter_errors(load(name)):
        print(name, e.message, list(e.absolute_path))
        bad = 1
sys.exit(bad)' styp.json snote.json snoloc.json slimit.json spath.json sclean.json

# The schema has teeth: a misspelt property, a level SARIF lacks and a
# line 0 are each refused.
jsonschema "sarif: the schema refuses a misspelt property, level fatal, line 0" '
def broken(change):
    log = load(sys.argv[2])
    change(log["runs"][0]["results"][0])
    return log
def region(r):
    return r["locations"][0]["physicalLocation"]["region"]
logs = [broken(lambda r: r.update(ruleid=r.pop("ruleId"))),
        broken(lambda r: r.update(level="fatal")),
        broken(lambda r: region(r).update(startLine=0))]
sys.exit(0 if validator.is_valid(load(sys.argv[2]))
         and not any(validator.is_valid(log) for log in logs) else 1)' styp.json

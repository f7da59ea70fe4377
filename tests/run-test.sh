#!/bin/sh
# run-test.sh — runs one conformance test and reports it in TAP (1..1).
#
#   sh tests/run-test.sh [--mosaicc PATH] tests/KIND/NAME.mos
#
# The directory says what kind of test it is, and comments in the file say
# what is expected (DESIGN.md §4):
#
#   run/           must compile (status 0) and run; stdout must equal the
#                  `// expect: TEXT` lines, in order (TEXT is everything
#                  after "// expect: "; a bare `// expect:` is an empty
#                  line), and the status `// expect-exit: N` (default 0).
#                  A file with a trailing `// warning[CODE]` anywhere must
#                  get exactly the warnings so annotated, by line and code.
#                  With `--count-remote` among its flags, the program's
#                  remote-access report (LANGUAGE.md §5) is checked too:
#                  stderr must have its `remote accesses: ` line, and the
#                  line numbers of its `  at FILE:LINE: ...` lines must be
#                  exactly the lines marked with a trailing `// remote`
#                  (none marked: no `at` line at all), none of them
#                  `(not predicted)`.
#   compile-fail/  must fail to compile with status 1; the (line, code)
#                  pairs of the compiler's `FILE:LINE:COL: error[CODE]`
#                  lines must equal those annotated with `// error[CODE]`
#                  (several on a line allowed), and the same for
#                  `warning[CODE]`.  `// expect-error: CODE` anywhere: that
#                  code must be reported, on any line or none.
#   run-fail/      must compile, then exit with status 101; the line marked
#                  `// runtime-error: TEXT` must be named in a stderr line
#                  `FILE:LINE:COL: runtime error: ...TEXT...`.  With
#                  `--count-remote`, the report is checked as for run/.
#   effects/       `mosaicc --effects FILE` must succeed and print each
#                  `// effects: LINE` as one of its lines.
#   ir/            `mosaicc --emit=llvm FILE` (with the `// flags:`) must
#                  succeed; within the LLVM function `// ir-function: NAME`
#                  (or the whole module without one), each `// ir-has: TEXT`
#                  must appear and no `// ir-lacks: TEXT` may (fixed strings):
#                  golden checks of what the optimiser must do, so that an
#                  elided check or a vectorised loop that silently stops
#                  happening fails `make check`.
#
# Any test may carry `// flags: ...` (compiler options), `// env: K=V ...`
# (the program's environment) and `// args: ...` (its arguments); words are
# split at blanks, without quoting.  A run/ or run-fail/ test may give the
# program's standard input with `// stdin: TEXT` lines: each is one line of
# input, in order and newline-terminated (TEXT as for `// expect:`; a bare
# `// stdin:` is an empty line); without any, stdin is empty (/dev/null).
# Compiling and running are under `timeout`, so a hanging test fails
# instead of hanging make check.  Executables go to a private temporary
# directory, never the source tree (which is read-only under make
# distcheck), and the program runs in a fresh empty directory of its own
# (its working directory), so relative paths it writes stay out of the
# tree; the executable's path is absolute.
#
# A run/ or run-fail/ test with a line `// ranks: N` (N >= 1) runs twice and
# must pass both ways against the same expectations (stdout, exit status,
# runtime error, `// remote` marks):
#   1. as above, with MOSAIC_NODES=N added to its environment (its own
#      `// env:` wins if it sets MOSAIC_NODES);
#   2. when MOSAIC_MPI=yes is in the environment (make check sets it from
#      configure's finding of Open MPI; unset means no), compiled again with
#      `--distributed` added to its flags and run as `mpirun
#      --allow-run-as-root --oversubscribe -np N EXE ARGS` (LANGUAGE.md §10),
#      with the same stdin, working directory arrangement and `// env:`
#      variables (exported, and passed on with mpirun's `-x`), under the same
#      `timeout`: a hang fails, and the whole process group (mpirun and its
#      ranks) is killed.  Otherwise this run is skipped with a `# distributed
#      run skipped: ...` diagnostic, and the test passes or fails on run 1.
# Stdout must be exactly the `// expect:` lines both ways, so such tests
# print in an order that does not depend on timing (from main after a
# `get`, or from one actor).  Under mpirun, stderr may carry mpirun's own
# lines: the runtime-error line and the remote-access report's lines are
# looked for among them, as in run 1.  The compiler's warnings are checked
# on the first compilation only.  A failure says which run failed ("with
# MOSAIC_NODES=2: ..." or "under mpirun -np 2: ...").
#
# The result is always reported through TAP, with the details as `#`
# lines (they land in the test's .log); the script exits 0 unless it was
# misused (status 99, a hard error for automake).

# Seconds a compilation, or a run of a test program, may take.
COMPILE_TIMEOUT=120
RUN_TIMEOUT=60

mosaicc=./mosaicc
while [ $# -gt 0 ]; do
    case $1 in
    --mosaicc) mosaicc=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "run-test.sh: unknown option '$1'" >&2; exit 99 ;;
    *) break ;;
    esac
done
if [ $# -ne 1 ]; then
    echo "usage: run-test.sh [--mosaicc PATH] FILE.mos" >&2
    exit 99
fi
file=$1
name=$(basename "$file" .mos)

echo "1..1"

# ---- reporting ------------------------------------------------------------

# Which run of a `// ranks:` test is under way, as the start of a failure
# message ("under mpirun -np 2: "); empty for other tests.
where=

pass() {
    echo "ok 1 - $name"
    exit 0
}

# fail MESSAGE [FILE...]: the message, then each file's contents, as TAP
# diagnostics.
fail() {
    echo "not ok 1 - $name"
    echo "# $where$1"
    shift
    for f in "$@"; do
        if [ -s "$f" ]; then
            echo "# --- $(basename "$f") ---"
            head -n 60 "$f" | sed 's/^/#   /'
        fi
    done
    exit 0
}

if [ ! -f "$file" ]; then
    fail "no such test file: $file"
fi
if [ ! -x "$mosaicc" ]; then
    fail "no compiler at $mosaicc"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-test.XXXXXX") || fail "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' HUP INT TERM
# The program runs elsewhere (in $tmp/cwd), so $tmp must be absolute.
case $tmp in
/*) ;;
*) tmp=$(pwd)/$tmp ;;
esac

if command -v timeout >/dev/null 2>&1; then
    compile_timeout="timeout -k 5 $COMPILE_TIMEOUT"
    run_timeout="timeout -k 5 $RUN_TIMEOUT"
else
    compile_timeout=
    run_timeout=
fi

# directive NAME: the words of every `// NAME: ...` line, joined.
directive() {
    sed -n "s|^.*// $1:[ 	]*||p" "$file" | tr '\n' ' '
}

# directive_lines NAME: the text after each `// NAME:` (and one blank),
# verbatim, a line each: for directives whose lines are text, not words.
directive_lines() {
    awk -v marker="// $1:" '{
        i = index($0, marker)
        if (i) {
            t = substr($0, i + length(marker))
            if (substr(t, 1, 1) == " ") t = substr(t, 2)
            print t
        }
    }' "$file"
}

flags=$(directive flags)
envs=$(directive env)
args=$(directive args)
set -f      # the words above are split at blanks, never globbed

# `// ranks: N`: the number of nodes of both runs (the last such line).
ranks=
if grep -q '// ranks:' "$file"; then
    ranks=$(sed -n 's|^.*// ranks:[ 	]*||p' "$file" | tail -n 1 | sed 's/[ 	]*$//')
    case $ranks in
    '' | 0* | *[!0-9]*) fail "bad // ranks: line (a number of nodes, 1 or more, was expected)" ;;
    esac
    case $file in
    */run/*.mos | run/*.mos | */run-fail/*.mos | run-fail/*.mos) ;;
    *) fail "// ranks: is for run/ and run-fail/ tests only" ;;
    esac
    where="with MOSAIC_NODES=$ranks: "
fi
# How the program is compiled and run: "local" (run 1), or "mpi" (run 2 of
# a `// ranks:` test: compiled with --distributed, run under mpirun).
mode=local

# status_text N: a wait status in words.
status_text() {
    case $1 in
    124) echo "timed out" ;;
    1[2-9][0-9] | 2[0-5][0-9])
        if [ "$1" -gt 128 ]; then echo "status $1 (signal $(($1 - 128)))"; else echo "status $1"; fi ;;
    *) echo "status $1" ;;
    esac
}

# compile [FLAG...]: builds $tmp/prog, with these flags after the test's;
# sets cstatus; stderr in $tmp/compile.err.
compile() {
    # shellcheck disable=SC2086
    $compile_timeout "$mosaicc" $flags "$@" -o "$tmp/prog" "$file" \
        >"$tmp/compile.out" 2>"$tmp/compile.err" </dev/null
    cstatus=$?
}

# run_program: runs $tmp/prog in the fresh, empty directory $tmp/cwd, with
# the `// stdin:` lines as its input (under mpirun -np N in mode mpi, else
# with MOSAIC_NODES=N for a `// ranks: N` test); sets rstatus; output in
# $tmp/stdout, $tmp/stderr.
run_program() {
    if grep -q '// stdin:' "$file"; then
        directive_lines stdin >"$tmp/stdin"
        input=$tmp/stdin
    else
        input=/dev/null
    fi
    rm -rf "$tmp/cwd"
    mkdir "$tmp/cwd" || fail "cannot make the program's working directory"
    if [ "$mode" = mpi ]; then
        # The `// env:` variables are in mpirun's environment, and named
        # with -x so that it passes them on to every rank.  timeout puts
        # itself and mpirun (and so the ranks) in a process group of their
        # own, and signals that whole group when the time is up.
        exports=
        for kv in $envs; do
            exports="$exports -x ${kv%%=*}"
        done
        # Each mpirun keeps its session directory under the test's own
        # $tmp: Open MPI's shared one in /tmp can fail to be made when two
        # mpiruns start at the same moment ("mkdir ... File exists").
        # shellcheck disable=SC2086
        (cd "$tmp/cwd" && exec env OMPI_MCA_orte_tmpdir_base="$tmp" $envs $run_timeout \
            mpirun --allow-run-as-root --oversubscribe -np "$ranks" $exports "$tmp/prog" $args) \
            >"$tmp/stdout" 2>"$tmp/stderr" <"$input"
        rstatus=$?
        return
    fi
    # MOSAIC_NODES=N comes first, so that the test's own `// env:` wins.
    nodes=
    [ -n "$ranks" ] && nodes=MOSAIC_NODES=$ranks
    # shellcheck disable=SC2086
    (cd "$tmp/cwd" && exec env $nodes $envs $run_timeout "$tmp/prog" $args) \
        >"$tmp/stdout" 2>"$tmp/stderr" <"$input"
    rstatus=$?
}

# distributed CHECK: for a `// ranks: N` test whose first run passed, the
# second: compiled with --distributed and run under mpirun -np N, then
# checked by the function CHECK as the first run was (which fails, or
# returns).  Skipped, with a diagnostic, unless MOSAIC_MPI is yes.
distributed() {
    [ -n "$ranks" ] || return 0
    if [ "${MOSAIC_MPI:-no}" != yes ]; then
        echo "# distributed run skipped: MOSAIC_MPI is ${MOSAIC_MPI:-unset}, not yes (passed with MOSAIC_NODES=$ranks only)"
        return 0
    fi
    mode=mpi
    where="under mpirun -np $ranks: "
    command -v mpirun >/dev/null 2>&1 || fail "MOSAIC_MPI is yes, but there is no mpirun on the PATH"
    compile --distributed
    [ "$cstatus" -eq 0 ] ||
        fail "compilation with --distributed failed ($(status_text "$cstatus"))" "$tmp/compile.err"
    $1
}

# check_remote: if the flags ask for --count-remote, checks the program's
# remote-access report in $tmp/stderr against the `// remote` marks (fails
# on a mismatch); without that flag there must be no marks.
check_remote() {
    # Marked lines: `// remote` ending the line or followed by a blank, and
    # neither within the text of another directive (`// expect: // remote`)
    # nor within a string literal.
    awk '{
        line = $0; pre = ""
        while (i = index(line, "// remote")) {
            after = substr(line, i + 9, 1)
            before = pre substr(line, 1, i - 1)
            q = before
            gsub(/\\\\/, "", q); gsub(/\\"/, "", q)
            if ((after == "" || after == " " || after == "\t") &&
                before !~ /\/\/ *(expect|expect-exit|expect-error|stdin|flags|env|args|ranks|runtime-error|effects):/ &&
                gsub(/"/, "", q) % 2 == 0) {
                print NR
                next
            }
            pre = pre substr(line, 1, i + 8)
            line = substr(line, i + 9)
        }
    }' "$file" | sort -u >"$tmp/marked"
    counting=
    for w in $flags; do
        [ "$w" = --count-remote ] && counting=yes
    done
    if [ -z "$counting" ]; then
        if [ -s "$tmp/marked" ]; then
            fail "lines marked // remote ($(tr '\n' ' ' <"$tmp/marked" | sed 's/ $//')), but no --count-remote in the // flags:"
        fi
        return 0
    fi

    grep -q '^remote accesses: ' "$tmp/stderr" ||
        fail "stderr has no 'remote accesses: ' line (the --count-remote report)" "$tmp/stderr" "$tmp/stdout"
    # Reported: "LINE ok" or "LINE np" (not predicted) for each `at` line,
    # LINE being the number after the last ':' before ': N reads'; "? bad"
    # for an `at` line of another form.  The frames a -g program prints
    # after a runtime error (`  at NAME (FILE:LINE)`) are not the report's.
    awk '/^  at .* \([^()]*:[0-9]+\)$/ { next }
    /^  at / {
        if (match($0, /:[0-9]+: [0-9]+ reads, [0-9]+ writes/)) {
            s = substr($0, RSTART + 1, RLENGTH - 1)
            sub(/:.*$/, "", s)
            print s, (/ \(not predicted\)[ \t]*$/ ? "np" : "ok")
        } else
            print "?", "bad"
    }' "$tmp/stderr" >"$tmp/remote-at"
    awk '$1 != "?" { print $1 }' "$tmp/remote-at" | sort -u >"$tmp/remote-lines"
    {
        comm -23 "$tmp/marked" "$tmp/remote-lines" |
            awk '{ printf "line %s: marked // remote, but not reported\n", $1 }'
        comm -13 "$tmp/marked" "$tmp/remote-lines" |
            awk '{ printf "line %s: reported, but not marked // remote\n", $1 }'
        awk '$2 == "np" { printf "line %s: reported (not predicted)\n", $1 }' "$tmp/remote-at" | sort -u
    } | sort -k 2,2n >"$tmp/remote-mismatch"
    if grep -q '^? bad$' "$tmp/remote-at"; then
        echo "an '  at ' line not of the form '  at FILE:LINE: N reads, M writes'" >>"$tmp/remote-mismatch"
    fi
    if [ -s "$tmp/remote-mismatch" ]; then
        fail "remote-access report differs from the // remote marks" "$tmp/remote-mismatch" "$tmp/stderr"
    fi
}

# ---- the kinds of tests -----------------------------------------------------

test_run() {
    compile
    [ "$cstatus" -eq 0 ] || fail "compilation failed ($(status_text "$cstatus"))" "$tmp/compile.err"
    # A program annotated with `// warning[CODE]` gets exactly those
    # warnings (docs/warnings.md), each on its line.
    if grep -q '// *.*warning\[[A-Z][0-9]*\]' "$file"; then
        annotated_diagnostics >"$tmp/annotated"
        reported_diagnostics /dev/null >"$tmp/reported"
        compare_diagnostics
    fi
    check_run
    distributed check_run
    pass
}

# check_run: runs the program and fails unless its stdout, exit status and
# remote-access report are as the run/ test expects.
check_run() {
    run_program

    directive_lines expect >"$tmp/expected"
    # A missing final newline is not a difference worth a failure.
    if [ -s "$tmp/stdout" ] && [ "$(tail -c 1 "$tmp/stdout" | wc -l)" -eq 0 ]; then
        echo >>"$tmp/stdout"
    fi
    want=$(sed -n 's|^.*// expect-exit:[ 	]*\(-\{0,1\}[0-9][0-9]*\).*$|\1|p' "$file" | tail -n 1)
    want=${want:-0}

    if ! cmp -s "$tmp/expected" "$tmp/stdout"; then
        diff -u "$tmp/expected" "$tmp/stdout" | sed '1,2d' >"$tmp/stdout.diff"
        fail "stdout differs from the // expect: lines (- expected, + actual); $(status_text "$rstatus")" \
            "$tmp/stdout.diff" "$tmp/stderr"
    fi
    [ "$rstatus" -eq "$want" ] || fail "exit status: expected $want, got $(status_text "$rstatus")" "$tmp/stderr"
    check_remote
}

# annotated_diagnostics: "error 12 E0200" for each `error[E0200]` (and
# "warning 3 W0001" for each `warning[W0001]`) in a comment of the file.
annotated_diagnostics() {
    awk '{
        i = index($0, "//")
        if (!i) next
        rest = substr($0, i)
        while (match(rest, /(error|warning)\[[A-Z][0-9]+\]/)) {
            t = substr(rest, RSTART, RLENGTH)
            split(t, p, "[")
            print p[1], NR, substr(p[2], 1, length(p[2]) - 1)
            rest = substr(rest, RSTART + RLENGTH)
        }
    }' "$file" | sort -u
}

# reported_diagnostics ANYFILE: the same triples from the compiler's
# diagnostics, leaving out the codes listed in ANYFILE.
reported_diagnostics() {
    awk -v anyfile="$1" '
        BEGIN { while ((getline c < anyfile) > 0) any[c] = 1 }
        /^[^ ]/ && match($0, /:[0-9]+:[0-9]+: (error|warning)\[[A-Z][0-9]+\]: /) {
            s = substr($0, RSTART + 1, RLENGTH - 1)
            split(s, p, ":")
            kind = (s ~ /: error\[/) ? "error" : "warning"
            match(s, /\[[A-Z][0-9]+\]/)
            code = substr(s, RSTART + 1, RLENGTH - 2)
            if (!(code in any)) print kind, p[1], code
        }' "$tmp/compile.err" | sort -u
}

# compare_diagnostics: fails unless $tmp/annotated equals $tmp/reported.
compare_diagnostics() {
    if ! cmp -s "$tmp/annotated" "$tmp/reported"; then
        {
            comm -23 "$tmp/annotated" "$tmp/reported" |
                awk '{ printf "line %s: missing %s[%s]\n", $2, $1, $3 }'
            comm -13 "$tmp/annotated" "$tmp/reported" |
                awk '{ printf "line %s: unexpected %s[%s]\n", $2, $1, $3 }'
        } | sort -k 2,2n >"$tmp/mismatch"
        fail "reported diagnostics differ from the annotations" "$tmp/mismatch" "$tmp/compile.err"
    fi
}

test_compile_fail() {
    compile
    case $cstatus in
    1) ;;
    0) fail "compiled successfully; errors were expected" "$tmp/compile.err" ;;
    *) fail "compilation ended with $(status_text "$cstatus"); expected status 1" "$tmp/compile.err" ;;
    esac

    # Codes that may be reported anywhere (`// expect-error: CODE`).
    sed -n 's|^.*// expect-error:[ 	]*\([A-Z][0-9][0-9]*\).*$|\1|p' "$file" | sort -u >"$tmp/anywhere"

    annotated_diagnostics >"$tmp/annotated"
    reported_diagnostics "$tmp/anywhere" >"$tmp/reported"

    problems=
    while read -r code; do
        grep -q "error\[$code\]" "$tmp/compile.err" || problems="$problems $code"
    done <"$tmp/anywhere"
    if [ -n "$problems" ]; then
        fail "expected error code(s) not reported:$problems" "$tmp/compile.err"
    fi

    compare_diagnostics
    pass
}

test_run_fail() {
    compile
    [ "$cstatus" -eq 0 ] || fail "compilation failed ($(status_text "$cstatus"))" "$tmp/compile.err"
    check_run_fail
    distributed check_run_fail
    pass
}

# check_run_fail: runs the program and fails unless it ends with the
# runtime error the run-fail/ test expects (and the remote-access report).
check_run_fail() {
    run_program
    [ "$rstatus" -eq 101 ] || fail "expected a runtime error (status 101), got $(status_text "$rstatus")" \
        "$tmp/stderr" "$tmp/stdout"

    check_remote
    line=$(awk 'index($0, "// runtime-error:") { print NR; exit }' "$file")
    [ -n "$line" ] || return 0
    text=$(awk 'i = index($0, "// runtime-error:") {
            t = substr($0, i + 17); sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t); print t; exit
        }' "$file")
    if LINE=$line TEXT=$text awk '
        $0 ~ (":" ENVIRON["LINE"] ":[0-9]+: runtime error: ") {
            if (index(substr($0, index($0, "runtime error: ")), ENVIRON["TEXT"])) found = 1
        }
        END { exit !found }' "$tmp/stderr"; then
        return 0
    fi
    fail "stderr has no 'FILE:$line:COL: runtime error: ...$text...' line" "$tmp/stderr"
}

test_effects() {
    # shellcheck disable=SC2086
    $compile_timeout "$mosaicc" $flags --effects "$file" \
        >"$tmp/effects.out" 2>"$tmp/compile.err" </dev/null
    cstatus=$?
    [ "$cstatus" -eq 0 ] || fail "mosaicc --effects failed ($(status_text "$cstatus"))" "$tmp/compile.err"
    directive_lines effects | sed 's/^[[:blank:]]*//; s/[[:blank:]]*$//' >"$tmp/expected"
    awk -v outfile="$tmp/effects.out" '
        BEGIN { while ((getline l < outfile) > 0) { sub(/[ \t]+$/, "", l); sub(/^[ \t]+/, "", l); have[l] = 1 } }
        !($0 in have) { print "missing: " $0; bad = 1 }
        END { exit bad }' "$tmp/expected" >"$tmp/missing" ||
        fail "effect report lacks expected lines" "$tmp/missing" "$tmp/effects.out"
    pass
}

test_ir() {
    # shellcheck disable=SC2086
    $compile_timeout "$mosaicc" $flags --emit=llvm -o "$tmp/prog.ll" "$file" \
        >"$tmp/compile.out" 2>"$tmp/compile.err" </dev/null
    cstatus=$?
    [ "$cstatus" -eq 0 ] || fail "mosaicc --emit=llvm failed ($(status_text "$cstatus"))" "$tmp/compile.err"
    fn=$(sed -n 's|^.*// ir-function:[ 	]*||p' "$file" | head -n 1 | sed 's/[ 	]*$//')
    if [ -n "$fn" ]; then
        FN=$fn awk '
            /^define / {
                inside = index($0, "@" ENVIRON["FN"] "(") || index($0, "@\"" ENVIRON["FN"] "\"(")
            }
            inside { print }
            /^}/ { inside = 0 }' "$tmp/prog.ll" >"$tmp/selected.ll"
        [ -s "$tmp/selected.ll" ] || fail "no function @$fn in the IR" "$tmp/prog.ll"
    else
        cp "$tmp/prog.ll" "$tmp/selected.ll"
    fi
    : >"$tmp/problems"
    sed -n 's|^.*// ir-has:[ 	]*||p' "$file" | sed 's/[ 	]*$//' | while IFS= read -r want; do
        grep -qF -- "$want" "$tmp/selected.ll" || echo "missing: $want" >>"$tmp/problems"
    done
    sed -n 's|^.*// ir-lacks:[ 	]*||p' "$file" | sed 's/[ 	]*$//' | while IFS= read -r bad; do
        grep -qF -- "$bad" "$tmp/selected.ll" && echo "present: $bad" >>"$tmp/problems"
    done
    [ -s "$tmp/problems" ] && fail "the IR does not have the expected shape" "$tmp/problems" "$tmp/selected.ll"
    pass
}

case $file in
*/ir/*.mos | ir/*.mos) test_ir ;;
*/run/*.mos | run/*.mos) test_run ;;
*/compile-fail/*.mos | compile-fail/*.mos) test_compile_fail ;;
*/run-fail/*.mos | run-fail/*.mos) test_run_fail ;;
*/effects/*.mos | effects/*.mos) test_effects ;;
*) fail "cannot tell the kind of test from the path $file" ;;
esac

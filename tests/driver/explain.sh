#!/bin/sh
# explain.sh — `mosaicc --explain CODE` and the pages behind it
# (docs/errors/README.md gives their format).
#
# For every code of support/errors.def: there is a page docs/errors/CODE.md
# (and no page for a code not in the table) whose first line is
# "# CODE: MEANING" with the table's MEANING; `mosaicc --explain CODE`
# prints it byte for byte, with status 0; its ```mosaic wrong block fails
# `mosaicc --check` with status 1 and only error[CODE]; its ```mosaic fixed
# block passes `mosaicc --check` and also compiles and runs with status 0.
# A page without examples is allowed only for a code that no source file
# of the compiler reports.  Then the usage errors (an unknown code, a
# missing one, one given twice), the other spellings of a code, and the
# note that ends a run with errors.
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
table=$src/support/errors.def
pages=$src/docs/errors
[ -r "$table" ] && [ -d "$pages" ] || { echo "Bail out! no $table or $pages"; exit 99; }
case $mosaicc in /*) ;; *) mosaicc=$(pwd)/$mosaicc ;; esac
if command -v timeout >/dev/null 2>&1; then limit="timeout -k 5 120"; else limit=; fi

# The codes, in the table's order, and what each means.
codes=$(sed -n 's/^DIAG_CODE(\([EW][0-9][0-9]*\), *".*$/\1/p' "$table")
meaning() {
    sed -n "s/^DIAG_CODE($1, *\"\\(.*\\)\").*\$/\\1/p" "$table"
}
ncodes=$(echo "$codes" | wc -l)
[ "$ncodes" -gt 0 ] || { echo "Bail out! no codes in $table"; exit 99; }

# The pure TAP skip, for the examples of a page that has none.
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}

# show FILE: its lines as TAP diagnostics.
show() {
    sed 's/^/#   /' "$1"
}

echo "1..$((1 + 5 * ncodes + 14))"

# ---- one page per code, and no other page -------------------------------

echo "$codes" | sort >"$tmp/codes"
(cd "$pages" && ls) | sed -n 's/^\([EW][0-9][0-9]*\)\.md$/\1/p' | sort >"$tmp/pages"
comm -23 "$tmp/codes" "$tmp/pages" | sed 's/^/# no page for /'
comm -13 "$tmp/codes" "$tmp/pages" | sed 's/^/# a page for a code not in errors.def: /'
cmp -s "$tmp/codes" "$tmp/pages"
check "every code of support/errors.def has a page, and every page a code" $?

# ---- each page -------------------------------------------------------------

# split_page CODE: writes $tmp/CODE.wrong.mos and $tmp/CODE.fixed.mos
# (and their .flags, the options after the label), and prints the labels
# of the page's ```mosaic blocks in order, "unclosed" for a block with no
# closing fence.
split_page() {
    awk -v dir="$tmp" -v code="$1" '
        inside && /^```[ \t]*$/ { close(f); close(ff); inside = 0; next }
        inside { print >f; next }
        /^```mosaic([ \t]|$)/ {
            label = $2
            print (label == "" ? "(none)" : label)
            if (label != "wrong" && label != "fixed") { f = "/dev/null"; ff = "/dev/null" }
            else { f = dir "/" code "." label ".mos"; ff = dir "/" code "." label ".flags" }
            flags = ""
            for (i = 3; i <= NF; i++) flags = flags " " $i
            printf "%s\n", flags >ff
            printf "" >f
            inside = 1
            next
        }
        END { if (inside) print "unclosed" }
    ' "$pages/$1.md"
}

# reported CODE: whether a source file of the compiler names DIAG_CODE.
reported() {
    find "$src/lexer" "$src/parser" "$src/typecheck" "$src/codegen" "$src/driver" \
        "$src/support" "$src/stdlib" -type f \( -name '*.[chyl]' -o -name '*.def' \) \
        -exec grep -lw "DIAG_$1" {} + | grep -q .
}

for code in $codes; do
    page=$pages/$code.md
    if [ ! -f "$page" ]; then
        for what in "its page has the format" "--explain prints it" "the wrong example" \
            "the fixed example passes --check" "the fixed example runs"; do
            check "$code: $what (no page)" 1
        done
        continue
    fi

    # The format: the title, then terminal-friendly text.
    want="# $code: $(meaning "$code")"
    problems=
    [ "$(head -n 1 "$page")" = "$want" ] || problems="$problems; the first line is not '$want'"
    [ "$(tail -c 1 "$page" | wc -l)" -eq 1 ] || problems="$problems; no newline at the end"
    awk 'length($0) > 76 { exit 1 }' "$page" || problems="$problems; a line is over 76 columns"
    LC_ALL=C grep -q "$(printf '[^ -~]')" "$page" && problems="$problems; a tab or a byte that is not printable ASCII"
    [ -n "$problems" ] && echo "#${problems#;}"
    [ -z "$problems" ]
    check "$code: the page has the format of docs/errors/README.md" $?

    "$mosaicc" --explain "$code" >"$tmp/out" 2>"$tmp/err"
    st=$?
    cmp -s "$page" "$tmp/out" && [ $st -eq 0 ] && [ ! -s "$tmp/err" ]
    ok=$?
    [ $ok -ne 0 ] && { echo "# status $st"; diff "$page" "$tmp/out" | show /dev/stdin; show "$tmp/err"; }
    check "$code: mosaicc --explain $code prints the page (status $st)" $ok

    labels=$(split_page "$code" | tr '\n' ' ')
    if [ -z "$labels" ]; then
        if reported "$code"; then
            echo "# the compiler reports $code, so its page needs examples"
            check "$code: a page without examples is for a code the compiler never reports" 1
        else
            check "$code: no example, and no source file of the compiler reports $code" 0
        fi
        skip "$code: the fixed example passes --check" "the page has no example"
        skip "$code: the fixed example runs" "the page has no example"
        continue
    fi
    if [ "$labels" != "wrong fixed " ]; then
        echo "# the page's mosaic blocks are: $labels(expected one 'wrong', then one 'fixed')"
        check "$code: the wrong example gets $code" 1
        check "$code: the fixed example passes --check" 1
        check "$code: the fixed example runs" 1
        continue
    fi

    set -f      # the flags are words, never globbed
    # shellcheck disable=SC2046
    (cd "$tmp" && $limit "$mosaicc" --check $(cat "$code.wrong.flags") "$code.wrong.mos") \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    # an error's example fails with status 1; a warning's compiles (status
    # 0) with that warning: both report their code and no other
    case $code in W*) kind=warning want=0 ;; *) kind=error want=1 ;; esac
    others=$(grep -o '\(error\|warning\)\[[A-Z][0-9]*\]' "$tmp/err" | grep -v "$kind\\[$code\\]")
    [ $st -eq $want ] && grep -q "$kind\\[$code\\]" "$tmp/err" && [ -z "$others" ]
    ok=$?
    [ $ok -ne 0 ] && show "$tmp/err"
    check "$code: the wrong example gets $kind[$code] only (status $st)" $ok

    # shellcheck disable=SC2046
    (cd "$tmp" && $limit "$mosaicc" --check $(cat "$code.fixed.flags") "$code.fixed.mos") \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    [ $st -eq 0 ] && [ ! -s "$tmp/err" ]
    ok=$?
    [ $ok -ne 0 ] && show "$tmp/err"
    check "$code: the fixed example passes --check (status $st)" $ok

    # shellcheck disable=SC2046
    (cd "$tmp" && $limit "$mosaicc" -O0 --run $(cat "$code.fixed.flags") "$code.fixed.mos") \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    [ $st -ne 0 ] && show "$tmp/err"
    check "$code: the fixed example compiles and runs (status $st)" $st
    set +f
done

# ---- the command line --------------------------------------------------------

cd "$tmp" || exit 99
"$mosaicc" --explain E9999 >out 2>err
st=$?
[ $st -eq 2 ] && [ ! -s out ] && [ "$(head -n 1 err)" = "mosaicc: error: no such error code 'E9999'" ] &&
    grep -q '^note: the codes are E0001, ' err && grep -q "$(echo "$codes" | tail -n 1)\$" err
check "an unknown code: status 2, the message and the list of codes (status $st)" $?

"$mosaicc" --explain foo >out 2>err
st=$?
[ $st -eq 2 ] && [ ! -s out ] && [ "$(head -n 1 err)" = "mosaicc: error: no such error code 'foo'" ]
check "a word that is no code: status 2 (status $st)" $?

"$mosaicc" --explain E0030 >out 2>err
[ $? -eq 2 ] && grep -q "^note: did you mean 'E0300'?\$" err
check "a misspelt code gets a suggestion" $?

"$mosaicc" --explain >out 2>err
st=$?
[ $st -eq 2 ] && [ ! -s out ] && grep -q "^mosaicc: error: option '--explain' needs a value" err
check "--explain without a code: status 2 (status $st)" $?

"$mosaicc" --explain= >out 2>err
[ $? -eq 2 ] && [ ! -s out ]
check "--explain= with an empty code: status 2" $?

"$mosaicc" --explain E0300 --explain E0100 >out 2>err
[ $? -eq 2 ] && [ ! -s out ]
check "--explain given twice: status 2" $?

"$mosaicc" --explain e0300 >out 2>err && cmp -s "$pages/E0300.md" out
check "a code in lower case: e0300" $?

"$mosaicc" --explain=E0300 >out 2>err && cmp -s "$pages/E0300.md" out &&
    "$mosaicc" --explain 0300 >out 2>err && cmp -s "$pages/E0300.md" out
check "--explain=E0300, and the digits alone" $?

"$mosaicc" --check --explain E0300 no-such-file.mos -O7 >out 2>err && cmp -s "$pages/E0300.md" out &&
    [ ! -s err ]
check "--explain ignores the input file and the other options" $?

"$mosaicc" --help | grep -q -- '--explain CODE'
check "--help lists --explain" $?

# ---- the note after errors ---------------------------------------------------

printf 'def main() {\n  println(nope)\n}\n' >one.mos
"$mosaicc" --check one.mos 2>err
[ $? -eq 1 ] && [ "$(tail -n 1 err)" = "note: run 'mosaicc --explain E0100' for more about this error" ]
ok=$?
[ $ok -ne 0 ] && show err
check "a run with errors of one code ends with a note naming --explain CODE" $ok

printf 'def main() {\n  var x: int = "a"\n  println(nope)\n  println(nada)\n}\n' >two.mos
"$mosaicc" --check two.mos 2>err
[ $? -eq 1 ] &&
    [ "$(tail -n 1 err)" = "note: run 'mosaicc --explain CODE' for more about the errors E0100 and E0200" ] &&
    [ "$(grep -c -- '--explain' err)" -eq 1 ]
ok=$?
[ $ok -ne 0 ] && show err
check "errors of several codes: one note, listing each code once" $ok

printf 'def main(): int {\n  return 1\n}\n' >exit1.mos
"$mosaicc" --run exit1.mos 2>err
[ $? -eq 1 ] && ! grep -q -- '--explain' err
check "no note when the compiled program itself exits with status 1" $?

"$mosaicc" --check exit1.mos 2>err
[ $? -eq 0 ] && [ ! -s err ]
check "no note after a successful compilation" $?

exit $failed

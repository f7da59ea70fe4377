#!/bin/sh
# library_io.sh — the input and output of LANGUAGE.md §8 as a user sees
# it in a shell: standard output and standard error in program order in
# one file, exit flushing block-buffered output, read_line on lines longer
# than any buffer and on a large input.
. "$(dirname "$0")/tap.sh"

echo "1..4"
cat >"$tmp/order.mos" <<'MOS'
def main() {
  println("out 1")
  eprintln("err 1")
  print("out 2")
  eprint(" err ")
  eprintln(2)
  println("out 3")
  exit(3)
}
MOS
cat >"$tmp/lines.mos" <<'MOS'
def main() {
  var lines = 0
  var bytes = 0
  while not eof() {
    bytes += read_line().length
    lines += 1
  }
  println(lines + " " + bytes)
}
MOS
"$mosaicc" -o "$tmp/order" "$tmp/order.mos" && "$mosaicc" -o "$tmp/lines" "$tmp/lines.mos" || exit 99

"$tmp/order" >"$tmp/both" 2>&1
st=$?
printf 'out 1\nerr 1\nout 2 err 2\nout 3\n' >"$tmp/want"
cmp -s "$tmp/both" "$tmp/want"
check "stdout and stderr in one file come out in program order" $?
[ $st -eq 3 ]
check "exit(3) ends with status 3 after flushing (got $st)" $?

awk 'BEGIN { for (i = 0; i < 300000; i++) printf "x"; printf "\n"; printf "y\r\n" }' >"$tmp/long"
[ "$("$tmp/lines" <"$tmp/long")" = "2 300001" ]
check "read_line returns a 300,000-byte line whole, and drops the CR of a CR LF" $?

awk 'BEGIN { for (i = 0; i < 200000; i++) print "line " i }' >"$tmp/many"
[ "$("$tmp/lines" <"$tmp/many")" = "200000 2088890" ]
check "read_line over 200,000 lines" $?
exit $failed

#!/bin/sh
# habits.sh — a mistake that comes from another language (C's `&&`, `||`,
# `!`, `++`, `--`, `=` in a condition, 'c'; a keyword as a name) or from
# the fingers (`prinltn`, `def mian`) gets its error and a note that says
# what Mosaic writes instead; a list whose closer is on a line of its own
# says to end the line with ','.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..29"

# habit NOTE-TEXT SOURCE...: compiling SOURCE fails (status 1) and says NOTE-TEXT.
habit() {
    want=$1
    shift
    printf '%s\n' "$@" >h.mos
    "$mosaicc" --check h.mos 2>err
    [ $? -eq 1 ] && grep -qF "note: $want" err
}

habit "Mosaic writes 'and' where C writes '&&'" 'def main() { if true && false { } }'
check "&& is answered with 'and'" $?
habit "Mosaic writes 'or' where C writes '||'" 'def main() { if true || false { } }'
check "|| is answered with 'or'" $?
habit "Mosaic writes 'not x' where C writes '!x'" 'def main() { let b = !true }'
check "!x is answered with 'not x'" $?
habit "Mosaic has no '++': write 'x += 1'" 'def main() {' '  var i = 0' '  i++' '}'
check "i++ is answered with 'x += 1'" $?
habit "Mosaic has no '--': write 'x -= 1'" 'def main() {' '  var i = 0' '  i--' '}'
check "i-- is answered with 'x -= 1'" $?
habit "to compare, write '=='" 'def main() {' '  var x = 1' '  if x = 1 { }' '}'
check "= in a condition is answered with '=='" $?
habit "write a string: \"a\"" "def main() { let c = 'a' }"
check "'a' is answered with the string \"a\"" $?
habit "'val' is a keyword of Mosaic and cannot be a name" 'def main() { let val = 3 }'
check "a keyword as a name says it is a keyword" $?
habit "did you mean 'println'?" 'def main() { prinltn(1) }'
check "a misspelt built-in is answered with the built-in (a transposition is one edit)" $?
habit "did you mean 'main'? this function is 'mian'" 'def mian() { }'
check "def mian() is answered with 'main'" $?
habit "a message's answer is a future: wait for its value with 'get a!f()'" 'active class A { def f(): int { return 1 } }' 'def main() {' '  let a = new A' '  let x: int = a!f()' '}'
check "a future where its value is expected is answered with 'get'" $?
habit "'T' is a place parameter of 'Box'" 'class Box<T> {' '  var item: T' '}' 'def main() {}'
check "class Box<T> used as a generic says what '<...>' lists" $?
printf 'def main() { println((1 + 2) }\n' >u.mos
"$mosaicc" --check u.mos 2>err
[ $? -eq 1 ] && grep -q "^u.mos:1:21: note: this '(' is not closed" err
check "an unclosed '(' is shown where it opens" $?
habit "Mosaic has no enums" 'enum Color { Red, Green }' 'def main() {}'
check "an enum says what to use instead" $?
habit "Mosaic has no 'match'" 'def main() {' '  let x = 1' '  match x {' '  }' '}'
check "a match says what to use instead" $?
habit "Mosaic has no lambdas or function values ('=>')" 'def main() {' '  let f = (x) => x + 1' '}'
check "a lambda says what to use instead" $?
printf 'def main() {\n  let sum = 1\n  println(sun)\n}\n' >s.mos
"$mosaicc" --check s.mos 2>err
[ $? -eq 1 ] && grep -q "^s.mos:2:7: note: did you mean 'sum'?" err
check "a did-you-mean for a local points at its declaration (the README's example)" $?

# once SOURCE...: compiling SOURCE fails with exactly one error.
once() {
    printf '%s\n' "$@" >o.mos
    "$mosaicc" --check o.mos 2>err
    [ $? -eq 1 ] && [ "$(grep -c 'error\[' err)" -eq 1 ]
}

once 'interface Shape {' '  def area(): float' '  def name(): string' '}' 'def main() {}'
check "an interface with method signatures is one error" $?
once 'def main() {' '  let x = 2' '  match x {' '    1 => println("one")' '    _ => println("other")' '  }' '  println(x)' '}'
check "a match with arms is one error" $?
once 'trait Named {' '  def name(): string { return "?" }' '}' 'def main() {}'
check "a trait is one error" $?
once 'def main() {' '  switch (3) {' '    case 1: println("a")' '    default: { println("b") }' '  }' '}'
check "a switch with a nested block is one error" $?
habit "Mosaic has no lambdas or function values: declare" 'def main() {' '  let f = fn(a: int) => a + 1' '}'
check "fn(a: int) => ... says what to use instead" $?
habit "Mosaic has no lambdas or function values: declare" 'def main() {' '  let g = |a| a + 1' '}'
check "|a| a + 1 says what to use instead" $?
printf 'interface Shape {\n  def area(): float\n}\ndef main() {\n  match 3 {\n    1 => 2\n  }\n  let = 3\n}\n' >a.mos
"$mosaicc" --check a.mos 2>err
[ $? -eq 1 ] && [ "$(grep -c 'error\[' err)" -eq 3 ] && grep -q "^a.mos:8:7: error\[E0002\]" err
check "errors after a skipped interface or match are still reported" $?
habit "'Map' is the built-in type Map<K, V> and cannot be a name" 'class Map<n> {' '  var x: int' '}' 'def main() {}'
check "class Map<n> says that Map is the built-in map type" $?
habit "a newline after an element ends the statement (the rule Go uses): end the line with ',' to go on with the list on the next line" 'def main() {' '  let xs = [' '    1,' '    2' '  ]' '  println(xs.length)' '}'
check "a list closed on a line of its own says to end the last line with ','" $?
once 'def main() {' '  let xs = [' '    1,' '    2' '  ]' '  println(xs.length)' '}'
check "... and is one error, not one more at its ']'" $?
habit "a newline after an element ends the statement (the rule Go uses): end the line with ',' to go on with the arguments on the next line" 'def main() {' '  println(1 +' '    2' '  )' '}'
check "arguments closed on a line of their own say the same" $?
printf 'def main() {\n  let xs = [\n    1\n  ]\n  let y: int = "s"\n}\n' >l.mos
"$mosaicc" --check l.mos 2>err
[ $? -eq 1 ] && [ "$(grep -c 'error\[' err)" -eq 1 ] && grep -q "^l.mos:3:6: error\[E0002\]" err
check "the statements after such a list are still parsed" $?

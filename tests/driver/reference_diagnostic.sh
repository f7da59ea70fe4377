#!/bin/sh
# reference_diagnostic.sh — LANGUAGE.md §7's example diagnostic: a place
# mismatch in an assignment is reported at the assignment, the whole of it
# underlined, with a note where the target was declared.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..3"

cat >bank.mos <<'MOS'
class Account<n> { var balance: int }
class Holder<n, m> {
  var acc: Account<n>
  def set(other: Account<m>) {
    acc = other
  }
}
def main() {}
MOS
"$mosaicc" --check --color=never bank.mos 2>err
status=$?
[ $status -eq 1 ] && sed -n 1,3p err | cmp -s - /dev/fd/3 3<<'EOF'
bank.mos:5:5: error[E0300]: place mismatch: expected 'Account<n>', found 'Account<m>'
    5 |     acc = other
      |     ^~~~~~~~~~~
EOF
check "at the assignment, the whole assignment underlined" $?
grep -q "^bank.mos:3:3: note: 'acc' declared here$" err
check "a note where the target was declared" $?

cat >local.mos <<'MOS'
class Account { var balance: int }
def main() {
  var a = new Account
  let b = new Account<node(1)>
  a = b
}
MOS
"$mosaicc" --check local.mos 2>err
[ $? -eq 1 ] && grep -q "^local.mos:5:3: error\[E0300\]" err &&
    grep -q "^local.mos:3:7: note: 'a' declared here$" err
check "the same for a local variable" $?
exit $failed

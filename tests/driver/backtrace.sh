#!/bin/sh
# backtrace.sh — what a runtime error prints after its message in a
# program built with -g: the Mosaic frames, innermost first, at the lines
# they were at (docs/debugging.md), in functions, methods and
# constructors, at -O0 and -O2, in an actor's turn that waited in `get`
# and went on, and for a stack overflow; a deadlock lists every waiter and
# its frames.  Without -g the message stands alone, as LANGUAGE.md §6 has it.
. "$(dirname "$0")/tap.sh"
cd "$tmp" || exit 99
echo "1..9"

# run PROGRAM: runs it (any VAR=VALUE words first), stderr in `err`
# without what a sanitizer build of the runtime adds to it (AddressSanitizer
# warns when a stack overflow is reported from deep in a recursion);
# succeeds when the status is 101.
run() {
    env "$@" 2>err.raw
    st=$?
    grep -v -e '^==[0-9]*==WARNING: ASan' -e '^False positive error reports may follow$' \
        -e '^For details see https://github.com/google/sanitizers/' err.raw >err
    [ "$st" -eq 101 ]
}

cat >oob.mos <<'MOS'
def get_at(xs: [int], i: int): int {
  return xs[i]
}

def main() {
  println(get_at([1, 2, 3], 5))
}
MOS
cat >oob.expected <<'TXT'
oob.mos:2:10: runtime error: index out of bounds: index 5, length 3
  at get_at (oob.mos:2)
  at main (oob.mos:6)
TXT
"$mosaicc" -g -O0 -o oob oob.mos && run ./oob && cmp -s err oob.expected
check "-g -O0: the message, then the frames" $?
"$mosaicc" -g -O2 -o oob oob.mos && run ./oob && cmp -s err oob.expected
check "-g -O2: the same frames, inlined or not" $?
"$mosaicc" -o oob oob.mos && run ./oob && head -n 1 oob.expected | cmp -s err -
check "without -g: the message alone" $?

cat >ctor.mos <<'MOS'
class Box {
  var size: int = 10 / zero()
}

def zero(): int { return 0 }

class Maker {
  def make(): Box {
    return new Box
  }
}

def main() {
  let m = new Maker
  println(m.make().size)
}
MOS
cat >ctor.expected <<'TXT'
ctor.mos:2:19: runtime error: division by zero
  at new Box (ctor.mos:2)
  at Maker.make (ctor.mos:9)
  at main (ctor.mos:15)
TXT
"$mosaicc" -g -o ctor ctor.mos && run ./ctor && cmp -s err ctor.expected
check "methods and constructors have frames of their own" $?

cat >deep.mos <<'MOS'
def down(n: int): int {
  return down(n + 1) + 1
}

def main() {
  println(down(0))
}
MOS
cat >deep.expected <<'TXT'
deep.mos:1:1: runtime error: stack overflow
  at down (deep.mos:1)
TXT
"$mosaicc" -g -O0 -o deep deep.mos && run ./deep &&
    head -n 2 err | cmp -s - deep.expected &&
    grep -q '^  \.\.\. [0-9]* more frames \.\.\.$' err &&
    [ "$(tail -n 1 err)" = "  at main (deep.mos:6)" ] && [ "$(wc -l <err)" -eq 16 ]
check "a stack overflow: the innermost and outermost frames, the rest counted" $?

cat >actor.mos <<'MOS'
active class Server {
  def answer(): int { return 3 }
}

def ask(s: Server): int {
  let n = get s!answer()
  let xs = [1, 2]
  return xs[n]
}

active class Client {
  def work(s: Server): int {
    return ask(s) + 1
  }
}

def main() {
  let s = new Server
  let c = new Client
  println(get c!work(s))
}
MOS
cat >actor.expected <<'TXT'
actor.mos:8:10: runtime error: index out of bounds: index 3, length 2
  at ask (actor.mos:8)
  at Client.work (actor.mos:13)
TXT
"$mosaicc" -g -o actor actor.mos &&
    run MOSAIC_THREADS=1 ./actor && cmp -s err actor.expected &&
    run MOSAIC_THREADS=2 ./actor && cmp -s err actor.expected
check "an actor's turn that waited in get keeps its frames" $?

cat >dl.mos <<'MOS'
active class A {
  def self(): int { return get this!other() }
  def other(): int { return 1 }
}

def main() {
  let a = new A
  println(get a!self())
}
MOS
cat >dl.expected <<'TXT'
dl.mos:8:11: runtime error: deadlock: main is waiting on a future that can never be fulfilled
  main waits at dl.mos:8:11, in 'main'
    at main (dl.mos:8)
  an actor waits at dl.mos:2:28, in 'A.self'
    at A.self (dl.mos:2)
TXT
"$mosaicc" -g -o dl dl.mos && run ./dl && cmp -s err dl.expected
check "-g: a deadlock names each waiter's method and line" $?
"$mosaicc" -o dl dl.mos && run ./dl && grep -v '^    at' dl.expected | cmp -s err -
check "without -g: a deadlock lists where each waiter waits, and in what method" $?

"$mosaicc" -g -o dl dl.mos && run MOSAIC_THREADS=1 ./dl && cmp -s err dl.expected
check "-g, one worker: the same report" $?

[ "$failed" -eq 0 ]

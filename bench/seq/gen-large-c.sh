#!/bin/sh
# bench/seq/gen-large-c.sh — writes to stdout the C twin of the program
# bench/gen-large.sh writes, for timing `cc` beside `mosaicc` on the same
# program (DESIGN.md §5, "Compiler"; bench/run-seq.sh does).
#
# Usage: bench/seq/gen-large-c.sh N > big.c
#
# The program is N lines long, exactly, and has the units of
# `bench/gen-large.sh N`, one for one: each unit of the C file has the same
# 91 lines as a Mosaic unit, so the same N gives the same number of units
# and of one-line padding functions, and the program prints the same line,
# `large: units=U total=T`.  Unit K holds
#
#   - struct AccK (two longs and a pointer to a calloc'd history of 8) and
#     its functions accK_new, _deposit, _take, _move_to and _recent (a loop
#     over the history);
#   - struct VecK of two doubles: _add, _scale, _norm2;
#   - struct WorkerK and workerK_work, a loop: what Mosaic's active class
#     and its message do, as a plain call (C has no actors; the Mosaic
#     program also sends a message and waits for its answer);
#   - sumK (a while loop over an array), transferK (loops of calls on two
#     accounts), mixK (recursion into itself and into the previous unit's
#     mixJ), and runK, which builds the unit's objects (the accounts with
#     malloc, the vectors and the worker on the stack), calls all of the
#     above and the previous unit's sumJ, formats a label with snprintf and
#     returns a checksum.
#
# Every function is `static`, as in a one-file C program: like mosaicc,
# which gives a program's functions internal linkage, cc may inline them
# and drop those never called (the padding functions).

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

usage() { echo "usage: gen-large-c.sh N > FILE.c" >&2; exit 2; }
[ $# -eq 1 ] || usage
N=$1
case $N in ''|*[!0-9]*) usage;; esac

# The same arithmetic as bench/gen-large.sh, so that the units agree.
HEADER_LINES=5
UNIT_LINES=91     # the lines unit() writes; checked at the end
MAIN_FIXED=4      # main's lines besides one per unit
U=$(( (N - HEADER_LINES - MAIN_FIXED) / (UNIT_LINES + 2) ))
[ $U -lt 1 ] && U=1
PAD=$(( N - HEADER_LINES - MAIN_FIXED - U * (UNIT_LINES + 2) ))
[ $PAD -lt 0 ] && PAD=0

unit() {  # K J: unit K, whose previous unit is J
  local K=$1 J=$2
  cat <<EOF
/* ---- unit $K: accounts, vectors, a worker, functions ------------------- */

typedef struct Acc$K {
    long balance, moves, nhist;
    long *hist;
} Acc$K;
static Acc$K *acc${K}_new(void) {
    Acc$K *a = calloc(1, sizeof *a);
    if (!a || !(a->hist = calloc(8, sizeof *a->hist))) exit(1);
    a->nhist = 8;
    return a;
}
static void acc${K}_deposit(Acc$K *a, long x) {
    a->balance += x;
    a->moves += 1;
    a->hist[a->moves % 8] = x;
}
static int acc${K}_take(Acc$K *a, long x) {
    if (a->balance < x) return 0;
    a->balance -= x;
    a->moves += 1;
    return 1;
}
static void acc${K}_move_to(Acc$K *a, Acc$K *other, long x) {
    if (acc${K}_take(a, x)) acc${K}_deposit(other, x);
}
static long acc${K}_recent(const Acc$K *a) {
    long s = 0;
    for (long i = 0; i < a->nhist; i++) s += a->hist[i];
    return s;
}

typedef struct Vec$K { double x, y; } Vec$K;
static void vec${K}_add(Vec$K *v, const Vec$K *o) { v->x += o->x; v->y += o->y; }
static void vec${K}_scale(Vec$K *v, double f) {
    v->x = v->x * f;
    v->y = v->y * f;
}
static double vec${K}_norm2(const Vec$K *v) { return v->x * v->x + v->y * v->y; }

typedef struct Worker$K { long done; } Worker$K;
static long worker${K}_work(Worker$K *w, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) s += (i * $K + 1) % 7;
    w->done += 1;
    return s + w->done;
}

static long sum$K(const long *xs, long len, long n) {
    long s = 0, i = 0;
    while (i < n && i < len) {
        if (xs[i] % 2 == 0) s += xs[i]; else s -= 1;
        i += 1;
    }
    return s;
}

static long transfer$K(Acc$K *a, Acc$K *b, long n) {
    for (long i = 0; i < n; i++) {
        acc${K}_move_to(a, b, i % 3 + 1);
        acc${K}_move_to(b, a, i % 2 + 1);
    }
    return a->balance - b->balance + acc${K}_recent(a);
}

static long mix$K(long n) {
    if (n < 2) return n + $K % 3;
    return mix$K(n - 1) + mix$J(n - 2);
}

static long run$K(long seed) {
    Acc$K *a = acc${K}_new(), *b = acc${K}_new();
    acc${K}_deposit(a, seed % 100 + 10);
    acc${K}_deposit(b, $K % 50 + 5);
    long xs[16];
    for (long i = 0; i < 16; i++) xs[i] = i * seed + $K;
    Vec$K v = {1.5, (double)($K % 10)}, o = {0.5, 2.0};
    vec${K}_add(&v, &o);
    vec${K}_scale(&v, 0.5);
    Worker$K w = {0};
    long f = worker${K}_work(&w, 10 + $K % 5);
    long r = transfer$K(a, b, 20) + sum$K(xs, 16, 12) + (long)vec${K}_norm2(&v) % 1000;
    r += sum$J(xs, 16, 4) + mix$K(6);
    static const long ks[] = {1, 2, 3};
    for (int k = 0; k < 3; k++) r += ks[k] * seed;
    char label[48];
    int len = snprintf(label, sizeof label, "unit $K: %ld", r);
    r += f;
    free(a->hist); free(a); free(b->hist); free(b);
    return r % 100000 + len;
}

EOF
}

printf '%s\n' "/* Generated by bench/seq/gen-large-c.sh $N: $U units of $UNIT_LINES lines, $PAD padding"
printf '%s\n' " * functions; the C twin of bench/gen-large.sh $N, for timing cc beside"
printf '%s\n' " * mosaicc (DESIGN.md §5, Compiler).  It prints large: units=$U total=... */"
printf '%s\n' "#include <stdio.h>"
printf '%s\n' "#include <stdlib.h>"

for ((k = 0; k < U; k++)); do
  j=$(( k == 0 ? 0 : k - 1 ))
  unit $k $j
done
for ((i = 0; i < PAD; i++)); do
  printf 'static long pad%d(long x) { return x * %d + %d; }\n' $i $((i % 7 + 1)) $((i % 11))
done

printf '%s\n' "int main(void) {"
printf '%s\n' "    long total = 0;"
for ((k = 0; k < U; k++)); do
  printf '    total = (total + run%d(%d)) %% 1000000007;\n' $k $((k % 97 + 3))
done
printf '%s\n' "    printf(\"large: units=$U total=%ld\\n\", total);"
printf '%s\n' "}"

# The line count above assumes UNIT_LINES; a template edit must update it.
got=$(unit 0 0 | wc -l)
if [ "$got" -ne $((UNIT_LINES + 1)) ]; then
  echo "gen-large-c.sh: internal error: a unit has $((got - 1)) lines, UNIT_LINES says $UNIT_LINES" >&2
  exit 1
fi

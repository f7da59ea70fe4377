#!/usr/bin/env python3
"""gen.py — seeded generator of well-typed, deterministic Mosaic programs.

A program is made of *parts*: each part is a top-level function `partN()`
that `main` calls in order, with the classes, layouts, pools, actors and
functions it needs declared beside it.  Every part prints from `main`'s
actor only (actors return values through futures, and `main` waits for
them with `get` before it prints), so what a program prints and how it
ends do not depend on timing, the number of nodes, the layouts in force,
the optimisation level or the transport: the differential runner
(differential.py) checks exactly that.

What the parts cover (LANGUAGE.md sections in brackets):

  compute   wrapping integer arithmetic, shifts, division by odd numbers
            and by -1, floats (printed as Python's repr), strings and their
            methods, growable arrays (push, pop, insert, remove, slice,
            reverse, sort, index_of, contains), maps (literals, indexing,
            get, has, remove, keys, values, for k in m), loops with
            break/continue, calls to pure functions and to generic
            functions [§3, §8, §9, §11]
  pool      a class in a pool with a declared layout or aos/soa, top level
            or a pool statement, on node(0) or node(1); allocation, for o in
            P, P[i], P.size, `pool C` parameters, place-generic functions
            over pooled and plain objects, references between pooled
            objects [§6]
  graph     two classes with two place parameters in two pools that refer
            to each other (Node<ns, es> / Edge<es, ns>) [§5, §6]
  places    place-parameterised classes on node(0), node(1) and here,
            declared effects, functions generic in places [§5]
  actors    active classes on nodes (literal and computed), sends, futures
            kept in arrays, get, relays between actors (ordered by get),
            passive objects and fresh arrays passed in messages, a pool
            statement inside a message [§4, §5]
  generic   generic classes (Stack[T], Pair[A, B]<n>), a generic class in a
            pool with a layout, a generic actor on node(1) [§11]
  objects   recursion over trees of objects, linked lists, bounded
            recursive functions [§3]
  error     sometimes, one runtime error at a deterministic point: division
            by zero, index out of bounds (array, pool, string, pop), null
            dereference, missing key, invalid integer, invalid conversion,
            negative array length, invalid argument; in main, in a function,
            in a method or in an actor's message that main waits for [§6]

The same seed gives the same program (random.Random(seed), nothing else).
`gen.py --seed N` prints program N; see tests/fuzz/README.md.

A program begins with a comment naming its seed and its parts.  Generation
switches (--no-PART, --no-floats, --no-libm, --no-errors, --error) let a
finding that keeps coming back be excluded while the rest goes on.
"""

import argparse
import random
import sys

# Bounds that keep every program quick (a few milliseconds): the product of
# the trip counts of nested loops, and the cost a call may add to a loop.
ITER_LIMIT = 1000
FUNC_BUDGET = 40

INT, FLOAT, BOOL, STRING = 'int', 'float', 'bool', 'string'
PRIMS = (INT, FLOAT, BOOL, STRING)
ARRAYS = ('[int]', '[string]', '[float]')
MAPS = ('Map<string, int>', 'Map<int, int>', 'Map<int, string>')

# Compiler bugs the fuzzer found and reported, that generation keeps clear
# of unless told otherwise (--known-bugs include); remove an entry once its
# bug is fixed.  Reproducers: see tests/fuzz/README.md.
KNOWN_BUGS = {
}

ALL_PARTS = ('compute', 'pool', 'graph', 'places', 'actors', 'generic',
             'objects')
ERROR_KINDS = ('div', 'rem', 'index', 'index_neg', 'pool_index', 'null',
               'missing_key', 'pop_empty', 'parse_int', 'conversion',
               'negative_length', 'string_index', 'slice', 'split_empty',
               'char', 'remove_index', 'insert_index', 'exit')

STRING_WORDS = ('a', 'b', 'ab', 'xyz', 'Hello', ' pad ', 'a,b,,c', 'tab\\t',
                'q\\"uote', 'nul\\0x', '\\u{e9}t\\u{e9}', '\\u{1F600}', 'MiXeD',
                '12', '-7', '3.5', 'k0', 'k1', 'line\\n')
MAP_STR_KEYS = ('"a"', '"b"', '"k0"', '"k1"', '"zz"', '""')
FLOAT_LITS = ('0.0', '1.0', '0.5', '0.1', '2.5', '-1.25', '1e-05', '3.0e10',
              '6.02E-23', '1e+16', '123456789.0', '2.5e-300', '-0.0',
              '0.0001', '1e308', '7.0')
INT_LITS_BIG = ('9223372036854775807', '0x7fffffffffffffff', '4611686018427387904',
                '1_000_000_007', '0xff', '0xdeadbeef', '-9223372036854775808',
                '65536', '0x1_0000_0000')


def elem(ty):
    """The element type of an array type '[T]'."""
    return ty[1:-1]


def map_kv(ty):
    """The key and value types of 'Map<K, V>'."""
    k, v = ty[4:-1].split(', ')
    return k, v


class Var:
    """A name in scope: its type (one of PRIMS, ARRAYS, MAPS), whether it
    may be assigned, and, for strings, whether it is never empty.  Every
    array in scope is non-empty whenever code can see it (the generator
    keeps that invariant), so safe indices into it need no guard."""

    def __init__(self, name, ty, mutable=False, nonempty=False):
        self.name = name
        self.ty = ty
        self.mutable = mutable
        self.nonempty = nonempty


class Func:
    """A function or method that generated code may call: its name as
    written at the call, parameter types, result type and cost (an upper
    bound of the loop iterations one call runs)."""

    def __init__(self, name, params, result, cost):
        self.name = name
        self.params = params
        self.result = result
        self.cost = cost


class Scope:
    """What code being generated can see and do."""

    def __init__(self, vars=(), funcs=(), can_print=False, budget=ITER_LIMIT):
        self.vars = list(vars)
        self.funcs = list(funcs)
        self.can_print = can_print
        self.iters = 1          # product of the trip counts of the loops around
        self.budget = budget
        self.loop = 0           # loops around (for break/continue)
        self.frozen = set()     # names that must not change here (loop counters, loop arrays)

    def child(self):
        s = Scope(self.vars, self.funcs, self.can_print, self.budget)
        s.iters = self.iters
        s.loop = self.loop
        s.frozen = set(self.frozen)
        return s

    def of(self, ty, mutable=False):
        return [v for v in self.vars if v.ty == ty and (not mutable or
                (v.mutable and v.name not in self.frozen))]

    def without(self, name):
        s = self.child()
        s.vars = [v for v in s.vars if v.name != name]
        return s


class Gen:
    def __init__(self, seed, opts):
        self.seed = seed
        self.r = random.Random(seed)
        self.o = opts
        self.n = 0
        self.top = []           # top-level declarations, in order
        self.helpers = {}       # helper name -> declaration (emitted once)
        self.parts = []         # (part function name, kind)
        self.error_done = False

    # ---- small utilities --------------------------------------------------

    def fresh(self, prefix):
        self.n += 1
        return '%s%d' % (prefix, self.n)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(list(seq))

    def emit_part(self, name, kind, body, inline=None):
        """A part: a function `name` that main calls, or (inline) a block
        of main itself, where `here` is node(0) (§5)."""
        if inline is None:
            inline = self.chance(0.3)
        if not inline:
            self.top.append('def %s() {\n%s\n}' % (name, '\n'.join(self.indent(body))))
        self.parts.append((name, kind, body if inline else None))

    def avoid(self, bug):
        """Whether generation keeps clear of the known compiler bug `bug`
        (KNOWN_BUGS)."""
        return bug in self.o.avoid

    def helper(self, name, text):
        if name not in self.helpers:
            self.helpers[name] = text
        return name

    # ---- expressions ------------------------------------------------------

    def lit(self, ty):
        r = self.r
        if ty == INT:
            x = r.random()
            if x < 0.6:
                return str(r.randint(0, 20))
            if x < 0.8:
                return '(-%d)' % r.randint(1, 1000)
            if x < 0.9:
                return str(r.randint(21, 100000))
            v = self.pick(INT_LITS_BIG)
            return '(%s)' % v if v.startswith('-') else v
        if ty == FLOAT:
            if not self.o.floats:
                return '1.0'
            v = self.pick(FLOAT_LITS)
            return '(%s)' % v if v.startswith('-') else v
        if ty == BOOL:
            return self.pick(('true', 'false'))
        if ty == STRING:
            return '"%s"' % self.pick(STRING_WORDS + ('',))
        raise ValueError(ty)

    def nonempty_lit(self):
        return '"%s"' % self.pick(STRING_WORDS)

    def safe_index(self, arr, sc, depth, extra=0):
        """An index into array (or string) variable `arr` that is always in
        bounds: ((e % n) + n) % n with n its length (+ extra)."""
        e = self.expr(INT, sc, depth)
        n = '%s.length' % arr if not extra else '(%s.length + %d)' % (arr, extra)
        return '(((%s %% %s) + %s) %% %s)' % (e, n, n, n)

    def expr(self, ty, sc, depth=2):
        """An expression of type `ty` (a primitive) that never fails at run
        time, over the variables and functions of `sc`."""
        if ty == FLOAT and not self.o.floats:
            ty = INT
            return 'float(%s)' % self.expr(INT, sc, depth)
        if depth <= 0 or self.chance(0.25):
            return self.leaf(ty, sc)
        return getattr(self, 'expr_' + ty)(sc, depth - 1)

    def leaf(self, ty, sc):
        vs = sc.of(ty)
        if vs and self.chance(0.7):
            return self.pick(vs).name
        if ty == INT:
            arrs = [v for v in sc.vars if v.ty in ARRAYS or v.ty == STRING]
            if arrs and self.chance(0.3):
                return '%s.length' % self.pick(arrs).name
            maps = [v for v in sc.vars if v.ty in MAPS]
            if maps and self.chance(0.2):
                return '%s.size' % self.pick(maps).name
        return self.lit(ty)

    def call_of(self, result, sc, depth, only=None):
        """A call of a function in scope with this result type, if one fits
        the loop budget."""
        fs = [only] if only else [f for f in sc.funcs if f.result == result and sc.iters * f.cost <= sc.budget]
        if not fs:
            return None
        f = self.pick(fs)
        args = []
        for p in f.params:
            if p in PRIMS:
                args.append(self.expr(p, sc, depth - 1))
            else:
                vs = sc.of(p)
                if vs and self.chance(0.8):
                    args.append(self.pick(vs).name)
                else:
                    args.append('[%s]' % ', '.join(self.stored(elem(p), sc, 1) for _ in range(self.r.randint(1, 3))))
        return '%s(%s)' % (f.name, ', '.join(args))

    def expr_int(self, sc, d):
        r = self.r
        k = r.random()
        e = lambda: self.expr(INT, sc, d)
        if k < 0.30:
            return '(%s %s %s)' % (e(), self.pick('+-*&|^'), e())
        if k < 0.38:
            op = self.pick('/%')
            if self.chance(0.3):
                return '(%s %s %s)' % (e(), op, self.pick(('(-1)', '3', '(-7)', '1', '1000000007')))
            return '(%s %s (%s | 1))' % (e(), op, e())
        if k < 0.43:
            return '(%s %s %s)' % (e(), self.pick(('<<', '>>')), e())
        if k < 0.46:
            return '(-%s)' % e()
        if k < 0.50:
            f = self.pick(('abs', 'min', 'max'))
            if f == 'abs':
                return 'abs(%s)' % e()
            return '%s(%s, %s)' % (f, e(), e())
        if k < 0.58:
            arrs = sc.of('[int]')
            if arrs:
                a = self.pick(arrs).name
                return '%s[%s]' % (a, self.safe_index(a, sc, d))
        if k < 0.62:
            ms = [v for v in sc.vars if v.ty in ('Map<string, int>', 'Map<int, int>')]
            if ms:
                m = self.pick(ms)
                kt, _ = map_kv(m.ty)
                return '%s.get(%s, %s)' % (m.name, self.map_key(kt, sc, d), e())
        if k < 0.67:
            ss = [v for v in sc.of(STRING) if v.nonempty]
            if ss and self.chance(0.6):
                s = self.pick(ss).name
                return '%s.byte(%s)' % (s, self.safe_index(s, sc, d))
            h = self.helper('byte_or', BYTE_OR)
            return '%s(%s, %s)' % (h, self.expr(STRING, sc, d), e())
        if k < 0.70:
            return '%s.find(%s)' % (self.string_operand(sc, d), self.expr(STRING, sc, d))
        if k < 0.73:
            arrs = [v for v in sc.vars if v.ty in ARRAYS]
            if arrs:
                a = self.pick(arrs)
                return '%s.index_of(%s)' % (a.name, self.expr(elem(a.ty), sc, d))
        if k < 0.75:
            return 'parse_int("" + %s)' % e()
        if k < 0.78 and self.o.floats:
            # A conversion that cannot fail: a float of bounded magnitude.
            return 'int(float(%s %% 100000) * %s)' % (e(), self.pick(('0.5', '1.5', '(-2.25)', '0.1')))
        if k < 0.86:
            c = self.call_of(INT, sc, d)
            if c:
                return c
        if k < 0.90:
            return self.generic_call(INT, sc, d)
        if k < 0.93:
            return '(%s).length' % self.expr(STRING, sc, d)
        return self.leaf(INT, sc)

    def expr_float(self, sc, d):
        k = self.r.random()
        e = lambda: self.expr(FLOAT, sc, d)
        if k < 0.35:
            return '(%s %s %s)' % (e(), self.pick('+-*/'), e())
        if k < 0.40:
            return '(%s %% %s)' % (e(), e())
        if k < 0.50:
            return 'float(%s)' % self.expr(INT, sc, d)
        if k < 0.58:
            f = self.pick(('sqrt', 'abs', 'floor') + (('sin', 'cos', 'exp', 'log') if self.o.libm else ()))
            return '%s(%s)' % (f, e())
        if k < 0.63:
            return '%s(%s, %s)' % (self.pick(('min', 'max')), e(), e())
        if k < 0.66:
            return '(-%s)' % e()
        if k < 0.72:
            arrs = sc.of('[float]')
            if arrs:
                a = self.pick(arrs).name
                return '%s[%s]' % (a, self.safe_index(a, sc, d))
        if k < 0.76:
            return 'parse_float("" + %s)' % e()
        if k < 0.82:
            c = self.call_of(FLOAT, sc, d)
            if c:
                return c
        if k < 0.85:
            return self.generic_call(FLOAT, sc, d)
        return self.leaf(FLOAT, sc)

    def expr_bool(self, sc, d):
        k = self.r.random()
        if k < 0.30:
            t = self.pick((INT, INT, FLOAT, STRING)) if self.o.floats else self.pick((INT, INT, STRING))
            return '(%s %s %s)' % (self.expr(t, sc, d), self.pick(('<', '<=', '>', '>=', '==', '!=')),
                                   self.expr(t, sc, d))
        if k < 0.40:
            return '(%s %s %s)' % (self.expr(BOOL, sc, d), self.pick(('and', 'or')), self.expr(BOOL, sc, d))
        if k < 0.45:
            return '(not %s)' % self.expr(BOOL, sc, d)
        if k < 0.52:
            return '%s.%s(%s)' % (self.string_operand(sc, d),
                                  self.pick(('contains', 'starts_with', 'ends_with')),
                                  self.expr(STRING, sc, d))
        if k < 0.58:
            ms = [v for v in sc.vars if v.ty in MAPS]
            if ms:
                m = self.pick(ms)
                return '%s.has(%s)' % (m.name, self.map_key(map_kv(m.ty)[0], sc, d))
        if k < 0.63:
            arrs = [v for v in sc.vars if v.ty in ARRAYS]
            if arrs:
                a = self.pick(arrs)
                return '%s.contains(%s)' % (a.name, self.expr(elem(a.ty), sc, d))
        if k < 0.68:
            return '(%s == %s)' % (self.expr(BOOL, sc, d), self.expr(BOOL, sc, d))
        if k < 0.72:
            return self.generic_call(BOOL, sc, d)
        if k < 0.76:
            c = self.call_of(BOOL, sc, d)
            if c:
                return c
        return self.leaf(BOOL, sc)

    def string_operand(self, sc, d):
        """A string expression that may take a method (a variable, a
        literal, or a parenthesised expression)."""
        s = self.expr(STRING, sc, d)
        if s.startswith('"') or s.isidentifier() or s.endswith(')'):
            return s
        return '(%s)' % s

    def expr_string(self, sc, d, nonempty=False):
        k = self.r.random()
        if k < 0.30:
            t = self.pick((STRING, STRING, INT, BOOL) + ((FLOAT,) if self.o.floats else ()))
            if nonempty:
                return '(%s + %s)' % (self.nonempty_lit(), self.expr(t, sc, d))
            if self.chance(0.5):
                return '(%s + %s)' % (self.expr(STRING, sc, d), self.expr(t, sc, d))
            return '(%s + %s)' % (self.expr(t, sc, d) if t == STRING else self.expr(STRING, sc, d),
                                  self.expr(STRING, sc, d))
        if k < 0.40:
            return '("" + %s)' % self.expr(self.pick((INT, BOOL, FLOAT) if self.o.floats else (INT, BOOL)), sc, d)
        if k < 0.48:
            ss = sc.of(STRING)
            if ss:
                s = self.pick(ss).name
                n = '(%s.length + 1)' % s
                a = '(((%s %% %s) + %s) %% %s)' % (self.expr(INT, sc, d), n, n, n)
                if nonempty:
                    return '(%s + %s.slice(%s, %s.length))' % (self.nonempty_lit(), s, a, s)
                return '%s.slice(0, %s)' % (s, a)
        if k < 0.55:
            m = self.pick(('to_upper', 'to_lower', 'trim'))
            if nonempty and m == 'trim':
                m = 'to_upper'
            return '%s.%s()' % (self.string_operand_ne(sc, d) if nonempty else self.string_operand(sc, d), m)
        if k < 0.60:
            arrs = sc.of('[string]')
            if arrs:
                j = '%s(join(%s, %s))' % (self.helper('cap', CAP), self.pick(arrs).name, self.lit(STRING))
                return '(%s + %s)' % (self.nonempty_lit(), j) if nonempty else j
        if k < 0.65:
            return 'char(%s)' % self.pick(('65 + ((%s %% 26) + 26) %% 26' % self.expr(INT, sc, d),
                                           '0x1F600', '0xe9', '0x10FFFF', '48 + (%s & 7)' % self.expr(INT, sc, d)))
        if k < 0.70:
            arrs = sc.of('[string]')
            if arrs:
                a = self.pick(arrs).name
                v = '%s[%s]' % (a, self.safe_index(a, sc, d))
                return '(%s + %s)' % (self.nonempty_lit(), v) if nonempty else v
        if k < 0.74:
            ms = sc.of('Map<int, string>')
            if ms:
                m = self.pick(ms).name
                v = '%s.get(%s, %s)' % (m, self.map_key(INT, sc, d), self.lit(STRING))
                return '(%s + %s)' % (self.nonempty_lit(), v) if nonempty else v
        if k < 0.78:
            v = '%s.split(%s)[0]' % (self.string_operand(sc, d), self.nonempty_lit())
            return '(%s + %s)' % (self.nonempty_lit(), v) if nonempty else v
        if k < 0.82:
            v = self.generic_call(STRING, sc, d)
            return '(%s + %s)' % (self.nonempty_lit(), v) if nonempty else v
        if k < 0.86:
            c = self.call_of(STRING, sc, d)
            if c:
                return '(%s + %s)' % (self.nonempty_lit(), c) if nonempty else c
        if nonempty:
            vs = [v for v in sc.of(STRING) if v.nonempty]
            if vs and self.chance(0.6):
                return self.pick(vs).name
            return self.nonempty_lit()
        return self.leaf(STRING, sc)

    def string_operand_ne(self, sc, d):
        s = self.expr_string(sc, d, nonempty=True)
        if s.startswith('"') or s.isidentifier() or s.endswith(')'):
            return s
        return '(%s)' % s

    def ne_string(self, sc, d=2):
        """A string expression that is never empty."""
        return self.expr_string(sc, d, nonempty=True)

    def map_key(self, kt, sc, d):
        if kt == STRING:
            return self.pick(MAP_STR_KEYS)
        return '(%s & 7)' % self.expr(INT, sc, d)

    def generic_call(self, ty, sc, d):
        """A call of one of the generic helper functions, instantiated at
        `ty` (§11: type arguments inferred from the arguments)."""
        k = self.r.random()
        if k < 0.4 or not self.o.generics:
            h = self.helper('pick', PICK)
            return '%s(%s, %s, %s)' % (h, self.expr(BOOL, sc, d), self.expr(ty, sc, d), self.expr(ty, sc, d))
        arrs = sc.of('[%s]' % ty) if ty != BOOL else []
        if k < 0.7 and arrs:
            h = self.helper('last_or', LAST_OR)
            return '%s(%s, %s)' % (h, self.pick(arrs).name, self.expr(ty, sc, d))
        if ty == INT:
            arrs = [v for v in sc.vars if v.ty in ARRAYS]
            if arrs:
                h = self.helper('count_of', COUNT_OF)
                a = self.pick(arrs)
                return '%s(%s, %s)' % (h, a.name, self.expr(elem(a.ty), sc, d))
        h = self.helper('box_round', BOX_ROUND)
        return '%s(%s)' % (h, self.expr(ty, sc, d))

    # ---- statements -------------------------------------------------------

    def block(self, sc, n, depth=2):
        """n statements (as lines, unindented) in scope sc; new bindings go
        into sc."""
        out = []
        for _ in range(n):
            out.extend(self.stmt(sc, depth))
        return out

    def stmt(self, sc, depth):
        r = self.r
        k = r.random()
        if k < 0.18 and (depth >= 2 or self.chance(0.3)):
            # In nested blocks, mostly change what is already in scope: a
            # binding made there is gone at the block's end.
            return self.s_decl(sc)
        if k < 0.34:
            s = self.s_assign(sc)
            if s:
                return s
        if k < 0.44:
            s = self.s_array(sc)
            if s:
                return s
        if k < 0.52:
            s = self.s_map(sc)
            if s:
                return s
        if k < 0.60 and depth > 0:
            return self.s_if(sc, depth)
        if k < 0.72 and depth > 0:
            s = self.s_loop(sc, depth)
            if s:
                return s
        if k < 0.76 and sc.loop and depth >= 0:
            return ['if %s { %s }' % (self.expr(BOOL, sc, 1), self.pick(('break', 'continue')))]
        if k < 0.90 and sc.can_print:
            return [self.s_print(sc)]
        return self.s_decl(sc)

    def s_print(self, sc):
        t = self.pick(PRIMS)
        e = self.expr(t, sc, 2)
        if self.chance(0.3):
            return 'println(%s)' % e
        return 'println("%s " + %s)' % (self.fresh('L'), e)

    def s_decl(self, sc, ty=None):
        r = self.r
        if ty is None:
            ty = self.pick(PRIMS * 3 + ARRAYS + MAPS)
            if ty in (FLOAT, '[float]') and not self.o.floats:
                ty = INT
        name = self.fresh('v')
        mutable = self.chance(0.5)
        kw = 'var' if mutable else 'let'
        if ty in PRIMS:
            ne = False
            if ty == STRING and self.chance(0.5):
                e = self.ne_string(sc)
                ne = True
            else:
                e = self.expr(ty, sc, 2)
            annot = ': %s' % ty if self.chance(0.2) else ''
            sc.vars.append(Var(name, ty, mutable, ne))
            return ['%s %s%s = %s' % (kw, name, annot, e)]
        if ty in ARRAYS:
            et = elem(ty)
            src = [v for v in sc.of(ty)]
            k = r.random()
            if k < 0.15 and src:
                a = self.pick(src).name
                n = '(((%s %% %s.length) + %s.length) %% %s.length + 1)' % (self.expr(INT, sc, 1), a, a, a)
                e = '%s.slice(0, %s)' % (a, n)
            elif k < 0.25:
                e = 'new [%s](%d)' % (et, r.randint(1, 6))
            elif k < 0.35 and et == STRING:
                e = '%s.split(%s)' % (self.string_operand(sc, 1), self.pick(('","', '" "', '"a"', '"ab"')))
            else:
                e = '[%s]' % ', '.join(self.stored(et, sc, 1) for _ in range(r.randint(1, 5)))
            sc.vars.append(Var(name, ty, mutable))
            annot = ': %s' % ty if self.chance(0.2) else ''
            return ['%s %s%s = %s' % (kw, name, annot, e)]
        kt, vt = map_kv(ty)
        n = r.randint(0, 3)
        if n == 0:
            sc.vars.append(Var(name, ty, mutable))
            if self.chance(0.3):
                return ['%s %s: %s = {}' % (kw, name, ty)]
            return ['%s %s = new %s' % (kw, name, ty)]
        # Without a declared type the first entry decides the literal's
        # type (§9); the generated keys and values have the right types.
        e = '{%s}' % ', '.join('%s: %s' % (self.map_key(kt, sc, 1), self.stored(vt, sc, 1)) for _ in range(n))
        sc.vars.append(Var(name, ty, mutable))
        if self.chance(0.4):
            return ['%s %s: %s = %s' % (kw, name, ty, e)]
        return ['%s %s = %s' % (kw, name, e)]

    def s_assign(self, sc):
        vs = [v for v in sc.vars if v.ty in PRIMS and v.mutable and v.name not in sc.frozen]
        if not vs:
            return None
        v = self.pick(vs)
        if v.ty == INT:
            op = self.pick(('=', '+=', '-=', '*=', '/=', '%=', '+=', '='))
            if op in ('/=', '%='):
                return ['%s %s (%s | 1)' % (v.name, op, self.expr(INT, sc, 2))]
            return ['%s %s %s' % (v.name, op, self.expr(INT, sc, 2))]
        if v.ty == FLOAT:
            return ['%s %s %s' % (v.name, self.pick(('=', '+=', '-=', '*=', '/=')), self.expr(FLOAT, sc, 2))]
        if v.ty == BOOL:
            return ['%s = %s' % (v.name, self.expr(BOOL, sc, 2))]
        # Strings stay short: `+=` appends text made without any string
        # variable (so a loop grows it linearly), and other assignments
        # go through cap(), which keeps 48 bytes.
        if self.chance(0.5):
            t = self.pick((STRING, INT, BOOL) + ((FLOAT,) if self.o.floats else ()))
            return ['%s += %s' % (v.name, self.expr(t, self.stringless(sc), 1))]
        cap = self.helper('cap', CAP)
        if v.nonempty:
            return ['%s = %s(%s)' % (v.name, cap, self.ne_string(sc, 2))]
        return ['%s = %s(%s)' % (v.name, cap, self.expr(STRING, sc, 2))]

    def stringless(self, sc):
        """sc without the names whose values hold strings."""
        s = sc.child()
        s.vars = [v for v in s.vars if v.ty not in (STRING, '[string]', 'Map<int, string>')]
        return s

    def stored(self, ty, sc, d=2):
        """A value to store in an array, a map or a field: strings are
        capped so that a loop of stores stays small."""
        if ty == STRING:
            return '%s(%s)' % (self.helper('cap', CAP), self.expr(STRING, sc, d))
        return self.expr(ty, sc, d)

    def s_array(self, sc):
        arrs = [v for v in sc.vars if v.ty in ARRAYS and v.name not in sc.frozen]
        if not arrs:
            return None
        a = self.pick(arrs)
        x = a.name
        et = elem(a.ty)
        k = self.r.random()
        e = lambda: self.stored(et, sc, 2)
        if k < 0.25:
            return ['%s.push(%s)' % (x, e())]
        if k < 0.40:
            return ['%s[%s] = %s' % (x, self.safe_index(x, sc, 1), e())]
        if k < 0.47 and et == INT:
            return ['%s[%s] %s %s' % (x, self.safe_index(x, sc, 1), self.pick(('+=', '-=', '*=')), e())]
        if k < 0.55:
            n = '(%s.length + 1)' % x
            i = '(((%s %% %s) + %s) %% %s)' % (self.expr(INT, sc, 1), n, n, n)
            return ['%s.insert(%s, %s)' % (x, i, e())]
        if k < 0.63:
            targets = [v for v in sc.of(et, mutable=True)]
            if targets and et != STRING:
                t = self.pick(targets).name
                return ['if %s.length > 1 { %s %s %s.pop() }' % (x, t, '+=' if et != BOOL else '=', x)]
            return ['if %s.length > 1 { %s.pop() }' % (x, x)]
        if k < 0.70:
            return ['if %s.length > 1 { %s.remove(%s) }' % (x, x, self.safe_index(x, sc, 1))]
        if k < 0.76:
            return ['%s.reverse()' % x]
        if k < 0.82:
            return ['sort(%s)' % x]
        if k < 0.86:
            # clear, then refill without reading the array (it is empty).
            return ['%s.clear()' % x, '%s.push(%s)' % (x, self.stored(et, sc.without(x), 1))]
        if k < 0.92 and sc.iters * 16 <= sc.budget:
            sc2 = sc.child()
            sc2.iters = sc.iters * 16
            return ['if %s.length <= 16 { for %s in %s.slice(0, %s.length) { %s } }' % (
                x, self.fresh('w'), x, x, '; '.join(self.s_array(sc2) or ['%s.reverse()' % x]))]
        return ['%s.push(%s)' % (x, e())]

    def s_map(self, sc):
        ms = [v for v in sc.vars if v.ty in MAPS and v.name not in sc.frozen]
        if not ms:
            return None
        m = self.pick(ms)
        kt, vt = map_kv(m.ty)
        key = lambda: self.map_key(kt, sc, 1)
        k = self.r.random()
        if k < 0.35:
            return ['%s[%s] = %s' % (m.name, key(), self.stored(vt, sc, 2))]
        if k < 0.50:
            kk = key()
            op = '+='
            return ['if %s.has(%s) { %s[%s] %s %s }' % (m.name, kk, m.name, kk, op, self.expr(vt, self.stringless(sc), 1))]
        if k < 0.60 and vt == INT:
            kk = key()
            return ['%s[%s] = %s.get(%s, 0) + %s' % (m.name, kk, m.name, kk, self.expr(INT, sc, 1))]
        if k < 0.70:
            return ['%s.remove(%s)' % (m.name, key())]
        if k < 0.74:
            return ['%s.clear()' % m.name]
        if k < 0.87:
            targets = sc.of(vt, mutable=True) if vt != STRING else []
            if targets:
                t = self.pick(targets).name
                kv = self.fresh('k')
                return ['for %s in %s { %s += %s[%s] }' % (kv, m.name, t, m.name, kv)]
        vals = self.fresh('vals')
        if vt == INT and self.o.generics:
            h = self.helper('count_of', COUNT_OF)
            e = self.expr(INT, sc, 1)
            sc.vars.append(Var(vals, INT))
            return ['let %s = %s(%s.values(), %s) + %s.keys().length' % (vals, h, m.name, e, m.name)]
        sc.vars.append(Var(vals, INT))
        return ['let %s = %s.keys().length + %s.values().length' % (vals, m.name, m.name)]

    def s_if(self, sc, depth):
        c = self.expr(BOOL, sc, 2)
        a = self.block(sc.child(), self.r.randint(1, 3), depth - 1)
        lines = ['if %s {' % c] + ['  ' + l for l in a]
        k = self.r.random()
        if k < 0.3:
            b = self.block(sc.child(), self.r.randint(1, 2), depth - 1)
            lines += ['} else {'] + ['  ' + l for l in b]
        elif k < 0.45:
            c2 = self.expr(BOOL, sc, 1)
            b = self.block(sc.child(), 1, depth - 1)
            d = self.block(sc.child(), 1, depth - 1)
            lines += ['} else if %s {' % c2] + ['  ' + l for l in b] + ['} else {'] + ['  ' + l for l in d]
        lines.append('}')
        return lines

    def s_loop(self, sc, depth):
        r = self.r
        n = r.randint(1, 12)
        if sc.iters * n > sc.budget:
            n = sc.budget // sc.iters
            if n < 1:
                return None
        inner = sc.child()
        inner.iters = sc.iters * n
        inner.loop += 1
        k = r.random()
        if k < 0.45:
            i = self.fresh('i')
            a = r.randint(-3, 3)
            inner.vars.append(Var(i, INT))
            head = 'for %s in %d..%d {' % (i, a, a + n)
        elif k < 0.65:
            arrs = [v for v in sc.vars if v.ty in ARRAYS]
            if not arrs:
                return None
            a = self.pick(arrs)
            x = self.fresh('x')
            inner.vars.append(Var(x, elem(a.ty)))
            # The loop visits at most the length at its start; pushes in
            # the body are not visited (§9).  Budget it by a bound on that.
            inner.iters = sc.iters * 16
            if inner.iters > sc.budget:
                return None
            head = 'for %s in %s {' % (x, a.name)
            body = self.block(inner, r.randint(1, 3), depth - 1)
            return ['if %s.length <= 16 {' % a.name, '  ' + head] + ['    ' + l for l in body] + ['  }', '}']
        elif k < 0.80:
            ms = [v for v in sc.vars if v.ty in MAPS]
            if not ms:
                return None
            m = self.pick(ms)
            kv = self.fresh('k')
            inner.vars.append(Var(kv, map_kv(m.ty)[0]))
            inner.iters = sc.iters * 8
            if inner.iters > sc.budget:
                return None
            head = 'for %s in %s {' % (kv, m.name)
            # map keys are drawn from at most 8 values (map_key)
        else:
            c = self.fresh('c')
            inner.frozen.add(c)
            body = self.block(inner, r.randint(1, 3), depth - 1)
            return ['var %s = 0' % c, 'while %s < %d {' % (c, n), '  %s += 1' % c] + \
                   ['  ' + l for l in body] + ['}']
        body = self.block(inner, r.randint(1, 3), depth - 1)
        return [head] + ['  ' + l for l in body] + ['}']

    def fold(self, sc, name):
        """Lines that fold every variable of sc into a new int variable
        `name`, so that what the code computed reaches the output."""
        out = ['var %s = 0' % name]
        acc = lambda e: out.append('%s = %s * 31 + %s' % (name, name, e))
        for v in sc.vars:
            if '.' in v.name:
                continue
            t = v.ty
            x = self.fresh('x')
            if t == INT:
                acc(v.name)
            elif t == BOOL:
                out.append('if %s { %s += 1 }' % (v.name, name))
            elif t == STRING:
                acc('%s.length + %s(%s, %d)' % (v.name, self.helper('byte_or', BYTE_OR), v.name, self.r.randint(0, 9)))
            elif t == FLOAT:
                # int() only of a finite value (x - x is NaN otherwise).
                out.append('if (%s - %s) == 0.0 { %s += int((%s %% 1000.0) * 1000.0) }' % (v.name, v.name, name, v.name))
                acc('("" + %s).length' % v.name)
            elif t == '[int]':
                out.append('for %s in %s { %s = %s * 31 + %s }' % (x, v.name, name, name, x))
            elif t == '[string]':
                out.append('for %s in %s { %s = %s * 31 + %s.length }' % (x, v.name, name, name, x))
            elif t == '[float]':
                out.append('for %s in %s { if (%s - %s) == 0.0 { %s = %s * 31 + int(%s %% 1000.0) } }'
                           % (x, v.name, x, x, name, name, x))
            elif t in MAPS:
                kt, vt = map_kv(t)
                ke = x if kt == INT else '%s.length' % x
                ve = '%s[%s]' % (v.name, x) if vt == INT else '%s[%s].length' % (v.name, x)
                out.append('for %s in %s { %s = %s * 31 + %s + %s }' % (x, v.name, name, name, ke, ve))
        return out

    # ---- functions --------------------------------------------------------

    def pure_function(self, sc_funcs, result=None, place_generic_arrays=True):
        """A top-level function that only reads its arguments; returns its
        Func.  Arrays are taken with a place parameter so that passive
        methods (whose arrays live at their home) can call it too."""
        r = self.r
        name = self.fresh('f')
        result = result or self.pick(PRIMS if self.o.floats else (INT, BOOL, STRING))
        params = []
        vars = []
        decl = []
        places = []
        for _ in range(r.randint(0, 3)):
            t = self.pick(PRIMS * 2 + ('[int]', '[string]'))
            if t == FLOAT and not self.o.floats:
                t = INT
            p = self.fresh('a')
            params.append(t)
            vars.append(Var(p, t))
            if t in ARRAYS:
                places.append('p%d' % len(places))
                decl.append('%s: %s<%s>' % (p, t, places[-1]))
            else:
                decl.append('%s: %s' % (p, t))
        sc = Scope(vars, sc_funcs, can_print=False, budget=FUNC_BUDGET)
        # Arguments are read, never changed: shadow the arrays by copies
        # when the body wants to change them.
        body = []
        for v in list(sc.vars):
            if v.ty in ARRAYS and self.chance(0.5):
                c = self.fresh('v')
                body.append('var %s = %s.slice(0, %s.length)' % (c, v.name, v.name))
                sc.vars.append(Var(c, v.ty, True))
        sc.frozen.update(v.name for v in vars)
        body += self.block(sc, r.randint(1, 5), 2)
        dg = self.fresh('dg')
        body += self.fold(sc, dg)
        e = self.expr(result, sc, 2)
        body.append('return %s' % {INT: '%s ^ %s' % (dg, e), FLOAT: 'float(%s %% 1000) + %s' % (dg, e),
                                   BOOL: '(%s %% 2 == 0) != %s' % (dg, e),
                                   STRING: '("" + %s + %s)' % (dg, e)}[result])
        pp = '<%s>' % ', '.join(places) if places else ''
        text = 'def %s%s(%s): %s {\n%s\n}' % (name, pp, ', '.join(decl), result,
                                              '\n'.join('  ' + l for l in body))
        self.top.append(text)
        return Func(name, params, result, FUNC_BUDGET)

    def indent(self, lines, k=1):
        return ['  ' * k + l for l in lines]

    # ---- parts ------------------------------------------------------------

    def part_compute(self, funcs):
        fs = list(funcs)
        for _ in range(self.r.randint(1, 3)):
            fs.append(self.pure_function(fs))
        name = self.fresh('part')
        sc = Scope([], fs, can_print=True)
        body = self.block(sc, self.r.randint(6, 14), 2)
        body += [self.s_print(sc) for _ in range(2)]
        for f in fs[len(funcs):]:
            body.append('println("%s " + %s)' % (f.name, self.call_of(f.result, sc, 2, only=f)))
        dg = self.fresh('dg')
        body += self.fold(sc, dg)
        body.append('println("%s " + %s)' % (dg, dg))
        self.emit_part(name, 'compute', body)
        return fs

    def fields(self, n, kinds=PRIMS):
        """n fields of random primitive types: (name, type, initialiser or
        None)."""
        out = []
        for _ in range(n):
            t = self.pick(kinds)
            if t == FLOAT and not self.o.floats:
                t = INT
            init = None
            if self.chance(0.4):
                init = self.lit(t) if t != STRING else self.nonempty_lit()
            out.append((self.fresh('g'), t, init))
        return out

    def field_lines(self, fields):
        lines = []
        for f, t, init in fields:
            lines.append('var %s: %s%s' % (f, t, ' = ' + init if init else ''))
        return lines

    def random_split(self, names):
        ns = list(names)
        self.r.shuffle(ns)
        k = self.r.randint(1, len(ns))
        cuts = sorted(self.r.sample(range(1, len(ns)), k - 1)) if k > 1 else []
        groups = []
        prev = 0
        for c in cuts + [len(ns)]:
            groups.append(ns[prev:c])
            prev = c
        return ' + '.join('rec{%s}' % ', '.join(g) for g in groups)

    def method_block(self, fields, params, funcs, n, can_change=True):
        vars = [Var(f, t, can_change, False) for f, t, _ in fields]
        vars += [Var(p, t) for p, t in params]
        sc = Scope(vars, funcs, can_print=False, budget=FUNC_BUDGET)
        return sc, self.block(sc, n, 1)

    def part_pool(self, funcs):
        r = self.r
        cls = self.fresh('P')
        fields = self.fields(r.randint(2, 6))
        fnames = [f for f, _, _ in fields]
        ints = [f for f, t, _ in fields if t == INT]
        if not ints:
            f = self.fresh('g')
            fields.append((f, INT, None))
            fnames.append(f)
            ints = [f]
        key = ints[0]
        linked = self.chance(0.4)
        lines = self.field_lines(fields)
        if linked:
            lines.append('var next: %s = null' % cls)
        # init(k): sets the key and maybe more.
        isc, ibody = self.method_block(fields, [('k', INT)], funcs, r.randint(0, 2))
        lines.append('def init(k: int) {')
        lines += self.indent(['%s = k' % key] + ibody)
        lines.append('}')
        ssc, sbody = self.method_block(fields, [('d', INT)], funcs, r.randint(1, 4))
        lines.append('def step(d: int) {')
        lines += self.indent(sbody)
        lines.append('}')
        qsc, qbody = self.method_block(fields, [], funcs, r.randint(0, 2), can_change=False)
        qbody += self.fold(qsc, 'dg')
        lines.append('def score(): int {')
        lines += self.indent(qbody + ['return dg + %s' % self.expr(INT, qsc, 2)])
        lines.append('}')
        self.top.append('class %s {\n%s\n}' % (cls, '\n'.join(self.indent(lines))))
        all_fields = fnames + (['next'] if linked else [])
        layout = None
        if r.random() < 0.5:
            layout = self.fresh('L')
            self.top.append('layout %s: %s = %s' % (layout, cls, self.random_split(all_fields)))
        spec = layout or self.pick(('aos', 'soa', None))
        pname = self.fresh('ps')
        where = self.pick(('', '', ' on node(1)', ' on node(0)'))
        decl = 'pool %s: %s%s%s' % (pname, cls, ' layout ' + spec if spec else '', where)
        top_level = self.chance(0.5)
        if top_level:
            self.top.append(decl)
        # A function over any pool of the class, and one generic in a place.
        visit = self.fresh('visit')
        self.top.append('def %s(p: pool %s, d: int): int {\n  var s = 0\n  for o in p {\n'
                        '    o.step(d)\n    s = s * 31 + o.score()\n  }\n  return s\n}' % (visit, cls))
        peek = self.fresh('peek')
        self.top.append('def %s<q>(o: %s<q>): int { return o.score() + o.%s }' % (peek, cls, key))
        name = self.fresh('part')
        sc = Scope([], funcs, can_print=True)
        body = []
        if not top_level:
            body.append(decl)
        n = r.randint(1, 40)
        body.append('for i in 0..%d {' % n)
        body.append('  let o = new %s<%s>(i * %d - %d)' % (cls, pname, r.randint(1, 9), r.randint(0, 20)))
        osc = Scope([Var('i', INT)], funcs)
        osc.iters = n
        for f, t, _ in fields:
            if self.chance(0.4):
                body.append('  o.%s = %s' % (f, self.expr(t, osc, 2) if t != STRING else self.ne_string(osc, 1)))
        if linked:
            body.append('  if i > 0 { o.next = %s[i - 1] }' % pname)
        body.append('}')
        body.append('println("%s " + %s.size + " " + %s(%s, %d))' % (name, pname, visit, pname, r.randint(-5, 5)))
        # A loop over the pool updating fields from expressions over them.
        body.append('var h = 0')
        body.append('for o in %s {' % pname)
        fsc = Scope([Var('h', INT, True)], funcs)
        for f, t, _ in fields:
            if self.chance(0.5):
                esc = fsc.child()
                esc.vars += [Var('o.' + g, tg) for g, tg, _ in fields]
                esc.frozen.add('h')
                body.append('  o.%s = %s' % (f, self.expr(t, esc, 2)))
        body.append('  h = h * 7 + o.%s' % key)
        if linked:
            body.append('  if o.next != null { h += o.next.%s }' % key)
        body.append('}')
        body.append('println("%s h " + h)' % name)
        idx = '((h %% %s.size) + %s.size) %% %s.size' % (pname, pname, pname)
        body.append('let chosen = %s[%s]' % (pname, idx))
        body.append('let plain = new %s(%d)' % (cls, r.randint(0, 9)))
        body.append('plain.step(%d)' % r.randint(0, 9))
        body.append('println(%s(chosen) + " " + %s(plain) + " " + (chosen == %s[%s]) + " " + (chosen == null))'
                    % (peek, peek, pname, idx))
        s2 = Scope([Var('chosen.' + g, t) for g, t, _ in fields] + [Var('h', INT)], funcs, can_print=True)
        body.append(self.s_print(s2))
        if 'actors' in self.o.parts and self.chance(0.5):
            # An actor, on another node, that works on the pool (§6, §10:
            # a pool lives on its node; other nodes' accesses are remote).
            pw = self.fresh('PW')
            m = ['def count(q: pool %s, d: int): int {\n    var n = 0\n    for o in q {\n'
                 '      o.step(d)\n      n = n * 3 + o.score()\n    }\n    return n + q.size\n  }' % cls]
            calls = ['println("%s w " + (get w!count(%s, %d)))' % (name, pname, r.randint(-3, 3))]
            if top_level:
                m.append('def sum(): int {\n    var s = 0\n    for o in %s { s = s * 3 + o.%s }\n'
                         '    return s + %s.size\n  }' % (pname, key, pname))
                m.append('def grow(n: int): int {\n    for i in 0..n { new %s<%s>(i * 2) }\n    return %s.size\n  }'
                         % (cls, pname, pname))
                m.append('def poke(i: int, v: int): int {\n    let o = %s[((i %% %s.size) + %s.size) %% %s.size]\n'
                         '    o.%s = v\n    return o.score()\n  }' % (pname, pname, pname, pname, key))
                calls += ['println(get w!sum())',
                          'println((get w!grow(%d)) + " " + %s.size)' % (r.randint(0, 5), pname),
                          'println((get w!poke(%d, %d)) + " " + %s[0].%s)' % (r.randint(0, 50), r.randint(-99, 99), pname, key)]
            self.top.append('active class %s {\n%s\n}' % (pw, '\n'.join(self.indent(m))))
            body.append('let w = new %s<node(%d)>' % (pw, r.randint(0, 3)))
            body += calls
            body.append('println(%s(%s, 0))' % (visit, pname))
        if self.o.errors and self.chance(self.o.error_rate * 0.5):
            body += self.error_here('pool', sc, pool=pname, cls=cls, key=key)
        self.emit_part(name, 'pool', body)
        return funcs

    def part_graph(self, funcs):
        r = self.r
        node, edge = self.fresh('N'), self.fresh('E')
        nf = self.fields(r.randint(1, 3), (INT, BOOL, STRING))
        ef = self.fields(r.randint(1, 3), (INT, FLOAT, STRING))
        self.top.append('class %s<n, e> {\n  var id: int\n%s\n  var out: %s<e, n> = null\n}'
                        % (node, '\n'.join(self.indent(self.field_lines(nf))), edge))
        self.top.append('class %s<e, n> {\n  var w: int\n%s\n  var to: %s<n, e> = null\n}'
                        % (edge, '\n'.join(self.indent(self.field_lines(ef))), node))
        ns, es = self.fresh('ns'), self.fresh('es')
        nlay = self.pick(('aos', 'soa', self.random_split(['id', 'out'] + [f for f, _, _ in nf])))
        elay = self.pick(('aos', 'soa', self.random_split(['w', 'to'] + [f for f, _, _ in ef])))
        top_level = self.chance(0.5)
        decls = ['pool %s: %s<%s, %s> layout %s' % (ns, node, ns, es, nlay),
                 'pool %s: %s<%s, %s> layout %s' % (es, edge, es, ns, elay)]
        if top_level:
            self.top += decls
        total = self.fresh('total')
        self.top.append('def %s(p: pool %s): int {\n  var s = 0\n  for v in p {\n'
                        '    if v.out != null { s = s * 3 + v.out.w + v.out.to.id }\n  }\n  return s\n}'
                        % (total, node))
        wsum = self.fresh('weight')
        self.top.append('def %s<a, b>(v: %s<a, b>): int {\n  if v.out == null { return -1 }\n'
                        '  return v.out.w * 10 + v.out.to.id\n}' % (wsum, node))
        name = self.fresh('part')
        body = []
        if not top_level:
            body.append('pool %s: %s<%s, %s> layout %s, %s: %s<%s, %s> layout %s'
                        % (ns, node, ns, es, nlay, es, edge, es, ns, elay))
        n = r.randint(1, 12)
        body.append('for i in 0..%d { new %s<%s, %s>.id = i * %d }' % (n, node, ns, es, r.randint(1, 5)))
        body.append('for i in 0..%d {' % n)
        body.append('  let x = new %s<%s, %s>' % (edge, es, ns))
        body.append('  x.to = %s[(i * %d + 1) %% %s.size]' % (ns, r.randint(1, 7), ns))
        body.append('  x.w = i * %d - %d' % (r.randint(1, 9), r.randint(0, 9)))
        isc = Scope([Var('i', INT)], funcs)
        for f, t, _ in ef:
            if self.chance(0.5):
                body.append('  x.%s = %s' % (f, self.expr(t, isc, 1)))
        body.append('  if i %% %d != 0 { %s[i].out = x }' % (r.randint(2, 4), ns))
        body.append('}')
        body.append('println("%s " + %s(%s) + " " + %s(%s[0]) + " " + %s.size)' % (name, total, ns, wsum, ns, es))
        body.append('let c = new %s<here, here>' % node)
        body.append('c.out = new %s<here, here>' % edge)
        body.append('c.out.to = c')
        body.append('c.out.w = %d' % r.randint(0, 99))
        body.append('println(%s(c))' % wsum)
        body.append('var s = ""')
        body.append('for x in %s { s += x.w + ":" + x.to.id + " " }' % es)
        body.append('println(s)')
        self.emit_part(name, 'graph', body)
        return funcs

    def part_places(self, funcs):
        r = self.r
        acc, link = self.fresh('Acc'), self.fresh('Link')
        # Acc<n>: declared effects that are exactly what the bodies do.
        self.top.append(
            'class %s<n> {\n'
            '  var bal: int = %d\n'
            '  var hist: [int] = [0]\n'
            '  var tag: string = "%s"\n'
            '  var notes: Map<string, int> = {"x": 1}\n'
            '  def dep(x: int) writes(n) {\n'
            '    bal += x\n'
            '    hist.push(x %% %d)\n'
            '    notes["d" + (x & 3)] = notes.get("d", 0) + x\n'
            '  }\n'
            '  def total(): int reads(n) {\n'
            '    var s = bal\n'
            '    for h in hist { s = s * 3 + h }\n'
            '    for k in notes { s = s * 5 + notes[k] + k.length }\n'
            '    return s\n'
            '  }\n'
            '}' % (acc, r.randint(-9, 99), self.pick(('a', 'b', 'acc')), r.randint(2, 100)))
        self.top.append(
            'class %s<n, m> {\n'
            '  var near: %s<n>\n'
            '  var far: %s<m>\n'
            '  var moves: int\n'
            '  def init(a: %s<n>, b: %s<m>) { near = a; far = b }\n'
            '  def shift(k: int) writes(n, m) {\n'
            '    near.dep(k)\n'
            '    far.dep(0 - k)\n'
            '    moves += 1\n'
            '  }\n'
            '}' % (link, acc, acc, acc, acc))
        move = self.fresh('move')
        self.top.append('def %s<p, q>(a: %s<p>, b: %s<q>, k: int) writes(p, q) {\n'
                        '  a.dep(k)\n  b.dep(k * %d)\n}' % (move, acc, acc, r.randint(-3, 3)))
        sumf = self.fresh('sum')
        self.top.append('def %s<p>(xs: [int]<p>): int {\n  var s = 0\n  for x in xs { s += x }\n'
                        '  return s + xs.length\n}' % sumf)
        name = self.fresh('part')
        places = ['node(0)', 'node(1)', 'here', 'node(2)', 'node(3)']
        pa, pb = self.pick(places), self.pick(places)
        body = ['let a = new %s<%s>' % (acc, pa),
                'let b = new %s<%s>' % (acc, pb),
                'let l = new %s<%s, %s>(a, b)' % (link, pa, pb)]
        n = r.randint(1, 30)
        sc = Scope([Var('i', INT)], funcs)
        body.append('for i in 0..%d {' % n)
        body.append('  l.shift(%s)' % self.expr(INT, sc, 2))
        body.append('  %s(b, a, i)' % move)
        if self.chance(0.5):
            body.append('  a.tag += "" + (i %% %d)' % r.randint(2, 9))
        body.append('}')
        body.append('println("%s " + a.total() + " " + b.total() + " " + l.moves + " " + a.tag)' % name)
        body.append('println(%s(a.hist) + " " + %s(b.hist) + " " + %s(l.far.hist))' % (sumf, sumf, sumf))
        body.append('let far = new %s<node(1)>' % acc)
        body.append('far.bal = a.bal - b.bal')
        body.append('far.hist.push(far.bal % 10)')
        body.append('far.notes["far"] = far.hist.length')
        body.append('if far.notes.has("x") { far.notes["x"] += 2 }')
        body.append('println(far.total() + " " + (l.near == a) + " " + (l.far == b))')
        self.emit_part(name, 'places', body)
        return funcs

    def part_actors(self, funcs):
        r = self.r
        act = self.fresh('A')
        box = self.fresh('Box')
        explicit = self.chance(0.5)
        head = '%s<h>' % act if explicit else act
        fields = [('acc', INT, str(r.randint(0, 9))), ('name', STRING, '"%s"' % self.pick(STRING_WORDS)),
                  ('flag', BOOL, 'false')]
        fl = self.field_lines(fields)
        fl += ['var entries: [int] = [0]', 'var seen: Map<string, int> = {"start": 1}']
        fvars = [Var(f, t, True, f == 'name') for f, t, _ in fields]
        fvars += [Var('entries', '[int]', True), Var('seen', 'Map<string, int>', True)]
        lines = list(fl)
        lines.append('def init(k: int, s: string) {')
        lines += self.indent(['acc = k', 'name = "n" + s'])
        lines.append('}')
        asc = Scope(fvars + [Var('x', INT)], funcs, budget=FUNC_BUDGET)
        lines.append('def add(x: int) {')
        lines += self.indent(['acc += x', 'entries.push(x %% %d)' % r.randint(2, 50)] + self.block(asc, r.randint(0, 3), 1))
        lines.append('}')
        wsc = Scope(fvars + [Var('x', INT), Var('s', STRING)], funcs, budget=FUNC_BUDGET)
        wbody = self.block(wsc, r.randint(1, 5), 2)
        wbody += self.fold(wsc, 'dg')
        lines.append('def work(x: int, s: string): int {')
        lines += self.indent(wbody + ['return dg ^ %s' % self.expr(INT, wsc, 2)])
        lines.append('}')
        tsc = Scope(fvars, funcs, budget=FUNC_BUDGET)
        lines.append('def total(): int { return %s }' % self.expr(INT, tsc, 3))
        lines.append('def describe(): string { return %s }' % self.expr(STRING, tsc, 2))
        lines.append('def relay(o: %s<?>, x: int): int {\n    o!add(x)\n    return x + %d\n  }' % (act, r.randint(0, 9)))
        lines.append('def sum_of(xs: [int]<?>): int {\n    var s = acc\n    for x in xs { s = s * 5 + x }\n'
                     '    return s + xs.length\n  }')
        lines.append('def bump(b: %s<?>, k: int) { b.v += k; b.hits.push(k) }' % box)
        lines.append('def wait_for(f: Fut<int>, k: int): int { return (get f) * 3 + k }')
        lines.append('def spawn(k: int): %s<?> { return new %s<node(k)>(k, "sp") }' % (act, act))
        lines.append('def pooled(n: int): int {\n    pool q: %s layout %s\n'
                     '    for i in 0..n { new %s<q>.v = i * acc }\n'
                     '    var s = 0\n    for b in q { s += b.v }\n    return s + q.size\n  }'
                     % (box, self.pick(('aos', 'soa', 'rec{v} + rec{hits}')), box))
        actor_error = not self.error_done and self.o.errors and self.chance(self.o.error_rate * 0.5)
        if actor_error:
            esc = Scope(fvars + [Var('x', INT)], funcs, budget=FUNC_BUDGET)
            lines.append('def boom(x: int): int {')
            lines += self.indent(self.error_here('actor', esc) + ['return x'])
            lines.append('}')
        self.top.append('class %s {\n  var v: int\n  var hits: [int] = [1]\n}' % box)
        self.top.append('active class %s {\n%s\n}' % (head, '\n'.join(self.indent(lines))))
        name = self.fresh('part')
        body = []
        na, nb = r.randint(0, 3), r.randint(0, 3)
        body.append('let a = new %s<node(%d)>(%d, "a")' % (act, na, r.randint(0, 9)))
        if self.chance(0.5):
            body.append('var k = %d' % r.randint(0, 5))
            body.append('let b = new %s<node(k)>(k, "b")' % act)
        else:
            body.append('let b = new %s<node(%d)>(%d, "b")' % (act, nb, r.randint(0, 9)))
        n = r.randint(1, 20)
        sc = Scope([Var('i', INT)], funcs)
        body.append('for i in 0..%d { a!add(%s) }' % (n, self.expr(INT, sc, 2)))
        wsc2 = Scope([], funcs, can_print=True)
        body.append('let f = a!work(%s, %s)' % (self.expr(INT, wsc2, 2), self.expr(STRING, wsc2, 1)))
        body.append('println("%s " + (get f))' % name)
        body.append('println((get b!relay(a, %d)) + " " + (get a!total()) + " " + (get a!describe()))' % r.randint(-9, 9))
        body.append('var fs: [Fut<int>] = []')
        body.append('for i in 0..%d { fs.push(b!work(i, "w" + i)) }' % r.randint(1, 8))
        body.append('var t = 0')
        body.append('for g in fs { t = t * 7 + (get g) }')
        body.append('println(t)')
        body.append('println(get a!sum_of([%s]))' % ', '.join(self.expr(INT, wsc2, 1) for _ in range(r.randint(1, 4))))
        if self.chance(0.5):
            body.append('let f2 = a!work(%d, "f")' % r.randint(0, 9))
            body.append('println(get b!wait_for(f2, %d))' % r.randint(0, 9))
        body.append('let bx = new %s' % box)
        body.append('get b!bump(bx, %d)' % r.randint(0, 9))
        body.append('get a!bump(bx, %d)' % r.randint(0, 9))
        body.append('println(bx.v + " " + bx.hits.length)')
        if self.chance(0.6):
            body.append('let c = get a!spawn(%d)' % r.randint(0, 7))
            body.append('c!add(%d)' % r.randint(0, 9))
            body.append('println((get c!total()) + " " + (get c!pooled(%d)))' % r.randint(0, 20))
        if actor_error:
            body.append('println("before " + (get b!total()))')
            body.append('println(get b!boom(%d))' % r.randint(0, 9))
            self.error_done = True
        self.emit_part(name, 'actors', body)
        return funcs

    def part_generic(self, funcs):
        r = self.r
        stack, pair, cell, gact = self.fresh('Stack'), self.fresh('Pair'), self.fresh('Cell'), self.fresh('Keeper')
        self.top.append(
            'class %s[T] {\n'
            '  var items: [T] = []\n'
            '  def push(x: T) { items.push(x) }\n'
            '  def pop_or(d: T): T {\n'
            '    if items.length == 0 { return d }\n'
            '    return items.pop()\n'
            '  }\n'
            '  def size(): int { return items.length }\n'
            '  def has(x: T): bool { return items.contains(x) }\n'
            '}' % stack)
        self.top.append(
            'class %s[A, B]<n> {\n'
            '  val first: A\n'
            '  val second: B\n'
            '  def init(a: A, b: B) {\n    first = a\n    second = b\n  }\n'
            '  def swap(): %s[B, A]<n> { return new %s[B, A]<n>(second, first) }\n'
            '}' % (pair, pair, pair))
        self.top.append(
            'class %s[T] {\n'
            '  var key: int\n'
            '  var val0: T\n'
            '  var tag: bool\n'
            '  def set(k: int, v: T) {\n    key = k\n    val0 = v\n    tag = k %% 2 == 0\n  }\n'
            '}' % cell)
        lay = self.fresh('GL')
        self.top.append('layout %s: %s = %s' % (lay, cell, self.random_split(['key', 'val0', 'tag'])))
        self.top.append(
            'active class %s[T] {\n'
            '  var value: T\n'
            '  var count: int\n'
            '  def init(v: T) { value = v }\n'
            '  def swap(v: T): T {\n    let old = value\n    value = v\n    count += 1\n    return old\n  }\n'
            '  def times(): int { return count }\n'
            '}' % gact)
        sizef = self.fresh('filled')
        self.top.append('def %s[T](s: %s[T], xs: [T]): int {\n  for x in xs { s.push(x) }\n  return s.size()\n}'
                        % (sizef, stack))
        et = self.pick((INT, STRING) + ((FLOAT,) if self.o.floats else ()))
        cells = self.fresh('cells')
        cells_body = '  var n = 0\n  for c in p { if c.tag { n += c.key } }\n  return n + p.size\n}'
        cells_s = cells
        self.top.append('def %s[T](p: pool %s[T]): int {\n%s' % (cells, cell, cells_body))
        gp = self.fresh('gp')
        self.top.append('pool %s: %s[%s] layout %s' % (gp, cell, et, self.pick((lay, 'soa', 'aos'))))
        name = self.fresh('part')
        sc = Scope([Var('i', INT)], funcs)
        body = ['let s = new %s[%s]' % (stack, et)]
        body.append('for i in 0..%d { s.push(%s) }' % (r.randint(0, 9), self.expr(et, sc, 2)))
        esc = Scope([], funcs, can_print=True)
        body.append('println("%s " + s.size() + " " + s.pop_or(%s) + " " + s.has(%s))'
                    % (name, self.expr(et, esc, 1), self.expr(et, esc, 1)))
        body.append('let ws = new %s[[string]]' % stack)
        body.append('ws.push(%s.split(","))' % self.string_operand(esc, 1))
        body.append('println(ws.pop_or(["none"]).length + " " + ws.size())')
        body.append('let p = new %s[int, %s[%s]]<node(%d)>(%d, s)' % (pair, stack, et, r.randint(0, 1), r.randint(0, 99)))
        body.append('let q = p.swap()')
        body.append('println(q.second + " " + q.first.size() + " " + (q.first == s))')
        body.append('println(%s(new %s[int], [%s]))' % (sizef, stack, ', '.join(self.expr(INT, esc, 1) for _ in range(r.randint(1, 4)))))
        body.append('for i in 0..%d {\n    let c = new %s[%s]<%s>\n    c.set(i * %d, %s)\n  }'
                    % (r.randint(1, 20), cell, et, gp, r.randint(1, 9), self.expr(et, sc, 1)))
        body.append('println(%s(%s) + " " + %s[0].key)' % (cells, gp, gp))
        body.append('pool lp: %s[string] layout %s' % (cell, self.pick((lay, 'soa', 'aos'))))
        body.append('for i in 0..%d { new %s[string]<lp>.set(i, "c" + i) }' % (r.randint(1, 9), cell))
        body.append('println(%s(lp) + " " + lp[lp.size - 1].val0)' % cells_s)
        body.append('let k = new %s[%s]<node(%d)>(%s)' % (gact, et, r.randint(0, 3), self.expr(et, esc, 1)))
        body.append('println((get k!swap(%s)) + " " + (get k!swap(%s)) + " " + (get k!times()))'
                    % (self.expr(et, esc, 1), self.expr(et, esc, 1)))
        if self.chance(0.5):
            body.append('let kl = new %s[[int]]<node(1)>([1, 2])' % gact)
            body.append('println((get kl!swap([])).length + " " + (get kl!swap([3])).length)')
        self.emit_part(name, 'generic', body)
        return funcs

    def part_objects(self, funcs):
        r = self.r
        tree = self.fresh('T')
        self.top.append('class %s {\n  var left: %s = null\n  var right: %s = null\n  var value: int\n'
                        '  var label: string = "t"\n}' % (tree, tree, tree))
        build, total, depth = self.fresh('build'), self.fresh('tsum'), self.fresh('depth')
        self.top.append('def %s(d: int, v: int): %s {\n  let t = new %s\n  t.value = v\n'
                        '  if d > 0 {\n    t.left = %s(d - 1, v * 2 + %d)\n    if d %% %d != 0 { t.right = %s(d - 1, v * 3 - 1) }\n  }\n'
                        '  return t\n}' % (build, tree, tree, build, r.randint(0, 3), r.randint(2, 4), build))
        self.top.append('def %s(t: %s): int {\n  if t == null { return 0 }\n'
                        '  return t.value + %s(t.left) * %d - %s(t.right)\n}' % (total, tree, total, r.randint(1, 5), total))
        self.top.append('def %s(t: %s): int {\n  if t == null { return 0 }\n'
                        '  return 1 + max(%s(t.left), %s(t.right))\n}' % (depth, tree, depth, depth))
        fib = self.fresh('fib')
        self.top.append('def %s(n: int): int {\n  if n < 2 { return n }\n  return %s(n - 1) + %s(n - 2)\n}' % (fib, fib, fib))
        even, odd = self.fresh('even'), self.fresh('odd')
        self.top.append('def %s(n: int): bool {\n  if n == 0 { return true }\n  return %s(n - 1)\n}' % (even, odd))
        self.top.append('def %s(n: int): bool {\n  if n == 0 { return false }\n  return %s(n - 1)\n}' % (odd, even))
        name = self.fresh('part')
        d = r.randint(0, 9)
        body = ['let t = %s(%d, %d)' % (build, d, r.randint(-5, 5)),
                'println("%s " + %s(t) + " " + %s(t) + " " + %s(%d) + " " + %s(%d))'
                % (name, total, depth, fib, r.randint(0, 20), even, r.randint(0, 3000)),
                'var l: %s = null' % tree,
                'for i in 0..%d {' % r.randint(0, 50),
                '  let c = new %s' % tree,
                '  c.value = i * i',
                '  c.left = l',
                '  c.label = "n" + i',
                '  l = c',
                '}',
                'var s = 0',
                'var names = ""',
                'var it = l',
                'while it != null {',
                '  s = s * 3 + it.value',
                '  names = it.label',
                '  it = it.left',
                '}',
                'println(s + " " + names)']
        self.emit_part(name, 'objects', body)
        return funcs

    # ---- runtime errors ---------------------------------------------------

    def error_here(self, where, sc, pool=None, cls=None, key=None):
        """Lines that end the program with a runtime error, whatever the
        values around (§6); nothing after them runs."""
        if self.error_done or not self.o.errors:
            return []
        self.error_done = True
        kinds = list(self.o.error_kinds or ERROR_KINDS)
        if pool is None and 'pool_index' in kinds and len(kinds) > 1:
            kinds.remove('pool_index')
        if not self.o.floats and 'conversion' in kinds and len(kinds) > 1:
            kinds.remove('conversion')
        kind = self.pick(kinds)
        if kind == 'pool_index' and pool is None:
            kind = 'index'
        z = self.fresh('z')
        e = self.expr(INT, sc, 1)
        pre = ['var %s = %s' % (z, e), '%s -= %s' % (z, z)]   # a zero the compiler must compute
        if kind == 'div':
            return pre + ['let %s = %s / %s' % (self.fresh('bad'), self.expr(INT, sc, 1), z),
                          'println("unreachable")' if sc.can_print else 'acc += 0' if where == 'actor' else '%s += 0' % z]
        if kind == 'rem':
            return pre + ['%s = 5 %% %s' % (z, z)]
        if kind == 'index':
            a = self.fresh('arr')
            return pre + ['let %s = [%s, 2, 3]' % (a, e), '%s += %s[%s.length + %s]' % (z, a, a, z)]
        if kind == 'index_neg':
            a = self.fresh('arr')
            return pre + ['let %s = new [int](4)' % a, '%s[%s - 1] = 7' % (a, z)]
        if kind == 'pool_index':
            return pre + ['%s += %s[%s.size + %s].%s' % (z, pool, pool, z, key)]
        if kind == 'null':
            c = self.fresh('Nul')
            self.top.append('class %s {\n  var f: int\n}' % c)
            o = self.fresh('o')
            return pre + ['var %s: %s = null' % (o, c), 'if %s == 0 { %s.f = 1 }' % (z, o)]
        if kind == 'missing_key':
            m = self.fresh('m')
            return pre + ['let %s = {"present": 1}' % m, '%s += %s["absent" + %s]' % (z, m, z)]
        if kind == 'pop_empty':
            a = self.fresh('arr')
            return pre + ['let %s: [int] = []' % a, '%s += %s.pop()' % (z, a)]
        if kind == 'parse_int':
            return pre + ['%s += parse_int("12x" + %s)' % (z, z)]
        if kind == 'conversion':
            return pre + ['%s += int(1.0 / float(%s))' % (z, z)]
        if kind == 'negative_length':
            a = self.fresh('arr')
            return pre + ['let %s = new [string](%s - %d)' % (a, z, self.r.randint(1, 9)),
                          '%s += %s.length' % (z, a)]
        if kind == 'string_index':
            s = self.fresh('s')
            return pre + ['let %s = "abc" + %s' % (s, z), '%s += %s.byte(%s.length + %s)' % (z, s, s, z)]
        if kind == 'slice':
            s = self.fresh('s')
            return pre + ['let %s = "abc"' % s, '%s += %s.slice(%s + 2, %s + 1).length' % (z, s, z, z)]
        if kind == 'split_empty':
            return pre + ['%s += "a,b".split("" + %s.slice(0, 0)).length' % (z, '"x"')]
        if kind == 'char':
            return pre + ['%s += char(0xD800 + %s).length' % (z, z)]
        if kind == 'remove_index':
            a = self.fresh('arr')
            return pre + ['let %s = [1, 2]' % a, '%s += %s.remove(%s + 2)' % (z, a, z)]
        if kind == 'exit':
            # Not a runtime error: the program ends with this status (§8).
            return pre + ['exit(%d + %s)' % (self.r.randint(0, 300), z)]
        if kind == 'insert_index':
            a = self.fresh('arr')
            return pre + ['let %s = [1, 2]' % a, '%s.insert(%s - 1, 9)' % (a, z)]
        raise ValueError(kind)

    def part_error(self, funcs):
        """A part that ends the program with a runtime error, in main's own
        code, in a function or in a method it calls."""
        name = self.fresh('part')
        sc = Scope([], funcs, can_print=True)
        body = self.block(sc, self.r.randint(1, 4), 1)
        body.append(self.s_print(sc))
        where = self.pick(('here', 'function', 'method'))
        if where == 'here':
            body += self.error_here('main', sc)
        elif where == 'function':
            f = self.fresh('fails')
            fsc = Scope([Var('n', INT)], funcs)
            self.top.append('def %s(n: int): int {\n%s\n  return n\n}' % (f, '\n'.join(self.indent(self.error_here('function', fsc)))))
            body.append('println(%s(%d))' % (f, self.r.randint(0, 9)))
        else:
            c = self.fresh('Fails')
            msc = Scope([Var('n', INT), Var('w', INT, True)], funcs)
            m = self.indent(self.error_here('method', msc), 2)
            self.top.append('class %s {\n  var w: int\n  def go(n: int): int {\n%s\n    return n + w\n  }\n}'
                            % (c, '\n'.join(m)))
            body.append('println(new %s<node(%d)>.go(%d))' % (c, self.r.randint(0, 1), self.r.randint(0, 9)))
        self.emit_part(name, 'error', body)
        return funcs

    # ---- the program ------------------------------------------------------

    def program(self):
        r = self.r
        kinds = [k for k in ALL_PARTS if k in self.o.parts]
        chosen = []
        if 'compute' in kinds:
            chosen.append('compute')
        others = [k for k in kinds if k != 'compute']
        if others:
            chosen += r.sample(others, min(len(others), r.randint(1, 3)))
        if 'compute' in kinds and self.chance(0.3):
            chosen.append('compute')
        r.shuffle(chosen)
        funcs = []
        for k in chosen:
            funcs = getattr(self, 'part_' + k)(funcs)
        if self.o.errors and not self.error_done and (self.o.error_kinds or self.chance(self.o.error_rate)):
            self.part_error(funcs)
        ret = self.chance(0.2)
        main = ['def main()%s {' % (': int' if ret else '')]
        for name, _, body in self.parts:
            if body is None:
                main.append('  %s()' % name)
            else:
                main += ['  // %s' % name, '  {'] + self.indent(body, 2) + ['  }']
        if ret:
            main.append('  return %d' % r.randint(0, 300))
        main.append('}')
        head = ['// Mosaic differential fuzzer program, seed %d (tests/fuzz/gen.py)' % self.seed,
                '// parts: %s' % ' '.join(k for _, k, _ in self.parts)]
        decls = list(self.helpers.values()) + self.top
        return '\n'.join(head) + '\n\n' + '\n\n'.join(decls) + '\n\n' + '\n'.join(main) + '\n'


# Generic helpers (§11), emitted when used.
PICK = 'def pick[T](c: bool, a: T, b: T): T {\n  if c { return a }\n  return b\n}'
LAST_OR = ('def last_or[T]<p>(xs: [T]<p>, d: T): T {\n  if xs.length == 0 { return d }\n'
           '  return xs[xs.length - 1]\n}')
COUNT_OF = ('def count_of[T]<p>(xs: [T]<p>, v: T): int {\n  var n = 0\n'
            '  for x in xs { if x == v { n += 1 } }\n  return n\n}')
BOX_ROUND = ('class Box[T] {\n  var item: T\n}\n\n'
             'def box_round[T](v: T): T {\n  let b = new Box[T]\n  b.item = v\n  let s = [b.item]\n'
             '  return s[0]\n}')
CAP = ('def cap(s: string): string {\n  if s.length > 48 { return s.slice(0, 48) }\n'
       '  return s\n}')
BYTE_OR = ('def byte_or(s: string, i: int): int {\n  if s.length == 0 { return -1 }\n'
           '  return s.byte(((i % s.length) + s.length) % s.length)\n}')


def options(argv=None):
    ap = argparse.ArgumentParser(description='Print a seeded, well-typed, deterministic Mosaic program.')
    ap.add_argument('--seed', type=int, default=1)
    add_switches(ap)
    return ap.parse_args(argv)


def add_switches(ap):
    """The generation switches, shared with differential.py."""
    for p in ALL_PARTS:
        ap.add_argument('--no-' + p, dest='no_' + p, action='store_true',
                        help='generate no %s part' % p)
    ap.add_argument('--no-floats', action='store_true', help='no float values')
    ap.add_argument('--no-libm', action='store_true', help='no sin, cos, exp, log')
    ap.add_argument('--no-generics', action='store_true', help='no generic helper functions in expressions')
    ap.add_argument('--no-errors', action='store_true', help='never end with a runtime error')
    ap.add_argument('--error', action='append', choices=ERROR_KINDS, metavar='KIND',
                    help='end every program with a runtime error of this kind (repeatable)')
    ap.add_argument('--known-bugs', choices=('avoid', 'include'), default='avoid',
                    help='keep clear of the reported compiler bugs of KNOWN_BUGS (default) or not')
    ap.add_argument('--error-rate', type=float, default=0.25,
                    help='share of programs that end with a runtime error (default 0.25)')


def gen_options(args):
    """The generator's options from parsed switches."""
    class O:
        pass
    o = O()
    o.parts = [p for p in ALL_PARTS if not getattr(args, 'no_' + p)]
    o.floats = not args.no_floats
    o.libm = not args.no_libm
    o.generics = not args.no_generics
    o.errors = not args.no_errors
    o.error_kinds = args.error
    o.error_rate = args.error_rate
    o.avoid = set(KNOWN_BUGS) if args.known_bugs == 'avoid' else set()
    return o


def generate(seed, opts):
    return Gen(seed, opts).program()


def main():
    args = options()
    sys.stdout.write(generate(args.seed, gen_options(args)))


if __name__ == '__main__':
    main()

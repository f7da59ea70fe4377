#!/usr/bin/env python3
"""differential.py — Mosaic's differential fuzzer (tests/fuzz/README.md).

Every program that gen.py makes (or that is named on the command line) is
built and run in every variant below; all must print the same bytes on
stdout and end the same way: the same exit status and, for a runtime
error, the same `FILE:LINE:COL: runtime error: ...` line (LANGUAGE.md §6).

  O0            -O0, the reference
  O2            -O2
  O2 nodes=1    -O2 with MOSAIC_NODES=1
  O2 nodes=2    -O2 with MOSAIC_NODES=2
  O0 nodes=2    -O0 with MOSAIC_NODES=2
  no-checks     -O2 --no-checks, MOSAIC_NODES=2 (programs without a runtime
                error only: the program is unsafe otherwise)
  layout P=S    -O2 --layout P=S, MOSAIC_NODES=2, for every pool P that
                `mosaicc --layouts` lists and S each of aos, soa and a
                random split of its fields into clusters
  count-remote  -O2 --count-remote, MOSAIC_NODES=2: stdout unchanged, and
                the report (stderr) present and without "(not predicted)"
  mpi           --distributed -O2 under `mpirun -np 2` (when mpirun is on
                the PATH and mosaicc builds for it, or --mpi yes)
  mpi count-remote  the same with --count-remote: its report's access
                lines must be those of count-remote (§10)

Local variants must also write the same stderr as the reference (apart
from the remote-access report).  Every compilation and run has a timeout:
a hang is a finding, as is a crash of mosaicc or of a program (a signal),
and a generated program that `mosaicc --check` refuses (a generator bug or
a checker bug: decide from LANGUAGE.md).

With --mutate, the fuzzer feeds the front end broken programs instead:
generated programs and tests/fuzz/corpus/*.mos with tokens dropped,
swapped and duplicated.  `mosaicc --check` must accept a mutant (status 0)
or reject it with status 1 and at least one `FILE:LINE:COL: error[CODE]:`
diagnostic (every error line must have a location and a code); anything
else (another status, a signal, a timeout, an error without a code or a
location) is a finding.  An accepted mutant must also compile (-O0).

Findings are written to --findings DIR (default ./fuzz-findings), one
directory per program, with the program, what disagreed and the commands
that show it.  Replay a generated program with `--seed N --count 1`.
"""

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

COMPILE_TIMEOUT = 120   # seconds for one mosaicc run (a loaded 2-core machine)
RUN_TIMEOUT = 30        # seconds for one run of a generated program (they take milliseconds)
CHECK_TIMEOUT = 30      # seconds for mosaicc --check of one mutant

ERROR_RE = re.compile(rb'^.*: runtime error: .*$', re.M)
DIAG_RE = re.compile(r'^(.+):(\d+):(\d+): error\[([EW]\d{4})\]: .+$')


class Result:
    """How one command ended: status (negative: killed by that signal;
    None: timed out), stdout and stderr as bytes."""

    def __init__(self, status, out, err, seconds):
        self.status = status
        self.out = out
        self.err = err
        self.seconds = seconds

    def ending(self):
        if self.status is None:
            return 'timed out'
        if self.status < 0:
            return 'killed by signal %d (%s)' % (-self.status, signal.Signals(-self.status).name)
        return 'exit %d' % self.status

    def error_line(self):
        m = ERROR_RE.search(self.err)
        return m.group(0).decode('utf-8', 'replace') if m else None


def run(argv, env=None, timeout=RUN_TIMEOUT, cwd=None, stdin=subprocess.DEVNULL):
    """Runs argv in a process group of its own (so that a timeout kills
    mpirun's ranks too)."""
    e = dict(os.environ)
    for k in ('MOSAIC_NODES', 'MOSAIC_THREADS'):
        e.pop(k, None)
    if env:
        e.update(env)
    t0 = time.time()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=stdin,
                         env=e, cwd=cwd, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        status = None
    return Result(status, out, err, time.time() - t0)


def shell_line(argv, env=None):
    words = ['%s=%s' % kv for kv in sorted((env or {}).items())]
    for a in argv:
        words.append(a if re.match(r'^[-\w./=,+:]+$', a) else "'%s'" % a.replace("'", "'\\''"))
    return ' '.join(words)


# ---- layouts ----------------------------------------------------------------

def pools_of(mosaicc, prog, cwd):
    """The pools of a program and their fields, from `mosaicc --layouts`:
    [(name, [field, ...])] in source order, each name once."""
    r = run([mosaicc, '--layouts', prog], timeout=COMPILE_TIMEOUT, cwd=cwd)
    if r.status != 0:
        return None, r
    pools = []
    seen = set()
    cur = None
    for line in r.out.decode('utf-8', 'replace').splitlines():
        m = re.match(r'^pool (\w+): ', line)
        if m:
            cur = None
            if m.group(1) not in seen:
                seen.add(m.group(1))
                cur = (m.group(1), [])
                pools.append(cur)
            continue
        m = re.match(r'^  rec\{([^}]*)\}: \d+ bytes per object', line)
        if m and cur is not None:
            cur[1].extend(f.strip() for f in m.group(1).split(',') if f.strip())
    return pools, r


def random_split(fields, rnd):
    fs = list(fields)
    rnd.shuffle(fs)
    k = rnd.randint(1, len(fs))
    cuts = sorted(rnd.sample(range(1, len(fs)), k - 1)) if k > 1 else []
    groups, prev = [], 0
    for c in cuts + [len(fs)]:
        groups.append(fs[prev:c])
        prev = c
    return '+'.join('rec{%s}' % ','.join(g) for g in groups)


# ---- the differential check of one program -----------------------------------

class Variant:
    def __init__(self, name, flags, env=None, mpi=False, when=None):
        self.name = name
        self.flags = flags
        self.env = env or {}
        self.mpi = mpi
        self.when = when          # None, or 'no-error' (only if the reference has no runtime error)


def report_lines(err):
    """The remote-access report's access lines (the `sent from` lines of a
    distributed build are its own, §10)."""
    out = []
    started = False
    for line in err.decode('utf-8', 'replace').splitlines():
        if line.startswith('remote accesses:'):
            started = True
        if started and not line.startswith('  sent from ') and (
                line.startswith('remote accesses:') or line.startswith('  from node ') or
                line.startswith('  at ')):
            out.append(line)
    return out


def non_report_stderr(err):
    text = err.decode('utf-8', 'replace')
    i = text.find('remote accesses:')
    return text if i < 0 else text[:i]


class Fuzzer:
    def __init__(self, args):
        self.a = args
        self.mosaicc = os.path.abspath(args.mosaicc)
        self.work = tempfile.mkdtemp(prefix='mosaic-difffuzz.')
        self.mpi = self.detect_mpi()
        self.programs = 0
        self.runs = 0
        self.builds = 0
        self.findings = []
        self.tap_n = 0
        self.gen_opts = gen.gen_options(args)

    def detect_mpi(self):
        if self.a.mpi == 'no':
            return False
        have = shutil.which('mpirun') is not None
        if have:
            d = tempfile.mkdtemp(prefix='mosaic-mpiprobe.', dir=None)
            try:
                p = os.path.join(d, 'p.mos')
                with open(p, 'w') as f:
                    f.write('def main() { println(nodes()) }\n')
                r = run([self.mosaicc, '--distributed', '-o', os.path.join(d, 'p'), p], timeout=COMPILE_TIMEOUT)
                have = r.status == 0
            finally:
                shutil.rmtree(d, ignore_errors=True)
        if self.a.mpi == 'yes' and not have:
            sys.exit('differential.py: --mpi yes, but mpirun or mosaicc --distributed does not work')
        return have

    def variants(self, pools, seed):
        n2 = {'MOSAIC_NODES': '2'}
        vs = [Variant('O2', ['-O2']),
              Variant('O2 nodes=1', ['-O2'], {'MOSAIC_NODES': '1'}),
              Variant('O2 nodes=2', ['-O2'], n2),
              Variant('O0 nodes=2', ['-O0'], n2),
              Variant('no-checks', ['-O2', '--no-checks'], n2, when='no-error')]
        rnd = random.Random('layouts:%s' % seed)
        for name, fields in pools:
            specs = ['aos', 'soa']
            if len(fields) > 1:
                specs.append(random_split(fields, rnd))
            for s in specs:
                vs.append(Variant('layout %s=%s' % (name, s), ['-O2', '--layout', '%s=%s' % (name, s)], n2))
        vs.append(Variant('count-remote', ['-O2', '--count-remote'], n2))
        if self.mpi:
            vs.append(Variant('mpi', ['-O2', '--distributed'], mpi=True))
            if not self.a.no_mpi_count:
                vs.append(Variant('mpi count-remote', ['-O2', '--distributed', '--count-remote'], mpi=True))
        if self.a.variants:
            keep = [w.strip() for w in self.a.variants.split(',')]
            vs = [v for v in vs if any(v.name.startswith(k) for k in keep)]
        return vs

    def launcher(self, exe, v):
        if v.mpi:
            argv = ['mpirun', '--allow-run-as-root', '--oversubscribe', '-np', '2']
            for k in v.env:
                argv += ['-x', k]
            return argv + [exe]
        return [exe]

    def check_program(self, label, src_text, seed):
        """Runs one program through every variant; returns a list of
        problems (empty: all agree) and a summary."""
        d = os.path.join(self.work, label)
        os.makedirs(d, exist_ok=True)
        prog = os.path.join(d, 'prog.mos')
        with open(prog, 'w') as f:
            f.write(src_text)
        problems = []
        cmds = []

        def compile_(flags, out):
            argv = [self.mosaicc] + flags + ['-o', out, 'prog.mos']
            self.builds += 1
            r = run(argv, timeout=COMPILE_TIMEOUT, cwd=d)
            cmds.append(shell_line(['mosaicc'] + flags + ['-o', os.path.basename(out), 'prog.mos']))
            return r

        r = run([self.mosaicc, '--check', 'prog.mos'], timeout=COMPILE_TIMEOUT, cwd=d)
        if r.status != 0:
            problems.append(('check', 'mosaicc --check refuses the program (%s): a generator or checker bug'
                             % r.ending(), 'mosaicc --check prog.mos', r.err.decode('utf-8', 'replace')[:3000]))
            return problems, 'refused by --check', d
        pools, r = pools_of(self.mosaicc, 'prog.mos', d)
        if pools is None:
            problems.append(('layouts', 'mosaicc --layouts fails (%s)' % r.ending(), 'mosaicc --layouts prog.mos',
                             r.err.decode('utf-8', 'replace')[:3000]))
            pools = []
        # The reference.
        exe0 = os.path.join(d, 'p.O0')
        r = compile_(['-O0'], exe0)
        if r.status != 0:
            problems.append(('compile', 'mosaicc -O0 fails (%s) on a program --check accepts' % r.ending(),
                             'mosaicc -O0 -o p.O0 prog.mos', r.err.decode('utf-8', 'replace')[:3000]))
            return problems, 'does not compile', d
        ref = run([exe0], cwd=d)
        self.runs += 1
        ref_cmd = './p.O0'
        if ref.status is None or ref.status < 0:
            problems.append(('reference', 'the -O0 build %s' % ref.ending(), ref_cmd, ref.err.decode('utf-8', 'replace')[:2000]))
            return problems, 'reference %s' % ref.ending(), d
        ref_error = ref.error_line()
        if ref.status == 101 and ref_error is None:
            problems.append(('reference', 'exit 101 without a runtime error line', ref_cmd,
                             ref.err.decode('utf-8', 'replace')[:2000]))
        builds = {}
        count_report = None
        nvariants = 1
        for v in self.variants(pools, seed):
            if v.when == 'no-error' and ref_error is not None:
                continue
            key = tuple(v.flags)
            if key not in builds:
                exe = os.path.join(d, 'p.%d' % len(builds))
                builds[key] = (exe, compile_(v.flags, exe))
            exe, cr = builds[key]
            build_cmd = shell_line(['mosaicc'] + v.flags + ['-o', os.path.basename(exe), 'prog.mos'])
            if cr.status != 0:
                problems.append((v.name, 'the build fails (%s)' % cr.ending(), build_cmd,
                                 cr.err.decode('utf-8', 'replace')[:3000]))
                continue
            argv = self.launcher(exe, v)
            env = v.env
            if v.mpi:   # its own session directory: mpiruns started at once clash in /tmp
                env = dict(v.env, OMPI_MCA_orte_tmpdir_base=d)
            res = run(argv, env=env, cwd=d)
            self.runs += 1
            nvariants += 1
            run_cmd = shell_line([a if a != exe else './' + os.path.basename(exe) for a in argv], v.env)
            what = []
            if res.status is None or res.status < 0:
                what.append('it %s (the reference: %s)' % (res.ending(), ref.ending()))
            elif res.status != ref.status:
                what.append('%s, the reference %s' % (res.ending(), ref.ending()))
            if res.out != ref.out:
                what.append('stdout differs')
            el = res.error_line()
            if el != ref_error:
                what.append('runtime error line differs: %r, the reference %r' % (el, ref_error))
            counting = '--count-remote' in v.flags
            if not v.mpi and res.status is not None and non_report_stderr(res.err) != ref.err.decode('utf-8', 'replace'):
                what.append('stderr differs')
            if counting:
                rep = report_lines(res.err)
                if not rep:
                    what.append('no remote-access report on stderr')
                if b'(not predicted)' in res.err:
                    what.append('the report has "(not predicted)" lines')
                if not v.mpi:
                    count_report = rep
                elif count_report is not None and rep != count_report:
                    what.append('the report\'s access lines differ from those of count-remote with MOSAIC_NODES=2')
            if what:
                detail = self.diff_text(ref, res)
                if counting and 'report' in ' '.join(what):
                    detail += '\n--- report of this run ---\n' + '\n'.join(report_lines(res.err))
                    if count_report is not None and v.mpi:
                        detail += '\n--- report with MOSAIC_NODES=2 ---\n' + '\n'.join(count_report)
                problems.append((v.name, '; '.join(what), '%s && %s' % (build_cmd, run_cmd),
                                 'reference: mosaicc -O0 -o p.O0 prog.mos && ./p.O0\n' + detail))
        summary = '%d variants (%s%s)' % (nvariants, ref.ending(),
                                            ', runtime error' if ref_error else '')
        return problems, summary, d

    @staticmethod
    def diff_text(ref, res):
        out = []
        a = ref.out.decode('utf-8', 'replace').splitlines()
        b = res.out.decode('utf-8', 'replace').splitlines()
        if a != b:
            import difflib
            out.append('--- stdout: reference / this variant ---')
            out += list(difflib.unified_diff(a, b, 'reference', 'variant', lineterm='', n=2))[:40]
        out.append('--- stderr of this variant (first lines) ---')
        out += res.err.decode('utf-8', 'replace').splitlines()[:15]
        out.append('--- stderr of the reference (first lines) ---')
        out += ref.err.decode('utf-8', 'replace').splitlines()[:15]
        return '\n'.join(out)

    # ---- findings and reporting -------------------------------------------

    def record(self, label, src_text, problems, replay, workdir):
        root = os.path.abspath(self.a.findings)
        d = os.path.join(root, label)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'prog.mos'), 'w') as f:
            f.write(src_text)
        with open(os.path.join(d, 'finding.txt'), 'w') as f:
            f.write('Mosaic differential fuzzer finding: %s\n' % label)
            f.write('replay: %s\n' % replay)
            f.write('mosaicc: %s\n\n' % self.mosaicc)
            for name, what, cmd, detail in problems:
                f.write('== %s: %s\n$ %s\n%s\n\n' % (name, what, cmd, detail))
        self.findings.append((label, d, problems))
        return d

    def tap(self, ok, text, diag=()):
        self.tap_n += 1
        if self.a.tap:
            print('%s %d - %s' % ('ok' if ok else 'not ok', self.tap_n, text))
            for line in diag:
                print('# ' + line)
        else:
            print(('' if ok else 'FINDING ') + text)
            for line in diag:
                print('    ' + line)
        sys.stdout.flush()

    def keep(self, workdir, label):
        if self.a.keep:
            dst = os.path.join(os.path.abspath(self.a.keep), label)
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(workdir, dst)
        shutil.rmtree(workdir, ignore_errors=True)

    # ---- modes -----------------------------------------------------------

    def seeds(self):
        t0 = time.time()
        i = 0
        while True:
            if self.a.count is not None and i >= self.a.count:
                return
            if self.a.seconds is not None and time.time() - t0 >= self.a.seconds:
                return
            yield self.a.seed + i
            i += 1

    def switches(self):
        """The generation switches given, to repeat in a replay line."""
        out = []
        for p in gen.ALL_PARTS:
            if getattr(self.a, 'no_' + p):
                out.append('--no-' + p)
        for s in ('floats', 'libm', 'generics', 'errors'):
            if getattr(self.a, 'no_' + s):
                out.append('--no-' + s)
        for k in self.a.error or ():
            out.append('--error ' + k)
        if self.a.error_rate != 0.25:
            out.append('--error-rate %s' % self.a.error_rate)
        if self.a.known_bugs != 'avoid':
            out.append('--known-bugs ' + self.a.known_bugs)
        return ' '.join(out)

    def differential(self):
        items = []
        if self.a.files:
            for f in self.a.files:
                with open(f) as fh:
                    items.append((os.path.splitext(os.path.basename(f))[0], fh.read(), 0,
                                  'tests/fuzz/differential.py %s' % f))
            it = iter(items)
        else:
            sw = self.switches()

            def gen_items():
                for s in self.seeds():
                    yield ('seed-%d' % s, gen.generate(s, self.gen_opts), s,
                           'tests/fuzz/differential.py --seed %d --count 1%s' % (s, ' ' + sw if sw else ''))
            it = gen_items()
        for label, text, seed, replay in it:
            problems, summary, workdir = self.check_program(label, text, seed)
            self.programs += 1
            if problems:
                d = self.record(label, text, problems, replay, workdir)
                diag = ['%s: %s' % (n, w) for n, w, _, _ in problems[:8]]
                diag.append('written to %s; replay: %s' % (d, replay))
                self.tap(False, '%s: %s' % (label, summary), diag)
            else:
                self.tap(True, '%s: %s agree' % (label, summary))
            self.keep(workdir, label)

    # ---- mutation mode ---------------------------------------------------

    def mutation_sources(self):
        corpus = os.path.join(HERE, 'corpus')
        files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith('.mos')) \
            if os.path.isdir(corpus) else []
        if self.a.files:
            files = list(self.a.files)
        # A fixed order that mixes the corpus's accepted and refused programs.
        random.Random('corpus').shuffle(files)
        sw = self.switches()
        i = 0
        for s in self.seeds():
            # Alternate generated programs and corpus files.
            yield ('seed-%d' % s, gen.generate(s, self.gen_opts), s,
                   'tests/fuzz/differential.py --mutate --seed %d --count 1%s' % (s, ' ' + sw if sw else ''))
            if files:
                f = files[i % len(files)]
                i += 1
                with open(f) as fh:
                    yield (os.path.splitext(os.path.basename(f))[0], fh.read(), s,
                           'tests/fuzz/differential.py --mutate --seed %d --count 1 (corpus file %s)'
                           % (s, os.path.basename(f)))

    def mutate_all(self):
        for label, text, seed, replay in self.mutation_sources():
            rnd = random.Random('mutate:%s:%d' % (label, seed))
            toks = tokenize(text)
            bad = []
            d = os.path.join(self.work, 'mut-' + label)
            os.makedirs(d, exist_ok=True)
            accepted = rejected = 0
            for k in range(self.a.mutants):
                mut, how = mutate(toks, rnd)
                path = os.path.join(d, 'm%d.mos' % k)
                with open(path, 'w') as f:
                    f.write(mut)
                r = run([self.mosaicc, '--check', '--color=never', 'm%d.mos' % k], timeout=CHECK_TIMEOUT, cwd=d)
                self.runs += 1
                problem = judge_check(r, 'm%d.mos' % k)
                if problem is None and r.status == 0:
                    accepted += 1
                    if not self.a.no_compile_accepted:
                        c = run([self.mosaicc, '-O0', '-o', 'm%d' % k, 'm%d.mos' % k], timeout=COMPILE_TIMEOUT, cwd=d)
                        self.builds += 1
                        if c.status != 0:
                            problem = 'accepted by --check, but -O0 fails (%s): %s' % (
                                c.ending(), c.err.decode('utf-8', 'replace')[:500])
                        try:
                            os.unlink(os.path.join(d, 'm%d' % k))
                        except OSError:
                            pass
                elif problem is None:
                    rejected += 1
                if problem:
                    bad.append((k, mut, how, problem, r))
            self.programs += 1
            if bad:
                root = os.path.abspath(self.a.findings)
                fd = os.path.join(root, 'mutant-%s-%d' % (label, seed))
                os.makedirs(fd, exist_ok=True)
                with open(os.path.join(fd, 'finding.txt'), 'w') as f:
                    f.write('Mosaic front-end fuzzer finding (mutants of %s)\nreplay: %s\n\n' % (label, replay))
                    for k, mut, how, problem, r in bad:
                        with open(os.path.join(fd, 'mutant%d.mos' % k), 'w') as mf:
                            mf.write(mut)
                        f.write('== mutant%d.mos (%s): %s\n$ mosaicc --check mutant%d.mos\n%s\n\n'
                                % (k, how, problem, k, r.err.decode('utf-8', 'replace')[:2000]))
                self.findings.append((label, fd, [(str(k), p, '', '') for k, _, _, p, _ in bad]))
                diag = ['mutant %d (%s): %s' % (k, how, p.splitlines()[0] if p else '') for k, _, how, p, _ in bad[:5]]
                diag.append('written to %s' % fd)
                self.tap(False, 'mutants of %s: %d bad of %d' % (label, len(bad), self.a.mutants), diag)
            else:
                self.tap(True, 'mutants of %s: %d rejected with a located, coded diagnostic, %d accepted'
                         % (label, rejected, accepted))
            self.keep(d, 'mut-' + label)


# ---- tokens and mutations ---------------------------------------------------

TOKEN_RE = re.compile(r'''
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"?)
  | (?P<number>0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9]+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\.\.|==|!=|<=|>=|<<|>>|\+=|-=|\*=|/=|%=|[-+*/%<>=!&|^(){}\[\],:;.?])
  | (?P<other>.)
''', re.X | re.S)


def tokenize(text):
    """The program as a list of (kind, text); whitespace and comments are
    kept so that the rest can be put back together."""
    return [(m.lastgroup, m.group(0)) for m in TOKEN_RE.finditer(text)]


def mutate(toks, rnd):
    """A copy of the program with 1 to 3 tokens dropped, swapped or
    duplicated (newlines are tokens too: they end statements)."""
    toks = list(toks)
    hows = []
    for _ in range(rnd.randint(1, 3)):
        idx = [i for i, (k, _) in enumerate(toks) if k not in ('ws', 'comment')]
        if not idx:
            break
        op = rnd.choice(('drop', 'swap', 'dup'))
        i = rnd.choice(idx)
        if op == 'drop':
            hows.append('drop %r' % toks[i][1])
            del toks[i]
        elif op == 'dup':
            hows.append('duplicate %r' % toks[i][1])
            toks.insert(i, toks[i])
            if toks[i][0] in ('ident', 'number'):
                toks.insert(i + 1, ('ws', ' '))
        else:
            near = [j for j in idx if j != i and abs(j - i) <= 12] if rnd.random() < 0.8 else [j for j in idx if j != i]
            if not near:
                continue
            j = rnd.choice(near)
            hows.append('swap %r and %r' % (toks[i][1], toks[j][1]))
            toks[i], toks[j] = toks[j], toks[i]
    return ''.join(t for _, t in toks), ', '.join(hows)


def judge_check(r, name):
    """None if `mosaicc --check` ended as it must, else what is wrong."""
    if r.status is None:
        return 'mosaicc --check timed out (a hang)'
    if r.status < 0:
        return 'mosaicc --check crashed: %s' % r.ending()
    if r.status == 0:
        return None
    if r.status != 1:
        return 'mosaicc --check exit %d, not 0 or 1' % r.status
    err = r.err.decode('utf-8', 'replace')
    located = 0
    for line in err.splitlines():
        if DIAG_RE.match(line):
            located += 1
        elif re.search(r'\berror\b', line) and not line.startswith((' ', 'note:')) and \
                not re.match(r'^.+:\d+:\d+: (note|warning)', line):
            return 'an error without a location or a code: %r' % line
    if not located:
        return 'exit 1 without any FILE:LINE:COL: error[CODE] diagnostic'
    if 'Sanitizer' in err or 'runtime error:' in err:
        return 'a sanitizer report'
    return None


def main():
    ap = argparse.ArgumentParser(
        description='Differential fuzzer for mosaicc: generated programs under every variant '
                    '(or, with --mutate, broken programs through the front end).')
    ap.add_argument('files', nargs='*', help='programs to check instead of generated ones')
    ap.add_argument('--mosaicc', default=os.environ.get('MOSAICC', './mosaicc'))
    ap.add_argument('--seed', type=int, default=1, help='first seed (default 1)')
    ap.add_argument('--count', type=int, help='number of programs')
    ap.add_argument('--seconds', type=float, help='stop starting programs after this many seconds')
    ap.add_argument('--keep', metavar='DIR', help='keep every program, build and output under DIR')
    ap.add_argument('--findings', metavar='DIR', default='fuzz-findings',
                    help='where findings are written (default ./fuzz-findings)')
    ap.add_argument('--mpi', choices=('auto', 'yes', 'no'), default='auto',
                    help='the mpirun -np 2 variants: when available (auto), required, or never')
    ap.add_argument('--no-mpi-count', action='store_true', help='no "mpi count-remote" variant')
    ap.add_argument('--variants', help='only the variants whose names start with these (comma-separated)')
    ap.add_argument('--tap', action='store_true', help='print TAP (one test per program)')
    ap.add_argument('--mutate', action='store_true', help='mutation mode: broken programs through mosaicc --check')
    ap.add_argument('--mutants', type=int, default=40, help='mutants per program in mutation mode (default 40)')
    ap.add_argument('--no-compile-accepted', action='store_true',
                    help='in mutation mode, do not compile the mutants --check accepts')
    gen.add_switches(ap)
    args = ap.parse_args()
    if args.count is None and args.seconds is None:
        args.count = 1 if not args.files else None
    if args.files and not args.mutate:
        args.count = None
    if not os.access(args.mosaicc, os.X_OK):
        sys.exit('differential.py: no compiler at %s (--mosaicc)' % args.mosaicc)
    fz = Fuzzer(args)
    t0 = time.time()
    try:
        if args.tap and args.count is not None and not args.files:
            print('1..%d' % (args.count * (2 if args.mutate and os.path.isdir(os.path.join(HERE, 'corpus')) else 1)))
        if args.mutate:
            fz.mutate_all()
        else:
            fz.differential()
    finally:
        shutil.rmtree(fz.work, ignore_errors=True)
    if args.tap and (args.count is None or args.files):
        print('1..%d' % fz.tap_n)
    print('%s %d programs%s, %d builds, %d runs in %.0f s%s; %d with findings%s' % (
        '#' if args.tap else '', fz.programs, ' (mutation mode)' if args.mutate else '',
        fz.builds, fz.runs, time.time() - t0,
        '' if args.mutate else ('; MPI variants %s' % ('on' if fz.mpi else 'off')),
        len(fz.findings), (' (in %s)' % os.path.abspath(args.findings)) if fz.findings else ''))
    # Under --tap, findings are `not ok` lines: the status says only
    # whether the fuzzer itself worked.
    return 1 if fz.findings and not args.tap else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""replay.py — how often mosaic-lsp's completion offers the name a
programmer actually wrote, and how fast: a replay of existing Mosaic
programs through the server, as an editor would drive it.

Run by bench/run-completion.sh as

    python3 replay.py [--probes N] [--quick] [--timeout S] [--sync MODE]
                      [--exclude DIR]... [--csv FILE] MOSAIC-LSP PATH...

where each PATH is a .mos file or a directory searched for .mos files,
in sorted order, leaving out the directories given with --exclude (the
wrapper leaves out bench/work/ and bench/results/: the benchmarks'
scratch and output, generated programs nobody wrote).  --quick keeps one
file in ten.

Why a replay.  A completer is good when the name the user is about to
write is at the top of its list.  Programs written for the test would
say what their author expected; programs written for something else (the
conformance suite, the examples, the benchmarks, or the directory of
whoever runs this) say what people write.  Every identifier of such a
program is a question whose answer is known: stand just before it, ask
for completions, see where the written name comes.

What a probe is.  The files are scanned with Mosaic's lexical rules
(LANGUAGE.md §1: `//` and `/* */` comments, string literals with
escapes, numbers, identifiers); identifiers in comments and strings,
keywords, and names being declared (right after `let`, `var`, `val`,
`def`, `class` or `for`, a name followed by `:` — parameters, fields,
pools, layouts — and the type and place parameters in `[...]` and
`<...>` right after a declared function or class name) are not probes:
no completer can predict a new name.  Every other identifier is one, in
one of three contexts: after `.` (a member), after `!` (a message sent),
and elsewhere (the start of an expression, and the names of types).  At
most N probes per file (default 200), every k-th in file order when
there are more, so that a long file does not outweigh the rest.

For each probe the document is changed twice and completion asked
twice:
  - "one character typed": the identifier cut down to its first
    character, the cursor after it, the rest of the file as it is
    (`a.deposit(1)` becomes `a.d(1)`, the cursor after `d`);
  - "none typed": the identifier removed, the cursor right after the
    `.`, the `!` or where the name began (`a.(1)`).
The rank is the 1-based position of the written name among the items'
labels, in the order the server gives them (sorted by sortText when the
items carry one, stably), or missing.

The protocol is the real one: Content-Length frames of JSON-RPC on the
server's standard input and output, `initialize` with the capabilities
an editor declares, `initialized`, `textDocument/didOpen`, and per probe
a `textDocument/didChange` (incremental: the range edits an editor
sends, the previous probe's name put back and this one's cut in one
change; `--sync full` sends the whole text instead, which must give the
same ranks) followed by `textDocument/completion`.  After each change
the client waits for the diagnostics the server publishes for it (the
server re-checks the file on every change), so that the latency of a
completion — from sending the request to reading its response — is the
completion's own and not the re-check's; the time of the re-check, from
the change to its diagnostics, goes to the CSV beside it.  One server
serves the whole corpus, opening and closing each file in turn, as an
editor's session would; its peak resident memory is VmHWM of
/proc/PID/status, read after every file and before `shutdown`.

What it does not do: judge.  It prints one markdown table on stdout,
then the server's peak memory, the counts of odd answers, and the
targets beside which to read it (issue 22: top-5 at least 97 % and top-1
at least 75 % in every context, p99 at most 8 ms, peak at most 6 MB);
every probe goes, with its ranks and times, to the CSV file.  The exit
status is 0 unless the client is misused (2) or the server cannot be
started at all (1).  A server that dies or stops answering is started
again for the next file, and the lost probes are counted.
"""
import csv
import json
import os
import select
import subprocess
import sys
import time

# LANGUAGE.md §1's keywords, the words lexer/scan.l scans as keywords
KEYWORDS = set("""active and break class continue def else false for get here if
in layout let local new node not null or pool reads rec return sends this true
unit val var while writes""".split())
DECLARING = {"let", "var", "val", "def", "class", "for"}
CONTEXTS = [(".", "after `.`"), ("!", "after `!`"), ("", "elsewhere")]
TOP = 5


def usage(message):
    sys.stderr.write("replay.py: %s\n" % message)
    sys.stderr.write("usage: replay.py [--probes N] [--quick] [--timeout S] "
                     "[--sync incremental|full] [--exclude DIR]... [--csv FILE] "
                     "MOSAIC-LSP PATH...\n")
    sys.exit(2)


# ---- the corpus ---------------------------------------------------------------

def corpus(paths, excluded, quick):
    files = []
    skip = {os.path.realpath(x) for x in excluded}
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
            continue
        found = []
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs
                             if os.path.realpath(os.path.join(root, d)) not in skip)
            found += [os.path.join(root, n) for n in names if n.endswith(".mos")]
        files += sorted(found)
    seen, out = set(), []
    for f in files:
        real = os.path.realpath(f)
        if real not in seen:
            seen.add(real)
            out.append(f)
    if quick:
        out = out[::10]         # one file in ten, the same ones every time
    return out


# ---- Mosaic's lexical rules, as far as probes need them ------------------------

def is_ident_start(c):
    return c == "_" or ("a" <= c <= "z") or ("A" <= c <= "Z")


def is_ident_char(c):
    return is_ident_start(c) or ("0" <= c <= "9")


def tokens(text):
    """(kind, start, end) for the tokens of text: 'id' identifiers and
    keywords, 'num' numbers, 'str' string literals, 'op' everything else
    ('..' and '!=' as one token, other punctuation one character each).
    Comments and white space are skipped."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):          # not nested (LANGUAGE.md §1)
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(("str", i, j))
            i = j
        elif "0" <= c <= "9":
            j = i + 1
            if c == "0" and j < n and text[j] in "xX":
                j += 1
                while j < n and (text[j] in "0123456789abcdefABCDEF_"):
                    j += 1
            else:
                while j < n and (text[j].isdigit() or text[j] == "_"):
                    j += 1
                # 1.5 is a float, 1. is not and 0..3 is a range
                if j + 1 < n and text[j] == "." and text[j + 1].isdigit():
                    j += 1
                    while j < n and (text[j].isdigit() or text[j] == "_"):
                        j += 1
                if j < n and text[j] in "eE":
                    k = j + 1
                    if k < n and text[k] in "+-":
                        k += 1
                    if k < n and text[k].isdigit():
                        j = k
                        while j < n and (text[j].isdigit() or text[j] == "_"):
                            j += 1
            while j < n and is_ident_char(text[j]):     # a malformed literal: one token
                j += 1
            out.append(("num", i, j))
            i = j
        elif is_ident_start(c):
            j = i + 1
            while j < n and is_ident_char(text[j]):
                j += 1
            out.append(("id", i, j))
            i = j
        else:
            j = i + 2 if text[i:i + 2] in ("..", "!=") else i + 1
            out.append(("op", i, j))
            i = j
    return out


def probes_of(text):
    """The identifiers worth asking about: (start, end, context, after),
    context '.', '!' or '' and after the previous token's text; and the
    number of declared names left out."""
    toks = tokens(text)
    word = [text[a:b] for _, a, b in toks]
    declared = set()
    for i, (kind, a, b) in enumerate(toks):
        if kind != "id" or word[i] in KEYWORDS:
            continue
        prev = word[i - 1] if i > 0 else ""
        nxt = word[i + 1] if i + 1 < len(toks) else ""
        if prev in DECLARING or nxt == ":":
            declared.add(i)
        if prev in ("def", "class"):
            # type and place parameters: def f[T](…), class Pair[A, B]<n>
            j = i + 1
            while j < len(toks) and word[j] in ("[", "<"):
                depth, j = 1, j + 1
                while j < len(toks) and depth:
                    if word[j] in ("[", "<"):
                        depth += 1
                    elif word[j] in ("]", ">"):
                        depth -= 1
                    elif toks[j][0] == "id" and depth == 1 and word[j] not in KEYWORDS:
                        declared.add(j)
                    j += 1
    out = []
    for i, (kind, a, b) in enumerate(toks):
        if kind != "id" or word[i] in KEYWORDS or i in declared:
            continue
        prev = word[i - 1] if i > 0 else ""
        context = prev if prev in (".", "!") else ""
        if i > 0 and toks[i - 1][0] == "str":
            prev = '"…"'                # the CSV's column, not the literal
        out.append((a, b, context, prev))
    return out, len(declared)


def sample(items, limit):
    """At most limit of items, evenly spread, always the same ones."""
    n = len(items)
    if n <= limit:
        return items
    return [items[(k * n) // limit] for k in range(limit)]


class Positions:
    """LSP positions (line, UTF-16 units) of offsets in one text."""

    def __init__(self, text):
        self.text = text
        self.starts = [0]
        for i, c in enumerate(text):
            if c == "\n":
                self.starts.append(i + 1)

    def at(self, offset):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        prefix = self.text[self.starts[lo]:offset]
        return {"line": lo, "character": len(prefix.encode("utf-16-le")) // 2}


# ---- the protocol ----------------------------------------------------------------

class Gone(Exception):
    """The server died or stopped answering."""


class Server:
    def __init__(self, command, timeout):
        self.timeout = timeout
        # a session of its own, so that a hung server goes with its children
        self.p = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        self.buf = b""
        self.next_id = 1
        self.peak_kib = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        try:
            self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Gone("the server closed its input")

    def _fill(self):
        fd = self.p.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], self.timeout)
        if not ready:
            raise Gone("no answer in %g s" % self.timeout)
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise Gone("the server closed its output (status %s)" % self.p.poll())
        self.buf += chunk

    def read(self):
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                break
            self._fill()
        length = None
        for line in self.buf[:end].split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise Gone("a frame without Content-Length")
        self.buf = self.buf[end + 4:]
        while len(self.buf) < length:
            self._fill()
        body, self.buf = self.buf[:length], self.buf[length:]
        msg = json.loads(body)
        if "method" in msg and "id" in msg:
            # a request from the server (none is expected): an editor answers
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        return msg

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        """The response to a request and the seconds it took."""
        rid = self.next_id
        self.next_id += 1
        t0 = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if "method" not in m and m.get("id") == rid:
                return m, time.perf_counter() - t0

    def diagnostics(self, uri, version):
        """Reads up to the diagnostics published for that version; their
        arrival time (perf_counter)."""
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m.get("params") or {}
                if p.get("uri") == uri and p.get("version", version) == version:
                    return time.perf_counter()

    def sample_memory(self):
        try:
            with open("/proc/%d/status" % self.p.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        self.peak_kib = max(self.peak_kib, int(line.split()[1]))
        except (OSError, ValueError, IndexError):
            pass

    def initialize(self, root):
        caps = {
            "general": {"positionEncodings": ["utf-16"]},
            "workspace": {"configuration": False, "workspaceFolders": False},
            "textDocument": {
                "synchronization": {"dynamicRegistration": False, "didSave": True,
                                    "willSave": False, "willSaveWaitUntil": False},
                "completion": {
                    "dynamicRegistration": False,
                    "contextSupport": True,
                    "completionItem": {"snippetSupport": False,
                                       "documentationFormat": ["markdown", "plaintext"],
                                       "deprecatedSupport": True,
                                       "labelDetailsSupport": True},
                    "completionItemKind": {"valueSet": list(range(1, 26))},
                },
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "signatureHelp": {"signatureInformation": {
                    "documentationFormat": ["markdown", "plaintext"]}},
                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            },
        }
        r, _ = self.request("initialize", {
            "processId": os.getpid(),
            "clientInfo": {"name": "mosaic bench/completion/replay.py"},
            "rootUri": "file://" + root, "capabilities": caps})
        if "result" not in r:
            raise Gone("initialize failed: %s" % json.dumps(r.get("error")))
        self.notify("initialized", {})

    def finish(self):
        try:
            self.sample_memory()
            self.request("shutdown", None)
            self.notify("exit", None)
            self.p.stdin.close()
            self.p.wait(self.timeout)
        except (Gone, subprocess.TimeoutExpired, OSError):
            self.kill()

    def kill(self):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, 9)
            except OSError:
                self.p.kill()
        self.p.wait()


def ranked_labels(response):
    """(labels in the server's order, what was odd about the answer or '')."""
    if "error" in response:
        e = response["error"] or {}
        return [], "error %s: %s" % (e.get("code"), e.get("message"))
    res = response.get("result")
    if res is None:
        return [], "null"
    items = res.get("items") if isinstance(res, dict) else res
    if not isinstance(items, list):
        return [], "malformed"
    if any(isinstance(it, dict) and "sortText" in it for it in items):
        # the LSP rule: an item without sortText sorts by its label
        keyed = [(it.get("sortText", it.get("label", "")), k, it) for k, it in enumerate(items)]
        items = [it for _, _, it in sorted(keyed, key=lambda t: (t[0], t[1]))]
    labels = [it.get("label") for it in items if isinstance(it, dict)]
    return labels, "" if labels else "empty"


# ---- one file ----------------------------------------------------------------------

def replay_file(server, path, text, chosen, sync, rows):
    uri = "file://" + os.path.realpath(path)
    pos = Positions(text)
    version = 1
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "mosaic", "version": version, "text": text}})
    server.diagnostics(uri, version)
    removed = None              # (start, name) of the name the document lacks now

    def change(edits, full_text):
        """edits: (start offset, end offset, new text) in original
        coordinates, applied in order (each leaves the offsets before its
        end as they were, so the original's positions stay right)."""
        nonlocal version
        if not edits:
            return None
        version += 1
        if sync == "full":
            changes = [{"text": full_text}]
        else:
            changes = [{"range": {"start": pos.at(a), "end": pos.at(b)}, "text": t}
                       for a, b, t in edits]
        t0 = time.perf_counter()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        return server.diagnostics(uri, version) - t0

    def complete(offset, context, typed):
        params = {"textDocument": {"uri": uri}, "position": pos.at(offset)}
        if context and not typed:
            params["context"] = {"triggerKind": 2, "triggerCharacter": context}
        else:
            params["context"] = {"triggerKind": 1}
        r, seconds = server.request("textDocument/completion", params)
        return ranked_labels(r), seconds

    for start, end, context, after in chosen:
        name = text[start:end]
        row = {"file": path, "line": pos.at(start)["line"] + 1,
               "column": pos.at(start)["character"] + 1, "context": context or "-",
               "after": after, "name": name}
        for typed in (True, False):
            key = "one" if typed else "none"
            edits = []
            if typed:
                if removed:
                    edits.append((removed[0], removed[0], removed[1]))
                if end - start > 1:
                    edits.append((start + 1, end, ""))
                probe = text[:start + 1] + text[end:]
                cursor = start + 1
            else:
                edits.append((start, start + 1, ""))
                probe = text[:start] + text[end:]
                cursor = start
            row["change_ms_" + key] = ms(change(edits, probe))
            (labels, odd), seconds = complete(cursor, context, typed)
            rank = labels.index(name) + 1 if name in labels else None
            row["rank_" + key] = rank if rank else "missing"
            row["ms_" + key] = ms(seconds)
            row["items_" + key] = len(labels)
            row["odd_" + key] = odd
        removed = (start, name)
        rows.append(row)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    server.sample_memory()


def ms(seconds):
    return "" if seconds is None else "%.3f" % (seconds * 1000)


# ---- the table ---------------------------------------------------------------------

def percentile(values, p):
    """The nearest-rank percentile (p in 0..100) of values, or None."""
    if not values:
        return None
    v = sorted(values)
    k = max(0, min(len(v) - 1, -(-len(v) * p // 100) - 1))
    return v[int(k)]


def median(values):
    if not values:
        return None
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def summary(rows):
    def pct(k, n):
        return "n/a" if n == 0 else "%.1f %%" % (100.0 * k / n)

    def fmt(x):
        return "n/a" if x is None else "%.2f" % x

    lines = ["| context | probes | top-1, one typed | top-5, one typed | top-1, none typed"
             " | top-5, none typed | median ms | p99 ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    groups = [(label, [r for r in rows if r["context"] == (c or "-")]) for c, label in CONTEXTS]
    groups.append(("overall", rows))
    for label, rs in groups:
        n = len(rs)
        cells = [label, str(n)]
        for key in ("one", "none"):
            ranks = [r["rank_" + key] for r in rs]
            cells.append(pct(sum(1 for x in ranks if x == 1), n))
            cells.append(pct(sum(1 for x in ranks if x != "missing" and x <= TOP), n))
        times = [float(r[k]) for r in rs for k in ("ms_one", "ms_none") if r[k] != ""]
        cells += [fmt(median(times)), fmt(percentile(times, 99))]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


# ---- main --------------------------------------------------------------------------

def main(argv):
    probes, quick, timeout, sync, csv_path = 200, False, 60.0, "incremental", None
    args, excluded = [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--probes", "--timeout", "--sync", "--csv", "--exclude"):
            if i + 1 >= len(argv):
                usage("%s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "--probes":
                if not v.isdigit() or int(v) == 0:
                    usage("--probes must be a positive integer")
                probes = int(v)
            elif a == "--timeout":
                try:
                    timeout = float(v)
                except ValueError:
                    usage("--timeout must be a number of seconds")
            elif a == "--sync":
                if v not in ("incremental", "full"):
                    usage("--sync is incremental or full")
                sync = v
            elif a == "--exclude":
                excluded.append(v)
            else:
                csv_path = v
        elif a == "--quick":
            quick = True
            i += 1
        elif a.startswith("--"):
            usage("unknown option %s" % a)
        else:
            args.append(a)
            i += 1
    if len(args) < 2:
        usage("expected the server and at least one file or directory")
    command, paths = args[0], args[1:]
    for p in paths:
        if not os.path.exists(p):
            usage("no such file or directory: %s" % p)
    files = corpus(paths, excluded, quick)
    if not files:
        usage("no .mos file in %s" % " ".join(paths))

    rows, declared, candidates, lost = [], 0, 0, []
    peak_kib = 0
    server = None
    t_start = time.time()
    for n, path in enumerate(files, 1):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            sys.stderr.write("replay.py: %s: %s\n" % (path, e))
            continue
        found, skipped = probes_of(text)
        declared += skipped
        candidates += len(found)
        chosen = sample(found, probes)
        if server is None:
            try:
                server = Server(command, timeout)
                server.initialize(os.path.realpath(os.path.dirname(path)))
            except (OSError, Gone) as e:
                sys.stderr.write("replay.py: cannot start %s: %s\n" % (command, e))
                if server is not None:
                    server.kill()
                return 1
        before = len(rows)
        try:
            replay_file(server, path, text, chosen, sync, rows)
        except Gone as e:
            # the probes of this file that got no answer are lost; start again
            server.sample_memory()
            peak_kib = max(peak_kib, server.peak_kib)
            lost.append((path, len(chosen) - (len(rows) - before), str(e)))
            sys.stderr.write("replay.py: %s: %s; the server is started again\n" % (path, e))
            server.kill()
            server = None
        if n % 25 == 0 or n == len(files):
            sys.stderr.write("  %d/%d files, %d probes, %.0f s\n"
                             % (n, len(files), len(rows), time.time() - t_start))
    if server is not None:
        server.finish()
        peak_kib = max(peak_kib, server.peak_kib)

    if csv_path:
        fields = ["file", "line", "column", "context", "after", "name",
                  "rank_one", "rank_none", "ms_one", "ms_none",
                  "change_ms_one", "change_ms_none", "items_one", "items_none",
                  "odd_one", "odd_none"]
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)

    out = sys.stdout
    out.write("\n".join(summary(rows)) + "\n\n")
    out.write("%d probes (%d requests) in %d file%s, at most %d per file, of %d identifiers "
              "that could be probed; %d declared names left out.\n"
              % (len(rows), 2 * len(rows), len(files), "" if len(files) == 1 else "s",
                 probes, candidates, declared))
    out.write("server peak resident memory (VmHWM): %s\n"
              % ("%.1f MiB" % (peak_kib / 1024.0) if peak_kib else "n/a"))
    odd = {}
    for r in rows:
        for key in ("one", "none"):
            if r["odd_" + key]:
                what = r["odd_" + key].split(":")[0]
                odd[what] = odd.get(what, 0) + 1
    missing = sum(1 for r in rows for k in ("one", "none") if r["rank_" + k] == "missing")
    out.write("odd answers: %s; written name missing from the list: %d of %d requests%s\n"
              % (", ".join("%d %s" % (v, k) for k, v in sorted(odd.items())) or "none",
                 missing, 2 * len(rows),
                 "; server lost %d times (%d probes)" % (len(lost), sum(x[1] for x in lost))
                 if lost else ""))
    out.write("targets (issue 22): top-5 >= 97 % and top-1 >= 75 % in every context, "
              "p99 <= 8 ms, peak <= 6 MB\n")
    if csv_path:
        out.write("CSV: %s\n" % csv_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

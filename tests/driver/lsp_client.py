#!/usr/bin/env python3
"""lsp_client.py — scripted sessions with mosaic-lsp, reported in TAP.

Run by tests/driver/lsp.sh as `python3 lsp_client.py MOSAIC-LSP`.  Each
session starts the server, speaks the Language Server Protocol to it
through its standard input and output (Content-Length frames of JSON-RPC),
and checks what comes back: the lifecycle, diagnostics as a document is
opened, broken and mended, hovers, definitions, completions, columns in
UTF-16 units, malformed input, a large file, and the exit status.

The server answers in order, one message at a time, so the client reads
synchronously: after a request it reads up to the response with its id,
after a change up to the diagnostics it causes.  The only clock is a
generous deadline that turns a server that stopped answering into a
failed test instead of a hung one.
"""
import json
import os
import select
import subprocess
import sys

DEADLINE = 120  # seconds without a byte from the server: it hung

LSP = sys.argv[1]
URI = "file:///tmp/mosaic-lsp-test/prog.mos"

results = []


def check(description, ok, detail=None):
    results.append(bool(ok))
    print("%sok %d - %s" % ("" if ok else "not ", len(results), description))
    if not ok and detail is not None:
        for line in str(detail).splitlines()[:40]:
            print("# " + line)
    sys.stdout.flush()


class Hung(Exception):
    pass


class Server:
    """A running mosaic-lsp and the client's side of the protocol."""

    def __init__(self):
        self.p = subprocess.Popen([LSP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b""
        self.next_id = 1
        self.notes = []        # notifications read while waiting for a response

    # ---- bytes ----
    def send_bytes(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self):
        fd = self.p.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], DEADLINE)
        if not ready:
            raise Hung("no answer in %d s" % DEADLINE)
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise EOFError("the server closed its output")
        self.buf += chunk

    def read(self):
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        length = None
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ValueError("a frame without Content-Length: %r" % head)
        self.buf = rest
        while len(self.buf) < length:
            self._fill()
        body, self.buf = self.buf[:length], self.buf[length:]
        return json.loads(body)

    # ---- messages ----
    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def request(self, method, params=None):
        """Sends a request and returns the whole response message."""
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.response(rid)

    def response(self, rid):
        while True:
            m = self.read()
            if "method" in m:
                self.notes.append(m)
            elif m.get("id") == rid:
                return m

    def diagnostics(self):
        """The next publishDiagnostics (one may have been read already)."""
        for i, m in enumerate(self.notes):
            if m.get("method") == "textDocument/publishDiagnostics":
                return self.notes.pop(i)["params"]
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics":
                return m["params"]
            self.notes.append(m)

    def initialize(self, capabilities=None):
        if capabilities is None:
            capabilities = {"textDocument": {
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "publishDiagnostics": {"relatedInformation": True}}}
        r = self.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                        "capabilities": capabilities})
        self.notify("initialized", {})
        return r

    def open(self, text, version=1, uri=URI):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "mosaic", "version": version, "text": text}})
        return self.diagnostics()

    def change(self, text, version, uri=URI):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})
        return self.diagnostics()

    def at(self, method, line, character, uri=URI):
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character}})

    def finish(self, shutdown=True):
        """Ends the session; returns the exit status."""
        if shutdown:
            self.request("shutdown")
        self.notify("exit")
        self.p.stdin.close()
        try:
            status = self.p.wait(DEADLINE)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise Hung("no exit after 'exit'")
        self.p.stdout.close()
        self.stderr = self.p.stderr.read().decode(errors="replace")
        self.p.stderr.close()
        return status


def position_of(text, needle, nth=0, offset=0):
    """(line, UTF-16 column) of the nth occurrence of needle, plus offset
    characters — computed here in Python independently of the server."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += offset
    line = text.count("\n", 0, i)
    start = text.rfind("\n", 0, i) + 1
    units = len(text[start:i].encode("utf-16-le")) // 2
    return line, units


def apply_edits(text, edits):
    """text with LSP TextEdits applied (ASCII text: columns are bytes)."""
    lines = text.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    spans = []
    for e in edits:
        r = e["range"]
        a = starts[r["start"]["line"]] + r["start"]["character"]
        b = starts[r["end"]["line"]] + r["end"]["character"]
        spans.append((a, b, e["newText"]))
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


def hover_text(resp):
    res = resp.get("result")
    return res["contents"]["value"] if res else ""


# ---- the program the sessions edit ------------------------------------------

PROGRAM = """\
class Account<n> {
  var balance: int
  def deposit(x: int) writes(n) { balance += x }
}

active class Clerk<n, m> {
  var shared: Account<m>
  def init(a: Account<m>) { shared = a }
  def work() { shared.deposit(1) }
}

def twice(k: int): int {
  let doubled = k * 2
  return doubled
}

def main() {
  let acc = new Account<node(1)>
  let clerk = new Clerk<node(0), node(1)>(acc)
  clerk!work()
  var total = twice(21)
  let greeting = "héllo"
  println(greeting.length + total)
}
"""


def session_lifecycle_and_diagnostics():
    s = Server()
    r = s.request("textDocument/hover", {"textDocument": {"uri": URI},
                                         "position": {"line": 0, "character": 0}})
    check("a request before initialize is refused with ServerNotInitialized",
          r.get("error", {}).get("code") == -32002, r)

    r = s.initialize()
    caps = r.get("result", {}).get("capabilities", {})
    check("initialize announces incremental sync, hover, definition and completion on '.'",
          caps.get("textDocumentSync", {}).get("change") == 2 and caps.get("hoverProvider")
          and caps.get("definitionProvider")
          and "." in caps.get("completionProvider", {}).get("triggerCharacters", []), r)
    check("initialize names the server",
          r["result"].get("serverInfo", {}).get("name") == "mosaic-lsp", r)
    r = s.request("initialize", {"capabilities": {}})
    check("a second initialize is refused", r.get("error", {}).get("code") == -32600, r)

    d = s.open(PROGRAM)
    check("didOpen of a correct program publishes no diagnostics, for its version",
          d["uri"] == URI and d["diagnostics"] == [] and d.get("version") == 1, d)

    broken = PROGRAM.replace("println(greeting.length + total)",
                             "println(greeting.length + totl)")
    d = s.change(broken, 2)
    diags = d["diagnostics"]
    line, col = position_of(broken, "totl)")
    ok = (len(diags) == 1 and diags[0]["code"] == "E0100" and diags[0]["severity"] == 1
          and "undefined variable 'totl'" in diags[0]["message"]
          and diags[0]["range"] == {"start": {"line": line, "character": col},
                                    "end": {"line": line, "character": col + 4}})
    check("a change that breaks the program publishes its error, code and range", ok, d)
    rel = diags[0].get("relatedInformation", []) if diags else []
    tline, tcol = position_of(broken, "total = ")
    check("the did-you-mean note points at the declaration as related information",
          len(rel) == 1 and "did you mean 'total'?" in rel[0]["message"]
          and rel[0]["location"]["uri"] == URI
          and rel[0]["location"]["range"]["start"] == {"line": tline, "character": tcol}, rel)

    line, col = position_of(broken, "def work", offset=5)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("while the program has errors, a method's hover gives its last known effects",
          "effects: `reads(m) writes(m)` (when the program last had no errors)" in h, h)

    d = s.change(PROGRAM, 3)
    check("mending the error publishes an empty list", d["diagnostics"] == [] and
          d.get("version") == 3, d)

    s.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    d = s.diagnostics()
    check("closing the document clears its diagnostics", d["diagnostics"] == [], d)

    r = s.request("shutdown")
    check("shutdown answers null", "result" in r and r["result"] is None, r)
    r = s.request("textDocument/hover", {"textDocument": {"uri": URI},
                                         "position": {"line": 0, "character": 0}})
    check("a request after shutdown is refused", r.get("error", {}).get("code") == -32600, r)
    status = s.finish(shutdown=False)
    check("exit after shutdown: status 0, nothing on standard error",
          status == 0 and not s.stderr, s.stderr)


def session_queries():
    s = Server()
    s.initialize()
    s.open(PROGRAM)

    line, col = position_of(PROGRAM, "doubled\n", offset=3)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a local gives its binding and type", "let doubled: int" in h, h)

    line, col = position_of(PROGRAM, "k * 2")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a parameter gives its type", "k: int" in h and "parameter" in h, h)

    line, col = position_of(PROGRAM, "deposit(1)", offset=2)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a method call gives its signature and effects",
          "def deposit(x: int) writes(n)" in h and "method of class `Account`" in h
          and "effects: `reads(n) writes(n)`" in h, h)

    line, col = position_of(PROGRAM, "def work", offset=5)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a method's declaration gives its computed effects",
          "def work()" in h and "effects: `reads(m) writes(m)`" in h, h)

    line, col = position_of(PROGRAM, "shared.deposit")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a bare field name gives the field with its place",
          "var shared: Account<m>" in h and "field of actor `Clerk`" in h, h)

    line, col = position_of(PROGRAM, "twice(21)")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a function call gives its signature and effects",
          "def twice(k: int): int" in h and "effects: `local`" in h, h)

    line, col = position_of(PROGRAM, "acc)")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a local shows the places of its type", "let acc: Account<node(1)>" in h, h)

    line, col = position_of(PROGRAM, "length")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a string's length", "length: int" in h and "bytes" in h, h)

    line, col = position_of(PROGRAM, "shared.deposit", offset=1)
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(PROGRAM, "shared: Account")
    check("definition of a field is its declaration",
          r.get("result") == {"uri": URI, "range": {"start": {"line": dl, "character": dc},
                                                    "end": {"line": dl, "character": dc + 6}}}, r)

    line, col = position_of(PROGRAM, "twice(21)", offset=2)
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(PROGRAM, "twice(k")
    check("definition of a function is its declaration",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": dl, "character": dc}, r)

    line, col = position_of(PROGRAM, "deposit(1)")
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(PROGRAM, "deposit(x")
    check("definition of a method is its declaration",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": dl, "character": dc}, r)

    line, col = position_of(PROGRAM, "Account<node(1)>")
    r = s.at("textDocument/definition", line, col)
    check("definition of a class named in 'new' is the class",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": 0, "character": 6}, r)

    line, col = position_of(PROGRAM, "doubled\n")
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(PROGRAM, "doubled =")
    check("definition of a local is its binding",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": dl, "character": dc}, r)

    line, col = position_of(PROGRAM, "println")
    r = s.at("textDocument/definition", line, col)
    check("a built-in has no definition", "result" in r and r["result"] is None, r)

    # completion after '.' on an object: the text does not parse there
    text = PROGRAM.replace("  clerk!work()\n", "  clerk!work()\n  acc.\n")
    s.change(text, 2)
    line, col = position_of(text, "acc.\n", offset=4)
    r = s.at("textDocument/completion", line, col)
    labels = sorted(i["label"] for i in r["result"]["items"])
    check("completion after 'acc.' lists the fields and methods of its class",
          labels == ["balance", "deposit"], r)

    text = PROGRAM.replace("  clerk!work()\n", "  clerk!\n")
    s.change(text, 3)
    line, col = position_of(text, "clerk!\n", offset=6)
    r = s.at("textDocument/completion", line, col)
    labels = sorted(i["label"] for i in r["result"]["items"])
    check("completion after 'clerk!' lists the actor's messages, not init", labels == ["work"], r)

    text = PROGRAM.replace("println(greeting.length + total)", "println(greeting.le)")
    s.change(text, 4)
    line, col = position_of(text, "greeting.le", offset=11)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in r["result"]["items"]]
    check("completion after 'greeting.' lists a string's length and methods",
          "length" in labels and "split" in labels and "starts_with" in labels, labels)

    s.change(PROGRAM, 5)
    line, col = position_of(PROGRAM, "  return doubled", offset=2)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in r["result"]["items"]]
    check("completion in a body offers its locals, functions, built-ins and keywords",
          all(x in labels for x in ["doubled", "k", "twice", "main", "println", "while",
                                    "Account"]), labels)
    check("... but not the locals of other functions",
          "acc" not in labels and "greeting" not in labels, labels)
    line, col = position_of(PROGRAM, "{ balance += x }", offset=2)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in r["result"]["items"]]
    check("completion in a method offers the class's fields and methods",
          "balance" in labels and "deposit" in labels and "x" in labels, labels)
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


def session_utf16():
    text = ('def main() {\n'
            '  let s = "h\u00e9llo \U0001F600"; let t = nope\n'
            '  let w = "\U0001F600\U0001F600"; println(s + w)\n'
            '}\n')
    s = Server()
    s.initialize()
    d = s.open(text)
    diags = d["diagnostics"]
    # 'nope' starts at byte 33 and code point 29 of its line, UTF-16 unit 30
    check("a column after non-ASCII text is counted in UTF-16 units",
          len(diags) == 1 and diags[0]["range"]["start"] == {"line": 1, "character": 30}
          and diags[0]["range"]["end"] == {"line": 1, "character": 34}, d)
    line, col = position_of(text, "s + w")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover after two emoji on the line finds the right name", "let s: string" in h, h)
    line, col = position_of(text, "s + w", offset=4)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("... and the next one", "let w: string" in h, h)
    # a position inside a surrogate pair is the character's start
    r = s.at("textDocument/hover", 2, 12)
    check("a position inside a surrogate pair is answered", "result" in r, r)
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


def session_syntax_errors():
    text = ('def helper(n: int): int {\n'
            '  let half = n / 2\n'
            '  return half\n'
            '}\n'
            'def main() {\n'
            '  let x = = 2\n'
            '  println(helper(4))\n'
            '}\n')
    s = Server()
    s.initialize()
    d = s.open(text)
    codes = [x["code"] for x in d["diagnostics"]]
    check("a syntax error is reported as mosaicc reports it, alone",
          codes and all(c == "E0002" for c in codes), d)
    line, col = position_of(text, "half\n")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover still answers in the parts that parse", "let half: int" in h, h)
    line, col = position_of(text, "helper(4)")
    r = s.at("textDocument/definition", line, col)
    check("... and so does definition", r.get("result") and
          r["result"]["range"]["start"] == {"line": 0, "character": 4}, r)
    r = s.at("textDocument/completion", 6, 2)
    check("... and completion", "items" in r.get("result", {}), r)
    # garbage: every answer still comes
    d = s.change("class { def ) ( }}} \x00 let 1_ 0x \"unterminated\n/* open", 2)
    check("garbage gets diagnostics and no crash", len(d["diagnostics"]) > 0, d)
    r = s.at("textDocument/hover", 0, 3)
    check("hover on garbage answers", "result" in r, r)
    r = s.at("textDocument/completion", 0, 9)
    check("completion on garbage answers", "result" in r, r)
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


def session_malformed():
    s = Server()
    s.initialize()
    s.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
    m = s.read()
    check("a body that is not JSON is answered ParseError",
          m.get("error", {}).get("code") == -32700 and m.get("id") is None, m)
    s.send_bytes(b'{"jsonrpc":"2.0","id":77,"method":"shutdown"}')   # no header at all
    s.send({"jsonrpc": "2.0", "id": 78, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}})
    m1, m2 = s.read(), s.read()
    check("a body without a header is answered ParseError, and the next message is read",
          m1.get("error", {}).get("code") == -32700 and m2.get("id") == 78 and "result" in m2,
          [m1, m2])
    s.send_bytes(b"Content-Length: 2\r\n\r\n[]")
    m = s.read()
    check("JSON that is not a message is answered InvalidRequest",
          m.get("error", {}).get("code") == -32600, m)
    r = s.request("workspace/noSuchThing", {})
    check("an unknown request is answered MethodNotFound",
          r.get("error", {}).get("code") == -32601, r)
    s.notify("workspace/noSuchNotification", {"x": 1})
    s.notify("$/cancelRequest", {"id": 1})
    r = s.request("textDocument/hover", {"textDocument": {"uri": URI}})
    check("unknown notifications are not answered; bad params are InvalidParams",
          r.get("error", {}).get("code") == -32602 and not s.notes, r)
    r = s.at("textDocument/hover", 0, 0, uri="file:///not/open.mos")
    check("a request on a document that is not open answers null",
          "result" in r and r["result"] is None, r)
    s.notify("textDocument/didOpen", {"textDocument": {"uri": URI}})
    r = s.request("shutdown")
    check("a didOpen without text is ignored and the session goes on", "result" in r, r)
    check("exit after shutdown: status 0, nothing on standard error",
          s.finish(shutdown=False) == 0 and not s.stderr, s.stderr)

    s = Server()
    s.initialize()
    check("exit without shutdown: status 1", s.finish(shutdown=False) == 1, s.stderr)
    s = Server()
    s.p.stdin.close()
    check("the end of the input without exit: status 1", s.p.wait(DEADLINE) == 1)
    s.p.stdout.close()
    s.p.stderr.close()


def session_clients():
    # a client without Markdown hovers nor related information
    s = Server()
    s.initialize({})
    broken = PROGRAM.replace("+ total)", "+ totl)")
    d = s.open(broken)
    diags = d["diagnostics"]
    check("without relatedInformation, notes are lines of the message",
          len(diags) == 1 and "relatedInformation" not in diags[0]
          and "note: did you mean 'total'?" in diags[0]["message"], d)
    line, col = position_of(broken, "doubled\n")
    r = s.at("textDocument/hover", line, col)
    check("without Markdown, hovers are plain text",
          r["result"]["contents"] == {"kind": "plaintext", "value": "let doubled: int"}, r)
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


def session_large():
    n = 20000
    parts = ["def f%d(x: int): int { let y = x + %d\n  return y }\n" % (i, i) for i in range(n)]
    text = "".join(parts) + "def main() { println(f%d(1)) }\n" % (n - 1)
    s = Server()
    s.initialize()
    d = s.open(text)
    # every f but the last is never called: warnings (severity 2), no error
    check("a file of %d functions (%d KiB) is analysed" % (n, len(text) // 1024),
          d["diagnostics"] and all(x["severity"] != 1 for x in d["diagnostics"]) and
          d["diagnostics"][0]["code"] == "W0003", d["diagnostics"][:2])
    h = hover_text(s.at("textDocument/hover", 2 * n, 22))
    check("... and answers a hover at its end", "def f%d(x: int): int" % (n - 1) in h, h)
    d = s.change("def main() {\n  let unused = 1\n}\n", 2)
    w = d["diagnostics"]
    check("a warning is published with severity 2 and its W code",
          len(w) == 1 and w[0]["severity"] == 2 and w[0]["code"] == "W0001" and
          w[0]["range"]["start"] == {"line": 1, "character": 6}, w)
    bad = "".join("def g%d() { oops%d }\n" % (i, i) for i in range(300)) + "def main() {}\n"
    d = s.change(bad, 3)
    diags = d["diagnostics"]
    check("a file with 300 errors publishes the first 100 and says there are more",
          len(diags) == 101 and diags[-1]["severity"] == 3, len(diags))
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


GENERIC_PROGRAM = """class Stack[T] {
  var items: [T] = []
  def push(x: T) { items.push(x) }
  def pop(): T { return items.pop() }
}

def last[T](xs: [T]): T { return xs[xs.length - 1] }

def main() {
  let s = new Stack[int]
  s.push(1)
  println(s.pop() + last([1, 2]))
}
"""


def session_generics():
    s = Server()
    s.initialize()
    P = GENERIC_PROGRAM
    diags = s.open(P)["diagnostics"]
    check("a generic program has no diagnostics", diags == [], diags)

    line, col = position_of(P, "push(1)", offset=1)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a generic method called on an instance names the instance",
          "def push(x: T)" in h and "`Stack[int]`" in h and "effects:" in h, h)
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(P, "push(x")
    check("definition of an instance's method is the generic method",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": dl, "character": dc}, r)

    line, col = position_of(P, "Stack[int]", offset=1)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a generic class gives its type parameters", "class Stack[T]" in h, h)
    r = s.at("textDocument/definition", line, col)
    check("definition of an instantiated class is the generic class",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": 0, "character": 6}, r)

    line, col = position_of(P, "x) }")
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover in generic code shows the type parameter", "x: T" in h, h)

    line, col = position_of(P, "last([1", offset=1)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a generic function's call gives its declaration",
          "def last[T](xs: [T]): T" in h, h)
    r = s.at("textDocument/definition", line, col)
    dl, dc = position_of(P, "last[T]")
    check("definition of an instantiated function is the generic function",
          r.get("result", {}) and r["result"]["range"]["start"] == {"line": dl, "character": dc}, r)

    text = P.replace("  s.push(1)\n", "  s.push(1)\n  s.\n")
    s.change(text, 2)
    line, col = position_of(text, "s.\n", offset=2)
    r = s.at("textDocument/completion", line, col)
    labels = sorted(i["label"] for i in r["result"]["items"])
    check("completion on an instance lists its class's members once",
          labels == ["items", "pop", "push"], labels)

    line, col = position_of(P, "push(x", offset=1)
    r = s.request("textDocument/references", {"textDocument": {"uri": URI},
                  "position": {"line": line, "character": col},
                  "context": {"includeDeclaration": True}})
    got = sorted((x["range"]["start"]["line"], x["range"]["start"]["character"])
                 for x in r.get("result") or [])
    want = sorted([position_of(P, "push(x"), position_of(P, "push(1)")])
    check("references of a generic method: its declaration and its uses through instances",
          got == want, r)
    r = s.request("textDocument/references", {"textDocument": {"uri": URI},
                  "position": {"line": line, "character": col},
                  "context": {"includeDeclaration": False}})
    check("... and without the declaration when the client says so",
          [(x["range"]["start"]["line"], x["range"]["start"]["character"])
           for x in r.get("result") or []] == [position_of(P, "push(1)")], r)
    line, col = position_of(P, "items.pop", offset=1)
    r = s.request("textDocument/references", {"textDocument": {"uri": URI},
                  "position": {"line": line, "character": col},
                  "context": {"includeDeclaration": True}})
    check("references of a field: the declaration and both uses",
          len(r.get("result") or []) == 3, r)

    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    syms = r.get("result") or []
    outline = [(x["name"], x["kind"], [c["name"] for c in x.get("children", [])]) for x in syms]
    check("documentSymbol: the outline in source order, members as children, no instances",
          outline == [("Stack", 5, ["items", "push", "pop"]), ("last", 12, []),
                      ("main", 12, [])], outline)
    check("... with the declaration's line as detail and the name as selectionRange",
          syms and syms[0].get("detail") == "class Stack[T]" and
          syms[0]["selectionRange"]["start"] == {"line": 0, "character": 6}, syms[:1])
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nowhere.mos"}})
    check("documentSymbol of a document that is not open: null", r.get("result", 1) is None, r)

    SIG = """class Account<n> {
  var balance: int = 0
  def deposit(x: int, times: int) writes(n) { balance += x * times }
}

def move<p>(from: Account<p>, amount: int): int writes(p) { return amount }

def main() {
  let a = new Account<node(1)>
  a.deposit(1, 2)
  println(move(a, [1, 2].length))
}
"""
    s.change(SIG, 4)
    line, col = position_of(SIG, "1, 2)", offset=3)
    r = s.at("textDocument/signatureHelp", line, col)
    sig = (r.get("result") or {}).get("signatures", [{}])[0]
    check("signatureHelp in a method call: the signature with places and effects, the parameter",
          sig.get("label") == "def deposit(x: int, times: int) writes(n)" and
          [p["label"] for p in sig.get("parameters", [])] == ["x: int", "times: int"] and
          r["result"].get("activeParameter") == 1, r)
    line, col = position_of(SIG, "[1, 2].length", offset=4)
    r = s.at("textDocument/signatureHelp", line, col)
    sig = (r.get("result") or {}).get("signatures", [{}])[0]
    check("... in a function's call, commas of an inner literal not counted",
          sig.get("label") == "def move<p>(from: Account<p>, amount: int): int writes(p)" and
          r["result"].get("activeParameter") == 1, r)
    typing = SIG.replace("  a.deposit(1, 2)\n", "  a.deposit(1, 2)\n  move(a, \n")
    s.change(typing, 5)
    line, col = position_of(typing, "move(a, \n", offset=8)
    r = s.at("textDocument/signatureHelp", line, col)
    check("... in a call being typed, which does not parse yet",
          (r.get("result") or {}).get("activeParameter") == 1 and
          r["result"]["signatures"][0]["label"].startswith("def move<p>"), r)
    line, col = position_of(typing, "let a", offset=2)
    r = s.at("textDocument/signatureHelp", line, col)
    check("... and null outside any call", "result" in r and r["result"] is None, r)
    def rename(text, needle, offset, new):
        line, col = position_of(text, needle, offset=offset)
        return s.request("textDocument/rename", {"textDocument": {"uri": URI},
                         "position": {"line": line, "character": col}, "newName": new})
    s.change(SIG, 6)
    r = rename(SIG, "deposit(1", 1, "credit")
    edits = (r.get("result") or {}).get("changes", {}).get(URI, [])
    renamed = apply_edits(SIG, edits)
    check("rename a method: its declaration and every call, nothing else",
          len(edits) == 2 and "def credit(x: int" in renamed and "a.credit(1, 2)" in renamed
          and "deposit" not in renamed, r)
    r = rename(SIG, "balance +=", 1, "times")
    check("rename refused when it would clash (a parameter of that name in scope), saying why",
          r.get("error", {}).get("code") == -32803 and "times" in r["error"]["message"]
          and "result" not in r, r)
    r = rename(SIG, "let a", 4, "move")
    check("... or with a top-level declaration",
          r.get("error", {}).get("code") == -32803 and "top-level" in r["error"]["message"], r)
    r = rename(SIG, "let a", 4, "while")
    check("... and a keyword is not a name", r.get("error", {}).get("code") == -32803, r)
    r = rename(SIG, "println", 2, "say")
    check("... and a built-in cannot be renamed", r.get("error", {}).get("code") == -32803, r)
    r = rename(SIG, "let a", 4, "acct")
    edits = (r.get("result") or {}).get("changes", {}).get(URI, [])
    check("rename a local: its binding and its uses",
          len(edits) == 3 and "move(acct," in apply_edits(SIG, edits), r)
    POOLED = """class P {
  var x: float
  var alive: bool
}
layout Hot: P = rec{x} + rec{alive}
pool ps: P layout Hot

def main() {
  new P<ps>
  println(ps.size)
}
"""
    s.change(POOLED, 7)
    line, col = position_of(POOLED, "ps.size", offset=1)
    h = hover_text(s.at("textDocument/hover", line, col))
    check("hover on a pool shows its layout in force and its clusters' sizes",
          "pool ps: P layout Hot" in h and
          "layout in force: `rec{x} + rec{alive}` (8 + 1 bytes per object)" in h, h)
    s.change(P, 8)

    RANK = """class Account {
  var balance: int = 0
  var bonus: int = 0
  def deposit(x: int) { balance += x }
  def describe(): string { return "account" }
}

def main() {
  let acc = new Account
  acc.deposit(1)
  acc.deposit(2)
  println(acc.describe())
  let total = 3
  acc.
}
"""
    s.change(RANK, 9)
    line, col = position_of(RANK, "acc.\n", offset=4)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in sorted(r["result"]["items"], key=lambda i: i["sortText"])]
    check("completion ranks the members this file uses most first",
          labels[:2] == ["deposit", "describe"], labels)
    typed = RANK.replace("  acc.\n", "  acc.b\n")
    s.change(typed, 10)
    line, col = position_of(typed, "acc.b\n", offset=5)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in sorted(r["result"]["items"], key=lambda i: i["sortText"])]
    check("... and those beginning with what is typed before the others",
          labels[:2] == ["balance", "bonus"] and "deposit" in labels, labels)
    start = RANK.replace("  acc.\n", "  t\n")
    s.change(start, 11)
    line, col = position_of(start, "  t\n", offset=3)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in sorted(r["result"]["items"], key=lambda i: i["sortText"])]
    check("... at the start of a statement too: a local beginning with the letter first",
          labels[0] == "total", labels[:5])

    TYPED = """def show(n: int, s: string) { println(s + n) }

def main() {
  let count = 2
  let name = "n"
  let other = 3
  show(count, )
}
"""
    s.change(TYPED, 11)
    line, col = position_of(TYPED, "count, )", offset=7)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in sorted(r["result"]["items"], key=lambda i: i["sortText"])]
    check("completion ranks first what fits the parameter the argument is for",
          labels[0] == "name", labels[:5])

    UGLY = "def main() {\n    let x=1\n  println( x )\n}\n"
    s.change(UGLY, 12)
    r = s.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                              "options": {"tabSize": 2, "insertSpaces": True}})
    edits = r.get("result") or []
    check("formatting: one edit to mosaicc --format's layout",
          len(edits) == 1 and apply_edits(UGLY, edits) == "def main() {\n  let x = 1\n  println(x)\n}\n", r)
    s.change("def main() {\n  let x = (1 +\n}\n", 13)
    r = s.request("textDocument/formatting", {"textDocument": {"uri": URI}, "options": {}})
    check("... refused, saying why, while the file does not parse",
          r.get("error", {}).get("code") == -32803, r)

    RANGE = "def f[T](x: T): [T] {\n  let n = 3\n  for i in 0..n { }\n  let y: T = x\n  return [y]\n}\n\ndef main() { }\n"
    s.change(RANGE, 14)
    line, col = position_of(RANGE, "0..n", offset=3)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in sorted(r["result"]["items"], key=lambda i: i["sortText"])]
    check("completion at a range's bound (after '..') offers the names in scope", "n" in labels,
          labels[:5])
    line, col = position_of(RANGE, "y: T", offset=3)
    r = s.at("textDocument/completion", line, col)
    labels = [i["label"] for i in r["result"]["items"]]
    check("... and a generic function's type parameters where a type is written", "T" in labels,
          labels[:8])

    # the new requests on a document that is not open, and past the end
    ok = True
    for method in ["textDocument/references", "textDocument/signatureHelp",
                   "textDocument/rename", "textDocument/formatting", "textDocument/documentSymbol"]:
        for uri, line in [("file:///not/open.mos", 0), (URI, 100000)]:
            r = s.request(method, {"textDocument": {"uri": uri},
                                   "position": {"line": line, "character": 5},
                                   "newName": "z", "context": {"includeDeclaration": True},
                                   "options": {}})
            ok = ok and ("result" in r or "error" in r) and r.get("id") is not None
    check("references, signatureHelp, rename, formatting, documentSymbol: an unknown document "
          "or a position past the end gets an answer", ok)

    # incremental sync: a range replaced, as editors send a keystroke
    line, col = position_of(P, "s.push(1)", offset=7)
    s.change(P, 12)
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 13},
             "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                           "end": {"line": line, "character": col + 1}},
                                 "text": "\"x\""}]})
    d = s.diagnostics()
    check("an incremental change is applied in place: its new error is published",
          len(d["diagnostics"]) == 1 and d["diagnostics"][0].get("code") == "E0200" and
          d.get("version") == 13, d)
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 14},
             "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                           "end": {"line": line, "character": col + 3}},
                                 "text": "1"}]})
    d = s.diagnostics()
    check("... and undone by another", d["diagnostics"] == [] and d.get("version") == 14, d)

    bad = P.replace("items.push(x)", "items.push(x + 1)")
    diags = s.change(bad, 15)["diagnostics"]
    check("an error in generic code is published once, with its code",
          len(diags) == 1 and diags[0].get("code") == "E0202", diags)
    check("the session ends with status 0, nothing on standard error",
          s.finish() == 0 and not s.stderr, s.stderr)


SESSIONS = [session_lifecycle_and_diagnostics, session_queries, session_utf16,
            session_syntax_errors, session_malformed, session_clients, session_large,
            session_generics]

if __name__ == "__main__":
    for session in SESSIONS:
        try:
            session()
        except (Hung, EOFError, ValueError, KeyError, TypeError, BrokenPipeError) as e:
            check("%s runs to its end" % session.__name__, False, repr(e))
    print("1..%d" % len(results))
    sys.exit(0)

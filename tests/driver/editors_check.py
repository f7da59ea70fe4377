#!/usr/bin/env python3
"""editors_check.py — the editor files of editors/ against the language.

Run by tests/driver/editors.sh; speaks TAP.  The keywords are read off the
scanner's rules (lexer/scan.l), so that no list here can drift: VS Code's
TextMate grammar must list exactly those in its "keywords" rules, Emacs's
`mosaic-keywords' exactly those, Vim's keyword lines all of them (and
otherwise only the built-in type names and the TODO markers).  The JSON
files must be JSON, the grammar's literal rules must match every literal
form of LANGUAGE.md §1, VS Code's extension must start mosaic-lsp for
Mosaic documents (extension.js run by node, when it is installed, with
stand-ins for the modules VS Code gives it), and, when vim and emacs are
installed, each must load its files without error and highlight a sample
as intended (skipped otherwise).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ED = os.path.join(TOP, "editors")
results = []


def check(description, ok, detail=None, skip=None):
    results.append(ok)
    if skip:
        print("ok %d - %s # SKIP %s" % (len(results), description, skip))
        return
    print("%sok %d - %s" % ("" if ok else "not ", len(results), description))
    if not ok and detail is not None:
        for line in str(detail).splitlines()[:30]:
            print("# " + line)


def read(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return f.read()


BUILTIN_TYPES = {"int", "float", "bool", "string", "Fut", "Map"}
TODO_WORDS = {"TODO", "FIXME", "XXX", "NOTE"}

SAMPLE = """\
// a comment
class Counter<n> {
  var count: int = 1_000
  def incr() writes(n) { count += 0xff_ff }
}
def main() {
  let s = "tab\\t \\u{1F600}"
  let f = 6.02E-23 + 1.5
  for i in 0..3 {
  println(s + i)
  }
  /* block */
}
"""


def scanner_keywords():
    kws = re.findall(r'^"([a-z]+)"[ \t]+TOK\(', read(TOP, "lexer", "scan.l"), re.M)
    check("the scanner's keywords are found in lexer/scan.l", len(kws) >= 30, kws)
    return set(kws)


def diff(want, got):
    return "missing: %s\nextra: %s" % (sorted(want - got), sorted(got - want))


def textmate(keywords):
    path = os.path.join(ED, "vscode", "syntaxes", "mosaic.tmLanguage.json")
    try:
        g = json.loads(read(path))
    except ValueError as e:
        check("the TextMate grammar is JSON", False, e)
        return
    check("the TextMate grammar is JSON, for source.mosaic", g.get("scopeName") == "source.mosaic")
    words = set()
    for rule in g["repository"]["keywords"]["patterns"]:
        m = re.fullmatch(r"\\b\(\?:([a-z|]+)\)\\b", rule["match"])
        if m:
            words |= set(m.group(1).split("|"))
    check("the grammar's keyword rules list exactly the scanner's keywords", words == keywords,
          diff(keywords, words))

    regexes = []
    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("match", "begin", "end") and isinstance(v, str):
                    regexes.append(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(g)
    bad = []
    for r in regexes:
        try:
            re.compile(r)
        except re.error as e:
            bad.append("%s: %s" % (r, e))
    check("the grammar's %d regular expressions compile" % len(regexes), not bad, "\n".join(bad))

    nums = {r["name"]: r["match"] for r in g["repository"]["numbers"]["patterns"]}
    flt = nums["constant.numeric.float.mosaic"]
    intg = nums["constant.numeric.integer.mosaic"]
    hexa = nums["constant.numeric.hex.mosaic"]
    ok = (all(re.fullmatch(flt, x) for x in ["1.5", "2e10", "6.02E-23", "1e+5", "1_000.000_1"])
          and all(re.fullmatch(intg, x) for x in ["42", "1_000_000", "0"])
          and all(re.fullmatch(hexa, x) for x in ["0xff", "0XFF_FF"])
          and re.search(flt, "0..3") is None and re.search(flt, "1.") is None)
    check("the grammar's numbers: 42, 0xff, 1_000_000, 1.5, 2e10, 6.02E-23, 1e+5, not '1.' "
          "nor the range 0..3", ok)
    esc = g["repository"]["strings"]["patterns"][0]["patterns"][0]["match"]
    ok = all(re.fullmatch(esc, x) for x in ["\\n", "\\t", "\\r", "\\\\", '\\"', "\\0", "\\u{1F600}"])
    check("the grammar's string escapes: \\n \\t \\r \\\\ \\\" \\0 \\u{1F600}", ok)


def vscode():
    try:
        pkg = json.loads(read(ED, "vscode", "package.json"))
        conf = json.loads(read(ED, "vscode", "language-configuration.json"))
    except ValueError as e:
        check("VS Code's package.json and language-configuration.json are JSON", False, e)
        return
    lang = pkg["contributes"]["languages"][0]
    gram = pkg["contributes"]["grammars"][0]
    ok = (lang["id"] == "mosaic" and ".mos" in lang["extensions"]
          and os.path.exists(os.path.join(ED, "vscode", lang["configuration"]))
          and os.path.exists(os.path.join(ED, "vscode", gram["path"]))
          and gram["scopeName"] == "source.mosaic"
          and os.path.exists(os.path.join(ED, "vscode", pkg["main"])))
    check("VS Code's package.json names .mos files, and its files exist", ok, pkg)
    ok = (conf["comments"] == {"lineComment": "//", "blockComment": ["/*", "*/"]}
          and ["{", "}"] in conf["brackets"] and ["(", ")"] in conf["brackets"]
          and ["[", "]"] in conf["brackets"])
    check("VS Code's language configuration: comments and brackets", ok, conf)
    vscode_server(pkg)


# extension.js run by node against stand-ins for the two modules it
# requires, `vscode` (its configuration answering with package.json's
# defaults, or with a setting) and `vscode-languageclient/node` (a
# LanguageClient that records what it is given): what it would start.
VSCODE_RUN = r"""
const Module = require('module');
const [ext, setting] = process.argv.slice(1);  // node -e: no script name
const defaults = JSON.parse(require('fs').readFileSync(require('path').join(ext, 'package.json')))
    .contributes.configuration.properties;
const out = { clients: [], warnings: [] };
const vscode = {
  workspace: { getConfiguration: (section) => ({
    get: (key, fallback) => {
      const full = section + '.' + key;
      if (setting !== undefined) return setting;
      return full in defaults ? defaults[full].default : fallback;
    } }) },
  window: { showWarningMessage: (m) => out.warnings.push(m) },
};
const lc = {
  TransportKind: { stdio: 'stdio', ipc: 'ipc', pipe: 'pipe', socket: 'socket' },
  LanguageClient: class {
    constructor(id, name, server, client) {
      this.record = { id, server, selector: client.documentSelector, started: false };
      out.clients.push(this.record);
    }
    start() { this.record.started = true; return Promise.resolve(); }
    stop() { return Promise.resolve(); }
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return lc;
  return load.apply(this, arguments);
};
require(require('path').join(ext, 'extension.js')).activate({ extensionPath: ext, subscriptions: [] });
console.log(JSON.stringify(out));
"""


def vscode_server(pkg):
    desc = "VS Code's extension starts on a .mos file (activationEvents onLanguage:mosaic)"
    check(desc, "onLanguage:mosaic" in pkg.get("activationEvents", []) and
          "vscode-languageclient" in pkg.get("dependencies", {}), pkg.get("activationEvents"))
    desc = ("extension.js starts mosaic-lsp over stdio for mosaic documents, "
            "the one mosaic.server.path names, none when it is empty")
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        check(desc, True, skip="node is not installed")
        return
    runs = {}
    for name, args in [("default", []), ("path", ["/opt/mosaic/bin/mosaic-lsp"]), ("off", [""])]:
        p = subprocess.run([node, "-e", VSCODE_RUN, os.path.join(ED, "vscode")] + args,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        try:
            runs[name] = json.loads(p.stdout)
        except ValueError:
            runs[name] = {"error": p.stderr.decode(errors="replace")[-800:]}

    def started(run, command):
        clients = run.get("clients", [])
        if len(clients) != 1:
            return False
        c = clients[0]
        return (c["started"] and c["selector"] == [{"scheme": "file", "language": "mosaic"}]
                and all(c["server"].get(mode) == {"command": command, "transport": "stdio"}
                        for mode in ("run", "debug")))
    ok = (started(runs["default"], "mosaic-lsp")
          and started(runs["path"], "/opt/mosaic/bin/mosaic-lsp")
          and runs["off"] == {"clients": [], "warnings": []})
    check(desc, ok, json.dumps(runs, indent=1))


def vim_words(keywords):
    words = set()
    for line in read(ED, "vim", "syntax", "mosaic.vim").splitlines():
        m = re.match(r"\s*syn keyword\s+\w+\s+(.*)", line)
        if m:
            words |= {w for w in m.group(1).split() if w != "contained"}
    check("Vim's keyword lines hold every keyword of the scanner", keywords <= words,
          diff(keywords, words & keywords))
    extra = words - keywords - BUILTIN_TYPES - TODO_WORDS
    check("... and no other word but the built-in types", not extra, sorted(extra))


def emacs_words(keywords):
    text = read(ED, "emacs", "mosaic-mode.el")
    m = re.search(r"\(defconst mosaic-keywords\s+'\(([^)]*)\)", text)
    words = set(re.findall(r'"([a-z]+)"', m.group(1))) if m else set()
    check("Emacs's mosaic-keywords are exactly the scanner's keywords", words == keywords,
          diff(keywords, words))


VIM_SCRIPT = r"""
set nocompatible
let &rtp = $EDITORS . '/vim,' . &rtp
filetype plugin on
syntax on
try
  edit $SAMPLE
  let out = [&filetype, get(b:, 'current_syntax', ''), &commentstring]
  for [l, c] in [[1, 4], [2, 1], [2, 7], [3, 14], [3, 20], [4, 16], [7, 15], [7, 18],
               \ [8, 11], [9, 3], [12, 3]]
    call add(out, synIDattr(synID(l, c, 1), 'name'))
  endfor
  call writefile(out, $OUT)
catch
  call writefile(['error: ' . v:exception], $OUT)
  cquit
endtry
qall!
"""
VIM_WANT = ["mosaic", "mosaic", "// %s", "mosaicComment", "mosaicDeclaration",
            "mosaicClassName", "mosaicType", "mosaicNumber", "mosaicEffect", "mosaicEscape",
            "mosaicEscape", "mosaicFloat", "mosaicRepeat", "mosaicComment"]


def vim(tmp, sample):
    vim = shutil.which("vim")
    desc = "vim loads the files: .mos is mosaic, and keywords, types, numbers, escapes and comments are highlighted"
    if not vim:
        check(desc, True, skip="vim is not installed")
        return
    script, out = os.path.join(tmp, "check.vim"), os.path.join(tmp, "vim.out")
    with open(script, "w") as f:
        f.write(VIM_SCRIPT)
    env = dict(os.environ, EDITORS=ED, SAMPLE=sample, OUT=out)
    p = subprocess.run([vim, "-Nu", "NONE", "-i", "NONE", "-es", "-S", script], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    got = open(out).read().splitlines() if os.path.exists(out) else []
    check(desc, p.returncode == 0 and got == VIM_WANT,
          "status %d\ngot:  %s\nwant: %s" % (p.returncode, got, VIM_WANT))


EMACS_SCRIPT = r"""
(require 'mosaic-mode)
(find-file (getenv "SAMPLE"))
(unless (eq major-mode 'mosaic-mode) (error "not mosaic-mode: %s" major-mode))
(font-lock-ensure)
(let ((faces nil))
  (dolist (word '("class" "Counter" "int" "1_000" "writes" "0xff_ff" "incr" "\\u{1F600}"
                  "6.02E-23" "comment"))
    (goto-char (point-min))
    (let ((case-fold-search nil)) (search-forward word))
    (let ((f (get-text-property (match-beginning 0) 'face)))
      (push (format "%s" (if (listp f) (car f) f)) faces)))
  (indent-region (point-min) (point-max))
  (with-temp-file (getenv "OUT")
    (insert (mapconcat #'identity (nreverse faces) "\n") "\n")
    (insert-buffer-substring (get-file-buffer (getenv "SAMPLE")))))
"""
EMACS_FACES = ["font-lock-keyword-face", "font-lock-type-face", "font-lock-type-face",
               "font-lock-constant-face", "font-lock-keyword-face", "font-lock-constant-face",
               "font-lock-function-name-face", "mosaic-escape-face", "font-lock-constant-face",
               "font-lock-comment-face"]


def emacs(tmp, sample):
    emacs = shutil.which("emacs")
    desc = "emacs loads mosaic-mode: .mos is mosaic-mode, faces are right, blocks indent"
    if not emacs:
        check(desc, True, skip="emacs is not installed")
        return
    script, out = os.path.join(tmp, "check.el"), os.path.join(tmp, "emacs.out")
    with open(script, "w") as f:
        f.write(EMACS_SCRIPT)
    env = dict(os.environ, SAMPLE=sample, OUT=out, HOME=tmp)
    p = subprocess.run([emacs, "-Q", "--batch", "-L", os.path.join(ED, "emacs"), "-l", script],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    got = open(out).read().splitlines() if os.path.exists(out) else []
    want_text = SAMPLE.replace("  println(s + i)\n  }", "    println(s + i)\n  }").splitlines()
    ok = p.returncode == 0 and got[:len(EMACS_FACES)] == EMACS_FACES and \
        got[len(EMACS_FACES):] == want_text
    check(desc, ok, "status %d %s\ngot:  %s\nwant: %s" % (
        p.returncode, p.stderr.decode(errors="replace")[-500:], got, EMACS_FACES + want_text))


def main():
    keywords = scanner_keywords()
    textmate(keywords)
    vscode()
    vim_words(keywords)
    emacs_words(keywords)
    with tempfile.TemporaryDirectory() as tmp:
        sample = os.path.join(tmp, "sample.mos")
        with open(sample, "w") as f:
            f.write(SAMPLE)
        vim(tmp, sample)
        emacs(tmp, sample)
    print("1..%d" % len(results))


if __name__ == "__main__":
    main()

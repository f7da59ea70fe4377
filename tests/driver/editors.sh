#!/bin/sh
# editors.sh — the editor files of editors/ (Vim, Emacs, VS Code) against
# the language's keywords, read off lexer/scan.l, and loaded by vim and
# emacs when they are installed; tests/driver/editors_check.py does it
# and speaks TAP.
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is not installed"; exit 0; }
exec python3 "$here/editors_check.py"

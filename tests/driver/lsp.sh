#!/bin/sh
# lsp.sh — the language server, mosaic-lsp, in scripted sessions: the
# Language Server Protocol spoken by tests/driver/lsp_client.py (python3),
# which checks every answer and speaks TAP itself.
here=$(cd "$(dirname "$0")" && pwd)
lsp=$(dirname "${MOSAICC:-./mosaicc}")/mosaic-lsp
[ -x "$lsp" ] || { echo "Bail out! no $lsp"; exit 99; }
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is not installed"; exit 0; }
exec python3 "$here/lsp_client.py" "$lsp"

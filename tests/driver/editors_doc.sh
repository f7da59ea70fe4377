# tests/driver/editors_doc.sh — what the editor tests (editors_vim.sh,
# editors_neovim.sh, editors_emacs.sh) share (sourced after tap.sh, never
# run): the setup a user copies out of docs/editors.md, a private tmux
# server, and waiting for a condition without ever hanging.

doc=$here/../../docs/editors.md
top=$(cd "$here/../.." && pwd)       # the source tree: editors/ is there
build=$(cd "$(dirname "$mosaicc")" && pwd)   # the build tree: mosaic-lsp is there

skip_all() {   # skip_all REASON: the whole test is skipped
    echo "1..0 # SKIP $1"
    exit 0
}

# doc_blocks SECTION LANGUAGE: the fenced blocks of LANGUAGE (```vim) under
# the heading "## SECTION" of docs/editors.md, in order, as one file: what
# the section tells a user to write in the editor's startup file.
doc_blocks() {
    awk -v section="## $1" -v fence="\`\`\`$2" '
        /^## / && !inblock { insection = ($0 == section) }
        /^```/ {
            if (inblock) { inblock = 0; ours = 0; next }
            inblock = 1; ours = insection && $0 == fence; next
        }
        ours { print }
    ' "$doc"
}

# doc_setup SECTION LANGUAGE INSTALLED TREE OUT: the blocks into OUT, with
# the installed directory INSTALLED replaced by the source tree's TREE
# (the doc's comments offer that); fails when there is no such block or
# none names INSTALLED (the test would then try files that an earlier
# `make install` left, not the tree's).
doc_setup() {
    doc_blocks "$1" "$2" > "$5.doc"
    if ! grep -q "$3" "$5.doc"; then
        echo "Bail out! docs/editors.md has no \`\`\`$2 block naming $3 under '## $1'"
        exit 99
    fi
    sed "s|$3|$4|" "$5.doc" > "$5"
}

# The server the setups name, mosaic-lsp, found on PATH: the build tree's.
[ -x "$build/mosaic-lsp" ] || { echo "Bail out! no $build/mosaic-lsp"; exit 99; }
mkdir -p "$tmp/bin" && ln -s "$build/mosaic-lsp" "$tmp/bin/mosaic-lsp" || exit 99

# A tmux server of the test's own (its socket in $tmp, no configuration
# file), ended with everything in it when the test exits.
tmux_sock=$tmp/tmux.sock
tm() { tmux -S "$tmux_sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# servers: the programs running that were started here (the PATH above
# is in their environment), one a line.
servers() {
    for e in /proc/[0-9]*/environ; do
        grep -qsa "$tmp/bin" "$e" && readlink "${e%environ}exe"
    done
}

# screen: what the terminal shows now, into $tmp/screen.
screen() { tm capture-pane -p -t ed > "$tmp/screen" 2>/dev/null; }

# For the editors under tmux (the session is "ed"): keys sent as typed
# (tmux send-keys's names: Enter, Escape, C-x), a pattern on the screen,
# and, after a failure, the startup file $setup, the screen and what the
# editor's probe last wrote to $state.
state=$tmp/state
keys() { tm send-keys -t ed "$@"; }
on_screen() { screen && has "$tmp/screen" "$1"; }
failure() {
    echo "# the startup file:"; show "$setup"
    echo "# the screen:"; screen; show "$tmp/screen"
    echo "# what the probe saw:"; show "$state"
}

# wait_for SECONDS COMMAND...: run COMMAND every tenth of a second until it
# succeeds (status 0) or SECONDS have passed (status 1). The limits are
# generous so that a loaded machine passes; a passing test waits only as
# long as the editor takes.
wait_for() {
    limit=$(($1 * 10)); shift
    i=0
    while [ $i -lt $limit ]; do
        "$@" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# has FILE PATTERN: FILE has a line matching the basic regex PATTERN.
has() { grep -q -- "$2" "$1" 2>/dev/null; }

# show FILE: FILE as TAP comments, after a failure.
show() { sed 's/^/#   /' "$1" 2>/dev/null; }

# The Mosaic file every editor opens: the program of "Trying the server by
# hand", with its error (balanse, line 8 column 15, E0103).
cat > "$tmp/demo.mos" <<'EOF'
class Account<n> {
  var balance: int
  def deposit(x: int) writes(n) { balance += x }
}
def main() {
  let acc = new Account<node(1)>
  acc.deposit(5)
  println(acc.balanse)
}
EOF

#!/bin/sh
# editors_emacs.sh — docs/editors.md's Emacs setup tried as written: the
# ```elisp blocks of its "Emacs" section are the ~/.emacs (the tree's
# editors/emacs for the installed directory, the build tree's mosaic-lsp
# on PATH), loaded by `emacs --batch` as Emacs's startup does (packages
# activated first, so that Debian's elpa-eglot is found), and then
# tests/driver/editors_emacs.el opens a Mosaic file with an error and
# checks what eglot and Flymake do with it. Skipped without emacs or
# eglot (Debian 12: apt-get install elpa-eglot; built into Emacs 29).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/editors_doc.sh"
command -v emacs >/dev/null || skip_all "emacs is not installed"
HOME=$tmp emacs --batch --eval '(progn (package-activate-all) (kill-emacs (if (locate-library "eglot") 0 1)))' \
    </dev/null >/dev/null 2>&1 \
    || skip_all "eglot is not installed (Debian 12: apt-get install elpa-eglot)"

doc_setup Emacs elisp /usr/local/share/emacs/site-lisp "$top/editors/emacs" "$tmp/init.el"

# 120 seconds for the whole session: each of its waits gives up after 20.
cd "$tmp" || exit 99
HOME=$tmp PATH=$tmp/bin:$PATH LSP=$build/mosaic-lsp DEMO=$tmp/demo.mos RESULTS=$tmp/results \
    timeout 120 emacs --batch --eval '(package-activate-all)' -l "$tmp/init.el" \
    -l "$here/editors_emacs.el" </dev/null >"$tmp/out" 2>&1
status=$?

while IFS= read -r line; do
    case $line in
        "ok "*) check "${line#ok }" 0 ;;
        "not ok "*) check "${line#not ok }" 1 ;;
        *) echo "$line" ;;
    esac
done < "$tmp/results"
check "emacs runs the session to its end (status $status)" $status
if [ $failed -ne 0 ]; then
    echo "# the ~/.emacs:"; show "$tmp/init.el"
    echo "# what emacs said:"; show "$tmp/out"
fi
[ -z "$(servers)" ]
check "no mosaic-lsp is left running" $?

echo "1..$n"
exit $failed

# editors/local.mk — syntax highlighting for Vim, Emacs and VS Code, and
# where `make install` puts it: where each editor looks (docs/editors.md).
#
# Vim reads $(datadir)/vim/vimfiles when it is on its 'runtimepath' (it
# is for Debian's vim with the default prefix /usr); Emacs loads
# $(datadir)/emacs/site-lisp (on Debian's load-path for /usr and
# /usr/local); VS Code takes an extension directory, installed under
# $(datadir)/mosaic/editors/vscode for a user to link or copy.
vimsyntaxdir = $(datadir)/vim/vimfiles/syntax
dist_vimsyntax_DATA = editors/vim/syntax/mosaic.vim
vimftdetectdir = $(datadir)/vim/vimfiles/ftdetect
dist_vimftdetect_DATA = editors/vim/ftdetect/mosaic.vim
vimftplugindir = $(datadir)/vim/vimfiles/ftplugin
dist_vimftplugin_DATA = editors/vim/ftplugin/mosaic.vim

emacslispdir = $(datadir)/emacs/site-lisp
dist_emacslisp_DATA = editors/emacs/mosaic-mode.el

vscodedir = $(datadir)/mosaic/editors/vscode
dist_vscode_DATA = editors/vscode/package.json editors/vscode/extension.js \
	editors/vscode/language-configuration.json
vscodesyntaxdir = $(vscodedir)/syntaxes
dist_vscodesyntax_DATA = editors/vscode/syntaxes/mosaic.tmLanguage.json

# The keywords of every editor's files against the scanner's, the JSON of
# VS Code's, and the files loaded by vim and emacs when they are installed.
TESTS += tests/driver/editors.sh
EXTRA_DIST += tests/driver/editors.sh tests/driver/editors_check.py

;;; mosaic-mode.el --- Major mode for the Mosaic language  -*- lexical-binding: t; -*-

;; Keywords: languages
;; URL: docs/editors.md of the Mosaic sources

;;; Commentary:

;; Highlighting and indentation for Mosaic (.mos files), derived from
;; `prog-mode'.  Comments are C's (`//' and `/* */', not nested), strings
;; are double-quoted with backslash escapes.  Indentation counts open
;; brackets: each `{', `(' or `[' still open at the start of a line
;; indents it by `mosaic-indent-offset', and a line that starts with a
;; closer goes back one step.  Mosaic ends statements at newlines, so
;; there is no continuation indent to guess.
;;
;; `mosaic-keywords' is every keyword of the language, as the compiler's
;; scanner (lexer/scan.l) has them; tests/driver/editors.sh checks that
;; it still is.
;;
;; With eglot (Emacs 29, or from ELPA), M-x eglot in a Mosaic buffer
;; starts the language server, mosaic-lsp, for diagnostics, hovers,
;; definitions and completion; see docs/editors.md.

;;; Code:

(require 'seq)

(defgroup mosaic nil
  "Support for the Mosaic language."
  :group 'languages
  :prefix "mosaic-")

(defcustom mosaic-indent-offset 2
  "Columns of indentation per open bracket in Mosaic code."
  :type 'integer
  :safe #'integerp)

(defconst mosaic-keywords
  '("active" "and" "break" "class" "continue" "def" "else" "false" "for" "get"
    "here" "if" "in" "layout" "let" "local" "new" "node" "not" "null" "or"
    "pool" "reads" "rec" "return" "sends" "this" "true" "unit" "val" "var"
    "while" "writes")
  "The keywords of Mosaic (LANGUAGE.md, section 1).")

(defconst mosaic--constants '("true" "false" "null")
  "Keywords that are values.")

(defconst mosaic--builtin-types '("int" "float" "bool" "string" "Fut" "Map")
  "Names of the built-in types (not keywords: identifiers the language reserves).")

(defface mosaic-escape-face '((t :inherit font-lock-builtin-face))
  "Face for the escape sequences of Mosaic strings.")

(defconst mosaic--font-lock-keywords
  (let ((ident "[A-Za-z_][A-Za-z0-9_]*"))
    `((,(concat "\\_<def[ \t]+\\(" ident "\\)") 1 'font-lock-function-name-face)
      (,(concat "\\_<\\(?:class\\|layout\\|pool\\)[ \t]+\\(" ident "\\)")
       1 'font-lock-type-face)
      (,(regexp-opt mosaic--constants 'symbols) . 'font-lock-constant-face)
      (,(regexp-opt (seq-difference mosaic-keywords mosaic--constants) 'symbols)
       . 'font-lock-keyword-face)
      (,(regexp-opt mosaic--builtin-types 'symbols) . 'font-lock-type-face)
      ("\\_<[A-Z][A-Za-z0-9_]*\\_>" . 'font-lock-type-face)
      ;; 0xff_ff, 1_000, 1.5, 6.02E-23 (not `1.': `0..3' is a range)
      ("\\_<0[xX][0-9A-Fa-f]\\(?:_?[0-9A-Fa-f]\\)*\\_>" . 'font-lock-constant-face)
      ("\\_<[0-9]\\(?:_?[0-9]\\)*\\(?:\\.[0-9]\\(?:_?[0-9]\\)*\\)?\\(?:[eE][+-]?[0-9]\\(?:_?[0-9]\\)*\\)?\\_>"
       . 'font-lock-constant-face)
      ;; escapes inside strings: \n \t \r \\ \" \0 \u{1F600}
      ("\\\\\\(?:[ntr\\\"0]\\|u{[0-9A-Fa-f]+}\\)" 0 'mosaic-escape-face prepend)))
  "Highlighting for `mosaic-mode'.")

(defvar mosaic-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?' "." table)
    (dolist (c '(?+ ?- ?% ?= ?< ?> ?! ?& ?| ?^ ?? ?. ?: ?,))
      (modify-syntax-entry c "." table))
    table)
  "Syntax table for `mosaic-mode'.")

(defun mosaic-indent-line ()
  "Indent the current line by the brackets open before it."
  (interactive)
  (let* ((depth (save-excursion
                  (beginning-of-line)
                  (car (syntax-ppss))))
         (closer (save-excursion
                   (back-to-indentation)
                   (looking-at "[]})]")))
         (column (* mosaic-indent-offset (max 0 (if closer (1- depth) depth))))
         (offset (- (current-column) (current-indentation))))
    (unless (nth 8 (save-excursion (syntax-ppss (line-beginning-position))))
      ;; never re-indent the inside of a block comment or string
      (indent-line-to column)
      (when (> offset 0)
        (forward-char offset)))))

;;;###autoload
(define-derived-mode mosaic-mode prog-mode "Mosaic"
  "Major mode for editing Mosaic code."
  :syntax-table mosaic-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)[ \t]*")
  (setq-local indent-line-function #'mosaic-indent-line)
  (setq-local electric-indent-chars (append "{}()[]" electric-indent-chars))
  (setq-local font-lock-defaults '(mosaic--font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.mos\\'" . mosaic-mode))

(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs '(mosaic-mode "mosaic-lsp")))

(provide 'mosaic-mode)

;;; mosaic-mode.el ends here

;;; editors_emacs.el --- docs/editors.md's Emacs setup at work  -*- lexical-binding: t; -*-

;; Loaded by tests/driver/editors_emacs.sh into `emacs --batch' after the
;; doc's ~/.emacs: opens $DEMO, a Mosaic file with an error, as a user
;; would, and checks what eglot and Flymake make of it.  Each check is a
;; line "ok DESCRIPTION" or "not ok DESCRIPTION" appended to $RESULTS
;; (the shell script numbers them), followed by "# " lines on failure.
;;
;; Batch Emacs has no command loop: where a user's Emacs runs
;; `post-command-hook' after a command, this runs the hook; where it runs
;; the idle timers while it waits for a key (eglot sends a change to the
;; server from one), `ed-wait' runs them, between waits in
;; `accept-process-output', which runs the other timers and reads the
;; server's answers.  Every wait has a deadline.

(defun ed-check (description ok &optional detail)
  (with-temp-buffer
    (insert (if ok "ok " "not ok ") description "\n")
    (unless ok
      (dolist (line (split-string (format "%s" detail) "\n"))
        (insert "#   " line "\n")))
    (append-to-file (point-min) (point-max) (getenv "RESULTS")))
  ok)

(defun ed-idle ()
  "Run the idle timers, as the command loop does when no key comes."
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun ed-wait (pred &optional seconds)
  "Wait until PRED gives non-nil or SECONDS (20) pass; PRED's value.
An error in PRED (eglot not loaded, no server) counts as nil."
  (let ((deadline (+ (float-time) (or seconds 20)))
        value)
    (while (and (not (setq value (ignore-errors (funcall pred))))
                (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (ed-idle))
    value))

(defun ed-goto (line column)
  "Point to LINE (from 1), COLUMN (from 0)."
  (goto-char (point-min))
  (forward-line (1- line))
  (forward-char column))

(defvar ed-docs nil "What ElDoc last displayed: a list of (STRING . PLIST).")

(defun ed-eldoc-shows (regexp)
  "Ask ElDoc about point, as after a command; wait until it shows REGEXP."
  (setq ed-docs nil)
  (eldoc-print-current-symbol-info t)
  (ed-wait (lambda ()
             (cl-some (lambda (doc) (string-match-p regexp (car doc))) ed-docs))))

(defun ed-diagnostics ()
  (mapcar (lambda (d)
            (save-excursion
              (goto-char (flymake-diagnostic-beg d))
              (format "%d:%d %s %s" (line-number-at-pos) (1+ (current-column))
                      (flymake-diagnostic-type d) (flymake-diagnostic-text d))))
          (flymake-diagnostics)))

(find-file (getenv "DEMO"))
(font-lock-ensure)
(ed-check "emacs opens demo.mos in mosaic-mode, highlighted ('class' is a keyword)"
          (and (eq major-mode 'mosaic-mode)
               (eq (get-text-property (point-min) 'face) 'font-lock-keyword-face))
          major-mode)

;; What the command loop does after the command that opened the file:
;; eglot-ensure connects then.
(run-hooks 'post-command-hook)
(ed-check "eglot-ensure starts mosaic-lsp and eglot manages the buffer"
          (ed-wait (lambda () (and (eglot-current-server) eglot--managed-mode)))
          (with-current-buffer "*Messages*" (buffer-string)))
(defvar ed-server (eglot-current-server))
(let* ((process (and ed-server (jsonrpc--process ed-server)))
       (exe (and process (file-truename (format "/proc/%d/exe" (process-id process))))))
  (ed-check "the server is the command mosaic-mode names, mosaic-lsp: the build tree's"
            (and process (equal (process-command process) '("mosaic-lsp"))
                 (equal exe (file-truename (getenv "LSP"))))
            (list (and process (process-command process)) exe)))

(ed-wait #'flymake-diagnostics)
(let ((got (ed-diagnostics)))
  (ed-check "Flymake shows mosaic-lsp's diagnostic: 8:15 E0103 no field 'balanse' in class 'Account'"
            (and (= (length got) 1)
                 (string-match-p (concat "\\`8:15 eglot-error .*E0103.*"
                                         "no field 'balanse' in class 'Account'")
                                 (car got)))
            got)
  (ed-check "... with its note: did you mean 'balance'?"
            (string-match-p "2:7: note: did you mean 'balance'\\?" (or (car got) ""))
            got))

;; ElDoc, as it runs when point rests on 'deposit': its documentation
;; functions (eglot's hover and signature help), and a display function
;; of the test's beside the echo area's.
(ed-goto 7 6)
(add-hook 'eldoc-display-functions (lambda (docs _interactive) (setq ed-docs docs)) nil t)
(ed-check "ElDoc on 'deposit' shows the hover: def deposit(x: int) writes(n)"
          (ed-eldoc-shows "def deposit(x: int) writes(n)")
          ed-docs)

;; M-. on 'balance' in line 3: its declaration, line 2 column 7
(ed-goto 3 35)
(call-interactively #'xref-find-definitions)
(ed-check "M-. on 'balance' goes to its declaration, 2:7"
          (and (eq (current-buffer) (get-file-buffer (getenv "DEMO")))
               (= (line-number-at-pos) 2) (= (current-column) 6))
          (format "%s %d:%d" (current-buffer) (line-number-at-pos) (1+ (current-column))))

;; The error corrected (one letter, so that Flymake's mark of the error
;; stays until the server says otherwise): once the server has the
;; change, a hover has the effects of a program without errors, and the
;; diagnostic goes.
(ed-goto 8 19)
(delete-char 1)
(insert "c")
(ed-goto 7 6)
(ed-check "with 'balanse' corrected, ElDoc on 'deposit' shows its effects, reads(n) writes(n)"
          (ed-eldoc-shows "effects: reads(n) writes(n)")
          ed-docs)
(ed-check "... and the diagnostic goes"
          (ed-wait (lambda () (null (flymake-diagnostics))))
          (ed-diagnostics))

;; completion-at-point after 'acc.': the class's members
(ed-goto 7 (length "  acc.deposit(5)"))
(insert "\n  acc.")
(let* ((capf (run-hook-with-args-until-success 'completion-at-point-functions))
       (names (and capf (all-completions "" (nth 2 capf)))))
  (ed-check "completion-at-point after 'acc.' offers 'deposit' and 'balance'"
            (and (member "deposit" names) (member "balance" names))
            names))

;; M-x eglot-shutdown: the server answers `shutdown' (else eglot-shutdown
;; fails after 1.5 s and so does the session), and is gone
(let ((process (jsonrpc--process ed-server)))
  (eglot-shutdown ed-server)
  (ed-check "eglot-shutdown: mosaic-lsp answers and is gone"
            (ed-wait (lambda () (not (process-live-p process))))
            (process-status process)))

(set-buffer-modified-p nil)
(kill-emacs 0)

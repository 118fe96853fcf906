;;; flycheck_client.el --- drive the shipped Flycheck checker  -*- lexical-binding: t; -*-
;; Flycheck (Debian's elpa-flycheck) runs editors/emacs/flycheck-warplint.el
;; on a .cu buffer; tests/editors_flycheck.rs reads the JSON written here.

;; emacs -Q does not activate Debian's elpa packages.
(dolist (dir (directory-files "/usr/share/emacs/site-lisp/elpa" t "^[a-z]"))
  (add-to-list 'load-path dir))
(require 'flycheck)
(load (getenv "WARPLINT_FLYCHECK_EL"))
(setq flycheck-warplint-executable (getenv "WARPLINT_BIN"))
(find-file (getenv "WARPLINT_FILE"))
(c++-mode)
(flycheck-mode 1)
(flycheck-buffer)
(let ((n 0))
  (while (and (< n 300) (memq flycheck-last-status-change '(not-checked running)))
    (accept-process-output nil 0.1)
    (setq n (1+ n))))

(defun flycheck-client--error (e)
  "E as an alist, with the text its region covers."
  (let ((region (flycheck-error-region-for-mode e 'symbols)))
    (list (cons 'line (flycheck-error-line e))
          (cons 'column (flycheck-error-column e))
          (cons 'level (symbol-name (flycheck-error-level e)))
          (cons 'id (flycheck-error-id e))
          (cons 'checker (symbol-name (flycheck-error-checker e)))
          (cons 'message (flycheck-error-message e))
          (cons 'text (buffer-substring-no-properties (car region) (cdr region))))))

;; Read the buffer-local state here, before `with-temp-file' switches buffers.
(let ((json (json-encode
             (list (cons 'status (symbol-name flycheck-last-status-change))
                   (cons 'errors (vconcat (mapcar #'flycheck-client--error
                                                  flycheck-current-errors)))))))
  (with-temp-file (getenv "WARPLINT_OUT")
    (insert json)))

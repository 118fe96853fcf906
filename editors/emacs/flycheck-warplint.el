;;; flycheck-warplint.el --- warplint in Flycheck, from its JSON report  -*- lexical-binding: t; -*-

;; Load it from init.el:
;;   (with-eval-after-load 'flycheck
;;     (load "/path/to/warplint/editors/emacs/flycheck-warplint.el"))
;;
;; Flycheck sends the buffer on standard input and names it with
;; --stdin-filename, so unsaved edits are checked under the file's real
;; name.  `flycheck-warplint-executable' picks the binary;
;; `flycheck-warplint-args' adds arguments (e.g. ("--target-arch" "sm_90")).

;;; Code:

(require 'flycheck)
(require 'json)

(flycheck-def-args-var flycheck-warplint-args warplint)

(defun flycheck-warplint--parse (output checker buffer)
  "Flycheck errors for BUFFER from warplint's JSON report in OUTPUT.
CHECKER is this checker.  Report columns count characters, 1-based, with
an exclusive end, as Flycheck's do."
  (let* ((json-object-type 'alist)
         (json-array-type 'list)
         (json-key-type 'symbol)
         (report (condition-case nil (json-read-from-string output) (error nil))))
    (mapcar
     (lambda (d)
       (let-alist d
         (flycheck-error-new-at
          .line .column
          (if (equal .severity "error") 'error 'warning)
          (if (equal .confirmation.status "undecided")
              (concat .message " [undecided]")
            .message)
          :end-line .end_line :end-column .end_column
          :id .code :checker checker :buffer buffer
          :filename (buffer-file-name buffer))))
     (alist-get 'diagnostics report))))

(flycheck-define-checker warplint
  "CUDA warp-level synchronization bugs, found by warplint.
See URL `https://github.com/warplint/warplint'."
  :command ("warplint" "check" "--format" "json" "--exit-zero"
            (eval flycheck-warplint-args)
            (option "--stdin-filename" buffer-file-name)
            "-")
  :standard-input t
  :error-parser flycheck-warplint--parse
  :modes (cuda-mode c++-mode c++-ts-mode)
  ;; In C++ modes, only CUDA files.
  :predicate (lambda ()
               (or (eq major-mode 'cuda-mode)
                   (and buffer-file-name
                        (string-match-p "\\.cuh?\\'" buffer-file-name)))))

(add-to-list 'flycheck-checkers 'warplint)

(provide 'flycheck-warplint)
;;; flycheck-warplint.el ends here

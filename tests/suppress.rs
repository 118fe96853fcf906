//! Suppression comments, through `check_source` as every front end calls it.

use warplint::diagnostic::{Applicability, Diagnostic};
use warplint::engine::{Options, check_source};
use warplint::rules::RuleSet;

fn check_with(text: &str, opts: &Options) -> Vec<Diagnostic> {
    check_source("k.cu", text.as_bytes(), opts).diagnostics
}

fn check(text: &str) -> Vec<Diagnostic> {
    check_with(text, &Options::default())
}

/// `(line, code)` of each diagnostic, in report order.
fn found(text: &str) -> Vec<(usize, &'static str)> {
    check(text).iter().map(|d| (d.span.line, d.code)).collect()
}

fn apply_fix(text: &str, d: &Diagnostic) -> String {
    let fix = d.fix.as_ref().expect("a fix");
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.start_byte));
    let mut out = text.to_owned();
    for e in edits {
        out.replace_range(e.start_byte..e.end_byte, &e.replacement);
    }
    out
}

#[test]
fn same_line_and_next_line_comments_suppress() {
    let src = "\
__device__ int f(int v) {
    int a = __shfl(v, 0); // warplint: ignore[WL001] CUDA 8 build
    // warplint: ignore[legacy-warp-primitive] CUDA 8 build
    int b = __shfl(v, 1);
    int c = __shfl(v, 2);
    return a + b + c;
}
";
    assert_eq!(found(src), [(5, "WL001")]);
    let outcome = check_source("k.cu", src.as_bytes(), &Options::default());
    assert_eq!(outcome.suppressed, 2);
}

#[test]
fn a_trailing_comment_covers_only_its_line_and_an_own_line_comment_only_the_next() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore[WL001] reason

    int a = __shfl(v, 0);
    int b = v; // warplint: ignore[WL001] reason
    int c = __shfl(v, 1);
    return a + b + c;
}
";
    assert_eq!(
        found(src),
        [(2, "WL100"), (4, "WL001"), (5, "WL100"), (6, "WL001")]
    );
}

#[test]
fn ignore_file_covers_the_whole_file_and_only_its_codes() {
    let src = "\
__device__ int f(int v) {
    return __shfl(v, 0) + __shfl_up(v, 1);
}
// warplint: ignore-file[WL001] generated from the CUDA 8 sources
";
    assert!(found(src).is_empty());
    assert_eq!(
        check_source("k.cu", src.as_bytes(), &Options::default()).suppressed,
        2
    );
}

#[test]
fn no_suppressions_audits_as_if_there_were_none() {
    let src = "\
__device__ int f(int v) {
    return __shfl(v, 0); // warplint: ignore[WL001]
}
// warplint: ignore[WL999] nonsense
";
    let opts = Options {
        ignore_suppressions: true,
        ..Options::default()
    };
    let got: Vec<_> = check_with(src, &opts)
        .iter()
        .map(|d| (d.span.line, d.code))
        .collect();
    assert_eq!(got, [(2, "WL001")]);
    // Without the flag: suppressed, but the missing reason and the bad code show.
    assert_eq!(found(src), [(2, "WL101"), (4, "WL102")]);
}

#[test]
fn missing_reasons_are_warnings_and_the_suppression_still_applies() {
    let src =
        "__device__ int f(int v) {\n    return __shfl(v, 0); // warplint: ignore[WL001]  \n}\n";
    let ds = check(src);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].code, "WL101");
    assert_eq!(ds[0].severity.to_string(), "warning");
    assert_eq!(
        &src[ds[0].span.start..ds[0].span.end],
        "warplint: ignore[WL001]"
    );
    // Punctuation alone is not a reason; words after a colon or dash are.
    assert_eq!(
        found("__device__ int f(int v) { return __shfl(v, 0); } // warplint: ignore[WL001] --\n"),
        [(1, "WL101")]
    );
    assert!(
        found(
            "__device__ int f(int v) { return __shfl(v, 0); } // warplint: ignore[WL001]: legacy\n"
        )
        .is_empty()
    );
}

#[test]
fn unused_suppressions_are_reported_with_a_safe_fix_that_removes_them() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore[WL001] was legacy once
    return __shfl_sync(0xffffffff, v, 0);
}
";
    let ds = check(src);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!((ds[0].code, ds[0].span.line), ("WL100", 2));
    assert!(
        ds[0].message.contains("no `WL001` diagnostic on line 3"),
        "{}",
        ds[0].message
    );
    let fix = ds[0].fix.as_ref().unwrap();
    assert_eq!(fix.applicability, Applicability::Safe);
    let fixed = apply_fix(src, &ds[0]);
    assert_eq!(
        fixed,
        "__device__ int f(int v) {\n    return __shfl_sync(0xffffffff, v, 0);\n}\n"
    );
    assert!(check(&fixed).is_empty());

    // A trailing comment: the fix keeps the code and drops the comment.
    let src = "int x = 1;   // warplint: ignore[WL001] nothing here\nint y = __shfl_sync(0xffffffff, 1, 0);\n";
    let ds = check(src);
    assert_eq!(ds.len(), 1);
    assert_eq!(
        apply_fix(src, &ds[0]),
        "int x = 1;\nint y = __shfl_sync(0xffffffff, 1, 0);\n"
    );
}

#[test]
fn every_entry_naming_the_rule_that_fired_is_used() {
    let src = "\
__device__ int f(int v) {
    return __shfl(v, 0); // warplint: ignore[WL001, legacy-warp-primitive] old toolkit
}
";
    assert!(found(src).is_empty());
}

#[test]
fn an_unused_ignore_file_says_so() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore-file[WL001] old toolkit
    return v;
}
int g(int v) { return __shfl_sync(0xffffffff, v, 0); }
";
    let ds = check(src);
    assert_eq!(ds.len(), 1);
    assert!(ds[0].message.contains("in this file"), "{}", ds[0].message);
}

#[test]
fn in_a_list_with_other_entries_only_the_unused_code_is_removed() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore[WL999, WL001] reason
    return __shfl_sync(0xffffffff, v, 0);
}
";
    let ds = check(src);
    let codes: Vec<_> = ds.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["WL102", "WL100"], "{ds:#?}");
    let unused = &ds[1];
    assert_eq!(&src[unused.span.start..unused.span.end], "WL001");
    let fixed = apply_fix(src, unused);
    assert!(
        fixed.contains("// warplint: ignore[WL999] reason\n"),
        "{fixed}"
    );
    let after: Vec<_> = check(&fixed).iter().map(|d| d.code).collect();
    assert_eq!(after, ["WL102"]);
}

#[test]
fn invalid_directives_are_reported_and_suppress_nothing() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore[WL01] typo
    int a = __shfl(v, 0);
    // warplint: ignore WL001 forgot the brackets
    int b = __shfl(v, 1);
    // warplint: ignore[WL100] engine codes cannot be suppressed
    int c = __shfl(v, 2);
    // warplint: ignore[] empty
    return a + b + c;
}
";
    assert_eq!(
        found(src),
        [
            (2, "WL102"),
            (3, "WL001"),
            (4, "WL102"),
            (5, "WL001"),
            (6, "WL102"),
            (7, "WL001"),
            (8, "WL102")
        ]
    );
}

#[test]
fn directives_in_strings_do_not_count_and_macro_lines_do() {
    let src = "\
const char *doc = \"// warplint: ignore[WL001] not a comment\";
__device__ int f(int v) { return __shfl(v, 0); }
#define SHFL0(v) __shfl(v, 0) // warplint: ignore[WL001] only used by the CUDA 8 path
";
    assert_eq!(found(src), [(2, "WL001")]);
}

#[test]
fn engine_codes_follow_select_and_ignore() {
    let src = "\
__device__ int f(int v) {
    // warplint: ignore[WL001]
    return __shfl_sync(0xffffffff, v, 0);
}
";
    assert_eq!(found(src), [(2, "WL100"), (2, "WL101")]);
    let opts = Options {
        rules: RuleSet::from_lists(None, &["WL100".into(), "suppression-without-reason".into()])
            .unwrap(),
        ..Options::default()
    };
    assert!(check_with(src, &opts).is_empty());

    // A suppression for a rule that is not running is not "unused".
    let opts = Options {
        rules: RuleSet::from_lists(None, &["WL001".into()]).unwrap(),
        ..Options::default()
    };
    let got: Vec<_> = check_with(src, &opts).iter().map(|d| d.code).collect();
    assert_eq!(got, ["WL101"]);
}

#[test]
fn a_file_without_warp_code_still_has_its_comments_audited() {
    let src = "// warplint: ignore-file[WL001] vendored\nint add(int a, int b) { return a + b; }\n";
    assert_eq!(found(src), [(1, "WL100")]);
    let outcome = check_source(
        "k.cu",
        b"int add(int a, int b) { return a + b; }\n",
        &Options::default(),
    );
    assert!(
        outcome.skipped_by_prefilter,
        "the prefilter still skips plain files"
    );
}

#[test]
fn the_cli_flag_and_the_json_count() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cu"),
        "__device__ int f(int v) {\n    return __shfl(v, 0); // warplint: ignore[WL001] CUDA 8 only\n}\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_warplint"))
            .current_dir(dir.path())
            .args(["check", "--format", "json", "k.cu"])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["stats"]["suppressed"], 1);
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 0);

    let o = run(&["--no-suppressions"]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["stats"]["suppressed"], 0);
    assert_eq!(report["diagnostics"][0]["code"], "WL001");
}

#[test]
fn a_directive_inside_a_target_dispatch_argument_suppresses() {
    // The configured view keeps only the taken arm of `NV_IF_TARGET`; the
    // comment between its arguments is read as written.
    let text = "__global__ void k(const int *src, int *dst) {
    int lane = threadIdx.x % 32;
    int v = src[threadIdx.x];
    if (lane < 8) {
        NV_IF_TARGET(NV_IS_DEVICE,
                     // warplint: ignore[WL002] the caller runs one lane group
                     (v = __shfl_sync(0xffffffff, v, 0);),
                     (v = 0;));
    }
    dst[threadIdx.x] = v;
}
";
    let unsuppressed = text.replace("warplint: ignore[WL002]", "no directive:");
    assert_eq!(found(&unsuppressed), [(7, "WL002")]);
    assert!(found(text).is_empty(), "{:?}", found(text));
}

//! `--fix`, `--unsafe-fixes`, `--diff`, `--add-suppressions` and the
//! ruff-style listing flags, through the binary.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use warplint::engine::{Options, check_source};

fn warplint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warplint"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Every lane of the warp reaches the call: the safe fix is the full mask.
const FULL: &str = "__global__ void k(float *out) {\n    float v = out[threadIdx.x];\n    v += __shfl_down(v, 1);\n    out[threadIdx.x] = v;\n}\n";

/// Only lanes where `lane < 16` reach it: the safe fix is a ballot.
const BRANCH: &str = "__global__ void k(int *out) {\n    int lane = threadIdx.x & 31;\n    int v = out[lane];\n    if (lane < 16) {\n        v += __shfl_xor(v, 1);\n    }\n    out[lane] = v;\n}\n";

#[test]
fn diff_prints_a_unified_diff_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("k.cu");
    std::fs::write(&p, FULL).unwrap();
    let out = warplint(dir.path(), &["check", "--isolated", "--diff", "k.cu"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let diff = String::from_utf8(out.stdout).unwrap();
    assert!(
        diff.starts_with("--- a/k.cu\n+++ b/k.cu\n@@ -1,5 +1,5 @@\n"),
        "{diff}"
    );
    assert!(
        diff.contains(
            "\n-    v += __shfl_down(v, 1);\n+    v += __shfl_down_sync(0xffffffff, v, 1);\n"
        ),
        "{diff}"
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), FULL);
    // A plain check writes nothing either.
    let out = warplint(dir.path(), &["check", "--isolated", "k.cu"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&p).unwrap(), FULL);
    // Nothing to change: exit 0 and no diff.
    let clean = dir.path().join("clean.cu");
    std::fs::write(&clean, "__global__ void c() {}\n").unwrap();
    let out = warplint(dir.path(), &["check", "--isolated", "--diff", "clean.cu"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn fix_writes_atomically_keeps_crlf_and_permissions_and_is_idempotent() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("k.cu");
    let crlf = BRANCH.replace('\n', "\r\n");
    std::fs::write(&p, &crlf).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = warplint(dir.path(), &["check", "--isolated", "--fix", "k.cu"]);
    // Fixed and clean: nothing left to report.
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let fixed = std::fs::read_to_string(&p).unwrap();
    assert_eq!(
        fixed,
        "__global__ void k(int *out) {\r\n    int lane = threadIdx.x & 31;\r\n    int v = out[lane];\r\n    \
         unsigned mask = __ballot_sync(0xffffffff, lane < 16);\r\n    if (lane < 16) {\r\n        \
         v += __shfl_xor_sync(mask, v, 1);\r\n    }\r\n    out[lane] = v;\r\n}\r\n"
    );
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "a temporary file was left behind");
    // Twice changes nothing.
    let again = warplint(dir.path(), &["check", "--isolated", "--fix", "k.cu"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&p).unwrap(), fixed);
}

#[test]
fn unsafe_fixes_need_the_flag() {
    // A helper's callers decide which lanes reach it: the mask is a guess.
    let helper = "__device__ int f(int v) {\n    return __shfl(v, 0);\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("h.cu");
    std::fs::write(&p, helper).unwrap();
    let out = warplint(dir.path(), &["check", "--isolated", "--fix", "h.cu"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&p).unwrap(), helper);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 unsafe fix(es) not applied"));
    let out = warplint(
        dir.path(),
        &["check", "--isolated", "--fix", "--unsafe-fixes", "h.cu"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        std::fs::read_to_string(&p)
            .unwrap()
            .contains("__shfl_sync(0xffffffff, v, 0)")
    );
    let bad = warplint(dir.path(), &["check", "--unsafe-fixes", "h.cu"]);
    assert_eq!(bad.status.code(), Some(2));
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn cuda_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "cuh")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `--fix --unsafe-fixes` on a copy of testdata: every fix offered is
/// applied (the engine offers only fixes that pass the re-lint alone, and
/// those compose: none is refused); the fixed tree has, per file and rule,
/// exactly the findings that had no fix; a second run changes nothing.
/// Both sides are tree runs: a finding in a header takes the verdict of
/// the files that call it there, which the header alone cannot see.
#[test]
fn testdata_fixes_apply_and_the_fixed_tree_lints_clean_for_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root, dir.path());
    let files = cuda_files(dir.path());
    // Per file, the rule of each finding of a tree run and whether it has
    // a fix.
    let tree_findings = || -> BTreeMap<String, Vec<(String, bool)>> {
        let listed = warplint(
            dir.path(),
            &[
                "check",
                "--isolated",
                "--format",
                "json",
                "--exit-zero",
                ".",
            ],
        );
        let report: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        let mut out: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
        for d in report["diagnostics"].as_array().unwrap() {
            let fixed = d["fix"]["edits"].as_array().is_some_and(|e| !e.is_empty());
            out.entry(d["path"].as_str().unwrap().to_owned())
                .or_default()
                .push((d["code"].as_str().unwrap().to_owned(), fixed));
        }
        out
    };
    let before = tree_findings();
    let offered: usize = before.values().flatten().filter(|(_, f)| *f).count();
    let out = warplint(
        dir.path(),
        &[
            "check",
            "--isolated",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            ".",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("fix not applied") && !stderr.contains("fail the re-lint"),
        "a fix the engine offered was refused by --fix:\n{stderr}"
    );
    let after = tree_findings();
    let paths: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for path in paths {
        let mut expected: BTreeMap<&str, usize> = BTreeMap::new();
        for (code, fixed) in before.get(path).into_iter().flatten() {
            if !fixed {
                *expected.entry(code).or_default() += 1;
            }
        }
        let mut now: BTreeMap<&str, usize> = BTreeMap::new();
        for (code, _) in after.get(path).into_iter().flatten() {
            *now.entry(code).or_default() += 1;
        }
        assert_eq!(now, expected, "{path}:\n{stderr}");
    }
    assert!(offered >= 30, "only {offered} testdata findings have a fix");
    assert!(
        stderr.contains(&format!("fixed {offered} finding(s) in ")),
        "{offered} offered:\n{stderr}"
    );
    let snapshot: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let again = warplint(
        dir.path(),
        &["check", "--isolated", "--fix", "--unsafe-fixes", "."],
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("fixed 0 finding(s) in 0 file(s)"));
    let now: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(snapshot == now, "a second --fix changed files");
}

/// Testdata findings whose rule proposes a fix that the re-lint refuses:
/// (file, line, code, why). The ballot of the branch condition is the wrong
/// mask for a shuffle whose source lanes lie outside that ballot (WL006).
const WITHHELD: &[(&str, usize, &str, &str)] = &[
    (
        "uniformity/uniform_loads.cu",
        24,
        "WL002",
        "re-lint: would add WL006 at line 24",
    ),
    (
        "wl002/blocks_2d_partial.cu",
        8,
        "WL002",
        "re-lint: would add WL006 at line 8",
    ),
    (
        "wl002/divergent_full_mask.cu",
        10,
        "WL002",
        "re-lint: would add WL006 at line 10",
    ),
];

/// A fix that fails its re-lint is offered nowhere: not in JSON (which says
/// why), not in SARIF, not as a code action; the finding's other fixes stay.
#[test]
fn fixes_that_fail_the_re_lint_are_withheld_everywhere_with_the_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let files: Vec<&str> = WITHHELD.iter().map(|w| w.0).collect();
    let mut args = vec!["check", "--isolated", "--format", "json"];
    args.extend(&files);
    let json: serde_json::Value = serde_json::from_slice(&warplint(&root, &args).stdout).unwrap();
    let mut withheld = BTreeSet::new();
    let mut offered = 0;
    for d in json["diagnostics"].as_array().unwrap() {
        let key = (
            d["path"].as_str().unwrap().to_owned(),
            d["line"].as_u64().unwrap() as usize,
            d["code"].as_str().unwrap().to_owned(),
        );
        offered += usize::from(d.get("fix").is_some());
        if let Some(why) = d.get("fix_withheld") {
            assert!(d.get("fix").is_none(), "{d}");
            withheld.insert((key, why.as_str().unwrap().to_owned()));
        }
    }
    let want: BTreeSet<_> = WITHHELD
        .iter()
        .map(|(f, l, c, why)| ((f.to_string(), *l, c.to_string()), why.to_string()))
        .collect();
    assert_eq!(withheld, want);
    // `divergent_full_mask.cu`'s two other WL002 fixes pass and stay.
    assert!(offered >= 2, "{json}");

    let mut args = vec!["check", "--isolated", "--format", "sarif"];
    args.extend(&files);
    let sarif: serde_json::Value = serde_json::from_slice(&warplint(&root, &args).stdout).unwrap();
    let mut sarif_withheld = 0;
    for r in sarif["runs"][0]["results"].as_array().unwrap() {
        if let Some(why) = r["properties"].get("fixWithheld") {
            sarif_withheld += 1;
            assert!(r.get("fixes").is_none(), "{r}");
            assert!(why.as_str().unwrap().starts_with("re-lint: "), "{r}");
        }
    }
    assert_eq!(sarif_withheld, WITHHELD.len());

    use lsp_types::{CodeActionOrCommand, Uri};
    use warplint::server::actions::{ActionDoc, code_actions};
    use warplint::server::convert::{DocView, Encoding, LineIndex, to_lsp};
    for (file, line, code, why) in WITHHELD {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let outcome = check_source(file, text.as_bytes(), &Options::default());
        let uri: Uri = format!("file:///{file}").parse().unwrap();
        let index = LineIndex::new(&text);
        let view = DocView {
            uri: &uri,
            text: &text,
            index: &index,
            version: 1,
            encoding: Encoding::Utf16,
            rules_base_url: "https://example.org/",
        };
        let diags: Vec<lsp_types::Diagnostic> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.span.line == *line && d.code == *code)
            .map(|d| to_lsp(d, outcome.source.as_deref(), &view))
            .collect();
        assert_eq!(diags.len(), 1, "{file}:{line}");
        assert_eq!(diags[0].data.as_ref().unwrap()["fix_withheld"], *why);
        let params = serde_json::from_value(serde_json::json!({
            "textDocument": {"uri": uri.as_str()},
            "range": diags[0].range,
            "context": {"diagnostics": diags},
        }))
        .unwrap();
        let doc = ActionDoc {
            uri: &uri,
            text: &text,
            index: &index,
            version: 1,
            document_changes: false,
        };
        let titles: Vec<String> = code_actions(&params, &doc)
            .into_iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => a.title,
                CodeActionOrCommand::Command(c) => c.title,
            })
            .collect();
        // Only the suppression comment is offered.
        assert_eq!(titles.len(), 1, "{file}:{line}: {titles:?}");
        assert!(titles[0].starts_with("Suppress "), "{titles:?}");
    }
}

/// `testdata/wl001/legacy_reductions.cu` checked with default options and
/// with `cap` applied: how many fixes each offers, and the reasons the
/// capped run gives for those it withholds.
fn fixes_capped_by(cap: impl FnOnce(&mut Options)) -> (usize, usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let file = "wl001/legacy_reductions.cu";
    let text = std::fs::read(root.join(file)).unwrap();
    let mut opts = Options::default();
    let offered =
        |d: &[warplint::diagnostic::Diagnostic]| d.iter().filter(|d| d.fix.is_some()).count();
    let all = offered(&check_source(file, &text, &opts).diagnostics);
    cap(&mut opts);
    let capped = check_source(file, &text, &opts).diagnostics;
    let withheld = capped
        .iter()
        .filter_map(|d| d.fix_withheld.clone())
        .collect();
    (all, offered(&capped), withheld)
}

/// Past the file's budget of re-lints, a finding offers no fix and says so.
#[test]
fn fixes_past_the_re_lint_budget_are_withheld() {
    let (all, offered, withheld) = fixes_capped_by(|o| o.budgets.max_fix_relints = 2);
    assert!(all >= 3, "{all}");
    assert_eq!(offered, 2);
    assert_eq!(withheld.len(), all - 2);
    assert!(
        withheld
            .iter()
            .all(|w| w == "not verified: past the budget of 2 fix re-lints per file"),
        "{withheld:?}"
    );
}

/// Past the file's budget of executor steps spent again on re-lints, a
/// finding offers no fix and says so; the first fix is always verified.
#[test]
fn fixes_past_the_re_lint_step_budget_are_withheld() {
    // Less than one re-lint's executor work: only the first runs.
    let (all, offered, withheld) = fixes_capped_by(|o| o.budgets.max_fix_relint_steps = 1);
    assert!(all >= 3, "{all}");
    assert_eq!(offered, 1);
    assert_eq!(withheld.len(), all - 1);
    assert!(
        withheld.iter().all(|w| w
            == "not verified: past the budget of 1 executor steps run again to verify \
                this file's fixes"),
        "{withheld:?}"
    );
}

/// A speculative candidate no run confirmed shows no problem: its fix is
/// withheld without a re-lint (which would only propose it again).
#[test]
fn speculative_candidates_offer_no_fix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let file = "hardware/register_then_syncwarp_reduction.cu";
    let text = std::fs::read(root.join(file)).unwrap();
    let opts = Options {
        min_confidence: warplint::diagnostic::MinConfidence::All,
        ..Options::default()
    };
    let speculative: Vec<_> = check_source(file, &text, &opts)
        .diagnostics
        .into_iter()
        .filter(|d| d.confirmation.evidence == Some(warplint::diagnostic::Evidence::Speculative))
        .collect();
    assert!(!speculative.is_empty());
    for d in &speculative {
        assert!(d.fix.is_none(), "{d:#?}");
        assert!(
            d.fix_withheld
                .as_deref()
                .is_some_and(|w| w.contains("speculative candidate")),
            "{d:#?}"
        );
    }
}

/// A shuffle under a data guard whose xor partner may skip the branch:
/// no ballot of the branch is a right mask (its re-lint adds WL006), so
/// the fix offered runs the shuffle before the `if` and reads its value
/// inside; the fixed text lints clean.
const DATA_GUARD: &str = "__global__ void k(const float *in, float *out, float thr) {
    float v = in[threadIdx.x];
    float s = 0.0f;
    if (v > thr) {
        s = v + __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[threadIdx.x] = s;
}
void run(const float *in, float *out) { k<<<1, 64>>>(in, out, 0.5f); }
";

#[test]
fn a_shuffle_no_ballot_fixes_is_moved_before_its_branch() {
    let d = check_source("k.cu", DATA_GUARD.as_bytes(), &Options::default()).diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    let fix = d[0].fix.as_ref().expect("a verified fix");
    assert_eq!(
        fix.applicability,
        warplint::diagnostic::Applicability::Unsafe
    );
    assert!(
        fix.message.contains("before the `if` on line 4"),
        "{}",
        fix.message
    );
    let fixed = warplint::diagnostic::apply_edits(DATA_GUARD, &fix.edits).unwrap();
    assert!(
        fixed.contains(
            "    auto shfl_5 = __shfl_xor_sync(0xffffffff, v, 1);\n    if (v > thr) {\n        s = v + shfl_5;\n"
        ),
        "{fixed}"
    );
    assert!(
        check_source("k.cu", fixed.as_bytes(), &Options::default())
            .diagnostics
            .is_empty()
    );
}

#[test]
fn a_shuffle_is_not_moved_where_its_operands_differ_before_the_branch() {
    // Each body changes what the shuffle reads between the `if` and the
    // call, or reads memory that lanes skipping the branch must not touch:
    // no fix is offered (the ballot fix fails its re-lint as above).
    let bodies = [
        "v = v * 2.0f; s = v + __shfl_xor_sync(0xffffffff, v, 1);",
        "float w = v + 1.0f; s = __shfl_xor_sync(0xffffffff, w, 1);",
        "s = __shfl_xor_sync(0xffffffff, in[threadIdx.x + 1], 1);",
        "for (int d = 1; d < 32; d *= 2) s += __shfl_xor_sync(0xffffffff, v, d);",
    ];
    for body in bodies {
        let src = DATA_GUARD.replace("s = v + __shfl_xor_sync(0xffffffff, v, 1);", body);
        let d = check_source("k.cu", src.as_bytes(), &Options::default()).diagnostics;
        let wl002: Vec<_> = d.iter().filter(|d| d.code == "WL002").collect();
        assert_eq!(wl002.len(), 1, "{body}: {d:#?}");
        assert!(wl002[0].fix.is_none(), "{body}: {:#?}", wl002[0]);
    }
}

#[test]
fn a_fix_that_turns_its_finding_refuted_is_verified_with_show_refuted() {
    // The ballot fix of `BRANCH` leaves the call with a mask the executor
    // proves right: the re-lint reports it refuted, which `--show-refuted`
    // shows. A refuted finding is no problem left, so the fix is offered
    // at that level too (it was withheld: "WL002 would remain").
    let src = BRANCH.replace("__shfl_xor(v, 1)", "__shfl_xor_sync(0xffffffff, v, 1)");
    let src = format!("{src}void run(int *o) {{ k<<<1, 32>>>(o); }}\n");
    for show_refuted in [false, true] {
        let opts = Options {
            show_refuted,
            ..Options::default()
        };
        let d = check_source("k.cu", src.as_bytes(), &opts).diagnostics;
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(
            d[0].fix.is_some(),
            "show_refuted {show_refuted}: {:#?}",
            d[0]
        );
    }
}

#[test]
fn add_suppressions_covers_every_finding_once() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("k.cu");
    let text = "__global__ void k(int *out) {\n    int lane = threadIdx.x & 31;\n    if (lane < 16) {\n        // warplint: ignore[WL001] old code\n        out[0] = __shfl_sync(0xffffffff, lane, 0) + __shfl(lane, 1);\n    }\n    out[1] = __shfl(lane, 0);\n}\n";
    std::fs::write(&p, text).unwrap();
    let out = warplint(
        dir.path(),
        &[
            "check",
            "--isolated",
            "--add-suppressions",
            "port pending",
            "k.cu",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let got = std::fs::read_to_string(&p).unwrap();
    assert!(
        got.contains("        // warplint: ignore[WL002, WL001] old code\n        out[0]"),
        "{got}"
    );
    assert!(
        got.contains("    // warplint: ignore[WL001] port pending\n    out[1] = __shfl(lane, 0);"),
        "{got}"
    );
    let again = warplint(
        dir.path(),
        &[
            "check",
            "--isolated",
            "--add-suppressions",
            "port pending",
            "k.cu",
        ],
    );
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&p).unwrap(), got);
}

#[test]
fn statistics_show_files_show_settings_and_output_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.cu"), FULL).unwrap();
    std::fs::write(dir.path().join("b.cu"), BRANCH).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
    let out = warplint(dir.path(), &["check", "--isolated", "--statistics", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "    2\tWL001\t[*] legacy-warp-primitive\n"
    );
    let out = warplint(dir.path(), &["check", "--isolated", "--show-files", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a.cu\nb.cu\n");
    std::fs::write(dir.path().join("warplint.toml"), "block-dim = [64]\n").unwrap();
    let out = warplint(dir.path(), &["check", "--show-settings", "b.cu"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("warplint.toml"), "{s}");
    assert!(s.contains("block-dim              = 64, 1, 1"), "{s}");
    // Limits under their config keys, aligned among themselves.
    let limits: Vec<&str> = s
        .lines()
        .filter(|l| l.starts_with("executor.") || l.starts_with("parser."))
        .collect();
    assert_eq!(limits.len(), warplint::config::LIMITS.len(), "{s}");
    let column = |l: &str| l.find(" = ").unwrap();
    assert!(limits.iter().all(|l| column(l) == column(limits[0])), "{s}");
    for (key, value) in [
        ("executor.max-steps", "200000"),
        ("parser.max-operations", "1500000"),
    ] {
        assert!(
            limits
                .iter()
                .any(|l| l.starts_with(key) && l.ends_with(&format!(" = {value}"))),
            "{s}"
        );
    }
    let a = warplint(
        dir.path(),
        &["check", "--isolated", "--output-format", "json", "a.cu"],
    );
    let b = warplint(
        dir.path(),
        &["check", "--isolated", "--format", "json", "a.cu"],
    );
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stdout.starts_with(b"{"));
}

/// `testdata/hardware/fixed_results.toml` records what the fixed hardware
/// cases did on a GPU. It must describe the fixes warplint writes today
/// (same cases, same fixed text by hash), and every recorded run must show
/// no symptom.
#[test]
fn hardware_record_of_fixed_cases_matches_todays_fixes() {
    use sha2::{Digest, Sha256};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let record: toml::Table =
        std::fs::read_to_string(root.join("testdata/hardware/fixed_results.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let mut recorded: BTreeMap<String, String> = BTreeMap::new();
    for case in record["case"].as_array().unwrap() {
        let file = case["file"].as_str().unwrap().to_owned();
        for (key, want) in [
            ("compile", "ok"),
            ("native", "ok"),
            ("synccheck", "clean"),
            ("racecheck", "clean"),
            ("memcheck", "clean"),
        ] {
            assert_eq!(case[key].as_str(), Some(want), "{file}: {key}");
        }
        recorded.insert(file, case["fixed_sha256"].as_str().unwrap().to_owned());
    }
    let opts = Options::default();
    let mut today: BTreeMap<String, String> = BTreeMap::new();
    for path in cuda_files(&root.join("testdata/hardware")) {
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let outcome = check_source(&rel, text.as_bytes(), &opts);
        let Some(fixed) = warplint::fix::fix_text(&rel, &text, &outcome, &opts, true) else {
            continue;
        };
        if fixed.changed() {
            let hash = Sha256::digest(fixed.fixed.as_bytes());
            let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
            today.insert(rel, hex);
        }
    }
    assert!(recorded.len() >= 5, "too few fixed cases recorded");
    assert_eq!(
        today, recorded,
        "the fixes differ from those run on the GPU: run the fixed cases on a GPU again"
    );
}

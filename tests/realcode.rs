//! The real-code loop: lint the four corpora fetched by
//! `benches/fetch_corpora.py` (cuda-cccl, CuPy, CUTLASS, FlashInfer) and
//! compare every finding with its judgement in `testdata/realcode/judged.toml`.
//!
//! It fails when
//! - a finding appears that the file does not judge (judge it and add it: the
//!   failure prints a TOML stub to paste);
//! - a finding judged `false` is reported again (entries with
//!   `pending = true` are known false positives the tool still reports:
//!   they are counted, not failed; when one goes away the test says so, and
//!   deleting its `pending` line makes the test guard it from then on);
//! - a finding judged `true` is no longer reported (entries with
//!   `lost = "why"` are real bugs a deliberate change stopped reporting at
//!   the default level, the reason saying what the tool cannot see: they
//!   are counted and printed, not failed, and when one is reported again
//!   the test says so);
//! - a corpus takes longer than `WARPLINT_REALCODE_TIMEOUT_S` (default 600 s).
//!
//! A `debatable` finding that disappears is printed, not failed. Findings
//! are matched on (corpus, path inside the corpus, line, code), never on
//! message text. The test prints precision per rule, true / (true + false),
//! with the debatable ones counted apart.
//!
//! Environment:
//! - `WARPLINT_REALCODE_CORPORA=cccl,cupy` checks only those corpora;
//!   entries of the others are left alone. The default is cccl, CuPy and
//!   CUTLASS: FlashInfer's 3,300 files take about 2 minutes in a release
//!   build (far more in the debug build `cargo test` makes), and its 1,284
//!   findings of this round are not judged yet; check it with
//!   `WARPLINT_REALCODE_CORPORA=flashinfer cargo test --release --test realcode`.
//! - The held-out corpora (`llamacpp`, `deepspeed`, `flashattn`,
//!   `xformers`, `vllm`: source distributions of other projects, judged
//!   once in `judged-heldout*.toml` to measure precision on code the tool
//!   was not tuned on) are opt-in too: fetch them with `python3
//!   benches/fetch_corpora.py --only llamacpp,deepspeed,flashattn,xformers,vllm`
//!   and name them in `WARPLINT_REALCODE_CORPORA`.
//! - `WARPLINT_REQUIRE_CORPORA=1` (set by `.ci/run`) fails when a corpus is
//!   missing; otherwise a missing corpus is SKIPPED, loudly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use warplint::engine::{self, Options};

const CORPORA: [&str; 9] = [
    "cccl",
    "cupy",
    "cutlass",
    "flashinfer",
    // Held-out source distributions (`judged-heldout.toml`), opt-in.
    "llamacpp",
    "deepspeed",
    "flashattn",
    "xformers",
    "vllm",
];
/// What a plain `cargo test` checks (see the module docs for FlashInfer).
const DEFAULT_CORPORA: [&str; 3] = ["cccl", "cupy", "cutlass"];
const VERDICTS: [&str; 3] = ["true", "false", "debatable"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Judged {
    #[serde(default)]
    finding: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    corpus: String,
    path: String,
    line: usize,
    code: String,
    verdict: String,
    reason: String,
    /// A false positive the tool still reports (see the module comment).
    #[serde(default)]
    pending: bool,
    /// A real bug the tool no longer reports by default, and why.
    #[serde(default)]
    lost: Option<String>,
}

/// (path inside the corpus, line, code) → the message of the first finding.
type Findings = BTreeMap<(String, usize, String), String>;

/// [`lint`] on a thread, given up after `WARPLINT_REALCODE_TIMEOUT_S`: a
/// pathological file fails this test instead of hanging `cargo test` (the
/// thread is abandoned; the process ends when the harness does).
fn lint_with_deadline(dir: &Path) -> Result<Findings, String> {
    let limit = std::env::var("WARPLINT_REALCODE_TIMEOUT_S")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600u64);
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = dir.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(lint(&owned));
    });
    rx.recv_timeout(std::time::Duration::from_secs(limit))
        .map_err(|_| {
            format!(
                "{} did not finish in {limit} s (WARPLINT_REALCODE_TIMEOUT_S); \
                 find the slow files with `cargo bench --bench corpus`",
                dir.display()
            )
        })
}

/// What a finding is matched on: robust to message and column changes.
type Key = (String, String, usize, String);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `judged.toml` and every `judged-*.toml` beside it (one per batch of
/// judgements, so that parallel work does not edit one file), in name order.
fn judged_files() -> Vec<PathBuf> {
    let dir = root().join("testdata/realcode");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read testdata/realcode")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("judged") && name.ends_with(".toml")
        })
        .collect();
    files.sort();
    files
}

fn load_judged() -> BTreeMap<Key, Entry> {
    let mut out = BTreeMap::new();
    for path in judged_files() {
        let text = std::fs::read_to_string(&path).expect("read a judged file");
        let judged: Judged =
            toml::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()));
        load_entries(judged, &mut out);
    }
    out
}

fn load_entries(judged: Judged, out: &mut BTreeMap<Key, Entry>) {
    for e in judged.finding {
        assert!(
            CORPORA.contains(&e.corpus.as_str()),
            "judged.toml: unknown corpus {:?} ({}:{})",
            e.corpus,
            e.path,
            e.line
        );
        assert!(
            VERDICTS.contains(&e.verdict.as_str()),
            "judged.toml: verdict must be true, false or debatable, not {:?} ({}:{})",
            e.verdict,
            e.path,
            e.line
        );
        assert!(
            !e.reason.trim().is_empty(),
            "judged.toml: {}:{} {} has no reason",
            e.path,
            e.line,
            e.code
        );
        assert!(
            !e.pending || e.verdict == "false",
            "judged.toml: {}:{} {}: only a false finding can be pending",
            e.path,
            e.line,
            e.code
        );
        assert!(
            e.lost
                .as_deref()
                .is_none_or(|w| e.verdict == "true" && !w.trim().is_empty()),
            "judged.toml: {}:{} {}: only a true finding can be lost, and it says why",
            e.path,
            e.line,
            e.code
        );
        let key = (e.corpus.clone(), e.path.clone(), e.line, e.code.clone());
        assert!(
            !out.contains_key(&key),
            "judged.toml: {key:?} is judged twice"
        );
        out.insert(key, e);
    }
}

/// The corpora to check: `WARPLINT_REALCODE_CORPORA`, or [`DEFAULT_CORPORA`].
fn selected() -> Vec<String> {
    match std::env::var("WARPLINT_REALCODE_CORPORA") {
        Ok(list) if !list.trim().is_empty() => list
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .inspect(|s| {
                assert!(
                    CORPORA.contains(&s.as_str()),
                    "WARPLINT_REALCODE_CORPORA: unknown corpus {s:?} (known: {CORPORA:?})"
                )
            })
            .collect(),
        _ => DEFAULT_CORPORA.iter().map(|s| s.to_string()).collect(),
    }
}

/// Every finding on one corpus, as the default CLI reports them (refuted
/// findings dropped, unverified ones kept as warnings), keyed by path
/// inside the corpus, with the message of the first one at each key.
fn lint(dir: &Path) -> Findings {
    let opts = Options {
        threads: Some(2),
        ..Options::default()
    };
    let run = engine::check_paths(&[dir.to_path_buf()], &opts);
    let prefix = format!("{}/", dir.display());
    let mut out = BTreeMap::new();
    for d in run.diagnostics() {
        let path = d.path.strip_prefix(&prefix).unwrap_or(&d.path).to_owned();
        out.entry((path, d.span.line, d.code.to_owned()))
            .or_insert_with(|| d.message.clone());
    }
    out
}

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

#[derive(Default)]
struct Counts {
    true_: usize,
    false_: usize,
    debatable: usize,
}

#[test]
fn real_code_findings_match_their_judgements() {
    let judged = load_judged();
    let require = std::env::var("WARPLINT_REQUIRE_CORPORA").is_ok_and(|v| v == "1");
    let cache = root().join(".bench-cache");
    let mut failures: Vec<String> = Vec::new();
    let mut stubs = String::new();
    let mut stale_debatable: Vec<String> = Vec::new();
    let mut fixed_pending: Vec<String> = Vec::new();
    let mut lost: Vec<String> = Vec::new();
    let mut found_again: Vec<String> = Vec::new();
    let mut per_rule: BTreeMap<String, Counts> = BTreeMap::new();
    let mut skipped = Vec::new();

    for corpus in selected() {
        let dir = cache.join(&corpus);
        if !dir.join(".complete").exists() {
            skipped.push(corpus);
            continue;
        }
        let started = std::time::Instant::now();
        let found = match lint_with_deadline(&dir) {
            Ok(found) => found,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        eprintln!(
            "realcode: {corpus}: {} finding location(s) in {:.1} s",
            found.len(),
            started.elapsed().as_secs_f64()
        );
        let mut seen: BTreeSet<Key> = BTreeSet::new();
        for ((path, line, code), message) in &found {
            let key = (corpus.clone(), path.clone(), *line, code.clone());
            seen.insert(key.clone());
            let Some(entry) = judged.get(&key) else {
                failures.push(format!(
                    "unjudged finding {corpus}:{path}:{line} {code} ({message}): \
                     read the code, judge it and add it to testdata/realcode/judged.toml"
                ));
                stubs.push_str(&format!(
                    "\n[[finding]]\ncorpus = {}\npath = {}\nline = {line}\ncode = {}\n\
                     verdict = \"true|false|debatable\"\nreason = \"\"  # {}\n",
                    toml_string(&corpus),
                    toml_string(path),
                    toml_string(code),
                    message.replace('\n', " ")
                ));
                continue;
            };
            if entry.lost.is_some() {
                found_again.push(format!("{corpus}:{path}:{line} {code}"));
            }
            let counts = per_rule.entry(code.clone()).or_default();
            match entry.verdict.as_str() {
                "true" => counts.true_ += 1,
                "debatable" => counts.debatable += 1,
                _ if entry.pending => counts.false_ += 1,
                _ => {
                    counts.false_ += 1;
                    failures.push(format!(
                        "finding judged false is reported again: {corpus}:{path}:{line} {code} \
                         (judged: {})",
                        entry.reason
                    ));
                }
            }
        }
        for (key, entry) in judged.range(
            (corpus.clone(), String::new(), 0, String::new())
                ..(format!("{corpus}\u{0}"), String::new(), 0, String::new()),
        ) {
            if seen.contains(key) {
                continue;
            }
            let (_, path, line, code) = key;
            match entry.verdict.as_str() {
                "true" if entry.lost.is_some() => lost.push(format!(
                    "{corpus}:{path}:{line} {code} ({})",
                    entry.lost.as_deref().unwrap_or_default()
                )),
                "true" => failures.push(format!(
                    "a real bug is no longer reported: {corpus}:{path}:{line} {code} ({})",
                    entry.reason
                )),
                "debatable" => stale_debatable.push(format!("{corpus}:{path}:{line} {code}")),
                // A known false positive that went away: from now on the
                // entry should guard it.
                _ if entry.pending => fixed_pending.push(format!("{corpus}:{path}:{line} {code}")),
                _ => {}
            }
        }
    }

    if !skipped.is_empty() {
        let msg = format!(
            "realcode: corpora missing: {} (run `python3 benches/fetch_corpora.py`)",
            skipped.join(", ")
        );
        if require {
            failures.push(format!("{msg}; WARPLINT_REQUIRE_CORPORA=1 requires them"));
        } else {
            eprintln!("\n!!!!!!!! SKIPPED !!!!!!!!\n{msg}\n!!!!!!!!!!!!!!!!!!!!!!!!!\n");
        }
    }

    eprintln!("realcode: precision per rule, true / (true + false), debatable apart:");
    for (code, c) in &per_rule {
        let decided = c.true_ + c.false_;
        let precision = if decided == 0 {
            "n/a".to_owned()
        } else {
            format!("{:.2}", c.true_ as f64 / decided as f64)
        };
        eprintln!(
            "  {code}: precision {precision}  (true {}, false {}, debatable {})",
            c.true_, c.false_, c.debatable
        );
    }
    for s in &stale_debatable {
        eprintln!("realcode: judged finding no longer reported (not a failure): {s}");
    }
    for s in &lost {
        eprintln!("realcode: real bug not reported by default (known loss): {s}");
    }
    for s in &found_again {
        eprintln!(
            "realcode: a known loss is reported again: {s}: delete its `lost` line in \
             testdata/realcode/judged*.toml so it stays guarded"
        );
    }
    for s in &fixed_pending {
        eprintln!(
            "realcode: known false positive no longer reported: {s}: delete its \
             `pending = true` line in testdata/realcode/judged*.toml so it stays fixed"
        );
    }
    if !stubs.is_empty() {
        eprintln!("realcode: judge these and add them to testdata/realcode/judged.toml:{stubs}");
    }
    assert!(
        failures.is_empty(),
        "{} real-code mismatch(es):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

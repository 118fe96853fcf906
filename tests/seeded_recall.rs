//! Recall on real code: plant a known warp bug at real sites of the corpora
//! (fetched by `benches/fetch_corpora.py`) and check that the default report
//! finds it at that line.
//!
//! Precision is measured by judging what warplint reports
//! (`tests/realcode.rs`); recall needs bugs whose place is known. Each site
//! is a real statement in a real function, so a seed is found only if the
//! function parses, is analysed (headers, macros, class templates, HIP and
//! `#if` branches as the configuration takes them) and the rule reaches it:
//!
//! - `barrier`: a statement `__syncthreads();` alone on its line becomes
//!   `if (threadIdx.x % 2 == 0) { __syncthreads(); }`. Odd lanes of every
//!   warp skip a barrier the even lanes wait at: WL007.
//! - `barrier-loop`: the same barrier inside
//!   `for (int seeded_i = threadIdx.x % 2; seeded_i < 1; ++seeded_i)`: the
//!   lanes diverge by a loop's trip count, not a branch. WL007.
//! - `full-mask`, `full-mask-loop`: an assignment whose right side calls a
//!   `_sync` warp primitive with a literal full mask (`0xffffffff`,
//!   `uint32_t(-1)`, …), alone on its line, wrapped the same two ways: the
//!   mask names lanes that never arrive, WL002.
//! - `narrow-mask`: such a shuffle with its full mask narrowed to
//!   `0x0000ffff`: lanes 16-31, which the full mask says all call it, call
//!   it outside their mask, WL006.
//! - `ptx-full-mask`: an `asm` statement alone on its line whose template
//!   holds a PTX warp collective (`shfl.sync`, `redux.sync`, `vote.sync`,
//!   `match.*.sync`, `elect.sync`, `bar.warp.sync`) and whose text holds a
//!   literal full mask, wrapped in the same lane guard: WL002.
//!
//! The edit keeps every line where it was. A site counts only where the
//! file alone, in warplint's preprocessor configuration, compiles it (a
//! seed under `#if __HIP_PLATFORM_AMD__` or `#if 0` is no bug of the CUDA
//! build, and missing it is right). Each mutant is checked as a file of its
//! corpus ([`engine::Workspace`]: the corpus's include resolution and launch
//! contracts); it is found where the default level (`--min-confidence
//! likely`) shows it, and a miss says what the analysis made of it at
//! `--min-confidence all`.
//!
//! Sites are sampled deterministically (the ones whose path and line hash
//! lowest), `WARPLINT_SEEDED_PER_KIND` per corpus and kind (default 15 in a
//! debug build, 150 in a release build). The misses warplint is known to
//! have are recorded with their cause in `testdata/realcode/seeded.toml`;
//! the test fails when a site is missed that the file does not record (a
//! regression, or a new sample: read it and record the cause), and prints
//! recorded misses that are now found (delete their entries). It prints
//! recall per corpus and kind. A seed in a file past a budget (a generated
//! file of megabytes, reported as not analysed, or a seed after the line a
//! file is analysed up to) is a miss counted apart, not a failure.
//!
//! Environment: `WARPLINT_SEEDED_CORPORA=cccl,cupy` (default cccl, CuPy,
//! CUTLASS; FlashInfer is opt-in, like `tests/realcode.rs`);
//! `WARPLINT_REQUIRE_CORPORA=1` fails when a corpus is missing;
//! `WARPLINT_SEEDED_PARSE_OPERATIONS=N` runs with that parse budget.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use warplint::diagnostic::{MinConfidence, Status};
use warplint::engine::{self, Options};
use warplint::frontend::{MacroEnv, PpConfig, configure};

const CORPORA: [&str; 4] = ["cccl", "cupy", "cutlass", "flashinfer"];
const DEFAULT_CORPORA: [&str; 3] = ["cccl", "cupy", "cutlass"];
const EXTENSIONS: [&str; 6] = ["cu", "cuh", "h", "hpp", "inl", "cpp"];
/// The guard every seed adds: true for even lanes, false for odd ones, in
/// every block shape with an x extent above 1.
const LANE_GUARD: &str = "if (threadIdx.x % 2 == 0)";
/// The narrowed-mask seed's mask: lanes 16-31 call a shuffle whose mask
/// leaves them out.
const NARROW_MASK: &str = "0x0000ffffu";
/// The loop seeds' guard: even threads run the body once, odd ones never.
const LANE_LOOP: &str = "for (int seeded_i = threadIdx.x % 2; seeded_i < 1; ++seeded_i)";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Barrier,
    FullMask,
    BarrierLoop,
    FullMaskLoop,
    NarrowMask,
    PtxFullMask,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Barrier => "barrier",
            Kind::FullMask => "full-mask",
            Kind::BarrierLoop => "barrier-loop",
            Kind::FullMaskLoop => "full-mask-loop",
            Kind::NarrowMask => "narrow-mask",
            Kind::PtxFullMask => "ptx-full-mask",
        }
    }
    fn code(self) -> &'static str {
        match self {
            Kind::Barrier | Kind::BarrierLoop => "WL007",
            Kind::FullMask | Kind::FullMaskLoop | Kind::PtxFullMask => "WL002",
            Kind::NarrowMask => "WL006",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    #[serde(default)]
    miss: Vec<Miss>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Miss {
    corpus: String,
    path: String,
    line: usize,
    kind: String,
    cause: String,
}

/// (corpus, path inside the corpus, line, kind name).
type Key = (String, String, usize, String);

struct Site {
    path: PathBuf,
    rel: String,
    line: usize,
    kind: Kind,
    /// The site's line with the seed planted.
    seeded: String,
}

impl Site {
    /// The file's text with the seed planted (built when checked: the
    /// sites of a corpus are many, and their files large).
    fn mutated(&self) -> Option<String> {
        let text = std::fs::read_to_string(&self.path).ok()?;
        Some(
            text.split_inclusive('\n')
                .enumerate()
                .map(|(i, l)| {
                    if i + 1 == self.line {
                        let ending = &l[l.trim_end_matches(['\n', '\r']).len()..];
                        format!("{}{ending}", self.seeded)
                    } else {
                        l.to_owned()
                    }
                })
                .collect(),
        )
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn selected() -> Vec<String> {
    match std::env::var("WARPLINT_SEEDED_CORPORA") {
        Ok(list) if !list.trim().is_empty() => list
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .inspect(|s| assert!(CORPORA.contains(&s.as_str()), "unknown corpus {s:?}"))
            .collect(),
        _ => DEFAULT_CORPORA.iter().map(|s| s.to_string()).collect(),
    }
}

fn per_kind() -> usize {
    std::env::var("WARPLINT_SEEDED_PER_KIND")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 15 } else { 150 })
}

/// `WARPLINT_SEEDED_PARSE_OPERATIONS`: a parse budget other than the
/// default (as `[parser] max-operations` sets it).
fn parse_operations() -> Option<u64> {
    std::env::var("WARPLINT_SEEDED_PARSE_OPERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// FNV-1a: a stable order for sampling that does not depend on the
/// standard library's hasher.
fn fnv(text: &str, line: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes().chain(line.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            out.push(p);
        }
    }
}

/// Lines of `text` that are code: not inside a block comment, not a macro
/// body's continuation, not a preprocessor line.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        let was_continued = continued;
        continued = line.trim_end().ends_with('\\');
        let starts_in_block = in_block;
        // Track `/* … */` (string literals holding them are rare enough on
        // statement lines for a sampler).
        let mut rest = line;
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(k) => {
                        in_block = false;
                        rest = &rest[k + 2..];
                    }
                    None => break,
                }
            } else {
                let cut = rest.find("//").unwrap_or(rest.len());
                match rest[..cut].find("/*") {
                    Some(k) => {
                        in_block = true;
                        rest = &rest[k + 2..];
                    }
                    None => break,
                }
            }
        }
        if starts_in_block || in_block || was_continued || continued {
            continue;
        }
        if line.trim_start().starts_with('#') {
            continue;
        }
        out.push((i + 1, line));
    }
    out
}

/// The statement of a line, without a trailing `//` comment.
fn statement(line: &str) -> &str {
    let code = match line.find("//") {
        Some(k) => &line[..k],
        None => line,
    };
    code.trim()
}

const FULL_MASKS: [&str; 10] = [
    "0xffffffff",
    "0xFFFFFFFF",
    "0xffffffffu",
    "0xFFFFFFFFu",
    "0xffffffffU",
    "0xFFFFFFFFU",
    "uint32_t(-1)",
    "(uint32_t)-1",
    "(unsigned)-1",
    "~0u",
];

/// `lhs op= …prim_sync(FULL, …);` where `lhs` is a variable, an element or
/// a member (not a declaration, which the wrapping block would scope): the
/// full mask's byte range in `stmt`, and whether the primitive is a shuffle.
fn full_mask_assignment(stmt: &str) -> Option<(std::ops::Range<usize>, bool)> {
    if !stmt.ends_with(';') || stmt.matches(';').count() != 1 {
        return None;
    }
    let eq = stmt.find('=')?;
    let (lhs, rhs) = stmt.split_at(eq);
    if rhs.starts_with("==") {
        return None;
    }
    let lhs = lhs.trim_end_matches(['+', '-', '*', '|', '&', '^']).trim();
    // One identifier, then only subscripts, calls or member accesses.
    let mut chars = lhs.chars().peekable();
    if !chars
        .peek()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == '_')
    {
        return None;
    }
    let mut depth = 0i32;
    let mut seen_space_at_top = false;
    for c in lhs.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ' ' | '\t' if depth == 0 => seen_space_at_top = true,
            c if depth == 0 && seen_space_at_top && (c.is_ascii_alphanumeric() || c == '_') => {
                return None; // `float x`: a declaration
            }
            _ => {}
        }
    }
    if depth != 0 || lhs.contains("::") && !lhs.contains('.') && !lhs.contains('[') {
        return None;
    }
    let prims = [
        "__shfl_sync(",
        "__shfl_xor_sync(",
        "__shfl_down_sync(",
        "__shfl_up_sync(",
        "__ballot_sync(",
        "__any_sync(",
        "__all_sync(",
    ];
    // The mask literal's place in `stmt`, and whether the call is a shuffle.
    prims.iter().find_map(|p| {
        let k = rhs.find(p)?;
        let after = eq + k + p.len();
        let args = &stmt[after..];
        let skip = args.len() - args.trim_start().len();
        let mask = FULL_MASKS.iter().find(|m| {
            args[skip..].starts_with(*m) && args[skip + m.len()..].trim_start().starts_with(',')
        })?;
        Some((
            after + skip..after + skip + mask.len(),
            p.starts_with("__shfl"),
        ))
    })
}

/// PTX opcodes of warp collectives, as a template writes them.
const PTX_COLLECTIVES: [&str; 7] = [
    "shfl.sync.",
    "redux.sync.",
    "vote.sync.",
    "match.any.sync",
    "match.all.sync",
    "elect.sync",
    "bar.warp.sync",
];

/// `asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : …);`: a whole
/// `asm` statement on one line, one of whose instructions is a warp
/// collective not behind a predicate guard, with a literal full mask.
fn ptx_full_mask_statement(stmt: &str) -> bool {
    let head = stmt.split(['(', ' ']).next().unwrap_or("");
    matches!(head, "asm" | "__asm__" | "__asm")
        && stmt.ends_with(");")
        && PTX_COLLECTIVES.iter().any(|op| {
            stmt.match_indices(op).any(|(k, _)| {
                let before = stmt[..k].trim_end_matches([' ', '{', '\\', 't', 'n', '"']);
                !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '%')
            })
        })
        && FULL_MASKS[..6].iter().any(|m| stmt.contains(m))
}

fn sites_of(path: &Path, rel: &str, text: &str) -> Vec<Site> {
    let mut out = Vec::new();
    for (line_no, line) in code_lines(text) {
        let stmt = statement(line);
        let start = line.find(stmt).expect("the statement is on its line");
        let (before, after) = (&line[..start], &line[start + stmt.len()..]);
        let mut seeds: Vec<(Kind, String)> = Vec::new();
        if stmt == "__syncthreads();" {
            seeds.push((Kind::Barrier, format!("{LANE_GUARD} {{ {stmt} }}")));
            seeds.push((Kind::BarrierLoop, format!("{LANE_LOOP} {{ {stmt} }}")));
        } else if let Some((mask, shuffle)) = full_mask_assignment(stmt) {
            seeds.push((Kind::FullMask, format!("{LANE_GUARD} {{ {stmt} }}")));
            seeds.push((Kind::FullMaskLoop, format!("{LANE_LOOP} {{ {stmt} }}")));
            if shuffle {
                let narrowed = format!("{}{NARROW_MASK}{}", &stmt[..mask.start], &stmt[mask.end..]);
                seeds.push((Kind::NarrowMask, narrowed));
            }
        } else if ptx_full_mask_statement(stmt) {
            seeds.push((Kind::PtxFullMask, format!("{LANE_GUARD} {{ {stmt} }}")));
        }
        for (kind, seeded) in seeds {
            out.push(Site {
                path: path.to_path_buf(),
                rel: rel.to_owned(),
                line: line_no,
                kind,
                seeded: format!("{before}{seeded}{after}"),
            });
        }
    }
    out
}

/// The lines the file alone, in warplint's default configuration,
/// compiles (the configured view keeps their bytes), by line number.
fn compiled_lines(text: &str) -> BTreeSet<usize> {
    let config = PpConfig::default();
    let view = configure(
        text.as_bytes(),
        &config,
        &mut MacroEnv::from_config(&config),
    )
    .text;
    text.lines()
        .zip(view.lines())
        .enumerate()
        .filter(|(_, (a, b))| !a.trim().is_empty() && a.trim() == b.trim())
        .map(|(i, _)| i + 1)
        .collect()
}

fn load_record() -> BTreeMap<Key, Miss> {
    let path = root().join("testdata/realcode/seeded.toml");
    let text = std::fs::read_to_string(&path).expect("read testdata/realcode/seeded.toml");
    let record: Record = toml::from_str(&text).unwrap_or_else(|e| panic!("parse seeded.toml: {e}"));
    let mut out = BTreeMap::new();
    for m in record.miss {
        assert!(
            CORPORA.contains(&m.corpus.as_str()),
            "seeded.toml: corpus {:?}",
            m.corpus
        );
        assert!(
            [
                "barrier",
                "full-mask",
                "barrier-loop",
                "full-mask-loop",
                "narrow-mask",
                "ptx-full-mask"
            ]
            .contains(&m.kind.as_str()),
            "seeded.toml: kind {:?}",
            m.kind
        );
        assert!(
            !m.cause.trim().is_empty(),
            "seeded.toml: {}:{} has no cause",
            m.path,
            m.line
        );
        let key = (m.corpus.clone(), m.path.clone(), m.line, m.kind.clone());
        assert!(
            !out.contains_key(&key),
            "seeded.toml: {key:?} recorded twice"
        );
        out.insert(key, m);
    }
    out
}

#[test]
fn seeded_bugs_in_real_code_are_found() {
    let record = load_record();
    let require = std::env::var("WARPLINT_REQUIRE_CORPORA").is_ok_and(|v| v == "1");
    let cache = root().join(".bench-cache");
    let per_kind = per_kind();
    let mut failures = Vec::new();
    let mut stubs = String::new();
    let mut now_found = Vec::new();
    let mut skipped = Vec::new();
    let mut table = String::new();
    let mut checked: BTreeSet<Key> = BTreeSet::new();

    for corpus in selected() {
        let dir = cache.join(&corpus);
        if !dir.join(".complete").exists() {
            skipped.push(corpus);
            continue;
        }
        let started = std::time::Instant::now();
        let mut files = Vec::new();
        files_under(&dir, &mut files);
        let prefix = format!("{}/", dir.display());
        let mut by_kind: BTreeMap<Kind, Vec<(u64, Site)>> = BTreeMap::new();
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if !text.contains("__syncthreads();") && !text.contains("_sync(") {
                continue;
            }
            let display = path.display().to_string();
            let rel = display.strip_prefix(&prefix).unwrap_or(&display).to_owned();
            let sites = sites_of(&path, &rel, &text);
            if sites.is_empty() {
                continue;
            }
            let compiled = compiled_lines(&text);
            for site in sites {
                if compiled.contains(&site.line) {
                    let h = fnv(&site.rel, site.line);
                    by_kind.entry(site.kind).or_default().push((h, site));
                }
            }
        }
        // Every verdict, so that a miss says what became of the seed; found
        // means shown at the default level.
        let mut opts = Options {
            threads: Some(2),
            min_confidence: MinConfidence::All,
            ..Options::default()
        };
        // What a user raising `[parser] max-operations` gets.
        if let Some(ops) = parse_operations() {
            opts.budgets.max_parse_operations = ops;
        }
        let workspace = engine::Workspace::open(std::slice::from_ref(&dir), &opts);
        for (kind, mut sites) in by_kind {
            let available = sites.len();
            sites.sort_by_key(|(h, s)| (*h, s.rel.clone(), s.line));
            sites.truncate(per_kind);
            let (mut found, mut confirmed, mut past_budget) = (0usize, 0usize, 0usize);
            for (_, site) in &sites {
                let key = (
                    corpus.clone(),
                    site.rel.clone(),
                    site.line,
                    kind.name().to_owned(),
                );
                checked.insert(key.clone());
                let Some(mutated) = site.mutated() else {
                    failures.push(format!("cannot read {}", site.path.display()));
                    continue;
                };
                let outcome = workspace
                    .check_unverified(&site.path.display().to_string(), mutated.as_bytes());
                let at_site = outcome
                    .diagnostics
                    .iter()
                    .find(|d| d.code == kind.code() && d.span.line == site.line);
                let hit = at_site.filter(|d| MinConfidence::Likely.admits(&d.confirmation));
                // A file past a budget (a generated file of megabytes) is
                // reported as not analysed, or as analysed only up to a
                // line, as documented: a miss there is counted apart, not a
                // failure.
                let past_cut = outcome
                    .analysed_up_to_line
                    .is_some_and(|last| site.line > last);
                if hit.is_none() && (outcome.not_analysed.is_some() || past_cut) {
                    past_budget += 1;
                    continue;
                }
                match (hit, record.get(&key)) {
                    (Some(d), recorded) => {
                        found += 1;
                        if d.confirmation.status == Status::Confirmed {
                            confirmed += 1;
                        }
                        if recorded.is_some() {
                            now_found.push(format!(
                                "{corpus}:{}:{} {}",
                                site.rel,
                                site.line,
                                kind.name()
                            ));
                        }
                    }
                    (None, Some(_)) => {}
                    (None, None) => {
                        // What became of it: hidden below the default level
                        // (and why), or not proposed at all.
                        let fate = match at_site {
                            Some(d) => format!(
                                "{} ({} evidence): {}",
                                d.confirmation.status,
                                d.confirmation
                                    .evidence
                                    .map_or("no".to_owned(), |e| format!("{e:?}").to_lowercase()),
                                d.confirmation.reason.as_deref().unwrap_or("")
                            ),
                            None => match &outcome.not_analysed {
                                Some(why) => format!("not analysed: {why}"),
                                None => "not proposed".to_owned(),
                            },
                        };
                        failures.push(format!(
                            "seeded {} bug missed: {corpus}:{}:{} ({fate})",
                            kind.name(),
                            site.rel,
                            site.line,
                        ));
                        stubs.push_str(&format!(
                            "\n[[miss]]\ncorpus = {:?}\npath = {:?}\nline = {}\nkind = {:?}\ncause = {:?}\n",
                            corpus,
                            site.rel,
                            site.line,
                            kind.name(),
                            fate
                        ));
                    }
                }
            }
            table.push_str(&format!(
                "| {corpus} | {} | {} of {} | {:.2} | {confirmed} | {past_budget} | {available} |\n",
                kind.name(),
                found,
                sites.len(),
                if sites.is_empty() {
                    1.0
                } else {
                    found as f64 / sites.len() as f64
                },
            ));
        }
        eprintln!(
            "seeded: {corpus} in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }

    eprintln!(
        "\nseeded recall (default level; {per_kind} sites per corpus and kind at most):\n\
         | corpus | seed | found | recall | confirmed | past the parse budget (not analysed, or after the cut) | sites available |\n|---|---|---:|---:|---:|---:|---:|\n{table}"
    );
    if !now_found.is_empty() {
        eprintln!(
            "recorded misses now found (delete their entries in seeded.toml):\n  {}",
            now_found.join("\n  ")
        );
    }
    if !skipped.is_empty() {
        let msg = format!(
            "seeded: corpora missing: {} (run `python3 benches/fetch_corpora.py`)",
            skipped.join(", ")
        );
        if require {
            failures.push(msg);
        } else {
            eprintln!("SKIPPED {msg}");
        }
    }
    if !stubs.is_empty() {
        eprintln!("entries to record in testdata/realcode/seeded.toml:{stubs}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

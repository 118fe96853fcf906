//! The diagnostics model shared by every rule, the executor and every report.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A secondary location that explains the finding (the divergent branch, the
/// early return, the primitive inside a helper).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    #[serde(flatten)]
    pub span: Span,
    pub message: String,
}

/// What the abstract warp executor concluded about a finding. The three
/// verdicts are invariants (see ARCHITECTURE.md): confirmed only with a run
/// consistent with what the code states, refuted only with a proof,
/// undecided otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A run consistent with the code shows the bug; `witness` says which.
    Confirmed,
    /// No run can show the bug; `proof` and `reason` say why. Hidden by
    /// default.
    Refuted,
    /// Neither: `reason` gives the static evidence and why no run decided.
    Undecided,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Confirmed => "confirmed",
            Status::Refuted => "refuted",
            Status::Undecided => "undecided",
        })
    }
}

/// How strong the static evidence of an undecided finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// Proposed for every candidate (WL004/WL006 on every access), or left
    /// over when a budget ran out: shown only with `--min-confidence all`.
    Speculative,
    /// Holds under one assumed launch shape but not under others the code
    /// admits: shown only with `--min-confidence all`.
    ShapeDependent,
    /// The static evidence is direct, but every run that reached the site
    /// (none of them a proof) kept the problem from showing, or, where
    /// others were cut short, one that ran to its end with lanes of the
    /// warp missing at the site did: shown only with `--min-confidence all`.
    Contested,
    /// A lane-dependent guard on the path of a full-mask call, a barrier
    /// under a thread-dependent condition…: shown by default.
    Direct,
}

/// The kind of proof behind a refutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Proof {
    /// Every run the code admits was executed exactly (stated launch shape,
    /// every warp, no chosen input, no guessed branch) and none showed it.
    ExhaustiveRuns,
    /// The mask, evaluated lane by lane, names exactly the lanes that reach
    /// the call, and the launch states whole warps (block x a multiple of
    /// 32).
    ReachingLanes,
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Proof::ExhaustiveRuns => "exhaustive-runs",
            Proof::ReachingLanes => "reaching-lanes",
        })
    }
}

/// Which findings a run reports (config `min-confidence`, `--min-confidence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MinConfidence {
    /// Only confirmed findings.
    Confirmed,
    /// Confirmed ones and undecided ones with direct static evidence.
    #[default]
    Likely,
    /// Every finding that is not refuted.
    All,
}

impl MinConfidence {
    pub fn parse(s: &str) -> Option<MinConfidence> {
        match s {
            "confirmed" => Some(MinConfidence::Confirmed),
            "likely" => Some(MinConfidence::Likely),
            "all" => Some(MinConfidence::All),
            _ => None,
        }
    }

    /// Whether a finding with this confirmation is reported (refuted ones
    /// are governed by `--show-refuted`, not by this level).
    pub fn admits(self, c: &Confirmation) -> bool {
        match (c.status, self) {
            (Status::Confirmed | Status::Refuted, _) | (Status::Undecided, MinConfidence::All) => {
                true
            }
            (Status::Undecided, MinConfidence::Confirmed) => false,
            (Status::Undecided, MinConfidence::Likely) => c.evidence == Some(Evidence::Direct),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Confirmation {
    pub status: Status,
    /// Why the status is what it is (always set for undecided and refuted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Undecided only: how direct the static evidence is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// Refuted only: the kind of proof (`reason` states it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Witness>,
}

impl Confirmation {
    pub fn confirmed(witness: Witness) -> Confirmation {
        Confirmation {
            status: Status::Confirmed,
            reason: None,
            evidence: None,
            proof: None,
            witness: Some(witness),
        }
    }

    pub fn undecided(reason: impl Into<String>, evidence: Evidence) -> Confirmation {
        Confirmation {
            status: Status::Undecided,
            reason: Some(reason.into()),
            evidence: Some(evidence),
            proof: None,
            witness: None,
        }
    }

    pub fn refuted(proof: Proof, reason: impl Into<String>) -> Confirmation {
        Confirmation {
            status: Status::Refuted,
            reason: Some(reason.into()),
            evidence: None,
            proof: Some(proof),
            witness: None,
        }
    }
}

/// A concrete run of the warp that exhibits a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Witness {
    /// One line a human can read, e.g. "n = 20: lanes 20–31 of warp 0 return
    /// at line 9; lanes 0–19 wait at line 14 forever".
    pub summary: String,
    /// The block shape the run used and where it came from.
    pub launch: Launch,
    /// Values chosen for unknown warp-uniform inputs (kernel parameters…).
    pub inputs: BTreeMap<String, i64>,
    /// Which warp of the block the events are about.
    pub warp: u32,
    /// The schedule that exposes the finding, when it matters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
    /// Per-lane-group events in the order the schedule ran them.
    pub events: Vec<WitnessEvent>,
    /// The run started in the function itself, which has no caller in
    /// the unit: which lanes call it, and with what, was assumed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub without_caller: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Launch {
    pub block_dim: [u32; 3],
    /// `launch site`, `__launch_bounds__`, `option` or `assumed`.
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WitnessEvent {
    /// Bit i set = lane i.
    #[serde(serialize_with = "ser_hex_mask")]
    pub lanes: u32,
    pub line: usize,
    pub what: String,
}

fn ser_hex_mask<S: serde::Serializer>(m: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("0x{m:08x}"))
}

/// An automatic edit. Unsafe fixes change behaviour unless a condition the
/// tool cannot prove holds; they are never applied silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub message: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
    /// A different fix to offer where this one fails its re-lint
    /// (`engine::verify_fixes`); never reported itself.
    #[serde(skip)]
    pub fallback: Option<Box<Fix>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    Unsafe,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub start_byte: usize,
    pub end_byte: usize,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub path: String,
    #[serde(flatten)]
    pub span: Span,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    pub labels: Vec<Label>,
    pub confirmation: Confirmation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Why the fix the rule proposed is not offered, in a few words (the
    /// engine's re-lint refused it, or its budget ran out). Set only when
    /// `fix` is `None` because of that check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix_withheld: Option<String>,
    /// Names the finding independently of its line (see `baseline`): used by
    /// `--baseline` and SARIF's `partialFingerprints`. Set by the engine.
    pub fingerprint: String,
}

impl Diagnostic {
    /// The order every report uses: path, line, column, code.
    pub fn sort_key(&self) -> (&str, usize, usize, &str, &str) {
        (
            &self.path,
            self.span.line,
            self.span.column,
            self.code,
            &self.message,
        )
    }
}

/// How weak a verdict is: confirmed (0) before undecided before refuted.
pub fn weakness(d: &Diagnostic) -> u8 {
    match d.confirmation.status {
        Status::Confirmed => 0,
        Status::Undecided => 1,
        Status::Refuted => 2,
    }
}

/// Keep one diagnostic per rule and span, the strongest: a kernel
/// template analysed as several instances (`ir::lower::templates`) may
/// report one line once per instance, and the line has the bug where any
/// instance shows it (confirmed before undecided before refuted; the
/// first of equals). Order is kept otherwise.
pub fn keep_strongest_per_span<T>(items: &mut Vec<T>, diagnostic: impl Fn(&T) -> &Diagnostic) {
    let rank = |item: &T| weakness(diagnostic(item));
    keep_strongest_per_span_by(items, &diagnostic, rank);
}

/// [`keep_strongest_per_span`] with a rank of the caller's (lower is
/// stronger; the first of equals wins).
pub fn keep_strongest_per_span_by<T>(
    items: &mut Vec<T>,
    diagnostic: impl Fn(&T) -> &Diagnostic,
    rank: impl Fn(&T) -> u8,
) {
    let mut best: rustc_hash::FxHashMap<(&str, &str, usize, usize), (usize, u8)> =
        rustc_hash::FxHashMap::default();
    for (i, item) in items.iter().enumerate() {
        let d = diagnostic(item);
        let key = (d.path.as_str(), d.code, d.span.start, d.span.end);
        let r = rank(item);
        best.entry(key)
            .and_modify(|b| {
                if r < b.1 {
                    *b = (i, r);
                }
            })
            .or_insert((i, r));
    }
    if best.len() == items.len() {
        return;
    }
    let keep: rustc_hash::FxHashSet<usize> = best.values().map(|b| b.0).collect();
    let mut i = 0;
    items.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
}

/// Apply `edits` (any order) to `text`. Edits must not overlap; at one
/// offset, insertions go before a replacement that starts there; the same
/// edit twice is one edit. Returns `None` if two edits overlap or one falls
/// outside `text`.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start_byte, e.end_byte));
    sorted.dedup_by(|a, b| a == b);
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in sorted {
        if e.start_byte < at
            || e.end_byte < e.start_byte
            || !text.is_char_boundary(e.start_byte)
            || !text.is_char_boundary(e.end_byte)
        {
            return None;
        }
        out.push_str(&text[at..e.start_byte]);
        out.push_str(&e.replacement);
        at = e.end_byte;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// Where byte `fixed` of the text [`apply_edits`] made from `edits` was in
/// the original text (the start of an edit for bytes inside its
/// replacement).
pub fn original_offset(edits: &[Edit], fixed: usize) -> usize {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start_byte, e.end_byte));
    sorted.dedup_by(|a, b| a == b);
    // `shift`: bytes the edits before the current one added (may be < 0).
    let mut shift: isize = 0;
    for e in sorted {
        let start = (e.start_byte as isize + shift) as usize;
        if fixed < start {
            break;
        }
        let end = start + e.replacement.len();
        if fixed < end {
            return e.start_byte;
        }
        shift += e.replacement.len() as isize - (e.end_byte - e.start_byte) as isize;
    }
    (fixed as isize - shift).max(0) as usize
}

/// The 1-based line of `original` that byte `fixed` of the text
/// [`apply_edits`] made from it with `edits` comes from.
pub fn original_line(original: &str, edits: &[Edit], fixed: usize) -> usize {
    let at = original_offset(edits, fixed).min(original.len());
    1 + original.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// "lane 3" or "lanes 0–15": a lane set with the right noun.
pub fn lanes_phrase(mask: u32) -> String {
    if mask.count_ones() == 1 {
        format!("lane {}", mask.trailing_zeros())
    } else {
        format!("lanes {}", lane_ranges(mask))
    }
}

/// Human form of a lane set: `0–15`, `3, 5–7`, `none`.
pub fn lane_ranges(mask: u32) -> String {
    let mut parts = Vec::new();
    let mut lane = 0u32;
    while lane < 32 {
        if mask >> lane & 1 == 1 {
            let start = lane;
            while lane + 1 < 32 && mask >> (lane + 1) & 1 == 1 {
                lane += 1;
            }
            parts.push(if start == lane {
                start.to_string()
            } else {
                format!("{start}–{lane}")
            });
        }
        lane += 1;
    }
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::{Edit, apply_edits, lane_ranges, original_offset};

    #[test]
    fn original_offsets_undo_the_edits() {
        let edit = |s: usize, e: usize, r: &str| Edit {
            start_byte: s,
            end_byte: e,
            replacement: r.to_owned(),
        };
        // "abcdef" → "ab<<Xef!": an insert and a replacement at 2, one at 6.
        let edits = [edit(2, 4, "X"), edit(2, 2, "<<"), edit(6, 6, "!")];
        let fixed = apply_edits("abcdef", &edits).unwrap();
        assert_eq!(fixed, "ab<<Xef!");
        let back: Vec<usize> = (0..fixed.len())
            .map(|i| original_offset(&edits, i))
            .collect();
        assert_eq!(back, [0, 1, 2, 2, 2, 4, 5, 6]);
        assert_eq!(original_offset(&[], 3), 3);
    }

    #[test]
    fn lane_ranges_groups_runs() {
        assert_eq!(lane_ranges(0xffff_ffff), "0–31");
        assert_eq!(lane_ranges(0x0000_ffff), "0–15");
        assert_eq!(lane_ranges(0b1011), "0–1, 3");
        assert_eq!(lane_ranges(0), "none");
        assert_eq!(lane_ranges(1 << 31), "31");
    }
}

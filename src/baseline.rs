//! Fingerprints and baselines.
//!
//! A diagnostic's fingerprint names the finding without its position, so
//! that editing code above it does not make it new:
//!
//! - the rule's code;
//! - where it is: enclosing namespaces, classes and function (or `#define`
//!   for a finding in a macro body);
//! - the text of the primary span, with whitespace normalized;
//! - the occurrence index among findings of the file with the same three.
//!
//! A baseline (`--write-baseline FILE`) records `(code, path, fingerprint)`
//! for every current finding; a later run with `--baseline FILE` reports only
//! findings not in it, and names the entries that match nothing any more
//! ("stale": fixed, or changed beyond recognition). SARIF's
//! `partialFingerprints` reuse the same value.

use crate::frontend::Field as _;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tree_sitter::Node;

use crate::diagnostic::Diagnostic;
use crate::discover::normalize_path;
use crate::frontend::{ParsedFile, node_text};
use crate::outcome::RunResult;
pub use crate::outcome::{BaselineEntry as Entry, BaselineSummary as Summary};

/// Bump when the fingerprint recipe changes: old baselines then go stale
/// rather than match the wrong findings.
pub const FINGERPRINT_VERSION: &str = "warplint/v1";

/// Give every diagnostic of one file its fingerprint. `diagnostics` must be
/// in report order: occurrence indices follow it.
pub fn assign_fingerprints(file: &ParsedFile, diagnostics: &mut [Diagnostic]) {
    let text = file.source.text.as_str();
    let mut seen: HashMap<(&'static str, String, String), usize> = HashMap::default();
    for d in diagnostics.iter_mut() {
        let context = context_at(file.tree.root_node(), text, d.span.start, d.span.end);
        let snippet = normalize_code(text.get(d.span.start..d.span.end).unwrap_or(""));
        let n = seen
            .entry((d.code, context.clone(), snippet.clone()))
            .or_default();
        d.fingerprint = fingerprint(d.code, &context, &snippet, *n);
        *n += 1;
    }
}

fn fingerprint(code: &str, context: &str, snippet: &str, occurrence: usize) -> String {
    let mut h = Sha256::new();
    for part in [FINGERPRINT_VERSION, code, context, snippet] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    h.update(occurrence.to_string().as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whitespace removed except where it separates two word characters, so
/// `__shfl( v,0 )` and `__shfl(v, 0)` read the same.
pub fn normalize_code(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let word = |c: char| c.is_alphanumeric() || c == '_';
        if pending_space && out.chars().last().is_some_and(word) && word(c) {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// `ns::Class::method`, `kernel`, `#define NAME`, or "" at file scope: the
/// named scopes that contain `[start, end)`. Walks down from the root with a
/// cursor, so it costs the depth once and never recurses.
pub fn context_at(root: Node, text: &str, start: usize, end: usize) -> String {
    let mut scopes: Vec<String> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let name = match node.kind() {
            "namespace_definition" | "class_specifier" | "struct_specifier" | "union_specifier" => {
                node.field("name")
                    .map(|n| normalize_code(node_text(n, text)))
            }
            "function_definition" => function_name(node, text),
            "preproc_function_def" | "preproc_def" => node
                .field("name")
                .map(|n| format!("#define {}", node_text(n, text))),
            _ => None,
        };
        if let Some(name) = name {
            scopes.push(name);
        }
        if cursor.goto_first_child_for_byte(start).is_none() {
            break;
        }
        let child = cursor.node();
        if child.start_byte() > start || child.end_byte() < end {
            break;
        }
    }
    scopes.join("::")
}

/// The declared name of a function definition, through pointer and
/// reference declarators (bounded: each step goes one node deeper).
fn function_name(def: Node, text: &str) -> Option<String> {
    let mut decl = def.field("declarator")?;
    for _ in 0..64 {
        if decl.kind() == "function_declarator" {
            let name = decl.field("declarator")?;
            return Some(normalize_code(node_text(name, text)));
        }
        decl = decl.field("declarator")?;
    }
    None
}

/// The baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub tool: String,
    pub entries: Vec<Entry>,
}

pub const BASELINE_VERSION: u32 = 1;

impl Baseline {
    /// Record every diagnostic of `run`; paths relative to `dir` (where the
    /// baseline file lives).
    pub fn from_run(run: &RunResult, dir: &Path) -> Baseline {
        let keys = PathKeys::new(dir);
        let mut entries: Vec<Entry> = run
            .diagnostics()
            .map(|d| Entry {
                path: keys.key(&d.path),
                code: d.code.to_owned(),
                fingerprint: d.fingerprint.clone(),
                line: d.span.line,
                message: d.message.clone(),
            })
            .collect();
        entries.sort_by(|a, b| {
            (&a.path, a.line, &a.code, &a.fingerprint).cmp(&(
                &b.path,
                b.line,
                &b.code,
                &b.fingerprint,
            ))
        });
        Baseline {
            version: BASELINE_VERSION,
            tool: "warplint".to_owned(),
            entries,
        }
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read baseline {}: {e}", path.display()))?;
        let b: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a warplint baseline: {e}", path.display()))?;
        if b.version != BASELINE_VERSION {
            return Err(format!(
                "{}: baseline version {} is not supported (expected {BASELINE_VERSION})",
                path.display(),
                b.version
            ));
        }
        Ok(b)
    }

    /// Remove from `run` the findings this baseline records. Each entry
    /// matches at most one finding. `file` is the baseline's path as given.
    pub fn filter(&self, run: &mut RunResult, file: &Path) -> Summary {
        let dir = file.parent().unwrap_or(Path::new(""));
        let keys = PathKeys::new(dir);
        let mut left: BTreeMap<(String, String, String), Vec<&Entry>> = BTreeMap::new();
        for e in &self.entries {
            left.entry((e.path.clone(), e.code.clone(), e.fingerprint.clone()))
                .or_default()
                .push(e);
        }
        let mut matched = 0;
        let mut checked = Vec::new();
        for f in &mut run.files {
            if f.io_error.is_some() {
                continue;
            }
            let key = keys.key(&f.path);
            f.diagnostics.retain(|d| {
                let k = (key.clone(), d.code.to_owned(), d.fingerprint.clone());
                let hit = left.get_mut(&k).and_then(|v| v.pop()).is_some();
                matched += usize::from(hit);
                !hit
            });
            if f.diagnostics.is_empty() {
                f.source = None;
            }
            checked.push(key);
        }
        checked.sort();
        let stale = left
            .into_values()
            .flatten()
            .filter(|e| checked.binary_search(&e.path).is_ok())
            .cloned()
            .collect();
        Summary {
            file: file.display().to_string(),
            matched,
            stale,
        }
    }
}

/// Turns report paths into baseline paths: relative to the baseline's
/// directory, `/`-separated, so a baseline works from any working directory.
struct PathKeys {
    cwd: PathBuf,
    dir: PathBuf,
}

impl PathKeys {
    fn new(dir: &Path) -> PathKeys {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let dir = normalize_path(&cwd, dir);
        PathKeys { cwd, dir }
    }

    fn key(&self, path: &str) -> String {
        let abs = normalize_path(&self.cwd, Path::new(path));
        match abs.strip_prefix(&self.dir) {
            Ok(rel) => rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => path.replace('\\', "/"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    #[test]
    fn code_is_normalized_but_words_stay_apart() {
        assert_eq!(normalize_code("__shfl( v,\n\t 0 )"), "__shfl(v,0)");
        assert_eq!(normalize_code("unsigned  int x"), "unsigned int x");
        assert_eq!(normalize_code("a -  b"), "a-b");
    }

    #[test]
    fn context_names_scopes_and_macros() {
        let text = "namespace ns { struct S { __device__ int m(int v) { return __shfl(v, 0); } }; }\n\
                    __global__ void k(int *p) { auto f = [](int v) { return __shfl(v, 1); }; }\n\
                    #define SH(v) __shfl(v, 2)\n\
                    int top = __shfl(1, 3);\n";
        let parsed = crate::frontend::parse(SourceFile::new("c.cu", text.as_bytes())).unwrap();
        let ctx = |needle: &str| {
            let at = text.find(needle).unwrap();
            context_at(parsed.tree.root_node(), text, at, at + needle.len())
        };
        assert_eq!(ctx("__shfl(v, 0)"), "ns::S::m");
        assert_eq!(ctx("__shfl(v, 1)"), "k", "lambdas belong to their function");
        assert_eq!(ctx("__shfl(v, 2)"), "#define SH");
        assert_eq!(ctx("__shfl(1, 3)"), "");
    }

    #[test]
    fn fingerprints_ignore_position_but_not_content() {
        let a = fingerprint("WL001", "k", "__shfl(v,0)", 0);
        assert_eq!(a.len(), 32);
        assert_eq!(a, fingerprint("WL001", "k", "__shfl(v,0)", 0));
        assert_ne!(a, fingerprint("WL001", "k", "__shfl(v,0)", 1));
        assert_ne!(a, fingerprint("WL001", "g", "__shfl(v,0)", 0));
        assert_ne!(a, fingerprint("WL002", "k", "__shfl(v,0)", 0));
    }
}

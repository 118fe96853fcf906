//! Constants from headers a file includes with quotes (`#include
//! "config.cuh"`), resolved next to the including file. Only one level is
//! followed and only integral constants are taken, so the cost stays
//! bounded; each header is parsed at most once per worker thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::frontend::{ParsedFile, PreprocEnv, Walk, node_text, parse, preorder};
use crate::source::SourceFile;

/// Headers larger than this are not read for constants.
const MAX_HEADER_BYTES: u64 = 2 * 1024 * 1024;

thread_local! {
    static CACHE: RefCell<HashMap<PathBuf, Arc<HashMap<String, i64>>>> = RefCell::new(HashMap::new());
}

/// The quoted includes of `file`, resolved relative to `dir`.
pub fn quoted_includes(file: &ParsedFile, dir: &Path) -> Vec<PathBuf> {
    let text = file.source.text.as_str();
    let mut out = Vec::new();
    preorder(file.tree.root_node(), |n| match n.kind() {
        "preproc_include" => {
            if let Some(p) = n.child_by_field_name("path")
                && p.kind() == "string_literal"
            {
                let name = node_text(p, text).trim_matches('"');
                let candidate = dir.join(name);
                if candidate.is_file() {
                    out.push(candidate);
                }
            }
            Walk::Skip
        }
        "translation_unit" | "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" => {
            Walk::Descend
        }
        _ => Walk::Skip,
    });
    out
}

/// Integral constants defined by the headers `file` includes with quotes.
pub fn included_constants(
    file: &ParsedFile,
    path: &Path,
    env: &PreprocEnv,
) -> HashMap<String, i64> {
    let Some(dir) = path.parent() else {
        return HashMap::new();
    };
    let mut merged = HashMap::new();
    for header in quoted_includes(file, dir) {
        let consts = CACHE.with(|c| c.borrow().get(&header).cloned());
        let consts = match consts {
            Some(c) => c,
            None => {
                let c = Arc::new(read_constants(&header, env));
                CACHE.with(|cache| {
                    let mut cache = cache.borrow_mut();
                    if cache.len() > 4096 {
                        cache.clear();
                    }
                    cache.insert(header.clone(), Arc::clone(&c));
                });
                c
            }
        };
        for (k, v) in consts.iter() {
            merged.entry(k.clone()).or_insert(*v);
        }
    }
    merged
}

fn read_constants(header: &Path, env: &PreprocEnv) -> HashMap<String, i64> {
    let ok = std::fs::metadata(header).is_ok_and(|m| m.len() <= MAX_HEADER_BYTES);
    let Some(bytes) = ok.then(|| std::fs::read(header).ok()).flatten() else {
        return HashMap::new();
    };
    let Some(parsed) = parse(SourceFile::new(header.display().to_string(), &bytes)) else {
        return HashMap::new();
    };
    super::lower_file(&parsed, env).constants
}

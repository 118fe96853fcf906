//! `--show-files` and `--show-settings`: what a run would check, and with
//! which resolved options, without checking anything.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Resolver;
use crate::discover;
use crate::rules::all_meta;

/// The files a check of `paths` would read (`settings`: and the settings
/// of the first one), as text for standard output, and the exit code (0,
/// or 2 for errors, which are printed on standard error).
pub fn show(paths: &[PathBuf], resolver: &Arc<Resolver>, settings: bool) -> (String, u8) {
    let policy: Arc<dyn discover::Policy> = resolver.clone();
    let (candidates, errors) = discover::discover_with(paths, policy);
    for e in &errors {
        eprintln_quiet!("warplint: error: {}: {}", e.path, e.message);
    }
    let mut text = String::new();
    if settings {
        let Some(first) = candidates.first() else {
            eprintln_quiet!("warplint: error: no file to show settings for");
            return (text, 2);
        };
        match settings_text(&first.path, resolver) {
            Ok(settings) => text = settings,
            Err(e) => {
                eprintln_quiet!("warplint: error: {e}");
                return (text, 2);
            }
        }
    } else {
        for c in &candidates {
            let shown = c.path.display().to_string();
            let shown = shown.strip_prefix("./").unwrap_or(&shown);
            text.push_str(shown);
            if c.sniff {
                text.push_str(" (if it looks like CUDA)");
            }
            text.push('\n');
        }
    }
    (text, if errors.is_empty() { 0 } else { 2 })
}

/// The options `path` is checked with, one `key = value` a line.
pub fn settings_text(path: &Path, resolver: &Resolver) -> Result<String, String> {
    let config = resolver.config_for(path).map_err(|e| e.to_string())?;
    let opts = resolver.options_for(path).map_err(|e| e.to_string())?;
    let rules: Vec<&str> = all_meta()
        .filter(|m| opts.rules.contains(m.code))
        .map(|m| m.code)
        .collect();
    let b = &opts.budgets;
    let mut s = format!("settings for {}\n", path.display());
    let mut line = |k: &str, v: String| s.push_str(&format!("{k:<22} = {v}\n"));
    line(
        "config",
        config.map_or("none".to_owned(), |c| c.path.display().to_string()),
    );
    line("rules", rules.join(", "));
    line(
        "block-dim",
        opts.block_dim
            .map_or("from launch sites, else assumed".to_owned(), |d| {
                format!("{}, {}, {}", d[0], d[1], d[2])
            }),
    );
    line(
        "target-arch (lowest)",
        format!("sm_{}", opts.env.min_arch / 10),
    );
    line("extensions", opts.discover.extensions.join(", "));
    line(
        "sniffed extensions",
        opts.discover.sniffed_extensions.join(", "),
    );
    line("show-refuted", opts.show_refuted.to_string());
    line("suppressions", (!opts.ignore_suppressions).to_string());
    // Limits under the keys a config sets them with.
    let keys: Vec<String> = (crate::config::LIMITS.iter())
        .map(|l| format!("{}.{}", l.table, l.key))
        .collect();
    let width = keys.iter().map(String::len).max().unwrap_or(0);
    for (key, l) in keys.iter().zip(crate::config::LIMITS) {
        s.push_str(&format!("{key:<width$} = {}\n", (l.get)(b)));
    }
    Ok(s)
}

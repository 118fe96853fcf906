//! `compile_commands.json`: the include directories, `-D` definitions and
//! `-std` of each compiled file. Both entry forms are read (`command`, a
//! shell string, and `arguments`, a list).

use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};

use super::resolve::normalize;

/// The flags warplint uses from one compile command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// `-I`, `-isystem`, `-iquote` directories, absolute or relative to the
    /// command's `directory`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-DNAME` / `-DNAME=VALUE` (value `1` when absent), in order.
    pub defines: Vec<(String, String)>,
    /// `-std=…`, recorded for reports; nothing depends on it yet.
    pub std: Option<String>,
}

/// A loaded compile database.
#[derive(Debug, Default)]
pub struct CompileDb {
    by_file: HashMap<PathBuf, Flags>,
    /// Directory → the flags most of its files are compiled with.
    by_dir: HashMap<PathBuf, Flags>,
}

/// Entries read at most; a larger database is used partly.
const MAX_ENTRIES: usize = 200_000;

impl CompileDb {
    /// Read `path`; `None` when it cannot be read or is not a JSON array.
    pub fn load(path: &Path) -> Option<CompileDb> {
        CompileDb::open(path).ok()
    }

    /// Read `path`, or say why it cannot be used: unreadable, or not a JSON
    /// array of compile commands.
    pub fn open(path: &Path) -> Result<CompileDb, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        CompileDb::parse(&text, path.parent().unwrap_or(Path::new(".")))
            .ok_or_else(|| "not a JSON array of compile commands".to_owned())
    }

    /// Parse database text; relative `directory` fields are taken relative
    /// to `base` (the database's directory).
    pub fn parse(text: &str, base: &Path) -> Option<CompileDb> {
        let entries: Vec<serde_json::Value> = serde_json::from_str(text).ok()?;
        let mut db = CompileDb::default();
        let mut dir_counts: HashMap<PathBuf, HashMap<Flags, usize>> = HashMap::default();
        for e in entries.iter().take(MAX_ENTRIES) {
            let Some(file) = e.get("file").and_then(|f| f.as_str()) else {
                continue;
            };
            let dir = e
                .get("directory")
                .and_then(|d| d.as_str())
                .map(|d| base.join(d))
                .unwrap_or_else(|| base.to_path_buf());
            let args: Vec<String> = match (e.get("arguments"), e.get("command")) {
                (Some(serde_json::Value::Array(a)), _) => a
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
                (_, Some(serde_json::Value::String(c))) => split_command(c),
                _ => continue,
            };
            let flags = flags_of(&args, &dir);
            let file = absolute(&dir.join(file));
            if let Some(parent) = file.parent() {
                *dir_counts
                    .entry(parent.to_path_buf())
                    .or_default()
                    .entry(flags.clone())
                    .or_default() += 1;
            }
            db.by_file.insert(file, flags);
        }
        for (dir, counts) in dir_counts {
            // Most common; ties broken by the flags themselves, so the
            // choice never depends on hash order.
            if let Some((flags, _)) = counts.into_iter().max_by(|a, b| {
                a.1.cmp(&b.1)
                    .then_with(|| format!("{:?}", b.0).cmp(&format!("{:?}", a.0)))
            }) {
                db.by_dir.insert(dir, flags);
            }
        }
        Some(db)
    }

    /// The flags `file` is compiled with: its own entry, else the most
    /// common flags of its directory.
    pub fn flags_for(&self, file: &Path) -> Option<&Flags> {
        let abs = absolute(file);
        self.by_file
            .get(&abs)
            .or_else(|| abs.parent().and_then(|d| self.by_dir.get(d)))
    }

    pub fn len(&self) -> usize {
        self.by_file.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_file.is_empty()
    }
}

fn absolute(p: &Path) -> PathBuf {
    normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// The flags warplint reads from a compiler's argument list.
pub fn flags_of(args: &[String], dir: &Path) -> Flags {
    let mut flags = Flags::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut take = |prefix: &str| -> Option<String> {
            let rest = a.strip_prefix(prefix)?;
            if rest.is_empty() {
                i += 1;
                args.get(i).cloned()
            } else {
                Some(rest.trim_start_matches('=').to_owned())
            }
        };
        if let Some(d) = take("-isystem").or_else(|| take("-iquote")).or_else(|| {
            // `-include` is a file, not a directory.
            if a.starts_with("-include") {
                None
            } else {
                take("-I")
            }
        }) {
            flags.include_dirs.push(normalize(&dir.join(d)));
        } else if let Some(d) = take("-D") {
            let (name, value) = match d.split_once('=') {
                Some((n, v)) => (n.to_owned(), v.to_owned()),
                None => (d, "1".to_owned()),
            };
            if !name.is_empty() {
                flags.defines.push((name, value));
            }
        } else if let Some(s) = a.strip_prefix("-std=") {
            flags.std = Some(s.to_owned());
        }
        i += 1;
    }
    flags
}

/// Split a shell command line into words: whitespace separates, single
/// and double quotes group, a backslash escapes the next character.
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_shell_words() {
        assert_eq!(
            split_command(r#"nvcc -I "a b" -DX='1 2' c\ d.cu"#),
            vec!["nvcc", "-I", "a b", "-DX=1 2", "c d.cu"]
        );
    }

    #[test]
    fn reads_both_entry_forms_and_falls_back_to_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        let text = r#"[
          {"directory": "build", "file": "../src/a.cu",
           "command": "nvcc -I../include -isystem /opt/x -DUSE_SYNC -DW=16 -std=c++17 -c ../src/a.cu"},
          {"directory": "build", "file": "../src/b.cu",
           "arguments": ["nvcc", "-I", "../include", "-DUSE_SYNC", "-c", "../src/b.cu"]},
          {"directory": "build", "file": "../src/c.cu",
           "arguments": ["nvcc", "-I", "../include", "-DUSE_SYNC", "-c", "../src/c.cu"]}
        ]"#;
        let db = CompileDb::parse(text, base).unwrap();
        assert_eq!(db.len(), 3);
        let a = db.flags_for(&base.join("src/a.cu")).unwrap();
        assert_eq!(
            a.include_dirs,
            vec![absolute(&base.join("include")), PathBuf::from("/opt/x")]
        );
        assert_eq!(
            a.defines,
            vec![
                ("USE_SYNC".to_owned(), "1".to_owned()),
                ("W".to_owned(), "16".to_owned())
            ]
        );
        assert_eq!(a.std.as_deref(), Some("c++17"));
        // A header of src/ gets the directory's most common flags (b's and c's).
        let h = db.flags_for(&base.join("src/util.cuh")).unwrap();
        assert_eq!(h.defines, vec![("USE_SYNC".to_owned(), "1".to_owned())]);
        assert!(db.flags_for(&base.join("elsewhere/x.cu")).is_none());
        assert!(CompileDb::parse("{}", base).is_none());
    }
}

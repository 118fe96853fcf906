//! Configuration: `warplint.toml` or `.warplint.toml`, and the resolver that
//! turns "this file, these command-line flags" into the [`Options`] the engine
//! checks it with.
//!
//! - The nearest config file wins: the search walks up from each checked
//!   file's directory, and stops at the first directory holding one (no
//!   merging with configs further up). Lookups are cached per directory.
//! - `--config PATH` uses one file for everything; `--isolated` uses none.
//! - Command-line flags override the config (see [`Overrides`]).
//! - Globs (`exclude`, `per-file-ignores`) are relative to the directory of
//!   the config file. A pattern without `/` matches a file or directory name
//!   at any depth; one with `/` matches the path from that directory.
//!
//! The language server reuses [`Resolver::options_for`], so a file gets the
//! same options in the editor as on the command line.

use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::budgets::Budgets;
use crate::diagnostic::MinConfidence;
use crate::discover::normalize_path;
use crate::discover::{self, FileKind};
use crate::frontend::preproc::parse_cuda_version;
use crate::options::Options;
use crate::rules::{self, RuleSet};
use crate::source::SourceFile;

/// File names searched for, in order of preference within one directory.
pub const CONFIG_NAMES: &[&str] = &["warplint.toml", ".warplint.toml"];

/// A config file that could not be read or is not valid. Its `Display` is
/// `path:line:column: key: message`, the form editors and CI logs link.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based; 0 when the error is not about a place in the file (I/O).
    pub line: usize,
    pub column: usize,
    /// Dotted key the error is about (`executor.max-steps`), when known.
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if let Some(key) = &self.key {
            write!(f, ": `{key}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// `128`, `16,8` or `8,8,4`: every dimension at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockDim(pub [u32; 3]);

/// Parse `X[,Y[,Z]]` (also `16x8`) for `--block-dim`.
pub fn parse_block_dim(s: &str) -> Result<BlockDim, String> {
    let mut dims = Vec::new();
    for p in s.split([',', 'x']).map(str::trim) {
        dims.push(
            p.parse::<i128>()
                .map_err(|_| format!("block dimension `{p}` is not an integer in 1..=1024"))?,
        );
    }
    block_dim_from(&dims).map_err(|e| format!("{e} (in `{s}`)"))
}

/// Check 1–3 dimensions, each in 1..=1024 and at most 1024 threads in all.
pub fn block_dim_from(dims: &[i128]) -> Result<BlockDim, String> {
    if dims.is_empty() || dims.len() > 3 {
        return Err(format!(
            "expected 1 to 3 dimensions (x, y, z), got {}",
            dims.len()
        ));
    }
    let mut dim = [1u32; 3];
    for (slot, &v) in dim.iter_mut().zip(dims) {
        *slot = u32::try_from(v)
            .ok()
            .filter(|v| (1..=1024).contains(v))
            .ok_or_else(|| format!("block dimension {v} is not an integer in 1..=1024"))?;
    }
    let threads: u32 = dim.iter().product();
    if threads > 1024 {
        return Err(format!(
            "a block of {}x{}x{} has {threads} threads; CUDA allows at most 1024",
            dim[0], dim[1], dim[2]
        ));
    }
    Ok(BlockDim(dim))
}

/// `sm_90` / `sm_90a` / `compute_70` / `90` → 900 (the `__CUDA_ARCH__` value).
pub fn parse_target_arch(s: &str) -> Result<i128, String> {
    let digits: String = s
        .trim()
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    match digits.parse::<i128>() {
        Ok(v) if (10..=200).contains(&v) => Ok(v * 10),
        _ => Err(format!(
            "unknown target architecture `{s}` (expected e.g. sm_70)"
        )),
    }
}

/// Normalize an extension as written by a user: `.CU` → `cu`.
pub fn normalize_extension(e: &str) -> String {
    e.trim().trim_start_matches('.').to_ascii_lowercase()
}

/// Limits a config sets (`[executor]`, `[parser]`); unset ones keep
/// their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BudgetSettings {
    /// (index into [`LIMITS`], value), in the order the config gives them.
    set: Vec<(usize, u64)>,
}

impl BudgetSettings {
    fn apply(&self, b: &mut Budgets) {
        for &(i, v) in &self.set {
            (LIMITS[i].put)(b, v);
        }
    }

    /// The value the config gives `table.key`, if any.
    pub fn get(&self, table: &str, key: &str) -> Option<u64> {
        let i = LIMITS
            .iter()
            .position(|l| l.table == table && l.key == key)?;
        self.set
            .iter()
            .rev()
            .find(|&&(j, _)| j == i)
            .map(|&(_, v)| v)
    }
}

/// Glob patterns with the matching rules described in the module docs.
#[derive(Debug, Clone)]
struct Patterns {
    /// Patterns without `/`: matched against a file or directory name.
    names: GlobSet,
    /// Patterns with `/`: matched against the path from the config's directory.
    paths: GlobSet,
    /// Index in `names`/`paths` → index of the pattern as written.
    name_ids: Vec<usize>,
    path_ids: Vec<usize>,
}

impl Patterns {
    fn build(patterns: &[Spanned<String>]) -> Result<Patterns, (Range<usize>, String)> {
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        let (mut name_ids, mut path_ids) = (Vec::new(), Vec::new());
        for (i, p) in patterns.iter().enumerate() {
            let raw = p.get_ref().trim();
            let text = raw.trim_start_matches("./").trim_end_matches('/');
            if text.is_empty() {
                return Err((p.span(), "empty glob pattern".to_owned()));
            }
            let glob = GlobBuilder::new(text.trim_start_matches('/'))
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| (p.span(), format!("invalid glob: {}", e.kind())))?;
            if text.contains('/') {
                paths.add(glob);
                path_ids.push(i);
            } else {
                names.add(glob);
                name_ids.push(i);
            }
        }
        let names = names
            .build()
            .map_err(|e| (0..0, format!("invalid glob: {e}")))?;
        let paths = paths
            .build()
            .map_err(|e| (0..0, format!("invalid glob: {e}")))?;
        Ok(Patterns {
            names,
            paths,
            name_ids,
            path_ids,
        })
    }

    /// Indices (as written) of the patterns that match `rel`, a `/`-separated
    /// path relative to the config directory (or just a name when outside it).
    fn matches(&self, rel: &str) -> Vec<usize> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let mut hits: Vec<usize> = self
            .names
            .matches(name)
            .into_iter()
            .map(|i| self.name_ids[i])
            .collect();
        hits.extend(
            self.paths
                .matches(rel)
                .into_iter()
                .map(|i| self.path_ids[i]),
        );
        hits.sort_unstable();
        hits
    }

    fn is_match(&self, rel: &str) -> bool {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.names.is_match(name) || self.paths.is_match(rel)
    }
}

/// One parsed config file.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its directory: globs are relative to it.
    pub root: PathBuf,
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub extensions: Option<Vec<String>>,
    pub block_dim: Option<BlockDim>,
    /// `min-confidence`: which undecided findings are reported.
    pub min_confidence: Option<MinConfidence>,
    /// Lowest `__CUDA_ARCH__` of `target-arch`.
    pub min_arch: Option<i128>,
    /// `cuda-version`: the toolkit the preprocessor configuration assumes.
    pub cuda_version: Option<(u32, u32)>,
    /// `defines`: `NAME` or `NAME=VALUE`, as `-D` takes them.
    pub defines: Vec<String>,
    pub budgets: BudgetSettings,
    pub force_exclude: Option<bool>,
    /// `include-dirs`, made relative to the config's directory.
    pub include_dirs: Vec<PathBuf>,
    exclude: Option<Patterns>,
    /// `per-file-ignores`: patterns, and the codes of each pattern.
    per_file: Option<(Patterns, Vec<Vec<String>>)>,
}

impl Config {
    /// Read and parse a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: 0,
            column: 0,
            key: None,
            message: format!("cannot read config: {e}"),
        })?;
        Config::parse(path, &text)
    }

    /// Parse config text; `path` is where it came from (errors name it, and
    /// globs are relative to its directory).
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let root = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let mut config = Config {
            path: path.to_path_buf(),
            root,
            select: None,
            ignore: Vec::new(),
            extensions: None,
            block_dim: None,
            min_confidence: None,
            min_arch: None,
            cuda_version: None,
            defines: Vec::new(),
            budgets: BudgetSettings::default(),
            force_exclude: None,
            include_dirs: Vec::new(),
            exclude: None,
            per_file: None,
        };
        let located = |span: Range<usize>, key: Option<String>, message: String| {
            let (line, column) = if text.is_empty() {
                (1, 1)
            } else {
                SourceFile::from_string("", text.to_owned(), false).line_col(span.start)
            };
            ConfigError {
                path: path.to_path_buf(),
                line,
                column,
                key,
                message,
            }
        };
        let table = DeTable::parse(text).map_err(|e| {
            located(
                e.span().unwrap_or(0..0),
                None,
                format!("invalid TOML: {}", e.message().trim()),
            )
        })?;
        let mut errors: Vec<(Range<usize>, String, String)> = Vec::new();
        for (key, value) in table.get_ref().iter() {
            let name = key.get_ref().as_ref();
            if let Err((span, msg)) = config.set(name, key.span(), value) {
                errors.push((span, name.to_owned(), msg));
            }
        }
        // Report the first problem in file order (the table is sorted by key).
        errors.sort_by_key(|(span, _, _)| span.start);
        match errors.into_iter().next() {
            Some((span, key, msg)) => Err(located(span, Some(key), msg)),
            None => Ok(config),
        }
    }

    /// Apply one top-level key; errors carry the span to point at.
    fn set(
        &mut self,
        key: &str,
        key_span: Range<usize>,
        value: &Spanned<DeValue>,
    ) -> Result<(), (Range<usize>, String)> {
        match key {
            "select" => self.select = Some(rule_list(value)?),
            "ignore" => self.ignore = rule_list(value)?,
            "extensions" => {
                let mut exts = Vec::new();
                for s in strings(value)? {
                    let e = normalize_extension(s.get_ref());
                    if e.is_empty()
                        || !e
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "_+-".contains(c))
                    {
                        return Err((s.span(), format!("invalid extension `{}`", s.get_ref())));
                    }
                    exts.push(e);
                }
                self.extensions = Some(exts);
            }
            "block-dim" => {
                let dims: Vec<i128> = match value.get_ref() {
                    DeValue::Integer(_) => vec![integer(value)?],
                    DeValue::Array(items) => items.iter().map(integer).collect::<Result<_, _>>()?,
                    other => {
                        return Err((
                            value.span(),
                            format!(
                                "expected an array of 1 to 3 integers such as [128] or [16, 8], found {}",
                                other.type_str()
                            ),
                        ));
                    }
                };
                self.block_dim = Some(block_dim_from(&dims).map_err(|e| (value.span(), e))?);
            }
            "min-confidence" => {
                let DeValue::String(s) = value.get_ref() else {
                    return Err((
                        value.span(),
                        format!(
                            "expected \"confirmed\", \"likely\" or \"all\", found {}",
                            value.get_ref().type_str()
                        ),
                    ));
                };
                self.min_confidence = Some(MinConfidence::parse(s).ok_or_else(|| {
                    (
                        value.span(),
                        format!("unknown level `{s}`: expected confirmed, likely or all"),
                    )
                })?);
            }
            "target-arch" => {
                let mut archs = Vec::new();
                for s in strings(value)? {
                    archs.push(parse_target_arch(s.get_ref()).map_err(|e| (s.span(), e))?);
                }
                if archs.is_empty() {
                    return Err((value.span(), "needs at least one architecture".to_owned()));
                }
                self.min_arch = archs.into_iter().min();
            }
            "cuda-version" => {
                let DeValue::String(v) = value.get_ref() else {
                    return Err((
                        value.span(),
                        "expected a string such as \"12.8\"".to_owned(),
                    ));
                };
                self.cuda_version = Some(parse_cuda_version(v).ok_or_else(|| {
                    (
                        value.span(),
                        format!(
                            "invalid CUDA version `{v}`, expected MAJOR.MINOR such as \"12.8\""
                        ),
                    )
                })?);
            }
            "defines" => {
                let mut defines = Vec::new();
                for s in strings(value)? {
                    check_define(s.get_ref()).map_err(|e| (s.span(), e))?;
                    defines.push(s.get_ref().clone());
                }
                self.defines = defines;
            }
            "force-exclude" => match value.get_ref() {
                DeValue::Boolean(b) => self.force_exclude = Some(*b),
                other => {
                    return Err((
                        value.span(),
                        format!("expected true or false, found {}", other.type_str()),
                    ));
                }
            },
            "include-dirs" => {
                self.include_dirs = strings(value)?
                    .into_iter()
                    .map(|d| crate::tu::resolve::normalize(&self.root.join(d.get_ref())))
                    .collect();
            }
            "exclude" => {
                let pats = strings(value)?;
                self.exclude = Some(Patterns::build(&pats)?);
            }
            "per-file-ignores" => {
                let DeValue::Table(t) = value.get_ref() else {
                    return Err((
                        value.span(),
                        format!(
                            "expected a table of glob = [codes], found {}",
                            value.get_ref().type_str()
                        ),
                    ));
                };
                let mut pats = Vec::new();
                let mut codes = Vec::new();
                for (glob, list) in t.iter() {
                    pats.push(Spanned::new(glob.span(), glob.get_ref().to_string()));
                    codes.push(rule_list(list)?);
                }
                self.per_file = Some((Patterns::build(&pats)?, codes));
            }
            "executor" | "parser" => limits(value, key, &mut self.budgets)?,
            other => {
                return Err((
                    key_span,
                    format!(
                        "unknown key `{other}` (expected one of: {})",
                        KEYS.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Codes `per-file-ignores` turns off for `rel` (relative to [`Config::root`]).
    pub fn per_file_ignores(&self, rel: &str) -> Vec<String> {
        let Some((pats, codes)) = &self.per_file else {
            return Vec::new();
        };
        pats.matches(rel)
            .into_iter()
            .flat_map(|i| codes[i].iter().cloned())
            .collect()
    }

    /// Whether `rel` (relative to [`Config::root`]) matches `exclude`.
    pub fn excludes(&self, rel: &str) -> bool {
        self.exclude.as_ref().is_some_and(|p| p.is_match(rel))
    }
}

/// Every top-level key, for the "unknown key" message.
pub const KEYS: &[&str] = &[
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "force-exclude",
    "include-dirs",
    "extensions",
    "block-dim",
    "min-confidence",
    "target-arch",
    "cuda-version",
    "defines",
    "executor",
    "parser",
];

/// Check a `-D`/`defines` entry: `NAME` or `NAME=VALUE`.
pub fn check_define(d: &str) -> Result<(), String> {
    let name = d.split_once('=').map_or(d, |(n, _)| n);
    let ok = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!("invalid define `{d}`, expected NAME or NAME=VALUE"))
    }
}

fn strings<'a>(
    value: &'a Spanned<DeValue>,
) -> Result<Vec<Spanned<String>>, (Range<usize>, String)> {
    let items: Vec<&Spanned<DeValue<'a>>> = match value.get_ref() {
        DeValue::String(_) => vec![value],
        DeValue::Array(a) => a.iter().collect(),
        other => {
            return Err((
                value.span(),
                format!("expected an array of strings, found {}", other.type_str()),
            ));
        }
    };
    items
        .into_iter()
        .map(|v| match v.get_ref() {
            DeValue::String(s) => Ok(Spanned::new(v.span(), s.to_string())),
            other => Err((
                v.span(),
                format!("expected a string, found {}", other.type_str()),
            )),
        })
        .collect()
}

/// A list of rule codes or names (or `ALL`), each checked against the registry.
fn rule_list(value: &Spanned<DeValue>) -> Result<Vec<String>, (Range<usize>, String)> {
    let mut out = Vec::new();
    for s in strings(value)? {
        let key = s.get_ref().trim();
        if !key.eq_ignore_ascii_case("ALL") && rules::lookup(key).is_none() {
            return Err((
                s.span(),
                format!("unknown rule `{key}` (see `warplint rules` for codes and names)"),
            ));
        }
        out.push(key.to_owned());
    }
    Ok(out)
}

/// A limit a config sets under a table: its key, its range and where it
/// goes. One list serves the parser, `--show-settings` and the README's
/// check. The ranges keep a run bounded; the upper ends are far beyond
/// anything useful, not tuned limits.
pub struct Limit {
    pub table: &'static str,
    pub key: &'static str,
    pub min: i128,
    pub max: i128,
    /// The value a run uses, and where a config's value goes.
    pub get: fn(&Budgets) -> u64,
    put: fn(&mut Budgets, u64),
}

/// A [`Limit`] on the [`Budgets`] field named last (whose type holds
/// every value of the range).
macro_rules! limit {
    ($table:literal, $key:literal, $min:literal..=$max:expr, $field:ident) => {
        Limit {
            table: $table,
            key: $key,
            min: $min,
            max: $max,
            get: |b| b.$field as u64,
            put: |b, v| b.$field = v as _,
        }
    };
}

pub const LIMITS: &[Limit] = &[
    limit!("executor", "max-steps", 1..=1_000_000_000, max_steps),
    limit!(
        "executor",
        "max-loop-iterations",
        1..=1_000_000,
        max_loop_iterations
    ),
    limit!("executor", "max-forks", 1..=1_000_000, max_forks),
    limit!("executor", "max-call-depth", 0..=1_000, max_call_depth),
    limit!(
        "executor",
        "max-file-steps",
        1..=100_000_000_000,
        max_file_steps
    ),
    limit!(
        "executor",
        "max-speculative-steps",
        0..=100_000_000_000,
        max_speculative_steps
    ),
    limit!(
        "executor",
        "max-speculative-function-steps",
        0..=100_000_000_000,
        max_speculative_function_steps
    ),
    // tree-sitter's offsets are 32-bit: no file it can parse needs more
    // than a few billion operations.
    limit!(
        "parser",
        "max-operations",
        1_000..=10_000_000_000,
        max_parse_operations
    ),
    limit!(
        "parser",
        "max-header-bytes",
        0..=(1 << 30),
        max_header_bytes
    ),
];

/// Read a table of limits (`[executor]`, `[parser]`) into `settings`.
fn limits(
    value: &Spanned<DeValue>,
    table: &str,
    settings: &mut BudgetSettings,
) -> Result<(), (Range<usize>, String)> {
    let DeValue::Table(t) = value.get_ref() else {
        return Err((
            value.span(),
            format!("expected a table, found {}", value.get_ref().type_str()),
        ));
    };
    for (k, v) in t.iter() {
        let key = k.get_ref();
        let found = (LIMITS.iter().enumerate()).find(|(_, l)| l.table == table && l.key == key);
        let Some((i, limit)) = found else {
            let names: Vec<&str> = (LIMITS.iter())
                .filter(|l| l.table == table)
                .map(|l| l.key)
                .collect();
            let (last, rest) = names.split_last().expect("a table has limits");
            let expected = if rest.is_empty() {
                (*last).to_owned()
            } else {
                format!("{} or {last}", rest.join(", "))
            };
            return Err((
                k.span(),
                format!("unknown key `{table}.{key}` (expected {expected})"),
            ));
        };
        let n = integer(v)?;
        let (min, max) = (limit.min, limit.max);
        if !(min..=max).contains(&n) {
            return Err((
                v.span(),
                format!("`{table}.{key}` must be in {min}..={max}, got {n}"),
            ));
        }
        settings.set.push((i, n as u64));
    }
    Ok(())
}

fn integer(value: &Spanned<DeValue>) -> Result<i128, (Range<usize>, String)> {
    match value.get_ref() {
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .map_err(|_| (value.span(), format!("integer `{i}` is out of range"))),
        other => Err((
            value.span(),
            format!("expected an integer, found {}", other.type_str()),
        )),
    }
}

/// What the command line sets; it overrides every config file.
///
/// - `select` replaces the config's `select` *and* `ignore`;
/// - `ignore` adds to the config's `ignore`;
/// - `per-file-ignores` always apply;
/// - the rest replace the config's value when given.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub extensions: Option<Vec<String>>,
    pub block_dim: Option<BlockDim>,
    pub min_confidence: Option<MinConfidence>,
    pub min_arch: Option<i128>,
    pub cuda_version: Option<(u32, u32)>,
    /// `-D`: added after the config's `defines` (so they win).
    pub defines: Vec<String>,
    pub force_exclude: bool,
}

/// Where configuration comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// The nearest `warplint.toml`/`.warplint.toml` above each file.
    Discover,
    /// One file for every checked file (`--config`).
    File(PathBuf),
    /// No config file at all (`--isolated`).
    Isolated,
}

type Lookup = Result<Option<Arc<Config>>, ConfigError>;

/// Resolves the options for each file: the nearest config, then the
/// command-line overrides. Cheap to share between threads.
#[derive(Debug)]
pub struct Resolver {
    source: ConfigSource,
    fixed: Option<Arc<Config>>,
    overrides: Overrides,
    /// Options that do not come from config (threads, `--no-suppressions`…).
    base: Options,
    cwd: PathBuf,
    /// Directory → the config that applies to files in it.
    configs: Mutex<HashMap<PathBuf, Lookup>>,
    /// Config file (`None`: no config) → its options before
    /// `per-file-ignores`, so that a big tree resolves each config once.
    options: Mutex<HashMap<Option<PathBuf>, Arc<Options>>>,
}

impl Resolver {
    /// `base` holds the options no config file sets (threads, suppressions).
    /// Fails only when `--config` names a file that is missing or invalid.
    pub fn new(
        source: ConfigSource,
        overrides: Overrides,
        base: Options,
    ) -> Result<Resolver, ConfigError> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let mut resolver = Resolver {
            source: source.clone(),
            fixed: None,
            overrides,
            base,
            cwd,
            configs: Mutex::new(HashMap::default()),
            options: Mutex::new(HashMap::default()),
        };
        if let ConfigSource::File(p) = &source {
            resolver.fixed = Some(resolver.load(p)?);
        }
        Ok(resolver)
    }

    /// A resolver that reads no config file and gives every file `opts`.
    pub fn fixed(opts: Options) -> Resolver {
        Resolver {
            source: ConfigSource::Isolated,
            fixed: None,
            overrides: Overrides::default(),
            base: opts,
            cwd: PathBuf::from("/"),
            configs: Mutex::new(HashMap::default()),
            options: Mutex::new(HashMap::default()),
        }
    }

    /// The options every file starts from (threads, suppressions…).
    pub fn base(&self) -> &Options {
        &self.base
    }

    fn load(&self, path: &Path) -> Result<Arc<Config>, ConfigError> {
        // Shown relative to the working directory, like checked files.
        let shown = path.strip_prefix(&self.cwd).unwrap_or(path);
        let mut config = Config::load(shown)?;
        config.root = self.absolute(&config.root);
        Ok(Arc::new(config))
    }

    /// The config that applies to `path` (a file, or a directory seen while
    /// walking: a directory is governed by the config above it).
    pub fn config_for(&self, path: &Path) -> Lookup {
        match &self.source {
            ConfigSource::Isolated => Ok(None),
            ConfigSource::File(_) => Ok(self.fixed.clone()),
            ConfigSource::Discover => {
                let abs = self.absolute(path);
                match abs.parent() {
                    Some(dir) => self.lookup_dir(dir),
                    None => Ok(None),
                }
            }
        }
    }

    fn lookup_dir(&self, dir: &Path) -> Lookup {
        let mut cache = self.configs.lock().unwrap_or_else(|p| p.into_inner());
        let mut visited = Vec::new();
        let mut cur = Some(dir);
        let result = loop {
            let Some(d) = cur else { break Ok(None) };
            if let Some(hit) = cache.get(d) {
                break hit.clone();
            }
            visited.push(d.to_path_buf());
            if let Some(file) = CONFIG_NAMES.iter().map(|n| d.join(n)).find(|p| p.is_file()) {
                break self.load(&file).map(Some);
            }
            cur = d.parent();
        };
        for d in visited {
            cache.insert(d, result.clone());
        }
        result
    }

    /// Every config error met so far, sorted and without duplicates.
    pub fn errors(&self) -> Vec<ConfigError> {
        let cache = self.configs.lock().unwrap_or_else(|p| p.into_inner());
        let mut errs: Vec<ConfigError> = cache.values().filter_map(|r| r.clone().err()).collect();
        errs.sort();
        errs.dedup();
        errs
    }

    /// The options to check `path` with.
    pub fn options_for(&self, path: &Path) -> Result<Arc<Options>, ConfigError> {
        let config = self.config_for(path)?;
        let shared = self.config_options(&config)?;
        let Some(c) = &config else { return Ok(shared) };
        let extra = c.per_file_ignores(&self.relative(c, path));
        if extra.is_empty() {
            return Ok(shared);
        }
        let (select, mut ignore) = self.rule_lists(&config);
        ignore.extend(extra);
        let mut opts = (*shared).clone();
        opts.rules = RuleSet::from_lists(select.as_deref(), &ignore)
            .map_err(|message| rule_error(&config, message))?;
        Ok(Arc::new(opts))
    }

    /// `select` and `ignore` after the command line's overrides.
    fn rule_lists(&self, config: &Option<Arc<Config>>) -> (Option<Vec<String>>, Vec<String>) {
        let o = &self.overrides;
        let (mut select, mut ignore) = match config {
            Some(c) => (c.select.clone(), c.ignore.clone()),
            None => (None, Vec::new()),
        };
        if let Some(s) = &o.select {
            select = Some(s.clone());
            ignore.clear();
        }
        ignore.extend(o.ignore.iter().cloned());
        (select, ignore)
    }

    /// The options of every file under `config`, before `per-file-ignores`.
    fn config_options(&self, config: &Option<Arc<Config>>) -> Result<Arc<Options>, ConfigError> {
        let key = config.as_ref().map(|c| c.path.clone());
        let mut cache = self.options.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(hit) = cache.get(&key) {
            return Ok(Arc::clone(hit));
        }
        let mut opts = self.base.clone();
        let o = &self.overrides;
        let (select, ignore) = self.rule_lists(config);
        if config.is_some() || o.select.is_some() || !o.ignore.is_empty() {
            opts.rules = RuleSet::from_lists(select.as_deref(), &ignore)
                .map_err(|message| rule_error(config, message))?;
        }
        if let Some(c) = config {
            if let Some(e) = &c.extensions {
                opts.discover.extensions = e.clone();
            }
            if let Some(b) = c.block_dim {
                opts.block_dim = Some(b.0);
            }
            if let Some(m) = c.min_confidence {
                opts.min_confidence = m;
            }
            if let Some(a) = c.min_arch {
                opts.env.min_arch = a;
            }
            if let Some(v) = c.cuda_version {
                opts.env.cuda_version = v;
            }
            opts.env.defines.extend(c.defines.iter().cloned());
            c.budgets.apply(&mut opts.budgets);
            // `-I` first, as a compiler searches them.
            opts.includes.dirs.extend(c.include_dirs.iter().cloned());
        }
        if let Some(e) = &o.extensions {
            opts.discover.extensions = e.clone();
        }
        if let Some(b) = o.block_dim {
            opts.block_dim = Some(b.0);
        }
        if let Some(m) = o.min_confidence {
            opts.min_confidence = m;
        }
        if let Some(a) = o.min_arch {
            opts.env.min_arch = a;
        }
        if let Some(v) = o.cuda_version {
            opts.env.cuda_version = v;
        }
        opts.env.defines.extend(o.defines.iter().cloned());
        let opts = Arc::new(opts);
        cache.insert(key, Arc::clone(&opts));
        Ok(opts)
    }

    /// Whether discovery leaves `path` out: a walked entry matching its
    /// config's `exclude`, or (with `force-exclude`) a file named on the
    /// command line that matches, or lies under a directory that matches.
    pub fn is_excluded(&self, path: &Path, explicit: bool) -> bool {
        let Ok(Some(config)) = self.config_for(path) else {
            return false;
        };
        if config.exclude.is_none() {
            return false;
        }
        if !explicit {
            return config.excludes(&self.relative(&config, path));
        }
        if !(self.overrides.force_exclude || config.force_exclude == Some(true)) {
            return false;
        }
        // The path and each directory above it, up to the config's root.
        let rel = self.relative(&config, path);
        let mut prefix = String::new();
        for part in rel.split('/') {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            if config.excludes(&prefix) {
                return true;
            }
        }
        false
    }

    /// `path` relative to the config's directory, `/`-separated; just the
    /// file name when the path lies outside it.
    fn relative(&self, config: &Config, path: &Path) -> String {
        let abs = self.absolute(path);
        match abs.strip_prefix(&config.root) {
            Ok(rel) => rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => abs
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }

    fn absolute(&self, path: &Path) -> PathBuf {
        normalize_path(&self.cwd, path)
    }
}

fn rule_error(config: &Option<Arc<Config>>, message: String) -> ConfigError {
    ConfigError {
        path: config.as_ref().map(|c| c.path.clone()).unwrap_or_default(),
        line: 0,
        column: 0,
        key: None,
        message,
    }
}

impl discover::Policy for Resolver {
    fn excluded(&self, path: &Path, explicit: bool) -> bool {
        self.is_excluded(path, explicit)
    }

    fn kind_of(&self, path: &Path) -> Option<FileKind> {
        // Extensions never depend on per-file-ignores: the shared options do.
        match self.config_for(path).and_then(|c| self.config_options(&c)) {
            Ok(opts) => opts.discover.kind_of(path),
            // Keep the file so that the error is reported for it.
            Err(_) => Some(FileKind::Always),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(Path::new("proj/warplint.toml"), text)
    }

    #[test]
    fn every_key_parses() {
        let c = parse(
            r#"
select = ["ALL"]
ignore = ["WL001"]
extensions = [".CU", "cuh", "cuda"]
block-dim = [16, 8]
target-arch = ["sm_90", "sm_70"]
exclude = ["third_party", "gen/*.cu"]
force-exclude = true

[per-file-ignores]
"tests/*.cu" = ["legacy-warp-primitive"]

[executor]
max-steps = 1_000
max-loop-iterations = 0x10
max-forks = 4
max-call-depth = 0
max-speculative-steps = 0
max-speculative-function-steps = 20_000

[parser]
max-operations = 6_000_000
max-header-bytes = 0
"#,
        )
        .unwrap();
        assert_eq!(c.select, Some(vec!["ALL".to_owned()]));
        assert_eq!(c.ignore, ["WL001"]);
        assert_eq!(
            c.extensions.as_deref(),
            Some(&["cu".to_owned(), "cuh".into(), "cuda".into()][..])
        );
        assert_eq!(c.block_dim, Some(BlockDim([16, 8, 1])));
        assert_eq!(c.min_arch, Some(700));
        assert_eq!(c.force_exclude, Some(true));
        for (key, value) in [
            ("max-steps", Some(1000)),
            ("max-loop-iterations", Some(16)),
            ("max-forks", Some(4)),
            ("max-call-depth", Some(0)),
            ("max-file-steps", None),
            ("max-speculative-steps", Some(0)),
            ("max-speculative-function-steps", Some(20_000)),
        ] {
            assert_eq!(c.budgets.get("executor", key), value, "{key}");
        }
        assert_eq!(c.budgets.get("parser", "max-operations"), Some(6_000_000));
        assert_eq!(c.budgets.get("parser", "max-header-bytes"), Some(0));
        assert!(c.excludes("third_party"));
        assert!(
            c.excludes("src/third_party"),
            "a name pattern matches at any depth"
        );
        assert!(c.excludes("gen/a.cu"));
        assert!(
            !c.excludes("src/gen/a.cu"),
            "a path pattern is anchored at the root"
        );
        assert_eq!(c.per_file_ignores("tests/a.cu"), ["legacy-warp-primitive"]);
        assert!(c.per_file_ignores("tests/sub/a.cu").is_empty());
        assert!(c.per_file_ignores("a.cu").is_empty());
    }

    fn err(text: &str) -> ConfigError {
        parse(text).expect_err("config should be rejected")
    }

    #[test]
    fn unknown_keys_name_file_line_and_key() {
        let e = err("select = [\"WL001\"]\n\nbogus-key = 1\n");
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert_eq!(e.key.as_deref(), Some("bogus-key"));
        assert_eq!(e.path, Path::new("proj/warplint.toml"));
        assert!(
            e.to_string()
                .starts_with("proj/warplint.toml:3:1: `bogus-key`: unknown key"),
            "{e}"
        );

        let e = err("[executor]\nmax-stepz = 3\n");
        assert_eq!((e.line, e.key.as_deref()), (2, Some("executor")), "{e}");
        assert!(e.message.contains("executor.max-stepz"), "{e}");
    }

    #[test]
    fn bad_values_point_at_the_value() {
        for (text, line, col, needle) in [
            (
                "ignore = [\"WL001\", \"WL999\"]",
                1,
                20,
                "unknown rule `WL999`",
            ),
            ("block-dim = [0]", 1, 13, "1..=1024"),
            ("block-dim = [64, 32]", 1, 13, "2048 threads"),
            ("block-dim = \"128\"", 1, 13, "found string"),
            ("target-arch = [\"sm_70\", \"gfx90a\"]", 1, 25, "gfx90a"),
            ("extensions = [\"c u\"]", 1, 15, "invalid extension"),
            ("exclude = [\"a[\"]", 1, 12, "invalid glob"),
            ("force-exclude = 1", 1, 17, "true or false"),
            ("\n[executor]\nmax-forks = -1", 3, 13, "1..=1000000"),
            (
                "[per-file-ignores]\n\"*.cu\" = [\"nope\"]",
                2,
                11,
                "unknown rule `nope`",
            ),
            ("select = [1]", 1, 11, "expected a string"),
            ("select = [", 1, 11, "invalid TOML"),
        ] {
            let e = err(text);
            assert_eq!((e.line, e.column), (line, col), "{text}: {e}");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn the_first_error_in_the_file_is_reported() {
        // Keys are visited in sorted order; the report follows file order.
        let e = err("target-arch = [\"x\"]\nblock-dim = [0]\n");
        assert_eq!(e.line, 1, "{e}");
    }

    #[test]
    fn block_dim_and_arch_parsers() {
        assert_eq!(parse_block_dim("128").unwrap(), BlockDim([128, 1, 1]));
        assert_eq!(parse_block_dim("16x8").unwrap(), BlockDim([16, 8, 1]));
        assert!(parse_block_dim("0").is_err());
        assert!(parse_block_dim("1,2,3,4").is_err());
        assert!(parse_block_dim("64,32").unwrap_err().contains("2048"));
        assert_eq!(parse_target_arch("sm_90a"), Ok(900));
        assert_eq!(parse_target_arch("compute_75"), Ok(750));
        assert!(parse_target_arch("sm_x").is_err());
    }

    #[test]
    fn absolute_paths_are_normalized_lexically() {
        let r = Resolver::fixed(Options::default());
        assert_eq!(
            r.absolute(Path::new("/a/./b/../c.cu")),
            Path::new("/a/c.cu")
        );
    }
}

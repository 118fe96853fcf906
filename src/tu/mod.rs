//! Stage 3½: translation units. Between the frontend and the IR: which
//! headers a file includes (resolved next to it, through include
//! directories, a `compile_commands.json`, or by path suffix among the
//! project's own files), each header parsed and lowered once per run per
//! configuration and shared between the files that include it.
//!
//! What a unit gives the file being checked:
//! - the macros of its headers, in include order ([`Unit::macros`]), seen by
//!   the file's lowering (function-like macros expand at use sites);
//! - what its headers' directives do to the macros
//!   ([`Unit::header_effects`]), which decide the file's conditions where
//!   the rule for unknowns did ([`configure_again`]);
//! - the integral constants of its headers;
//! - the device functions of its headers that the file calls, transitively
//!   ([`Unit::link`]), added to the file's `ir::Module` with
//!   `Function::file` naming their header, so that rules and the executor
//!   see wrappers (default masks included) and helpers at each call site.
//!
//! The per-header step is one function, `Session::lowered_node`: read →
//! configure → parse → lower. It is the place where the `preproc` stage's
//! configured view plugs in.
//!
//! Bounds (counted, never timed): headers per unit, include depth, header
//! size (the file size limit and the parse budget), functions linked per
//! unit. Missing headers are normal: the unit is analysed with what is
//! known and the names are counted in the run's statistics.

pub mod compile_db;
pub mod contracts;
pub mod reach;
pub mod resolve;
pub mod words;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::frontend::configure::UndecidedCondition;
use crate::frontend::{self, MacroEffect, ParsedFile, PreprocEnv, macros::Macro};
use crate::ir::{self, CALL_OPERATOR, ExprKind, Function, Module};
use crate::source::SourceFile;

use compile_db::{CompileDb, Flags};
use reach::Reach;
use resolve::{Directive, SuffixIndex, normalize};
use words::{Words, code_words, hash_word};

/// Headers one unit takes in, at most (the rest are counted as cut).
pub const MAX_HEADERS_PER_UNIT: usize = 2048;
/// Include chains deeper than this are not followed further.
pub const MAX_INCLUDE_DEPTH: usize = 256;
/// Header functions linked into one unit, at most.
pub const MAX_LINKED_FUNCTIONS: usize = 4096;

/// Where includes are looked for (config `include-dirs`, `-I`,
/// `--compile-commands`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncludeOptions {
    /// Include directories, searched in order after the including file's
    /// own directory (quoted includes) and before a compile database's.
    pub dirs: Vec<PathBuf>,
    /// `--compile-commands PATH`; otherwise `compile_commands.json` is
    /// looked for at each checked root and in its `build/`.
    pub compile_commands: Option<PathBuf>,
    /// Translation units off: only the file itself is seen.
    pub disabled: bool,
}

/// What one header is before configuration: its size and directives. Its
/// text is not kept: the few headers a unit parses are read again then, so
/// a run holds the text of the headers it lowered, not of every header
/// it walked.
#[derive(Debug)]
struct Scan {
    /// `None` when it cannot be read (or is over the file size limit).
    bytes: Option<u64>,
    directives: Vec<Directive>,
    has_warp_code: bool,
}

/// A header parsed and lowered for one configuration.
#[derive(Debug)]
pub struct Lowered {
    pub source: Arc<SourceFile>,
    pub module: Module,
    /// Its `#define`s, in order (later ones win).
    pub macros: Vec<Arc<Macro>>,
}

/// A value computed once, by whichever worker asks first.
type Once<T> = Arc<OnceLock<T>>;
/// The files a header's includes name, in order (`None`: not found).
type Targets = Arc<[Option<Arc<Node>>]>;
/// Values per configuration (or search) key: a run has one or a few.
type PerKey<T> = Mutex<Vec<(u64, Once<T>)>>;

/// A file the include walks reached, interned once per run: walks follow
/// `Arc`s and mark `id`s, so a unit of hundreds of headers costs no path
/// hashing per header. Everything computed about the file hangs here.
#[derive(Debug)]
struct Node {
    /// Dense, in order of first reach: the walks' `seen` sets index by it.
    id: usize,
    path: PathBuf,
    scan: OnceLock<Arc<Scan>>,
    /// Per search key: the files its includes name.
    targets: PerKey<Targets>,
    /// Per configuration key: the words of its configured view, its
    /// top-level declarations for the prefilter (`reach.rs`), and what its
    /// directives do to the macros.
    lexed: PerKey<Option<Lexed>>,
    /// Per configuration key: the header parsed and lowered.
    lowered: PerKey<Option<Arc<Lowered>>>,
}

/// A header's configured view, lexed: what a unit needs of it unparsed.
#[derive(Debug, Clone)]
struct Lexed {
    words: Arc<Words>,
    reach: Arc<Reach>,
    /// Its `#define`s and `#undef`s in the branches the configuration
    /// compiles, as net effects: what including it does to a file's
    /// macros.
    effects: Arc<[MacroEffect]>,
    /// The names its `#include`s give in the branches the configuration
    /// compiles, sorted.
    includes: Arc<[String]>,
    /// It includes HIP's runtime (`<hip/…>`) in a compiled branch.
    includes_hip_runtime: bool,
}

/// The cell for `key` among a node's per-key values.
fn per_key<T>(cells: &PerKey<T>, key: u64) -> Once<T> {
    let mut cells = lock(cells);
    if let Some((_, c)) = cells.iter().find(|(k, _)| *k == key) {
        return Arc::clone(c);
    }
    let c: Once<T> = Arc::default();
    cells.push((key, Arc::clone(&c)));
    c
}
/// (includer's directory, name, quoted, search key) → the file found.
type ResolvedCache = HashMap<(PathBuf, String, bool, u64), Option<PathBuf>>;

/// The run-wide state shared by every worker: caches and the suffix index.
#[derive(Debug)]
pub struct Session {
    roots: Vec<PathBuf>,
    nodes: Mutex<rustc_hash::FxHashMap<PathBuf, Arc<Node>>>,
    resolved: Mutex<ResolvedCache>,
    suffix: OnceLock<SuffixIndex>,
    dbs: Mutex<HashMap<PathBuf, Once<Option<Arc<CompileDb>>>>>,
    /// Headers parsed and lowered (each once per configuration).
    pub headers_lowered: std::sync::atomic::AtomicUsize,
    /// The block extents the run's launches state per kernel class
    /// ([`contracts`]), set once before the files are analysed.
    pub launch_contracts: OnceLock<contracts::Contracts>,
    /// The kernel template instances the run's launches state
    /// ([`contracts::Instances`]), set with `launch_contracts`.
    pub launch_instances: OnceLock<contracts::Instances>,
}

/// One file's translation unit: its headers in include order, each parsed
/// and lowered only when the file may need something it defines (see
/// [`words`]): [`Unit::macros`] and [`Unit::link`] give the same answers as
/// with every header parsed.
#[derive(Default)]
pub struct Unit<'s> {
    lazy: Option<Lazy<'s>>,
    headers: Vec<UnitHeader>,
    /// The words of the file's configured view.
    main_words: HashSet<u64>,
    /// Names that resolved to no file (system headers, other projects).
    pub missing: Vec<String>,
    /// Includes resolved to a file.
    pub resolved: usize,
    /// Includes not followed because a budget ran out (depth, count, size).
    pub cut: usize,
    /// `-D` definitions of the compile database entry.
    pub defines: Vec<(String, String)>,
    /// Some header of the unit includes HIP's runtime in a branch its own
    /// view compiles. Whether the file reaches that include through
    /// branches it compiles is [`Session::reaches_hip_runtime`]'s question,
    /// asked only where this holds.
    pub headers_include_hip_runtime: bool,
}

/// Where a unit's headers are parsed and lowered on demand.
struct Lazy<'s> {
    session: &'s Session,
    opts: UnitOptions<'s>,
    key: u64,
}

/// One header of a unit: its words now, its lowering when first needed.
struct UnitHeader {
    node: Arc<Node>,
    words: Arc<Words>,
    effects: Arc<[MacroEffect]>,
    lowered: OnceCell<Option<Arc<Lowered>>>,
}

/// The configuration a file is seen under: its search path and defines.
#[derive(Debug, Clone, Default)]
struct Search {
    dirs: Vec<PathBuf>,
    defines: Vec<(String, String)>,
    /// No compile database and no configured directories: fall back to
    /// the suffix index.
    by_suffix: bool,
}

impl Search {
    /// What resolving an include depends on besides its includer.
    fn resolve_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.dirs.hash(&mut h);
        self.by_suffix.hash(&mut h);
        h.finish()
    }

    fn key(&self, env: &PreprocEnv, parse_budget: u64) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.dirs.hash(&mut h);
        self.defines.hash(&mut h);
        self.by_suffix.hash(&mut h);
        env.min_arch.hash(&mut h);
        env.cuda_version.hash(&mut h);
        env.defines.hash(&mut h);
        parse_budget.hash(&mut h);
        h.finish()
    }
}

/// The options the unit stage reads (a subset of `engine::Options`).
#[derive(Clone, Copy)]
pub struct UnitOptions<'a> {
    pub includes: &'a IncludeOptions,
    pub env: &'a PreprocEnv,
    pub max_file_bytes: u64,
    pub max_parse_operations: u64,
    /// Headers larger than this are not parsed for a unit (counted as cut).
    pub max_header_bytes: u64,
}

impl Session {
    /// A session for a run over `roots` (the paths given on the command
    /// line): their directories and enclosing git repositories are what
    /// the suffix index covers.
    pub fn new(roots: &[PathBuf]) -> Session {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for r in roots {
            // A path that does not exist is reported by the engine; it
            // must not widen the index (its parent may hold other trees).
            if !r.exists() {
                continue;
            }
            let dir = if r.is_dir() {
                r.clone()
            } else {
                r.parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| PathBuf::from("."))
            };
            let dir = normalize(&dir);
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        Session {
            roots: dirs,
            nodes: Mutex::default(),
            resolved: Mutex::default(),
            suffix: OnceLock::new(),
            dbs: Mutex::default(),
            headers_lowered: Default::default(),
            launch_contracts: OnceLock::new(),
            launch_instances: OnceLock::new(),
        }
    }

    /// Set the run's launch contracts once, from the launches each file
    /// states (later calls change nothing).
    pub fn state_launches(
        &self,
        files: impl IntoIterator<Item = crate::ir::lower::StatedLaunches>,
    ) {
        let (extents, instances): (Vec<_>, Vec<_>) = files.into_iter().unzip();
        let _ = self
            .launch_contracts
            .set(contracts::merge(extents.into_iter().flatten()));
        let _ = self
            .launch_instances
            .set(contracts::merge_instances(instances.into_iter().flatten()));
    }

    /// Can the translation unit of `path` (text `bytes`) bring warp code
    /// into the file's analysis? The prefilter's question for a file
    /// without warp code of its own. A header's code reaches the file only
    /// through a macro the file's lowering expands or a function linked
    /// for a call ([`Unit::macros`], [`Unit::link`]), both by name, so the
    /// answer follows names (`reach.rs`): from the file's words to the
    /// headers' declarations that may define one, and on from their words,
    /// until one holds warp code (or a `-D` value named does).
    pub fn unit_reaches_warp_code(&self, path: &Path, bytes: &[u8], opts: &UnitOptions) -> bool {
        if opts.includes.disabled {
            return false;
        }
        let text = String::from_utf8_lossy(bytes);
        let search = self.search_for(path, opts);
        let mut order = Vec::new();
        self.walk_paths(path, &text, &search, opts, &mut order);
        order.retain(|h| self.fits(h, opts));
        let has_warp = |v: &str| crate::prefilter::has_warp_code(v.as_bytes());
        if !search.defines.iter().any(|(_, v)| has_warp(v))
            && !order.iter().any(|h| self.scan(h, opts).has_warp_code)
        {
            return false;
        }
        let key = search.key(opts.env, opts.max_parse_operations);
        let headers: Vec<Arc<Reach>> = (order.iter())
            .filter_map(|h| self.reach(h, key, opts))
            .collect();
        let mut reached: Vec<HashSet<u32>> = vec![HashSet::default(); headers.len()];
        let mut defined = vec![false; search.defines.len()];
        let mut names = code_words(&text);
        let mut fresh = names.clone();
        while !fresh.is_empty() {
            let mut next: HashSet<u64> = HashSet::default();
            for ((name, value), done) in search.defines.iter().zip(&mut defined) {
                if !*done && fresh.contains(&hash_word(name.as_bytes())) {
                    *done = true;
                    if has_warp(value) {
                        return true;
                    }
                    next.extend(code_words(value));
                }
            }
            for (header, seen) in headers.iter().zip(&mut reached) {
                if header.step(&fresh, seen, &mut next) {
                    return true;
                }
            }
            next.retain(|w| !names.contains(w));
            names.extend(next.iter().copied());
            fresh = next;
        }
        false
    }

    /// The translation unit of `path`, whose configured view is `text`.
    /// Its headers are read and their words known; each is parsed and
    /// lowered when the unit first needs it.
    pub fn unit<'s>(&'s self, path: &Path, text: &str, opts: &UnitOptions<'s>) -> Unit<'s> {
        let mut unit = Unit::default();
        if opts.includes.disabled {
            return unit;
        }
        let search = self.search_for(path, opts);
        let key = search.key(opts.env, opts.max_parse_operations);
        let mut order: Vec<Arc<Node>> = Vec::new();
        let (missing, resolved, cut) = self.walk_paths(path, text, &search, opts, &mut order);
        for header in order {
            if !self.fits(&header, opts) {
                unit.cut += 1;
                continue;
            }
            if let Some(lexed) = self.lexed(&header, key, opts) {
                unit.headers_include_hip_runtime |= lexed.includes_hip_runtime;
                unit.headers.push(UnitHeader {
                    node: header,
                    words: lexed.words,
                    effects: lexed.effects,
                    lowered: OnceCell::new(),
                });
            }
        }
        // What the file can look up in its headers (a lexer pass over the
        // file): without headers, nothing.
        if !unit.headers.is_empty() {
            unit.main_words = code_words(text);
        }
        unit.lazy = Some(Lazy {
            session: self,
            opts: *opts,
            key,
        });
        unit.missing = missing;
        unit.resolved = resolved;
        unit.cut += cut;
        unit.defines = search.defines;
        unit
    }

    /// Does the file (configured view `text`) include HIP's runtime through
    /// headers, following only the `#include`s of branches the
    /// configuration compiles? The include walk follows every `#include`
    /// (a header's macros may matter whichever branch names it), but a
    /// portable project's `#ifdef USE_HIP #include "hip_compat.h"` must not
    /// make its CUDA files HIP code. Each header once, at most
    /// [`MAX_HEADERS_PER_UNIT`] of them; the headers' views are those the
    /// unit lexed.
    pub fn reaches_hip_runtime(&self, path: &Path, text: &str, opts: &UnitOptions) -> bool {
        if opts.includes.disabled {
            return false;
        }
        let search = self.search_for(path, opts);
        let key = search.key(opts.env, opts.max_parse_operations);
        let search = &search;
        let main = normalize(path);
        let mut stack: Vec<Arc<Node>> = (resolve::directives(text).iter())
            .filter_map(|d| self.resolve(&main, d, search))
            .map(|p| self.node(&p))
            .collect();
        let mut seen: HashSet<usize> = HashSet::default();
        while let Some(header) = stack.pop() {
            if seen.len() >= MAX_HEADERS_PER_UNIT || !seen.insert(header.id) {
                continue;
            }
            if !self.fits(&header, opts) {
                continue;
            }
            let Some(lexed) = self.lexed(&header, key, opts) else {
                continue;
            };
            if lexed.includes_hip_runtime {
                return true;
            }
            let scan = self.scan(&header, opts);
            let targets = self.targets(&header, &scan, search);
            for (d, target) in scan.directives.iter().zip(targets.iter()) {
                if let Some(t) = target
                    && lexed.includes.binary_search(&d.name).is_ok()
                {
                    stack.push(Arc::clone(t));
                }
            }
        }
        false
    }

    /// Is `header` within the size of headers a unit takes? Generated
    /// tables of many MB would cost their tree's memory.
    fn fits(&self, header: &Node, opts: &UnitOptions) -> bool {
        (self.scan(header, opts).bytes).is_none_or(|b| b <= opts.max_header_bytes)
    }

    /// The include walk: an explicit stack (no recursion), each header
    /// entered once per unit (include guards), depth and count bounded.
    /// `order` receives the headers in the order their contents end, which
    /// is the order a preprocessor finishes them: a header's own includes
    /// come before it.
    fn walk_paths(
        &self,
        path: &Path,
        text: &str,
        search: &Search,
        opts: &UnitOptions,
        order: &mut Vec<Arc<Node>>,
    ) -> (Vec<String>, usize, usize) {
        let mut missing: Vec<String> = Vec::new();
        let mut missing_seen: HashSet<String> = HashSet::default();
        let (mut resolved, mut cut) = (0usize, 0usize);
        let main = normalize(path);
        // A header that includes the file back is skipped by the file's
        // node id (comparing paths on every include was most of a walk).
        let main_id = self.node(&main).id;
        // By node id; the file itself is not a node of its own unit.
        let mut seen: Vec<bool> = Vec::new();
        let mut seen_count = 1usize;
        let main_directives = resolve::directives(text);
        let main_targets: Targets = main_directives
            .iter()
            .map(|d| self.resolve(&main, d, search).map(|p| self.node(&p)))
            .collect();
        let main_names: Vec<String> = main_directives.into_iter().map(|d| d.name).collect();
        // (the header, or `None` for the file itself; the files its
        // includes name; next include)
        let mut stack: Vec<(Option<Arc<Node>>, Targets, usize)> = vec![(None, main_targets, 0)];
        while let Some((node, targets, next)) = stack.last_mut() {
            let at = *next;
            let Some(target) = targets.get(at) else {
                let (node, _, _) = stack.pop().expect("non-empty");
                order.extend(node);
                continue;
            };
            *next += 1;
            let Some(header) = target.clone() else {
                let name = match node {
                    Some(n) => self
                        .scan(n, opts)
                        .directives
                        .get(at)
                        .map(|d| d.name.clone()),
                    None => main_names.get(at).cloned(),
                };
                if let Some(name) = name
                    && missing_seen.insert(name.clone())
                {
                    missing.push(name);
                }
                continue;
            };
            resolved += 1;
            if header.id == main_id || seen.get(header.id).copied().unwrap_or(false) {
                continue;
            }
            if seen.len() <= header.id {
                seen.resize(header.id + 1, false);
            }
            seen[header.id] = true;
            seen_count += 1;
            if stack.len() > MAX_INCLUDE_DEPTH || seen_count > MAX_HEADERS_PER_UNIT {
                cut += 1;
                continue;
            }
            let scan = self.scan(&header, opts);
            if scan.bytes.is_none() {
                cut += 1;
                continue;
            }
            let targets = self.targets(&header, &scan, search);
            stack.push((Some(header), targets, 0));
        }
        (missing, resolved, cut)
    }

    /// The run's node for `path` (normalized), made on first reach.
    fn node(&self, path: &Path) -> Arc<Node> {
        let mut nodes = lock(&self.nodes);
        if let Some(n) = nodes.get(path) {
            return Arc::clone(n);
        }
        let n = Arc::new(Node {
            id: nodes.len(),
            path: path.to_path_buf(),
            scan: OnceLock::new(),
            targets: Mutex::default(),
            lexed: Mutex::default(),
            lowered: Mutex::default(),
        });
        nodes.insert(path.to_path_buf(), Arc::clone(&n));
        n
    }

    /// The files a header's `#include`s name (`None`: not found), once per
    /// header and search path, for every unit that walks through it.
    fn targets(&self, header: &Node, scan: &Scan, search: &Search) -> Targets {
        let cell = per_key(&header.targets, search.resolve_key());
        Arc::clone(cell.get_or_init(|| {
            scan.directives
                .iter()
                .map(|d| self.resolve(&header.path, d, search).map(|p| self.node(&p)))
                .collect()
        }))
    }

    /// The file `d` names, included from `includer`.
    fn resolve(&self, includer: &Path, d: &Directive, search: &Search) -> Option<PathBuf> {
        let dir = includer.parent().map(Path::to_path_buf).unwrap_or_default();
        let config_key = search.resolve_key();
        let key = (dir.clone(), d.name.clone(), d.quoted, config_key);
        if let Some(hit) = lock(&self.resolved).get(&key) {
            return hit.clone();
        }
        let found = self.resolve_uncached(&dir, d, search);
        lock(&self.resolved).insert(key, found.clone());
        found
    }

    fn resolve_uncached(&self, dir: &Path, d: &Directive, search: &Search) -> Option<PathBuf> {
        let name = Path::new(&d.name);
        if name.is_absolute() {
            return name.is_file().then(|| normalize(name));
        }
        if d.quoted {
            let here = normalize(&dir.join(name));
            if here.is_file() {
                return Some(here);
            }
        }
        for inc in &search.dirs {
            let p = normalize(&inc.join(name));
            if p.is_file() {
                return Some(p);
            }
        }
        if search.by_suffix {
            // `<assert.h>`, `<vector>`, `<cuda_fp16.h>`: the toolkit's or the
            // C/C++ library's, whatever file of that name the tree holds.
            if !d.quoted && resolve::is_system_header(&d.name) {
                return None;
            }
            return self.suffix_index().lookup(&d.name, dir).cloned();
        }
        None
    }

    fn suffix_index(&self) -> &SuffixIndex {
        self.suffix.get_or_init(|| {
            let mut roots = self.roots.clone();
            for r in &self.roots {
                if let Some(g) = resolve::git_root(r) {
                    // Walk the repository from its root, in the form the
                    // checked paths have where possible.
                    let rel = std::env::current_dir()
                        .ok()
                        .and_then(|cwd| pathdiff(&g, &cwd))
                        .unwrap_or(g);
                    if !roots.contains(&rel) {
                        roots.push(rel);
                    }
                }
            }
            SuffixIndex::build(&roots)
        })
    }

    fn scan(&self, header: &Node, opts: &UnitOptions) -> Arc<Scan> {
        Arc::clone(
            header
                .scan
                .get_or_init(|| Arc::new(read_scan(&header.path, opts.max_file_bytes))),
        )
    }

    /// The header's top-level declarations (`reach.rs`), from the same
    /// lexing as its words.
    fn reach(&self, header: &Node, key: u64, opts: &UnitOptions) -> Option<Arc<Reach>> {
        self.lexed(header, key, opts).map(|l| l.reach)
    }

    /// The header's words and top-level declarations, once per
    /// configuration: configuring the view costs more than both lexers.
    fn lexed(&self, header: &Node, key: u64, opts: &UnitOptions) -> Option<Lexed> {
        let cell = per_key(&header.lexed, key);
        cell.get_or_init(|| {
            let (view, effects) = configured_view(header, opts)?;
            let mut includes: Vec<String> = view
                .includes
                .iter()
                .map(|i| i.spelling.trim().to_owned())
                .collect();
            includes.sort_unstable();
            Some(Lexed {
                words: Arc::new(Words::of(&view.text)),
                reach: Arc::new(Reach::of(&view.text)),
                effects: effects.into(),
                includes: includes.into(),
                includes_hip_runtime: view.includes_hip_runtime,
            })
        })
        .clone()
    }

    /// The per-header step: read → configure → parse → lower; once per
    /// header and configuration, shared by every
    /// unit that includes it. `None` when it cannot be read or parsed
    /// within the budgets.
    fn lowered_node(&self, header: &Node, key: u64, opts: &UnitOptions) -> Option<Arc<Lowered>> {
        let cell = per_key(&header.lowered, key);
        cell.get_or_init(|| {
            let source = read_source(&header.path, opts.max_file_bytes)?;
            // The header as the configuration compiles it (the same view a
            // checked file gets); spans are unchanged, so findings render
            // from the text as written (`source`).
            let (mut parsed, mut original) = frontend::parse_configured(
                SourceFile::from_string(source.path.clone(), source.text.clone(), source.lossy),
                opts.env,
                opts.max_parse_operations,
            )
            .ok()?;
            // Its conditions on its own headers' macros, as for a checked
            // file (one level: those headers' views are their own).
            if !parsed.view.undecided.is_empty() {
                let effects = self.included_effects(&header.path, &parsed.source.text, opts);
                let budget = opts.max_parse_operations;
                if let Some(again) =
                    configure_again(&parsed, &mut original, &effects, opts.env, budget)
                {
                    (parsed, _) = again.ok()?;
                }
            }
            let mut module = ir::lower_file(&parsed, opts.env);
            module.launches.clear();
            let macros = parsed.macros.defs.iter().cloned().map(Arc::new).collect();
            self.headers_lowered
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Some(Arc::new(Lowered {
                source: Arc::new(source),
                module,
                macros,
            }))
        })
        .clone()
    }

    /// What the headers `path` includes (its configured view `text`) do to
    /// the macros, in include order: [`Unit::header_effects`] without the
    /// rest of a unit.
    fn included_effects(
        &self,
        path: &Path,
        text: &str,
        opts: &UnitOptions,
    ) -> Vec<Arc<[MacroEffect]>> {
        let search = self.search_for(path, opts);
        let key = search.key(opts.env, opts.max_parse_operations);
        let mut order: Vec<Arc<Node>> = Vec::new();
        self.walk_paths(path, text, &search, opts, &mut order);
        (order.iter())
            .filter(|h| self.fits(h, opts))
            .filter_map(|h| self.lexed(h, key, opts).map(|l| l.effects))
            .collect()
    }

    /// The configuration `path` is compiled with where its compile
    /// database entry defines macros (`-D`): the run's, with those added
    /// before the run's own `-D`s (which win). `None` where there are none.
    pub fn file_env(&self, path: &Path, opts: &UnitOptions) -> Option<PreprocEnv> {
        if opts.includes.disabled {
            return None;
        }
        let search = self.search_for(path, opts);
        if search.defines.is_empty() {
            return None;
        }
        let mut env = opts.env.clone();
        let db = search
            .defines
            .iter()
            .map(|(name, value)| format!("{name}={value}"));
        env.defines = db.chain(opts.env.defines.iter().cloned()).collect();
        Some(env)
    }

    fn search_for(&self, path: &Path, opts: &UnitOptions) -> Search {
        let mut search = Search {
            dirs: opts.includes.dirs.clone(),
            ..Search::default()
        };
        let db = self.compile_db(path, opts.includes);
        if let Some(flags) = db.as_ref().and_then(|db| db.flags_for(path)) {
            let Flags {
                include_dirs,
                defines,
                ..
            } = flags.clone();
            search.dirs.extend(include_dirs);
            search.defines = defines;
        }
        search.by_suffix = db.is_none() && opts.includes.dirs.is_empty();
        search
    }

    /// The compile database for `path`: `--compile-commands`, else
    /// `compile_commands.json` at the checked root holding `path` or in its
    /// `build/` directory.
    fn compile_db(&self, path: &Path, includes: &IncludeOptions) -> Option<Arc<CompileDb>> {
        let file = match &includes.compile_commands {
            Some(p) => p.clone(),
            None => {
                let norm = normalize(path);
                let root = self
                    .roots
                    .iter()
                    .filter(|r| r.as_os_str() == "." || norm.starts_with(r))
                    .max_by_key(|r| r.components().count())?;
                [
                    root.join("compile_commands.json"),
                    root.join("build/compile_commands.json"),
                ]
                .into_iter()
                .find(|p| p.is_file())?
            }
        };
        let cell = once_cell(&self.dbs, file.clone());
        cell.get_or_init(|| CompileDb::load(&file).map(Arc::new))
            .clone()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The cell for `key` in a cache of computed-once values: the map's lock is
/// held only to find or add the cell, so workers compute different keys in
/// parallel and each key exactly once.
fn once_cell<K: std::hash::Hash + Eq, T>(cache: &Mutex<HashMap<K, Once<T>>>, key: K) -> Once<T> {
    Arc::clone(lock(cache).entry(key).or_default())
}

/// `path` relative to `base` when it lies under it.
fn pathdiff(path: &Path, base: &Path) -> Option<PathBuf> {
    let rel = path.strip_prefix(base).ok()?;
    Some(if rel.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        rel.to_path_buf()
    })
}

/// A header's bytes, if it is a readable file within `max_bytes`.
fn read_bytes(header: &Path, max_bytes: u64) -> Option<Vec<u8>> {
    let md = std::fs::metadata(header).ok()?;
    if !md.is_file() || md.len() > max_bytes {
        return None;
    }
    std::fs::read(header).ok()
}

/// The view of `header` that `frontend::parse_configured` parses, and what
/// its directives do to the configuration's macros.
fn configured_view(
    header: &Node,
    opts: &UnitOptions,
) -> Option<(frontend::configure::ConfiguredView, Vec<MacroEffect>)> {
    let source = read_source(&header.path, opts.max_file_bytes)?;
    let max_tokens = usize::try_from(opts.max_parse_operations).unwrap_or(usize::MAX);
    let base = frontend::MacroEnv::from_config(opts.env);
    let mut env = base.clone();
    let view = frontend::configure::configure_within(
        source.text.as_bytes(),
        opts.env,
        &mut env,
        max_tokens,
    );
    let effects = env.effects_since(&base);
    Some((view, effects))
}

/// Where a condition the rule for unknowns decided (`#ifdef NAME`, `#if
/// NAME`) names a macro the file's headers define (`effects`, in include
/// order): the file configured and parsed again with those macros, as a
/// preprocessor has them after the includes (the file's own directives
/// still come after them). `original` is the text as written, when the
/// first view differs from it. `None`: nothing to decide again.
pub fn configure_again(
    parsed: &ParsedFile,
    original: &mut Option<String>,
    effects: &[Arc<[MacroEffect]>],
    env: &PreprocEnv,
    max_operations: u64,
) -> Option<Result<(ParsedFile, Option<String>), frontend::NotParsed>> {
    if parsed.view.undecided.is_empty() || effects.is_empty() {
        return None;
    }
    let mut base = frontend::MacroEnv::from_config(env);
    let mut macros = base.clone();
    macros.apply_headers(effects);
    if !decides_a_condition(&parsed.view.undecided, &macros) {
        return None;
    }
    let written = original
        .as_deref()
        .unwrap_or(&parsed.source.text)
        .as_bytes();
    // Most such conditions pick the same code (a system-header pragma, a
    // guard of a config macro): the first parse stands. The directive pass
    // alone tells, for a fraction of a whole configuration's cost.
    let before = frontend::configure::branches(written, &mut base);
    let after = frontend::configure::branches(written, &mut macros.clone());
    if same_code(&before, &after) {
        return None;
    }
    let max_tokens = usize::try_from(max_operations).unwrap_or(usize::MAX);
    let view = frontend::configure::configure_within(written, env, &mut macros, max_tokens);
    let text = original
        .take()
        .unwrap_or_else(|| parsed.source.text.clone());
    let source = SourceFile::from_string(parsed.source.path.clone(), text, parsed.source.lossy);
    Some(frontend::parse_configured_view(
        source,
        view,
        max_operations,
    ))
}

/// Do two configured views of one text hold the same code? Both keep
/// every line where it was; they may differ in directive lines only
/// (`#pragma`s of a branch taken in one), which declare nothing.
fn same_code(a: &[u8], b: &[u8]) -> bool {
    let directive_or_blank =
        |line: &[u8]| (line.iter().find(|c| !c.is_ascii_whitespace())).is_none_or(|&c| c == b'#');
    a.len() == b.len()
        && (a.split(|&c| c == b'\n').zip(b.split(|&c| c == b'\n')))
            .all(|(x, y)| x == y || directive_or_blank(x) && directive_or_blank(y))
}

/// Does a condition the rule for unknowns decided name a macro the
/// headers applied to `macros` define or undefine?
fn decides_a_condition(undecided: &[UndecidedCondition], macros: &frontend::MacroEnv) -> bool {
    undecided.iter().any(|c| {
        (c.condition
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')))
        .any(|word| !word.is_empty() && macros.from_headers(word))
    })
}

fn read_source(header: &Path, max_bytes: u64) -> Option<SourceFile> {
    let bytes = read_bytes(header, max_bytes)?;
    Some(SourceFile::new(header.display().to_string(), &bytes))
}

fn read_scan(header: &Path, max_bytes: u64) -> Scan {
    let Some(bytes) = read_bytes(header, max_bytes) else {
        return Scan {
            bytes: None,
            directives: Vec::new(),
            has_warp_code: false,
        };
    };
    Scan {
        directives: resolve::directives(&String::from_utf8_lossy(&bytes)),
        has_warp_code: crate::prefilter::has_warp_code(&bytes),
        bytes: Some(bytes.len() as u64),
    }
}

impl Unit<'_> {
    /// Does the unit hold any header?
    pub fn has_headers(&self) -> bool {
        !self.headers.is_empty()
    }

    /// What the unit's headers do to the macros, in include order (a later
    /// header's definition wins): the macros a preprocessor has defined
    /// after the file's includes. Each header is configured on its own.
    pub fn header_effects(&self) -> Vec<Arc<[MacroEffect]>> {
        self.headers
            .iter()
            .map(|h| Arc::clone(&h.effects))
            .collect()
    }

    /// Header `i` parsed and lowered (once; `None` if it could not be).
    fn header(&self, i: usize) -> Option<&Arc<Lowered>> {
        let h = &self.headers[i];
        h.lowered
            .get_or_init(|| {
                let lazy = self.lazy.as_ref()?;
                lazy.session.lowered_node(&h.node, lazy.key, &lazy.opts)
            })
            .as_ref()
    }

    /// The macros of the unit's headers, by name; a later header's
    /// definition wins, as it would after the preprocessor saw both.
    /// `-D` definitions come first (any header may redefine them).
    ///
    /// Only names the file's lowering can look up are given: the words of
    /// its view and, transitively, of the bodies of the macros given. So
    /// only headers that may `#define` one of those are parsed, and every
    /// lookup answers as with all of them.
    pub fn macros(&self) -> Arc<HashMap<String, Arc<Macro>>> {
        let mut map: HashMap<String, Arc<Macro>> = HashMap::default();
        let mut names = self.main_words.clone();
        for (name, value) in &self.defines {
            names.extend(code_words(value));
            map.insert(
                name.clone(),
                Arc::new(Macro {
                    name: name.clone(),
                    params: None,
                    body: value.clone(),
                    body_start: 0,
                    define_start: 0,
                }),
            );
        }
        let n = self.headers.len();
        let mut taken = vec![false; n];
        // Macros whose bodies' words are in `names`.
        let mut expanded: HashSet<(usize, usize)> = HashSet::default();
        // Names added since the untaken headers were last tested.
        let mut fresh = names.clone();
        while !fresh.is_empty() {
            for (i, h) in self.headers.iter().enumerate() {
                if !taken[i] && h.words.may_define_any_macro(&fresh) {
                    taken[i] = true;
                }
            }
            fresh.clear();
            for i in (0..n).filter(|&i| taken[i]) {
                let Some(l) = self.header(i) else { continue };
                for (mi, m) in l.macros.iter().enumerate() {
                    if names.contains(&hash_word(m.name.as_bytes())) && expanded.insert((i, mi)) {
                        let body = code_words(&m.body);
                        fresh.extend(body.into_iter().filter(|w| !names.contains(w)));
                        names.extend(fresh.iter().copied());
                    }
                }
            }
        }
        for i in (0..n).filter(|&i| taken[i]) {
            let Some(l) = self.header(i) else { continue };
            for m in &l.macros {
                if names.contains(&hash_word(m.name.as_bytes())) {
                    map.insert(m.name.clone(), Arc::clone(m));
                }
            }
        }
        Arc::new(map)
    }

    /// Add what the headers give to `module`, the lowered file: their
    /// integral constants (the file's own win), and every header function
    /// the file calls, transitively (the first header in include order
    /// that defines a name gives all its overloads). Lambdas inside a
    /// linked function come along, re-indexed. Bounded by
    /// [`MAX_LINKED_FUNCTIONS`].
    ///
    /// Headers are parsed only where they may define a called function, or
    /// a constant or class block shape a name of the module can read.
    pub fn link(&self, module: &mut Module) {
        for (name, value) in &self.defines {
            if let Some(v) = parse_define_value(value) {
                module.constants.entry(name.clone()).or_insert(v);
            }
        }
        // Without functions nothing reads what the headers give, but a
        // launch of a header's kernel template with a class (a host-only
        // launcher file) reads its instance.
        if self.headers.is_empty() || (module.functions.is_empty() && module.launches.is_empty()) {
            return;
        }
        let own = Own {
            names: module.by_name.keys().cloned().collect(),
            scoped: (module.functions.iter())
                .filter_map(|f| {
                    let scope = f
                        .class
                        .clone()
                        .or(f.namespace.as_deref().map(str::to_owned))?;
                    Some((f.name.clone(), scope))
                })
                .collect(),
        };
        let mut wanted: Vec<Wanted> = Vec::new();
        let mut asked: HashSet<Wanted> = HashSet::default();
        for f in &module.functions {
            push_callees(f, &own, &mut asked, &mut wanted);
        }
        // A header's kernel template the file launches with a class
        // (`keep_step<QuarterWarp><<<…>>>`): its instance reads the class's
        // members, which this unit sees and the header's may not.
        for l in &module.launches {
            let w = (l.kernel.clone(), None, false);
            if l.template_args.iter().any(|a| a.class().is_some())
                && !own.names.contains(&l.kernel)
                && asked.insert(w.clone())
            {
                wanted.push(w);
            }
        }
        // (header, function in header) → index in `module.functions`.
        let mut placed: HashMap<(usize, usize), usize> = HashMap::default();
        let mut file_of_header: HashMap<usize, u32> = HashMap::default();
        let mut linked = 0usize;
        while let Some((name, class, scoped)) = wanted.pop() {
            // Keywords and a lambda called where it is written name no
            // function a header could define; a class's `operator()` is
            // looked for in that class only.
            let call_operator = name == CALL_OPERATOR && class.is_some();
            if !call_operator
                && (words::is_keyword_call(&name)
                    || words::KEYWORDS.contains(&name.as_str())
                    || !ir::lower::is_identifier(&name))
            {
                continue;
            }
            // A member called on an object, or a call naming its class or
            // namespace (`LowHalf::combine`): only that scope's, from a
            // header that names it.
            let found = (0..self.headers.len()).find_map(|hi| {
                let words = &self.headers[hi].words;
                // A class's `operator()` is in the body of the class: only
                // a header that may define the class can hold it (`Sum`
                // is a word of most of CUB, a class of few headers).
                let holds_class = |c: &String| {
                    if call_operator {
                        words.may_define_class(c)
                    } else {
                        words.has(c)
                    }
                };
                if !words.may_define_function(&name)
                    || class.as_ref().is_some_and(|c| !holds_class(c))
                {
                    return None;
                }
                let l = self.header(hi)?;
                let idxs: Vec<usize> = (l.module.by_name.get(&name)?.iter().copied())
                    .filter(|&i| {
                        class
                            .as_ref()
                            .is_none_or(|c| l.module.functions[i].in_scope(c))
                    })
                    .collect();
                (!idxs.is_empty()).then_some((hi, l, idxs))
            });
            let Some((hi, l, idxs)) = found else {
                // A scope no header's function has (a namespace alias,
                // `using namespace`): any function of that name.
                let any = (name.clone(), None, false);
                if scoped && !own.names.contains(&name) && asked.insert(any.clone()) {
                    wanted.push(any);
                }
                continue;
            };
            for fi in idxs {
                // Copy the function and the lambdas it holds (an explicit
                // worklist: lambdas may nest).
                let mut todo = vec![fi];
                while let Some(fi) = todo.pop() {
                    if placed.contains_key(&(hi, fi)) || linked >= MAX_LINKED_FUNCTIONS {
                        continue;
                    }
                    let file = *file_of_header.entry(hi).or_insert_with(|| {
                        module.headers.push(Arc::clone(&l.source));
                        module.headers.len() as u32
                    });
                    let mut f: Function = l.module.functions[fi].clone();
                    f.file = file;
                    placed.insert((hi, fi), module.functions.len());
                    linked += 1;
                    for e in &f.exprs {
                        if let ExprKind::Lambda(l) = e.kind
                            && !placed.contains_key(&(hi, l))
                        {
                            todo.push(l);
                        }
                    }
                    push_callees(&f, &own, &mut asked, &mut wanted);
                    module.functions.push(f);
                }
            }
        }
        // Lambda indices point into their header's module: remap them once
        // (a lambda that did not fit the budget becomes opaque, never a
        // dangling index).
        for (&(hi, _), &at) in &placed {
            module.functions[at].map_lambdas(|l| placed.get(&(hi, l)).copied());
        }
        module.index_functions();
        // Before the constants: an instance reads the members of the class
        // it names (`QuarterWarp::kLanes`).
        ir::lower::instantiate_linked(module);
        self.link_constants(module);
        module.settle_class_constants();
    }

    /// The headers' constants and class block shapes that a name of the
    /// module can read, the first header in include order winning (the
    /// file's own first). A name the module reads comes from the file's
    /// view, an inherited macro's body, or a linked function's IR; a
    /// header is parsed only while it may define one still unresolved.
    fn link_constants(&self, module: &mut Module) {
        // After lowering, constants are read only by the names the
        // functions' IR spells (variables, members, template arguments,
        // scoped names…): not by every word of the file or of a linked
        // function's header, which had half a unit's headers parsed for
        // constants nothing reads.
        let mut names: HashSet<u64> = HashSet::default();
        // Scoped keys (`Wide::kLanes`, hashed whole, with the hashes of
        // their scope and name): a linked function's reads of its
        // header's classes, and the file's reads of classes it does not
        // define. Dependent names are no class's.
        let mut keys: HashMap<u64, (u64, u64)> = HashMap::default();
        let mut add_key = |key: &str| {
            if let Some((scope, name)) = key.split_once("::")
                && !name.contains("::")
            {
                let hashes = (hash_word(scope.as_bytes()), hash_word(name.as_bytes()));
                keys.insert(hash_word(key.as_bytes()), hashes);
            }
        };
        for f in &module.functions {
            f.for_each_name(|name| {
                names.extend(words::name_words(name));
                if name.contains("::") && !f.dependent_names.iter().any(|d| d == name) {
                    add_key(name);
                }
            });
            for (_, k) in &f.class_constants {
                add_key(k);
            }
        }
        // Zero-argument calls a header's constant `constexpr` function
        // may answer, by key (`row_width()`, `Layout::width()`): the
        // hashes of the class, if scoped, and of the function's name.
        let mut getters: HashMap<u64, (Option<u64>, u64)> = (module.getter_calls())
            .flat_map(|(_, _, keys)| keys)
            .map(|(key, scope, name)| {
                let scope = scope.map(|s| hash_word(s.as_bytes()));
                (
                    hash_word(key.as_bytes()),
                    (scope, hash_word(name.as_bytes())),
                )
            })
            .collect();
        for k in module.constants.keys() {
            names.remove(&hash_word(k.as_bytes()));
            keys.remove(&hash_word(k.as_bytes()));
            getters.remove(&hash_word(k.as_bytes()));
        }
        for k in KEYWORD_HASHES.get_or_init(keyword_hashes) {
            names.remove(k);
        }
        let mut classes: HashSet<&str> = module
            .functions
            .iter()
            .filter_map(|f| f.class.as_deref())
            .filter(|c| !module.class_block_shapes.contains_key(*c))
            .collect();
        let mut constants: Vec<(String, i64)> = Vec::new();
        let mut shapes: Vec<(String, ([u32; 3], usize))> = Vec::new();
        for (hi, h) in self.headers.iter().enumerate() {
            if names.is_empty() && keys.is_empty() && getters.is_empty() && classes.is_empty() {
                break;
            }
            // A scoped key's header names its class and may define the
            // constant.
            let want_constants = h.words.may_define_any_constant(&names)
                || keys.values().any(|&(c, k)| h.words.may_define_scoped(c, k))
                || getters
                    .values()
                    .any(|&(c, n)| h.words.may_define_getter(c, n));
            // A class's block shape is what its `get_block_shape()` returns.
            let want_shapes = !classes.is_empty()
                && h.words
                    .has(crate::frontend::host_bodies::BLOCK_SHAPE_GETTER)
                && classes.iter().any(|c| h.words.has(c));
            if !want_constants && !want_shapes {
                continue;
            }
            let Some(l) = self.header(hi) else { continue };
            if want_constants {
                let found: Vec<u64> = l
                    .module
                    .constants
                    .iter()
                    .filter_map(|(k, v)| {
                        let key = hash_word(k.as_bytes());
                        let wanted = if k.ends_with("()") {
                            getters.contains_key(&key)
                        } else if k.contains("::") {
                            keys.contains_key(&key)
                        } else {
                            names.contains(&key)
                        };
                        wanted.then(|| {
                            constants.push((k.clone(), *v));
                            key
                        })
                    })
                    .collect();
                for key in found {
                    names.remove(&key);
                    keys.remove(&key);
                    getters.remove(&key);
                }
            }
            if want_shapes {
                for (k, v) in &l.module.class_block_shapes {
                    if classes.remove(k.as_str()) {
                        shapes.push((k.clone(), *v));
                    }
                }
            }
        }
        // A constant `constexpr` function linked from a header: the
        // calls of it become its value, as the file's own did in lowering.
        let getters_linked = constants.iter().any(|(k, _)| k.ends_with("()"));
        for (k, v) in constants {
            module.constants.entry(k).or_insert(v);
        }
        if getters_linked {
            module.settle_getter_calls();
        }
        for (k, v) in shapes {
            module.class_block_shapes.entry(k).or_insert(v);
        }
    }
}

static KEYWORD_HASHES: OnceLock<Vec<u64>> = OnceLock::new();

fn keyword_hashes() -> Vec<u64> {
    words::KEYWORDS
        .iter()
        .map(|w| hash_word(w.as_bytes()))
        .collect()
}

/// Queue the names `f` calls that the file does not define itself.
/// A function a module calls and a header may define: its name, and for a
/// member called on an object, the object's class.
/// A function to link: its name, and the class of the object it is
/// called on or the scope the call names (then `true`: where no header
/// has that scope's, any function of the name).
type Wanted = (String, Option<String>, bool);

/// The module's own functions: their names, and (name, class or
/// namespace) for those a scoped call can name.
struct Own {
    names: HashSet<String>,
    scoped: HashSet<(String, String)>,
}

fn push_callees(f: &Function, own: &Own, asked: &mut HashSet<Wanted>, wanted: &mut Vec<Wanted>) {
    for e in &f.exprs {
        // Free calls, and member calls on objects the module declares
        // (`queue.run()`), whose class may be a header's.
        let ExprKind::Call(c) = &e.kind else {
            continue;
        };
        let w = match (&c.receiver, &c.object) {
            (_, Some(o)) => (c.name.clone(), Some(o.class.clone()), false),
            (Some(_), None) => continue,
            (None, None) => match ir::call_scope(c) {
                Some(scope) => (c.name.clone(), Some(scope.to_owned()), true),
                None => (c.name.clone(), None, false),
            },
        };
        // The file's own function of that name, or (for a call naming a
        // class or namespace, `LowHalf::combine`) of that scope.
        let own_has = match &w.1 {
            Some(scope) if w.2 || w.0 == CALL_OPERATOR => {
                own.scoped.contains(&(w.0.clone(), scope.clone()))
            }
            _ => own.names.contains(&c.name),
        };
        if !own_has && asked.insert(w.clone()) {
            wanted.push(w);
        }
    }
    // A function object passed to a callee that may call it: its class's
    // `operator()`, unless the file defines that class's.
    for &(_, k) in &f.passed_objects {
        let class = f.constructions[k].class.clone();
        let w = (CALL_OPERATOR.to_owned(), Some(class.clone()), false);
        if !own.scoped.contains(&(CALL_OPERATOR.to_owned(), class)) && asked.insert(w.clone()) {
            wanted.push(w);
        }
    }
}

fn parse_define_value(v: &str) -> Option<i64> {
    let t = v.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    t.parse().ok()
}

/// Includes no file resolved to, counted over a run: name → units.
pub type MissingCounts = BTreeMap<String, usize>;

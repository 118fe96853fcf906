//! One preprocessor configuration: the view of a file that the compiler
//! sees for the configured target, with every byte offset kept.
//!
//! [`configure`] decides every `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` for
//! one configuration (device compilation for the target architecture, the
//! toolkit version, `-D` flags and config `defines`, and the macros defined
//! so far), and returns the file with the branches not taken and all
//! conditional directive lines overwritten by spaces. Newlines are kept, so
//! byte offsets, lines and columns are those of the original file.
//!
//! It also rewrites what tree-sitter cannot parse but a preprocessor would
//! have removed:
//! - *attribute macros*: object-like macros whose expansion is only
//!   declaration specifiers (`__host__ __device__`, `__forceinline__`,
//!   `inline`, `static`, `__launch_bounds__(…)`, …) or nothing. A use is
//!   overwritten by its expansion when that fits in the name's bytes, else
//!   by the device keywords of the expansion (`__global__`, `__device__`)
//!   when they fit, else blanked and noted in [`ConfiguredView::qualifiers`].
//!   When the definition is not known, an all-caps name in declaration-
//!   specifier position is taken for an attribute macro by
//!   [`looks_like_attribute`]'s rule, and a name that says `DEVICE`,
//!   `GLOBAL` or `KERNEL` keeps that meaning.
//! - *statement-like macro calls*: an all-caps name, with or without an
//!   argument list, alone at the start of a statement and not followed by
//!   `;` (`CUTLASS_PRAGMA_UNROLL`, `CUB_STATIC_ASSERT(x, "…")`), is blanked.
//!
//! Undecidable conditions follow one rule (see README, "Preprocessor"):
//! - an identifier that is not a macro is 0 (as in the C standard) and
//!   `defined(NAME)` of a name never defined is false; such a condition is
//!   decided, and listed in [`ConfiguredView::undecided`] when an unknown
//!   identifier's value mattered;
//! - a condition that cannot be evaluated at all (`__has_include(…)`,
//!   `__has_builtin(…)`, a call of a function-like macro that is not known,
//!   a syntax error) is *true* when no earlier branch of its chain was taken
//!   (so the first such branch is analysed) and is listed as undecided.
//!
//! Cost: one forward pass over the bytes for directives, one over the tokens
//! for macros; the `#if` nesting lives in an explicit stack; expression
//! evaluation and macro expansion are bounded ([`MAX_EXPR_DEPTH`],
//! [`MAX_EXPANDED_TOKENS`]).

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use super::PreprocEnv;
use super::host_bodies::Bodies;

/// The configuration every condition is decided for.
pub type PpConfig = PreprocEnv;

/// Deeper `#if` expressions than this are undecidable.
const MAX_EXPR_DEPTH: usize = 64;
/// A condition whose macro expansion grows past this many tokens is
/// undecidable (stops `#define A A A` style blow-ups).
const MAX_EXPANDED_TOKENS: usize = 4096;
/// Expansion rounds of one attribute macro (macros naming macros).
const MAX_ATTRIBUTE_DEPTH: usize = 8;

/// One macro definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroDef {
    /// `Some` for function-like macros.
    pub params: Option<Vec<String>>,
    /// The replacement list, comments removed and continuations joined.
    pub body: String,
}

/// The macros defined so far in a translation unit. Cloning is cheap (one
/// reference count); the first `#define` after a clone copies the table.
#[derive(Debug, Clone, Default)]
pub struct MacroEnv {
    macros: Arc<HashMap<String, MacroDef>>,
    /// Names `#undef`ed while not defined: known to be undefined, unlike a
    /// name never mentioned, which a header the unit does not apply to the
    /// file's conditions may define (see [`MacroEnv::is_known`]).
    undefined: Arc<rustc_hash::FxHashSet<String>>,
    /// What the file's headers define (`None`: undefine), seen by its
    /// conditions only ([`MacroEnv::apply_headers`]): rewriting attribute
    /// and statement macros reads the file's own and the configuration's.
    /// Each header's effects, sorted by name, in include order.
    headers: Arc<Vec<Arc<[MacroEffect]>>>,
}

impl MacroEnv {
    /// The environment a configuration starts from: the compiler's
    /// predefined macros for the device pass, then `-D`/`defines`.
    pub fn from_config(config: &PpConfig) -> MacroEnv {
        let mut env = MacroEnv::default();
        let (major, minor) = config.cuda_version;
        let arch = config.min_arch.max(0);
        for (name, value) in [
            ("__CUDACC__", "1".to_owned()),
            ("__NVCC__", "1".to_owned()),
            ("__CUDA_ARCH__", arch.to_string()),
            ("__CUDACC_VER_MAJOR__", major.to_string()),
            ("__CUDACC_VER_MINOR__", minor.to_string()),
            ("__CUDACC_VER_BUILD__", "0".to_owned()),
            ("CUDA_VERSION", (major * 1000 + minor * 10).to_string()),
            ("CUDART_VERSION", (major * 1000 + minor * 10).to_string()),
            ("__cplusplus", "201703L".to_owned()),
            ("__GNUC__", "12".to_owned()),
            ("__GNUC_MINOR__", "0".to_owned()),
            ("__linux__", "1".to_owned()),
            ("__x86_64__", "1".to_owned()),
        ] {
            env.define(name, None, value);
        }
        // Other compilers' and platforms' predefined macros: the device
        // pass knows they are not defined (a HIP branch is not compiled).
        for name in [
            "__HIP__",
            "__HIPCC__",
            "__HIPCC_RTC__",
            "__HIP_DEVICE_COMPILE__",
            "__HIP_PLATFORM_AMD__",
            "__HIP_PLATFORM_HCC__",
            "__CUDACC_RTC__",
            "__CUDACC_DEBUG__",
            "__clang__",
            "__INTEL_COMPILER",
            "__NVCOMPILER",
            "_MSC_VER",
            "_WIN32",
            "_WIN64",
            "__APPLE__",
        ] {
            env.undef(name);
        }
        for d in &config.defines {
            let (name, value) = match d.split_once('=') {
                Some((n, v)) => (n.trim(), v.trim().to_owned()),
                None => (d.trim(), "1".to_owned()),
            };
            if is_identifier(name) {
                env.define(name, None, value);
            }
        }
        env
    }

    pub fn define(&mut self, name: &str, params: Option<Vec<String>>, body: String) {
        Arc::make_mut(&mut self.macros).insert(name.to_owned(), MacroDef { params, body });
    }

    pub fn undef(&mut self, name: &str) {
        if self.macros.contains_key(name) {
            Arc::make_mut(&mut self.macros).remove(name);
        }
        if !self.undefined.contains(name) {
            Arc::make_mut(&mut self.undefined).insert(name.to_owned());
        }
    }

    /// Has the name been defined or `#undef`ed? `#ifdef`/`defined()` of a
    /// name that never was is false by the rule for unknowns (the file's
    /// headers' macros do not decide its conditions), not by a known fact.
    pub fn is_known(&self, name: &str) -> bool {
        self.macros.contains_key(name)
            || self.undefined.contains(name)
            || self.header_effect(name).is_some()
    }

    /// The function-like macros whose body launches a kernel (`<<<` or a
    /// runtime launch, `cudaLaunchKernel…`), directly or through the
    /// function-like macros it uses, to a few levels: a host body using
    /// one launches too (`host_bodies`), sorted.
    pub fn launch_macros(&self) -> Vec<&str> {
        let function_like = || (self.macros.iter()).filter(|(_, m)| m.params.is_some());
        let mut names: Vec<&str> = function_like()
            .filter(|(_, m)| launches_in_body(&m.body))
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort_unstable();
        if names.is_empty() {
            return names;
        }
        // Each round adds the macros using one found before: as deep as
        // `ir::lower::macro_launch` expands them.
        for _ in 0..3 {
            let mut users: Vec<&str> = function_like()
                .filter(|(n, _)| names.binary_search(&n.as_str()).is_err())
                .filter(|(_, m)| {
                    identifiers(m.body.as_bytes()).into_iter().any(|(a, b)| {
                        (m.body.get(a..b)).is_some_and(|w| names.binary_search(&w).is_ok())
                    })
                })
                .map(|(n, _)| n.as_str())
                .collect();
            if users.is_empty() {
                break;
            }
            names.append(&mut users);
            names.sort_unstable();
        }
        names
    }

    pub fn get(&self, name: &str) -> Option<&MacroDef> {
        self.macros.get(name)
    }

    pub fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name)
    }

    pub fn len(&self) -> usize {
        self.macros.len()
    }

    /// What a file's directives did to `base` to make this environment:
    /// each name it defined differently, or undefined, once, by name.
    pub fn effects_since(&self, base: &MacroEnv) -> Vec<MacroEffect> {
        let mut out: Vec<MacroEffect> = (self.macros.iter())
            .filter(|(name, def)| base.get(name) != Some(def))
            .map(|(name, def)| MacroEffect {
                name: name.clone(),
                def: Some(def.clone()),
            })
            .collect();
        // Undefined: a macro of `base` it removed, or a name it `#undef`ed.
        let removed = base.macros.keys().filter(|n| !self.macros.contains_key(*n));
        let undefined_here = (self.undefined.iter())
            .filter(|n| !self.macros.contains_key(*n) && !base.undefined.contains(*n));
        out.extend(removed.chain(undefined_here).map(|name| MacroEffect {
            name: name.clone(),
            def: None,
        }));
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out.dedup_by(|a, b| a.name == b.name);
        out
    }

    /// Let the file's conditions see what its headers' directives do
    /// (`effects`, in include order: a later one wins). The file's own
    /// `#define`s and `#undef`s come after them.
    /// Each header's effects must be sorted by name, as
    /// [`MacroEnv::effects_since`] gives them.
    pub fn apply_headers(&mut self, effects: &[Arc<[MacroEffect]>]) {
        Arc::make_mut(&mut self.headers).extend(effects.iter().cloned());
    }

    /// Does a header say what `name` is (define or undefine it)?
    pub fn from_headers(&self, name: &str) -> bool {
        self.header_effect(name).is_some()
    }

    /// What the last header that mentions `name` does to it.
    fn header_effect(&self, name: &str) -> Option<&MacroEffect> {
        (self.headers.iter().rev()).find_map(|h| {
            h.binary_search_by(|e| e.name.as_str().cmp(name))
                .ok()
                .map(|i| &h[i])
        })
    }

    /// The definition a condition sees: the file's (or the
    /// configuration's), else its headers'.
    fn condition_def(&self, name: &str) -> Option<&MacroDef> {
        match self.macros.get(name) {
            Some(def) => Some(def),
            None if self.undefined.contains(name) => None,
            None => self.header_effect(name).and_then(|e| e.def.as_ref()),
        }
    }

    /// Is the name defined, for a condition?
    fn condition_defined(&self, name: &str) -> bool {
        self.condition_def(name).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.macros.is_empty()
    }
}

/// A header's net effect on one macro: defined as `def`, or undefined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroEffect {
    pub name: String,
    pub def: Option<MacroDef>,
}

/// An `#include` in a branch the configuration compiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncludeDirective {
    /// The path as written, without its delimiters.
    pub spelling: String,
    /// `<…>` rather than `"…"`.
    pub angled: bool,
    /// Byte offset of the `#`.
    pub offset: usize,
}

/// Why a condition was not decided by known values alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undecidable {
    /// An identifier that is not a macro was taken as 0.
    UnknownIdentifier,
    /// The condition could not be evaluated (`__has_include`, an unknown
    /// function-like macro, unreadable syntax); its branch was taken if no
    /// earlier one was.
    Unevaluable,
}

/// A condition decided by the rule for unknowns, not by known values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndecidedCondition {
    /// Byte offset of the directive's `#`.
    pub offset: usize,
    /// The condition as written (comments removed).
    pub condition: String,
    pub why: Undecidable,
    /// Whether its branch was taken.
    pub taken: bool,
}

/// A branch taken only by the rule for unknowns, whose sibling branches call
/// `_sync` primitives: a portability dispatch the configuration did not
/// decide (`#if USE_SYNC … __shfl_sync … #else … __shfl … #endif`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndecidedDispatch {
    /// Byte range of the taken branch.
    pub taken: std::ops::Range<usize>,
    /// The `_sync` (and `__syncwarp`) identifiers its siblings call.
    pub sibling_sync_calls: Vec<String>,
}

/// Declaration specifiers of an attribute macro that did not fit in place
/// of its name (the name was blanked; the function still has them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualifierNote {
    /// Byte range of the blanked macro name.
    pub span: std::ops::Range<usize>,
    /// `__global__`, `__device__` and `__host__` of the expansion.
    pub qualifiers: Vec<&'static str>,
}

/// What [`configure`] produced.
#[derive(Debug, Clone, Default)]
pub struct ConfiguredView {
    /// The text to parse: same length and newlines as the input.
    pub text: String,
    /// `#include`s in branches the configuration compiles, in order.
    pub includes: Vec<IncludeDirective>,
    pub undecided: Vec<UndecidedCondition>,
    pub dispatches: Vec<UndecidedDispatch>,
    pub qualifiers: Vec<QualifierNote>,
    /// The file includes HIP's runtime (`<hip/…>`) in a compiled branch.
    pub includes_hip_runtime: bool,
    /// Offset of the first AMD-only identifier (`__builtin_amdgcn_…`,
    /// `__hip_…` types) in code the configuration compiles for certain:
    /// nvcc cannot compile such a file, so it is HIP code whatever it
    /// includes (a hipified source). Code in a branch chosen by the rule for
    /// undecidable conditions does not count: `#if __has_builtin(…)` may
    /// guard it.
    pub amd_only_at: Option<usize>,
    /// Byte ranges of the branches taken in chains some undecidable
    /// condition decided.
    pub undecided_taken: Vec<std::ops::Range<usize>>,
    /// Attribute macros and statement-like macro calls blanked or rewritten.
    pub macro_rewrites: usize,
    /// Offsets of the `{` of host function bodies blanked
    /// (`host_bodies.rs`), ascending.
    pub host_bodies: Vec<usize>,
    /// Where the view was cut because the whole of it could not be parsed
    /// within the budget (`cut.rs`): the text from here on is blank.
    pub cut_at: Option<usize>,
}

impl ConfiguredView {
    /// The device qualifiers noted for blanked macros in `range` (a
    /// function's specifiers, before its declarator).
    pub fn qualifiers_in(&self, range: std::ops::Range<usize>) -> Vec<&'static str> {
        let mut out = Vec::new();
        for q in &self.qualifiers {
            if q.span.start >= range.start && q.span.end <= range.end {
                out.extend(q.qualifiers.iter().copied());
            }
        }
        out
    }

    /// Is `offset` in a branch taken only by the rule for unknowns whose
    /// sibling calls `sync_name`?
    pub fn in_undecided_dispatch(&self, offset: usize, sync_name: &str) -> bool {
        self.dispatches.iter().any(|d| {
            d.taken.contains(&offset) && d.sibling_sync_calls.iter().any(|s| s == sync_name)
        })
    }
}

/// Decide the file's conditionals for `config`, starting from the macros in
/// `env` and updating it with the `#define`s/`#undef`s of taken branches.
pub fn configure(text: &[u8], config: &PpConfig, env: &mut MacroEnv) -> ConfiguredView {
    configure_within(text, config, env, usize::MAX)
}

/// [`configure`], rewriting macros only when the file has at most
/// `max_tokens` code tokens. tree-sitter shifts at least one operation per
/// token, so a file with more tokens than its parse budget allows is not
/// parsed anyway; this keeps such files from costing a token table.
pub fn configure_within(
    text: &[u8],
    config: &PpConfig,
    env: &mut MacroEnv,
    max_tokens: usize,
) -> ConfiguredView {
    configure_view(text, config, env, max_tokens, Some(Bodies::Host))
}

/// [`configure_within`] keeping host function bodies as written: the view
/// launch contracts read (a host launcher's `cudaLaunchKernelEx` and its
/// block getters are in host bodies that lowering would skip). Device-only
/// bodies that launch nothing are blanked instead: contracts read host code.
pub fn configure_keeping_host_bodies(
    text: &[u8],
    config: &PpConfig,
    env: &mut MacroEnv,
    max_tokens: usize,
) -> ConfiguredView {
    configure_view(text, config, env, max_tokens, Some(Bodies::DeviceOnly))
}

fn configure_view(
    text: &[u8],
    config: &PpConfig,
    env: &mut MacroEnv,
    max_tokens: usize,
    blank_bodies: Option<Bodies>,
) -> ConfiguredView {
    let _ = config; // The configuration's macros are in `env` (see `MacroEnv::from_config`).
    let mut view = ConfiguredView::default();
    let mut out = select_branches(text, env, &mut view);
    let mut toks = tokens(&out, max_tokens);
    if let Some(toks) = &toks {
        view.amd_only_at = first_amd_only_identifier(&out, toks, &view.undecided_taken);
        view.macro_rewrites = rewrite_macros(&mut out, toks, env, &mut view.qualifiers);
        view.macro_rewrites += rewrite_grammar_gaps(&mut out, toks);
    }
    // The rewrites changed tokens (blanked macro calls), so lex again
    // (where there were any).
    if let Some(which) = blank_bodies {
        if view.macro_rewrites > 0 || toks.is_none() {
            toks = tokens(&out, max_tokens);
        }
        if let Some(toks) = &toks {
            let launch_macros = env.launch_macros();
            let blanked = super::host_bodies::blank_bodies(
                &mut out,
                toks,
                &view.qualifiers,
                &launch_macros,
                which,
            );
            if which == Bodies::Host {
                view.host_bodies = blanked;
            }
        }
    }
    if let Some(toks) = &toks {
        view.macro_rewrites += blank_lambda_spaces(&mut out, toks);
    }
    // A view past the parse budget keeps whole declarations up to a cut.
    if let Some(toks) = &toks
        && let Some(cut) = super::cut::plan(&out, toks, max_tokens as u64)
    {
        super::cut::apply(&mut out, &cut);
        view.cut_at = Some(cut.at);
    }
    // Only whole UTF-8 sequences were overwritten, by ASCII.
    view.text = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    view
}

/// Overwrite `out[from..to]` with spaces, keeping line terminators.
fn blank(out: &mut [u8], from: usize, to: usize) {
    let to = to.min(out.len());
    for b in out.iter_mut().take(to).skip(from) {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// One conditional chain being read.
struct Frame {
    /// The chain itself is in a compiled region.
    outer_active: bool,
    /// The current branch is compiled.
    active: bool,
    taken_any: bool,
    /// Some branch was decided by the rule for unknowns.
    undecided: bool,
    branches: Vec<Branch>,
}

struct Branch {
    start: usize,
    end: usize,
    taken: bool,
}

impl Branch {
    fn new(start: usize, taken: bool) -> Branch {
        Branch {
            start,
            end: start,
            taken,
        }
    }
}

impl Frame {
    fn new(outer_active: bool, _start: usize, _end: usize) -> Frame {
        Frame {
            outer_active,
            active: false,
            taken_any: false,
            undecided: false,
            branches: Vec::new(),
        }
    }

    fn enter(&mut self, taken: bool, why: Option<Undecidable>, d: &Directive) {
        self.active = taken;
        self.taken_any |= taken;
        self.undecided |= why.is_some();
        self.branches.push(Branch::new(d.end, taken));
    }

    fn close_branch(&mut self, at: usize) {
        if let Some(b) = self.branches.last_mut() {
            b.end = at;
        }
    }
}

fn record_undecided(
    view: &mut ConfiguredView,
    d: &Directive,
    taken: bool,
    why: Option<Undecidable>,
) {
    if let Some(why) = why {
        view.undecided.push(UndecidedCondition {
            offset: d.start,
            condition: d.args.trim().to_owned(),
            why,
            taken,
        });
    }
}

/// Identifiers only AMD's compilers know: builtins of the amdgcn target and
/// HIP's own types. Outside `ranges`, in the configured view `out`.
fn first_amd_only_identifier(
    out: &[u8],
    toks: &[CodeTok],
    ranges: &[std::ops::Range<usize>],
) -> Option<usize> {
    toks.iter()
        .filter(|t| t.kind == TokKind::Ident)
        .filter(|t| {
            let name = &out[t.start..t.end];
            name.starts_with(b"__builtin_amdgcn_") || name.starts_with(b"__hip_")
        })
        .map(|t| t.start)
        .find(|&at| !ranges.iter().any(|r| r.contains(&at)))
}

/// A chain decided by the rule for unknowns: note its taken branch, and
/// which `_sync` primitives its untaken branches call, for the taken one.
fn record_dispatch(view: &mut ConfiguredView, frame: &Frame, text: &[u8]) {
    let Some(taken) = frame.branches.iter().find(|b| b.taken) else {
        return;
    };
    view.undecided_taken.push(taken.start..taken.end);
    let mut sync_calls: Vec<String> = Vec::new();
    for b in frame.branches.iter().filter(|b| !b.taken) {
        let body = text.get(b.start..b.end).unwrap_or(&[]);
        for (s, e) in identifiers(body) {
            let name = String::from_utf8_lossy(&body[s..e]);
            if (name.starts_with("__") && name.ends_with("_sync") || name == "__syncwarp")
                && !sync_calls.iter().any(|c| *c == name)
            {
                sync_calls.push(name.into_owned());
            }
        }
    }
    if !sync_calls.is_empty() {
        view.dispatches.push(UndecidedDispatch {
            taken: taken.start..taken.end,
            sibling_sync_calls: sync_calls,
        });
    }
}

/// A preprocessor directive: `#` to the end of its logical line.
#[derive(Debug)]
struct Directive {
    /// Offset of the `#`.
    start: usize,
    /// Offset of the line terminator that ends it (or of the end of text).
    end: usize,
    name: String,
    /// What follows the name, comments replaced by spaces, continuations
    /// joined.
    args: String,
}

/// Find every directive in one forward pass, skipping comments, string and
/// character literals (raw strings included) outside directives.
fn scan_directives(text: &[u8]) -> Vec<Directive> {
    let mut out = Vec::new();
    let n = text.len();
    let mut i = 0usize;
    let mut line_start = true;
    while i < n {
        let c = text[i];
        if line_start {
            if matches!(c, b' ' | b'\t' | b'\x0c' | b'\r' | b'\x0b') {
                i += 1;
                continue;
            }
            line_start = false;
            if c == b'#' {
                let d = read_directive(text, i);
                i = d.end;
                out.push(d);
                continue;
            }
        }
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'/' if text.get(i + 1) == Some(&b'/') => i = line_comment_end(text, i),
            b'/' if text.get(i + 1) == Some(&b'*') => i = block_comment_end(text, i),
            b'"' => i = string_end(text, i),
            b'\'' if !(i > 0 && text[i - 1].is_ascii_alphanumeric()) => i = char_end(text, i),
            b'\\' if text.get(i + 1) == Some(&b'\n') => i += 2,
            _ => i += 1,
        }
    }
    out
}

/// The end of a `//` comment: its line terminator (continuations included).
pub(super) fn line_comment_end(text: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < text.len() {
        if text[i] == b'\n' && !continued(text, i) {
            return i;
        }
        i += 1;
    }
    i
}

/// Is the newline at `nl` escaped by a backslash (`\` or `\` CR)?
fn continued(text: &[u8], nl: usize) -> bool {
    let mut j = nl;
    if j > 0 && text[j - 1] == b'\r' {
        j -= 1;
    }
    j > 0 && text[j - 1] == b'\\'
}

pub(super) fn block_comment_end(text: &[u8], from: usize) -> usize {
    match memchr::memmem::find(&text[(from + 2).min(text.len())..], b"*/") {
        Some(k) => from + 2 + k + 2,
        None => text.len(),
    }
}

/// The end of a string literal starting at the `"` at `from` (after the
/// closing quote). Raw strings `R"d(…)d"` run to their delimiter; ordinary
/// ones stop at an unescaped newline.
pub(super) fn string_end(text: &[u8], from: usize) -> usize {
    if from > 0
        && text[from - 1] == b'R'
        && !(from > 1
            && is_ident_byte(text[from - 2])
            && !matches!(text[from - 2], b'u' | b'U' | b'L' | b'8'))
        && let Some(open) = text[from + 1..].iter().take(17).position(|&b| b == b'(')
    {
        let delim = &text[from + 1..from + 1 + open];
        let mut close = Vec::with_capacity(delim.len() + 2);
        close.push(b')');
        close.extend_from_slice(delim);
        close.push(b'"');
        let body = from + 1 + open + 1;
        return match memchr::memmem::find(&text[body.min(text.len())..], &close) {
            Some(k) => body + k + close.len(),
            None => text.len(),
        };
    }
    quoted_end(text, from, b'"')
}

pub(super) fn char_end(text: &[u8], from: usize) -> usize {
    quoted_end(text, from, b'\'')
}

fn quoted_end(text: &[u8], from: usize, quote: u8) -> usize {
    let mut i = from + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && !b[0].is_ascii_digit() && b.iter().all(|&c| is_ident_byte(c))
}

/// Read the directive whose `#` is at `hash`.
fn read_directive(text: &[u8], hash: usize) -> Directive {
    let n = text.len();
    let mut logical: Vec<u8> = Vec::new();
    let mut i = hash + 1;
    let end;
    loop {
        if i >= n {
            end = n;
            break;
        }
        match text[i] {
            b'\n' if !continued(text, i) => {
                end = i;
                break;
            }
            b'\\' if text.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if text.get(i + 1) == Some(&b'\r') && text.get(i + 2) == Some(&b'\n') => i += 3,
            b'\r' | b'\n' => i += 1,
            b'/' if text.get(i + 1) == Some(&b'/') => {
                let e = line_comment_end(text, i);
                i = e;
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(text, i);
                logical.push(b' ');
            }
            q @ (b'"' | b'\'') => {
                let e = if q == b'"' {
                    string_end(text, i)
                } else {
                    char_end(text, i)
                };
                let e = e.max(i + 1).min(n);
                logical.extend_from_slice(&text[i..e]);
                i = e;
            }
            c => {
                logical.push(c);
                i += 1;
            }
        }
    }
    let logical = String::from_utf8_lossy(&logical).into_owned();
    let trimmed = logical.trim_start();
    let name_len = trimmed.bytes().take_while(|&b| is_ident_byte(b)).count();
    Directive {
        start: hash,
        end,
        name: trimmed[..name_len].to_owned(),
        args: trimmed[name_len..].to_owned(),
    }
}

fn first_identifier(s: &str) -> &str {
    let s = s.trim_start();
    let len = s.bytes().take_while(|&b| is_ident_byte(b)).count();
    &s[..len]
}

fn define(d: &Directive, env: &mut MacroEnv) {
    let args = d.args.trim_start();
    let name = first_identifier(args);
    if !is_identifier(name) {
        return;
    }
    let rest = &args[name.len()..];
    if let Some(params) = rest.strip_prefix('(') {
        let Some(close) = params.find(')') else {
            return;
        };
        let list = params[..close]
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        env.define(name, Some(list), params[close + 1..].trim().to_owned());
    } else {
        env.define(name, None, rest.trim().to_owned());
    }
}

fn read_include(d: &Directive) -> Option<IncludeDirective> {
    let a = d.args.trim();
    let (close, angled) = match a.as_bytes().first()? {
        b'<' => ('>', true),
        b'"' => ('"', false),
        _ => return None,
    };
    let rest = &a[1..];
    let end = rest.find(close)?;
    Some(IncludeDirective {
        spelling: rest[..end].to_owned(),
        angled,
        offset: d.start,
    })
}

/// Decide one `#if`/`#ifdef`/`#ifndef`/`#elif…` condition: whether its
/// branch is taken, and whether the rule for unknowns decided it.
fn decide(d: &Directive, env: &mut MacroEnv) -> (bool, Option<Undecidable>) {
    match d.name.as_str() {
        "ifdef" | "elifdef" | "ifndef" | "elifndef" => {
            let name = first_identifier(&d.args);
            let why = (!env.is_known(name)).then_some(Undecidable::UnknownIdentifier);
            (
                env.condition_defined(name) == d.name.ends_with("ifdef"),
                why,
            )
        }
        // Headers' macros only decide what would otherwise take an unknown
        // name as 0. A condition that cannot be evaluated without them
        // keeps its rule: a header's macros come from its own view, whose
        // conditions on other headers' macros (a library's chain of
        // compiler-detection macros) may be decided wrongly, and taking
        // the branch is the better guess.
        _ => {
            // The file's own view first: the headers set aside, not a copy
            // of the environment without them.
            let headers = std::mem::take(&mut env.headers);
            let own = evaluate(&d.args, env);
            env.headers = headers;
            match own {
                Ok((v, false)) => (v != 0, None),
                Err(()) => (true, Some(Undecidable::Unevaluable)),
                Ok((v, true)) => match (!env.headers.is_empty()).then(|| evaluate(&d.args, env)) {
                    Some(Ok((w, unknown))) => {
                        (w != 0, unknown.then_some(Undecidable::UnknownIdentifier))
                    }
                    _ => (v != 0, Some(Undecidable::UnknownIdentifier)),
                },
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i128),
    Ident(String),
    Punct(&'static str),
}

const PUNCTS: [&str; 24] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "!", "~", "-", "+", "*", "/", "%",
    "<", ">", "&", "^", "|", "?", ":",
];

/// Tokens of a condition; `Err` on anything a condition cannot hold.
fn lex(s: &str) -> Result<Vec<Tok>, ()> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if is_ident_byte(c) && !c.is_ascii_digit() {
            let len = b[i..].iter().take_while(|&&x| is_ident_byte(x)).count();
            out.push(Tok::Ident(s[i..i + len].to_owned()));
            i += len;
            continue;
        }
        if c.is_ascii_digit() {
            let len = b[i..]
                .iter()
                .take_while(|&&x| is_ident_byte(x) || x == b'\'')
                .count();
            out.push(Tok::Num(parse_number(&s[i..i + len])?));
            i += len;
            continue;
        }
        if c == b',' {
            out.push(Tok::Punct(","));
            i += 1;
            continue;
        }
        for p in PUNCTS {
            if b[i..].starts_with(p.as_bytes()) {
                out.push(Tok::Punct(p));
                i += p.len();
                continue 'outer;
            }
        }
        return Err(());
    }
    Ok(out)
}

fn parse_number(lit: &str) -> Result<i128, ()> {
    let lit: String = lit.chars().filter(|&c| c != '\'').collect();
    let digits = lit.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        i128::from_str_radix(h, 16)
    } else if let Some(bits) = digits.strip_prefix("0b").or(digits.strip_prefix("0B")) {
        i128::from_str_radix(bits, 2)
    } else if digits.len() > 1 && digits.starts_with('0') {
        i128::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<i128>()
    };
    v.map_err(|_| ())
}

/// Evaluate a condition: its value and whether an unknown identifier (taken
/// as 0) mattered. `Err` when it cannot be evaluated.
fn evaluate(cond: &str, env: &MacroEnv) -> Result<(i128, bool), ()> {
    let toks = lex(cond)?;
    let toks = expand(toks, env)?;
    let mut p = Parser {
        toks: &toks,
        at: 0,
        unknown: false,
    };
    let v = p.ternary(0)?;
    if p.at != toks.len() {
        return Err(());
    }
    Ok((v.0, p.unknown && v.1))
}

/// Replace `defined X`/`defined(X)` by 0/1 and expand macros, bounded by
/// [`MAX_EXPANDED_TOKENS`]. Unknown identifiers stay (the parser makes
/// them 0); a call of an unknown function-like name, or of a `__has_*`
/// feature test, is unevaluable.
fn expand(toks: Vec<Tok>, env: &MacroEnv) -> Result<Vec<Tok>, ()> {
    // Work list in reverse so that pushing an expansion is O(its length).
    let mut work: Vec<(Tok, usize)> = toks.into_iter().rev().map(|t| (t, 0)).collect();
    let mut out = Vec::new();
    let mut produced = 0usize;
    while let Some((tok, depth)) = work.pop() {
        produced += 1;
        if produced > MAX_EXPANDED_TOKENS {
            return Err(());
        }
        let Tok::Ident(name) = &tok else {
            out.push(tok);
            continue;
        };
        if name == "defined" {
            let next = work.pop().map(|t| t.0);
            let target = match next {
                Some(Tok::Punct("(")) => {
                    let t = work.pop().map(|t| t.0);
                    if work.pop().map(|t| t.0) != Some(Tok::Punct(")")) {
                        return Err(());
                    }
                    t
                }
                t => t,
            };
            let Some(Tok::Ident(target)) = target else {
                return Err(());
            };
            if env.is_known(&target) {
                out.push(Tok::Num(i128::from(env.condition_defined(&target))));
            } else {
                // 0 by the rule for unknowns, as an identifier that is no
                // macro is (the space keeps it from being any name).
                out.push(Tok::Ident(format!("defined {target}")));
            }
            continue;
        }
        let next_is_paren = work.last().is_some_and(|t| t.0 == Tok::Punct("("));
        match env.condition_def(name) {
            Some(def) if depth < MAX_ATTRIBUTE_DEPTH * 4 => match &def.params {
                None => {
                    let body = lex(&def.body)?;
                    for t in body.into_iter().rev() {
                        work.push((t, depth + 1));
                    }
                }
                Some(params) if next_is_paren => {
                    work.pop();
                    let args = take_args(&mut work)?;
                    let body = lex(&def.body)?;
                    let mut replaced = Vec::new();
                    for t in body {
                        match &t {
                            Tok::Ident(p) if params.iter().any(|q| q == p) => {
                                let k = params.iter().position(|q| q == p).unwrap_or(0);
                                replaced.extend(args.get(k).cloned().unwrap_or_default());
                            }
                            _ => replaced.push(t),
                        }
                    }
                    for t in replaced.into_iter().rev() {
                        work.push((t, depth + 1));
                    }
                }
                Some(_) => out.push(tok),
            },
            Some(_) => return Err(()),
            None if next_is_paren => return Err(()),
            None => out.push(tok),
        }
    }
    Ok(out)
}

/// The arguments of a call whose `(` was just taken from `work`.
fn take_args(work: &mut Vec<(Tok, usize)>) -> Result<Vec<Vec<Tok>>, ()> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    loop {
        let Some((t, _)) = work.pop() else {
            return Err(());
        };
        match t {
            Tok::Punct(")") if depth == 0 => return Ok(args),
            Tok::Punct(",") if depth == 0 => args.push(Vec::new()),
            t => {
                if t == Tok::Punct("(") {
                    depth += 1;
                } else if t == Tok::Punct(")") {
                    depth -= 1;
                }
                if let Some(a) = args.last_mut() {
                    a.push(t);
                }
            }
        }
    }
}

/// Precedence climbing over the expanded tokens, bounded by
/// [`MAX_EXPR_DEPTH`]. Values carry whether they depend on an unknown
/// identifier; short-circuit operators drop that when it cannot matter.
struct Parser<'a> {
    toks: &'a [Tok],
    at: usize,
    unknown: bool,
}

type V = (i128, bool);

fn binary_precedence(op: &str) -> Option<u8> {
    Some(match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | "<=" | ">" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn ternary(&mut self, depth: usize) -> Result<V, ()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(());
        }
        let c = self.binary(0, depth + 1)?;
        if self.peek() != Some(&Tok::Punct("?")) {
            return Ok(c);
        }
        self.at += 1;
        let a = self.ternary(depth + 1)?;
        if self.peek() != Some(&Tok::Punct(":")) {
            return Err(());
        }
        self.at += 1;
        let b = self.ternary(depth + 1)?;
        let chosen = if c.0 != 0 { a } else { b };
        Ok((chosen.0, chosen.1 || c.1))
    }

    fn binary(&mut self, min_prec: u8, depth: usize) -> Result<V, ()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(());
        }
        let mut lhs = self.unary(depth + 1)?;
        while let Some(Tok::Punct(op)) = self.peek() {
            let op = *op;
            let Some(prec) = binary_precedence(op) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.at += 1;
            let rhs = self.binary(prec + 1, depth + 1)?;
            lhs = apply(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, depth: usize) -> Result<V, ()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(());
        }
        let Some(t) = self.peek().cloned() else {
            return Err(());
        };
        self.at += 1;
        match t {
            Tok::Num(v) => Ok((v, false)),
            Tok::Ident(name) => match name.as_str() {
                "true" => Ok((1, false)),
                "false" => Ok((0, false)),
                _ => {
                    self.unknown = true;
                    Ok((0, true))
                }
            },
            Tok::Punct("(") => {
                let v = self.ternary(depth + 1)?;
                if self.peek() != Some(&Tok::Punct(")")) {
                    return Err(());
                }
                self.at += 1;
                Ok(v)
            }
            Tok::Punct(op @ ("!" | "~" | "-" | "+")) => {
                let (v, u) = self.unary(depth + 1)?;
                Ok((
                    match op {
                        "!" => i128::from(v == 0),
                        "~" => !v,
                        "-" => v.wrapping_neg(),
                        _ => v,
                    },
                    u,
                ))
            }
            Tok::Punct(_) => Err(()),
        }
    }
}

fn apply(op: &str, (a, ua): V, (b, ub): V) -> Result<V, ()> {
    let either = ua || ub;
    // A side decided false (for `&&`) or true (for `||`) without unknowns.
    let decided_false = (a == 0 && !ua) || (b == 0 && !ub);
    let decided_true = (a != 0 && !ua) || (b != 0 && !ub);
    Ok(match op {
        // A decided false (true) side decides && (||) whatever the other is.
        "&&" => (i128::from(a != 0 && b != 0), either && !decided_false),
        "||" => (i128::from(a != 0 || b != 0), either && !decided_true),
        "*" => (a.wrapping_mul(b), either),
        "/" | "%" if b == 0 => return Err(()),
        "/" => (a.wrapping_div(b), either),
        "%" => (a.wrapping_rem(b), either),
        "+" => (a.wrapping_add(b), either),
        "-" => (a.wrapping_sub(b), either),
        "<<" => (a.wrapping_shl((b & 127) as u32), either),
        ">>" => (a.wrapping_shr((b & 127) as u32), either),
        "<" => (i128::from(a < b), either),
        "<=" => (i128::from(a <= b), either),
        ">" => (i128::from(a > b), either),
        ">=" => (i128::from(a >= b), either),
        "==" => (i128::from(a == b), either),
        "!=" => (i128::from(a != b), either),
        "&" => (a & b, either),
        "^" => (a ^ b, either),
        "|" => (a | b, either),
        _ => return Err(()),
    })
}

/// A macro body that launches a kernel itself: `<<<…>>>` or a runtime
/// launch (`cudaLaunchKernel`, `…Ex`, `…ExC`).
pub(crate) fn launches_in_body(body: &str) -> bool {
    body.contains("<<<") || body.contains("cudaLaunchKernel")
}

/// Identifier tokens of `text` outside comments and literals: (start, end).
pub(crate) fn identifiers(text: &[u8]) -> Vec<(usize, usize)> {
    tokens(text, usize::MAX)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| t.kind == TokKind::Ident)
        .map(|t| (t.start, t.end))
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TokKind {
    Ident,
    Number,
    Punct,
    /// A string or character literal.
    Literal,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct CodeTok {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) kind: TokKind,
    /// First token on its line.
    line_start: bool,
}

/// Tokens of code outside comments and directive lines, in one pass.
fn tokens(text: &[u8], max_tokens: usize) -> Option<Vec<CodeTok>> {
    let mut out = Vec::new();
    let n = text.len();
    let mut i = 0;
    let mut line_start = true;
    let mut first_on_line = true;
    while i < n {
        let c = text[i];
        if c == b'\n' {
            line_start = true;
            first_on_line = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A directive the configuration kept (`#define`, `#include`,
            // `#pragma`): not code.
            i = read_directive(text, i).end;
            continue;
        }
        line_start = false;
        let (end, kind) = match c {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = line_comment_end(text, i);
                continue;
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(text, i);
                continue;
            }
            b'\\' if text.get(i + 1) == Some(&b'\n') => {
                i += 2;
                continue;
            }
            b'"' => (string_end(text, i), TokKind::Literal),
            b'\'' => (char_end(text, i), TokKind::Literal),
            c if c.is_ascii_digit() => {
                let len = text[i..]
                    .iter()
                    .take_while(|&&x| is_ident_byte(x) || x == b'.' || x == b'\'')
                    .count();
                (i + len, TokKind::Number)
            }
            c if is_ident_byte(c) || c >= 0x80 => {
                let len = text[i..]
                    .iter()
                    .take_while(|&&x| is_ident_byte(x) || x >= 0x80)
                    .count();
                // A string prefix (`R"`, `u8"`, `L'`) belongs to the literal.
                if matches!(text.get(i + len), Some(b'"' | b'\'')) && len <= 3 {
                    let q = i + len;
                    let e = if text[q] == b'"' {
                        string_end(text, q)
                    } else {
                        char_end(text, q)
                    };
                    (e, TokKind::Literal)
                } else {
                    (i + len, TokKind::Ident)
                }
            }
            _ => {
                let two = text.get(i..i + 2).unwrap_or(&[]);
                let len = if matches!(two, b"::" | b"->" | b"<<" | b">>") {
                    2
                } else {
                    1
                };
                (i + len, TokKind::Punct)
            }
        };
        let end = end.max(i + 1).min(n);
        out.push(CodeTok {
            start: i,
            end,
            kind,
            line_start: first_on_line,
        });
        if out.len() > max_tokens {
            return None;
        }
        first_on_line = false;
        i = end;
    }
    Some(out)
}

/// Keywords that may follow an attribute macro in a declaration.
const DECL_KEYWORDS: &[&str] = &[
    "__host__",
    "__device__",
    "__global__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "inline",
    "static",
    "extern",
    "constexpr",
    "virtual",
    "explicit",
    "friend",
    "const",
    "volatile",
    "void",
    "int",
    "unsigned",
    "signed",
    "float",
    "double",
    "bool",
    "char",
    "short",
    "long",
    "auto",
    "typename",
    "struct",
    "class",
    "union",
    "enum",
    "template",
    "operator",
    "decltype",
];

/// Specifiers an attribute macro's expansion may consist of.
const SPECIFIER_WORDS: &[&str] = &[
    "__host__",
    "__device__",
    "__global__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "inline",
    "static",
    "extern",
    "constexpr",
    "__launch_bounds__",
    "__attribute__",
    "__declspec",
    "_Pragma",
    "__restrict__",
    "noexcept",
];

/// Words in a macro name that say it is a declaration attribute.
const ATTRIBUTE_NAME_WORDS: &[&str] = &[
    "DEVICE",
    "HOST",
    "GLOBAL",
    "KERNEL",
    "INLINE",
    "FUNCTION",
    "QUALIFIER",
    "ATTRIBUTE",
    "API",
    "EXPORT",
    "VISIBILITY",
    "CONSTEXPR",
    "NODISCARD",
    "DEPRECATED",
    "HIDDEN",
    "EXEC_CHECK",
    "ALIGNAS",
    "EXPLICIT",
];

/// What a known object-like macro is, as far as rewriting goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum MacroKind {
    /// Expands to declaration specifiers (maybe none): these qualifiers.
    Attribute(Vec<&'static str>, String),
    /// Anything else: left alone.
    Other,
}

/// Classify an object-like macro by its expansion, following macros that
/// name macros up to [`MAX_ATTRIBUTE_DEPTH`] deep.
fn classify(name: &str, env: &MacroEnv) -> MacroKind {
    let mut body = match env.get(name) {
        Some(MacroDef { params: None, body }) => body.clone(),
        _ => return MacroKind::Other,
    };
    for _ in 0..MAX_ATTRIBUTE_DEPTH {
        let b = body.as_bytes();
        let mut expanded = String::new();
        let mut changed = false;
        let mut depth = 0i32;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if is_ident_byte(c) && !c.is_ascii_digit() {
                let len = b[i..].iter().take_while(|&&x| is_ident_byte(x)).count();
                let word = &body[i..i + len];
                i += len;
                if depth > 0 {
                    expanded.push_str(word);
                    continue;
                }
                if SPECIFIER_WORDS.contains(&word) {
                    expanded.push_str(word);
                } else if let Some(MacroDef { params: None, body }) = env.get(word) {
                    expanded.push(' ');
                    expanded.push_str(body);
                    expanded.push(' ');
                    changed = true;
                } else {
                    return MacroKind::Other;
                }
                continue;
            }
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                _ if depth == 0 && !c.is_ascii_whitespace() => return MacroKind::Other,
                _ => {}
            }
            expanded.push(c as char);
            i += 1;
        }
        body = expanded;
        if !changed {
            let normalized = body.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut quals = Vec::new();
            for q in ["__global__", "__host__", "__device__"] {
                if has_word(&normalized, q) {
                    quals.push(q);
                }
            }
            return MacroKind::Attribute(quals, normalized);
        }
    }
    MacroKind::Other
}

fn has_word(s: &str, w: &str) -> bool {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|x| x == w)
}

/// An all-caps macro-style name: letters, digits and `_`, at least two
/// letters, no lowercase.
fn all_caps(name: &str) -> bool {
    name.len() >= 3
        && name.bytes().filter(|b| b.is_ascii_uppercase()).count() >= 2
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// The qualifiers a macro's *name* implies when its definition is unknown.
fn qualifiers_from_name(name: &str) -> Vec<&'static str> {
    if name.contains("GLOBAL") || name.contains("KERNEL") {
        vec!["__global__"]
    } else if name.contains("DEVICE") {
        if name.contains("HOST") {
            vec!["__host__", "__device__"]
        } else {
            vec!["__device__"]
        }
    } else {
        Vec::new()
    }
}

/// `CUTE_STATIC_ASSERT(cond, "why")`: a library's spelling of
/// `static_assert`, by its definition (`#define X static_assert`) or, where
/// the definition is not seen, by its name. At class scope the grammar takes
/// the call for a member declaration, and the whole class fails to parse.
/// Only names at least as long as `static_assert` (it is written in place).
fn is_static_assert_alias(name: &[u8], env: &MacroEnv) -> bool {
    let Ok(name) = std::str::from_utf8(name) else {
        return false;
    };
    if name.len() < "static_assert".len() {
        return false;
    }
    match env.get(name) {
        Some(MacroDef { params: None, body }) => body.trim() == "static_assert",
        Some(_) => false,
        None => name.ends_with("_STATIC_ASSERT") && all_caps(name),
    }
}

/// Rewrite attribute macros and statement-like macro calls in `out`.
/// Returns how many uses were rewritten.
/// The text with the branches `env` does not take, and the directive lines,
/// blank: the directive pass of [`configure`] alone (no macro rewriting),
/// a cheap test of whether other macros pick other code.
pub fn branches(text: &[u8], env: &mut MacroEnv) -> Vec<u8> {
    select_branches(text, env, &mut ConfiguredView::default())
}

/// Decide the conditionals, blank what is not taken, and note in `view`
/// the includes, undecided conditions and dispatches.
fn select_branches(text: &[u8], env: &mut MacroEnv, view: &mut ConfiguredView) -> Vec<u8> {
    let mut out = text.to_vec();
    let directives = scan_directives(text);
    let mut stack: Vec<Frame> = Vec::new();
    // Where the text since the last directive started.
    let mut region_start = 0usize;
    for (di, d) in directives.iter().enumerate() {
        let active = stack.last().is_none_or(|f| f.active);
        if !active {
            blank(&mut out, region_start, d.start);
        }
        region_start = d.end;
        match d.name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let mut frame = Frame::new(active, d.start, d.end);
                if active {
                    let (taken, mut why) = decide(d, env);
                    // An include guard (`#ifndef LIB_H` then `#define
                    // LIB_H`): the file itself decides it, not a header.
                    if d.name == "ifndef"
                        && directives.get(di + 1).is_some_and(|n| {
                            n.name == "define"
                                && first_identifier(&n.args) == first_identifier(&d.args)
                        })
                    {
                        why = None;
                    }
                    frame.enter(taken, why, d);
                    record_undecided(view, d, taken, why);
                }
                stack.push(frame);
                blank(&mut out, d.start, d.end);
            }
            "elif" | "elifdef" | "elifndef" | "else" => {
                if let Some(frame) = stack.last_mut() {
                    frame.close_branch(d.start);
                    if frame.outer_active {
                        if frame.taken_any {
                            frame.active = false;
                            frame.branches.push(Branch::new(d.end, false));
                        } else if d.name == "else" {
                            frame.enter(true, None, d);
                        } else {
                            let (taken, why) = decide(d, env);
                            frame.enter(taken, why, d);
                            record_undecided(view, d, taken, why);
                        }
                    }
                }
                blank(&mut out, d.start, d.end);
            }
            "endif" => {
                if let Some(mut frame) = stack.pop() {
                    frame.close_branch(d.start);
                    if frame.outer_active && frame.undecided {
                        record_dispatch(view, &frame, text);
                    }
                }
                blank(&mut out, d.start, d.end);
            }
            _ if !active => blank(&mut out, d.start, d.end),
            "define" => define(d, env),
            "undef" => {
                let name = first_identifier(&d.args);
                env.undef(name);
            }
            "include" | "include_next" => {
                if let Some(inc) = read_include(d) {
                    if inc.spelling.starts_with("hip/") {
                        view.includes_hip_runtime = true;
                    }
                    view.includes.push(inc);
                }
            }
            _ => {}
        }
    }
    if stack.last().is_some_and(|f| !f.active) {
        blank(&mut out, region_start, text.len());
    }
    out
}

fn is_space_word(word: &[u8]) -> bool {
    matches!(word, b"__device__" | b"__host__")
}

/// `[=] __device__ (int i) { … }`: an extended lambda's execution space,
/// which the grammar does not take after the capture list, is blanked.
/// Lowering treats a lambda as the code it is called from. Runs after host
/// bodies are blanked: the `__device__` is what keeps a host function's
/// body that holds such a lambda.
fn blank_lambda_spaces(out: &mut [u8], toks: &[CodeTok]) -> usize {
    let mut blanked = 0;
    let mut i = 1;
    while i < toks.len() {
        let t = toks[i];
        if !(is_space_word(&out[t.start..t.end])
            && &out[toks[i - 1].start..toks[i - 1].end] == b"]")
        {
            i += 1;
            continue;
        }
        let mut k = i;
        while toks
            .get(k)
            .is_some_and(|n| is_space_word(&out[n.start..n.end]))
        {
            k += 1;
        }
        if toks.get(k).is_some_and(|n| &out[n.start..n.end] == b"(") {
            blank(out, t.start, toks[k - 1].end);
            blanked += 1;
        }
        i = k.max(i + 1);
    }
    blanked
}

fn rewrite_macros(
    out: &mut [u8],
    toks: &[CodeTok],
    env: &MacroEnv,
    notes: &mut Vec<QualifierNote>,
) -> usize {
    let text_of = |t: &CodeTok, out: &[u8]| -> String {
        String::from_utf8_lossy(&out[t.start..t.end]).into_owned()
    };
    let mut kinds: HashMap<String, MacroKind> = HashMap::default();
    // Tokens rewritten as specifiers: they count as declaration context for
    // the name after them.
    let mut specifier = vec![false; toks.len()];
    let mut rewrites = 0;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        // `[[nodiscard]]`, `[[maybe_unused]]`: standard attributes, which
        // tree-sitter-cuda does not take before CUDA specifiers.
        if &out[t.start..t.end] == b"["
            && let Some(end) = attribute_end(toks, i, out)
        {
            blank(out, t.start, toks[end].end);
            specifier[end] = true;
            rewrites += 1;
            i = end + 1;
            continue;
        }
        if t.kind != TokKind::Ident {
            i += 1;
            continue;
        }
        // `__align__(16)`: CUDA's alignment attribute, unknown to the grammar.
        if &out[t.start..t.end] == b"__align__"
            && toks
                .get(i + 1)
                .is_some_and(|n| &out[n.start..n.end] == b"(")
            && let Some(close) = matching_paren(toks, i + 1, out)
        {
            blank(out, t.start, toks[close].end);
            rewrites += 1;
            i = close + 1;
            continue;
        }
        // `NV_IF_TARGET(cond, (A), (B))` and its kin: keep the arm this
        // device pass compiles, as a block.
        if let Some(next) = rewrite_target_dispatch(out, toks, i, env) {
            rewrites += 1;
            i = next;
            continue;
        }
        // `_CCCL_REQUIRES(cond)`, `__CUTE_REQUIRES(cond)`,
        // `_CCCL_TRAILING_REQUIRES(ret)(cond)`: concept emulation.
        if let Some(next) = rewrite_requires(out, toks, i) {
            rewrites += 1;
            i = next;
            continue;
        }
        if is_static_assert_alias(&out[t.start..t.end], env)
            && toks
                .get(i + 1)
                .is_some_and(|n| &out[n.start..n.end] == b"(")
        {
            let word = b"static_assert";
            out[t.start..t.start + word.len()].copy_from_slice(word);
            blank(out, t.start + word.len(), t.end);
            rewrites += 1;
            i += 1;
            continue;
        }
        let (known, candidate) = {
            let name = std::str::from_utf8(&out[t.start..t.end]).unwrap_or("");
            let known = env.get(name).cloned();
            let candidate = known.is_some() || all_caps(name);
            (known, candidate)
        };
        if !candidate {
            i += 1;
            continue;
        }
        let name = text_of(&t, out);
        let kind = match &known {
            Some(MacroDef { params: None, .. }) => kinds
                .entry(name.clone())
                .or_insert_with(|| classify(&name, env))
                .clone(),
            _ => MacroKind::Other,
        };
        let next = toks.get(i + 1);
        let next_text = next.map(|n| text_of(n, out)).unwrap_or_default();
        // 1. A known attribute macro, wherever it is used.
        if let MacroKind::Attribute(quals, expansion) = kind {
            place(out, t.start, t.end, &quals, &expansion, notes);
            specifier[i] = true;
            rewrites += 1;
            i += 1;
            continue;
        }
        // A known function-like macro expanding to specifiers
        // (`#define BOUNDS(n) __launch_bounds__(n)`), followed by its call.
        if let Some(MacroDef {
            params: Some(_),
            body,
        }) = &known
            && next_text == "("
            && is_specifier_body(body)
            && let Some(close) = matching_paren(toks, i + 1, out)
        {
            let quals = qualifiers_in_text(body);
            place(out, t.start, toks[close].end, &quals, "", notes);
            rewrites += 1;
            i = close + 1;
            continue;
        }
        // A known function-like macro called in statement position with a
        // braced block of statements among its arguments: its expansion
        // runs the block, which is kept as one (the loop or branch the
        // macro writes around it is not seen), as for unknown ones below.
        if let Some(MacroDef {
            params: Some(_), ..
        }) = &known
            && next_text == "("
            && i.checked_sub(1)
                .is_none_or(|p| matches!(&out[toks[p].start..toks[p].end], b";" | b"{" | b"}"))
            && has_braced_statement_argument(toks, i + 1, out)
            && let Some(next) = rewrite_statement_arguments(out, toks, i)
        {
            rewrites += 1;
            i = next;
            continue;
        }
        if known.is_some() || !all_caps(&name) {
            i += 1;
            continue;
        }
        let prev = i.checked_sub(1).map(|p| text_of(&toks[p], out));
        let prev_specifier = i > 0 && specifier[i - 1];
        // A token this pass blanked (a statement-like macro such as
        // `_CCCL_TEMPLATE(…)` on the line before) ends what came before.
        let prev_blanked = prev.as_deref().is_some_and(|p| p.trim().is_empty());
        let boundary = prev_specifier
            || prev_blanked
            || match prev.as_deref() {
                None => true,
                Some(";" | "{" | "}") => true,
                Some(p) => DECL_KEYWORDS.contains(&p) && p != "operator",
            };
        let access_label = prev.as_deref() == Some(":")
            && i >= 2
            && matches!(
                text_of(&toks[i - 2], out).as_str(),
                "public" | "private" | "protected"
            );
        // (`>>` ends a header whose last parameter's default is a
        // template-id: `class Env = env<>>`.)
        let after_template = matches!(prev.as_deref(), Some(">" | ">>")) && t.line_start;
        // After an attribute (`[[nodiscard]] NAME`) or a parameter list
        // (`__launch_bounds__(256) NAME void k(`), for names that say what
        // they are; before `const` in a parameter (`(NAME const T x`).
        let says_attribute = ATTRIBUTE_NAME_WORDS.iter().any(|w| name.contains(w));
        let after_attribute =
            prev.as_deref() == Some("]") && i >= 2 && text_of(&toks[i - 2], out) == "]";
        let after_parens = prev.as_deref() == Some(")") && says_attribute;
        let in_parameter = matches!(prev.as_deref(), Some("(" | ","))
            && matches!(next_text.as_str(), "const" | "volatile");
        // 2. An unknown all-caps name in declaration-specifier position.
        if (boundary
            || access_label
            || after_template
            || after_attribute
            || after_parens
            || in_parameter)
            && looks_like_attribute(&name, toks, i, out, env)
        {
            let quals = qualifiers_from_name(&name);
            place(out, t.start, t.end, &quals, "", notes);
            specifier[i] = true;
            rewrites += 1;
            i += 1;
            continue;
        }
        // 3. A statement-like macro call: first on its line after a
        // statement boundary, with its arguments, and not followed by `;`.
        let statement_start =
            prev_blanked || matches!(prev.as_deref(), None | Some(";" | "{" | "}" | ")"));
        // 3a. A macro call whose arguments are statements.
        if statement_start
            && next_text == "("
            && let Some(next) = rewrite_statement_arguments(out, toks, i)
        {
            rewrites += 1;
            i = next;
            continue;
        }
        // 5. Attribute macros in other places a specifier cannot go: after
        // an alias name (`using T LIB_NODEBUG = …`), before a parameter's
        // type and name (`(LIB_GRID_CONSTANT T* const p`), and between a
        // lambda's parameters and body (`[&](int i) LIB_INLINE {`).
        let alias_name = i >= 2
            && next_text == "="
            && toks[i - 1].kind == TokKind::Ident
            && text_of(&toks[i - 2], out) == "using";
        let parameter = matches!(prev.as_deref(), Some("(" | ","))
            && next.is_some_and(|n| n.kind == TokKind::Ident)
            && !matches!(
                next_text.as_str(),
                "const"
                    | "volatile"
                    | "unsigned"
                    | "signed"
                    | "long"
                    | "short"
                    | "struct"
                    | "class"
                    | "typename"
                    | "enum"
            )
            && toks.get(i + 2).is_some_and(|n2| {
                n2.kind == TokKind::Ident
                    || matches!(&out[n2.start..n2.end], b"*" | b"&" | b"::" | b"<")
            });
        let lambda_body = says_attribute && prev.as_deref() == Some(")") && next_text == "{";
        if alias_name || parameter || lambda_body {
            blank(out, t.start, t.end);
            rewrites += 1;
            i += 1;
            continue;
        }
        // 6. An attribute macro called with arguments where a declaration
        // starts (`LIB_DEPRECATED("why") T f(`, `LIB_ALIGNAS(16) T x;`),
        // for names that say what they are: the call is blanked.
        if says_attribute
            && next_text == "("
            && (boundary || access_label || after_template || after_attribute)
            && let Some(close) = matching_paren(toks, i + 1, out)
            && toks
                .get(close + 1)
                .is_some_and(|n| n.kind == TokKind::Ident)
        {
            let quals = qualifiers_from_name(&name);
            place(out, t.start, toks[close].end, &quals, "", notes);
            rewrites += 1;
            i = close + 1;
            continue;
        }
        // 4. An attribute macro between a return type and the declarator
        // (`Iter PROJECT_HOST_DEVICE name(`), for names that say what they
        // are: blanked, its qualifiers noted.
        if says_attribute
            && after_return_type(toks, i, out)
            && looks_like_declarator(toks, i + 1, out)
        {
            let quals = qualifiers_from_name(&name);
            place(out, t.start, t.end, &quals, "", notes);
            rewrites += 1;
            i += 1;
            continue;
        }
        if t.line_start && statement_start {
            let end_tok = if next_text == "(" {
                matching_paren(toks, i + 1, out)
            } else {
                Some(i)
            };
            if let Some(e) = end_tok {
                let after = toks.get(e + 1);
                let after_text = after.map(|a| text_of(a, out)).unwrap_or_default();
                let on_later_line = after.is_none_or(|a| a.line_start);
                let ends_statement = matches!(after_text.as_str(), ";" | "{" | "=" | "." | "->");
                // A lone name at the end of the file closes something
                // (`LIB_NAMESPACE_END`) only after a `}`.
                let at_end_after_brace =
                    after.is_none() && (prev_blanked || matches!(prev.as_deref(), Some("}" | ";")));
                if on_later_line
                    && !ends_statement
                    && (e > i || after.is_some() || at_end_after_brace)
                {
                    blank(out, t.start, toks[e].end);
                    rewrites += 1;
                    i = e + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    rewrites
}

/// Concept-emulation macros, which expand to a `requires` clause or to an
/// `enable_if` template parameter, recognised by the word `REQUIRES` in an
/// all-caps name called with arguments (`…_REQUIRES_EXPR`, which defines a
/// concept, excepted). `NAME(cond)` is blanked, with a `,` before it when it
/// is the last template parameter (`template <class T, NAME(c)>`);
/// `…TRAILING_REQUIRES(ret)(cond)` becomes the trailing return type
/// `->    ret` with the condition blanked. The constraint only selects
/// overloads; the declaration is analysed as unconstrained. Returns the index
/// of the token after the rewrite.
fn rewrite_requires(out: &mut [u8], toks: &[CodeTok], i: usize) -> Option<usize> {
    let t = toks[i];
    let name = std::str::from_utf8(&out[t.start..t.end]).ok()?;
    if !all_caps(name) || !name.contains("REQUIRES") || name.contains("EXPR") {
        return None;
    }
    let is =
        |k: usize, s: &[u8], out: &[u8]| toks.get(k).is_some_and(|t| &out[t.start..t.end] == s);
    if !is(i + 1, b"(", out) {
        return None;
    }
    let close = matching_paren(toks, i + 1, out)?;
    if name.contains("TRAILING") {
        let cond_close = if is(close + 1, b"(", out) {
            Some(matching_paren(toks, close + 1, out)?)
        } else {
            None
        };
        if t.end - t.start < 2 {
            return None;
        }
        blank(out, t.start, toks[i + 1].end);
        out[t.start..t.start + 2].copy_from_slice(b"->");
        blank(out, toks[close].start, toks[close].end);
        let after = match cond_close {
            Some(c) => {
                blank(out, toks[close + 1].start, toks[c].end);
                c + 1
            }
            None => close + 1,
        };
        return Some(after);
    }
    let start = if i > 0 && is(i - 1, b",", out) && is(close + 1, b">", out) {
        toks[i - 1].start
    } else {
        t.start
    };
    blank(out, start, toks[close].end);
    Some(close + 1)
}

/// Rewrite C++ that tree-sitter-cuda 0.21 cannot parse into an equivalent
/// it can, in place, in one pass over the tokens:
/// - `typename A::B{…}` and `typename A::B(…)` in an expression (a
///   temporary of a dependent type): the `typename` is blanked, leaving
///   `A::B{…}`, which parses as the same temporary;
/// - a default argument that is a braced list, `T x = {…}` in a parameter
///   list (the grammar wants a type before `{`): the blank before the `{`
///   becomes `_`, a placeholder type name, so `= _{…}` is read as the same
///   list. Needs a blank between `=` and `{` (not a line break).
///
/// Returns how many places were rewritten.
fn rewrite_grammar_gaps(out: &mut [u8], toks: &[CodeTok]) -> usize {
    let mut rewrites = 0;
    // The innermost open bracket, for "inside a parameter list".
    let mut brackets: Vec<u8> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let text = &out[t.start..t.end];
        match text {
            b"(" | b"[" | b"{" => brackets.push(text[0]),
            b")" | b"]" | b"}" => {
                brackets.pop();
            }
            b"friend" => rewrites += usize::from(friend_first(out, toks, i)),
            // `__cluster_dims__(2, 1, 1)`: an attribute the grammar does not
            // know (the specifiers before it became an ERROR node); it says
            // nothing about a block's threads.
            b"__cluster_dims__"
                if toks
                    .get(i + 1)
                    .is_some_and(|n| &out[n.start..n.end] == b"(") =>
            {
                if let Some(close) = matching_paren(toks, i + 1, out) {
                    blank(out, t.start, toks[close].end);
                    rewrites += 1;
                }
            }
            b"typename" if dependent_temporary(toks, i, out) => {
                blank(out, t.start, t.end);
                rewrites += 1;
            }
            b"=" if brackets.last() == Some(&b'(')
                && i > 0
                && (toks[i - 1].kind == TokKind::Ident
                    || &out[toks[i - 1].start..toks[i - 1].end] == b">")
                && toks
                    .get(i + 1)
                    .is_some_and(|n| &out[n.start..n.end] == b"{") =>
            {
                let brace = toks[i + 1].start;
                if brace > t.end && matches!(out[brace - 1], b' ' | b'\t') {
                    out[brace - 1] = b'_';
                    rewrites += 1;
                }
            }
            _ => {}
        }
    }
    rewrites
}

/// `__host__ __device__ friend T f(…)`: the grammar takes `friend` only
/// first, so the run of CUDA specifiers and `friend` is rewritten, in the
/// same bytes, as `friend __host__ __device__`. A line break between the
/// specifiers and `friend` stays where it is ([`friend_layout`]).
fn friend_first(out: &mut [u8], toks: &[CodeTok], i: usize) -> bool {
    const CUDA_SPECIFIERS: &[&[u8]] = &[
        b"__host__",
        b"__device__",
        b"__global__",
        b"__forceinline__",
        b"__noinline__",
        b"__inline__",
        b"inline",
        b"constexpr",
    ];
    // A token may hold an attribute macro's expansion (`__host__ __device__`).
    let specifiers_only = |t: &CodeTok| {
        let words = out[t.start..t.end].split(|b| b.is_ascii_whitespace());
        let mut any = false;
        for w in words.filter(|w| !w.is_empty()) {
            if !CUDA_SPECIFIERS.contains(&w) {
                return false;
            }
            any = true;
        }
        any
    };
    let mut first = i;
    while first > 0 && specifiers_only(&toks[first - 1]) {
        first -= 1;
    }
    if first == i {
        return false;
    }
    let (start, end) = (toks[first].start, toks[i].end);
    let specs = out[start..toks[i - 1].end].to_vec();
    let line_break = |b: &u8| matches!(b, b'\n' | b'\r');
    if specs.iter().any(line_break) {
        return false;
    }
    if out[start..end].iter().any(line_break) {
        // `CUTLASS_HOST_DEVICE` on its own line above `friend`: the line
        // break stays where it is (every later line keeps its number).
        let words: Vec<&[u8]> = (specs.split(|b| b.is_ascii_whitespace()))
            .filter(|w| !w.is_empty())
            .collect();
        let Some(laid) = friend_layout(&out[start..end], &words) else {
            return false;
        };
        out[start..end].copy_from_slice(&laid);
        return true;
    }
    blank(out, start, end);
    out[start..start + 6].copy_from_slice(b"friend");
    out[start + 7..start + 7 + specs.len()].copy_from_slice(&specs);
    true
}

/// `friend` and the specifiers `words` laid out in the bytes of `region`,
/// its line breaks where they are: `friend` first on the first line, then
/// each word (longest first) on the first line with room for it. Where the
/// lines cannot hold every word, the code-generation hints
/// (`__forceinline__` and its kin), which change nothing the analysis
/// reads, are left out, and then `__host__` beside `__device__` (the body
/// is device code either way). `None` when even that does not fit.
fn friend_layout(region: &[u8], words: &[&[u8]]) -> Option<Vec<u8>> {
    const HINTS: &[&[u8]] = &[
        b"__forceinline__",
        b"__noinline__",
        b"__inline__",
        b"inline",
    ];
    let lay = |words: &[&[u8]]| -> Option<Vec<u8>> {
        let line_break = |b: u8| b == b'\n' || b == b'\r';
        let mut out: Vec<u8> = (region.iter())
            .map(|&b| if line_break(b) { b } else { b' ' })
            .collect();
        // The lines of the region: (next free byte, end).
        let mut lines: Vec<(usize, usize)> = Vec::new();
        let mut from = 0;
        for (k, &b) in region.iter().enumerate() {
            if line_break(b) {
                lines.push((from, k));
                from = k + 1;
            }
        }
        lines.push((from, region.len()));
        let mut sorted: Vec<&[u8]> = words.to_vec();
        sorted.sort_by_key(|w| std::cmp::Reverse(w.len()));
        for (n, w) in std::iter::once(&b"friend"[..]).chain(sorted).enumerate() {
            let line = if n == 0 {
                lines.first_mut().filter(|(at, end)| at + w.len() <= *end)?
            } else {
                lines.iter_mut().find(|(at, end)| at + w.len() <= *end)?
            };
            out[line.0..line.0 + w.len()].copy_from_slice(w);
            line.0 += w.len() + 1;
        }
        Some(out)
    };
    let hints_out: Vec<&[u8]> = (words.iter().copied())
        .filter(|w| !HINTS.contains(w))
        .collect();
    let host_out: Vec<&[u8]> = if hints_out.contains(&&b"__device__"[..]) {
        (hints_out.iter().copied())
            .filter(|w| *w != b"__host__")
            .collect()
    } else {
        hints_out.clone()
    };
    lay(words)
        .or_else(|| lay(&hints_out))
        .or_else(|| lay(&host_out))
}

/// Is the `typename` at `toks[i]` followed by a qualified name (`A::B`,
/// `A<…>::B`, `decltype(…)::B`, `A::template B<…>`) that is directly
/// followed by `{` or `(`, within 64 tokens?
fn dependent_temporary(toks: &[CodeTok], i: usize, out: &[u8]) -> bool {
    let text = |k: usize| toks.get(k).map(|t| &out[t.start..t.end]);
    let mut k = i + 1;
    let mut qualified = false;
    let limit = (i + 64).min(toks.len());
    while k < limit {
        let Some(w) = text(k) else {
            return false;
        };
        match w {
            b"::" => {
                qualified = true;
                k += 1;
            }
            b"decltype" if text(k + 1) == Some(b"(") => {
                let mut depth = 0usize;
                let mut end = None;
                for j in k + 1..limit {
                    match text(j) {
                        Some(b"(") => depth += 1,
                        Some(b")") => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(e) = end else {
                    return false;
                };
                k = e + 1;
            }
            b"<" => {
                let mut depth = 0usize;
                let mut end = None;
                for j in k..limit {
                    match text(j) {
                        Some(b"<") => depth += 1,
                        Some(b">") => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        Some(b">>") => {
                            if depth <= 2 {
                                end = (depth == 2).then_some(j);
                                break;
                            }
                            depth -= 2;
                        }
                        Some(b";" | b"{" | b"}") | None => return false,
                        _ => {}
                    }
                }
                let Some(e) = end else {
                    return false;
                };
                k = e + 1;
            }
            b"{" | b"(" => {
                let prev = toks[k - 1];
                return qualified && (prev.kind == TokKind::Ident || text(k - 1) == Some(b">"));
            }
            // A name only starts the qualified name or follows `::`
            // (`typename A::B name(` declares a function).
            _ if toks[k].kind == TokKind::Ident && (k == i + 1 || text(k - 1) == Some(b"::")) => {
                k += 1
            }
            _ => return false,
        }
    }
    false
}

/// Identifiers after which a name cannot be a declaration's type.
const NOT_A_TYPE: &[&str] = &[
    "return",
    "case",
    "else",
    "new",
    "delete",
    "throw",
    "sizeof",
    "alignof",
    "decltype",
    "typename",
    "template",
    "operator",
    "using",
    "namespace",
    "goto",
    "co_return",
    "co_yield",
    "co_await",
    "do",
    "class",
    "struct",
    "union",
    "enum",
];

/// Does `toks[i]` follow a return type (`T`, `ns::T`, `T<…>`, `T*`, `T&`)
/// that starts a declaration?
fn after_return_type(toks: &[CodeTok], i: usize, out: &[u8]) -> bool {
    let Some(p) = i.checked_sub(1).map(|p| toks[p]) else {
        return false;
    };
    let text = &out[p.start..p.end];
    if p.kind == TokKind::Ident {
        let word = std::str::from_utf8(text).unwrap_or("");
        return !NOT_A_TYPE.contains(&word);
    }
    matches!(text, b">" | b">>" | b"*" | b"&")
}

/// Is `toks[k]` a declarator name followed by its parameter list
/// (`name(`, `ns::name(`, `operator…`)?
fn looks_like_declarator(toks: &[CodeTok], k: usize, out: &[u8]) -> bool {
    let is = |k: usize, s: &[u8]| toks.get(k).is_some_and(|t| &out[t.start..t.end] == s);
    let ident = |k: usize| toks.get(k).is_some_and(|t| t.kind == TokKind::Ident);
    if is(k, b"operator") {
        return true;
    }
    let mut k = k;
    // `ns::Class::name(`: at most 8 qualifiers.
    for _ in 0..8 {
        if !ident(k) {
            return false;
        }
        if is(k + 1, b"(") {
            return true;
        }
        if !is(k + 1, b"::") {
            return false;
        }
        k += 2;
    }
    false
}

/// A statement-position macro call whose arguments are statements:
/// `NAME(stmt; stmt);`, `NAME((stmts), (stmts));` (a dispatch that runs
/// one of its parenthesised arms, as `THRUST_CDP_DISPATCH` does) or
/// `NAME(i, cond, { stmts });` (a loop the macro writes around a block,
/// as FlashInfer's `LOOP_SPLIT_MASK` does). The call
/// of an all-caps name not otherwise known becomes a block holding its
/// first statement arm: `NAME(` and the call's `)` are blanked, the arm's
/// parentheses (or, for bare statements, the call's) become braces, and the
/// other arms are blanked, as an undecidable `#if` keeps its first branch.
/// An arm that calls a warp primitive or a barrier is never blanked: then
/// every arm is kept, each as its own block. Returns the index of the token
/// after the call.
fn rewrite_statement_arguments(out: &mut [u8], toks: &[CodeTok], i: usize) -> Option<usize> {
    let open = i + 1;
    let close = matching_group(toks, open, out)?;
    let is = |k: usize, s: &[u8], out: &[u8]| &out[toks[k].start..toks[k].end] == s;
    // Top-level arguments: (first token, last token), and whether a `;`
    // appears at the call's own level.
    let mut args: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut arg_start = open + 1;
    let mut bare_statement = false;
    for k in open + 1..close {
        match &out[toks[k].start..toks[k].end] {
            b"(" | b"[" | b"{" => depth += 1,
            b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
            b";" if depth == 0 => bare_statement = true,
            b"," if depth == 0 => {
                args.push((arg_start, k));
                arg_start = k + 1;
                continue;
            }
            _ => {}
        }
    }
    args.push((arg_start, close));
    let t = toks[i];
    if bare_statement {
        blank(out, t.start, t.end);
        out[toks[open].start] = b'{';
        out[toks[close].start] = b'}';
        return Some(open + 1);
    }
    // Parenthesised or braced arms holding a `;` at their own level
    // (`NAME((stmts), (stmts))`, `LOOP(i, cond, { stmts })`).
    let arms: Vec<(usize, usize)> = args
        .iter()
        .filter(|&&(a, b)| {
            a + 1 < b
                && ((is(a, b"(", out) && matching_group(toks, a, out) == Some(b - 1))
                    || (is(a, b"{", out) && matching_brace(toks, a, out) == Some(b - 1)))
        })
        .filter(|&&(a, b)| has_own_semicolon(toks, out, a + 1..b - 1))
        .map(|&(a, b)| (a, b - 1))
        .collect();
    let &(first_open, first_close) = arms.first()?;
    let warp_in_dropped = arms[1..]
        .iter()
        .any(|&(a, b)| crate::prefilter::has_warp_code(&out[toks[a].start..toks[b].end]));
    // Blank everything of the call but the kept arms' insides.
    let kept: Vec<(usize, usize)> = if warp_in_dropped {
        arms.clone()
    } else {
        vec![(first_open, first_close)]
    };
    let mut from = t.start;
    for &(a, b) in &kept {
        blank(out, from, toks[a].start);
        out[toks[a].start] = b'{';
        out[toks[b].start] = b'}';
        from = toks[b].end;
    }
    blank(out, from, toks[close].end);
    Some(first_open + 1)
}

/// Whether the tokens `range` hold a `;` outside any bracket they open:
/// statements, not an expression or an initializer list.
fn has_own_semicolon(toks: &[CodeTok], out: &[u8], range: std::ops::Range<usize>) -> bool {
    let mut depth = 0usize;
    range
        .into_iter()
        .any(|k| match &out[toks[k].start..toks[k].end] {
            b"(" | b"[" | b"{" => {
                depth += 1;
                false
            }
            b")" | b"]" | b"}" => {
                depth = depth.saturating_sub(1);
                false
            }
            b";" => depth == 0,
            _ => false,
        })
}

/// Whether the call whose `(` is `toks[open]` has an argument that is a
/// `{ … }` block holding a `;` at its own level (statements, not an
/// initializer list).
fn has_braced_statement_argument(toks: &[CodeTok], open: usize, out: &[u8]) -> bool {
    let Some(close) = matching_group(toks, open, out) else {
        return false;
    };
    let text = |k: usize| &out[toks[k].start..toks[k].end];
    let mut depth = 0usize;
    let mut k = open + 1;
    while k < close {
        match text(k) {
            b"{" if depth == 0 && matches!(text(k - 1), b"(" | b",") => {
                let Some(end) = matching_brace(toks, k, out) else {
                    return false;
                };
                if has_own_semicolon(toks, out, k + 1..end) {
                    return true;
                }
                k = end + 1;
                continue;
            }
            b"(" | b"[" | b"{" => depth += 1,
            b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        k += 1;
    }
    false
}

/// Decide a `<nv/target>` condition for the device pass of `__CUDA_ARCH__`
/// `arch`: `Some(true/false)`, or `None` when it is not one of the
/// documented target macros.
fn decide_target(cond: &str, arch: i128) -> Option<bool> {
    let sm = |prefix: &str| {
        cond.strip_prefix(prefix)
            .and_then(|n| n.parse::<i128>().ok())
            .map(|n| n * 10)
    };
    match cond {
        "NV_IS_DEVICE" | "NV_ANY_TARGET" => Some(true),
        "NV_IS_HOST" | "NV_NO_TARGET" => Some(false),
        _ => {
            if let Some(v) = sm("NV_PROVIDES_SM_") {
                Some(arch >= v)
            } else {
                sm("NV_IS_EXACTLY_SM_").map(|v| arch == v)
            }
        }
    }
}

/// `NV_IF_TARGET(cond, (A))`, `NV_IF_TARGET(cond, (A), (B))`,
/// `NV_IF_ELSE_TARGET(cond, (A), (B))` and
/// `NV_DISPATCH_TARGET(c1, (A1), c2, (A2), …)` at `toks[i]`: the
/// configuration is the device pass for the target architecture, so the
/// first arm whose condition holds (`NV_IS_DEVICE`, `NV_PROVIDES_SM_XX`,
/// `NV_IS_EXACTLY_SM_XX`, …; see [`decide_target`]) is kept as a block
/// `{ A }` (its parentheses become braces) and everything else of the call
/// is blanked. A condition that is not a known target macro is taken when
/// no earlier arm was, as an undecidable `#if` is. Returns, when it
/// rewrote, the index of the token to scan next: the first of the kept arm
/// (so macros inside it are rewritten too), or the one after the call.
fn rewrite_target_dispatch(
    out: &mut [u8],
    toks: &[CodeTok],
    i: usize,
    env: &MacroEnv,
) -> Option<usize> {
    let name = &out[toks[i].start..toks[i].end];
    let dispatch = match name {
        b"NV_IF_TARGET" | b"NV_IF_ELSE_TARGET" => false,
        b"NV_DISPATCH_TARGET" => true,
        _ => return None,
    };
    if toks.get(i + 1).is_none_or(|n| &out[n.start..n.end] != b"(") {
        return None;
    }
    let close = matching_group(toks, i + 1, out)?;
    // Top-level arguments as token ranges.
    let mut args: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut from = i + 2;
    for (k, t) in toks.iter().enumerate().take(close).skip(i + 2) {
        match &out[t.start..t.end] {
            b"(" | b"[" | b"{" => depth += 1,
            b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
            b"," if depth == 0 => {
                args.push((from, k));
                from = k + 1;
            }
            _ => {}
        }
    }
    args.push((from, close));
    // Each arm is one parenthesised group.
    let arm = |(a, b): (usize, usize)| {
        (b > a + 1
            && &out[toks[a].start..toks[a].end] == b"("
            && matching_group(toks, a, out) == Some(b - 1))
        .then_some((a, b - 1))
    };
    let arch = env
        .get("__CUDA_ARCH__")
        .and_then(|d| parse_number(d.body.trim()).ok())
        .unwrap_or(0);
    let cond_of = |(a, b): (usize, usize)| -> Option<bool> {
        if b != a + 1 {
            return None;
        }
        decide_target(
            std::str::from_utf8(&out[toks[a].start..toks[a].end]).ok()?,
            arch,
        )
    };
    // (condition, arm) pairs; `NV_IF_TARGET`'s second arm is the `else`.
    let mut pairs: Vec<(Option<bool>, (usize, usize))> = Vec::new();
    if dispatch {
        if !args.len().is_multiple_of(2) {
            return None;
        }
        for pair in args.chunks(2) {
            pairs.push((cond_of(pair[0]), arm(pair[1])?));
        }
    } else {
        if !(2..=3).contains(&args.len()) {
            return None;
        }
        let first = cond_of(args[0]);
        pairs.push((first, arm(args[1])?));
        if let Some(&e) = args.get(2) {
            pairs.push((first.map(|c| !c).or(Some(true)), arm(e)?));
        }
    }
    let chosen = pairs
        .iter()
        .find(|(c, _)| c.unwrap_or(true))
        .map(|&(_, a)| a);
    let (start, end) = (toks[i].start, toks[close].end);
    match chosen {
        Some((open, shut)) => {
            let (o, s) = (toks[open].start, toks[shut].start);
            blank(out, start, o);
            blank(out, s + 1, end);
            out[o] = b'{';
            out[s] = b'}';
            Some(open + 1)
        }
        None => {
            blank(out, start, end);
            Some(close + 1)
        }
    }
}

/// The unknown all-caps name at `toks[i]` is an attribute macro when what
/// follows continues a declaration: a keyword or another such name, or a
/// type and a declarator (`NAME Type name`, `NAME Type<…>`, `NAME ns::T`,
/// `NAME Type *`); and, for a name that says what it is (`…DEVICE…`,
/// `…INLINE…`, `…API…`; see `ATTRIBUTE_NAME_WORDS`), also a constructor or
/// a call-free name (`NAME Name(`, `NAME ~Name(`).
fn looks_like_attribute(
    name: &str,
    toks: &[CodeTok],
    i: usize,
    out: &[u8],
    env: &MacroEnv,
) -> bool {
    let text = |k: usize| -> Option<String> {
        toks.get(k)
            .map(|t| String::from_utf8_lossy(&out[t.start..t.end]).into_owned())
    };
    let Some(n1) = text(i + 1) else {
        return false;
    };
    let says_attribute = ATTRIBUTE_NAME_WORDS.iter().any(|w| name.contains(w));
    if DECL_KEYWORDS.contains(&n1.as_str()) {
        return true;
    }
    let n1_ident = toks[i + 1].kind == TokKind::Ident;
    if n1_ident && all_caps(&n1) && !env.is_defined(&n1) && says_attribute {
        return true;
    }
    if says_attribute && n1 == "~" {
        return true;
    }
    if !n1_ident {
        return false;
    }
    let n2 = text(i + 2).unwrap_or_default();
    let n2_ident = toks.get(i + 2).is_some_and(|t| t.kind == TokKind::Ident);
    n2_ident || matches!(n2.as_str(), "::" | "<" | "*" | "&") || (says_attribute && n2 == "(")
}

fn is_specifier_body(body: &str) -> bool {
    let first = first_identifier(body);
    matches!(
        first,
        "__launch_bounds__" | "__attribute__" | "__declspec" | "_Pragma"
    ) || (!first.is_empty() && SPECIFIER_WORDS.contains(&first) && !body.contains(';'))
}

fn qualifiers_in_text(body: &str) -> Vec<&'static str> {
    ["__global__", "__host__", "__device__"]
        .into_iter()
        .filter(|q| has_word(body, q))
        .collect()
}

/// The index of the `)` matching the `(` at `toks[open]`, looking at most
/// 4096 tokens ahead.
fn matching_paren(toks: &[CodeTok], open: usize, out: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open).take(4096) {
        match &out[t.start..t.end] {
            b"(" => depth += 1,
            b")" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            b";" | b"{" | b"}" => return None,
            _ => {}
        }
    }
    None
}

/// The `)` matching the `(` at `toks[open]`, across statements (the
/// arguments of `NV_IF_TARGET` are statements), within 8192 tokens.
fn matching_group(toks: &[CodeTok], open: usize, out: &[u8]) -> Option<usize> {
    matching_pair(toks, open, out, b"(", b")")
}

/// [`matching_group`] for a `{ … }` block.
fn matching_brace(toks: &[CodeTok], open: usize, out: &[u8]) -> Option<usize> {
    matching_pair(toks, open, out, b"{", b"}")
}

fn matching_pair(
    toks: &[CodeTok],
    open: usize,
    out: &[u8],
    opener: &[u8],
    closer: &[u8],
) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open).take(8192) {
        match &out[t.start..t.end] {
            b if b == opener => depth += 1,
            b if b == closer => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The index of the second `]` closing a `[[…]]` attribute that starts at
/// `toks[open]`, when it has no brackets inside and ends within 64 tokens.
fn attribute_end(toks: &[CodeTok], open: usize, out: &[u8]) -> Option<usize> {
    let is = |k: usize, s: &[u8]| toks.get(k).is_some_and(|t| &out[t.start..t.end] == s);
    if !is(open + 1, b"[") {
        return None;
    }
    // `a[[b]]`-style indexing cannot follow a name or a closing bracket.
    if open > 0
        && (toks[open - 1].kind == TokKind::Ident || is(open - 1, b"]") || is(open - 1, b")"))
    {
        return None;
    }
    for k in open + 2..(open + 64).min(toks.len()) {
        if is(k, b"[") || is(k, b";") || is(k, b"{") {
            return None;
        }
        if is(k, b"]") {
            return is(k + 1, b"]").then_some(k + 1);
        }
    }
    None
}

/// Overwrite `out[start..end]` (a macro use) with what it stands for: the
/// whole expansion if it fits, else its device qualifiers if they fit, else
/// spaces with a note of the qualifiers.
fn place(
    out: &mut [u8],
    start: usize,
    end: usize,
    quals: &[&'static str],
    expansion: &str,
    notes: &mut Vec<QualifierNote>,
) {
    let room = end - start;
    let multi_line = out[start..end].contains(&b'\n');
    blank(out, start, end);
    let mut candidates: Vec<String> = Vec::new();
    if !expansion.is_empty() {
        candidates.push(expansion.to_owned());
    }
    if !quals.is_empty() {
        candidates.push(quals.join(" "));
        if quals.contains(&"__global__") {
            candidates.push("__global__".to_owned());
        } else if quals.contains(&"__device__") {
            candidates.push("__device__".to_owned());
        }
    }
    if !multi_line && let Some(fit) = candidates.iter().find(|c| c.len() <= room) {
        out[start..start + fit.len()].copy_from_slice(fit.as_bytes());
        return;
    }
    if !quals.is_empty() {
        notes.push(QualifierNote {
            span: start..end,
            qualifiers: quals.to_vec(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(src: &str) -> ConfiguredView {
        let config = PpConfig::default();
        let mut env = MacroEnv::from_config(&config);
        configure(src.as_bytes(), &config, &mut env)
    }

    fn kept(src: &str) -> String {
        view(src)
            .text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn offsets_and_newlines_are_kept() {
        let src = "#if 0\nint dead;\n#else\nint live;\n#endif\nint tail; // é\n";
        let v = view(src);
        assert_eq!(v.text.len(), src.len());
        assert_eq!(
            v.text.match_indices('\n').map(|m| m.0).collect::<Vec<_>>(),
            src.match_indices('\n').map(|m| m.0).collect::<Vec<_>>()
        );
        assert_eq!(&v.text[src.find("int live").unwrap()..][..8], "int live");
        assert_eq!(kept(src), "int live; int tail; // é");
    }

    #[test]
    fn one_configuration_decides_every_branch() {
        let src = "\
#ifdef __CUDACC__\na\n#endif\n\
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)\nb\n#else\nc\n#endif\n\
#if CUDA_VERSION >= 12000 && __CUDACC_VER_MINOR__ >= 8\nd\n#endif\n\
#if __CUDA_ARCH__ >= 800\ne\n#elif __CUDA_ARCH__ >= 700\nf\n#else\ng\n#endif\n\
#ifndef __CUDA_ARCH__\nh\n#endif\n";
        assert_eq!(kept(src), "a c d f");
    }

    #[test]
    fn defines_from_config_and_file_are_seen_in_order() {
        let config = PpConfig {
            defines: vec!["USE_FAST".to_owned(), "LEVEL=3".to_owned()],
            cuda_version: (11, 0),
            ..PpConfig::default()
        };
        let mut env = MacroEnv::from_config(&config);
        let src = "#if USE_FAST && LEVEL > 2\na\n#endif\n\
#if CUDA_VERSION >= 11010\nb\n#endif\n\
#define MINE 2\n#if MINE == 2\nc\n#endif\n#undef MINE\n#ifdef MINE\nd\n#endif\n\
#if 0\n#define HIDDEN\n#endif\n";
        let v = configure(src.as_bytes(), &config, &mut env);
        let words: Vec<&str> = v.text.split_whitespace().collect();
        assert!(words.contains(&"a") && words.contains(&"c"));
        assert!(!words.contains(&"b") && !words.contains(&"d"));
        assert!(!env.is_defined("MINE") && !env.is_defined("HIDDEN"));
        assert!(env.is_defined("USE_FAST"));
    }

    #[test]
    fn the_rule_for_unknowns() {
        // Unknown identifiers are 0: the #else is taken, and it is listed.
        let v = view("#if LIB_VERSION >= 3\na\n#else\nb\n#endif\n");
        assert_eq!(v.text.split_whitespace().collect::<Vec<_>>(), ["b"]);
        assert_eq!(v.undecided.len(), 1);
        assert_eq!(v.undecided[0].why, Undecidable::UnknownIdentifier);
        // A known false side decides `&&` whatever the unknown is.
        let v = view("#if CUDA_VERSION < 9000 && LIB_FLAG\na\n#endif\n");
        assert!(v.undecided.is_empty());
        // Unevaluable conditions take their branch if none was taken yet.
        let v = view("#if __has_include(<cuda/std/span>)\na\n#else\nb\n#endif\n");
        assert_eq!(v.text.split_whitespace().collect::<Vec<_>>(), ["a"]);
        assert_eq!(v.undecided[0].why, Undecidable::Unevaluable);
        let v = view("#if 1\na\n#elif UNKNOWN_FN(2)\nb\n#endif\n");
        assert_eq!(v.text.split_whitespace().collect::<Vec<_>>(), ["a"]);
        // Include guards: the guard is not defined yet, so the body is
        // kept, and the file itself decides it (no header's macro does).
        let v = view("#ifndef LIB_H\n#define LIB_H\nint x;\n#endif\n");
        assert!(v.text.contains("int x;"));
        assert!(v.undecided.is_empty());
        // A name never defined nor undefined is "not defined" by the same
        // rule (a header may define it), in `#ifdef` and `defined()` alike;
        // one the file defined or undefined is known.
        for cond in [
            "#ifdef LIB_FLAG",
            "#if defined(LIB_FLAG)",
            "#if defined LIB_FLAG",
        ] {
            let v = view(&format!("{cond}\na\n#else\nb\n#endif\n"));
            assert_eq!(
                v.text.split_whitespace().collect::<Vec<_>>(),
                ["b"],
                "{cond}"
            );
            assert_eq!(v.undecided.len(), 1, "{cond}");
            assert_eq!(v.undecided[0].why, Undecidable::UnknownIdentifier);
        }
        // (`#define` and `#undef` lines stay in the text the grammar reads.)
        let v = view("#undef LIB_FLAG\n#ifdef LIB_FLAG\na\n#else\nb\n#endif\n");
        assert_eq!(v.text.split_whitespace().last(), Some("b"));
        assert!(v.undecided.is_empty());
        let v = view("#define LIB_FLAG\n#if !defined(LIB_FLAG)\na\n#else\nb\n#endif\n");
        assert_eq!(v.text.split_whitespace().last(), Some("b"));
        assert!(v.undecided.is_empty());
        // A known false side still decides `&&` whatever the unknown is.
        let v = view("#if defined(__HIP__) && defined(LIB_FLAG)\na\n#endif\n");
        assert!(v.undecided.is_empty());
    }

    #[test]
    fn headers_macros_decide_what_the_rule_for_unknowns_would() {
        let effects = |defs: &[(&str, Option<&str>)]| -> Vec<MacroEffect> {
            defs.iter()
                .map(|(name, body)| MacroEffect {
                    name: (*name).to_owned(),
                    // `NAME()` bodies are function-like macros of no parameter.
                    def: body.map(|b| match b.strip_prefix("()") {
                        Some(b) => MacroDef {
                            params: Some(Vec::new()),
                            body: b.to_owned(),
                        },
                        None => MacroDef {
                            params: None,
                            body: b.to_owned(),
                        },
                    }),
                })
                .collect()
        };
        let with = |src: &str, defs: &[(&str, Option<&str>)]| {
            let config = PpConfig::default();
            let mut env = MacroEnv::from_config(&config);
            env.apply_headers(&[effects(defs).into()]);
            configure(src.as_bytes(), &config, &mut env)
        };
        let words = |v: &ConfiguredView| v.text.split_whitespace().last().map(str::to_owned);
        // A name a header defines decides `#ifdef` and `#if`, as known.
        let src = "#ifdef LIB_SYNC\na\n#else\nb\n#endif\n";
        let v = with(src, &[("LIB_SYNC", Some("1"))]);
        assert_eq!(words(&v).as_deref(), Some("a"));
        assert!(v.undecided.is_empty());
        let v = with(
            "#if LIB_LEVEL >= 2\na\n#else\nb\n#endif\n",
            &[("LIB_LEVEL", Some("3"))],
        );
        assert_eq!(words(&v).as_deref(), Some("a"));
        assert!(v.undecided.is_empty());
        // A header that undefines it decides the other way.
        let v = with(src, &[("LIB_SYNC", None)]);
        assert_eq!(words(&v).as_deref(), Some("b"));
        assert!(v.undecided.is_empty());
        // The file's own directives come after its headers'.
        let v = with(
            &format!("#undef LIB_SYNC\n{src}"),
            &[("LIB_SYNC", Some("1"))],
        );
        assert_eq!(words(&v).as_deref(), Some("b"));
        // A condition that cannot be evaluated without the headers keeps
        // its rule (taken), whatever their macros make of it.
        let v = with(
            "#if LIB_COMPILER()\na\n#else\nb\n#endif\n",
            &[("LIB_COMPILER", Some("() 0"))],
        );
        assert_eq!(words(&v).as_deref(), Some("a"));
        assert_eq!(v.undecided[0].why, Undecidable::Unevaluable);
    }

    #[test]
    fn conditions_expand_macros_and_stay_bounded() {
        let src = "#define ARCH_AT_LEAST(a) (__CUDA_ARCH__ >= (a))\n#define OLD 0\n\
#if ARCH_AT_LEAST(700) && !OLD\na\n#endif\n";
        assert!(view(src).text.contains('a'));
        // Self-reference and deep nesting are cut off, not looped on.
        let deep = format!("#if {}1{}\na\n#endif\n", "(".repeat(500), ")".repeat(500));
        assert_eq!(view(&deep).undecided[0].why, Undecidable::Unevaluable);
        let v = view("#define A A + A\n#if A\nx\n#endif\n");
        assert_eq!(v.undecided.len(), 1);
    }

    #[test]
    fn directives_in_comments_and_strings_are_not_directives() {
        let src = "/*\n#if 0\n*/\nint a;\nconst char *s = \"\\\n#if 0\";\n// #if 0\nint b;\n";
        let v = view(src);
        assert!(v.text.contains("int a;") && v.text.contains("int b;"));
        // A continued directive line is one directive.
        let v = view("#if CUDA_VERSION \\\n  < 9000\nold\n#endif\nnew\n");
        assert_eq!(v.text.split_whitespace().collect::<Vec<_>>(), ["new"]);
    }

    #[test]
    fn unbalanced_directives_do_not_panic() {
        for src in [
            "#endif\n#else\nx\n",
            "#if 0\nx\n",
            "#elif\n",
            "#if\n#endif\n",
            "#",
            "#if (\n#endif",
        ] {
            let v = view(src);
            assert_eq!(v.text.len(), src.len());
        }
    }

    #[test]
    fn includes_are_those_of_taken_branches() {
        let v = view(
            "#include \"a.cuh\"\n#ifdef __HIP__\n#include <hip/hip_runtime.h>\n#else\n#include <cuda_runtime.h>\n#endif\n",
        );
        let names: Vec<_> = v
            .includes
            .iter()
            .map(|i| (i.spelling.as_str(), i.angled))
            .collect();
        assert_eq!(names, [("a.cuh", false), ("cuda_runtime.h", true)]);
        assert!(!v.includes_hip_runtime);
        assert!(view("#include <hip/hip_runtime.h>\n").includes_hip_runtime);
    }

    #[test]
    fn amd_only_identifiers_in_compiled_code_mark_hip_sources() {
        assert!(
            view("int f(int b) { return __builtin_amdgcn_readlane(b, 0); }\n")
                .amd_only_at
                .is_some()
        );
        assert!(
            view("struct P { __hip_bfloat16 x; };\n")
                .amd_only_at
                .is_some()
        );
        // Not compiled for CUDA, undecidable, or not code.
        for src in [
            "#ifdef __HIP_PLATFORM_AMD__\nint x = __builtin_amdgcn_readfirstlane(1);\n#endif\n",
            "#if __has_builtin(__builtin_amdgcn_readlane)\nint y = __builtin_amdgcn_readlane(1, 0);\n#endif\n",
            "// __builtin_amdgcn_mov_dpp\nconst char *s = \"__hip_bfloat16\";\n",
        ] {
            assert_eq!(view(src).amd_only_at, None, "{src}");
        }
    }

    #[test]
    fn known_attribute_macros_keep_their_meaning() {
        let src = "#define LIBRARY_HOST_DEVICE __host__ __device__\n#define FI __forceinline__\n\
#define DEV __device__\n\
LIBRARY_HOST_DEVICE FI float f(float x) { return x; }\nDEV int g();\n";
        let v = view(src);
        let line = v.text.lines().nth(3).unwrap();
        assert!(line.starts_with("__host__ __device__"), "{line}");
        assert!(!line.contains("FI"));
        // `DEV` is too short for `__device__`: blanked, and noted.
        let at = src.find("DEV int").unwrap();
        assert_eq!(v.qualifiers_in(at..at + 8), ["__device__"]);
    }

    #[test]
    fn unknown_attribute_macros_by_position_and_name() {
        let v = view(
            "template <int N>\nPROJ_DEVICE_INLINE float f(float x);\n\
struct S {\n  PROJ_HOST_DEVICE S() {}\n  PROJ_API ~S() {}\n};\n\
WIDGET_EXPORT void h();\nconst COUNT x = 1;\n",
        );
        assert!(v.text.contains("__device__"), "{}", v.text);
        assert!(!v.text.contains("PROJ_HOST_DEVICE") && !v.text.contains("PROJ_API"));
        assert!(!v.text.contains("WIDGET_EXPORT"));
        // A type in a declaration is not an attribute.
        assert!(v.text.contains("COUNT x"));
    }

    #[test]
    fn attribute_macro_after_a_header_closed_by_a_shift_token() {
        // `env<>>` ends the template header with the token `>>`.
        let v = view(
            "struct S {\n  template <class N, class E = env<>>\n  PROJ_RUNTIME_FUNCTION static int run(N n);\n};\n",
        );
        assert!(!v.text.contains("PROJ_RUNTIME_FUNCTION"), "{}", v.text);
        assert!(v.text.contains("static int run"));
    }

    #[test]
    fn statement_like_macro_calls_are_blanked() {
        let src = "__device__ void f(int *p) {\n  LIB_PRAGMA_UNROLL\n  for (int i = 0; i < 4; ++i) p[i] = 0;\n\
  LIB_STATIC_ASSERT(sizeof(int) == 4, \"int\")\n  p[0] = 1;\n  LIB_CHECK(p);\n  int y = MAX_ITEMS\n    + 1;\n}\n";
        let v = view(src);
        assert!(!v.text.contains("LIB_PRAGMA_UNROLL"));
        assert!(!v.text.contains("LIB_STATIC_ASSERT"));
        // A call followed by `;` parses; an operand is not a statement.
        assert!(v.text.contains("LIB_CHECK(p);"));
        assert!(v.text.contains("MAX_ITEMS"));
    }

    #[test]
    fn statement_arguments_keep_their_first_arm_unless_a_dropped_one_is_warp_code() {
        let src =
            "__device__ void f(int *p) {\n  PAR_OR_SEQ((p[0] = 1; p[1] = 2;), (p[2] = 3;));\n}\n";
        assert_eq!(
            kept(src),
            "__device__ void f(int *p) { {p[0] = 1; p[1] = 2;} ; }"
        );
        let src = "__device__ void f(int *p) {\n  PAR_OR_SEQ((p[0] = 1;), (__syncwarp();));\n}\n";
        assert_eq!(
            kept(src),
            "__device__ void f(int *p) { {p[0] = 1;} {__syncwarp();} ; }"
        );
        let src = "__device__ void f(int v) {\n  EACH_LANE(v += 1; v *= 2;);\n}\n";
        assert_eq!(kept(src), "__device__ void f(int v) { {v += 1; v *= 2;}; }");
    }

    #[test]
    fn concept_emulation_and_grammar_gaps_are_rewritten_in_place() {
        let src = "LIB_TEMPLATE(class T)\nLIB_REQUIRES(is_small<T> LIB_AND(!is_big<T>))\n\
__device__ T f(T v, Opts o = {}) { return g(typename T::S{}); }\n\
template <class T, LIB_REQUIRES(ok<T>)>\n__device__ auto h(T v) LIB_TRAILING_REQUIRES(T)(ok<T>) { return v; }\n\
struct P { __host__ __device__ friend int operator+(P a, P b) { return 0; } };\n";
        let v = view(src);
        assert_eq!(v.text.len(), src.len());
        assert_eq!(
            kept(src),
            "__device__ T f(T v, Opts o =_{}) { return g( T::S{}); } \
template <class T > __device__ auto h(T v) -> T { return v; } \
struct P { friend __host__ __device__ int operator+(P a, P b) { return 0; } };"
        );
    }

    #[test]
    fn static_assert_spellings_become_static_assert() {
        // By name where the definition is not seen, by definition where it
        // is; a name too short to hold `static_assert`, a function-like
        // definition and an unrelated all-caps call are left alone.
        let src = "#define SA static_assert\n#define CHECK_V(x) static_assert(x)\n\
template <int N> struct S {\n  LIB_STATIC_ASSERT(N % 32 == 0, \"warps\");\n\
  SA(N > 0, \"n\");\n  CHECK_V(N);\n  MY_CHECK(N == 4);\n};\n\
#define MY_ASSERT_ALIAS static_assert\nMY_ASSERT_ALIAS(sizeof(int) == 4, \"int\");\n";
        let text = kept(src);
        assert!(text.contains("static_assert (N % 32 == 0"), "{text}");
        assert!(text.contains("static_assert (sizeof(int) == 4"), "{text}");
        assert!(text.contains("SA(N > 0"), "{text}");
        assert!(!text.contains("static_assert (N == 4"), "{text}");
        assert!(!text.contains("LIB_STATIC_ASSERT"), "{text}");
    }

    #[test]
    fn configured_view_parses_where_the_raw_text_did_not() {
        let src = "#define MY_DEVICE __device__ __forceinline__\n\
#if defined(__HIP_PLATFORM_AMD__)\nMY_DEVICE float f(float x) {\n#else\nMY_DEVICE float f(float x) {\n#endif\n\
  MY_PRAGMA_UNROLL\n  for (int i = 0; i < 2; ++i) x += 1.0f;\n  return x;\n}\n";
        let raw = crate::frontend::parse_text(src).unwrap();
        let raw_count = crate::frontend::count_functions(raw.root_node(), src, &[]);
        let v = view(src);
        let tree = crate::frontend::parse_text(&v.text).unwrap();
        let count = crate::frontend::count_functions(tree.root_node(), &v.text, &v.host_bodies);
        assert_eq!(
            count,
            crate::frontend::FunctionCount {
                total: 1,
                with_parse_errors: 0
            }
        );
        assert!(
            raw_count.with_parse_errors > 0 || raw_count.total != 1,
            "{raw_count:?}"
        );
    }
}

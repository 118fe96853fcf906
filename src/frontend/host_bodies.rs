//! Host function bodies are blanked before parsing.
//!
//! Lowering reads a host function (one that neither its specifiers nor its
//! body make device code, `ir::lower::device_kind`) only for its launch
//! sites and, for `get_block_shape`, its returned `dim3`; it skips the rest
//! of its body. Real trees hold much host code (dispatch layers, launchers,
//! examples' `main`), so parsing those bodies is most of the cost of a
//! file for nothing. A body this pass is sure lowering would skip is
//! overwritten with spaces (newlines and byte offsets kept), and the
//! definition parses as `{ }`.
//!
//! Sure means: the `{` follows `name(…)` at namespace or class scope,
//! after a return type, with only cv/ref/`noexcept`/`override`/`final`
//! between; neither the declaration since the previous `;`/`{`/`}` (a
//! superset of lowering's specifier text) nor a blanked attribute macro
//! there says device; the function is not `get_block_shape`; and the
//! body holds none of the words that make it matter ([`KEEP_BODY`]:
//! device-only names and every warp identifier's anchor, launches, device
//! lambdas, directives, suppression comments), and it is not `constexpr`
//! (a constant a device call may read). Anything
//! else (constructors with initializer lists, trailing return types,
//! templates' `f<T>(…)`, operators, unbalanced braces) is kept as written.
//!
//! The same pass, with [`Bodies::DeviceOnly`], blanks the other side for
//! the view launch contracts read: kernels and `__device__`-only functions
//! (not `__host__ __device__`, not `constexpr`, not `get_block_shape`) that
//! launch nothing.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use super::configure::{CodeTok, QualifierNote, TokKind};

/// Text in a body that makes it device code to lowering
/// (`ir::lower::device_kind`, which reads this list).
pub const DEVICE_ONLY_TEXT: &[&str] = &[
    "threadIdx",
    "__syncthreads",
    "__syncwarp",
    "_sync(",
    "__activemask",
    "__shared__",
];

/// Text in a declaration that makes it device code (kernels first):
/// `ir::lower::device_kind` reads these lists.
pub const KERNEL_SPECIFIER_TEXT: &[&str] = &["__global__", "KERNEL"];
pub const DEVICE_SPECIFIER_TEXT: &[&str] = &["__device__", "DEVICE"];

/// What else keeps a body: launches (`<<<…>>>` and the runtime API's, whose
/// kernel may name its template arguments), device lambdas and kernels,
/// directives and suppression comments (with the prefilter's warp anchors
/// and [`DEVICE_ONLY_TEXT`]).
const ALSO_KEPT: &[&str] = &["<<<", "cudaLaunch", "#", "warplint"];

/// The host function whose body lowering reads for a kernel class's block
/// shape (`ir::lower::launch::is_block_shape_getter`).
pub const BLOCK_SHAPE_GETTER: &str = "get_block_shape";

static KEEP_BODY: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let words = (crate::prefilter::ANCHORS.iter())
        .chain(crate::prefilter::GROUP_NAMES)
        .chain(DEVICE_ONLY_TEXT)
        .chain(KERNEL_SPECIFIER_TEXT)
        .chain(DEVICE_SPECIFIER_TEXT)
        .chain(ALSO_KEPT);
    AhoCorasick::new(words).expect("static patterns")
});
static DEVICE_DECL: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let words = KERNEL_SPECIFIER_TEXT.iter().chain(DEVICE_SPECIFIER_TEXT);
    AhoCorasick::new(words).expect("static patterns")
});

/// Tokens between a parameter list and a function body.
pub(super) const TRAILING: &[&[u8]] = &[
    b"const",
    b"volatile",
    b"noexcept",
    b"override",
    b"final",
    b"&",
    b"&&",
];

/// Identifiers that cannot name a function or end its return type.
const NOT_NAMES: &[&[u8]] = &[
    b"if",
    b"for",
    b"while",
    b"switch",
    b"catch",
    b"return",
    b"sizeof",
    b"alignof",
    b"decltype",
    b"noexcept",
    b"throw",
    b"new",
    b"delete",
    b"case",
    b"else",
    b"do",
    b"goto",
    b"operator",
    b"static_assert",
    b"requires",
    b"__attribute__",
    b"__declspec",
    b"__launch_bounds__",
    b"alignas",
    b"co_return",
    b"co_await",
    b"co_yield",
];

/// Which function bodies a pass blanks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bodies {
    /// Host bodies that lowering would skip (the analysed view).
    Host,
    /// Device-only bodies (kernels, `__device__` without `__host__` or
    /// `constexpr`) that launch nothing: the view launch contracts read,
    /// which needs host code only (`tu::contracts`). A generated file of
    /// kernels costs its host launchers' parse, not the kernels'.
    DeviceOnly,
}

/// Blank the host function bodies of `out` (see the module doc), or with
/// [`Bodies::DeviceOnly`] the device-only ones; `toks` are its tokens.
/// Returns the offsets of the blanked bodies' `{`.
pub(super) fn blank_bodies(
    out: &mut [u8],
    toks: &[CodeTok],
    notes: &[QualifierNote],
    launch_macros: &[&str],
    which: Bodies,
) -> Vec<usize> {
    let is = |t: &CodeTok, s: &[u8]| t.kind == TokKind::Punct && &out[t.start..t.end] == s;
    // The matching `}` of each `{`; braces that do not balance stop the pass.
    let mut close = vec![usize::MAX; toks.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if is(t, b"{") {
            open.push(i);
        } else if is(t, b"}") {
            match open.pop() {
                Some(o) => close[o] = i,
                None => return Vec::new(),
            }
        }
    }
    if !open.is_empty() {
        return Vec::new();
    }
    // (the body's `{` and `}` tokens, blankable, the function's name token)
    let mut bodies: Vec<(usize, usize, bool, Option<usize>)> = Vec::new();
    // Host function templates that launch kernels: a launch inside may
    // take its template arguments from the calls that name them
    // (`ir::lower::launch::launch_sites`), so a body calling one as
    // `name<…>(…)` is kept.
    let mut launchers: Vec<&[u8]> = Vec::new();
    let mut declaration_start = 0usize;
    let mut i = 0usize;
    while i < toks.len() {
        let t = &toks[i];
        if is(t, b";") || is(t, b"}") {
            i += 1;
            declaration_start = i;
            continue;
        }
        if !is(t, b"{") {
            i += 1;
            continue;
        }
        let end = close[i];
        match code_body(out, toks, declaration_start, i) {
            Body::Scope => {} // namespace, class, enum, initializer: look inside
            Body::Code {
                host_function,
                name,
            } => {
                let text = &out[t.start..toks[end].end];
                // The declaration's tokens first: few functions are templates.
                if let Some(n) = name
                    && (declaration_start..i)
                        .any(|k| &out[toks[k].start..toks[k].end] == b"template")
                    && crate::prefilter::mentions_launch(text)
                {
                    launchers.push(&out[toks[n].start..toks[n].end]);
                }
                let declared = || declares(which, out, toks, declaration_start, i, notes);
                // A `constexpr` function may be a constant a device call
                // reads (`seg_width()`, `ir::lower::constants`).
                let constexpr = || {
                    (declaration_start..i).any(|k| &out[toks[k].start..toks[k].end] == b"constexpr")
                };
                let blankable = host_function
                    && match which {
                        Bodies::Host => !declared() && !KEEP_BODY.is_match(text) && !constexpr(),
                        Bodies::DeviceOnly => {
                            declared()
                                && !crate::prefilter::mentions_launch(text)
                                && name.is_none_or(|n| {
                                    &out[toks[n].start..toks[n].end]
                                        != BLOCK_SHAPE_GETTER.as_bytes()
                                })
                        }
                    };
                bodies.push((i, end, blankable, name));
                i = end; // a body: nothing inside is at scope level
            }
        }
        i += 1;
        declaration_start = i;
    }
    let launchers: Vec<Vec<u8>> = launchers.into_iter().map(<[u8]>::to_vec).collect();
    let calls_launcher = |open: usize, close: usize| {
        !launchers.is_empty()
            && (open + 1..close).any(|k| {
                toks[k].kind == TokKind::Ident
                    && launchers
                        .iter()
                        .any(|l| l[..] == out[toks[k].start..toks[k].end])
                    && toks.get(k + 1).is_some_and(|n| is(n, b"<"))
            })
    };
    // A body using a macro that launches (`LAUNCH_SOFTMAX(4);`) launches.
    let uses_launch_macro = |open: usize, close: usize| {
        !launch_macros.is_empty()
            && (open + 1..close).any(|k| {
                toks[k].kind == TokKind::Ident
                    && std::str::from_utf8(&out[toks[k].start..toks[k].end])
                        .is_ok_and(|w| launch_macros.binary_search(&w).is_ok())
                    && toks.get(k + 1).is_some_and(|n| is(n, b"("))
            })
    };
    let bodies: Vec<(usize, usize)> = bodies
        .iter()
        .filter(|b| b.2 && !calls_launcher(b.0, b.1) && !uses_launch_macro(b.0, b.1))
        .map(|b| (toks[b.0].end, toks[b.1].start))
        .collect();
    let mut blanked = Vec::with_capacity(bodies.len());
    for (from, to) in bodies {
        for b in &mut out[from..to] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        blanked.push(from - 1);
    }
    blanked
}

enum Body {
    /// Braces whose contents are declarations.
    Scope,
    /// Braces of code; `host_function` when they are surely a function's
    /// body after `type name(…)` (whether host is decided by the caller).
    Code {
        host_function: bool,
        /// The token naming the function, where the shape is `name(…)`.
        name: Option<usize>,
    },
}

/// What the `{` at `toks[brace]` opens, from the tokens of its declaration
/// (`toks[from..brace]`).
fn code_body(out: &[u8], toks: &[CodeTok], from: usize, brace: usize) -> Body {
    let word = |k: usize| &out[toks[k].start..toks[k].end];
    let punct = |k: usize, s: &[u8]| toks[k].kind == TokKind::Punct && word(k) == s;
    // A trailing return type or a constraint: code, but not surely plain.
    if (from..brace).any(|k| punct(k, b"->") || word(k) == b"requires") {
        return Body::Code {
            host_function: false,
            name: None,
        };
    }
    if brace > from && word(brace - 1) == b"try" {
        return Body::Code {
            host_function: false,
            name: None,
        };
    }
    let mut k = brace;
    while k > from && TRAILING.contains(&word(k - 1)) {
        k -= 1;
    }
    if k == from || !punct(k - 1, b")") {
        return Body::Scope;
    }
    // `{` after `)`: a function, constructor, lambda or control statement.
    let code = Body::Code {
        host_function: false,
        name: None,
    };
    let Some(paren) = matching_open(out, toks, from, k - 1) else {
        return code;
    };
    // `noexcept(…)` / `throw()` before the body: not this simple shape.
    if paren == from || !is_name(out, &toks[paren - 1]) {
        return code;
    }
    let name = paren - 1;
    if name == from || word(name) == BLOCK_SHAPE_GETTER.as_bytes() {
        return Body::Code {
            host_function: false,
            name: Some(name),
        }; // no return type: a constructor or a macro call
    }
    let before = &toks[name - 1];
    let typed = match before.kind {
        TokKind::Ident => is_name(out, before),
        TokKind::Punct => matches!(word(name - 1), b">" | b"*" | b"&" | b"&&"),
        _ => false,
    };
    Body::Code {
        host_function: typed,
        name: Some(name),
    }
}

fn is_name(out: &[u8], t: &CodeTok) -> bool {
    t.kind == TokKind::Ident && !NOT_NAMES.contains(&&out[t.start..t.end])
}

/// The `(` matching the `)` at `toks[close]`, not before `toks[from]`.
fn matching_open(out: &[u8], toks: &[CodeTok], from: usize, close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (from..=close).rev() {
        match &out[toks[k].start..toks[k].end] {
            b")" => depth += 1,
            b"(" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Does the declaration before the body at `toks[brace]` say, in its text
/// or a blanked attribute macro's qualifiers, the kind of code `which`
/// pass is about? [`Bodies::Host`]: device code at all (a host body is
/// one whose declaration does not). [`Bodies::DeviceOnly`]: device code and
/// not host, `__global__`, or `__device__` without `__host__` and without
/// `constexpr` (which host code may evaluate).
fn declares(
    which: Bodies,
    out: &[u8],
    toks: &[CodeTok],
    from: usize,
    brace: usize,
    notes: &[QualifierNote],
) -> bool {
    let (span, noted) = declaration(toks, from, brace, notes);
    match which {
        Bodies::Host => {
            let mut noted = noted;
            DEVICE_DECL.is_match(&out[span])
                || noted.any(|q| matches!(q, "__device__" | "__global__"))
        }
        Bodies::DeviceOnly => {
            let noted: Vec<&str> = noted.collect();
            let words: Vec<&[u8]> = toks[from..brace]
                .iter()
                .map(|t| &out[t.start..t.end])
                .collect();
            let has = |q: &str| words.contains(&q.as_bytes()) || noted.contains(&q);
            has("__global__") || (has("__device__") && !has("__host__") && !has("constexpr"))
        }
    }
}

/// The text of the declaration before the body at `toks[brace]` (from the
/// end of the previous one: a blanked macro leaves no token of its own),
/// and the qualifiers of the blanked attribute macros inside it.
fn declaration<'n>(
    toks: &[CodeTok],
    from: usize,
    brace: usize,
    notes: &'n [QualifierNote],
) -> (
    std::ops::Range<usize>,
    impl Iterator<Item = &'static str> + 'n,
) {
    let start = from.checked_sub(1).map_or(0, |p| toks[p].end);
    let end = toks[brace].start;
    // Notes are in text order: only those from `start` on can be inside.
    let first = notes.partition_point(|n| n.span.start < start);
    let noted = notes[first..]
        .iter()
        .take_while(move |n| n.span.start < end)
        .filter(move |n| n.span.end <= end)
        .flat_map(|n| n.qualifiers.iter().copied());
    (start..end, noted)
}

#[cfg(test)]
mod tests {
    use crate::frontend::configure::configure_keeping_host_bodies;
    use crate::frontend::{MacroEnv, PpConfig, configure};

    fn view(src: &str) -> (String, Vec<usize>) {
        let config = PpConfig::default();
        let mut env = MacroEnv::from_config(&config);
        let v = configure(src.as_bytes(), &config, &mut env);
        assert_eq!(v.text.len(), src.len());
        assert_eq!(v.text.lines().count(), src.lines().count());
        (v.text, v.host_bodies)
    }

    fn squeeze(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_body_naming_a_launcher_templates_arguments_is_kept() {
        let src = "template <int S>\nvoid run(int *p) { k<S><<<1, 256>>>(p); }\n\
void plain(int *p) { k<4><<<1, 256>>>(p); }\n\
void host(int *p) {\n  run<4>(p);\n}\n\
void other(int *p) {\n  plain(p);\n  run(p);\n}\n";
        let (text, blanked) = view(src);
        assert!(text.contains("run<4>(p);"), "{text}");
        // `plain` is no template, and `run(p)` names no arguments.
        assert!(!text.contains("plain(p);"), "{text}");
        assert_eq!(blanked.len(), 1);
    }

    #[test]
    fn host_bodies_are_blanked_and_device_ones_kept() {
        let src = "namespace a {\nint host_sum(const int *p, int n) {\n  int s = 0;\n  for (int i = 0; i < n; ++i) s += p[i];\n  return s;\n}\n\
__device__ int dev(int x) { return x + 1; }\n\
struct S {\n  void run() const { helper(1); }\n  __host__ __device__ int both() { return 2; }\n};\n}\n";
        let (text, bodies) = view(src);
        assert_eq!(
            squeeze(&text),
            "namespace a { int host_sum(const int *p, int n) { } \
__device__ int dev(int x) { return x + 1; } \
struct S { void run() const { } __host__ __device__ int both() { return 2; } }; }"
        );
        assert_eq!(bodies.len(), 2);
        assert_eq!(&text[bodies[0]..bodies[0] + 1], "{");
    }

    #[test]
    fn bodies_lowering_reads_are_kept() {
        for src in [
            // a launch site
            "void launch(int n) { k<<<1, 32>>>(n); }",
            // a kernel class's block shape
            "static dim3 get_block_shape() { dim3 b(128, 1, 1); return b; }",
            // a device lambda
            "void each(int n) { for_each(n, [=] __device__ (int i) { use(i); }); }",
            // device-only names
            "int helper(int *s) { return s[threadIdx.x]; }",
            "int helper2(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }",
            // a suppression comment
            "int quiet() { return 1; // warplint: ignore[WL002] reason\n}",
            // a device attribute macro, spelled in place or blanked
            "MY_DEVICE_FN int f() { return 1; }",
            "template <int N> __global__ void kern(int *p) { p[0] = N; }",
            // a constant a device call may read
            "constexpr int row_width() { return 12; }",
            // a runtime launch, whose kernel may name its instance
            "void run(int *p) { cudaLaunchKernelEx(&cfg, k<16>, p); }",
        ] {
            let (text, bodies) = view(src);
            assert!(bodies.is_empty(), "{src}");
            let body = |s: &str| s[s.find('{').unwrap_or(0)..].trim().to_owned();
            // A lambda's execution space is blanked (the grammar does not
            // take it there); the body stays.
            let kept = src.replace("] __device__ (", "]            (");
            assert_eq!(body(&text), body(&kept), "{src}");
        }
    }

    #[test]
    fn shapes_that_are_not_surely_plain_functions_are_kept() {
        for src in [
            // constructors, with and without initializers
            "struct A { A(int v) : x(v) { go(); } A() { go(); } int x; };",
            // a trailing return type, an operator, a template-id, try
            "auto f(int v) -> int { return v; }",
            "struct B { bool operator()(int v) const { return v > 0; } };",
            "template <> int g<int>(int v) { return v; }",
            "int t(int v) try { return v; } catch (...) { return 0; }",
            // a macro call opening a block at file scope
            "BEGIN_NS(x) { int y(int v) { return v; } }",
        ] {
            let (text, _) = view(src);
            let kept_calls = ["go()", "return v > 0", "return v;", "return 0;"];
            assert!(
                kept_calls.iter().any(|c| text.contains(c)) || text.contains("return v"),
                "{src} -> {text}"
            );
            if !src.starts_with("BEGIN_NS") {
                assert_eq!(text.trim(), src.trim(), "{src}");
            }
        }
    }

    #[test]
    fn unbalanced_braces_blank_nothing() {
        let src = "int f() { return 1; }\nint g() { if (x) {\n";
        let (text, bodies) = view(src);
        assert!(bodies.is_empty());
        assert_eq!(text, src);
    }

    /// The launch-contract view blanks device-only bodies that launch
    /// nothing, and keeps host code, host-device and constexpr functions,
    /// block getters and device-side launches.
    #[test]
    fn the_contract_view_blanks_device_only_bodies() {
        let src = "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n\
__device__ float sq(float x) { return x * x; }\n\
__host__ __device__ int threads() { return 128; }\n\
__device__ constexpr int width() { return 32; }\n\
__global__ void parent(float *p) { k<<<1, 32>>>(p); }\n\
struct K { __device__ static dim3 get_block_shape() { return dim3(64); } };\n\
void launch(float *p) { k<<<4, threads()>>>(p); }\n";
        let config = PpConfig::default();
        let mut env = MacroEnv::from_config(&config);
        let view = configure_keeping_host_bodies(src.as_bytes(), &config, &mut env, usize::MAX);
        assert_eq!(view.text.len(), src.len());
        let text = view.text;
        assert!(!text.contains("p[threadIdx.x] = 1.f"), "{text}");
        assert!(!text.contains("return x * x"), "{text}");
        for kept in [
            "return 128",
            "return 32",
            "k<<<1, 32>>>(p)",
            "return dim3(64)",
            "k<<<4, threads()>>>(p)",
        ] {
            assert!(text.contains(kept), "{kept}: {text}");
        }
    }
}

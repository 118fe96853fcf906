//! What of a header a file can reach by name: the prefilter's question for
//! a file without warp code of its own ([`super::Session::unit_reaches_warp_code`]).
//!
//! A header's code enters a file's analysis only as a macro the file's
//! lowering expands or a function linked for a call, both found by name
//! ([`super::Unit::macros`], [`super::Unit::link`]). So a header is cut
//! into its top-level declarations ("entities": a function, a class with
//! its members, a `#define` line, a namespace-scope statement), each with
//! the names the [`Words`] lexer says it may define, every word it holds
//! (its calls, its macro bodies, its class names) and whether it holds
//! warp code. A name reaches the entities defining it, and their words
//! reach further.
//!
//! Soundness: a function or macro must lie whole in an entity defining its
//! name (`tests/words_soundness.rs` checks this on testdata and the
//! corpora). A cut can only fall where the text is balanced, so a lost
//! brace makes a longer entity (more words, never fewer), and a `}` no
//! `{` opened makes the whole header one entity.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::words::{
    Words, hash_word, is_word_byte, key_word, next_token, word_at, word_or_raw_string,
};
use crate::prefilter::{self, block_comment_end, line_comment_end, literal_end};

/// One top-level declaration of a header.
#[derive(Debug)]
struct Entity {
    /// Byte range in the view.
    start: usize,
    end: usize,
    /// Every word it holds, without repeats.
    words: Box<[u64]>,
    warp: bool,
}

/// A header's entities and the names each may define.
#[derive(Debug, Default)]
pub struct Reach {
    entities: Vec<Entity>,
    /// Name → the entities that may define it (a function or a macro).
    by_name: HashMap<u64, Vec<u32>>,
}

impl Reach {
    /// Cut `view` (a configured view: its conditional branches decided)
    /// into entities.
    pub fn of(view: &str) -> Reach {
        let b = view.as_bytes();
        let spans = entity_spans(b).unwrap_or_else(|| vec![(0, b.len())]);
        let mut reach = Reach::default();
        for (start, end) in spans {
            let text = &view[start..end];
            let directive = text.starts_with('#');
            let classes = class_names(text.as_bytes());
            // Only a name before `(` or `<` may define a function: a
            // declaration without either, a class head or a `#`
            // (`#define`s inside an enum) defines nothing a name
            // reaches, so it is left out.
            if classes.is_empty() && !text.bytes().any(|c| matches!(c, b'(' | b'<' | b'#')) {
                continue;
            }
            let words = Words::of(text);
            // A directive defines what its words may name: a tree can
            // read a continued `#define` as defining a later word.
            let names: Vec<u64> = if directive {
                words.all().iter().copied().collect()
            } else {
                words.linkable_names().chain(classes).collect()
            };
            if names.is_empty() {
                continue;
            }
            let index = reach.entities.len() as u32;
            for name in names {
                let entities = reach.by_name.entry(name).or_default();
                if entities.last() != Some(&index) {
                    entities.push(index);
                }
            }
            reach.entities.push(Entity {
                start,
                end,
                words: words.all().iter().copied().collect(),
                warp: prefilter::has_warp_code(text.as_bytes()),
            });
        }
        reach
    }

    /// The entities `names` reach that `reached` does not hold yet: each
    /// is added to `reached`. True when one holds warp code (the first
    /// found ends the step); otherwise the words of those reached are
    /// added to `next`.
    pub fn step(
        &self,
        names: &HashSet<u64>,
        reached: &mut HashSet<u32>,
        next: &mut HashSet<u64>,
    ) -> bool {
        self.visit(names, reached, next, true)
    }

    /// [`Reach::step`]; `stop`: return at the first entity holding warp
    /// code (else reach every one, and say whether any held some).
    fn visit(
        &self,
        names: &HashSet<u64>,
        reached: &mut HashSet<u32>,
        next: &mut HashSet<u64>,
        stop: bool,
    ) -> bool {
        let mut warp = false;
        let mut visit = |entities: &Vec<u32>| {
            for &e in entities {
                if reached.insert(e) {
                    let entity = &self.entities[e as usize];
                    next.extend(entity.words.iter().copied());
                    warp |= entity.warp;
                    if warp && stop {
                        return true;
                    }
                }
            }
            false
        };
        let stopped = if names.len() <= self.by_name.len() {
            (names.iter())
                .filter_map(|n| self.by_name.get(n))
                .any(&mut visit)
        } else {
            (self.by_name.iter())
                .filter(|(n, _)| names.contains(n))
                .any(|(_, es)| visit(es))
        };
        stopped || warp
    }

    /// The entities reached from a call or use of `name` alone (its
    /// [`key_word`], as `Unit::link` looks it up), as byte ranges, and
    /// whether one holds warp code (for the soundness test).
    pub fn closure_of(&self, name: &str) -> (Vec<(usize, usize)>, bool) {
        let mut fresh: HashSet<u64> = HashSet::default();
        fresh.extend(key_word(name));
        let mut names = fresh.clone();
        let mut reached: HashSet<u32> = HashSet::default();
        let mut warp = false;
        while !fresh.is_empty() {
            let mut next = HashSet::default();
            warp |= self.visit(&fresh, &mut reached, &mut next, false);
            next.retain(|w| !names.contains(w));
            names.extend(next.iter().copied());
            fresh = next;
        }
        let mut spans: Vec<(usize, usize)> = reached
            .into_iter()
            .map(|e| {
                let e = &self.entities[e as usize];
                (e.start, e.end)
            })
            .collect();
        spans.sort_unstable();
        (spans, warp)
    }
}

/// Where each top-level declaration starts and ends, or `None` where the
/// braces do not balance (a `}` that closes nothing).
///
/// A declaration ends at a `;` or at a `}` that closes its last bracket,
/// unless the next token continues it (`,` or `{` in a constructor's
/// initializer list, `catch`, or a `;`). `namespace … {` and `extern "…" {`
/// open no declaration: their contents are top level. Directive lines
/// outside declarations are declarations of their own; their brackets
/// never count.
fn entity_spans(b: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut spans = Vec::new();
    // Open brackets of the current declaration; `true` for a namespace's
    // `{` (kept apart: `namespaces`).
    let mut open: Vec<u8> = Vec::new();
    let mut namespaces = 0usize;
    let mut start: Option<usize> = None;
    // `namespace`/`extern "…"` read at top level: a `{` next is a scope.
    let mut scope_pending = false;
    let mut at_line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            at_line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = line_comment_end(b, i);
            at_line_start = b[..i].ends_with(b"\n");
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = block_comment_end(b, i);
            continue;
        }
        if at_line_start && c == b'#' {
            let end = directive_end(b, i);
            // Only a `#define` gives a unit anything (an `#include`'s
            // header is a unit's header of its own).
            if start.is_none() && is_define(&b[i + 1..end]) {
                spans.push((i, end));
            }
            i = end;
            continue;
        }
        at_line_start = false;
        let at = i;
        if start.is_none() {
            start = Some(at);
        }
        match c {
            b'"' | b'\'' => {
                i = literal_end(b, i + 1, c);
                continue;
            }
            b'(' | b'[' => open.push(c),
            // Only its own opener: a stray `)` must not close a body.
            b')' | b']' if open.last() == Some(&if c == b')' { b'(' } else { b'[' }) => {
                open.pop();
            }
            b'{' if open.is_empty() && scope_pending => {
                scope_pending = false;
                namespaces += 1;
                start = None;
            }
            b'{' => open.push(c),
            b'}' if open.is_empty() => {
                // A namespace's `}` (what came before it without a `;`, a
                // macro's use, ends there).
                namespaces = namespaces.checked_sub(1)?;
                if let Some(s) = start.take()
                    && s < at
                {
                    spans.push((s, at));
                }
            }
            b'}' => {
                // Brackets left open inside the braces close with them.
                while open.pop().is_some_and(|o| o != b'{') {}
                if open.is_empty() && !continues(b, i + 1) {
                    spans.push((start.take().unwrap_or(at), i + 1));
                }
            }
            b';' if open.is_empty() => {
                scope_pending = false;
                spans.push((start.take().unwrap_or(at), i + 1));
            }
            _ if is_word_byte(c) => {
                let s = i;
                let raw;
                (i, raw) = word_or_raw_string(b, i);
                if raw {
                    continue;
                }
                let word = &b[s..i];
                if open.is_empty() {
                    if word == b"namespace" {
                        scope_pending = true;
                    } else if word == b"extern" {
                        // `extern "C" {`: the literal, then the brace.
                        let n = next_token(b, i);
                        if b.get(n) == Some(&b'"') {
                            let after = next_token(b, literal_end(b, n + 1, b'"'));
                            scope_pending = b.get(after) == Some(&b'{');
                        }
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = start {
        spans.push((s, b.len()));
    }
    Some(spans)
}

/// The names a `class`, `struct` or `union` head gives (with any
/// attribute words before the name: more names, never fewer). A member
/// defined out of its class names the class, whose static members'
/// initializers are the member's prelude. Not a template parameter's
/// `class T` (after `<` or `,`), which every template would share.
fn class_names(b: &[u8]) -> Vec<u64> {
    const MAX_HEAD_WORDS: usize = 8;
    let mut names = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !is_word_byte(b[i]) || (i > 0 && is_word_byte(b[i - 1])) {
            i += 1;
            continue;
        }
        let end = i + word_at(b, i).len();
        let keyword = matches!(&b[i..end], b"class" | b"struct" | b"union");
        let before = b[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
        if !keyword || matches!(before, Some(b'<' | b',')) {
            i = end;
            continue;
        }
        // The words of the head, up to what ends it.
        let mut j = end;
        for _ in 0..MAX_HEAD_WORDS {
            while j < b.len() && !is_word_byte(b[j]) && !b"{;:<>=,)".contains(&b[j]) {
                j += 1;
            }
            if j >= b.len() || !is_word_byte(b[j]) {
                break;
            }
            let e = j + word_at(b, j).len();
            if !b[j].is_ascii_digit() {
                names.push(hash_word(&b[j..e]));
            }
            j = e;
        }
        i = end;
    }
    names
}

/// Does a directive's text (after the `#`) define a macro?
fn is_define(d: &[u8]) -> bool {
    let s = d
        .iter()
        .position(|&c| !c.is_ascii_whitespace())
        .unwrap_or(d.len());
    d[s..].starts_with(b"define") && !d.get(s + 6).copied().is_some_and(is_word_byte)
}

/// Does the token after a closing `}` continue the declaration?
fn continues(b: &[u8], from: usize) -> bool {
    let n = next_token(b, from);
    match b.get(n) {
        Some(b',' | b'{' | b';') => true,
        Some(_) => b[n..].starts_with(b"catch") && !b.get(n + 5).copied().is_some_and(is_word_byte),
        None => false,
    }
}

/// The end of the directive line starting at `i`: continuations and
/// comments included.
fn directive_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\n' if !(b[..i].ends_with(b"\\") || b[..i].ends_with(b"\\\r")) => return i,
            // A line comment ends the directive with its line.
            b'/' if b.get(i + 1) == Some(&b'/') => return line_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'"' | b'\'' => i = literal_end(b, i + 1, b[i]),
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Does a call of `name` reach warp code in `text`?
    fn reaches_warp(text: &str, name: &str) -> bool {
        Reach::of(text).closure_of(name).1
    }

    #[test]
    fn a_name_reaches_its_definition_and_what_that_calls() {
        let text = "__device__ int lane() { return threadIdx.x & 31; }\n\
                    __device__ float shift(float v) { return __shfl_down_sync(0xffffffffu, v, 1); }\n\
                    __device__ float pair(float v) { return v + shift(v); }\n";
        assert!(!reaches_warp(text, "lane"));
        assert!(reaches_warp(text, "shift"));
        assert!(reaches_warp(text, "pair"), "through its call of shift");
    }

    #[test]
    fn namespaces_and_extern_c_blocks_are_not_declarations() {
        let text = "namespace a { namespace b __attribute__((visibility(\"default\"))) {\n\
                    __device__ void quiet() {}\n\
                    __device__ void loud() { __syncwarp(); }\n\
                    } }\n\
                    extern \"C\" {\n__device__ void c_quiet() {}\n__device__ void c_loud() { __syncthreads(); }\n}\n";
        assert!(!reaches_warp(text, "quiet"));
        assert!(reaches_warp(text, "loud"));
        assert!(!reaches_warp(text, "c_quiet"));
        assert!(reaches_warp(text, "c_loud"));
    }

    #[test]
    fn a_constructor_initializer_list_with_braces_is_one_declaration() {
        // An out-of-class constructor: `x{0}` and `y{1}` close braces
        // before the body.
        let text = "Acc::Acc() : x{0}, y{1} { __syncwarp(); }\n__device__ void other() {}\n";
        assert!(reaches_warp(text, "Acc"));
        assert!(!reaches_warp(text, "other"));
    }

    #[test]
    fn a_member_reaches_its_class_and_the_constructor_out_of_it() {
        // In the class: the constructor's field values are the member's
        // prelude, so the whole class is one declaration.
        let inside = "struct Lane { int id; __device__ Lane() : id(lane_id()) {} __device__ int get() { return id; } };\n\
                      __device__ int lane_id() { return __activemask(); }\n";
        assert!(reaches_warp(inside, "get"));
        // Out of the class: the member's qualifier names the class, whose
        // constructor is defined elsewhere.
        let outside = "template <int N> struct W { __device__ W(); __device__ int run(); int v; };\n\
                       template <int N> __device__ int W<N>::run() { return v; }\n\
                       template <int N> __device__ W<N>::W() : v(__popc(__activemask())) {}\n";
        assert!(reaches_warp(outside, "run"));
    }

    #[test]
    fn a_macro_reaches_its_body_and_a_name_used_in_a_body_defines_nothing() {
        let text = "#define FULL 0xffffffffu\n\
                    #define SYNC() __syncwarp(FULL)\n\
                    __device__ void user(float x) { absolute<float>{}(x); }\n\
                    __device__ void other(float x) { __syncwarp(); absolute<float>{}(x); }\n";
        assert!(reaches_warp(text, "SYNC"));
        assert!(!reaches_warp("#define FULL 0xffffffffu\n", "FULL"));
        // `absolute<float>{}` in a body is a use, not a definition.
        assert!(!reaches_warp(text, "absolute"));
        assert!(!reaches_warp(text, "user"));
    }

    #[test]
    fn operators_are_never_looked_up_by_name_but_classes_are() {
        // `Unit::link` takes no function for `op(x)` on a functor, nor for
        // the name `operator()`. A class's name reaches the class: its
        // constructors and static members are its members' prelude.
        let text = "struct Max { __device__ float operator()(float v) const { return __shfl_xor_sync(~0u, v, 1); } };\n";
        assert!(!reaches_warp(text, "operator()"));
        assert!(reaches_warp(text, "Max"));
        // A template parameter's `class T` names no class.
        let generic = "template <typename U, class T> __device__ T twice(T v) { __syncwarp(); return v + v; }\n";
        assert!(!reaches_warp(generic, "T"));
        assert!(reaches_warp(generic, "twice"));
    }

    #[test]
    fn a_stray_parenthesis_does_not_end_a_body() {
        let text = "__device__ void f() { g()); h(); __syncwarp(); }\n__device__ void k() {}\n";
        assert!(reaches_warp(text, "f"));
        assert!(!reaches_warp(text, "k"));
    }

    #[test]
    fn a_brace_that_closes_nothing_makes_the_header_one_declaration() {
        let text = "} __device__ void f() {}\n__device__ void g() { __syncwarp(); }\n";
        assert!(reaches_warp(text, "f"), "unbalanced: everything is reached");
    }

    #[test]
    fn directives_inside_a_declaration_do_not_count_braces() {
        let text =
            "__device__ void f() {\n#define OPEN {\n  __syncwarp();\n}\n__device__ void g() {}\n";
        assert!(reaches_warp(text, "f"));
        assert!(!reaches_warp(text, "g"));
        // An `#include` gives nothing, whatever its name says.
        assert!(!reaches_warp("#include <ptx/shfl_sync.h>\n", "ptx"));
        // A continued `#define` may be read as defining a later word.
        let continued = "#define END_NS \\\n  } /* end */ \\\n  POSTFIX\n";
        assert!(!Reach::of(continued).closure_of("POSTFIX").0.is_empty());
    }
}

//! The byte prefilter: decide, before parsing, whether a file can hold
//! anything a rule looks at. Parsing dominates the cost of a lint run, and in
//! a real tree most headers contain no warp-level code at all.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

/// Substrings that locate every candidate identifier (`sync` covers
/// `*_sync`, `__syncwarp`, `__syncthreads*`, `.sync()` and PTX's
/// `bar.sync`; `arrive` PTX's `bar.arrive`), with
/// [`GROUP_NAMES`]. A candidate is then judged as a whole identifier by
/// [`is_warp_identifier`].
pub const ANCHORS: &[&str] = &[
    "__shfl",
    "__ballot",
    "__any",
    "__all",
    "sync",
    "arrive",
    "__activemask",
    "__shared__",
];

/// Names without which no cooperative group has lanes the lowering knows
/// (`ir::lower::coop`: a group's kind comes from its declared type or its
/// initializer). A tile's `shfl_down`, `ballot` or `cg::reduce(tile, …)` is
/// a rule's trigger, and a file may hold nothing else warp-level.
pub const GROUP_NAMES: &[&str] = &[
    "thread_block", // also thread_block_tile, this_thread_block
    "tiled_partition",
    "this_grid",
    "grid_group",
    "this_cluster",
    "cluster_group",
    "coalesced_threads",
];

/// Legacy maskless primitives, matched as whole identifiers only: `__all`
/// must not match `__all_of` or `__allocator`.
const LEGACY_NAMES: &[&str] = &[
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot",
    "__any",
    "__all",
];

/// True when `ident` (a whole identifier) can be a rule's trigger. `next` is
/// the first non-blank byte after it. Every rule's trigger must satisfy this;
/// `tests::every_rule_trigger_passes` and `tests/prefilter_soundness.rs`
/// guard it.
fn is_warp_identifier(ident: &[u8], next: Option<u8>) -> bool {
    LEGACY_NAMES.iter().any(|n| n.as_bytes() == ident)
        || ident.ends_with(b"_sync") // __shfl_sync, __reduce_add_sync, __match_any_sync, …
        || ident.starts_with(b"__syncwarp")
        || ident.starts_with(b"__syncthreads") // and _count/_and/_or
        || ident == b"__activemask"
        || ident == b"__shared__"
        || GROUP_NAMES.iter().any(|n| contains(ident, n.as_bytes()))
        // cg::sync(g), block.sync(); a comment, a line continuation or a
        // byte tree-sitter may skip as an error can stand before the `(`.
        || (ident == b"sync" && next.is_some_and(|b| matches!(b, b'(' | b'/' | b'\\') || b >= 0x7f))
}

/// PTX opcodes whose `.sync` makes them warp collectives (`shfl.sync.down`,
/// `elect.sync`, `bar.warp.sync`, `match.any.sync`).
const PTX_WARP_OPCODES: &[&[u8]] = &[
    b"shfl.",
    b"vote.",
    b"redux.",
    b"elect.",
    b"match.any.",
    b"match.all.",
    b"bar.warp.",
];

/// Is the identifier at `start..end` the `sync` or `arrive` of a barrier in
/// inline PTX (`bar.sync 1, 128;`, `barrier.cta.arrive %0, %1;`), or the
/// `sync` of a warp collective there (`shfl.sync.down.b32`, `elect.sync`)?
fn is_ptx_sync_word(bytes: &[u8], start: usize, end: usize) -> bool {
    let before = &bytes[..start];
    let opcode = |before: &[u8], op: &[u8]| {
        before
            .strip_suffix(op)
            .is_some_and(|rest| rest.last().is_none_or(|&b| !is_ident_byte(b)))
    };
    let word = &bytes[start..end];
    let cta = before.strip_suffix(b"cta.").unwrap_or(before);
    let barrier =
        matches!(word, b"sync" | b"arrive") && (opcode(cta, b"bar.") || opcode(cta, b"barrier."));
    barrier || (word == b"sync" && PTX_WARP_OPCODES.iter().any(|op| opcode(before, op)))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Markers that make a `.h`/`.cpp`-style file CUDA source.
const CUDA_MARKERS: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "<<<",
    "threadIdx",
    "__syncthreads",
    "__CUDA_ARCH__",
    "__shfl",
    "__ballot",
    "cooperative_groups",
];

static WARP: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(ANCHORS.iter().chain(GROUP_NAMES)).expect("static patterns"));
static CUDA: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(CUDA_MARKERS).expect("static patterns"));

/// Could this text define device code the IR lowers (a kernel, a device
/// function or lambda)? Lowering only takes functions whose declaration
/// says `__global__`/`__device__` (or a macro containing `KERNEL`/`DEVICE`)
/// or whose body uses device-only names, which [`has_warp_code`] already
/// catches; so a file without these bytes has no function that could call
/// a header's warp code. Case-insensitive substring test: only ever says
/// yes too often.
pub fn may_define_device_code(bytes: &[u8]) -> bool {
    static DEVICE: LazyLock<AhoCorasick> = LazyLock::new(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(["device", "kernel", "__global__"])
            .expect("static patterns")
    });
    DEVICE.is_match(bytes)
}

/// True when the file may hold warp-relevant *code* and must be parsed: some
/// identifier outside comments satisfies [`is_warp_identifier`]. String
/// literals count as code (inline PTX and macro tricks live there), and so
/// does anything the lexer is unsure about; only text that is certainly a
/// comment is ignored.
pub fn has_warp_code(bytes: &[u8]) -> bool {
    let mut lexer = Lexer::new(bytes);
    let mut judged_until = 0;
    for m in WARP.find_iter(bytes) {
        if m.start() < judged_until {
            continue; // another anchor inside an identifier already judged
        }
        let start = ident_start(bytes, m.start());
        let end = ident_end(bytes, m.end());
        judged_until = end;
        let next = bytes[end..].iter().copied().find(|&b| b > b' ');
        if (is_warp_identifier(&bytes[start..end], next) || is_ptx_sync_word(bytes, start, end))
            && !(&bytes[start..end] == b"sync" && is_bare_empty_call(bytes, start, end))
            && !lexer.in_comment_at(start)
        {
            return true;
        }
    }
    false
}

/// Is the identifier at `start..end` called with no receiver and no
/// argument (`sync()`, a stream's or event's own member)? No group's sync
/// is written so: `g.sync()`, `cg::sync(g)`, `sync(g)`. Anything unsure (a
/// comment or continuation next to it) is not.
fn is_bare_empty_call(bytes: &[u8], start: usize, end: usize) -> bool {
    let prev = bytes[..start].iter().rev().copied().find(|&b| b > b' ');
    if prev.is_none_or(|b| matches!(b, b'.' | b'>' | b':' | b'/' | b'\\') || b >= 0x7f) {
        return false;
    }
    let after = |i: usize| (i..bytes.len()).find(|&j| bytes[j] > b' ');
    after(end).is_some_and(|open| {
        bytes[open] == b'(' && after(open + 1).is_some_and(|close| bytes[close] == b')')
    })
}

/// ASCII identifier bytes only. tree-sitter also takes some non-ASCII
/// letters (and `$`) into identifiers, so its identifier is never shorter
/// than ours; judging the shorter, ASCII-only one can only pass more files.
/// (An invalid byte, replaced by U+FFFD, splits an identifier for
/// tree-sitter, which a "bytes >= 0x80 are letters" rule got wrong: found by
/// the prefilter fuzz target.)
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn ident_start(bytes: &[u8], mut i: usize) -> usize {
    while i > 0 && is_ident_byte(bytes[i - 1]) {
        i -= 1;
    }
    i
}

fn ident_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_ident_byte(bytes[i]) {
        i += 1;
    }
    i
}

/// A forward-only C/C++ lexer that only knows comments, string and character
/// literals (raw strings included), as tree-sitter-cuda lexes them. It is
/// asked about increasing offsets and never rescans, so one file costs at
/// most one pass (every lookahead it makes is cached).
///
/// Soundness matters in one direction only: code taken for a comment could
/// hide a trigger, so every doubt resolves to "not a comment" (an
/// unterminated literal ends at the end of its line; a digit separator
/// `1'000` at worst makes the rest of its line a character literal, which
/// counts as code). Where tree-sitter's lexer differs from a compiler's, we
/// follow tree-sitter, since the rules read its tree: it ends a comment at a
/// NUL byte, and it does not take an unclosed `/*` for a comment.
struct Lexer<'a> {
    bytes: &'a [u8],
    /// Start of the region not yet classified; it begins in `mode`.
    pos: usize,
    mode: Mode,
    /// Next `*/` and next NUL at or after some earlier offset (`None`: there
    /// is none), reused while the queries stay before them.
    next_close: Option<Option<usize>>,
    next_nul: Option<Option<usize>>,
    /// (last offset asked about, start of its line).
    line: (usize, usize),
    /// For the line starting at `.0`: the byte range of an `#include <…>`
    /// header name on it (empty when there is none).
    header_name: Option<(usize, std::ops::Range<usize>)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    LineComment,
    /// A string or character literal that ends at `quote` (or the line end).
    Literal(u8),
    /// A raw string literal that ends (exclusive) at this offset.
    Raw {
        end: usize,
    },
}

/// The first occurrence of `needle` at or after `from`, cached in `slot`
/// while `from` has not passed it.
fn next_cached(
    slot: &mut Option<Option<usize>>,
    b: &[u8],
    from: usize,
    needle: &[u8],
) -> Option<usize> {
    match *slot {
        Some(None) => return None,
        Some(Some(at)) if at >= from => return Some(at),
        _ => {}
    }
    let found = memchr::memmem::find(&b[from..], needle).map(|i| from + i);
    *slot = Some(found);
    found
}

impl<'a> Lexer<'a> {
    fn new(bytes: &'a [u8]) -> Lexer<'a> {
        Lexer {
            bytes,
            pos: 0,
            mode: Mode::Code,
            next_close: None,
            next_nul: None,
            line: (0, 0),
            header_name: None,
        }
    }

    fn next_nul(&mut self, from: usize) -> Option<usize> {
        next_cached(&mut self.next_nul, self.bytes, from, b"\0")
    }

    /// The end (exclusive) of a block comment whose text starts at `from`,
    /// or `None` when tree-sitter would not read a comment there (no `*/`
    /// follows, or a NUL comes first).
    fn block_comment_end(&mut self, from: usize) -> Option<usize> {
        let close = next_cached(&mut self.next_close, self.bytes, from, b"*/")?;
        match self.next_nul(from) {
            Some(nul) if nul < close => None,
            _ => Some(close + 2),
        }
    }

    /// Start of the line holding `at` (queries never go backwards).
    fn line_start(&mut self, at: usize) -> usize {
        let (from, start) = self.line;
        let start = memchr::memrchr(b'\n', &self.bytes[from..at]).map_or(start, |i| from + i + 1);
        self.line = (at, start);
        start
    }

    /// Is the `/` at `at` inside the `<…>` of an `#include` line? There
    /// tree-sitter reads `<a//b.h>` as a header name, not a comment.
    fn in_system_header_name(&mut self, at: usize) -> bool {
        let start = self.line_start(at);
        if self.header_name.as_ref().is_none_or(|(s, _)| *s != start) {
            self.header_name = Some((start, header_name_range(self.bytes, start)));
        }
        self.header_name
            .as_ref()
            .is_some_and(|(_, range)| range.contains(&at))
    }

    /// Is the byte at `target` inside a comment? Targets must not decrease.
    fn in_comment_at(&mut self, target: usize) -> bool {
        let b = self.bytes;
        loop {
            // The end (exclusive) of the region that starts at `pos`, and
            // the mode after it.
            let (end, after) = match self.mode {
                Mode::Code => match memchr::memchr3(b'/', b'"', b'\'', &b[self.pos..]) {
                    None => return false,
                    Some(i) => {
                        let at = self.pos + i;
                        if at >= target {
                            return false;
                        }
                        match (b[at], b.get(at + 1)) {
                            (b'/', Some(b'/' | b'*')) if self.in_system_header_name(at) => {
                                (at + 1, Mode::Code)
                            }
                            (b'/', Some(b'/')) => (at + 2, Mode::LineComment),
                            (b'/', Some(b'*')) => match self.block_comment_end(at + 2) {
                                Some(end) if end > target => return true,
                                Some(end) => (end, Mode::Code),
                                None => (at + 2, Mode::Code),
                            },
                            (b'/', _) => (at + 1, Mode::Code),
                            (b'"', _) => match raw_string_end(b, at) {
                                Some(end) => (at + 1, Mode::Raw { end }),
                                None => (at + 1, Mode::Literal(b'"')),
                            },
                            _ => (at + 1, Mode::Literal(b'\'')),
                        }
                    }
                },
                Mode::LineComment => {
                    let mut end = line_comment_end(b, self.pos);
                    if let Some(nul) = self.next_nul(self.pos).filter(|&n| n < end) {
                        end = nul;
                    }
                    if end > target {
                        return true;
                    }
                    (end, Mode::Code)
                }
                Mode::Literal(quote) => {
                    let end = literal_end(b, self.pos, quote);
                    if end > target {
                        return false;
                    }
                    (end, Mode::Code)
                }
                Mode::Raw { end } => {
                    if end > target {
                        return false;
                    }
                    (end, Mode::Code)
                }
            };
            self.pos = end;
            self.mode = after;
        }
    }
}

/// The header name's bytes on an `#include <…>` (or `#include_next`,
/// `#import`) line starting at `start`; empty for any other line.
fn header_name_range(b: &[u8], start: usize) -> std::ops::Range<usize> {
    let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i);
    let line = &b[start..end];
    let rest = line.trim_ascii_start();
    let Some(rest) = rest.strip_prefix(b"#") else {
        return 0..0;
    };
    let rest = rest.trim_ascii_start();
    let Some(rest) = [&b"include_next"[..], b"include", b"import"]
        .iter()
        .find_map(|kw| rest.strip_prefix(*kw))
    else {
        return 0..0;
    };
    let rest = rest.trim_ascii_start();
    if !rest.starts_with(b"<") {
        return 0..0;
    }
    let open = end - rest.len();
    let close = memchr::memchr(b'>', &b[open..end]).map_or(end, |i| open + i);
    open..close
}

/// End (exclusive) of a `//` comment whose text starts at `from`: the first
/// newline not escaped by a backslash (a continued line stays a comment).
pub(crate) fn line_comment_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(off) = memchr::memchr(b'\n', &b[i..]) {
        let nl = i + off;
        let mut j = nl;
        if j > from && b[j - 1] == b'\r' {
            j -= 1;
        }
        if j > from && b[j - 1] == b'\\' {
            i = nl + 1;
            continue;
        }
        return nl + 1;
    }
    b.len()
}

/// End (exclusive) of the block comment opened at `from` (its `/*`):
/// after the `*/`, or the end of the text.
pub(crate) fn block_comment_end(b: &[u8], from: usize) -> usize {
    memchr::memmem::find(&b[from + 2..], b"*/").map_or(b.len(), |e| from + 2 + e + 2)
}

/// End (exclusive) of a literal whose body starts at `from`: after the
/// closing quote, or at the end of the line if it is unterminated.
pub(crate) fn literal_end(b: &[u8], from: usize, quote: u8) -> usize {
    let mut i = from;
    while let Some(off) = memchr::memchr3(quote, b'\\', b'\n', &b[i..]) {
        let at = i + off;
        match b[at] {
            b'\\' => i = at + 2,
            b'\n' => return at,
            _ => return at + 1,
        }
        if i >= b.len() {
            return b.len();
        }
    }
    b.len()
}

/// For a `"` at `quote` that opens a raw string (`R"delim(`, also `u8R`,
/// `LR`, …): the end (exclusive) of the whole literal, after `)delim"`, or
/// the end of the file when it is unterminated. `None` if not a raw string.
pub(crate) fn raw_string_end(b: &[u8], quote: usize) -> Option<usize> {
    if quote == 0 || b[quote - 1] != b'R' {
        return None;
    }
    // `R` must be the literal's prefix, not the end of an identifier `FOOR`.
    let prefix = &b[ident_start(b, quote)..quote];
    if !matches!(prefix, b"R" | b"LR" | b"uR" | b"UR" | b"u8R") {
        return None;
    }
    let open = quote + 1;
    let paren = open + b[open..].iter().take(17).position(|&c| c == b'(')?;
    let delim = &b[open..paren];
    if delim
        .iter()
        .any(|&c| c.is_ascii_whitespace() || c == b'\\' || c == b')')
    {
        return None;
    }
    let mut from = paren + 1;
    while let Some(off) = memchr::memchr(b')', &b[from..]) {
        let tail = from + off + 1;
        if b[tail..].starts_with(delim) && b.get(tail + delim.len()) == Some(&b'"') {
            return Some(tail + delim.len() + 1);
        }
        from = tail;
    }
    Some(b.len())
}

/// Does the text launch a kernel, with `<<<…>>>` or a runtime launch
/// (`cudaLaunch…`)? Substring tests: only ever say yes too often.
pub fn mentions_launch(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"<<<").is_some()
        || memchr::memmem::find(bytes, b"cudaLaunch").is_some()
}

/// Does the text explicitly instantiate a kernel template
/// (`template __global__ void k<4>(int*);`)? A substring test, as
/// [`mentions_launch`].
pub fn mentions_kernel_instantiation(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"template __global__").is_some()
}

/// True when a file of a non-CUDA extension contains CUDA constructs.
pub fn looks_like_cuda(bytes: &[u8]) -> bool {
    CUDA.is_match(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(s: &str) -> bool {
        has_warp_code(s.as_bytes())
    }

    #[test]
    fn every_rule_trigger_passes() {
        for trigger in [
            "__shfl(v, 0)",
            "__shfl_up(v, 1)",
            "__shfl_down(v, 1)",
            "__shfl_xor(v, 1)",
            "__ballot(p)",
            "__any(p)",
            "__all(p)",
            "::__all (p)",
            "__shfl_down_sync(m, v, 1)",
            "__shfl_sync(m, v, 0, 16)",
            "__ballot_sync(m, p)",
            "__any_sync(m, p)",
            "__all_sync(m, p)",
            "__uni_sync(m, p)",
            "__match_any_sync(__activemask(), k)",
            "__match_all_sync(m, k, &pred)",
            "__reduce_add_sync(m, v)",
            "__syncwarp()",
            "__syncwarp(0xfffffffe)",
            "__syncthreads()",
            "__syncthreads_count(p)",
            "__syncthreads_and(p)",
            "__syncthreads_or(p)",
            "__activemask()",
            "__shared__ float s[32];",
            "extern __shared__ float dyn[];",
            "cg::sync(block)",
            "block.sync()",
            "g.sync ()",
            "g.sync /* now */ ()",
            "g.sync \\\n ()",
            "g.sync\u{a0}()",
            "sync(block)",
            "stream->sync()",
            // Cooperative groups whose lanes the lowering knows: their
            // shuffles, votes and collectives need no `_sync` name.
            "cg::thread_block_tile<32> t = cg::tiled_partition<32>(b); v = t.shfl_down(v, 1);",
            "auto t = tiled_partition<8>(this_thread_block()); v = cg::inclusive_scan(t, v);",
            "float f(const cg::thread_block_tile<16> &t, float v) { return cg::reduce(t, v, op); }",
            "auto g = cg::this_grid(); r = g.thread_rank();",
            "cg::cluster_group c = cg::this_cluster();",
            "sync /* g */ ()",
            "\u{fffd}__ballot(p)",
            "\u{e9}__shfl(v, 0)",
            "x\u{fffd}__syncwarp()",
            "#define SHFL(v) __shfl(v, 0)",
            "asm volatile(\"bar.sync 0;\"); x = \"__syncthreads\";",
            "asm volatile(\"bar.sync 1, 128;\" ::: \"memory\");",
            "asm volatile(\"barrier.arrive %0, %1;\" :: \"r\"(id), \"r\"(n));",
            // Warp collectives in inline PTX.
            "asm volatile(\"{ shfl.sync.down.b32 t|p, %0, 1, 31, 0xffffffff; }\" : \"+r\"(v));",
            "asm volatile(\"redux.sync.add.u32 %0, %1, 0xffffffff;\" : \"=r\"(t) : \"r\"(v));",
            "asm volatile(\"vote.sync.ballot.b32 %0, p, %1;\" : \"=r\"(b) : \"r\"(m));",
            "asm volatile(\"match.any.sync.b32 %0, %1, %2;\" : \"=r\"(g) : \"r\"(k), \"r\"(m));",
            "asm volatile(\"elect.sync _|%%px, %0;\" :: \"r\"(m));",
            "asm volatile(\"bar.warp.sync %0;\" :: \"r\"(m));",
        ] {
            assert!(passes(trigger), "{trigger}");
        }
    }

    #[test]
    fn files_without_warp_code_are_skipped() {
        for clean in [
            "int main() { return 0; }",
            // Whole identifiers only.
            "bool b = __all_of(v) || __any_of(v); __allocator a; __any_cast<int>(x);",
            "cuda::std::async(f); memcpy_async(d, s, n); __sync_fetch_and_add(&x, 1) ;",
            "int sync = 3; syncer(); x.synchronize(); cudaDeviceSynchronize();",
            // `arrive` only as a PTX barrier's.
            "token = bar_.arrive(); arrive_count++; foobar.arrive();",
            // `sync` only after a PTX collective's opcode.
            "relect.sync = 1; xvote.sync = 2; a.shfl.syncs = 3;",
            // A function named `sync` is no group's: `sync()` has neither.
            "__host__ void sync() const { cudaStreamSynchronize(s); }\nvoid wait() { sync (); }",
            // Comments never count.
            "// calls __syncthreads() here\nint x;",
            "/* __shfl_down_sync(mask, v, 1)\n __shared__ */ int y;",
            "/// \\brief uses __shared__ memory, then block.sync()\n",
            "// continued \\\n __syncwarp();\nint z;",
            "// continued with CRLF \\\r\n __syncwarp();\r\nint z;",
        ] {
            assert!(!passes(clean), "{clean:?}");
        }
    }

    #[test]
    fn literals_do_not_open_comments() {
        assert!(passes("const char *u = \"http://x\"; __syncthreads();"));
        assert!(passes("char q = '\"'; __syncwarp();"));
        assert!(passes("const char *e = \"a\\\"//\"; __syncwarp();"));
        assert!(passes(
            "auto r = R\"x(// not a comment )\" )x\"; __syncwarp();"
        ));
        assert!(passes("auto r = u8R\"(/*)\"; __syncwarp(); // */"));
        // `FOOR"…"` is an identifier followed by a string, not a raw string.
        assert!(passes("FOOR\"(\" /* */ __syncwarp();"));
        // Digit separators are at worst read as literals, i.e. as code.
        assert!(passes("int n = 1'000; /* x */ __syncwarp();"));
        assert!(passes("int n = 1'000'000; __syncwarp();"));
        // An unterminated string ends at its line.
        assert!(passes("const char *s = \"open\n__syncwarp();"));
        // Code after a closed block comment counts.
        assert!(passes("/* __syncwarp() */ __syncwarp();"));
        assert!(passes("/**/__shfl(v, 0);"));
        // tree-sitter reads an unclosed `/*` as code (found by the fuzzer).
        assert!(passes("int x; /* __syncwarp();"));
        assert!(passes("/* a */ x /* b\n__shfl(v, 0);"));
        assert!(!passes("/* a */ x /* b\n__shfl(v, 0); */"));
        // `<…>` after #include is a header name, not a comment.
        assert!(passes("#include <a/*b.h>\n__syncwarp();\n/* */"));
        assert!(passes("  #  include_next <x//y.h>\n__syncwarp();"));
        assert!(!passes("#include \"a.h\" // __syncwarp();"));
        assert!(!passes("int a = b < c; // __syncwarp();"));
    }

    #[test]
    fn a_nul_byte_ends_comments_as_in_tree_sitter() {
        // Found by the prefilter fuzz target.
        assert!(passes("// a \\\n b\0__syncwarp();"));
        assert!(passes("// a\0 __syncwarp();"));
        assert!(passes("/* a\0 */ __syncwarp(); /* */"));
        assert!(passes("/* a \0 b */ __syncwarp();"));
        assert!(!passes("/* a */ \0 // __syncwarp();"));
    }

    #[test]
    fn pathological_lines_cost_one_pass() {
        let t = std::time::Instant::now();
        let text = "#include <".to_owned() + &"/* x */ ".repeat(200_000) + "\n__syncwarp();";
        assert!(passes(&text));
        let text = "/* \0 ".repeat(200_000) + "*/ __syncwarp();";
        assert!(passes(&text));
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn many_unclosed_comment_openers_cost_one_pass() {
        let text = "x /* y ".repeat(200_000) + "__syncwarp();";
        let t = std::time::Instant::now();
        assert!(passes(&text));
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn many_comment_hits_cost_one_pass() {
        let mut text = String::new();
        for _ in 0..50_000 {
            text.push_str("// __syncthreads() in a comment\n");
        }
        let t = std::time::Instant::now();
        assert!(!passes(&text));
        text.push_str("__syncwarp();\n");
        assert!(passes(&text));
        // A rescanning lexer would take seconds here.
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn sniffs_cuda_in_headers() {
        assert!(looks_like_cuda(b"__device__ int f();"));
        assert!(!looks_like_cuda(b"int f();"));
    }
}

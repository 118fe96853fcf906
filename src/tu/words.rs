//! What a header may define, known without parsing it.
//!
//! Parsing is the translation-unit stage's cost (a CUB or Thrust header
//! includes hundreds of others), and most of a unit's headers give the
//! checked file nothing it looks up. A unit therefore parses a header only
//! when the header may define a name the file can ask for: a macro its
//! lowering expands, a function it calls (transitively), a constant or a
//! class's block shape its analysis reads. "May define" is decided on the
//! header's configured view with a lexer, as a superset of what the parsed
//! tree defines, so the unit's answers are the same as with every header
//! parsed:
//! - every name a tree gives (an identifier, a field name, a function's
//!   declarator) is a run of word bytes in its view, outside comments and
//!   literals ([`Words::has`]; the file's own words, [`code_words`], are
//!   likewise every name its lowering can look up);
//! - a defined function's name is `operator…`, or is followed (past any
//!   template arguments) by a parameter list that a body can follow ([`Words::may_define_function`], [`Signatures`]): within a few
//!   tokens of its `)` and at the same nesting, a `{`, a constructor's `:`,
//!   `= default`, a trailing `->`, `requires` or `try`, with only words,
//!   bracketed groups and declarator punctuation between. A call is
//!   followed by `;`, an operator, a literal or a closing bracket instead,
//!   and that is what keeps a header that merely calls `max(…)` from being
//!   parsed to look for `max`;
//! - a macro's name is the first word after `define`
//!   ([`Words::may_define_any_macro`]);
//! - a constant's name is in an `enum` body, after `const`/`constexpr` in
//!   its declaration, or a macro's name ([`Words::may_define_any_constant`]).
//!
//! The lexer skips comments, string and character literals (raw strings
//! included) and numbers as tree-sitter lexes them. Names are kept as
//! 64-bit hashes: a collision only makes a header a candidate that is then
//! parsed for nothing.

use rustc_hash::FxHashSet as HashSet;
use std::sync::LazyLock;

use crate::prefilter::{block_comment_end, line_comment_end, literal_end, raw_string_end};

/// A name as the sets store it.
pub fn hash_word(w: &[u8]) -> u64 {
    // FNV-1a: fast, and the same in every run.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in w {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Bytes that may be part of an identifier as tree-sitter-cuda lexes it
/// (a superset: `$` and every non-ASCII byte count).
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The hashes of the runs of word bytes in `name` (`Traits::kWarps`,
/// `N + 1`): what a name spelled in the IR can look up. No lexer: a name
/// holds no comment or literal.
pub fn name_words(name: &str) -> impl Iterator<Item = u64> + '_ {
    name.as_bytes()
        .split(|&b| !is_word_byte(b))
        .filter(|w| w.first().is_some_and(|b| !b.is_ascii_digit()))
        .map(hash_word)
}

/// The words of `text` outside comments and literals: every name its
/// tree can hold.
pub fn code_words(text: &str) -> HashSet<u64> {
    Words::of(text).all
}

/// C++ keywords and primitive types: in code that compiles they name no
/// constant, function or class.
pub const KEYWORDS: [&str; 77] = [
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "nullptr",
    "operator",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
];

/// C++ keywords that tree-sitter-cuda may still read as a called name
/// (`static_cast<int>(x)`): no header that compiles defines a function of
/// that name, so none is parsed to look for one.
pub fn is_keyword_call(name: &str) -> bool {
    matches!(
        name,
        "static_cast"
            | "dynamic_cast"
            | "reinterpret_cast"
            | "const_cast"
            | "sizeof"
            | "alignof"
            | "alignas"
            | "decltype"
            | "typeid"
            | "noexcept"
            | "static_assert"
            | "return"
            | "if"
            | "while"
            | "for"
            | "switch"
            | "new"
            | "delete"
            | "throw"
    )
}

/// The word a definition of `name` must hold: its first run of word bytes
/// (`foo` of `foo<6>`, `operator` of `operator()`). `None` when it has none.
pub fn key_word(name: &str) -> Option<u64> {
    let b = name.as_bytes();
    let start = b
        .iter()
        .position(|&c| is_word_byte(c) && !c.is_ascii_digit())?;
    let end = b[start..]
        .iter()
        .position(|&c| !is_word_byte(c))
        .map_or(b.len(), |e| start + e);
    Some(hash_word(&b[start..end]))
}

/// The words of one header's configured view.
#[derive(Debug, Default)]
pub struct Words {
    /// Every word outside comments and literals.
    all: HashSet<u64>,
    /// Words followed by `<` or by a parameter list a body may follow,
    /// and `operator`.
    functions: HashSet<u64>,
    /// Of `functions`, those read outside function bodies (or decided
    /// late: every uncertain case): a body defines no function a unit
    /// links, so only these can define one (`reach.rs`).
    heads: HashSet<u64>,
    /// The first word after each `define`.
    defines: HashSet<u64>,
    /// The words just after `struct`, `class` or `union` (a few, for
    /// `struct __align__(16) Pair`): the classes the header may define.
    classes: HashSet<u64>,
    /// Words that may name a folded constant: in `enum` bodies and in
    /// declarations from a `const`/`constexpr` to their `;`, outside
    /// parentheses (a parameter's default, `T const &theta = T()`, is no
    /// constant) and outside function bodies (lowering folds no local).
    /// Where error recovery loses a definition its locals become the
    /// tree's declarations; such a "constant" is an artifact of the
    /// misparse, and a unit does not look for it.
    constants: HashSet<u64>,
}

impl Words {
    pub fn of(text: &str) -> Words {
        let mut w = Words::default();
        scan(text.as_bytes(), &mut w);
        w
    }

    /// May the header define something named `name` (a class)?
    pub fn has(&self, name: &str) -> bool {
        key_word(name).is_none_or(|k| self.all.contains(&k))
    }

    /// May the header define a function named `name`?
    pub fn may_define_function(&self, name: &str) -> bool {
        key_word(name).is_none_or(|k| self.functions.contains(&k))
    }

    /// May the header define the class `name` (its members in its body)?
    pub fn may_define_class(&self, name: &str) -> bool {
        key_word(name).is_none_or(|k| self.classes.contains(&k))
    }

    /// May the header `#define` any of `names`?
    pub fn may_define_any_macro(&self, names: &HashSet<u64>) -> bool {
        intersects(&self.defines, names)
    }

    /// May the header give a constant named `name` (a `#define` or a
    /// declarator the lexer reads as one)?
    pub fn may_define_constant(&self, name: &str) -> bool {
        key_word(name).is_none_or(|k| self.defines.contains(&k) || self.constants.contains(&k))
    }

    /// May the header give a constant named by any of `names`?
    pub fn may_define_any_constant(&self, names: &HashSet<u64>) -> bool {
        intersects(&self.defines, names) || intersects(&self.constants, names)
    }

    /// May the header give the constant `scope::name` (a class or enum
    /// `scope` holding a constant `name`)? Both as [`hash_word`] gives.
    pub fn may_define_scoped(&self, scope: u64, name: u64) -> bool {
        self.all.contains(&scope)
            && (self.defines.contains(&name) || self.constants.contains(&name))
    }

    /// May the header define the function `name` (in class `scope`,
    /// where given), whose `constexpr` body may answer a zero-argument
    /// call with a constant (`lower::constants`)? Both as [`hash_word`]
    /// gives.
    pub fn may_define_getter(&self, scope: Option<u64>, name: u64) -> bool {
        self.heads.contains(&name) && scope.is_none_or(|s| self.all.contains(&s))
    }

    /// The names a unit may take from it: those it may `#define`, and
    /// those it may define a function of outside function bodies but
    /// keywords (`Unit::link` never looks for one, `operator()` included).
    pub fn linkable_names(&self) -> impl Iterator<Item = u64> + '_ {
        (self.heads.iter())
            .filter(|h| !KEYWORD_WORDS.contains(h))
            .chain(&self.defines)
            .copied()
    }

    /// Every word of the view.
    pub fn all(&self) -> &HashSet<u64> {
        &self.all
    }

    fn defs(&mut self, inside: bool) -> Defs<'_> {
        Defs {
            functions: &mut self.functions,
            heads: &mut self.heads,
            inside,
        }
    }
}

/// The words of [`KEYWORDS`].
static KEYWORD_WORDS: LazyLock<HashSet<u64>> =
    LazyLock::new(|| KEYWORDS.iter().map(|k| hash_word(k.as_bytes())).collect());

/// Where [`Signatures`] records a name it reads as defined.
struct Defs<'w> {
    functions: &'w mut HashSet<u64>,
    heads: &'w mut HashSet<u64>,
    /// The current token is inside a function body.
    inside: bool,
}

impl Defs<'_> {
    /// Decided at its signature's tail, so where the name stands.
    fn define(&mut self, h: u64) {
        self.functions.insert(h);
        if !self.inside {
            self.heads.insert(h);
        }
    }

    /// Decided later than its tail (a bound ran out, the text ended):
    /// wherever it stood, a head.
    fn define_late(&mut self, h: u64) {
        self.functions.insert(h);
        self.heads.insert(h);
    }
}

/// Do `a` and `b` share an element? Iterates the smaller.
fn intersects(a: &HashSet<u64>, b: &HashSet<u64>) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    small.iter().any(|h| large.contains(h))
}

/// One forward pass, lexing comments, string and character literals
/// (raw strings included) and numbers as tree-sitter does, so that their
/// words are not names and their braces and `;` do not end an `enum` body
/// or a declaration early.
fn scan(b: &[u8], w: &mut Words) {
    let mut i = 0;
    let mut after_define = false;
    // Words still to take as a class's name after `struct`/`class`/`union`.
    let mut class_head = 0u8;
    let mut enum_pending = false;
    // Brace depth, and the depth an `enum` body opened at.
    let mut depth = 0usize;
    let mut enum_body: Option<usize> = None;
    let mut in_const_decl = false;
    let mut signatures = Signatures::default();
    let mut templates = TemplateScopes::default();
    // A constant declared where template parameters are in scope, and
    // what its initializer names so far.
    let mut pending: Option<(u64, Initializer)> = None;
    let mut bodies = FunctionBodies::default();
    let (mut in_directive, mut at_line_start) = (false, true);
    while i < b.len() {
        let c = b[i];
        let starts_comment = c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*'));
        let is_token = !(c.is_ascii_whitespace() || starts_comment);
        if c == b'\n' {
            let continued = b[..i].ends_with(b"\\") || b[..i].ends_with(b"\\\r");
            in_directive &= continued;
            at_line_start = true;
        } else if is_token {
            in_directive |= at_line_start && c == b'#';
            at_line_start = false;
        }
        let mut opens_body = false;
        if is_token {
            let inside = bodies.inside();
            signatures.token(b, i, &mut w.defs(inside));
            let word = is_word_byte(c).then(|| word_at(b, i));
            opens_body = bodies.token(c, word, in_directive || enum_pending);
            if opens_body {
                // `operator T() const { return T(); }` declares no constant.
                in_const_decl = false;
            }
            templates.token(b, i, word, depth, in_directive);
            let ends_initializer = c == b';' || c == b'}' || c == b',' && bodies.parens() == 0;
            if ends_initializer && let Some((h, init)) = pending.take() {
                templates.settle(h, init, &mut w.constants);
            }
        }
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // The comment's line ends with it (continuations included).
                i = line_comment_end(b, i);
                if b[..i].ends_with(b"\n") {
                    in_directive = false;
                    at_line_start = true;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(b, i);
            }
            b'"' | b'\'' => i = literal_end(b, i + 1, c),
            b'{' => {
                if enum_pending && enum_body.is_none() {
                    enum_body = Some(depth);
                    enum_pending = false;
                }
                if opens_body {
                    bodies.open(depth);
                }
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if enum_body == Some(depth) {
                    enum_body = None;
                }
                bodies.close(depth);
                i += 1;
            }
            b';' => {
                enum_pending = false;
                in_const_decl = false;
                i += 1;
            }
            _ if c.is_ascii_digit() => {
                // A number: digits, letters, `.`, digit separators, and a
                // sign after an exponent.
                i += 1;
                while i < b.len() {
                    let d = b[i];
                    let exponent_sign =
                        matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                    if !(is_word_byte(d) || d == b'.' || d == b'\'' || exponent_sign) {
                        break;
                    }
                    i += 1;
                }
            }
            _ if is_word_byte(c) => {
                let start = i;
                let raw;
                (i, raw) = word_or_raw_string(b, i);
                if raw {
                    continue;
                }
                let word = &b[start..i];
                let h = hash_word(word);
                w.all.insert(h);
                if after_define {
                    w.defines.insert(h);
                    after_define = false;
                }
                if class_head > 0 {
                    w.classes.insert(h);
                    class_head -= 1;
                }
                if matches!(word, b"struct" | b"class" | b"union") {
                    class_head = 3;
                }
                let next = next_token(b, i);
                let after = b.get(next).copied();
                // An enumerator's name is followed by `=`, `,`, `}`, an
                // attribute or a directive, never by an operator; a folded
                // `const` declarator by `=` (not `==`) or `(`.
                let in_enum = enum_body.is_some()
                    && !matches!(
                        after,
                        Some(
                            b'(' | b')'
                                | b'+'
                                | b'-'
                                | b'*'
                                | b'/'
                                | b'%'
                                | b'<'
                                | b'>'
                                | b'&'
                                | b'|'
                                | b'^'
                                | b'?'
                                | b':'
                                | b'.'
                                | b'!'
                                | b'~'
                        )
                    );
                let in_const =
                    in_const_decl && after == Some(b'=') && b.get(next + 1) != Some(&b'=');
                if let Some((_, init)) = pending.as_mut() {
                    init.name(h, templates.is_parameter(h));
                }
                if (in_enum || in_const) && bodies.parens() == 0 && !bodies.inside() {
                    if templates.in_scope() {
                        // Settled at the end of its initializer.
                        let fresh = (h, Initializer::default());
                        if let Some((h, init)) = pending.replace(fresh) {
                            templates.settle(h, init, &mut w.constants);
                        }
                    } else {
                        w.constants.insert(h);
                    }
                }
                if word == b"operator" {
                    w.defs(bodies.inside()).define(h);
                } else if after == Some(b'(') {
                    signatures.name_before_paren(h);
                } else if after == Some(b'<') {
                    signatures.name_before_angle(h, &mut w.defs(bodies.inside()));
                }
                match word {
                    b"define" => after_define = true,
                    b"enum" => enum_pending = true,
                    b"const" | b"constexpr" => in_const_decl = true,
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    if let Some((h, init)) = pending {
        templates.settle(h, init, &mut w.constants);
    }
    templates.finish(w);
    signatures.finish(&mut w.defs(false));
}

/// Function bodies: lowering reads no constant inside one (`const int n =
/// blockDim.x;` is a local), so names declared there are not candidates.
/// A `{` opens a body only right after a parameter list's `)` and
/// qualifiers, where the `(` did not follow an attribute-like word
/// (`namespace N __attribute__((…)) {`), off directive lines and not for
/// a pending `enum`; any other shape is read as a scope, which keeps more
/// names, never fewer.
#[derive(Default)]
struct FunctionBodies {
    /// The brace depth the outermost body opened at.
    open_at: Option<usize>,
    /// The tokens since the last `)` are qualifiers only.
    after_params: bool,
    /// Per open `(`: does an attribute-like word stand before it? A
    /// declarator inside parentheses is a parameter (`T const &theta =
    /// T()`, a default argument), never a constant. Emptied at every `;`,
    /// `{` and `}`, so that an unbalanced `(` (a macro body, a lost line)
    /// hides no declaration past its statement.
    parens: Vec<bool>,
    /// The last `(…)` closed followed an attribute-like word (or was
    /// unbalanced).
    closed_attribute: bool,
    /// The previous token is an attribute-like word.
    after_attribute_word: bool,
}

impl FunctionBodies {
    /// Read a token (`word` where it is one); `off` where a `{` cannot
    /// open a body here. Does a `{` here open a function body?
    fn token(&mut self, c: u8, word: Option<&[u8]>, off: bool) -> bool {
        let qualifier = word.is_some_and(|w| {
            matches!(
                w,
                b"const" | b"noexcept" | b"override" | b"final" | b"mutable" | b"volatile"
            )
        });
        let opens = c == b'{' && self.after_params && !self.closed_attribute && !off;
        self.after_params = c == b')' || qualifier && self.after_params;
        match c {
            b'(' => {
                self.parens.push(self.after_attribute_word);
            }
            b')' => self.closed_attribute = self.parens.pop().unwrap_or(true),
            b';' | b'{' | b'}' => self.parens.clear(),
            _ => {}
        }
        self.after_attribute_word = word.is_some_and(is_attribute_like);
        opens
    }

    fn open(&mut self, depth: usize) {
        self.open_at.get_or_insert(depth);
    }

    /// A `}` closed the brace opened at `depth`.
    fn close(&mut self, depth: usize) {
        if self.open_at == Some(depth) {
            self.open_at = None;
        }
    }

    /// Parentheses open at this token.
    fn parens(&self) -> usize {
        self.parens.len()
    }

    fn inside(&self) -> bool {
        self.open_at.is_some()
    }
}

/// The most template declarations tracked at once (nesting); the
/// parameters of one past it are not tracked, which keeps its constants.
const MAX_TEMPLATE_SCOPES: usize = 64;

/// Template parameters in scope. A constant whose initializer names one
/// (`static constexpr int kThreads = BLOCK_X * BLOCK_Y;` in a class
/// template, `template <class T> constexpr bool is_v = f<T>();`) takes its
/// value per instance, and lowering folds it in no file; so it is no
/// candidate, unless another word of its initializer may name a constant
/// or macro of the header (folding reads `Shape::kK` through a file's
/// `kK`, and a parameter may share a constant's name), which
/// [`TemplateScopes::finish`] decides once the whole text is read.
#[derive(Default)]
struct TemplateScopes {
    /// The parameter list being read (after `template <`).
    head: Option<Head>,
    /// Per template declaration: the brace depth it stands at, its
    /// parameters, and whether its braces (a class or function body) have
    /// opened.
    active: Vec<(usize, Vec<u64>, bool)>,
    /// Constants left out, with the other words their initializers name.
    dependent: Vec<(u64, Vec<u64>)>,
}

/// The most words of one initializer kept; past it the constant is a
/// candidate.
const MAX_INITIALIZER_WORDS: usize = 64;

/// What a constant's initializer names.
#[derive(Default)]
struct Initializer {
    /// It names a template parameter in scope.
    parameter: bool,
    /// Its words, parameters included (one may share a constant's name).
    words: Vec<u64>,
    /// More words than [`MAX_INITIALIZER_WORDS`].
    long: bool,
}

impl Initializer {
    fn name(&mut self, h: u64, parameter: bool) {
        self.parameter |= parameter;
        if self.words.len() < MAX_INITIALIZER_WORDS {
            self.words.push(h);
        } else {
            self.long = true;
        }
    }
}

#[derive(Default)]
struct Head {
    angles: u32,
    parens: u32,
    params: Vec<u64>,
    /// The last word of the parameter being read: its name.
    last: Option<u64>,
    /// Past the `=` of the parameter's default.
    in_default: bool,
    /// Words of the parameter read so far.
    words: u32,
}

impl TemplateScopes {
    /// Read the token at `i` (not whitespace or a comment; `word` where
    /// it is one), at brace `depth` (before a `{` or `}` there counts).
    /// `directive`: the token is on a directive line (`#define X template
    /// <class T>` starts no declaration here).
    fn token(&mut self, b: &[u8], i: usize, word: Option<&[u8]>, depth: usize, directive: bool) {
        let c = b[i];
        if let Some(head) = self.head.as_mut() {
            let top_level = head.angles == 1 && head.parens == 0;
            match c {
                b'<' => head.angles += 1,
                b'>' if head.parens == 0 => {
                    head.angles = head.angles.saturating_sub(1);
                    if head.angles == 0 {
                        let mut head = self.head.take().expect("reading a head");
                        head.params.extend(head.last);
                        if self.active.len() < MAX_TEMPLATE_SCOPES {
                            self.active.push((depth, head.params, false));
                        }
                    }
                }
                b'(' => head.parens += 1,
                b')' => head.parens = head.parens.saturating_sub(1),
                b',' if top_level => {
                    head.params.extend(head.last.take());
                    head.in_default = false;
                    head.words = 0;
                }
                b'=' if top_level => head.in_default = true,
                // Not a parameter list after all.
                b'{' | b'}' | b';' => self.head = None,
                _ if let Some(word) = word
                    && top_level
                    && !head.in_default =>
                {
                    // A parameter's name ends it, after its kind or type:
                    // `typename T`, `int N`, `std::size_t N`; an unnamed
                    // one (`int`, `std::size_t`, `Foo`) names nothing.
                    let qualified = b[..i].trim_ascii_end().ends_with(b"::");
                    let named = head.words > 0
                        && !qualified
                        && !c.is_ascii_digit()
                        && !KEYWORDS.contains(&std::str::from_utf8(word).unwrap_or(""));
                    head.last = named.then(|| hash_word(word));
                    head.words += 1;
                }
                _ => {}
            }
            return;
        }
        match c {
            _ if !directive && word == Some(b"template") => {
                let next = next_token(b, i + "template".len());
                if b.get(next) == Some(&b'<') {
                    self.head = Some(Head::default());
                }
            }
            b'{' => {
                if let Some(top) = self.active.last_mut()
                    && top.0 == depth
                {
                    top.2 = true;
                }
            }
            b'}' => {
                // The depth after this `}`.
                let after = depth.saturating_sub(1);
                while self
                    .active
                    .last()
                    .is_some_and(|t| t.0 > after || t.0 == after && t.2)
                {
                    self.active.pop();
                }
            }
            b';' => {
                // A declaration without braces ends (`template <class T>
                // constexpr bool v = …;`, an alias, a declaration).
                while self.active.last().is_some_and(|t| t.0 == depth && !t.2) {
                    self.active.pop();
                }
            }
            _ => {}
        }
    }

    fn in_scope(&self) -> bool {
        self.active.iter().any(|t| !t.1.is_empty())
    }

    fn is_parameter(&self, h: u64) -> bool {
        self.active.iter().any(|t| t.1.contains(&h))
    }

    /// The initializer of the constant `h` ended.
    fn settle(&mut self, h: u64, init: Initializer, constants: &mut HashSet<u64>) {
        if !init.parameter || init.long {
            constants.insert(h);
        } else {
            self.dependent.push((h, init.words));
        }
    }

    /// A constant left out is a candidate after all where a word of its
    /// initializer may name a constant or macro of the header, including
    /// one taken in by this rule (to a fixed point; each pass takes in at
    /// least one, and a bounded number of passes then takes in the rest).
    fn finish(self, w: &mut Words) {
        const MAX_PASSES: usize = 8;
        let mut left = self.dependent;
        for _ in 0..MAX_PASSES {
            let before = left.len();
            left.retain(|(h, words)| {
                let folds =
                    (words.iter()).any(|x| w.constants.contains(x) || w.defines.contains(x));
                if folds {
                    w.constants.insert(*h);
                }
                !folds
            });
            if left.len() == before {
                return;
            }
        }
        for (h, words) in left {
            if !words.is_empty() {
                w.constants.insert(h);
            }
        }
    }
}

/// How many tokens after a parameter list's `)`, or inside a template
/// argument list, are read before the name is taken as possibly defined
/// (the bound keeps the lexer linear).
const SIGNATURE_TOKENS: u16 = 128;
/// Names still being read, at most; past it the oldest is taken as
/// possibly defined.
const MAX_PENDING_SIGNATURES: usize = 64;

/// Which names followed by `(` or by template arguments may be defined
/// there. Tracks bracket nesting; reads a name's template argument list
/// (`foo<int, 4>`) to its `>`, and the tokens after a parameter list's `)`
/// at the same nesting. Every uncertain case (the bounds, the end of the
/// text, an unusual byte) counts as a definition: the set must hold every
/// name a parsed tree defines.
#[derive(Default)]
struct Signatures {
    /// Open `(` and `[`, each with the name before it, if any.
    open: Vec<Option<u64>>,
    /// The name just read is followed by `(` (the next token).
    name: Option<u64>,
    /// The next token's name, set while reading the current one.
    next_name: Option<u64>,
    /// Names whose template argument lists are being read: (name, nesting
    /// of the list, `<` depth, tokens read).
    arguments: Vec<(u64, usize, u16, u16)>,
    /// Names whose parameter lists closed: (name, nesting after its `)`,
    /// tokens read since).
    tails: Vec<(u64, usize, u16)>,
}

/// What a token after a parameter list says about the name before it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// A body (or `= default`, an initializer list…) may follow.
    Defines,
    /// Still a declarator: qualifiers, attributes, `&`, `::`, brackets.
    Continues,
    /// A call: an operator, a literal, `;`, a closing bracket.
    Calls,
}

impl Signatures {
    /// The word just read is followed by `(`.
    fn name_before_paren(&mut self, h: u64) {
        self.next_name = Some(h);
    }

    /// The word just read is followed by `<`.
    fn name_before_angle(&mut self, h: u64, defs: &mut Defs) {
        if self.arguments.len() >= MAX_PENDING_SIGNATURES {
            defs.define_late(self.arguments.remove(0).0);
        }
        self.arguments.push((h, self.open.len(), 0, 0));
    }

    /// Read the token at `i` (not whitespace or a comment).
    fn token(&mut self, b: &[u8], i: usize, defs: &mut Defs) {
        let c = b[i];
        let depth = self.open.len();
        self.name = self.next_name.take();
        if !self.tails.is_empty() {
            let tail = tail_token(b, i);
            self.tails.retain_mut(|(h, at, seen)| {
                *seen += 1;
                // Inside `noexcept(…)`, `__attribute__((…))`, `[[…]]`.
                let verdict = if depth > *at { Tail::Continues } else { tail };
                match verdict {
                    Tail::Defines => {
                        defs.define(*h);
                        false
                    }
                    Tail::Calls => false,
                    Tail::Continues if *seen > SIGNATURE_TOKENS => {
                        defs.define_late(*h);
                        false
                    }
                    Tail::Continues => true,
                }
            });
        }
        if !self.arguments.is_empty() {
            let mut closed = None;
            self.arguments.retain_mut(|(h, at, angles, seen)| {
                *seen += 1;
                if *seen > SIGNATURE_TOKENS {
                    defs.define_late(*h);
                    return false;
                }
                if depth > *at {
                    return true;
                }
                match c {
                    b'<' => *angles += 1,
                    b'>' => {
                        *angles = angles.saturating_sub(1);
                        if *angles == 0 {
                            // `foo<…>(`: a parameter list may follow.
                            closed = Some(*h);
                            return false;
                        }
                    }
                    // Not template arguments: a comparison, or a class
                    // template's name (`Foo<T>::f` defines `f`, not `Foo`).
                    b';' | b'{' | b'}' | b')' | b']' => return false,
                    _ => {}
                }
                true
            });
            if let Some(h) = closed {
                // `foo<…>(…) {` defines `foo`; so, to a misparse, may
                // `Foo<T> bar(…) {` (a tree can give the function the
                // return type's name). The tokens after the `>` decide.
                self.next_name = closed;
                self.push_tail(h, depth, defs);
            }
        }
        match c {
            b'(' => self.open.push(self.name),
            b'[' => self.open.push(None),
            b')' | b']' => {
                // No function is defined inside brackets: a name whose
                // list closes within another's (`x(c ? f() : g())`, a
                // ternary's `:` after `f()`) is called.
                if let Some(Some(h)) = self.open.pop()
                    && self.open.is_empty()
                {
                    self.push_tail(h, 0, defs);
                }
            }
            _ => {}
        }
    }

    /// Read the tokens after `h`'s parameter list (or template arguments),
    /// at nesting `depth`.
    fn push_tail(&mut self, h: u64, depth: usize, defs: &mut Defs) {
        if self.tails.len() >= MAX_PENDING_SIGNATURES {
            defs.define_late(self.tails.remove(0).0);
        }
        self.tails.push((h, depth, 0));
    }

    /// The text ended with names unread: take them as defined.
    fn finish(self, defs: &mut Defs) {
        let names = (self.tails.into_iter().map(|(h, _, _)| h))
            .chain(self.arguments.into_iter().map(|(h, _, _, _)| h))
            .chain(self.open.into_iter().flatten());
        names.for_each(|h| defs.define_late(h));
    }
}

/// The verdict of the token at `i` for a parameter list closed just
/// before it, at the same nesting.
fn tail_token(b: &[u8], i: usize) -> Tail {
    let next = b.get(i + 1).copied();
    let prev = i.checked_sub(1).map(|p| b[p]);
    match b[i] {
        b'{' => Tail::Defines,
        b':' if next == Some(b':') || prev == Some(b':') => Tail::Continues,
        b':' => Tail::Defines,
        // `==`, `<=`, `+=`…: an operator after a call.
        b'=' if next == Some(b'=') || prev.is_some_and(|p| b"<>!=+-*/%&|^".contains(&p)) => {
            Tail::Calls
        }
        b'=' => Tail::Defines,
        b'-' if next == Some(b'>') => Tail::Defines,
        b';' | b'}' | b')' | b']' | b'+' | b'-' | b'/' | b'%' | b'!' | b'?' | b'|' | b'^' => {
            Tail::Calls
        }
        b'"' | b'\'' => Tail::Calls,
        c if c.is_ascii_digit() => Tail::Calls,
        c if is_word_byte(c) => match word_at(b, i) {
            // `operator/(…)` holds operator bytes: a declarator still.
            b"requires" | b"try" | b"operator" => Tail::Defines,
            _ => Tail::Continues,
        },
        _ => Tail::Continues,
    }
}

/// At the word starting at `i`: where it ends, and whether it is a raw
/// string literal's prefix (`R"x(;})x"`, `u8R`…), when the end is the
/// literal's.
pub(crate) fn word_or_raw_string(b: &[u8], i: usize) -> (usize, bool) {
    let end = i + word_at(b, i).len();
    if b.get(end) == Some(&b'"') && matches!(&b[i..end], b"R" | b"u8R" | b"LR" | b"uR" | b"UR") {
        return (raw_string_end(b, end).unwrap_or(end), true);
    }
    (end, false)
}

/// Where the next token after `from` starts: past whitespace,
/// backslash-newlines and comments.
pub(crate) fn next_token(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() || c == b'\\' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(b, i);
            }
            _ => return i,
        }
    }
    i
}

/// The run of word bytes starting at `i`.
/// Words whose parenthesized argument is an attribute or a type, not a
/// parameter list: a `{` after their `)` opens no function body.
fn is_attribute_like(word: &[u8]) -> bool {
    matches!(
        word,
        b"__attribute__"
            | b"__declspec"
            | b"alignas"
            | b"__align__"
            | b"decltype"
            | b"__launch_bounds__"
            | b"__cluster_dims__"
            | b"_Alignas"
            | b"__pragma"
            | b"_Pragma"
    )
}

pub(crate) fn word_at(b: &[u8], i: usize) -> &[u8] {
    let end = b[i..]
        .iter()
        .position(|&c| !is_word_byte(c))
        .map_or(b.len(), |e| i + e);
    &b[i..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> u64 {
        hash_word(s.as_bytes())
    }

    #[test]
    fn a_class_is_found_by_its_head_not_by_its_uses() {
        let w = Words::of(
            "struct __align__(16) Pair { int a; };\n\
             template <typename Op> struct Apply { Op op; };\n\
             // struct InComment {};\n\
             float f(Sum s) { return s(1.0f); }\n",
        );
        assert!(w.may_define_class("Pair") && w.may_define_class("Apply"));
        // Named, not defined: no class of the header.
        assert!(!w.may_define_class("Sum") && w.has("Sum"));
        assert!(!w.may_define_class("InComment"));
    }

    #[test]
    fn definitions_are_found_past_comments_and_literals() {
        let text = "#define FULL_MASK 0xffffffff\n\
                    #define SHFL(v, l) \\\n  __shfl_sync(FULL_MASK, v, l)\n\
                    enum Kind { A = 1, /* } */ B, C = '}' };\n\
                    static constexpr int /* ; */ WARP = 32;\n\
                    const char* s = R\"x(;})x\"; int after_raw = 3;\n\
                    int not_const = 4; // const hidden\n\
                    const char* t = \"in_string\";\n\
                    struct S { operator int() const { return in_body(1); } };\n\
                    __device__ int f(int x) { return x; }\n";
        let w = Words::of(text);
        let one = |s: &str| [h(s)].into_iter().collect::<HashSet<_>>();
        for m in ["FULL_MASK", "SHFL"] {
            assert!(w.may_define_any_macro(&one(m)), "{m}");
        }
        for m in ["__shfl_sync", "Kind", "v"] {
            assert!(!w.may_define_any_macro(&one(m)), "{m}");
        }
        for c in ["A", "B", "C", "WARP", "FULL_MASK"] {
            assert!(w.may_define_any_constant(&one(c)), "{c}");
        }
        for c in ["not_const", "after_raw", "f", "x", "in_body", "int"] {
            assert!(!w.may_define_any_constant(&one(c)), "{c}");
        }
        assert!(w.may_define_function("f"));
        assert!(w.may_define_function("f<6>"));
        assert!(!w.may_define_function("x"));
        assert!(!w.may_define_function("g"));
        assert!(
            w.may_define_function("()"),
            "a name without a word may be anywhere"
        );
        assert!(w.has("Kind"));
        assert!(!w.has("hidden"), "words in comments are not names");
        assert!(!w.has("in_string"), "nor words in string literals");
    }

    #[test]
    fn a_function_body_declares_no_constant_but_every_scope_still_does() {
        let w = Words::of(
            "#define EACH(i, n) for (int i = 0; i < n; ++i) {\n\
             __device__ int f(int x) { const int local = x; enum { E1 = 2 }; return local; }\n\
             struct S { __device__ int g() const { const int in_member = 1; return 0; }\n\
               static constexpr int MEMBER = 4; };\n\
             struct Final final { static constexpr int IN_FINAL = 8; };\n\
             namespace N __attribute__((visibility(\"default\"))) { const int IN_NS = 2; }\n\
             struct alignas(16) Aligned { static constexpr int IN_ALIGNED = 3; };\n\
             enum class Kind : decltype(sizeof(int)) { K1 = 1 };\n\
             void h() // a comment\n\
             #define OPEN(x) if (x) {\n\
             { }\n\
             constexpr int AFTER = 5;\n",
        );
        let one = |s: &str| [h(s)].into_iter().collect::<HashSet<_>>();
        for c in ["local", "E1", "in_member"] {
            assert!(!w.may_define_any_constant(&one(c)), "{c}");
        }
        for c in ["MEMBER", "IN_FINAL", "IN_NS", "IN_ALIGNED", "K1", "AFTER"] {
            assert!(w.may_define_any_constant(&one(c)), "{c}");
        }
    }

    #[test]
    fn a_constant_whose_value_names_a_template_parameter_is_no_candidate() {
        let w = Words::of(
            "template <int BLOCK_X, int BLOCK_Y = 1, typename... Ts> struct Block {\n\
               static constexpr int THREADS = BLOCK_X * BLOCK_Y;\n\
               static constexpr int WARP = 32, TWICE = BLOCK_Y * 2;\n\
               enum { ITEMS = BLOCK_X / 32, FIXED = 4 };\n\
               struct Inner { static constexpr int INNER_DEP = BLOCK_Y + 1; };\n\
               template <class U> __device__ void f() { }\n\
               static constexpr int STILL = sizeof...(Ts);\n\
             };\n\
             template <class T> constexpr bool is_small_v = sizeof(T) < 8;\n\
             constexpr int AFTER = BLOCK_X;\n\
             template <int> struct Unnamed { static constexpr int SIZE = sizeof(int); };\n\
             template <std::size_t> struct Q { static constexpr int QS = sizeof(size_t); };\n\
             #define LANES 32\n\
             template <int LANES> struct Shadow { static constexpr int SHADOWED = LANES * 2; };\n\
             x.template get<BLOCK_X>(); const int LATER = BLOCK_Y;\n",
        );
        let one = |s: &str| [h(s)].into_iter().collect::<HashSet<_>>();
        for c in [
            "THREADS",
            "TWICE",
            "ITEMS",
            "INNER_DEP",
            "STILL",
            "is_small_v",
        ] {
            assert!(!w.may_define_any_constant(&one(c)), "{c}");
        }
        for c in ["WARP", "FIXED", "AFTER", "SIZE", "QS", "SHADOWED", "LATER"] {
            assert!(w.may_define_any_constant(&one(c)), "{c}");
        }
    }

    #[test]
    fn a_call_is_not_a_definition_but_every_signature_shape_is() {
        let w = Words::of(
            "void use() { x = max(a, b); if (min(a, b) > 3) { y = clamp(v) + 1; }\n\
             z = forward<T>(v); ok = is_same_v<T, U> && pred(q) == 2; }\n\
             struct L { int lane; L() : lane(c ? laneid() : mod(x) % 8) {} };\n\
             __device__ int plain(int a) { return a; }\n\
             struct S { S(int a) : v(a) {} S() = default; int v; };\n\
             auto trailing() -> int { return 0; }\n\
             void quals() const noexcept(sizeof(int) > 2) __attribute__((noinline)) {}\n\
             template <> __device__ int spec<int, 4>(int x) { return x; }\n\
             Ret<T> misparsed_type(int) { return {}; }\n\
             inline prom_t<T> operator/(R a, S b) { return a; }\n\
             void tried() try { } catch (...) { }\n\
             int unclosed(",
        );
        for called in [
            "max",
            "min",
            "clamp",
            "forward",
            "is_same_v",
            "pred",
            "laneid",
            "mod",
        ] {
            assert!(!w.may_define_function(called), "{called} is only called");
        }
        for defined in [
            "use",
            "plain",
            "S",
            "L",
            "trailing",
            "quals",
            "spec",
            "misparsed_type",
            "tried",
        ] {
            assert!(w.may_define_function(defined), "{defined} is defined");
        }
        // A return type's name may come out of a misparse as the
        // function's; the end of the text leaves a name undecided.
        assert!(w.may_define_function("Ret"));
        assert!(w.may_define_function("prom_t"));
        assert!(w.may_define_function("unclosed"));
    }

    #[test]
    fn digit_separators_and_exponents_are_numbers() {
        let w = Words::of("const int N = 1'000'000; enum { E = 0x1p+3 };\nint k;");
        let one = |s: &str| [h(s)].into_iter().collect::<HashSet<_>>();
        assert!(w.may_define_any_constant(&one("N")));
        assert!(w.may_define_any_constant(&one("E")));
        assert!(!w.may_define_any_constant(&one("k")));
    }
}

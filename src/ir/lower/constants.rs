//! File-level integral constants: object-like macros, `const` /
//! `constexpr` declarations and enumerators, folded in source order.
//!
//! A class's static constants and enumerators, and a named enum's
//! enumerators, are also keyed by their scope (`Wide::kLanes`,
//! `Mode::kFast`): libraries reuse such names with other values in other
//! classes (CUTLASS's `kCount` has nine), and the bare key holds one.
//! The bare key of a class member gives way to a namespace constant or
//! macro of that name, which is what code outside the class reads.
//!
//! A `constexpr` function without parameters whose body returns one
//! expression (`constexpr int seg_width() { return 12; }`, a class's
//! `static constexpr int width() { return 10; }`) is a constant under
//! `seg_width()` / `Cfg::width()`, keys only a call reads (`fold::eval`);
//! a member's is read through its class only, as unqualified its name may
//! be another class's member.

use super::*;
use rustc_hash::FxHashSet as HashSet;

/// The scopes that name a declaration: a class's static member or member
/// enum, a named enum's enumerators. Keyed by node id.
#[derive(Default)]
pub(super) struct Scopes {
    of: HashMap<usize, Vec<Scope>>,
}

/// A class (or struct) or an enum that names a constant.
struct Scope {
    name: String,
    is_class: bool,
}

impl Scopes {
    /// The static constants and member enums of a class that is neither a
    /// template nor a specialization (whose members may take other values
    /// in other instances, under the same name).
    pub(super) fn note_class(&mut self, spec: Node, text: &str) {
        let Some(name_node) = spec.field("name") else {
            return;
        };
        if name_node.kind() != "type_identifier"
            || spec
                .parent()
                .is_some_and(|p| p.kind() == "template_declaration")
        {
            return;
        }
        let Some(body) = spec.field("body") else {
            return;
        };
        let name = node_text(name_node, text);
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            if m.kind() == "function_definition" && classes::is_static(m, text) {
                self.add(m, name, true);
                continue;
            }
            if m.kind() != "field_declaration" {
                continue;
            }
            let member = match m.field("type") {
                Some(t) if t.kind() == "enum_specifier" => t.field("body"),
                _ if classes::is_static(m, text) => Some(m),
                _ => None,
            };
            if let Some(member) = member {
                self.add(member, name, true);
            }
        }
    }

    /// `enum class Mode { kFast, … }` (also an unscoped named enum, which
    /// C++ lets one read as `Mode::kFast`).
    pub(super) fn note_enum(&mut self, spec: Node, text: &str) {
        if let (Some(name), Some(body)) = (spec.field("name"), spec.field("body"))
            && name.kind() == "type_identifier"
        {
            self.add(body, node_text(name, text), false);
        }
    }

    fn add(&mut self, n: Node, name: &str, is_class: bool) {
        self.of.entry(n.id()).or_default().push(Scope {
            name: name.to_owned(),
            is_class,
        });
    }

    fn of(&self, n: Node) -> &[Scope] {
        self.of.get(&n.id()).map_or(&[], Vec::as_slice)
    }
}

/// The key of a scoped read (`ns::Wide::kLanes`, written without spaces):
/// its innermost scope and `Wide::kLanes`. `None` for a scope with
/// template arguments (`Foo<float>::k`: a specialization may differ) or
/// none at all.
pub(super) fn class_key(written: &str) -> Option<(&str, String)> {
    let (Some(scope), name) = crate::ir::split_scope(written) else {
        return None;
    };
    (is_identifier(scope) && is_identifier(name)).then(|| (scope, format!("{scope}::{name}")))
}

/// One constant to fold: its name, its lowered value, the scopes that
/// also name it and their keys (`Wide::kLanes`).
struct Item<'s> {
    name: String,
    value: ExprId,
    scopes: &'s [Scope],
    keys: Vec<String>,
}

impl<'s> Item<'s> {
    fn new(name: String, value: ExprId, scopes: &'s [Scope]) -> Self {
        let keys = scopes
            .iter()
            .map(|s| format!("{}::{name}", s.name))
            .collect();
        Item {
            name,
            value,
            scopes,
            keys,
        }
    }
}

/// Fold the file's integral constants: object-like macros, `const` /
/// `constexpr` declarations and enumerators, in source order (twice, so a
/// macro may refer to one defined later).
pub(super) fn fold_constants(
    file: &ParsedFile,
    decls: &[Node],
    scopes: &Scopes,
) -> HashMap<String, i64> {
    let text = file.source.text.as_str();
    let no_constants = HashMap::default();
    let no_aliases = HashMap::default();
    let no_classes = super::classes::Classes::default();
    let mut b = FnBuilder {
        file,
        env: &PreprocEnv::default(),
        f: empty_function(),
        // Constants never expand other macros: they fold through `consts`.
        macro_depth: MAX_MACRO_DEPTH,
        lambdas: Vec::new(),
        lambda_base: 0,
        constants: &no_constants,
        groups: HashMap::default(),
        classes: &no_classes,
        var_classes: HashMap::default(),
        objects: HashMap::default(),
        aliases: HashMap::default(),
        file_aliases: &no_aliases,
        cute_unscoped: false,
        expansion_budget: super::expansion_budget(),
        governed_blocks: Default::default(),
        governed_depth: 0,
        qualified: Vec::new(),
        variables: Default::default(),
        arrays: Default::default(),
        lambda_vars: HashMap::default(),
        type_params: Vec::new(),
    };
    let mut items: Vec<Item> = Vec::new();
    for m in &file.macros.defs {
        if m.body.trim().is_empty() || m.body.len() > 200 {
            continue;
        }
        // A function-like macro whose body names none of its parameters
        // (`LOG_WARP(unused) (5)`) is a constant whatever its arguments:
        // it folds under `NAME()`, which only a call of it reads
        // (`fold::eval`); no identifier can spell that key.
        let key = match &m.params {
            None => m.name.clone(),
            Some(params)
                if !params.iter().any(|p| names_word(&m.body, p))
                    && !names_word(&m.body, "__VA_ARGS__") =>
            {
                super::fold::call_key(None, &m.name)
            }
            Some(_) => continue,
        };
        let wrapped = format!("int __warplint_c__ = ({});\n", m.body.trim());
        let Some(tree) = parse_text(&wrapped) else {
            continue;
        };
        let value = tree
            .root_node()
            .named_child(0)
            .and_then(|d| d.field("declarator"))
            .and_then(|d| d.field("value"));
        if let Some(v) = value
            && !tree.root_node().has_error()
        {
            let id = b.lower_expr(v, &wrapped, 0, Some((0, 0)));
            items.push(Item::new(key, id, &[]));
        }
    }
    for &n in decls {
        if n.kind() == "function_definition" {
            if let Some((name, v)) = constant_getter(n, text) {
                let id = b.lower_expr(v, text, 0, None);
                items.push(Item::new(
                    super::fold::call_key(None, name),
                    id,
                    scopes.of(n),
                ));
            }
            continue;
        }
        if n.kind() == "enumerator_list" {
            let mut c = n.walk();
            let mut next: Option<ExprId> = Some(b.expr(ExprKind::Int(0), (0, 0)));
            for en in n.named_children(&mut c) {
                if en.kind() != "enumerator" {
                    continue;
                }
                let Some(name) = en.field("name") else {
                    continue;
                };
                let id = match en.field("value") {
                    Some(v) => b.lower_expr(v, text, 0, None),
                    None => next.unwrap_or_else(|| b.expr(ExprKind::Unknown, (0, 0))),
                };
                items.push(Item::new(
                    node_text(name, text).to_owned(),
                    id,
                    scopes.of(n),
                ));
                let one = b.expr(ExprKind::Int(1), (0, 0));
                next = Some(b.expr(ExprKind::Binary(BinOp::Add, id, one), (0, 0)));
            }
            continue;
        }
        if n.kind() == "field_declaration" {
            // `static constexpr int HALF = 16;` inside a class.
            if let (Some(name), Some(v)) = (n.field("declarator"), n.field("default_value"))
                && name.kind() == "field_identifier"
                && v.kind() != "initializer_list"
            {
                let id = b.lower_expr(v, text, 0, None);
                items.push(Item::new(
                    node_text(name, text).to_owned(),
                    id,
                    scopes.of(n),
                ));
            }
            continue;
        }
        let mut c = n.walk();
        let declarators: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
        for d in declarators {
            if d.kind() != "init_declarator" {
                continue;
            }
            let (Some(name), Some(v)) = (d.field("declarator"), d.field("value")) else {
                continue;
            };
            if name.kind() != "identifier" || v.kind() == "initializer_list" {
                continue;
            }
            let id = b.lower_expr(v, text, 0, None);
            items.push(Item::new(node_text(name, text).to_owned(), id, &[]));
        }
    }
    // A scoped read in an initializer (`Other::kThreads / 32`) names the
    // scope's key where the file declares one.
    let keyed: HashSet<&str> = (items.iter())
        .flat_map(|it| it.keys.iter().map(String::as_str))
        .collect();
    for (id, written) in std::mem::take(&mut b.qualified) {
        if let Some((_, key)) = class_key(&written)
            && keyed.contains(key.as_str())
        {
            b.f.exprs[id as usize].kind = ExprKind::Var(key);
        }
    }
    // Bare names a namespace constant or a macro defines: a class
    // member's value is not theirs.
    let free: HashSet<&str> = (items.iter())
        .filter(|it| !it.scopes.iter().any(|s| s.is_class))
        .map(|it| it.name.as_str())
        .collect();
    let mut consts: HashMap<String, i64> = HashMap::default();
    let mut values: Vec<Option<i64>> = vec![None; items.len()];
    for _ in 0..2 {
        for (i, it) in items.iter().enumerate() {
            // In a class, a bare name is the class's own member first.
            let lookup = |n: &str| {
                (it.scopes.iter().filter(|s| s.is_class))
                    .find_map(|s| consts.get(&format!("{}::{n}", s.name)))
                    .or_else(|| consts.get(n))
                    .copied()
            };
            let Some(v) = super::fold::eval(&b.f, it.value, &lookup, 0) else {
                continue;
            };
            values[i] = Some(v);
            let member = it.scopes.iter().any(|s| s.is_class);
            let getter = it.name.ends_with("()");
            if !member || (!getter && !free.contains(it.name.as_str())) {
                consts.insert(it.name.clone(), v);
            }
            for key in &it.keys {
                consts.insert(key.clone(), v);
            }
        }
    }
    // A scoped key that two declarations give (same-named classes nested
    // in two class templates, or in two namespaces) is no value where
    // they differ or one does not fold.
    let mut declared: HashMap<String, Option<i64>> = HashMap::default();
    let mut clashing: HashSet<String> = HashSet::default();
    for (it, v) in items.iter().zip(&values) {
        for key in &it.keys {
            match declared.get(key) {
                Some(seen) if *seen != *v || v.is_none() => {
                    clashing.insert(key.clone());
                }
                Some(_) => {}
                None => {
                    declared.insert(key.clone(), *v);
                }
            }
        }
    }
    for key in clashing {
        consts.remove(&key);
    }
    consts
}

/// A `constexpr` function of no parameters whose body is one `return` of
/// a value: its name and the returned expression.
pub(super) fn constant_getter<'t>(def: Node<'t>, text: &'t str) -> Option<(&'t str, Node<'t>)> {
    let mut c = def.walk();
    if !def
        .children(&mut c)
        .any(|k| k.kind() == "type_qualifier" && node_text(k, text) == "constexpr")
    {
        return None;
    }
    let declarator = def.field("declarator")?;
    let params = declarator.field("parameters")?;
    let name = declarator.field("declarator")?;
    let no_params = params.named_child_count() == 0
        || (params.named_child_count() == 1
            && node_text(params, text).replace(' ', "") == "(void)");
    if declarator.kind() != "function_declarator"
        || !no_params
        || !matches!(name.kind(), "identifier" | "field_identifier")
    {
        return None;
    }
    let ret =
        super::sole_named_child(def.field("body")?).filter(|s| s.kind() == "return_statement")?;
    Some((node_text(name, text), ret.named_child(0)?))
}

/// Whether `word` occurs in `body` as a whole identifier.
fn names_word(body: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    body.match_indices(word).any(|(i, _)| {
        let before = body[..i].chars().next_back();
        let after = body[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

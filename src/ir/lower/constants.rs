//! File-level integral constants: object-like macros, `const` /
//! `constexpr` declarations and enumerators, folded in source order.

use super::*;

/// Fold the file's integral constants: object-like macros, `const` /
/// `constexpr` declarations and enumerators, in source order (twice, so a
/// macro may refer to one defined later).
pub(super) fn fold_constants(file: &ParsedFile, decls: &[Node]) -> HashMap<String, i64> {
    let text = file.source.text.as_str();
    let no_constants = HashMap::default();
    let mut b = FnBuilder {
        file,
        env: &PreprocEnv::default(),
        f: empty_function(),
        // Constants never expand other macros: they fold through `consts`.
        macro_depth: MAX_MACRO_DEPTH,
        lambdas: Vec::new(),
        constants: &no_constants,
        groups: HashMap::default(),
        objects: HashMap::default(),
        expansion_budget: super::expansion_budget(),
        qualified: Vec::new(),
        variables: Default::default(),
    };
    let mut items: Vec<(String, ExprId)> = Vec::new();
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
                format!("{}()", m.name)
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
            items.push((key, id));
        }
    }
    for &n in decls {
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
                items.push((node_text(name, text).to_owned(), id));
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
                items.push((node_text(name, text).to_owned(), id));
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
            items.push((node_text(name, text).to_owned(), id));
        }
    }
    let mut consts = HashMap::default();
    for _ in 0..2 {
        for (name, id) in &items {
            if let Some(v) = super::fold::eval_const(&b.f, *id, &consts) {
                consts.insert(name.clone(), v);
            }
        }
    }
    consts
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

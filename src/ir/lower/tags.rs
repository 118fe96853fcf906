//! Tag dispatch: overloads told apart by the type of an empty argument.
//!
//! CUB-style code picks a member's variant with a tag whose type carries a
//! value: `Reduce(v, Int2Type<(LANES == 32)>())` runs the overload taking
//! `Int2Type<true>` for a whole warp and the one taking `Int2Type<false>`
//! for a sub-warp; a recursive step ends at the overload taking
//! `constant_t<STEPS>`. Without types, overloads of one arity were taken
//! in declaration order, so a sub-warp ran the whole warp's shuffles. A
//! parameter declared as such a tag type with a fixed value records it
//! (`Param::tag`), and an argument that is such a tag temporary records
//! the value it passes (`Call::tags`): known when lowered, bound by an
//! instance of the calling template (`templates::bind_values`), or, over
//! a class template's values, computed by the run that makes the call
//! (`Module::callee_with`).

use tree_sitter::Node;

use super::{FnBuilder, parse_int_literal};
use crate::frontend::node_text;
use crate::ir::{ByteSpan, ExprKind, Tag};

/// Tag types whose (last) template argument is their value.
const VALUED: &[&str] = &[
    "Int2Type",
    "integral_constant",
    "bool_constant",
    "constant_t",
    "constant_v",
    "bool_constant_v",
];

/// The tag type `written` names, by its last name segment (`cub::Int2Type`,
/// `::cuda::std::bool_constant`): `Some(None)` for a valued one, the value
/// of `true_type`/`false_type`.
fn tag_kind(written: &str) -> Option<Option<i64>> {
    let base = written.split('<').next().unwrap_or(written).trim();
    let last = base.rsplit("::").next().unwrap_or(base).trim();
    match last {
        "true_type" => Some(Some(1)),
        "false_type" => Some(Some(0)),
        _ if VALUED.contains(&last) && written.contains('<') => Some(None),
        _ => None,
    }
}

/// The value a parameter's declared tag type fixes (`Int2Type<true>`,
/// `constant_t<kSteps>` with `kSteps` a known constant, `false_type`);
/// `None` for any other type, or a tag whose value is a template's own
/// (`constant_t<STEP>`: any step fits it).
pub(super) fn tag_of_type(ty: &str, constants: &rustc_hash::FxHashMap<String, i64>) -> Option<i64> {
    let ty = ty.trim();
    let ty = ty.strip_prefix("const ").unwrap_or(ty).trim();
    match tag_kind(ty)? {
        Some(v) => Some(v),
        None => {
            let args = crate::ir::template_args(ty)?;
            let last = args.last()?.trim();
            match last {
                "true" => Some(1),
                "false" => Some(0),
                _ => parse_int_literal(last).or_else(|| constants.get(last).copied()),
            }
        }
    }
}

impl FnBuilder<'_> {
    /// The tag an argument passes, where it is a tag temporary or value
    /// (`Int2Type<(LANES == 32)>()`, `bool_constant<X>{}`, `true_type()`,
    /// `constant_v<STEP + 1>`): its value where the lowering can fold it,
    /// else the lowered expression, for an instance or a run to compute.
    pub(super) fn tag_argument(
        &mut self,
        arg: Node,
        text: &str,
        depth: usize,
        site: Option<ByteSpan>,
    ) -> Option<Tag> {
        // The node naming the tag type: the callee of `T<…>()`, the type of
        // `T<…>{}`, or the value itself (`constant_v<…>`).
        let named = match arg.kind() {
            "call_expression" => arg.child_by_field_name("function")?,
            "compound_literal_expression" => arg.child_by_field_name("type")?,
            "template_function" | "qualified_identifier" => arg,
            _ => return None,
        };
        if arg.kind() == "call_expression"
            && arg
                .child_by_field_name("arguments")
                .is_some_and(|a| a.named_child_count() > 0)
        {
            return None;
        }
        if let Some(v) = tag_kind(node_text(named, text))? {
            return Some(Tag::Value(v));
        }
        let list = template_argument_list(named)?;
        let mut c = list.walk();
        let value = list.named_children(&mut c).last()?;
        let e = match value.kind() {
            // `Int2Type<LANES>`: a name the parser took for a type.
            "type_descriptor" => {
                let name = node_text(value, text).trim();
                let is_name = name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':'));
                if !is_name {
                    return None;
                }
                let span = self.span(value, site);
                let kind = match name {
                    "true" => ExprKind::Int(1),
                    "false" => ExprKind::Int(0),
                    _ => parse_int_literal(name)
                        .map_or(ExprKind::Var(name.to_owned()), ExprKind::Int),
                };
                self.expr(kind, span)
            }
            _ => self.lower_expr(value, text, depth + 1, site),
        };
        Some(
            match crate::ir::fold::eval_const(&self.f, e, self.constants) {
                Some(v) => Tag::Value(v),
                None => Tag::Expr(e),
            },
        )
    }
}

/// The `<…>` list of a template name, itself or inside a qualified one.
fn template_argument_list(n: Node) -> Option<Node> {
    let mut node = n;
    for _ in 0..8 {
        if let Some(list) = node.child_by_field_name("arguments")
            && list.kind() == "template_argument_list"
        {
            return Some(list);
        }
        node = node.child_by_field_name("name")?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::tag_of_type;

    #[test]
    fn a_tag_type_fixes_a_value_only_when_written_as_one() {
        let mut constants = rustc_hash::FxHashMap::default();
        constants.insert("kSteps".to_owned(), 5);
        assert_eq!(tag_of_type("Int2Type<true>", &constants), Some(1));
        assert_eq!(tag_of_type("cub::Int2Type<0>", &constants), Some(0));
        assert_eq!(
            tag_of_type("::cuda::std::integral_constant<bool, false>", &constants),
            Some(0)
        );
        assert_eq!(tag_of_type("constant_t<kSteps>", &constants), Some(5));
        assert_eq!(tag_of_type("const std::true_type", &constants), Some(1));
        assert_eq!(tag_of_type("false_type", &constants), Some(0));
        // A template's own value: any step fits.
        assert_eq!(tag_of_type("constant_t<STEP>", &constants), None);
        // Not a tag type.
        assert_eq!(tag_of_type("Vec<4>", &constants), None);
        assert_eq!(tag_of_type("float", &constants), None);
    }
}

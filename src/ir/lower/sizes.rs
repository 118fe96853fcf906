//! `sizeof(...)`: the sizes of the CUDA scalar and vector types, and
//! `sizeof(T)` of a template type parameter as a named compile-time value.
//!
//! Vector widths such as `16 / sizeof(T)` decide how far each lane's index
//! steps, so a loop bound on that index splits a warp only for some sizes.
//! Left unknown, the executor could not build any run of such a loop (a
//! `block_reduce` inside `for (i = tid * VEC; i < n; i += blockDim.x * VEC)`
//! stayed undecided); named, it picks a size and says so.

use crate::frontend::Field as _;
use tree_sitter::Node;

use super::FnBuilder;
use crate::frontend::{ancestors, node_text};
use crate::ir::ExprKind;

/// Bytes of the built-in types CUDA code measures (LP64, as nvcc on Linux).
pub(super) fn builtin_size(ty: &str) -> Option<i64> {
    let size = match ty {
        "char" | "signed char" | "unsigned char" | "bool" | "int8_t" | "uint8_t" | "char1"
        | "uchar1" | "__nv_fp8_e4m3" | "__nv_fp8_e5m2" => 1,
        "short" | "unsigned short" | "short int" | "int16_t" | "uint16_t" | "half" | "__half"
        | "__nv_bfloat16" | "nv_bfloat16" | "char2" | "uchar2" => 2,
        "int" | "unsigned" | "unsigned int" | "signed" | "signed int" | "float" | "int32_t"
        | "uint32_t" | "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162" | "char4"
        | "uchar4" => 4,
        "long" | "unsigned long" | "long long" | "unsigned long long" | "long int" | "int64_t"
        | "uint64_t" | "size_t" | "ptrdiff_t" | "double" | "float2" | "int2" | "uint2"
        | "long1" | "ulong1" => 8,
        "float4" | "int4" | "uint4" | "double2" | "long2" | "ulong2" | "longlong2" => 16,
        "double4" | "long4" | "ulong4" | "longlong4" => 32,
        _ => return None,
    };
    Some(size)
}

/// Whether `name` is a type parameter (`typename T`, `class T`) of a
/// template that encloses `n` in its own syntax tree.
pub(super) fn is_template_type_param(n: Node, text: &str, name: &str) -> bool {
    ancestors(n)
        .into_iter()
        .filter(|a| a.kind() == "template_declaration")
        .filter_map(|a| a.field("parameters"))
        .any(|params| {
            let mut c = params.walk();
            params.named_children(&mut c).any(|p| {
                let mut pc = p.walk();
                matches!(
                    p.kind(),
                    "type_parameter_declaration" | "optional_type_parameter_declaration"
                ) && p
                    .named_children(&mut pc)
                    .any(|k| k.kind() == "type_identifier" && node_text(k, text) == name)
            })
        })
}

/// The type `sizeof` measures, as written without qualifiers: `sizeof(T)`
/// may parse as a type or as a parenthesised name.
fn measured_type<'t>(n: Node, text: &'t str) -> Option<&'t str> {
    let t = n.field("type").or_else(|| n.field("value"))?;
    let written = node_text(t, text).trim();
    let inner = written
        .strip_prefix('(')
        .and_then(|w| w.strip_suffix(')'))
        .unwrap_or(written)
        .trim();
    let inner = inner.strip_prefix("const ").unwrap_or(inner);
    Some(inner.strip_suffix(" const").unwrap_or(inner).trim())
}

impl FnBuilder<'_> {
    /// `sizeof(float)` is 4; `sizeof(T)` of a template type parameter is the
    /// function's named value `sizeof(T)`; anything else stays unknown.
    pub(super) fn lower_sizeof(&mut self, n: Node, text: &str) -> ExprKind {
        let Some(ty) = measured_type(n, text) else {
            return ExprKind::Unknown;
        };
        if let Some(size) = builtin_size(ty) {
            return ExprKind::Int(size);
        }
        let is_name = !ty.is_empty() && ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // A template's type parameter, or a class template's alias
        // (`using compute_t = typename Cvec::Elt_type;`): a size of the
        // instantiation, which runs pick.
        if is_name
            && (is_template_type_param(n, text, ty)
                || super::templates::class_template_alias(n, text, ty))
        {
            let name = format!("sizeof({ty})");
            if !self.f.type_sizes.contains(&name) {
                self.f.type_sizes.push(name.clone());
            }
            return ExprKind::Var(name);
        }
        ExprKind::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::builtin_size;

    #[test]
    fn common_cuda_types_have_their_sizes() {
        assert_eq!(builtin_size("float"), Some(4));
        assert_eq!(builtin_size("__half"), Some(2));
        assert_eq!(builtin_size("float4"), Some(16));
        assert_eq!(builtin_size("MyStruct"), None);
    }
}

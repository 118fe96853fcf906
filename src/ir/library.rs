//! What calls into libraries whose source is not analysed are known to
//! return: models of their documented semantics, not guesses from names.

use super::Call;

/// The names of CuTe's shape queries.
pub const SHAPE_QUERIES: &[&str] = &["size", "shape", "rank", "depth", "cosize"];

/// `using namespace cute;` (or `::cute`): CuTe's names are then written
/// unscoped, and lowering scopes a one-argument `size(t)` to `cute`.
pub fn names_cute_namespace(using: &str) -> bool {
    let words: Vec<&str> = using
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    matches!(words.as_slice(), ["using", "namespace", ns] if ns.trim_start_matches("::") == "cute")
}

/// A CuTe shape query: `size<I>(t)`, `shape<I>(t)`, `rank<I>(t)`,
/// `depth(t)`, `cosize(t)` (with template arguments or the `cute::`
/// scope). A thread's partition of a tile (`local_partition`,
/// `partition_S`, …) has the same shape in every thread; only its offset
/// depends on the thread index. So the result is the same for every thread
/// of the block, whatever the argument's uniformity, and whether or not a
/// header of the unit defines the query (CuTe's own definition computes
/// types the analysis cannot follow).
pub fn is_shape_query(c: &Call) -> bool {
    c.receiver.is_none()
        && SHAPE_QUERIES.contains(&c.name.as_str())
        && (!c.template_args.is_empty() || c.scope.as_deref() == Some("cute"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, scope: Option<&str>, targs: &[&str]) -> Call {
        Call {
            name: name.to_owned(),
            scope: scope.map(str::to_owned),
            receiver: None,
            object: None,
            args: vec![0],
            template_args: targs.iter().map(|s| (*s).to_owned()).collect(),
            via_macro: None,
            home: None,
            array_args: 0,
            from_free_function: false,
            target: None,
            tags: Vec::new(),
        }
    }

    #[test]
    fn using_directive_for_cute_is_recognised() {
        assert!(names_cute_namespace("using namespace cute;"));
        assert!(names_cute_namespace("using namespace ::cute ;"));
        assert!(!names_cute_namespace("using namespace cutlass;"));
        assert!(!names_cute_namespace("using cute::size;"));
    }

    #[test]
    fn cute_shape_queries_are_recognised() {
        assert!(is_shape_query(&call("size", None, &["2"])));
        assert!(is_shape_query(&call("size", Some("cute"), &[])));
        assert!(is_shape_query(&call("shape", None, &["0"])));
    }

    #[test]
    fn other_calls_are_not() {
        // A plain `size(v)` may be a project's own function of anything.
        assert!(!is_shape_query(&call("size", None, &[])));
        assert!(!is_shape_query(&call("count", None, &["2"])));
    }
}

//! Launch sites: `kernel<<<grid, block>>>(args)` in host code, with the
//! grid, block and integer arguments evaluated where the file says them.

use super::*;

pub(super) fn launch_site(
    call: Node,
    text: &str,
    consts: &HashMap<String, i64>,
) -> Option<LaunchSite> {
    let f = call.child_by_field_name("function")?;
    let (name_node, targs) = if f.kind() == "template_function" {
        (
            f.child_by_field_name("name")?,
            f.child_by_field_name("arguments"),
        )
    } else {
        (f, None)
    };
    let kernel = last_segment(node_text(name_node, text)).to_owned();
    let scope = enclosing_function(call);
    let resolve = |n: Node| -> Option<i64> { eval_host_int(n, text, consts, scope, 0) };
    let template_args = targs
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c).map(resolve).collect()
        })
        .unwrap_or_default();
    let mut c = call.walk();
    let syntax = call
        .children(&mut c)
        .find(|k| k.kind() == "kernel_call_syntax")?;
    let mut c = syntax.walk();
    let config: Vec<Node> = syntax.named_children(&mut c).collect();
    let block_dim = config
        .get(1)
        .and_then(|b| eval_dim3(*b, text, consts, scope, 1024));
    let grid_dim = config
        .first()
        .and_then(|g| eval_dim3(*g, text, consts, scope, i32::MAX as u32));
    let arg_nodes: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c).collect()
        })
        .unwrap_or_default();
    let args = arg_nodes.iter().map(|n| resolve(*n)).collect();
    let squeeze = |n: Node| -> String { node_text(n, text).split_whitespace().collect() };
    let block_text = config.get(1).map(|b| squeeze(*b));
    let block_dim_args = arg_nodes
        .iter()
        .map(|n| {
            let b = block_text.as_deref()?;
            let a = squeeze(*n);
            match a.strip_prefix(b) {
                Some("") => Some(0),
                Some(".x") => Some(0),
                Some(".y") => Some(1),
                Some(".z") => Some(2),
                _ => None,
            }
        })
        .collect();
    Some(LaunchSite {
        kernel,
        template_args,
        block_dim,
        grid_dim,
        args,
        block_dim_args,
        line: call.start_position().row + 1,
    })
}

fn enclosing_function(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == "function_definition" {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}

/// The initializer node of local `name` declared in `scope` (host code).
fn local_initializer<'t>(scope: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    let mut found = None;
    preorder(scope, |n| {
        if found.is_some() {
            return Walk::Skip;
        }
        if n.kind() == "init_declarator"
            && n.child_by_field_name("declarator")
                .map(|d| node_text(d, text))
                == Some(name)
        {
            found = n.child_by_field_name("value");
            return Walk::Skip;
        }
        Walk::Descend
    });
    found
}

fn eval_dim3(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
    limit: u32,
) -> Option<[u32; 3]> {
    let n = match (n.kind(), scope) {
        ("identifier", Some(s)) => match local_initializer(s, node_text(n, text), text) {
            Some(init) => init,
            None => n,
        },
        _ => n,
    };
    let parts: Vec<Node> = match n.kind() {
        "call_expression" => {
            let callee = n
                .child_by_field_name("function")
                .map(|f| node_text(f, text))?;
            if callee != "dim3" {
                return None;
            }
            let a = n.child_by_field_name("arguments")?;
            let mut c = a.walk();
            a.named_children(&mut c).collect()
        }
        "argument_list" | "initializer_list" => {
            let mut c = n.walk();
            n.named_children(&mut c).collect()
        }
        _ => vec![n],
    };
    let mut dim = [1u32; 3];
    for (i, p) in parts.iter().take(3).enumerate() {
        let v = eval_host_int(*p, text, consts, scope, 0)?;
        dim[i] = u32::try_from(v).ok().filter(|v| (1..=limit).contains(v))?;
    }
    Some(dim)
}

/// Evaluate a host-side integer expression at a launch site.
fn eval_host_int(
    n: Node,
    text: &str,
    consts: &HashMap<String, i64>,
    scope: Option<Node>,
    depth: usize,
) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    match n.kind() {
        "number_literal" => parse_int_literal(node_text(n, text)),
        "identifier" => {
            let name = node_text(n, text);
            consts.get(name).copied().or_else(|| {
                let init = local_initializer(scope?, name, text)?;
                eval_host_int(init, text, consts, scope, depth + 1)
            })
        }
        "parenthesized_expression" => {
            eval_host_int(n.named_child(0)?, text, consts, scope, depth + 1)
        }
        "binary_expression" => {
            let op = binop(node_text(n.child_by_field_name("operator")?, text))?;
            let a = eval_host_int(
                n.child_by_field_name("left")?,
                text,
                consts,
                scope,
                depth + 1,
            )?;
            let b = eval_host_int(
                n.child_by_field_name("right")?,
                text,
                consts,
                scope,
                depth + 1,
            )?;
            super::fold::apply_binop(op, a, b)
        }
        _ => None,
    }
}

/// A host function `get_block_shape` (a kernel class's statement of its
/// block shape, as CUTLASS writes it).
pub(super) fn is_block_shape_getter(def: Node, text: &str) -> bool {
    def.child_by_field_name("declarator")
        .and_then(|d| d.child_by_field_name("declarator"))
        .is_some_and(|n| node_text(n, text) == "get_block_shape")
}

/// The constant `dim3` a function returns: `return dim3(a, b, c);` or
/// `dim3 block(a, b, c); … return block;`.
pub(super) fn returned_dim3(
    def: Node,
    text: &str,
    consts: &HashMap<String, i64>,
) -> Option<[u32; 3]> {
    let body = def.child_by_field_name("body")?;
    let mut returned = None;
    let mut c = body.walk();
    for st in body.named_children(&mut c) {
        if st.kind() == "return_statement" {
            returned = st.named_child(0);
        }
    }
    eval_dim3(returned?, text, consts, Some(body), 1024)
}

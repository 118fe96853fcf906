//! One IR name per declaration.
//!
//! C++ reuses names freely: two `for (int i …)` loops, a local that shadows
//! a parameter, `int v` in both arms of an `if`. The dataflow keeps one
//! level per name, so without renaming a lane-varying `i` in one loop would
//! make every other `i` of the function lane-varying too. This pass gives
//! each later declaration of a name its own IR name, `name#k`, and rewrites
//! the uses its scope sees. Messages show [`source_name`].
//!
//! Linear: each statement and expression is visited once, with explicit
//! stacks (no recursion over syntax).

use std::collections::HashMap;

use super::{ExprId, ExprKind, Function, StmtId, StmtKind};

/// The name as written in the source (`i` for the IR name `i#2`).
pub fn source_name(ir_name: &str) -> &str {
    match ir_name.rsplit_once('#') {
        Some((name, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => ir_name,
    }
}

enum Item {
    Enter,
    Exit,
    Stmt(StmtId),
    /// Rename the uses in a loop's condition and step (after its init).
    LoopHead(StmtId),
}

/// Rename every declaration of `f` that reuses a name declared before it
/// (parameters included), and the uses in its scope.
pub fn rename_shadowed(f: &mut Function) {
    let mut declared: HashMap<String, u32> = HashMap::new();
    for p in &f.params {
        *declared.entry(p.name.clone()).or_default() += 1;
    }
    // Source name → IR name, with the bindings each open scope replaced.
    let mut current: HashMap<String, String> = HashMap::new();
    let mut undo: Vec<Vec<(String, Option<String>)>> = Vec::new();
    let mut work: Vec<Item> = Vec::new();
    push_list(&mut work, &f.body);
    while let Some(item) = work.pop() {
        match item {
            Item::Enter => undo.push(Vec::new()),
            Item::Exit => {
                for (name, before) in undo.pop().unwrap_or_default().into_iter().rev() {
                    match before {
                        Some(b) => current.insert(name, b),
                        None => current.remove(&name),
                    };
                }
            }
            Item::LoopHead(sid) => {
                if let StmtKind::Loop { cond, step, .. } = &f.stmts[sid as usize].kind {
                    let roots: Vec<ExprId> = cond.iter().chain(step.iter()).copied().collect();
                    rename_uses(f, &roots, &current);
                }
            }
            Item::Stmt(sid) => {
                let kind = f.stmts[sid as usize].kind.clone();
                match kind {
                    StmtKind::Decl {
                        name, init, dims, ..
                    } => {
                        let roots: Vec<ExprId> = init
                            .iter()
                            .copied()
                            .chain(dims.iter().flatten().copied())
                            .collect();
                        rename_uses(f, &roots, &current);
                        let seen = declared.entry(name.clone()).or_default();
                        *seen += 1;
                        let ir_name = if *seen > 1 {
                            format!("{name}#{seen}")
                        } else {
                            name.clone()
                        };
                        if ir_name != name
                            && let StmtKind::Decl { name: n, .. } = &mut f.stmts[sid as usize].kind
                        {
                            *n = ir_name.clone();
                        }
                        let before = current.insert(name.clone(), ir_name);
                        if let Some(scope) = undo.last_mut() {
                            scope.push((name, before));
                        }
                    }
                    StmtKind::Expr(e) => rename_uses(f, &[e], &current),
                    StmtKind::Return(Some(e)) => rename_uses(f, &[e], &current),
                    StmtKind::If {
                        cond,
                        then_branch,
                        else_branch,
                    } => {
                        rename_uses(f, &[cond], &current);
                        push_list(&mut work, &else_branch);
                        push_list(&mut work, &then_branch);
                    }
                    StmtKind::Loop { init, body, .. } => {
                        // One scope for the loop: init, then head, then body.
                        work.push(Item::Exit);
                        push_list(&mut work, &body);
                        work.push(Item::LoopHead(sid));
                        for s in init.iter().rev() {
                            work.push(Item::Stmt(*s));
                        }
                        work.push(Item::Enter);
                    }
                    StmtKind::Switch { scrutinee, cases } => {
                        rename_uses(f, &[scrutinee], &current);
                        // The cases share the switch's scope.
                        work.push(Item::Exit);
                        for c in cases.iter().rev() {
                            for s in c.body.iter().rev() {
                                work.push(Item::Stmt(*s));
                            }
                        }
                        work.push(Item::Enter);
                    }
                    StmtKind::Block(list) => push_list(&mut work, &list),
                    StmtKind::Return(None)
                    | StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Opaque => {}
                }
            }
        }
    }
}

/// A statement list in its own scope (pushed so that it runs in order).
fn push_list(work: &mut Vec<Item>, list: &[StmtId]) {
    work.push(Item::Exit);
    for s in list.iter().rev() {
        work.push(Item::Stmt(*s));
    }
    work.push(Item::Enter);
}

/// Point every `Var` under `roots` at the declaration in scope.
fn rename_uses(f: &mut Function, roots: &[ExprId], current: &HashMap<String, String>) {
    if current.is_empty() {
        return;
    }
    let mut stack: Vec<ExprId> = roots.to_vec();
    // Each expression once; the cap only matters for shared nodes.
    let mut budget = f.exprs.len();
    while let Some(id) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let Some(e) = f.exprs.get_mut(id as usize) else {
            continue;
        };
        if let ExprKind::Var(name) = &mut e.kind {
            if let Some(ir_name) = current.get(name.as_str())
                && ir_name != name
            {
                *name = ir_name.clone();
            }
            continue;
        }
        stack.extend(e.kind.children());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl_names(src: &str) -> Vec<String> {
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let module = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let f = &module.functions[0];
        let mut names: Vec<String> = f
            .stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Decl { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_reused_name_gets_its_own_variable_and_its_uses_follow() {
        let src = "__global__ void k(int *o, int n) {
            for (int i = threadIdx.x; i < n; i += 32) o[i] = 0;
            for (int i = 0; i < 4; i++) o[i] = i;
            int n2 = n;
        }";
        assert_eq!(decl_names(src), ["i", "i#2", "n2"]);
        assert_eq!(source_name("i#2"), "i");
        assert_eq!(source_name("a#b"), "a#b");
    }

    #[test]
    fn a_local_shadowing_a_parameter_is_renamed() {
        let src = "__device__ int k(int v) { { int v = 3; return v; } }";
        assert_eq!(decl_names(src), ["v#2"]);
    }
}

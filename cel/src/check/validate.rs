//! The AST validators the Kubernetes environment runs after a successful check: literal
//! arguments of `duration`, `timestamp` and `matches` must be valid (cel-go's
//! `ValidateDurationLiterals`, `ValidateTimestampLiterals`, `ValidateRegexLiterals`), and list
//! and map literals homogeneous (`ValidateHomogeneousAggregateLiterals`), except inside
//! `format` calls, whose argument lists mix types by design.

use super::Issue;
use super::types::{Type, equivalent};
use crate::Functions;
use crate::ast::{Expr, ExprId, ExprKind, Literal};
use crate::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A literal argument the validators of literals refuse: `invalid duration argument`.
fn literal_issue(function: &str, args: &[Expr]) -> Option<Issue> {
    if !matches!(function, "duration" | "timestamp" | "matches") {
        return None;
    }
    let arg = args.first()?;
    let ExprKind::Literal(lit) = &arg.kind else {
        return None;
    };
    let valid = match (function, lit) {
        ("matches", Literal::String(p)) => crate::library::compile_regex(p).is_ok(),
        ("matches", _) => true,
        (_, lit) => {
            // As cel-go, by evaluating the conversion of the literal.
            static FUNCTIONS: OnceLock<Functions> = OnceLock::new();
            let value = match lit {
                Literal::String(s) => Value::from(s.as_str()),
                Literal::Int(i) => Value::Int(*i),
                _ => return None,
            };
            let functions = FUNCTIONS.get_or_init(Functions::kubernetes);
            functions.call(function, &[value]).1.is_ok()
        }
    };
    (!valid).then(|| Issue {
        id: arg.id,
        message: format!("invalid {function} argument"),
    })
}

pub(super) fn validate(root: &Expr, types: &HashMap<ExprId, Type>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut stack = vec![(root, false)];
    let ty = |id: ExprId| types.get(&id).cloned().unwrap_or(Type::Error);
    let inner = |t: Type| t.unwrap_optional().cloned().unwrap_or(t);
    while let Some((e, exempt)) = stack.pop() {
        match &e.kind {
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                if !exempt {
                    let mut first: Option<Type> = None;
                    for (i, el) in elements.iter().enumerate() {
                        let mut t = ty(el.id);
                        if optional_indices.contains(&i) {
                            t = inner(t);
                        }
                        match &first {
                            None => first = Some(t),
                            Some(f) if !equivalent(f, &t) => {
                                issues.push(mismatch(el.id, f, &t));
                                break;
                            }
                            Some(_) => {}
                        }
                    }
                }
                stack.extend(elements.iter().rev().map(|el| (el, exempt)));
            }
            ExprKind::Map { entries } => {
                if !exempt {
                    let mut first: Option<(Type, Type)> = None;
                    for entry in entries {
                        let kt = ty(entry.key.id);
                        let mut vt = ty(entry.value.id);
                        if entry.optional {
                            vt = inner(vt);
                        }
                        match &first {
                            None => first = Some((kt, vt)),
                            Some((k, v)) => {
                                if !equivalent(k, &kt) {
                                    issues.push(mismatch(entry.key.id, k, &kt));
                                }
                                if !equivalent(v, &vt) {
                                    issues.push(mismatch(entry.value.id, v, &vt));
                                }
                            }
                        }
                    }
                }
                for entry in entries.iter().rev() {
                    stack.push((&entry.value, exempt));
                    stack.push((&entry.key, exempt));
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                issues.extend(literal_issue(function, args));
                let exempt = exempt || function == "format";
                stack.extend(args.iter().rev().map(|a| (a, exempt)));
                if let Some(t) = target {
                    stack.push((t, exempt));
                }
            }
            ExprKind::Select { operand, .. } => stack.push((operand, exempt)),
            ExprKind::Struct { fields, .. } => {
                stack.extend(fields.iter().rev().map(|f| (&f.value, exempt)));
            }
            ExprKind::Comprehension(c) => {
                for x in [
                    &c.result,
                    &c.loop_step,
                    &c.loop_condition,
                    &c.accu_init,
                    &c.iter_range,
                ] {
                    stack.push((x, exempt));
                }
            }
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        }
    }
    issues
}

fn mismatch(id: ExprId, expected: &Type, actual: &Type) -> Issue {
    Issue {
        id,
        message: format!("expected type '{expected}' but found '{actual}'"),
    }
}

//! One `x-kubernetes-validations` entry as the validator holds it: the rule and its message
//! expression parsed, its `fieldPath` in normal form, whether it reads `oldSelf` (a
//! transition rule).

use smd_cel::ast::{Expr, ExprKind, Parsed};
use smd_fieldpath::{Map, Value};

/// A rule of a schema node.
#[derive(Debug)]
pub(crate) struct Rule {
    /// `rule`, as written.
    pub(crate) source: String,
    /// `message`, trimmed (empty: none).
    pub(crate) message: String,
    /// `messageExpression`, as written, and parsed.
    pub(crate) message_expression: Option<(String, Result<Parsed, String>)>,
    /// `reason` (empty: `FieldValueInvalid`).
    pub(crate) reason: String,
    /// `fieldPath` in normal form, where it names a field of the node.
    pub(crate) field_path: Option<String>,
    /// `optionalOldSelf`.
    pub(crate) optional_old_self: bool,
    /// The parsed rule, or why it does not parse.
    pub(crate) program: Result<Parsed, String>,
    /// Whether the rule reads `oldSelf`.
    pub(crate) uses_old_self: bool,
    /// A function the rule (or its message expression) calls that smd does not have: the
    /// rule is not run offline, and the answer says so.
    pub(crate) unknown_function: Option<String>,
}

impl Rule {
    /// The rules of the schema node `m`.
    pub(crate) fn read_all(m: &Map) -> Vec<Rule> {
        let Some(list) = m.get("x-kubernetes-validations").and_then(Value::as_list) else {
            return Vec::new();
        };
        list.iter()
            .filter_map(Value::as_map)
            .map(|r| Rule::read(r, m))
            .collect()
    }

    fn read(r: &Map, node: &Map) -> Rule {
        let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
        let source = text("rule").to_owned();
        let program = smd_cel::parse(&source).map_err(|e| e.to_string());
        let uses_old_self = program.as_ref().is_ok_and(|p| mentions(&p.expr, "oldSelf"));
        let message_expression = Some(text("messageExpression"))
            .filter(|m| !m.is_empty())
            .map(|m| (m.to_owned(), smd_cel::parse(m).map_err(|e| e.to_string())));
        let unknown_function = [
            program.as_ref().ok(),
            message_expression.as_ref().and_then(|m| m.1.as_ref().ok()),
        ]
        .into_iter()
        .flatten()
        .find_map(|p| unknown_function(&p.expr));
        let field_path = Some(text("fieldPath"))
            .filter(|p| !p.is_empty())
            .and_then(|p| smd_schema::crd::normalize_rule_field_path(p, node).ok())
            .filter(|p| !p.is_empty());
        Rule {
            source,
            message: text("message").trim().to_owned(),
            message_expression,
            reason: text("reason").to_owned(),
            field_path,
            optional_old_self: r.get("optionalOldSelf") == Some(&Value::Bool(true)),
            program,
            uses_old_self,
            unknown_function,
        }
    }

    /// How the rule is named in messages (`ruleErrorString`): its message, else its text.
    pub(crate) fn named(&self) -> &str {
        if self.message.is_empty() {
            self.source.trim()
        } else {
            &self.message
        }
    }
}

/// Calls the interpreter answers itself rather than through the function registry.
const INTERPRETED: [&str; 9] = [
    "_&&_",
    "_||_",
    "@not_strictly_false",
    "_?_:_",
    "_[_]",
    "_[?_]",
    "_?._",
    "or",
    "orValue",
];

/// The first function `expr` calls that the server's environment has and smd's registry
/// lacks (`ns.fn(x)` is the global `ns.fn` when `ns` is no variable).
fn unknown_function(expr: &Expr) -> Option<String> {
    let functions = super::functions();
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call {
            target, function, ..
        } = &e.kind
            && !INTERPRETED.contains(&function.as_str())
            && !functions.has(function)
        {
            let qualified = target.as_deref().and_then(|t| qualified_name(t, function));
            if !qualified.as_deref().is_some_and(|q| functions.has(q)) {
                return Some(qualified.unwrap_or_else(|| function.clone()));
            }
        }
        push_children(e, &mut stack);
    }
    None
}

/// `a.b.f` for the target `a.b` of a call of `f`, when the target is a chain of names.
fn qualified_name(target: &Expr, function: &str) -> Option<String> {
    let mut parts = vec![function];
    let mut e = target;
    loop {
        match &e.kind {
            ExprKind::Ident(n) => {
                parts.push(n);
                break;
            }
            ExprKind::Select {
                operand,
                field,
                test_only: false,
            } => {
                parts.push(field);
                e = operand;
            }
            _ => return None,
        }
    }
    parts.reverse();
    Some(parts.join("."))
}

fn push_children<'e>(e: &'e Expr, stack: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Literal(_) => {}
        ExprKind::Select { operand, .. } => stack.push(operand),
        ExprKind::Call { target, args, .. } => {
            stack.extend(target.as_deref());
            stack.extend(args);
        }
        ExprKind::List { elements, .. } => stack.extend(elements),
        ExprKind::Map { entries } => {
            for entry in entries {
                stack.push(&entry.key);
                stack.push(&entry.value);
            }
        }
        ExprKind::Struct { fields, .. } => stack.extend(fields.iter().map(|f| &f.value)),
        ExprKind::Comprehension(c) => stack.extend([
            &c.iter_range,
            &c.accu_init,
            &c.loop_condition,
            &c.loop_step,
            &c.result,
        ]),
    }
}

/// Whether the expression names the variable `name` anywhere (the checker's reference map
/// holds it). Iterative: an expression may be as deep as the parser allows.
fn mentions(expr: &Expr, name: &str) -> bool {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if matches!(&e.kind, ExprKind::Ident(n) if n == name) {
            return true;
        }
        push_children(e, &mut stack);
    }
    false
}

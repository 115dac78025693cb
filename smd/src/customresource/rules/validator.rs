//! The walk that runs a custom resource's rules (apiextensions v0.37.2 `cel.Validator`): at
//! each node with rules below it, its own rules with `self` (and, for transition rules, the
//! correlated old value as `oldSelf`), then its `allOf` entries' rules, then its members and
//! items; the errors a failing rule gives (its message, message expression, reason and field
//! path), the errors an erring rule gives, and the server's cost budget. An update's errors in
//! a part it left unchanged are ratcheted: given as warnings instead.

use smd_cel::{Activation, Functions, Value as Cel};
use smd_fieldpath::Value;

use super::program::Rule;
use super::schema::RuleNode;
use super::values::to_cel;
use crate::customresource::validation::{Correlation, Node};
use crate::validation::{BadValue, ErrorType, FieldError, FieldPath};

/// `celconfig.PerCallLimit`: the most one rule's evaluation may cost.
const PER_CALL_LIMIT: u64 = 1_000_000;
/// `celconfig.RuntimeCELCostBudget`: the most all of an object's rules may cost.
const RUNTIME_BUDGET: i64 = 10_000_000;
/// `celconfig.MaxEvaluatedMessageExpressionSizeBytes`.
const MAX_MESSAGE: usize = 5 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// What the rules say of an object: errors, and the warnings ratcheting turned errors into.
#[derive(Debug, Default)]
pub(crate) struct Verdict {
    pub(crate) errors: Vec<FieldError>,
    pub(crate) warnings: Vec<String>,
}

/// Where ratcheting stands at a node (`ratchetingOptions`): the node's new and old values
/// when they correlate, else the nearest ancestor's that did.
#[derive(Clone, Copy, Default)]
struct Ratchet<'a> {
    current: Option<(&'a Node, &'a Value, &'a Value)>,
    parent: Option<(&'a Node, &'a Value, &'a Value)>,
}

impl<'a> Ratchet<'a> {
    fn key(self, field: &str, root: bool) -> Ratchet<'a> {
        let Some((s, new, old)) = self.current else {
            return self;
        };
        if root && (field == "apiVersion" || field == "kind") {
            return Ratchet::default();
        }
        let child = match (new.as_map(), old.as_map(), s.member(field)) {
            (Some(n), Some(o), Some(ks)) => match (n.get(field), o.get(field)) {
                (Some(nv), Some(ov)) => Some((ks, nv, ov)),
                _ => None,
            },
            _ => None,
        };
        Ratchet {
            current: child,
            parent: self.current,
        }
    }

    fn index(self, i: usize, corr: &Correlation) -> Ratchet<'a> {
        let Some((s, new, old)) = self.current else {
            return self;
        };
        let child = new.as_list().and_then(|items| {
            let olds = corr.list_items(s, items, old)?;
            Some((s.items.as_deref()?, items.get(i)?, olds.get(i).copied()??))
        });
        Ratchet {
            current: child,
            parent: self.current,
        }
    }

    fn applies(self, corr: &mut Correlation) -> bool {
        match self.current.or(self.parent) {
            Some((s, new, old)) => corr.equal(s, new, old),
            None => false,
        }
    }
}

/// One run over an object.
pub(crate) struct Run<'a> {
    functions: &'a Functions,
    correlation: Correlation,
    budget: i64,
    out: Verdict,
}

impl<'a> Run<'a> {
    /// Runs the rules of `root` (and `schema`, the same tree as the value validator reads it,
    /// for ratcheting) over `object`, against `old` on an update.
    pub(crate) fn object(
        functions: &'a Functions,
        root: &RuleNode,
        schema: Option<&Node>,
        object: &Value,
        old: Option<&Value>,
    ) -> Verdict {
        let mut run = Run {
            functions,
            correlation: Correlation::default(),
            budget: RUNTIME_BUDGET,
            out: Verdict::default(),
        };
        let ratchet = match (schema, old) {
            (Some(s), Some(o)) => Ratchet {
                current: Some((s, object, o)),
                parent: None,
            },
            _ => Ratchet::default(),
        };
        run.node(
            root,
            schema,
            &FieldPath::default(),
            object,
            old,
            ratchet,
            true,
        );
        run.out
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        node: &RuleNode,
        schema: Option<&'a Node>,
        path: &FieldPath,
        value: &'a Value,
        old: Option<&'a Value>,
        ratchet: Ratchet<'a>,
        resource_root: bool,
    ) {
        if !node.has_rules || value.is_null() || self.budget < 0 {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        self.rules(node, &node.rules, path, value, old, ratchet);
        for rules in &node.all_of {
            if self.budget < 0 {
                return;
            }
            let parent_only = Ratchet {
                current: None,
                parent: ratchet.parent,
            };
            self.rules(node, rules, path, value, old, parent_only);
        }
        match value {
            Value::List(items) => {
                let Some(item) = node.items.as_deref() else {
                    return;
                };
                let item_schema = schema.and_then(|s| s.items.as_deref());
                let olds = match (node.list_type.as_str(), old, schema) {
                    ("map", Some(o), Some(s)) => self.correlation.list_items(s, items, o),
                    _ => None,
                };
                for (i, v) in items.iter().enumerate() {
                    if self.budget < 0 {
                        return;
                    }
                    let old_item = olds.as_ref().and_then(|o| o.get(i).copied().flatten());
                    let r = ratchet.index(i, &self.correlation);
                    self.node(item, item_schema, &path.index(i), v, old_item, r, false);
                }
            }
            Value::Map(members) => {
                let old_map = old
                    .and_then(Value::as_map)
                    .filter(|_| node.map_correlatable());
                for (k, v) in members.iter() {
                    if self.budget < 0 {
                        return;
                    }
                    let (child, child_path) = match node.property(k) {
                        Some(p) => (p, path.child(k)),
                        None => match node.additional() {
                            Some(a) => (a, path.key(k)),
                            None => continue,
                        },
                    };
                    let old_v = old_map.and_then(|m| m.get(k));
                    let child_schema = schema.and_then(|s| s.member(k));
                    let r = ratchet.key(k, resource_root);
                    self.node(child, child_schema, &child_path, v, old_v, r, false);
                }
            }
            _ => {}
        }
    }

    fn rules(
        &mut self,
        node: &RuleNode,
        rules: &[Rule],
        path: &FieldPath,
        value: &Value,
        old: Option<&Value>,
        ratchet: Ratchet<'a>,
    ) {
        if rules.is_empty() {
            return;
        }
        let type_name = BadValue::str(node.kind.clone());
        let node_path = path;
        let path = &shown(path);
        if self.budget <= 0 {
            self.out
                .errors
                .push(FieldError::invalid(path, type_name, OUT_OF_BUDGET));
            self.budget = -1;
            return;
        }
        let vars = Vars {
            this: to_cel(value, node),
            old: old.map(|o| to_cel(o, node)),
        };
        for rule in rules {
            let program = match &rule.program {
                Ok(p) => p,
                Err(e) => {
                    self.out.errors.push(FieldError::invalid(
                        path,
                        type_name.clone(),
                        format!("rule compile error: {e}"),
                    ));
                    continue;
                }
            };
            if rule.uses_old_self && vars.old.is_none() && !rule.optional_old_self {
                continue;
            }
            if let Some(function) = &rule.unknown_function {
                self.out.warnings.push(format!(
                    "{}: x-kubernetes-validations rule {}: cannot check offline: rule uses {function}",
                    path,
                    go_quote(rule.source.trim())
                ));
                continue;
            }
            let outcome = if rule.optional_old_self {
                smd_cel::evaluate(
                    self.functions,
                    &program.expr,
                    &vars.optional(),
                    Some(PER_CALL_LIMIT),
                )
            } else {
                smd_cel::evaluate(self.functions, &program.expr, &vars, Some(PER_CALL_LIMIT))
            };
            if outcome.cost > self.budget as u64 {
                self.out
                    .errors
                    .push(FieldError::invalid(path, type_name, OUT_OF_BUDGET));
                self.budget = -1;
                return;
            }
            self.budget -= outcome.cost as i64;
            let named = rule.named();
            match outcome.value {
                Ok(Cel::Bool(true)) => continue,
                Ok(_) => {}
                Err(smd_cel::Error::CostLimitExceeded) => {
                    self.out.errors.push(FieldError::invalid(
                        path,
                        type_name,
                        format!(
                            "'{}': no further validation rules will be run due to call cost exceeds limit for rule: {named}",
                            smd_cel::Error::CostLimitExceeded
                        ),
                    ));
                    self.budget = -1;
                    return;
                }
                Err(e) => {
                    let text = e.to_string();
                    let detail = if text.starts_with("no such overload") {
                        format!(
                            "'{text}': call arguments did not match a supported operator, function or macro signature for rule: {named}"
                        )
                    } else {
                        format!("{text} evaluating rule: {named}")
                    };
                    self.out
                        .errors
                        .push(FieldError::invalid(path, type_name.clone(), detail));
                    continue;
                }
            }
            // The rule is false: its error, at its field path.
            let at = match &rule.field_path {
                Some(p) => node_path.child(p),
                None => path.clone(),
            };
            let ratcheted = !rule.uses_old_self && ratchet.applies(&mut self.correlation);
            let detail = match self.message(rule, &vars) {
                Message::Text(t) => t,
                Message::Fallback => default_message(rule),
                Message::Stop(e) => {
                    let e = FieldError::invalid(&at, type_name, e);
                    self.give(e, ratcheted);
                    self.budget = -1;
                    return;
                }
            };
            let shown = match value {
                Value::List(_) | Value::Map(_) => BadValue::Omit,
                v => BadValue::of(v),
            };
            let e = match rule.reason.as_str() {
                "FieldValueForbidden" => FieldError::forbidden(&at, detail),
                "FieldValueRequired" => FieldError::required(&at, detail),
                "FieldValueDuplicate" => FieldError::duplicate(&at, shown),
                _ => FieldError::new(ErrorType::Invalid, &at, shown, detail),
            };
            self.give(e, ratcheted);
        }
    }

    fn give(&mut self, mut e: FieldError, ratcheted: bool) {
        e.field = shown(&e.field);
        if ratcheted {
            self.out.warnings.push(e.to_string());
        } else {
            self.out.errors.push(e);
        }
    }

    /// The detail a failing rule's message expression gives (`evalMessageExpression`).
    fn message(&mut self, rule: &Rule, vars: &Vars) -> Message {
        let Some((source, parsed)) = &rule.message_expression else {
            return Message::Fallback;
        };
        let Ok(parsed) = parsed else {
            return Message::Fallback;
        };
        let outcome = smd_cel::evaluate(self.functions, &parsed.expr, vars, Some(PER_CALL_LIMIT));
        if outcome.cost > self.budget as u64 {
            return Message::Stop(
                "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
                    .to_owned(),
            );
        }
        if let Err(smd_cel::Error::CostLimitExceeded) = outcome.value {
            return Message::Stop(format!(
                "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                go_quote(source)
            ));
        }
        self.budget -= outcome.cost as i64;
        let Ok(Cel::String(text)) = outcome.value else {
            return Message::Fallback;
        };
        let text = text.trim();
        if text.is_empty() || text.len() > MAX_MESSAGE || text.contains('\n') {
            return Message::Fallback;
        }
        Message::Text(text.to_owned())
    }
}

enum Message {
    Text(String),
    /// The rule's message, or `failed rule: RULE`.
    Fallback,
    /// An error that ends the run.
    Stop(String),
}

/// A path as Go prints it: the root's (a nil `*field.Path`) as `<nil>`.
pub(crate) fn shown(path: &FieldPath) -> FieldPath {
    if path.as_str().is_empty() {
        FieldPath::new("<nil>")
    } else {
        path.clone()
    }
}

fn default_message(rule: &Rule) -> String {
    if rule.message.is_empty() {
        format!("failed rule: {}", rule.named())
    } else {
        rule.message.clone()
    }
}

fn go_quote(s: &str) -> String {
    smd_fieldpath::value::go_quote(s)
}

/// `self` and `oldSelf`.
struct Vars {
    this: Cel,
    old: Option<Cel>,
}

impl Vars {
    /// The variables of an `optionalOldSelf` rule: `oldSelf` an optional, bound on create too.
    fn optional(&self) -> OptionalVars<'_> {
        OptionalVars(self)
    }
}

impl Activation for Vars {
    fn resolve(&self, name: &str) -> Option<Cel> {
        match name {
            "self" => Some(self.this.clone()),
            "oldSelf" => self.old.clone(),
            _ => None,
        }
    }
}

struct OptionalVars<'v>(&'v Vars);

impl Activation for OptionalVars<'_> {
    fn resolve(&self, name: &str) -> Option<Cel> {
        match name {
            "self" => Some(self.0.this.clone()),
            "oldSelf" => Some(Cel::optional(self.0.old.clone())),
            _ => None,
        }
    }
}

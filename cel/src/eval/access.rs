//! Field selection, indexing (plain and optional) and calls, with the operators whose
//! arguments are not all evaluated first (`&&`, `||`, `?:`, `@not_strictly_false`, the
//! optionals' `or` and `orValue`).

use super::Evaluator;
use crate::ast::{Expr, ExprKind};
use crate::error::{Error, Result};
use crate::value::{Map, Value};

/// A map key or list index as cel-go's error texts print it (Go's `%v`).
pub(crate) fn go_format(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Double(d) => crate::library::format_go_double(*d),
        other => crate::library::display(other),
    }
}

fn no_such_key(key: &Value) -> Error {
    Error::new(format!("no such key: {}", go_format(key)))
}

/// The element of a list at a numeric index.
fn list_index(list: &crate::value::List, index: &Value) -> Result<Option<Value>> {
    let i: i64 = match index {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u).unwrap_or(i64::MAX),
        Value::Double(d) => {
            if d.fract() != 0.0 || !d.is_finite() || d.abs() > 9.2e18 {
                return Err(Error::new(format!(
                    "unsupported index value {} in list",
                    go_format(index)
                )));
            }
            *d as i64
        }
        other => {
            return Err(Error::new(format!(
                "unsupported index type '{}' in list",
                other.type_of().name()
            )));
        }
    };
    Ok(usize::try_from(i).ok().and_then(|i| list.get(i)))
}

fn index_value(container: &Value, index: &Value) -> Result<Value> {
    match container {
        Value::List(l) => match list_index(l, index)? {
            Some(v) => Ok(v),
            None => Err(Error::new(format!(
                "index out of bounds: {}",
                go_format(index)
            ))),
        },
        Value::Map(m) => map_get(m, index)?.ok_or_else(|| no_such_key(index)),
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => Ok(Value::optional(optional_index(inner, index)?)),
        _ => Err(Error::no_such_overload()),
    }
}

fn map_get(m: &Map, key: &Value) -> Result<Option<Value>> {
    Ok(m.get(key))
}

fn optional_index(container: &Value, index: &Value) -> Result<Option<Value>> {
    match container {
        Value::List(l) => list_index(l, index),
        Value::Map(m) => map_get(m, index),
        Value::Optional(None) => Ok(None),
        Value::Optional(Some(inner)) => optional_index(inner, index),
        _ => Err(Error::no_such_overload()),
    }
}

/// Whether a call is one cel-go plans as an attribute (a qualification or a conditional).
pub(super) fn is_attribute_call(function: &str, args: &[Expr]) -> bool {
    matches!(
        (function, args.len()),
        ("_[_]" | "_[?_]" | "_?._", 2) | ("_?_:_", 3)
    )
}

impl<'a> Evaluator<'a> {
    /// Whether cel-go plans the node as an attribute: a variable, a selection or index on
    /// anything, a presence test, a conditional. Constants (type names included) are not.
    fn is_attribute(&self, e: &Expr) -> bool {
        if self.plan.constant(e).is_some() {
            return false;
        }
        match &e.kind {
            ExprKind::Ident(_) | ExprKind::Select { .. } => true,
            ExprKind::Call {
                target: None,
                function,
                args,
            } => is_attribute_call(function, args),
            _ => false,
        }
    }

    /// An attribute where cel-go executes it: its resolution, then the observation of the
    /// attribute, which costs 1 except for a conditional's and a presence test's.
    pub(super) fn attribute(&mut self, e: &'a Expr) -> Result<Value> {
        let v = self.resolve(e);
        if let Err(err) = &v
            && !err.absorbable()
        {
            return v;
        }
        let free = matches!(
            &e.kind,
            ExprKind::Select {
                test_only: true,
                ..
            }
        ) || matches!(&e.kind, ExprKind::Call { function, .. } if function == "_?_:_");
        if !free {
            self.charge(1)?;
        }
        v
    }

    /// A qualification's operand: an attribute is resolved (extended by the qualifier, its
    /// own observation never happens); anything else is executed (a relative attribute).
    fn operand(&mut self, e: &'a Expr) -> Result<Value> {
        if self.is_attribute(e) {
            self.resolve(e)
        } else {
            self.eval(e)
        }
    }

    /// Resolves an attribute without observing it: only its qualifiers are costed, 1 each
    /// when applied (and, under an optional qualification, only when present).
    fn resolve(&mut self, e: &'a Expr) -> Result<Value> {
        if self.depth >= super::MAX_DEPTH {
            return Err(Error::TooDeep);
        }
        self.depth += 1;
        let out = self.resolve_kind(e);
        self.depth -= 1;
        out
    }

    fn resolve_kind(&mut self, e: &'a Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Ident(name) => self.ident(name),
            ExprKind::Select {
                operand,
                field,
                test_only: true,
            } => {
                let base = self.operand(operand)?;
                let present = match &base {
                    Value::Map(m) => m.get(&Value::from(field.as_str())).is_some(),
                    Value::Optional(_) => return Ok(Value::Bool(false)),
                    _ => false,
                };
                self.charge(1)?;
                Ok(Value::Bool(present))
            }
            ExprKind::Select { operand, field, .. } => {
                let base = self.operand(operand)?;
                self.qualify(base, Qualifier::Field(field), false)
            }
            ExprKind::Call { function, args, .. } => match (function.as_str(), args.as_slice()) {
                ("_?_:_", [c, t, f]) => match self.eval(c)? {
                    Value::Bool(true) => self.operand(t),
                    Value::Bool(false) => self.operand(f),
                    _ => Err(Error::no_such_overload()),
                },
                ("_[_]", [c, i]) => {
                    let base = self.operand(c)?;
                    self.qualify(base, Qualifier::Index(i), false)
                }
                ("_[?_]", [c, i]) => {
                    let base = self.operand(c)?;
                    self.qualify(base, Qualifier::Index(i), true)
                }
                ("_?._", [c, f]) => {
                    let ExprKind::Literal(crate::ast::Literal::String(field)) = &f.kind else {
                        return Err(Error::no_such_overload());
                    };
                    let base = self.operand(c)?;
                    self.qualify(base, Qualifier::Field(field), true)
                }
                _ => self.eval(e),
            },
            _ => self.eval(e),
        }
    }

    /// Applies one qualifier to a resolved value as cel-go's `applyQualifiers` does: an
    /// absent optional stops the chain uncosted; an optional value or an optional qualifier
    /// makes the rest a presence-guarded qualification.
    fn qualify(&mut self, base: Value, q: Qualifier<'a>, optional: bool) -> Result<Value> {
        let (obj, optional) = match base {
            Value::Optional(None) => return Ok(Value::Optional(None)),
            Value::Optional(Some(v)) => (v.as_ref().clone(), true),
            v => (v, optional),
        };
        let key = match q {
            Qualifier::Field(f) => Ok(Value::from(f)),
            Qualifier::Index(i) => self.operand(i),
        };
        let key = match key {
            Err(e) if !e.absorbable() => return Err(e),
            Err(e) => {
                if !optional {
                    self.charge(1)?;
                }
                return Err(e);
            }
            Ok(k) => k,
        };
        if optional {
            let found = optional_index(&obj, &key)?;
            if found.is_some() {
                self.charge(1)?;
            }
            return Ok(Value::optional(found));
        }
        let out = match q {
            Qualifier::Field(_) => match &obj {
                Value::Map(m) => m.get(&key).ok_or_else(|| no_such_key(&key)),
                _ => Err(no_such_key(&key)),
            },
            Qualifier::Index(_) => index_value(&obj, &key),
        };
        self.charge(1)?;
        out
    }

    pub(super) fn call(
        &mut self,
        e: &'a Expr,
        target: Option<&'a Expr>,
        function: &'a str,
        args: &'a [Expr],
    ) -> Result<Value> {
        match (function, target, args) {
            ("_&&_", None, [l, r]) => return self.logic(l, r, false),
            ("_||_", None, [l, r]) => return self.logic(l, r, true),
            ("@not_strictly_false", None, [a]) => {
                let v = match self.eval(a) {
                    Ok(Value::Bool(b)) => Value::Bool(b),
                    Err(e) if !e.absorbable() => return Err(e),
                    _ => Value::Bool(true),
                };
                self.charge(1)?;
                return Ok(v);
            }
            ("@in", None, [x, list]) if self.plan.is_set_lookup(e) => {
                let x = self.eval(x)?;
                let list = self.eval(list)?;
                return self.functions.call("@in", &[x, list]).1;
            }
            ("or" | "orValue", Some(t), [alt]) if self.functions.has("optional.of") => {
                let base = self.eval(t)?;
                return match base {
                    Value::Optional(Some(v)) if function == "orValue" => Ok(v.as_ref().clone()),
                    Value::Optional(Some(_)) => Ok(base),
                    Value::Optional(None) => self.eval(alt),
                    _ => Err(Error::no_such_overload()),
                };
            }
            _ => {}
        }
        if let Some(t) = target
            && let Some(name) = self.qualified(t, function)
        {
            return self.call_function(e, name.as_str(), None, args);
        }
        self.call_function(e, function, target, args)
    }

    /// `ns.fn(args)` as a call of the global `ns.fn` when `ns` is no variable.
    fn qualified(&self, target: &Expr, function: &str) -> Option<String> {
        let mut parts = vec![function];
        let mut e = target;
        loop {
            match &e.kind {
                ExprKind::Ident(n) => {
                    if self.is_bound(n) {
                        return None;
                    }
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
        let name = parts.join(".");
        self.functions.has(&name).then_some(name)
    }

    /// A call of a library function. cel-go evaluates the arguments of a unary or binary
    /// call all before giving the first error, and costs the call even then; a call of three
    /// or more arguments (or one whose constant regex the planner compiled) stops at the first
    /// error, and the call then goes uncosted unless that error was the last argument's (the
    /// tracker costs a call whose arguments it has all seen).
    fn call_function(
        &mut self,
        e: &'a Expr,
        function: &str,
        target: Option<&'a Expr>,
        args: &'a [Expr],
    ) -> Result<Value> {
        let count = args.len() + usize::from(target.is_some());
        let variadic = count > 2 || self.plan.is_variadic(e);
        let mut values = Vec::with_capacity(count);
        let mut first_err: Option<Error> = None;
        for (i, a) in target.into_iter().chain(args).enumerate() {
            match self.eval(a) {
                Ok(v) => values.push(v),
                Err(e) if !e.absorbable() || (variadic && i + 1 < count) => return Err(e),
                Err(e) => {
                    first_err = first_err.or(Some(e));
                    values.push(Value::Null);
                }
            }
        }
        if let Some(e) = first_err {
            let cost = self.call_cost(function, None, &values, &Err(e.clone()), true);
            self.charge(cost)?;
            return Err(e);
        }
        self.refuse_over_limit(function, &values)?;
        let (id, result) = self.functions.call(function, &values);
        let cost = self.call_cost(function, id, &values, &result, false);
        self.charge(cost)?;
        result
    }

    /// Cancels a call, before doing its work, whose cost (known from its arguments alone)
    /// would take the evaluation over the limit: cel-go would do the work (a regex of a
    /// megabyte, a quadratic sort) and then cancel, with the same outcome.
    fn refuse_over_limit(&mut self, function: &str, args: &[Value]) -> Result<()> {
        let Some(limit) = self.limit else {
            return Ok(());
        };
        if matches!(function, "join" | "slice" | "lists.range" | "reverse")
            || self.functions.has_cost(function)
        {
            return Ok(());
        }
        let cost = self.call_cost(function, None, args, &Ok(Value::Null), false);
        if self.cost.saturating_add(cost) > limit {
            self.charge(cost)?;
        }
        Ok(())
    }

    fn logic(&mut self, l: &'a Expr, r: &'a Expr, or: bool) -> Result<Value> {
        let mut err = None;
        for term in [l, r] {
            match self.eval(term) {
                Ok(Value::Bool(b)) if b == or => return Ok(Value::Bool(or)),
                Ok(Value::Bool(_)) => {}
                Ok(_) => err = err.or(Some(Error::no_such_overload())),
                Err(e) if !e.absorbable() => return Err(e),
                Err(e) => err = err.or(Some(e)),
            }
        }
        match err {
            Some(e) => Err(e),
            None => Ok(Value::Bool(!or)),
        }
    }
}

/// What a qualification applies: a field name, or an index expression.
#[derive(Clone, Copy)]
enum Qualifier<'a> {
    Field(&'a str),
    Index(&'a Expr),
}

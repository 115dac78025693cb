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

impl<'a> Evaluator<'a> {
    pub(super) fn select(
        &mut self,
        operand: &'a Expr,
        field: &'a str,
        test_only: bool,
    ) -> Result<Value> {
        let base = self.eval(operand)?;
        if test_only {
            return Ok(Value::Bool(match &base {
                Value::Map(m) => m.get(&Value::from(field)).is_some(),
                _ => false,
            }));
        }
        self.charge(1)?;
        let key = Value::from(field);
        match &base {
            Value::Map(m) => m.get(&key).ok_or_else(|| no_such_key(&key)),
            Value::Optional(None) => Ok(Value::Optional(None)),
            Value::Optional(Some(inner)) => Ok(Value::optional(optional_index(inner, &key)?)),
            _ => Err(no_such_key(&key)),
        }
    }

    pub(super) fn call(
        &mut self,
        target: Option<&'a Expr>,
        function: &'a str,
        args: &'a [Expr],
    ) -> Result<Value> {
        match (function, target, args) {
            ("_&&_", None, [l, r]) => return self.logic(l, r, false),
            ("_||_", None, [l, r]) => return self.logic(l, r, true),
            ("_?_:_", None, [c, t, f]) => {
                return match self.eval(c)? {
                    Value::Bool(true) => self.eval(t),
                    Value::Bool(false) => self.eval(f),
                    _ => Err(Error::no_such_overload()),
                };
            }
            ("@not_strictly_false", None, [a]) => {
                return match self.eval(a) {
                    Ok(Value::Bool(b)) => Ok(Value::Bool(b)),
                    Err(e) if !e.absorbable() => Err(e),
                    _ => Ok(Value::Bool(true)),
                };
            }
            // cel-go's planner folds `x in []` to false without evaluating `x`.
            ("@in", None, [_, empty]) if is_empty_list(empty) => return Ok(Value::Bool(false)),
            ("_[_]", None, [c, i]) => {
                let (c, i) = (self.eval(c), self.eval(i));
                let (c, i) = (c?, i?);
                self.charge(1)?;
                return index_value(&c, &i);
            }
            ("_[?_]", None, [c, i]) => {
                let (c, i) = (self.eval(c), self.eval(i));
                let (c, i) = (c?, i?);
                self.charge(1)?;
                return Ok(Value::optional(optional_index(&c, &i)?));
            }
            ("_?._", None, [c, f]) => {
                let ExprKind::Literal(crate::ast::Literal::String(field)) = &f.kind else {
                    return Err(Error::no_such_overload());
                };
                let c = self.eval(c)?;
                self.charge(1)?;
                return Ok(Value::optional(optional_index(
                    &c,
                    &Value::from(field.as_str()),
                )?));
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
            return self.call_function(name.as_str(), None, args);
        }
        self.call_function(function, target, args)
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

    fn call_function(
        &mut self,
        function: &str,
        target: Option<&'a Expr>,
        args: &'a [Expr],
    ) -> Result<Value> {
        let mut values = Vec::with_capacity(args.len() + 1);
        let mut first_err: Option<Error> = None;
        for e in target.into_iter().chain(args) {
            match self.eval(e) {
                Ok(v) => values.push(v),
                Err(e) if !e.absorbable() => return Err(e),
                Err(e) => {
                    first_err = first_err.or(Some(e));
                    values.push(Value::Null);
                }
            }
        }
        if let Some(e) = first_err {
            self.charge(1)?;
            return Err(e);
        }
        let (id, result) = self.functions.call(function, &values);
        let cost = self.call_cost(function, id, &values, &result);
        self.charge(cost)?;
        result
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

fn is_empty_list(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::List { elements, .. } if elements.is_empty())
}

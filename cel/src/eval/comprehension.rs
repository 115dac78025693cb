//! Comprehensions (the macros' loops), over lists (elements, or index and element) and maps
//! (keys, or key and value, in the map's order).

use super::{Evaluator, Local};
use crate::ast::{Comprehension, Expr, ExprKind};
use crate::error::{Error, Result};
use crate::value::{List, Map, Value};
use std::sync::Arc;

/// The Go type cel-go's error text names for a value that cannot be iterated.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "types.Null",
        Value::Bool(_) => "types.Bool",
        Value::Int(_) => "types.Int",
        Value::Uint(_) => "types.Uint",
        Value::Double(_) => "types.Double",
        Value::String(_) => "types.String",
        Value::Bytes(_) => "types.Bytes",
        Value::Duration(_) => "types.Duration",
        Value::Timestamp(_) => "types.Timestamp",
        Value::Type(_) => "*types.Type",
        Value::Optional(_) => "*types.Optional",
        _ => "value",
    }
}

impl<'a> Evaluator<'a> {
    pub(super) fn comprehension(&mut self, c: &'a Comprehension) -> Result<Value> {
        let range = self.eval(&c.iter_range)?;
        let two = !c.iter_var2.is_empty();
        let base = self.locals.len();
        self.locals
            .push((c.accu_var.as_str(), Local::Pending(&c.accu_init)));
        let out = match &range {
            Value::List(l) => {
                let mut r = Ok(());
                for i in 0..l.len() {
                    let Some(item) = l.get(i) else { break };
                    let vars = if two {
                        [Some(Value::Int(i as i64)), Some(item)]
                    } else {
                        [Some(item), None]
                    };
                    match self.step(c, base, vars) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                r
            }
            Value::Map(m) => {
                let mut r = Ok(());
                for key in m.keys() {
                    let vars = if two {
                        let v = m.get(&key).unwrap_or(Value::Null);
                        [Some(key), Some(v)]
                    } else {
                        [Some(key), None]
                    };
                    match self.step(c, base, vars) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                r
            }
            other => Err(Error::new(format!(
                "got '{}', expected iterable type",
                go_type(other)
            ))),
        };
        self.locals.truncate(base + 1);
        let result = match out {
            Ok(()) => self.eval(&c.result),
            Err(e) => Err(e),
        };
        self.locals.truncate(base);
        result
    }

    /// One iteration: false when the loop condition stops the loop.
    fn step(
        &mut self,
        c: &'a Comprehension,
        base: usize,
        vars: [Option<Value>; 2],
    ) -> Result<bool> {
        self.loop_steps += 1;
        if self.loop_steps > self.max_loop_steps {
            return Err(Error::Interrupted);
        }
        self.locals.truncate(base + 1);
        let [v1, v2] = vars;
        if let Some(v) = v1 {
            self.locals.push((c.iter_var.as_str(), Local::Value(Ok(v))));
        }
        if let Some(v) = v2 {
            self.locals
                .push((c.iter_var2.as_str(), Local::Value(Ok(v))));
        }
        match self.eval(&c.loop_condition) {
            Ok(Value::Bool(false)) => return Ok(false),
            Err(e) if !e.absorbable() => return Err(e),
            _ => {}
        }
        let next = match self.accumulate(c, base) {
            Some(next) => next,
            None => self.eval(&c.loop_step),
        };
        if let Err(e) = &next
            && !e.absorbable()
        {
            return Err(e.clone());
        }
        self.locals[base].1 = Local::Value(next);
        Ok(true)
    }
}

impl<'a> Evaluator<'a> {
    /// The macros' accumulating steps, `@result + [e]` and `cel.@mapInsert(@result, k, v)`,
    /// appended in place (cel-go's folder makes such an accumulator mutable) rather than
    /// copied at every step, which would make `map`, `filter` and `transformMap` quadratic.
    /// Costs and errors are the plain call's; `None` when the step is not of that shape or the
    /// accumulator is not yet a list or map the interpreter owns.
    fn accumulate(&mut self, c: &'a Comprehension, base: usize) -> Option<Result<Value>> {
        let ExprKind::Call {
            target: None,
            function,
            args,
        } = &c.loop_step.kind
        else {
            return None;
        };
        let (first, rest) = args.split_first()?;
        let reads_accu = matches!(&first.kind, ExprKind::Ident(n) if *n == c.accu_var)
            && self.plan.constant(first).is_none()
            && self.locals.iter().rposition(|(n, _)| *n == c.accu_var) == Some(base);
        let owned = match self.locals.get(base) {
            Some((_, Local::Value(Ok(Value::List(List::Owned(_)))))) => function == "_+_",
            Some((_, Local::Value(Ok(Value::Map(Map::Owned(_)))))) => function == "cel.@mapInsert",
            _ => false,
        };
        if !reads_accu || !owned || rest.is_empty() || rest.len() > 2 {
            return None;
        }
        Some(self.accumulate_into(function, base, rest))
    }

    fn accumulate_into(&mut self, function: &str, base: usize, rest: &'a [Expr]) -> Result<Value> {
        // The accumulator's read, an attribute.
        self.charge(1)?;
        let mut values = Vec::with_capacity(rest.len());
        let mut first_err = None;
        for e in rest {
            match self.eval(e) {
                Ok(v) => values.push(v),
                Err(e) if !e.absorbable() => return Err(e),
                Err(e) => {
                    first_err = first_err.or(Some(e));
                    values.push(Value::Null);
                }
            }
        }
        let accu = match self.locals.get_mut(base) {
            Some((_, slot)) => std::mem::replace(slot, Local::Value(Ok(Value::Null))),
            None => return Err(Error::no_such_overload()),
        };
        let Local::Value(Ok(accu)) = accu else {
            return Err(Error::no_such_overload());
        };
        let mut args = vec![accu];
        if let Some(e) = first_err {
            args.extend(values);
            let cost = self.call_cost(function, None, &args, &Err(e.clone()), true);
            self.charge(cost)?;
            return Err(e);
        }
        let out = match (args.pop(), values.as_slice()) {
            (Some(Value::List(List::Owned(mut items))), [Value::List(more)]) => {
                Arc::make_mut(&mut items).extend(more.iter());
                Ok(Value::List(List::Owned(items)))
            }
            (Some(Value::Map(Map::Owned(mut m))), [k, v]) => {
                if Map::Owned(m.clone()).get(k).is_some() {
                    Err(Error::new(format!(
                        "insert failed: key {} already exists",
                        crate::library::display(k)
                    )))
                } else {
                    Arc::make_mut(&mut m).insert(k.clone(), v.clone());
                    Ok(Value::Map(Map::Owned(m)))
                }
            }
            (Some(accu), _) => {
                let mut all = vec![accu];
                all.extend(values.iter().cloned());
                let (id, out) = self.functions.call(function, &all);
                let cost = self.call_cost(function, id, &all, &out, false);
                self.charge(cost)?;
                return out;
            }
            (None, _) => Err(Error::no_such_overload()),
        };
        let mut all = vec![Value::Null];
        all.extend(values);
        let cost = self.call_cost(function, None, &all, &out, false);
        self.charge(cost)?;
        out
    }
}

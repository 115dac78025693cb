//! Comprehensions (the macros' loops), over lists (elements, or index and element) and maps
//! (keys, or key and value, in the map's order).

use super::{Evaluator, Local};
use crate::ast::Comprehension;
use crate::error::{Error, Result};
use crate::value::Value;

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
        let next = self.eval(&c.loop_step);
        if let Err(e) = &next
            && !e.absorbable()
        {
            return Err(e.clone());
        }
        self.locals[base].1 = Local::Value(next);
        Ok(true)
    }
}

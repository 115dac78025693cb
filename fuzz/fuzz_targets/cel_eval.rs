//! The CEL interpreter on expression trees built from the input bytes (operators, the
//! Kubernetes environment's functions, macros' comprehensions, optionals, literals and a few
//! bound variables, among them a big string and a big list), evaluated under a cost limit.
//!
//! Nothing panics, and every evaluation stays within the limit: the reported cost is at most
//! the limit unless the evaluation was cancelled for exceeding it, so the work (and the
//! memory) of repeated concatenation is bounded by the limit as in cel-go.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_cel::ast::{Comprehension, Expr, ExprKind, Literal, MapEntry};
use smd_cel::value::{Map, Value};
use smd_cel::{Error, Functions, evaluate};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Functions by name and the number of arguments (receiver included) they are called with;
/// `true` for a member call.
const CALLS: &[(&str, usize, bool)] = &[
    ("_+_", 2, false),
    ("_-_", 2, false),
    ("_*_", 2, false),
    ("_/_", 2, false),
    ("_%_", 2, false),
    ("-_", 1, false),
    ("!_", 1, false),
    ("_==_", 2, false),
    ("_!=_", 2, false),
    ("_<_", 2, false),
    ("_<=_", 2, false),
    ("_&&_", 2, false),
    ("_||_", 2, false),
    ("_?_:_", 3, false),
    ("_[_]", 2, false),
    ("_[?_]", 2, false),
    ("@in", 2, false),
    ("size", 1, false),
    ("int", 1, false),
    ("uint", 1, false),
    ("double", 1, false),
    ("string", 1, false),
    ("bytes", 1, false),
    ("dyn", 1, false),
    ("type", 1, false),
    ("duration", 1, false),
    ("timestamp", 1, false),
    ("contains", 2, true),
    ("startsWith", 2, true),
    ("matches", 2, true),
    ("charAt", 2, true),
    ("indexOf", 2, true),
    ("lastIndexOf", 2, true),
    ("lowerAscii", 1, true),
    ("replace", 3, true),
    ("split", 2, true),
    ("substring", 2, true),
    ("trim", 1, true),
    ("join", 2, true),
    ("format", 2, true),
    ("strings.quote", 1, false),
    ("find", 2, true),
    ("findAll", 2, true),
    ("sets.contains", 2, false),
    ("sets.intersects", 2, false),
    ("slice", 3, true),
    ("flatten", 1, true),
    ("distinct", 1, true),
    ("reverse", 1, true),
    ("sort", 1, true),
    ("lists.range", 1, false),
    ("sum", 1, true),
    ("max", 1, true),
    ("isSorted", 1, true),
    ("optional.of", 1, false),
    ("optional.none", 0, false),
    ("or", 2, true),
    ("orValue", 2, true),
    ("hasValue", 1, true),
    ("value", 1, true),
    ("getHours", 1, true),
    ("cel.@mapInsert", 3, false),
];

const NAMES: &[&str] = &[
    "x", "s", "big", "l", "m", "int", "string", "@result", "v", "w",
];

struct Gen<'a> {
    data: &'a [u8],
    pos: usize,
    id: i64,
}

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn node(&mut self, kind: ExprKind) -> Expr {
        self.id += 1;
        Expr { id: self.id, kind }
    }

    fn literal(&mut self) -> Expr {
        let l = match self.byte() % 8 {
            0 => Literal::Null,
            1 => Literal::Bool(self.byte() % 2 == 0),
            2 => Literal::Int(i64::from(self.byte() as i8)),
            3 => Literal::Uint(u64::from(self.byte())),
            4 => Literal::Double(f64::from(self.byte() as i8) / 4.0),
            5 => Literal::Bytes(vec![self.byte(); usize::from(self.byte() % 4)]),
            6 => Literal::Int(if self.byte() % 2 == 0 {
                i64::MAX
            } else {
                i64::MIN
            }),
            _ => {
                let n = usize::from(self.byte() % 6);
                let s = (0..n)
                    .map(|_| {
                        [
                            'a', ',', '.', '[', ']', '*', '+', '(', 'é', '1', 's', '%', 'd', 'x',
                            ' ',
                        ][usize::from(self.byte() % 15)]
                    })
                    .collect();
                Literal::String(s)
            }
        };
        self.node(ExprKind::Literal(l))
    }

    fn ident(&mut self) -> Expr {
        let name = NAMES[usize::from(self.byte()) % NAMES.len()];
        self.node(ExprKind::Ident(name.to_string()))
    }

    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.pos >= self.data.len() {
            return if self.byte() % 2 == 0 {
                self.literal()
            } else {
                self.ident()
            };
        }
        let d = depth - 1;
        match self.byte() % 12 {
            0 => self.literal(),
            1 => self.ident(),
            2 => {
                let operand = Box::new(self.expr(d));
                let field = ["a", "b", "name"][usize::from(self.byte() % 3)].to_string();
                let test_only = self.byte() % 4 == 0;
                self.node(ExprKind::Select {
                    operand,
                    field,
                    test_only,
                })
            }
            3 => {
                let n = usize::from(self.byte() % 4);
                let elements = (0..n).map(|_| self.expr(d)).collect();
                let optional_indices = if self.byte() % 8 == 0 {
                    vec![0]
                } else {
                    vec![]
                };
                self.node(ExprKind::List {
                    elements,
                    optional_indices,
                })
            }
            4 => {
                let n = usize::from(self.byte() % 3);
                let entries = (0..n)
                    .map(|_| {
                        self.id += 1;
                        MapEntry {
                            id: self.id,
                            key: self.expr(d),
                            value: self.expr(d),
                            optional: self.byte() % 8 == 0,
                        }
                    })
                    .collect();
                self.node(ExprKind::Map { entries })
            }
            5 => self.comprehension(d),
            _ => {
                let (function, arity, member) = CALLS[usize::from(self.byte()) % CALLS.len()];
                let mut args: Vec<Expr> = (0..arity).map(|_| self.expr(d)).collect();
                let target = if member && !args.is_empty() {
                    Some(Box::new(args.remove(0)))
                } else {
                    None
                };
                self.node(ExprKind::Call {
                    target,
                    function: function.to_string(),
                    args,
                })
            }
        }
    }

    /// A loop shaped as the macros' (an accumulator over a range), with free parts.
    fn comprehension(&mut self, d: usize) -> Expr {
        let iter_range = self.expr(d);
        let two = self.byte() % 3 == 0;
        let accu_init = self.expr(d);
        let loop_condition = self.expr(d);
        let loop_step = self.expr(d);
        let result = if self.byte() % 2 == 0 {
            self.node(ExprKind::Ident("@result".into()))
        } else {
            self.expr(d)
        };
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_range,
            iter_var: "v".into(),
            iter_var2: if two { "w".into() } else { String::new() },
            accu_var: "@result".into(),
            accu_init,
            loop_condition,
            loop_step,
            result,
        })))
    }
}

fn functions() -> &'static Functions {
    static F: OnceLock<Functions> = OnceLock::new();
    F.get_or_init(Functions::kubernetes)
}

fn vars() -> HashMap<String, Value> {
    // Long enough that copying it costs, short enough that the O(n) work cel-go costs 1
    // (a conversion of a text, a regex compile) stays quick over a million loop steps.
    let big = "ab".repeat(5_000);
    HashMap::from([
        ("x".to_string(), Value::Int(7)),
        ("s".to_string(), Value::from("a,b")),
        ("big".to_string(), Value::from(big.as_str())),
        (
            "l".to_string(),
            Value::list((0..1000).map(Value::Int).collect()),
        ),
        (
            "m".to_string(),
            Value::Map(Map::from_entries([
                (Value::from("a"), Value::Int(1)),
                (Value::from("name"), Value::from("n")),
            ])),
        ),
    ])
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let limit = if first % 2 == 0 { 1_000_000 } else { 10_000 };
    let mut g = Gen {
        data: rest,
        pos: 0,
        id: 0,
    };
    let tree = g.expr(usize::from(first % 8) + 2);
    if std::env::var_os("CEL_FUZZ_DEBUG").is_some() {
        eprintln!("{tree:?} limit {limit}");
    }
    let out = evaluate(functions(), &tree, &vars(), Some(limit));
    let cancelled = matches!(out.value, Err(Error::CostLimitExceeded));
    assert!(
        out.cost <= limit || cancelled,
        "cost {} over the limit {limit} without cancellation",
        out.cost
    );
});

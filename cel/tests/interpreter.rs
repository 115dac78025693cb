//! What the cel-go corpus cannot reach: host lists and maps (an object's data presented
//! lazily) evaluate and cost as the same data held as values; the cost limit's cancellation is
//! never absorbed by `&&`, `||` or a macro's loop; program errors are found in branches never
//! evaluated.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use smd_cel::ast::{Comprehension, Expr, ExprKind, Literal};
use smd_cel::value::{HostList, HostMap, List, Map, Value};
use smd_cel::{Error, Functions, evaluate};
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Debug)]
struct Items(Vec<i64>);

impl HostList for Items {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn get(&self, index: usize) -> Option<Value> {
        self.0.get(index).map(|&i| Value::Int(i))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[derive(Debug)]
struct Object(Vec<(&'static str, Value)>);

impl HostMap for Object {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn get(&self, key: &Value) -> Option<Value> {
        let Value::String(k) = key else { return None };
        self.0
            .iter()
            .find(|(n, _)| *n == k.as_ref())
            .map(|(_, v)| v.clone())
    }
    fn keys(&self) -> Box<dyn Iterator<Item = Value> + '_> {
        Box::new(self.0.iter().map(|(n, _)| Value::from(*n)))
    }
}

/// A tiny tree builder: ids in creation order, as the parser gives them.
#[derive(Default)]
struct B(i64);

impl B {
    fn node(&mut self, kind: ExprKind) -> Expr {
        self.0 += 1;
        Expr { id: self.0, kind }
    }
    fn int(&mut self, i: i64) -> Expr {
        self.node(ExprKind::Literal(Literal::Int(i)))
    }
    fn string(&mut self, s: &str) -> Expr {
        self.node(ExprKind::Literal(Literal::String(s.into())))
    }
    fn boolean(&mut self, b: bool) -> Expr {
        self.node(ExprKind::Literal(Literal::Bool(b)))
    }
    fn ident(&mut self, n: &str) -> Expr {
        self.node(ExprKind::Ident(n.into()))
    }
    fn select(&mut self, operand: Expr, field: &str, test_only: bool) -> Expr {
        self.node(ExprKind::Select {
            operand: Box::new(operand),
            field: field.into(),
            test_only,
        })
    }
    fn call(&mut self, function: &str, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call {
            target: None,
            function: function.into(),
            args,
        })
    }
    fn member(&mut self, target: Expr, function: &str, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call {
            target: Some(Box::new(target)),
            function: function.into(),
            args,
        })
    }
    /// `range.all(x, pred)` as cel-go's parser expands it.
    fn all(&mut self, range: Expr, pred: Expr) -> Expr {
        let accu_init = self.boolean(true);
        let accu = self.ident("@result");
        let loop_condition = self.call("@not_strictly_false", vec![accu]);
        let accu = self.ident("@result");
        let loop_step = self.call("_&&_", vec![accu, pred]);
        let result = self.ident("@result");
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_range: range,
            iter_var: "x".into(),
            iter_var2: String::new(),
            accu_var: "@result".into(),
            accu_init,
            loop_condition,
            loop_step,
            result,
        })))
    }
}

fn host_self() -> Value {
    Value::Map(Map::Host(Arc::new(Object(vec![
        ("a", Value::Int(1)),
        ("name", Value::from("web")),
        (
            "items",
            Value::List(List::Host(Arc::new(Items(vec![3, 1, 2])))),
        ),
    ]))))
}

fn owned_self() -> Value {
    Value::Map(Map::from_entries([
        (Value::from("a"), Value::Int(1)),
        (Value::from("name"), Value::from("web")),
        (
            Value::from("items"),
            Value::list(vec![Value::Int(3), Value::Int(1), Value::Int(2)]),
        ),
    ]))
}

/// Expressions over `self`, each with its expected value.
fn over_self() -> Vec<(Expr, Value)> {
    let mut b = B::default();
    let mut out = Vec::new();
    let s = b.ident("self");
    out.push((b.select(s, "a", false), Value::Int(1)));
    let s = b.ident("self");
    out.push((b.select(s, "b", true), Value::Bool(false)));
    let s = b.ident("self");
    out.push((b.select(s, "name", true), Value::Bool(true)));
    let s = b.ident("self");
    let items = b.select(s, "items", false);
    let one = b.int(1);
    out.push((b.call("_[_]", vec![items, one]), Value::Int(1)));
    let s = b.ident("self");
    let items = b.select(s, "items", false);
    out.push((b.call("size", vec![items]), Value::Int(3)));
    let s = b.ident("self");
    let items = b.select(s, "items", false);
    let x = b.ident("x");
    let zero = b.int(0);
    let pred = b.call("_>_", vec![x, zero]);
    out.push((b.all(items, pred), Value::Bool(true)));
    let s = b.ident("self");
    let items = b.select(s, "items", false);
    out.push((
        b.member(items, "sort", vec![]),
        Value::list(vec![1, 2, 3].into_iter().map(Value::Int).collect()),
    ));
    let s = b.ident("self");
    let web = b.string("web");
    let name = b.select(s, "name", false);
    out.push((b.call("_==_", vec![name, web]), Value::Bool(true)));
    let s = b.ident("self");
    out.push((b.member(s, "all", vec![]), Value::Bool(false)));
    out
}

#[test]
fn host_values_evaluate_and_cost_as_owned_ones() {
    let functions = Functions::kubernetes();
    for (i, (tree, want)) in over_self().into_iter().enumerate() {
        let host = HashMap::from([("self".to_string(), host_self())]);
        let owned = HashMap::from([("self".to_string(), owned_self())]);
        let h = evaluate(&functions, &tree, &host, Some(1_000_000));
        let o = evaluate(&functions, &tree, &owned, Some(1_000_000));
        if i == over_self().len() - 1 {
            // `self.all()` with no such function: an error either way, at the same cost.
            assert!(h.value.is_err() && o.value.is_err(), "case {i}");
        } else {
            let got = h.value.as_ref().expect("host value");
            assert!(smd_cel::value::equals(got, &want), "case {i}: {got:?}");
            let got = o.value.as_ref().expect("owned value");
            assert!(smd_cel::value::equals(got, &want), "case {i}: {got:?}");
        }
        assert_eq!(h.cost, o.cost, "case {i}: host and owned costs");
    }
}

/// `lists.range(n).sort()` costs about 2n², over any small limit.
fn expensive(b: &mut B) -> Expr {
    let n = b.int(1000);
    let range = b.call("lists.range", vec![n]);
    let sorted = b.member(range, "sort", vec![]);
    let twin = sorted_twin(b);
    b.call("_==_", vec![sorted, twin])
}

fn sorted_twin(b: &mut B) -> Expr {
    let empty = b.node(ExprKind::List {
        elements: vec![],
        optional_indices: vec![],
    });
    b.member(empty, "sort", vec![])
}

#[test]
fn cancellation_is_never_absorbed() {
    let functions = Functions::kubernetes();
    let vars: HashMap<String, Value> = HashMap::new();
    for (op, other) in [("_||_", true), ("_&&_", false)] {
        for cancelled_first in [true, false] {
            let mut b = B::default();
            let e = expensive(&mut b);
            let short = b.boolean(other);
            let args = if cancelled_first {
                vec![e, short]
            } else {
                vec![b.boolean(!other), e]
            };
            let tree = b.call(op, args);
            let out = evaluate(&functions, &tree, &vars, Some(1000));
            assert!(
                matches!(out.value, Err(Error::CostLimitExceeded)),
                "{op} first={cancelled_first}: {:?}",
                out.value
            );
            assert!(out.cost > 1000);
        }
    }
    // Nor by a macro's `@not_strictly_false`.
    let mut b = B::default();
    let elements = vec![b.int(1), b.int(2)];
    let range = b.node(ExprKind::List {
        elements,
        optional_indices: vec![],
    });
    let pred = expensive(&mut b);
    let tree = b.all(range, pred);
    let out = evaluate(&functions, &tree, &vars, Some(1000));
    assert!(matches!(out.value, Err(Error::CostLimitExceeded)));
    // Without a limit the same expressions evaluate.
    let out = evaluate(&functions, &tree, &vars, None);
    assert!(
        matches!(out.value, Ok(Value::Bool(false))),
        "{:?}",
        out.value
    );
}

#[test]
fn program_errors_are_found_in_branches_never_taken() {
    let functions = Functions::kubernetes();
    let vars: HashMap<String, Value> = HashMap::new();
    let mut b = B::default();
    let cond = b.boolean(false);
    let bad = b.string("1.5");
    let bad = b.call("int", vec![bad]);
    let one = b.int(1);
    let tree = b.call("_?_:_", vec![cond, bad, one]);
    let out = evaluate(&functions, &tree, &vars, None);
    assert_eq!(
        out.value.err(),
        Some(Error::Program(
            "type conversion error from 'string' to 'int'".into()
        ))
    );
    assert_eq!(out.cost, 0);
    assert!(smd_cel::eval::check(&functions, &tree, &|_| false).is_err());
    // A variable is not folded, so its conversion fails only when evaluated.
    let mut b = B::default();
    let v = b.ident("v");
    let tree = b.call("int", vec![v]);
    assert!(smd_cel::eval::check(&functions, &tree, &|n| n == "v").is_ok());
}

#[test]
fn macro_accumulators_grow_in_place() {
    // `lists.range(200000).map(x, x)`: copying the accumulator at each step would take
    // 2·10¹⁰ element copies; appending in place, a moment.
    let functions = Functions::kubernetes();
    let vars: HashMap<String, Value> = HashMap::new();
    let mut b = B::default();
    let n = b.int(200_000);
    let range = b.call("lists.range", vec![n]);
    let accu_init = b.node(ExprKind::List {
        elements: vec![],
        optional_indices: vec![],
    });
    let loop_condition = b.boolean(true);
    let accu = b.ident("@result");
    let x = b.ident("x");
    let elements = vec![x];
    let one = b.node(ExprKind::List {
        elements,
        optional_indices: vec![],
    });
    let loop_step = b.call("_+_", vec![accu, one]);
    let result = b.ident("@result");
    let tree = b.node(ExprKind::Comprehension(Box::new(Comprehension {
        iter_range: range,
        iter_var: "x".into(),
        iter_var2: String::new(),
        accu_var: "@result".into(),
        accu_init,
        loop_condition,
        loop_step,
        result,
    })));
    let out = evaluate(&functions, &tree, &vars, None);
    let Ok(Value::List(l)) = out.value else {
        panic!("{:?}", out.value)
    };
    assert_eq!(l.len(), 200_000);
    assert_eq!(
        l.get(199_999).map(|v| format!("{v:?}")),
        Some("199999".into())
    );
    // range: 11 + n; per step: @result 1, x 1, [x] 10, + 1; the result's read 1.
    assert_eq!(out.cost, 11 + 200_000 + 200_000 * 13 + 1);
}

/// Loop steps that cost nothing (a constant condition and step) nest a cubic amount of work
/// under any cost limit: the evaluation is interrupted after a bound of iterations
/// (`MAX_LOOP_STEPS` by default), as the API server's timeout interrupts cel-go, instead of
/// running for minutes (a fuzzing find). A smaller bound here keeps the test quick.
#[test]
fn free_nested_loops_are_interrupted() {
    let text = "l.exists_one(a, l.exists_one(b, l.exists_one(c, c == c) == true) == true)";
    let parsed = smd_cel::parse(text).expect("parses");
    let l = Value::list((0..300).map(Value::Int).collect());
    let vars = HashMap::from([("l".to_string(), l)]);
    let functions = Functions::kubernetes();
    let out = smd_cel::evaluate_bounded(&functions, &parsed.expr, &vars, None, 200_000);
    assert!(
        matches!(out.value, Err(smd_cel::Error::Interrupted)),
        "{:?}",
        out.value
    );
}

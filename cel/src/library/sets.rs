//! cel-go's sets extension: `sets.contains`, `sets.equivalent`, `sets.intersects` over lists,
//! with CEL's heterogeneous equality.

use super::{Functions, Overload, p};
use crate::value::{List, Value, equals};

fn contains_all(a: &List, b: &List) -> bool {
    b.iter().all(|x| a.iter().any(|y| equals(&x, &y)))
}

pub(super) fn register(f: &mut Functions) {
    f.add(
        "sets.contains",
        Overload::new("list_sets_contains_list", vec![p::LIST, p::LIST], |a| {
            Ok(Value::Bool(contains_all(
                &super::list(&a[0]),
                &super::list(&a[1]),
            )))
        }),
    );
    f.add(
        "sets.equivalent",
        Overload::new("list_sets_equivalent_list", vec![p::LIST, p::LIST], |a| {
            let (x, y) = (super::list(&a[0]), super::list(&a[1]));
            Ok(Value::Bool(contains_all(&x, &y) && contains_all(&y, &x)))
        }),
    );
    f.add(
        "sets.intersects",
        Overload::new("list_sets_intersects_list", vec![p::LIST, p::LIST], |a| {
            let (x, y) = (super::list(&a[0]), super::list(&a[1]));
            Ok(Value::Bool(
                x.iter().any(|e| y.iter().any(|g| equals(&e, &g))),
            ))
        }),
    );
}

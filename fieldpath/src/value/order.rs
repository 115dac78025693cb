//! Equality and total order of values, as Go's `value.Equals` and `value.Compare`.
//! (Owned by the value-semantics work; stub.)

use super::Value;
use std::cmp::Ordering;

impl Value {
    /// Go's `value.Compare`: numbers (int and float together, numerically) < string < bool <
    /// list < map < null.
    pub fn compare(&self, other: &Value) -> Ordering {
        let _ = other;
        unimplemented!("value ordering")
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        let _ = other;
        unimplemented!("value equality")
    }
}

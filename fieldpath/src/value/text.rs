//! The human text of a value, as Go's `value.ToString` (used in paths and messages).
//! (Owned by the value-semantics work; stub.)

use super::Value;
use std::fmt;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = f;
        unimplemented!("value text")
    }
}

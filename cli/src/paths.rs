//! Field paths against plain values: the value a path names, and whether a list item is the
//! one a path element names.

use smd::fieldpath::{PathElement, Value};

/// The value at `path` in `value`, if it is there.
pub(crate) fn value_at<'a>(value: &'a Value, path: &[PathElement]) -> Option<&'a Value> {
    let mut at = value;
    for element in path {
        at = match element {
            PathElement::Field(name) => at.as_map()?.get(name.as_str()?)?,
            other => {
                let items = at.as_list()?;
                items
                    .iter()
                    .enumerate()
                    .find(|(i, item)| names_item(other, item, *i))
                    .map(|(_, item)| item)?
            }
        };
    }
    Some(at)
}

/// Whether `element` names `item`, the `index`th of its list.
pub(crate) fn names_item(element: &PathElement, item: &Value, index: usize) -> bool {
    match element {
        PathElement::Field(_) => false,
        PathElement::Index(i) => usize::try_from(*i).is_ok_and(|i| i == index),
        PathElement::Value(v) => **v == *item,
        PathElement::Key(key) => {
            let Some(map) = item.as_map() else {
                return false;
            };
            key.fields().iter().all(|f| {
                f.name
                    .as_str()
                    .and_then(|n| map.get(n))
                    .is_some_and(|v| *v == f.value)
            })
        }
    }
}

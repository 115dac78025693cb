//! `blame`'s owner column: who owns a line (fields owned as a whole pass their owners down to
//! what they hold), each manager in its own color with a legend, in a column of bounded width.

use smd::fieldpath::{Path, PathElement, Set};
use smd::managedfields::{Managed, ManagerId, Operation};

use super::render::Paint;
use super::terminal::escape;

/// The most characters of a manager's name shown in the column (the legend shows it whole).
const NAME_WIDTH: usize = 32;
/// The most characters of the column: past it, names without operation and time, then cut.
pub(crate) const COLUMN_WIDTH: usize = 64;
/// One color per managedFields entry, in their order, cycling past the twelfth.
const PALETTE: [&str; 12] = [
    "36", "33", "35", "32", "34", "31", "96", "93", "95", "92", "94", "91",
];

/// One managedFields entry of the object.
pub(crate) struct Owner {
    /// The manager's name, escaped and cut to [`NAME_WIDTH`].
    name: String,
    /// The name with operation, subresource and time: `kubectl (Apply 2026-…)`.
    label: String,
    /// The label with the whole name, for the legend.
    full: String,
    color: &'static str,
    set: Set,
}

impl Owner {
    /// The fields the entry owns.
    pub(crate) fn set(&self) -> &Set {
        &self.set
    }
}

/// The keys of `managed`'s entries in the order the API server stores them (the order of
/// `metadata.managedFields`, which `fields` lists).
fn stored_order(managed: &Managed) -> Vec<String> {
    managed
        .encode()
        .ok()
        .flatten()
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let op = Operation::from_wire(&e.operation)?;
            Some(
                ManagerId::new(
                    e.manager.as_str(),
                    op,
                    e.api_version.as_str(),
                    e.subresource.as_str(),
                )
                .key(),
            )
        })
        .collect()
}

/// The color of the `i`th managedFields entry: `blame` and `fields` color an entry alike.
pub(crate) fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// The object's owners, in managedFields order.
pub(crate) fn owners(managed: &Managed) -> Vec<Owner> {
    let order = stored_order(managed);
    let mut owners: Vec<(usize, Owner)> = managed
        .fields
        .iter()
        .map(|(key, set)| {
            // An entry the stored order lacks (none should) goes last.
            let i = order.iter().position(|k| k == key).unwrap_or(order.len());
            let id = ManagerId::from_key(key).unwrap_or_default();
            let mut details = id.operation.to_string();
            if !id.subresource.is_empty() {
                details.push_str(&format!(" {}", id.subresource));
            }
            if let Some(t) = managed.times.get(key) {
                details.push_str(&format!(" {t}"));
            }
            let whole = escape(&id.manager).into_owned();
            let name = cut(&whole, NAME_WIDTH);
            let owner = Owner {
                label: format!("{name} ({details})"),
                full: format!("{whole} ({details})"),
                name,
                color: color(i),
                set: set.set().clone(),
            };
            (i, owner)
        })
        .collect();
    owners.sort_by_key(|(i, _)| *i);
    owners.into_iter().map(|(_, o)| o).collect()
}

/// `text` of at most `width` characters, an ellipsis ending what was cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The shortest proper prefix of `path` that the object's type holds as a whole (an atomic
/// list or map, a `granular: atomic` struct): the typed field set `typed` has it as a leaf,
/// so whoever owns it owns everything under it.
fn atomic_prefix<'a>(typed: &Set, path: &'a Path) -> Option<&'a [PathElement]> {
    let elements = path.elements();
    let mut node = typed;
    for (i, e) in elements
        .iter()
        .enumerate()
        .take(elements.len().saturating_sub(1))
    {
        match node.child(e) {
            Some(child) => node = child,
            None => return node.has_member(e).then(|| &elements[..=i]),
        }
    }
    None
}

/// The owners of a line showing `paths`: those whose sets hold one of them, or hold a field
/// that `typed` (the object's own field set, when its type is known) says is owned as a whole
/// and contains one of them.
pub(crate) fn of_line<'a>(
    owners: &'a [Owner],
    paths: &[Path],
    typed: Option<&Set>,
) -> Vec<&'a Owner> {
    owners
        .iter()
        .filter(|o| {
            paths.iter().any(|p| {
                o.set.has(p.elements())
                    || typed
                        .and_then(|t| atomic_prefix(t, p))
                        .is_some_and(|whole| o.set.has(whole))
            })
        })
        .collect()
}

/// The owner column of a line: its text painted, and its width in characters (at most
/// [`COLUMN_WIDTH`]).
pub(crate) fn column(owned: &[&Owner], paint: Paint) -> (String, usize) {
    let joined = |f: fn(&Owner) -> &str| -> Vec<(&str, &'static str)> {
        owned.iter().map(|o| (f(o), o.color)).collect()
    };
    let width = |parts: &[(&str, &str)]| -> usize {
        parts.iter().map(|(t, _)| t.chars().count()).sum::<usize>()
            + 2 * parts.len().saturating_sub(1)
    };
    let mut parts = joined(|o| o.label.as_str());
    if width(&parts) > COLUMN_WIDTH {
        parts = joined(|o| o.name.as_str());
    }
    let mut text = String::new();
    let total = width(&parts);
    if total <= COLUMN_WIDTH {
        for (i, (part, color)) in parts.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&paint.code(color, part));
        }
        return (text, total);
    }
    // Too wide even with names alone: what fits, then an ellipsis in the last place.
    let mut budget = COLUMN_WIDTH - 1;
    for (i, (part, color)) in parts.iter().enumerate() {
        if i > 0 {
            if budget < 2 {
                break;
            }
            text.push_str(", ");
            budget -= 2;
        }
        let head: String = part.chars().take(budget).collect();
        budget -= head.chars().count();
        if !head.is_empty() {
            text.push_str(&paint.code(color, &head));
        }
        if budget == 0 {
            break;
        }
    }
    text.push('…');
    (text, COLUMN_WIDTH - budget)
}

/// With colors on, one line per owner in its color, its name whole; nothing without colors
/// (the column then says it all).
pub(crate) fn legend(owners: &[Owner], paint: Paint) -> String {
    if !paint.on || owners.is_empty() {
        return String::new();
    }
    let mut text = paint.dim("# owners:\n");
    for o in owners {
        text.push_str(&paint.dim("#   "));
        text.push_str(&paint.code(o.color, &o.full));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(name: &str, label: &str) -> Owner {
        Owner {
            name: name.to_owned(),
            label: label.to_owned(),
            full: label.to_owned(),
            color: "36",
            set: Set::new(),
        }
    }

    #[test]
    fn the_column_is_bounded_and_says_what_it_cut() {
        let plain = Paint { on: false };
        let a = owner("a", "a (Apply)");
        let (text, width) = column(&[&a], plain);
        assert_eq!((text.as_str(), width), ("a (Apply)", 9));
        let long: Vec<Owner> = (0..9)
            .map(|i| {
                owner(
                    &format!("manager-{i}"),
                    &format!("manager-{i} (Update 2026-01-01T00:00:00Z)"),
                )
            })
            .collect();
        let refs: Vec<&Owner> = long.iter().collect();
        let (text, width) = column(&refs, plain);
        assert_eq!(width, COLUMN_WIDTH);
        assert_eq!(text.chars().count(), COLUMN_WIDTH);
        assert!(text.starts_with("manager-0, manager-1, "), "{text}");
        assert!(text.ends_with('…'), "{text}");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}

//! The order in which `kubectl get -o yaml` writes map keys: sigs.k8s.io/yaml hands yaml.v2
//! (`go.yaml.in/yaml/v2`) a map, which sorts its keys "naturally": other characters before
//! letters, and runs of digits compared as numbers (`a9` before `a10`).

use std::cmp::Ordering;

use crate::{Map, Value};

/// `value` with the keys of every map, nested ones included, in the order kubectl writes them.
///
/// ```
/// use smd_value::yaml;
/// let value = yaml::from_str("{a10: 1, b: 2, a9: 3, A: 4, _: 5}")?;
/// assert_eq!(yaml::to_string(&yaml::sorted(&value)), "_: 5\nA: 4\na9: 3\na10: 1\nb: 2\n");
/// # Ok::<(), smd_value::Error>(())
/// ```
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Map(m) => {
            let entries: Vec<(&str, Value)> = m.iter().map(|(k, v)| (k, sorted(v))).collect();
            let entries = merge_sort(entries);
            let mut map = Map::with_capacity(entries.len());
            for (k, v) in entries {
                map.insert(k, v);
            }
            Value::Map(map)
        }
        Value::List(items) => Value::List(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The entries of `map` in the order kubectl writes them (what [`sorted`] gives the map).
pub(super) fn sorted_entries(map: &Map) -> Vec<(&str, &Value)> {
    merge_sort(map.iter().collect())
}

/// The entries in [`key_order`], by a merge sort: yaml.v2's comparison is not transitive for
/// some sets of keys (`v1alpha1` < `v2` < `v10` < `v1alpha1`), where kubectl's own order then
/// depends on Go's map iteration, which is random; the standard library's sorts may panic on
/// such a comparison, this one gives some order.
fn merge_sort<V>(entries: Vec<(&str, V)>) -> Vec<(&str, V)> {
    if entries.len() <= 1 {
        return entries;
    }
    // Most maps come in order already (objects kubectl wrote). Without digits in the keys the
    // comparison is a lexicographic one over a total order of characters, so the merge sort
    // would keep such an input as it is: one pass finds that, with no copy.
    if entries.iter().all(|(k, _)| !k.chars().any(is_digit))
        && entries
            .windows(2)
            .all(|w| key_order(w[1].0, w[0].0) != Ordering::Less)
    {
        return entries;
    }
    let mut left = entries;
    let right = left.split_off(left.len() / 2);
    let (left, right) = (merge_sort(left), merge_sort(right));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut right = right.into_iter().peekable();
    for l in left {
        while let Some(r) = right.next_if(|r| key_order(r.0, l.0) == Ordering::Less) {
            out.push(r);
        }
        out.push(l);
    }
    out.extend(right);
    out
}

/// yaml.v2's comparison of two string keys. At the first character where they differ: two
/// letters compare as characters; anything else comes before a letter; otherwise the runs of
/// digits starting there are compared as numbers (wrapping as Go's int64 does), then by their
/// length, then the characters. A key that is a prefix of the other comes first. (Go's letters
/// and digits are Unicode's categories L and Nd; Rust's `is_alphabetic` and `is_numeric` are
/// close supersets, which only matters for keys holding such characters outside ASCII.)
fn key_order(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return order_of(a.as_bytes(), b.as_bytes());
    }
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    order_of(&ar, &br)
}

/// [`key_order`] over the characters of both keys (bytes for ASCII keys: no copy).
fn order_of<C: Copy + Into<char>>(ar: &[C], br: &[C]) -> Ordering {
    let at = |chars: &[C], i: usize| -> char { chars[i].into() };
    for i in 0..ar.len().min(br.len()) {
        let (ac, bc) = (at(ar, i), at(br, i));
        if ac == bc {
            continue;
        }
        let (al, bl) = (ac.is_alphabetic(), bc.is_alphabetic());
        if al && bl {
            return ac.cmp(&bc);
        }
        if al {
            return Ordering::Greater;
        }
        if bl {
            return Ordering::Less;
        }
        let (mut an, mut bn) = (0i64, 0i64);
        if (ac == '0' || bc == '0')
            && ar[..i]
                .iter()
                .rev()
                .take_while(|c| is_digit((**c).into()))
                .any(|c| (*c).into() != '0')
        {
            // Inside a number already begun, a zero is not a leading zero.
            an = 1;
            bn = 1;
        }
        let run = |chars: &[C], n: &mut i64| {
            let mut end = i;
            while end < chars.len() && is_digit(at(chars, end)) {
                let digit =
                    i64::from(u32::from(at(chars, end)).wrapping_sub(u32::from('0')) as i32);
                *n = n.wrapping_mul(10).wrapping_add(digit);
                end += 1;
            }
            end
        };
        let ai = run(ar, &mut an);
        let bi = run(br, &mut bn);
        return an.cmp(&bn).then(ai.cmp(&bi)).then(ac.cmp(&bc));
    }
    ar.len().cmp(&br.len())
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric())
}

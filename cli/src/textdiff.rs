//! A unified diff of two texts, line by line (Myers' algorithm), as `diff -u` prints it.

/// One line of the edit script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Same(usize, usize),
    Delete(usize),
    Insert(usize),
}

/// Above this many lines on either side the diff is computed on the changed middle only
/// after the common start and end are cut, and then, if still too big, shown as a whole
/// replacement: the object diff must never take quadratic time on a huge object.
const MAX_EDIT_DISTANCE: usize = 20_000;

/// The unified diff of `old` and `new` with `context` lines around each change, under
/// `---`/`+++` headers naming them; empty when the texts are the same.
pub(crate) fn unified(
    old_name: &str,
    old: &str,
    new_name: &str,
    new: &str,
    context: usize,
) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let script = edit_script(&a, &b);
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    // Group the script into hunks: changes closer than 2 * context lines share a hunk.
    let changes: Vec<usize> = script
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Edit::Same(..)))
        .map(|(i, _)| i)
        .collect();
    let mut i = 0;
    while i < changes.len() {
        let start = changes[i].saturating_sub(context);
        let mut end = changes[i];
        while i + 1 < changes.len() && changes[i + 1] - end <= 2 * context + 1 {
            i += 1;
            end = changes[i];
        }
        let end = (end + context + 1).min(script.len());
        let hunk = &script[start..end];
        let (a_start, b_start) = position(&script[..start]);
        let a_len = hunk
            .iter()
            .filter(|e| !matches!(e, Edit::Insert(_)))
            .count();
        let b_len = hunk
            .iter()
            .filter(|e| !matches!(e, Edit::Delete(_)))
            .count();
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(a_start, a_len),
            range(b_start, b_len)
        ));
        for edit in hunk {
            match *edit {
                Edit::Same(x, _) => {
                    out.push(' ');
                    out.push_str(a[x]);
                }
                Edit::Delete(x) => {
                    out.push('-');
                    out.push_str(a[x]);
                }
                Edit::Insert(y) => {
                    out.push('+');
                    out.push_str(b[y]);
                }
            }
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// The 0-based line positions in both texts after `prefix` of the script.
fn position(prefix: &[Edit]) -> (usize, usize) {
    prefix.iter().fold((0, 0), |(a, b), e| match e {
        Edit::Same(..) => (a + 1, b + 1),
        Edit::Delete(_) => (a + 1, b),
        Edit::Insert(_) => (a, b + 1),
    })
}

/// `start,len` as `diff -u` writes it (1-based; an empty range names the line before).
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        n => format!("{},{n}", start + 1),
    }
}

/// The most cells the walk-back trace may hold.
const MAX_TRACE_CELLS: usize = 64 << 20;

fn edit_script(a: &[&str], b: &[&str]) -> Vec<Edit> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut script: Vec<Edit> = (0..prefix).map(|i| Edit::Same(i, i)).collect();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    match myers(ma, mb) {
        Some(middle) => script.extend(middle.into_iter().map(|e| match e {
            Edit::Same(x, y) => Edit::Same(x + prefix, y + prefix),
            Edit::Delete(x) => Edit::Delete(x + prefix),
            Edit::Insert(y) => Edit::Insert(y + prefix),
        })),
        None => {
            script.extend((0..ma.len()).map(|x| Edit::Delete(x + prefix)));
            script.extend((0..mb.len()).map(|y| Edit::Insert(y + prefix)));
        }
    }
    let (a0, b0) = (a.len() - suffix, b.len() - suffix);
    script.extend((0..suffix).map(|i| Edit::Same(a0 + i, b0 + i)));
    script
}

/// Myers' O((N+M)D) shortest edit script; `None` when D passes the bound.
fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Edit>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    // The trace keeps one row per step: bound its size too.
    let bound = max
        .min(MAX_EDIT_DISTANCE)
        .min(MAX_TRACE_CELLS / (2 * max + 3));
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    for d in 0..=bound as isize {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let at = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                found = Some(d);
                break;
            }
            k += 2;
        }
        if found.is_some() {
            break;
        }
    }
    let d_end = found?;
    // Walk back through the trace.
    let mut edits = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let prev_k =
            if k == -d || (k != d && v[(k - 1 + offset) as usize] < v[(k + 1 + offset) as usize]) {
                k + 1
            } else {
                k - 1
            };
        let prev_x = v[(prev_k + offset) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            edits.push(Edit::Same(x as usize, y as usize));
        }
        if x == prev_x {
            y -= 1;
            edits.push(Edit::Insert(y as usize));
        } else {
            x -= 1;
            edits.push(Edit::Delete(x as usize));
        }
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        edits.push(Edit::Same(x as usize, y as usize));
    }
    edits.reverse();
    Some(edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_like_diff_u() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n";
        assert_eq!(
            unified("old", old, "new", new, 3),
            "--- old\n+++ new\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n"
        );
        assert_eq!(unified("o", "x\n", "n", "x\n", 3), "");
        assert_eq!(
            unified("o", "", "n", "a\n", 3),
            "--- o\n+++ n\n@@ -0,0 +1 @@\n+a\n"
        );
    }

    #[test]
    fn every_script_rebuilds_both_sides() {
        let texts = [
            "",
            "a",
            "a\nb",
            "b\na",
            "a\nb\nc\na\nb",
            "x\ny\nz",
            "a\na\na",
            "c\nb\na\nb",
        ];
        for old in texts {
            for new in texts {
                let a: Vec<&str> = old.lines().collect();
                let b: Vec<&str> = new.lines().collect();
                let script = edit_script(&a, &b);
                let mut left = Vec::new();
                let mut right = Vec::new();
                for e in script {
                    match e {
                        Edit::Same(x, y) => {
                            assert_eq!(a[x], b[y]);
                            left.push(a[x]);
                            right.push(b[y]);
                        }
                        Edit::Delete(x) => left.push(a[x]),
                        Edit::Insert(y) => right.push(b[y]),
                    }
                }
                assert_eq!((left, right), (a, b));
            }
        }
    }
}

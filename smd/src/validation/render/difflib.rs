//! The unified diff `github.com/pmezard/go-difflib` writes (`GetUnifiedDiffString` with no
//! file names), which apimachinery's `diff.Diff` prints in the server's messages. Its line
//! matching is Python difflib's `SequenceMatcher` without a junk predicate but with the
//! "popular" heuristic: in a second text of 200 lines or more, a line occurring more than
//! 1% of the time (plus one) never starts a match (`"Args": null,` in a pod spec), though a
//! match may grow over it. Which hunks a diff shows depends on that, so it is kept exactly.

use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Match {
    a: usize,
    b: usize,
    size: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Equal,
    Replace,
    Delete,
    Insert,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OpCode {
    tag: Tag,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

struct Matcher<'s> {
    a: &'s [String],
    b: &'s [String],
    /// Where each line of `b` occurs, popular lines left out.
    b2j: HashMap<&'s str, Vec<usize>>,
}

impl<'s> Matcher<'s> {
    fn new(a: &'s [String], b: &'s [String]) -> Matcher<'s> {
        let mut b2j: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, line) in b.iter().enumerate() {
            b2j.entry(line.as_str()).or_default().push(j);
        }
        if b.len() >= 200 {
            let limit = b.len() / 100 + 1;
            b2j.retain(|_, places| places.len() <= limit);
        }
        Matcher { a, b, b2j }
    }

    fn same(&self, i: usize, j: usize) -> bool {
        matches!((self.a.get(i), self.b.get(j)), (Some(x), Some(y)) if x == y)
    }

    /// The longest matching block in `a[alo..ahi]` and `b[blo..bhi]`, the earliest in `a`
    /// (then in `b`) of the longest, grown over neighbouring equal lines.
    fn longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut lengths: HashMap<usize, usize> = HashMap::new();
        for i in alo..ahi {
            let mut next: HashMap<usize, usize> = HashMap::new();
            let places = self.a.get(i).and_then(|line| self.b2j.get(line.as_str()));
            for &j in places.map(Vec::as_slice).unwrap_or(&[]) {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j
                    .checked_sub(1)
                    .and_then(|p| lengths.get(&p))
                    .copied()
                    .unwrap_or(0)
                    + 1;
                next.insert(j, k);
                if k > bestsize {
                    besti = i + 1 - k;
                    bestj = j + 1 - k;
                    bestsize = k;
                }
            }
            lengths = next;
        }
        while besti > alo && bestj > blo && self.same(besti - 1, bestj - 1) {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && self.same(besti + bestsize, bestj + bestsize)
        {
            bestsize += 1;
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    fn collect_matches(
        &self,
        alo: usize,
        ahi: usize,
        blo: usize,
        bhi: usize,
        out: &mut Vec<Match>,
    ) {
        let m = self.longest_match(alo, ahi, blo, bhi);
        if m.size == 0 {
            return;
        }
        if alo < m.a && blo < m.b {
            self.collect_matches(alo, m.a, blo, m.b, out);
        }
        out.push(m);
        if m.a + m.size < ahi && m.b + m.size < bhi {
            self.collect_matches(m.a + m.size, ahi, m.b + m.size, bhi, out);
        }
    }

    /// The matching blocks, adjacent ones merged, ending with the empty block at the ends.
    fn matching_blocks(&self) -> Vec<Match> {
        let mut found = Vec::new();
        self.collect_matches(0, self.a.len(), 0, self.b.len(), &mut found);
        let mut out = Vec::with_capacity(found.len() + 1);
        let mut cur = Match {
            a: 0,
            b: 0,
            size: 0,
        };
        for m in found {
            if cur.a + cur.size == m.a && cur.b + cur.size == m.b {
                cur.size += m.size;
            } else {
                if cur.size > 0 {
                    out.push(cur);
                }
                cur = m;
            }
        }
        if cur.size > 0 {
            out.push(cur);
        }
        out.push(Match {
            a: self.a.len(),
            b: self.b.len(),
            size: 0,
        });
        out
    }

    fn opcodes(&self) -> Vec<OpCode> {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        for m in self.matching_blocks() {
            let tag = match (i < m.a, j < m.b) {
                (true, true) => Some(Tag::Replace),
                (true, false) => Some(Tag::Delete),
                (false, true) => Some(Tag::Insert),
                (false, false) => None,
            };
            if let Some(tag) = tag {
                out.push(OpCode {
                    tag,
                    i1: i,
                    i2: m.a,
                    j1: j,
                    j2: m.b,
                });
            }
            i = m.a + m.size;
            j = m.b + m.size;
            if m.size > 0 {
                out.push(OpCode {
                    tag: Tag::Equal,
                    i1: m.a,
                    i2: i,
                    j1: m.b,
                    j2: j,
                });
            }
        }
        out
    }

    /// The hunks: changes with up to `n` lines of context, split where more than `2n` equal
    /// lines lie between changes.
    fn grouped_opcodes(&self, n: usize) -> Vec<Vec<OpCode>> {
        let mut codes = self.opcodes();
        if codes.is_empty() {
            codes.push(OpCode {
                tag: Tag::Equal,
                i1: 0,
                i2: 1,
                j1: 0,
                j2: 1,
            });
        }
        if let Some(c) = codes.first_mut().filter(|c| c.tag == Tag::Equal) {
            c.i1 = c.i1.max(c.i2.saturating_sub(n));
            c.j1 = c.j1.max(c.j2.saturating_sub(n));
        }
        if let Some(c) = codes.last_mut().filter(|c| c.tag == Tag::Equal) {
            c.i2 = c.i2.min(c.i1 + n);
            c.j2 = c.j2.min(c.j1 + n);
        }
        let mut groups = Vec::new();
        let mut group = Vec::new();
        for c in codes {
            let (mut i1, mut j1) = (c.i1, c.j1);
            if c.tag == Tag::Equal && c.i2 - c.i1 > 2 * n {
                group.push(OpCode {
                    i2: c.i2.min(i1 + n),
                    j2: c.j2.min(j1 + n),
                    ..c
                });
                groups.push(std::mem::take(&mut group));
                i1 = i1.max(c.i2.saturating_sub(n));
                j1 = j1.max(c.j2.saturating_sub(n));
            }
            group.push(OpCode { i1, j1, ..c });
        }
        if !(group.is_empty()
            || group.len() == 1 && group.first().is_some_and(|c| c.tag == Tag::Equal))
        {
            groups.push(group);
        }
        groups
    }
}

/// The unified diff of two lists of lines (each ending in `\n`), `context` lines around each
/// change, no file header; empty when they are equal.
pub(super) fn unified_diff(a: &[String], b: &[String], context: usize) -> String {
    let mut out = String::new();
    for group in Matcher::new(a, b).grouped_opcodes(context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(first.i1, last.i2),
            range(first.j1, last.j2)
        ));
        for c in &group {
            let lines = |s: &[String], lo: usize, hi: usize, mark: char, out: &mut String| {
                for line in s.get(lo..hi).unwrap_or(&[]) {
                    out.push(mark);
                    out.push_str(line);
                }
            };
            match c.tag {
                Tag::Equal => lines(a, c.i1, c.i2, ' ', &mut out),
                Tag::Delete => lines(a, c.i1, c.i2, '-', &mut out),
                Tag::Insert => lines(b, c.j1, c.j2, '+', &mut out),
                Tag::Replace => {
                    lines(a, c.i1, c.i2, '-', &mut out);
                    lines(b, c.j1, c.j2, '+', &mut out);
                }
            }
        }
    }
    out
}

/// A hunk's range: `start,length` from 1, the start alone for one line, the line before for
/// none.
fn range(start: usize, stop: usize) -> String {
    let length = stop.saturating_sub(start);
    match length {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        _ => format!("{},{length}", start + 1),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.split_inclusive('\n').map(str::to_owned).collect()
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        let a = lines("x\ny\n");
        assert_eq!(unified_diff(&a, &a, 3), "");
    }
}

//! Go's `regexp/syntax` parser (Perl flags, as `regexp.Compile` uses it), read left to right as
//! Go reads it so that the first error found is Go's, in Go's words. The result is a tree in an
//! arena (nothing here recurses, so no pattern can exhaust the stack); each node carries what
//! Go's limits need: the height of Go's tree (nesting deeper than 1000 is refused), the size of
//! its compiled program (Go's estimate; refused past 3,355,443 instructions) and the smallest
//! budget its counted repetitions fit (`repeatIsValid`: nested counts multiply to at most 1000).

mod classes;

use super::tables::{self, AsciiClass, Property};

/// Go's error codes (`regexp/syntax.ErrorCode`) that a valid UTF-8 pattern can meet.
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const UNEXPECTED_PAREN: &str = "unexpected )";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_CHAR_RANGE: &str = "invalid character class range";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const NESTING_DEPTH: &str = "expression nests too deeply";
const LARGE: &str = "expression too large";

/// `regexp.Compile`'s error text.
fn error(code: &str, expr: &str) -> String {
    format!("error parsing regexp: {code}: `{expr}`")
}

/// Go's bounds: the tree's height, the compiled program's size in instructions (128 MiB of
/// 40-byte instructions), a counted repetition's budget.
const MAX_HEIGHT: u32 = 1000;
const MAX_SIZE: u64 = (128 << 20) / 40;
const MAX_REPEAT: u32 = 1000;

pub(super) type NodeId = usize;

/// The flags Go's parser carries (`FoldCase`, `OneLine`, `DotNL`); `NonGreedy` changes no
/// match, so it is not kept.
#[derive(Debug, Clone, Copy)]
pub(super) struct Flags {
    pub(super) fold: bool,
    pub(super) one_line: bool,
    pub(super) dot_nl: bool,
}

#[derive(Debug)]
pub(super) enum Look {
    BeginText,
    EndText,
    BeginLine,
    EndLine,
    WordBoundary,
    NoWordBoundary,
}

/// One item of a bracketed class (or a class escape on its own).
#[derive(Debug)]
pub(super) enum ClassItem {
    /// A range of code points (which may include surrogates, which nothing matches).
    Range(u32, u32),
    Ascii(AsciiClass),
    /// One of Go's Unicode tables, and whether it is negated.
    Unicode(Property, bool),
}

#[derive(Debug)]
pub(super) struct Class {
    pub(super) negated: bool,
    pub(super) fold: bool,
    pub(super) items: Vec<ClassItem>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RepeatOp {
    Star,
    Plus,
    Quest,
    Counted { min: u32, max: Option<u32> },
}

#[derive(Debug)]
pub(super) enum Kind {
    /// One code point (a surrogate or past U+10FFFF matches nothing).
    Literal {
        c: u32,
        fold: bool,
    },
    Class(Class),
    AnyChar {
        nl: bool,
    },
    Look(Look),
    Empty,
    Concat(Vec<NodeId>),
    Alternate(Vec<NodeId>),
    /// A capturing group: transparent to matching, but one level of Go's tree.
    Capture(NodeId),
    Repeat {
        sub: NodeId,
        op: RepeatOp,
    },
}

#[derive(Debug)]
pub(super) struct Node {
    pub(super) kind: Kind,
    /// Go's tree height (after Go hoists concatenations and alternations into their parent).
    height: u32,
    /// The height this node lends a parent of its own kind, which hoists its children.
    inner_height: u32,
    /// Go's size estimate (`calcSize`).
    size: u64,
    /// An alternation's branch count after hoisting (for its size).
    branches: u64,
    /// The smallest `n` for which `repeatIsValid(node, n)` holds.
    budget: u32,
    /// A single character (a literal or a class), which Go merges in alternations.
    char_like: bool,
    /// A string of literals of one fold, which Go merges into one node: that fold.
    string_fold: Option<bool>,
}

/// One open group (or the whole pattern): what the stack of Go's parser holds above a `(`.
struct Frame {
    flags: Flags,
    capture: bool,
    branches: Vec<NodeId>,
    items: Vec<NodeId>,
}

pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) root: NodeId,
}

struct Parser<'a> {
    src: &'a str,
    flags: Flags,
    nodes: Vec<Node>,
    frames: Vec<Frame>,
    /// An estimate of Go's `numRegexp` (nodes allocated) and `repeats` (the product of the
    /// counted repetitions seen), which decide when Go starts checking sizes.
    allocated: u64,
    repeats: u64,
    tracking: bool,
    /// Where no `:]` follows any more: a class full of `[:` is then read in linear time.
    no_posix_end_from: usize,
}

/// Parses `src` as `regexp.Compile` does; `Err` is Go's error text.
pub(super) fn parse(src: &str) -> Result<Tree, String> {
    let flags = Flags {
        fold: false,
        one_line: true,
        dot_nl: false,
    };
    let mut p = Parser {
        src,
        flags,
        nodes: Vec::new(),
        frames: vec![Frame {
            flags,
            capture: false,
            branches: Vec::new(),
            items: Vec::new(),
        }],
        allocated: 0,
        repeats: 1,
        tracking: false,
        no_posix_end_from: usize::MAX,
    };
    let mut pos = 0;
    // Where the repetition operator just read began (Go's `lastRepeat`).
    let mut last_repeat: Option<usize> = None;
    while pos < src.len() {
        let mut repeat_at = None;
        let rest = &src[pos..];
        match rest.as_bytes()[0] {
            b'(' if rest.as_bytes().get(1) == Some(&b'?') => pos = p.perl_flags(pos)?,
            b'(' => {
                p.open(true);
                pos += 1;
            }
            b'|' => {
                p.vertical_bar()?;
                pos += 1;
            }
            b')' => {
                p.right_paren()?;
                pos += 1;
            }
            b'^' => {
                let look = if p.flags.one_line {
                    Look::BeginText
                } else {
                    Look::BeginLine
                };
                p.atom(Kind::Look(look))?;
                pos += 1;
            }
            b'$' => {
                let look = if p.flags.one_line {
                    Look::EndText
                } else {
                    Look::EndLine
                };
                p.atom(Kind::Look(look))?;
                pos += 1;
            }
            b'.' => {
                p.atom(Kind::AnyChar { nl: p.flags.dot_nl })?;
                pos += 1;
            }
            b'[' => pos = p.class(pos)?,
            op @ (b'*' | b'+' | b'?') => {
                let op = match op {
                    b'*' => RepeatOp::Star,
                    b'+' => RepeatOp::Plus,
                    _ => RepeatOp::Quest,
                };
                repeat_at = Some(pos);
                pos = p.repeat(op, pos, pos + 1, last_repeat)?;
            }
            b'{' => match repeat_bounds(src, pos) {
                None => {
                    p.literal('{' as u32)?;
                    pos += 1;
                }
                Some((min, max, after)) => {
                    let bad = min.is_none()
                        || min.is_some_and(|m| m > MAX_REPEAT)
                        || max.is_some_and(|m| m > MAX_REPEAT || min.is_some_and(|n| n > m));
                    let (Some(min), false) = (min, bad) else {
                        return Err(error(INVALID_REPEAT_SIZE, &src[pos..after]));
                    };
                    repeat_at = Some(pos);
                    pos = p.repeat(RepeatOp::Counted { min, max }, pos, after, last_repeat)?;
                }
            },
            b'\\' => pos = p.escape(pos)?,
            _ => {
                let c = rest.chars().next().map_or(0, u32::from);
                p.literal(c)?;
                pos += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
        last_repeat = repeat_at;
    }
    let whole = p.close_frame()?;
    if p.frames.len() > 1 {
        return Err(error(MISSING_PAREN, src));
    }
    Ok(Tree {
        nodes: p.nodes,
        root: whole,
    })
}

/// `parseRepeat` on `{…}` at `pos`: `(min, max, after)`, with `None` for a count too big to
/// read (Go's -1) and `max` `None` for `{n,}`; `None` when the text is no repetition (then `{`
/// is a literal).
fn repeat_bounds(src: &str, pos: usize) -> Option<(Option<u32>, Option<u32>, usize)> {
    let b = src.as_bytes();
    let int = |at: usize| -> Option<(Option<u32>, usize)> {
        let digits = b
            .get(at..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 || (digits > 1 && b[at] == b'0') {
            return None;
        }
        let mut n: u32 = 0;
        for &d in &b[at..at + digits] {
            if n >= 100_000_000 {
                return Some((None, at + digits));
            }
            n = n * 10 + u32::from(d - b'0');
        }
        Some((Some(n), at + digits))
    };
    let (min, mut t) = int(pos + 1)?;
    let max = match b.get(t)? {
        b',' => {
            t += 1;
            if *b.get(t)? == b'}' {
                None
            } else {
                let (max, next) = int(t)?;
                t = next;
                // A max too big to read makes the whole count unreadable.
                match max {
                    None => return (b.get(t) == Some(&b'}')).then_some((None, None, t + 1)),
                    Some(m) => Some(m),
                }
            }
        }
        _ => min,
    };
    (b.get(t) == Some(&b'}')).then_some((min, max, t + 1))
}

impl Parser<'_> {
    fn frame(&mut self) -> &mut Frame {
        // The top-level frame is never popped.
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// Adds a node, computing what Go's limits read, and checks them as Go's `push` does.
    fn node(&mut self, kind: Kind) -> Result<NodeId, String> {
        let mut node = Node {
            kind,
            height: 1,
            inner_height: 1,
            size: 1,
            branches: 1,
            budget: 0,
            char_like: false,
            string_fold: None,
        };
        let sizes =
            |ids: &[NodeId], nodes: &[Node]| ids.iter().map(|&i| nodes[i].size).sum::<u64>();
        match &node.kind {
            Kind::Literal { fold, .. } => {
                node.char_like = true;
                node.string_fold = Some(*fold);
            }
            Kind::Class(_) | Kind::AnyChar { .. } => node.char_like = true,
            Kind::Look(_) | Kind::Empty => {}
            Kind::Concat(subs) => {
                // Go merges a run of literals (one fold) into one string node.
                let fold = self.nodes[subs[0]].string_fold;
                let one_string =
                    fold.is_some() && subs.iter().all(|&i| self.nodes[i].string_fold == fold);
                if one_string {
                    node.string_fold = fold;
                }
                node.inner_height = subs.iter().map(|&i| self.lent(i, true)).max().unwrap_or(0);
                node.height = if one_string { 1 } else { node.inner_height + 1 };
                node.size = sizes(subs, &self.nodes);
                node.budget = subs
                    .iter()
                    .map(|&i| self.nodes[i].budget)
                    .max()
                    .unwrap_or(0);
            }
            Kind::Alternate(subs) => {
                // Go merges neighbouring single characters into one class, and hoists nested
                // alternations; what is left is the alternation's width.
                let (mut width, mut size) = (0u64, 0u64);
                let mut previous_char = false;
                for &i in subs {
                    let n = &self.nodes[i];
                    if matches!(n.kind, Kind::Alternate(_)) && !n.char_like {
                        width += n.branches;
                        size += n.size - (n.branches - 1);
                        previous_char = false;
                    } else if !(n.char_like && previous_char) {
                        width += 1;
                        size += n.size;
                        previous_char = n.char_like;
                    }
                }
                node.branches = width;
                node.inner_height = subs.iter().map(|&i| self.lent(i, false)).max().unwrap_or(0);
                let all_chars = subs.iter().all(|&i| self.nodes[i].char_like);
                node.char_like = all_chars;
                node.height = if all_chars { 1 } else { node.inner_height + 1 };
                node.size = if all_chars { 1 } else { size + width - 1 };
                node.budget = subs
                    .iter()
                    .map(|&i| self.nodes[i].budget)
                    .max()
                    .unwrap_or(0);
            }
            Kind::Capture(sub) => {
                let s = &self.nodes[*sub];
                node.height = s.height + 1;
                node.inner_height = node.height;
                node.size = 2 + s.size;
                node.budget = s.budget;
            }
            Kind::Repeat { sub, op } => {
                let s = &self.nodes[*sub];
                node.height = s.height + 1;
                node.inner_height = node.height;
                node.size = match *op {
                    RepeatOp::Star => 2 + s.size,
                    RepeatOp::Plus | RepeatOp::Quest => 1 + s.size,
                    RepeatOp::Counted { min: 0, max: None } => 2 + s.size,
                    RepeatOp::Counted { min, max: None } => 1 + u64::from(min) * s.size,
                    RepeatOp::Counted {
                        min,
                        max: Some(max),
                    } => u64::from(max) * s.size + u64::from(max - min),
                };
                node.budget = match *op {
                    RepeatOp::Counted { max: Some(0), .. } => 0,
                    RepeatOp::Counted { min, max } => {
                        let m = max.unwrap_or(min);
                        m.max(s.budget.saturating_mul(m.max(1)))
                    }
                    _ => s.budget,
                };
            }
        }
        node.size = node.size.clamp(1, 1 << 48);
        node.inner_height = node.inner_height.min(node.height);
        let id = self.nodes.len();
        self.nodes.push(node);
        self.allocated += 1;
        self.check(id)?;
        Ok(id)
    }

    /// Go's `checkLimits` on a node pushed on its stack (again, for a group's or a lone
    /// branch's content): Go starts sizing the tree once the nodes it has allocated, times
    /// the counts of the repetitions it has checked so far, could be too large; it refuses a
    /// tree too high at once.
    fn check(&mut self, id: NodeId) -> Result<(), String> {
        let node = &self.nodes[id];
        if !self.tracking {
            if let Kind::Repeat {
                op: RepeatOp::Counted { min, max },
                ..
            } = node.kind
            {
                let n = u64::from(max.unwrap_or(min).max(1));
                self.repeats = self.repeats.saturating_mul(n).min(MAX_SIZE);
            }
            self.tracking = self.allocated >= MAX_SIZE / self.repeats;
            // Go then sizes everything its stack holds.
            let held = self
                .frames
                .iter()
                .flat_map(|f| f.items.iter().chain(&f.branches));
            if self.tracking && held.into_iter().any(|&i| self.nodes[i].size > MAX_SIZE) {
                return Err(error(LARGE, self.src));
            }
        }
        if self.tracking && node.size > MAX_SIZE {
            return Err(error(LARGE, self.src));
        }
        if node.height > MAX_HEIGHT {
            return Err(error(NESTING_DEPTH, self.src));
        }
        Ok(())
    }

    /// The height `id` gives a parent: its children's when the parent is of its own kind and
    /// hoists them (a concatenation into a concatenation, an alternation into an alternation).
    fn lent(&self, id: NodeId, parent_is_concat: bool) -> u32 {
        let n = &self.nodes[id];
        match n.kind {
            Kind::Concat(_) if parent_is_concat => n.inner_height,
            Kind::Alternate(_) if !parent_is_concat => n.inner_height,
            _ => n.height,
        }
    }

    fn atom(&mut self, kind: Kind) -> Result<(), String> {
        let id = self.node(kind)?;
        self.frame().items.push(id);
        Ok(())
    }

    fn literal(&mut self, c: u32) -> Result<(), String> {
        let fold = self.flags.fold;
        // Go reuses the nodes of a run of literals: count two per run, as it allocates.
        let last = self.frame().items.last().copied();
        let run = last.is_some_and(|i| matches!(self.nodes[i].kind, Kind::Literal { .. }));
        let id = self.node(Kind::Literal { c, fold })?;
        if run {
            self.allocated -= 1;
        }
        self.frame().items.push(id);
        Ok(())
    }

    fn open(&mut self, capture: bool) {
        self.allocated += 1;
        let flags = self.flags;
        self.frames.push(Frame {
            flags,
            capture,
            branches: Vec::new(),
            items: Vec::new(),
        });
    }

    /// The current concatenation, ended by `|` (Go's `concat`).
    fn concat(&mut self) -> Result<NodeId, String> {
        let items = std::mem::take(&mut self.frame().items);
        match items[..] {
            [] => self.node(Kind::Empty),
            [one] => self.check(one).map(|()| one),
            _ => self.node(Kind::Concat(items)),
        }
    }

    fn vertical_bar(&mut self) -> Result<(), String> {
        let branch = self.concat()?;
        self.allocated += 1;
        self.frame().branches.push(branch);
        Ok(())
    }

    /// The frame's alternation, ended by `)` or the end of the pattern.
    fn close_frame(&mut self) -> Result<NodeId, String> {
        let last = self.concat()?;
        let mut branches = std::mem::take(&mut self.frame().branches);
        branches.push(last);
        match branches[..] {
            [one] => self.check(one).map(|()| one),
            _ => self.node(Kind::Alternate(branches)),
        }
    }

    fn right_paren(&mut self) -> Result<(), String> {
        let inner = self.close_frame()?;
        if self.frames.len() == 1 {
            return Err(error(UNEXPECTED_PAREN, self.src));
        }
        let Some(frame) = self.frames.pop() else {
            return Err(error(UNEXPECTED_PAREN, self.src));
        };
        self.flags = frame.flags;
        let id = if frame.capture {
            self.node(Kind::Capture(inner))?
        } else {
            self.check(inner)?;
            inner
        };
        self.frame().items.push(id);
        Ok(())
    }

    /// A repetition operator from `before` to `after` applied to the last item (Go's
    /// `repeat`); returns where parsing goes on.
    fn repeat(
        &mut self,
        op: RepeatOp,
        before: usize,
        mut after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize, String> {
        if self.src.as_bytes().get(after) == Some(&b'?') {
            after += 1;
        }
        if let Some(last) = last_repeat {
            return Err(error(INVALID_REPEAT_OP, &self.src[last..after]));
        }
        let Some(sub) = self.frame().items.pop() else {
            return Err(error(MISSING_REPEAT_ARGUMENT, &self.src[before..after]));
        };
        let id = self.node(Kind::Repeat { sub, op })?;
        self.frame().items.push(id);
        if let RepeatOp::Counted { min, max } = op {
            if (min >= 2 || max.is_some_and(|m| m >= 2)) && self.nodes[id].budget > MAX_REPEAT {
                return Err(error(INVALID_REPEAT_SIZE, &self.src[before..after]));
            }
        }
        Ok(after)
    }

    /// `(?` at `pos`: a named group, a non-capturing group, or flags (`parsePerlFlags`).
    fn perl_flags(&mut self, pos: usize) -> Result<usize, String> {
        let t = &self.src[pos..];
        let b = t.as_bytes();
        let named = if b.len() > 4 && b[2] == b'P' && b[3] == b'<' {
            Some(4)
        } else if b.len() > 3 && b[2] == b'<' {
            Some(3)
        } else {
            None
        };
        if let Some(start) = named {
            let Some(end) = t.find('>') else {
                return Err(error(INVALID_NAMED_CAPTURE, t));
            };
            let name = &t[start..end];
            if name.is_empty() || !name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric()) {
                return Err(error(INVALID_NAMED_CAPTURE, &t[..=end]));
            }
            self.open(true);
            return Ok(pos + end + 1);
        }
        let mut flags = self.flags;
        let mut negative = false;
        let mut saw_flag = false;
        for (i, c) in t.char_indices().skip(2) {
            let end = pos + i + c.len_utf8();
            match c {
                'i' => flags.fold = !negative,
                'm' => flags.one_line = negative,
                's' => flags.dot_nl = !negative,
                'U' => {}
                '-' if !negative => {
                    negative = true;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' if !negative || saw_flag => {
                    if c == ':' {
                        self.open(false);
                    }
                    self.flags = flags;
                    return Ok(end);
                }
                _ => return Err(error(INVALID_PERL_OP, &self.src[pos..end])),
            }
            saw_flag = true;
        }
        Err(error(INVALID_PERL_OP, t))
    }
}

//! Recursive descent over cel-go's grammar (parser/gen/CEL.g4), one method per grammar rule,
//! building the tree as it goes in the order cel-go's visitor builds it, so that node ids come
//! out as cel-go numbers them (an operator's id is taken after its left operand is built, a map
//! entry's before its key, a macro's nodes after its arguments).

use std::collections::HashMap;

mod aggregates;
mod binary;
mod operand;

use super::depth::{MAX_DEPTH, Rule, RuleDepth, TooDeep};
use super::errors::{Location, ParseError, ParseErrors};
use super::lexer::{LexError, Tok, Token, lex};
use super::macros::{self, Expansion};
use crate::ast::{Expr, ExprId, ExprKind, Literal, Parsed, Source};

/// Identifiers cel-go refuses as variable and function names (they are valid field names).
pub(super) const RESERVED: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "let",
    "loop",
    "package",
    "namespace",
    "null",
    "return",
    "true",
    "var",
    "void",
    "while",
];

/// Node ids and their offsets, allocated as cel-go's parser helper allocates them.
#[derive(Debug)]
pub(crate) struct Ids {
    next: ExprId,
    offsets: HashMap<ExprId, usize>,
    /// A macro's copy was cut short at [`MAX_NODES`].
    pub(crate) overflowed: bool,
}

/// The most nodes a parse makes. cel-go has no such limit, but `optMap` and `optFlatMap` copy
/// their target, so a chain of them doubles the tree at each link: cel-go would build 2^n
/// nodes for n links (within its depth limit of 250) and never finish; this parser refuses
/// the expression instead (the one place it refuses what cel-go, given time, would accept).
pub(crate) const MAX_NODES: ExprId = 1 << 20;

impl Ids {
    pub(crate) fn alloc(&mut self, offset: usize) -> ExprId {
        let id = self.next;
        self.next += 1;
        self.offsets.insert(id, offset);
        id
    }

    /// Forgets a macro call's id; the id is given out again if it was the last one.
    pub(crate) fn delete(&mut self, id: ExprId) {
        self.offsets.remove(&id);
        if id == self.next - 1 {
            self.next -= 1;
        }
    }

    /// A node's offset (cel-go reads a missing one as 0).
    pub(crate) fn offset(&self, id: ExprId) -> Option<usize> {
        self.offsets.get(&id).copied()
    }
}

/// How a parse stopped early.
pub(crate) enum Abort {
    /// A syntax error, already recorded.
    Syntax,
    /// The parse listener's recursion limit.
    TooDeep,
    /// More than [`MAX_NODES`] nodes.
    TooLarge,
}

impl From<TooDeep> for Abort {
    fn from(_: TooDeep) -> Abort {
        Abort::TooDeep
    }
}

type PResult<T> = Result<T, Abort>;

/// A built subtree and its height in cel-go's visitor's recursion count.
pub(crate) struct Node {
    pub e: Expr,
    pub h: u32,
}

pub(super) fn node(e: Expr, h: u32) -> Node {
    Node { e, h }
}

pub(crate) struct Parser {
    chars: Vec<char>,
    tokens: Vec<Token>,
    pos: usize,
    pub(crate) ids: Ids,
    errors: Vec<ParseError>,
    syntax_errors: Vec<ParseError>,
    lex_errors: Vec<LexError>,
    line_offsets: Vec<usize>,
    depth: RuleDepth,
    /// Per enclosing bracket or separator context, the tokens that can end an expression in
    /// it (for ANTLR's guess of a missing closing token).
    follow: Vec<&'static [Tok]>,
}

pub(crate) fn parse(text: &str) -> Result<Parsed, ParseErrors> {
    let chars: Vec<char> = text.chars().collect();
    let (tokens, lex_errors) = lex(&chars);
    let mut line_offsets: Vec<usize> = chars
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == '\n')
        .map(|(i, _)| i + 1)
        .collect();
    line_offsets.push(chars.len() + 1);
    let mut p = Parser {
        chars,
        tokens,
        pos: 0,
        ids: Ids {
            next: 1,
            offsets: HashMap::new(),
            overflowed: false,
        },
        errors: Vec::new(),
        syntax_errors: Vec::new(),
        lex_errors,
        line_offsets,
        depth: RuleDepth::default(),
        follow: Vec::new(),
    };
    let mut result = p.start();
    if p.ids.overflowed {
        result = Err(Abort::TooLarge);
    }
    let mut errors: Vec<ParseError> = p
        .lex_errors
        .iter()
        .map(|e| ParseError {
            location: p.location(e.start),
            message: format!(
                "Syntax error: token recognition error at: '{}'",
                p.chars[e.start..e.end.min(p.chars.len())]
                    .iter()
                    .collect::<String>()
            ),
        })
        .collect();
    match result {
        Err(Abort::TooDeep) => {
            errors.append(&mut p.syntax_errors);
            errors.push(ParseError {
                location: Location::NONE,
                message: format!("expression recursion limit exceeded: {MAX_DEPTH}"),
            });
        }
        Err(Abort::TooLarge) => errors.push(ParseError {
            location: Location::NONE,
            message: format!(
                "expression too large: more than {MAX_NODES} nodes after macro expansion"
            ),
        }),
        Err(Abort::Syntax) => {
            errors.append(&mut p.syntax_errors);
            errors.append(&mut p.errors);
        }
        Ok(root) => {
            errors.append(&mut p.syntax_errors);
            if root.h > MAX_DEPTH {
                errors.push(ParseError {
                    location: Location::NONE,
                    message: "max recursion depth exceeded".to_string(),
                });
            } else {
                errors.append(&mut p.errors);
            }
            if errors.is_empty() {
                let source = Source {
                    text: text.to_string(),
                    offsets: p.ids.offsets,
                };
                return Ok(Parsed {
                    expr: root.e,
                    source,
                });
            }
        }
    }
    Err(ParseErrors::new(errors, text))
}

impl Parser {
    // ---- tokens and positions ----

    fn la(&self, k: usize) -> Tok {
        self.tokens.get(self.pos + k).map_or(Tok::Eof, |t| t.kind)
    }

    fn tok(&self, k: usize) -> Token {
        let last = self.tokens.len().saturating_sub(1);
        self.tokens[(self.pos + k).min(last)]
    }

    fn advance(&mut self) -> Token {
        let t = self.tok(0);
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    fn text(&self, t: Token) -> String {
        self.chars[t.start..t.end].iter().collect()
    }

    /// Text as ANTLR shows it in a message: line breaks and tabs escaped.
    fn display_text(&self, start: usize, end: usize) -> String {
        let mut s = String::new();
        for &c in &self.chars[start..end.min(self.chars.len())] {
            match c {
                '\n' => s.push_str("\\n"),
                '\r' => s.push_str("\\r"),
                '\t' => s.push_str("\\t"),
                c => s.push(c),
            }
        }
        s
    }

    fn token_display(&self, t: Token) -> String {
        if t.kind == Tok::Eof {
            "'<EOF>'".to_string()
        } else {
            format!("'{}'", self.display_text(t.start, t.end))
        }
    }

    pub(crate) fn location(&self, offset: usize) -> Location {
        if self.chars.is_empty() {
            return Location {
                line: 1,
                column: -1,
            };
        }
        let line = self.line_offsets.partition_point(|&o| o <= offset);
        let start = if line == 0 {
            0
        } else {
            self.line_offsets[line - 1]
        };
        Location {
            line: line as i64 + 1,
            column: offset as i64 - start as i64,
        }
    }

    // ---- errors ----

    #[inline(never)]
    fn syntax_error(&mut self, at: Token, message: String) -> Abort {
        let location = self.location(at.start);
        self.syntax_errors.push(ParseError {
            location,
            message: format!("Syntax error: {message}"),
        });
        Abort::Syntax
    }

    /// A semantic error at `offset`; like cel-go, the error gets a node id of its own.
    #[inline(never)]
    fn report(&mut self, offset: usize, message: String) -> Node {
        let id = self.ids.alloc(offset);
        let location = self.location(offset);
        self.errors.push(ParseError { location, message });
        node(error_expr(id), 0)
    }

    #[inline(never)]
    fn report_at(&mut self, location: Location, message: String) -> Node {
        let offset = self.offset_of(location);
        let id = self.ids.alloc(offset.unwrap_or(0));
        self.errors.push(ParseError { location, message });
        node(error_expr(id), 0)
    }

    fn offset_of(&self, location: Location) -> Option<usize> {
        let line = usize::try_from(location.line).ok()?;
        let column = usize::try_from(location.column).ok()?;
        let start = if line <= 1 {
            0
        } else {
            *self.line_offsets.get(line - 2)?
        };
        Some(start + column)
    }

    #[inline(never)]
    fn expect(&mut self, kind: Tok) -> PResult<Token> {
        if self.la(0) == kind {
            return Ok(self.advance());
        }
        let here = self.tok(0);
        if self.la(1) == kind {
            let message = format!(
                "extraneous input {} expecting {}",
                self.token_display(here),
                kind.display()
            );
            return Err(self.syntax_error(here, message));
        }
        // ANTLR supposes the token missing when the one at hand could follow it.
        let outer = self.follow.last().copied().unwrap_or(&[Tok::Eof]);
        let inserted = matches!(kind, Tok::Colon) && starts_expr(here.kind)
            || matches!(kind, Tok::RParen | Tok::RBracket | Tok::RBrace)
                && (follows_operand(here.kind) || outer.contains(&here.kind));
        let message = if inserted {
            format!("missing {} at {}", kind.display(), self.token_display(here))
        } else {
            format!(
                "mismatched input {} expecting {}",
                self.token_display(here),
                kind.display()
            )
        };
        Err(self.syntax_error(here, message))
    }

    /// The token cannot start an expression where one (or one of `extra`) is expected.
    #[inline(never)]
    fn no_expr(&mut self, extra: &[Tok]) -> Abort {
        let here = self.tok(0);
        let mut set: Vec<Tok> = EXPR_START.iter().chain(extra).copied().collect();
        set.sort();
        let list = set
            .iter()
            .map(|t| t.display())
            .collect::<Vec<_>>()
            .join(", ");
        let message = if starts_expr(self.la(1)) || extra.contains(&self.la(1)) {
            format!(
                "extraneous input {} expecting {{{list}}}",
                self.token_display(here)
            )
        } else {
            format!(
                "mismatched input {} expecting {{{list}}}",
                self.token_display(here)
            )
        };
        self.syntax_error(here, message)
    }

    #[inline(never)]
    fn no_viable(&mut self, from: Token, at: Token) -> Abort {
        let input = self.display_text(from.start, at.end);
        // cel-go rewrites this message for a keyword literal after one character (`.true`).
        let mut chars = input.chars();
        let keyword = chars.next().map(|_| chars.as_str());
        let message = match keyword {
            Some(k @ ("true" | "false" | "null")) => {
                format!("mismatched input '{k}' expecting IDENTIFIER")
            }
            _ => format!("no viable alternative at input '{input}'"),
        };
        self.syntax_error(at, message)
    }

    /// ANTLR's check at a loop found the next token unwanted: `extraneous input`, whatever
    /// follows it.
    #[inline(never)]
    pub(super) fn not_one_of_unwanted(&mut self, set: &[Tok]) -> Abort {
        let here = self.tok(0);
        let mut sorted = set.to_vec();
        sorted.sort();
        let list = sorted
            .iter()
            .map(|t| t.display())
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!(
            "extraneous input {} expecting {{{list}}}",
            self.token_display(here)
        );
        self.syntax_error(here, message)
    }

    /// The next token is not one of `set`, which ANTLR expected (a set of two or more, so it
    /// never guesses a missing token).
    #[inline(never)]
    pub(super) fn not_one_of(&mut self, set: &[Tok]) -> Abort {
        let here = self.tok(0);
        let mut sorted = set.to_vec();
        sorted.sort();
        let list = sorted
            .iter()
            .map(|t| t.display())
            .collect::<Vec<_>>()
            .join(", ");
        let list = if sorted.len() == 1 {
            list
        } else {
            format!("{{{list}}}")
        };
        let kind = if set.contains(&self.la(1)) {
            "extraneous"
        } else {
            "mismatched"
        };
        let message = format!("{kind} input {} expecting {list}", self.token_display(here));
        self.syntax_error(here, message)
    }

    // ---- rules ----

    fn start(&mut self) -> PResult<Node> {
        let e = self.expr()?;
        if self.la(0) != Tok::Eof {
            self.expect(Tok::Eof)?;
        }
        Ok(e)
    }

    /// An expression that `follow` can end (inside brackets or before a separator).
    pub(super) fn expr_in(&mut self, follow: &'static [Tok]) -> PResult<Node> {
        self.follow.push(follow);
        let e = self.expr();
        self.follow.pop();
        e
    }

    pub(crate) fn expr(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Expr)?;
        let cond = self.binary()?;
        let result = if self.la(0) == Tok::Question {
            let q = self.advance();
            let id = self.ids.alloc(q.start);
            let yes = self.binary()?;
            self.expect(Tok::Colon)?;
            let no = self.expr()?;
            let h = 1 + cond.h.max(yes.h).max(no.h);
            let e = self.global_call_or_macro(id, "_?_:_", vec![cond.e, yes.e, no.e]);
            node(e.e, h)
        } else {
            cond
        };
        self.depth.exit(Rule::Expr);
        Ok(result)
    }

    // ---- calls and macros ----

    fn global_call_or_macro(&mut self, id: ExprId, function: &str, args: Vec<Expr>) -> Node {
        self.call_or_macro(id, function, None, args)
    }

    fn receiver_call_or_macro(
        &mut self,
        id: ExprId,
        function: &str,
        target: Expr,
        args: Vec<Expr>,
    ) -> Node {
        self.call_or_macro(id, function, Some(target), args)
    }

    #[inline(never)]
    fn call_or_macro(
        &mut self,
        id: ExprId,
        function: &str,
        target: Option<Expr>,
        args: Vec<Expr>,
    ) -> Node {
        if self.ids.overflowed {
            // The parse fails; build nothing more.
            return node(error_expr(id), 0);
        }
        let offset = self.ids.offset(id).unwrap_or(0);
        match macros::expand(&mut self.ids, offset, function, target, args) {
            Expansion::NotMacro(target, args) => node(call(id, target, function, args), 0),
            Expansion::Expanded(e) => {
                self.ids.delete(id);
                node(e, 0)
            }
            Expansion::Failed { at, message } => {
                let location = match self.ids.offset(at) {
                    Some(o) => self.location(o),
                    None => Location::NONE,
                };
                self.ids.delete(id);
                self.report_at(location, message)
            }
        }
    }
}

/// cel-go's balanced tree of a run of `&&` or `||` terms: the middle operator at the root.
pub(super) fn balanced(
    function: &str,
    terms: &mut [Option<Expr>],
    ops: &[ExprId],
    lo: usize,
    hi_excl: usize,
) -> Expr {
    if hi_excl == 0 {
        return terms[0].take().unwrap_or_else(|| error_expr(0));
    }
    let hi = hi_excl - 1;
    let mid = (lo + hi).div_ceil(2);
    let left = if mid == lo {
        terms[mid].take().unwrap_or_else(|| error_expr(0))
    } else {
        balanced(function, terms, ops, lo, mid)
    };
    let right = if mid == hi {
        terms[mid + 1].take().unwrap_or_else(|| error_expr(0))
    } else {
        balanced(function, terms, ops, mid + 1, hi + 1)
    };
    call(ops[mid], None, function, vec![left, right])
}

pub(crate) fn expr(id: ExprId, kind: ExprKind) -> Expr {
    Expr { id, kind }
}

pub(crate) fn call(id: ExprId, target: Option<Expr>, function: &str, args: Vec<Expr>) -> Expr {
    expr(
        id,
        ExprKind::Call {
            target: target.map(Box::new),
            function: function.to_string(),
            args,
        },
    )
}

/// The node an error leaves in the tree (the tree is not returned).
pub(super) fn error_expr(id: ExprId) -> Expr {
    expr(id, ExprKind::Literal(Literal::Null))
}

pub(super) const EXPR_START: &[Tok] = &[
    Tok::LBracket,
    Tok::LBrace,
    Tok::LParen,
    Tok::Dot,
    Tok::Minus,
    Tok::Bang,
    Tok::True,
    Tok::False,
    Tok::Null,
    Tok::Float,
    Tok::Int,
    Tok::Uint,
    Tok::String,
    Tok::Bytes,
    Tok::Ident,
];

pub(super) fn starts_expr(t: Tok) -> bool {
    EXPR_START.contains(&t)
}

/// Tokens that can come after a complete operand wherever it is: operators and suffixes.
fn follows_operand(t: Tok) -> bool {
    matches!(
        t,
        Tok::Eq
            | Tok::Ne
            | Tok::In
            | Tok::Lt
            | Tok::Le
            | Tok::Ge
            | Tok::Gt
            | Tok::And
            | Tok::Or
            | Tok::LBracket
            | Tok::Dot
            | Tok::Minus
            | Tok::Question
            | Tok::Plus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
    )
}

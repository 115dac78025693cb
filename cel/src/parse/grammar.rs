//! Recursive descent over cel-go's grammar (parser/gen/CEL.g4), one method per grammar rule,
//! building the tree as it goes in the order cel-go's visitor builds it, so that node ids come
//! out as cel-go numbers them (an operator's id is taken after its left operand is built, a map
//! entry's before its key, a macro's nodes after its arguments).

use std::collections::HashMap;

use super::depth::{MAX_DEPTH, Rule, RuleDepth, TooDeep};
use super::errors::{Location, ParseError, ParseErrors};
use super::lexer::{LexError, Tok, Token, lex};
use super::macros::{self, Expansion};
use super::unescape::unescape;
use crate::ast::{Expr, ExprId, ExprKind, Literal, MapEntry, Parsed, Source, StructField};

/// Identifiers cel-go refuses as variable and function names (they are valid field names).
const RESERVED: &[&str] = &[
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
}

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

fn node(e: Expr, h: u32) -> Node {
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
        },
        errors: Vec::new(),
        syntax_errors: Vec::new(),
        lex_errors,
        line_offsets,
        depth: RuleDepth::default(),
    };
    let result = p.start();
    let mut errors: Vec<ParseError> = p
        .lex_errors
        .iter()
        .map(|e| ParseError {
            location: p.location(e.start),
            message: format!(
                "Syntax error: token recognition error at: '{}'",
                p.display_text(e.start, e.end)
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

    fn syntax_error(&mut self, at: Token, message: String) -> Abort {
        let location = self.location(at.start);
        self.syntax_errors.push(ParseError {
            location,
            message: format!("Syntax error: {message}"),
        });
        Abort::Syntax
    }

    /// A semantic error at `offset`; like cel-go, the error gets a node id of its own.
    fn report(&mut self, offset: usize, message: String) -> Node {
        let id = self.ids.alloc(offset);
        let location = self.location(offset);
        self.errors.push(ParseError { location, message });
        node(error_expr(id), 0)
    }

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
        let inserted = matches!(kind, Tok::Colon) && starts_expr(here.kind)
            || matches!(kind, Tok::RParen | Tok::RBracket | Tok::RBrace)
                && follows_member(here.kind);
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

    fn no_viable(&mut self, from: Token, at: Token) -> Abort {
        let message = format!(
            "no viable alternative at input '{}'",
            self.display_text(from.start, at.end)
        );
        self.syntax_error(at, message)
    }

    // ---- rules ----

    fn start(&mut self) -> PResult<Node> {
        let e = self.expr()?;
        if self.la(0) != Tok::Eof {
            self.expect(Tok::Eof)?;
        }
        Ok(e)
    }

    pub(crate) fn expr(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Expr)?;
        let cond = self.conditional(Rule::ConditionalOr)?;
        let result = if self.la(0) == Tok::Question {
            let q = self.advance();
            let id = self.ids.alloc(q.start);
            let yes = self.conditional(Rule::ConditionalOr)?;
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

    /// conditionalOr and conditionalAnd: a run of `||` (`&&`) terms, built as cel-go's
    /// balanced tree.
    fn conditional(&mut self, rule: Rule) -> PResult<Node> {
        self.depth.enter(rule)?;
        let (op, function, inner) = match rule {
            Rule::ConditionalOr => (Tok::Or, "_||_", Rule::ConditionalAnd),
            _ => (Tok::And, "_&&_", Rule::Relation),
        };
        let first = self.conditional_term(inner)?;
        let mut h = first.h;
        let mut terms = vec![first.e];
        let mut ops = Vec::new();
        while self.la(0) == op {
            let t = self.advance();
            let next = self.conditional_term(inner)?;
            h = h.max(next.h);
            terms.push(next.e);
            ops.push(self.ids.alloc(t.start));
        }
        self.depth.exit(rule);
        Ok(node(
            balanced(
                function,
                &mut terms.into_iter().map(Some).collect::<Vec<_>>(),
                &ops,
                0,
                ops.len(),
            ),
            h,
        ))
    }

    fn conditional_term(&mut self, rule: Rule) -> PResult<Node> {
        match rule {
            Rule::ConditionalAnd => self.conditional(rule),
            _ => self.relation(0),
        }
    }

    fn relation(&mut self, precedence: u32) -> PResult<Node> {
        self.depth.enter(Rule::Relation)?;
        let mut left = self.calc(0)?;
        let mut folds = 0;
        while precedence <= 1 && self.la(0) != Tok::Eof {
            let function = match self.la(0) {
                Tok::Lt => "_<_",
                Tok::Le => "_<=_",
                Tok::Ge => "_>=_",
                Tok::Gt => "_>_",
                Tok::Eq => "_==_",
                Tok::Ne => "_!=_",
                Tok::In => "@in",
                _ => break,
            };
            self.depth.fold(Rule::Relation)?;
            folds += 1;
            let t = self.advance();
            let id = self.ids.alloc(t.start);
            let right = self.relation(2)?;
            let h = 1 + left.h.max(right.h);
            left = node(
                self.global_call_or_macro(id, function, vec![left.e, right.e])
                    .e,
                h,
            );
        }
        self.depth.unroll(Rule::Relation, folds);
        Ok(left)
    }

    fn calc(&mut self, precedence: u32) -> PResult<Node> {
        self.depth.enter(Rule::Calc)?;
        let mut left = self.unary()?;
        let mut folds = 0;
        loop {
            let (function, level) = match self.la(0) {
                Tok::Star => ("_*_", 2),
                Tok::Slash => ("_/_", 2),
                Tok::Percent => ("_%_", 2),
                Tok::Plus => ("_+_", 1),
                Tok::Minus => ("_-_", 1),
                _ => break,
            };
            if precedence > level {
                break;
            }
            self.depth.fold(Rule::Calc)?;
            folds += 1;
            let t = self.advance();
            let id = self.ids.alloc(t.start);
            let right = self.calc(level + 1)?;
            let h = 1 + left.h.max(right.h);
            left = node(
                self.global_call_or_macro(id, function, vec![left.e, right.e])
                    .e,
                h,
            );
        }
        self.depth.unroll(Rule::Calc, folds);
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Unary)?;
        let result = match self.la(0) {
            op @ (Tok::Bang | Tok::Minus)
                if !(op == Tok::Minus && matches!(self.la(1), Tok::Int | Tok::Float)) =>
            {
                let first = self.tok(0);
                let mut count = 0;
                while self.la(0) == op {
                    self.advance();
                    count += 1;
                }
                if !starts_member(self.la(0)) {
                    let at = if self.la(0) == Tok::Minus {
                        self.tok(1)
                    } else {
                        self.tok(0)
                    };
                    let from = if self.la(0) == Tok::Minus {
                        self.tok(0)
                    } else {
                        self.tokens[self.pos - 1]
                    };
                    return Err(self.no_viable(from, at));
                }
                if count % 2 == 0 {
                    self.member()?
                } else {
                    let id = self.ids.alloc(first.start);
                    let target = self.member()?;
                    let function = if op == Tok::Bang { "!_" } else { "-_" };
                    let h = target.h;
                    node(self.global_call_or_macro(id, function, vec![target.e]).e, h)
                }
            }
            _ => self.member()?,
        };
        self.depth.exit(Rule::Unary);
        Ok(result)
    }

    fn member(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Member)?;
        let mut left = self.primary()?;
        let mut folds = 0;
        loop {
            match self.la(0) {
                Tok::Dot => {
                    let dot = self.tok(0);
                    let optional = self.la(1) == Tok::Question;
                    let name_at = if optional { 2 } else { 1 };
                    let name_kind = self.la(name_at);
                    if !matches!(name_kind, Tok::Ident | Tok::EscIdent) {
                        let at = self.tok(name_at);
                        return Err(self.no_viable(dot, at));
                    }
                    self.depth.fold(Rule::Member)?;
                    folds += 1;
                    if !optional && name_kind == Tok::Ident && self.la(2) == Tok::LParen {
                        self.advance();
                        let name = self.advance();
                        let open = self.advance();
                        let id = self.ids.alloc(open.start);
                        let (args, h) = self.call_args()?;
                        let function = self.text(name);
                        let e = self.receiver_call_or_macro(id, &function, left.e, args);
                        left = node(e.e, 1 + left.h.max(h));
                        continue;
                    }
                    self.advance();
                    if optional {
                        self.advance();
                    }
                    let name_tok = self.advance();
                    let name = self.escape_ident(name_tok);
                    if optional {
                        let lit = self.ids.alloc(name_tok.start);
                        let id = self.ids.alloc(dot.start);
                        let field = expr(lit, ExprKind::Literal(Literal::String(name)));
                        let e = call(id, None, "_?._", vec![left.e, field]);
                        left = node(e, left.h + 1);
                    } else {
                        let id = self.ids.alloc(dot.start);
                        let e = expr(
                            id,
                            ExprKind::Select {
                                operand: Box::new(left.e),
                                field: name,
                                test_only: false,
                            },
                        );
                        left = node(e, left.h + 1);
                    }
                }
                Tok::LBracket => {
                    self.depth.fold(Rule::Member)?;
                    folds += 1;
                    let open = self.advance();
                    let optional = self.la(0) == Tok::Question;
                    if optional {
                        self.advance();
                    }
                    let id = self.ids.alloc(open.start);
                    if !starts_expr(self.la(0)) {
                        return Err(self.no_expr(&[]));
                    }
                    let index = self.expr()?;
                    self.expect(Tok::RBracket)?;
                    let function = if optional { "_[?_]" } else { "_[_]" };
                    let h = 1 + left.h.max(index.h);
                    left = node(
                        self.global_call_or_macro(id, function, vec![left.e, index.e])
                            .e,
                        h,
                    );
                }
                _ => break,
            }
        }
        self.depth.unroll(Rule::Member, folds);
        Ok(left)
    }

    /// A field name: a plain identifier, or a backtick-escaped one without its backticks.
    fn escape_ident(&self, t: Token) -> String {
        if t.kind == Tok::EscIdent {
            self.chars[t.start + 1..t.end - 1].iter().collect()
        } else {
            self.text(t)
        }
    }

    /// `(args)` after the open parenthesis has been consumed.
    fn call_args(&mut self) -> PResult<(Vec<Expr>, u32)> {
        let mut args = Vec::new();
        let mut h = 0;
        if self.la(0) != Tok::RParen {
            self.depth.enter(Rule::ExprList)?;
            loop {
                if !starts_expr(self.la(0)) {
                    let extra: &[Tok] = if args.is_empty() { &[Tok::RParen] } else { &[] };
                    return Err(self.no_expr(extra));
                }
                let arg = self.expr()?;
                h = h.max(arg.h);
                args.push(arg.e);
                if self.la(0) != Tok::Comma {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::ExprList);
        }
        self.expect(Tok::RParen)?;
        Ok((args, h))
    }

    fn primary(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Primary)?;
        let result = match self.la(0) {
            Tok::Dot | Tok::Ident => self.named()?,
            Tok::LParen => {
                self.advance();
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let inner = self.expr()?;
                self.expect(Tok::RParen)?;
                inner
            }
            Tok::LBracket => self.list()?,
            Tok::LBrace => {
                let open = self.advance();
                let id = self.ids.alloc(open.start);
                let (entries, h) = self.map_entries()?;
                node(expr(id, ExprKind::Map { entries }), h)
            }
            Tok::Minus
            | Tok::Int
            | Tok::Uint
            | Tok::Float
            | Tok::String
            | Tok::Bytes
            | Tok::True
            | Tok::False
            | Tok::Null => self.literal()?,
            _ => return Err(self.no_expr(&[])),
        };
        self.depth.exit(Rule::Primary);
        Ok(result)
    }

    /// Ident, GlobalCall and CreateMessage: names with an optional leading dot.
    fn named(&mut self) -> PResult<Node> {
        let first = self.tok(0);
        let leading = first.kind == Tok::Dot;
        if leading && self.la(1) != Tok::Ident {
            let at = self.tok(1);
            return Err(self.no_viable(first, at));
        }
        // A message literal is `a.b.C{`: dotted identifiers and a brace.
        let mut k = usize::from(leading) + 1;
        while self.la(k) == Tok::Dot && self.la(k + 1) == Tok::Ident {
            k += 2;
        }
        if self.la(k) == Tok::LBrace {
            let mut name = if leading {
                ".".to_string()
            } else {
                String::new()
            };
            for i in (usize::from(leading)..k).step_by(2) {
                if i > usize::from(leading) {
                    name.push('.');
                }
                name.push_str(&self.text(self.tok(i)));
            }
            self.pos += k;
            let open = self.advance();
            let id = self.ids.alloc(open.start);
            let (fields, h) = self.field_entries()?;
            return Ok(node(
                expr(
                    id,
                    ExprKind::Struct {
                        type_name: name,
                        fields,
                    },
                ),
                h,
            ));
        }
        if leading {
            self.advance();
        }
        let ident = self.advance();
        let text = self.text(ident);
        let name = if leading {
            format!(".{text}")
        } else {
            text.clone()
        };
        if self.la(0) == Tok::LParen {
            if RESERVED.contains(&text.as_str()) {
                return Err(self.skip_reserved_call(first.start, &text));
            }
            let open = self.advance();
            let id = self.ids.alloc(open.start);
            let (args, h) = self.call_args()?;
            return Ok(node(self.global_call_or_macro(id, &name, args).e, h));
        }
        if RESERVED.contains(&text.as_str()) {
            return Ok(self.report(first.start, format!("reserved identifier: {text}")));
        }
        let id = self.ids.alloc(ident.start);
        Ok(node(expr(id, ExprKind::Ident(name)), 0))
    }

    /// `in(...)`: cel-go reports the name and never visits the arguments; they are parsed
    /// for their syntax only.
    fn skip_reserved_call(&mut self, offset: usize, text: &str) -> Abort {
        let reported = self.errors.len();
        let next = self.ids.next;
        self.report(offset, format!("reserved identifier: {text}"));
        self.advance();
        let result = self.call_args();
        self.errors.truncate(reported + 1);
        let _ = next;
        match result {
            Ok(_) => Abort::Syntax,
            Err(a) => a,
        }
    }

    fn list(&mut self) -> PResult<Node> {
        let open = self.advance();
        let id = self.ids.alloc(open.start);
        let mut elements = Vec::new();
        let mut optional_indices = Vec::new();
        let mut h = 0;
        if !matches!(self.la(0), Tok::RBracket | Tok::Comma) {
            self.depth.enter(Rule::ListInit)?;
            loop {
                self.depth.enter(Rule::OptExpr)?;
                let optional = self.la(0) == Tok::Question;
                if optional {
                    self.advance();
                }
                if !starts_expr(self.la(0)) {
                    let extra: &[Tok] = if elements.is_empty() && !optional {
                        &[Tok::RBracket, Tok::Comma, Tok::Question]
                    } else {
                        &[]
                    };
                    return Err(self.no_expr(extra));
                }
                let e = self.expr()?;
                self.depth.exit(Rule::OptExpr);
                h = h.max(e.h);
                if optional {
                    optional_indices.push(elements.len());
                }
                elements.push(e.e);
                if self.la(0) != Tok::Comma || self.la(1) == Tok::RBracket {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::ListInit);
        }
        if self.la(0) == Tok::Comma {
            self.advance();
        }
        self.expect(Tok::RBracket)?;
        Ok(node(
            expr(
                id,
                ExprKind::List {
                    elements,
                    optional_indices,
                },
            ),
            h,
        ))
    }

    /// `{k: v, ?k: v}` after the brace.
    fn map_entries(&mut self) -> PResult<(Vec<MapEntry>, u32)> {
        let mut entries = Vec::new();
        let mut h = 0;
        if !matches!(self.la(0), Tok::RBrace | Tok::Comma) {
            self.depth.enter(Rule::MapInitializerList)?;
            loop {
                // cel-go numbers the entry (at its colon) before its key.
                let entry_id = self.ids.alloc(0);
                self.depth.enter(Rule::OptExpr)?;
                let optional = self.la(0) == Tok::Question;
                if optional {
                    self.advance();
                }
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let key = self.expr()?;
                self.depth.exit(Rule::OptExpr);
                let colon = self.expect(Tok::Colon)?;
                self.ids.offsets.insert(entry_id, colon.start);
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let value = self.expr()?;
                h = h.max(key.h).max(value.h);
                entries.push(MapEntry {
                    id: entry_id,
                    key: key.e,
                    value: value.e,
                    optional,
                });
                if self.la(0) != Tok::Comma || self.la(1) == Tok::RBrace {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::MapInitializerList);
        }
        if self.la(0) == Tok::Comma {
            self.advance();
        }
        self.expect(Tok::RBrace)?;
        Ok((entries, h))
    }

    /// `{f: v, ?f: v}` of a message literal, after the brace.
    fn field_entries(&mut self) -> PResult<(Vec<StructField>, u32)> {
        let mut fields = Vec::new();
        let mut h = 0;
        if !matches!(self.la(0), Tok::RBrace | Tok::Comma) {
            self.depth.enter(Rule::FieldInitializerList)?;
            loop {
                let optional = self.la(0) == Tok::Question;
                if optional {
                    self.advance();
                }
                if !matches!(self.la(0), Tok::Ident | Tok::EscIdent) {
                    let here = self.tok(0);
                    let message = format!(
                        "mismatched input {} expecting {{IDENTIFIER, ESC_IDENTIFIER}}",
                        self.token_display(here)
                    );
                    return Err(self.syntax_error(here, message));
                }
                let name_tok = self.advance();
                let name = self.escape_ident(name_tok);
                let colon = self.expect(Tok::Colon)?;
                let id = self.ids.alloc(colon.start);
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let value = self.expr()?;
                h = h.max(value.h);
                fields.push(StructField {
                    id,
                    field: name,
                    value: value.e,
                    optional,
                });
                if self.la(0) != Tok::Comma || self.la(1) == Tok::RBrace {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::FieldInitializerList);
        }
        if self.la(0) == Tok::Comma {
            self.advance();
        }
        self.expect(Tok::RBrace)?;
        Ok((fields, h))
    }

    fn literal(&mut self) -> PResult<Node> {
        let first = self.tok(0);
        let negative = first.kind == Tok::Minus;
        if negative {
            self.advance();
        }
        if negative && !matches!(self.la(0), Tok::Int | Tok::Float) {
            // Only numbers take a sign: cel-go's unary rule saw no way on.
            let at = self.tok(0);
            return Err(self.no_viable(first, at));
        }
        let t = self.advance();
        let text = self.text(t);
        let sign = if negative { "-" } else { "" };
        let value = match t.kind {
            Tok::Int => {
                let parsed = match text.strip_prefix("0x") {
                    Some(hex) => i64::from_str_radix(&format!("{sign}{hex}"), 16),
                    None => format!("{sign}{text}").parse::<i64>(),
                };
                match parsed {
                    Ok(v) => Literal::Int(v),
                    Err(_) => {
                        return Ok(self.report(first.start, "invalid int literal".to_string()));
                    }
                }
            }
            Tok::Float => match format!("{sign}{text}").parse::<f64>() {
                Ok(v) if v.is_finite() => Literal::Double(v),
                _ => return Ok(self.report(first.start, "invalid double literal".to_string())),
            },
            Tok::Uint => {
                let digits = &text[..text.len() - 1];
                let parsed = match digits.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => digits.parse::<u64>(),
                };
                match parsed {
                    Ok(v) => Literal::Uint(v),
                    Err(_) => {
                        return Ok(self.report(first.start, "invalid uint literal".to_string()));
                    }
                }
            }
            Tok::String => match unescape(&text, false) {
                Ok(bytes) => Literal::String(String::from_utf8_lossy(&bytes).into_owned()),
                Err(message) => {
                    self.report(first.start, message.to_string());
                    Literal::String(text)
                }
            },
            Tok::Bytes => match unescape(&text[1..], true) {
                Ok(bytes) => Literal::Bytes(bytes),
                Err(message) => {
                    self.report(first.start, message.to_string());
                    Literal::Bytes(text.into_bytes())
                }
            },
            Tok::True => Literal::Bool(true),
            Tok::False => Literal::Bool(false),
            Tok::Null => Literal::Null,
            _ => return Err(self.no_viable(first, t)),
        };
        let id = self.ids.alloc(first.start);
        Ok(node(expr(id, ExprKind::Literal(value)), 0))
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

    fn call_or_macro(
        &mut self,
        id: ExprId,
        function: &str,
        target: Option<Expr>,
        args: Vec<Expr>,
    ) -> Node {
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
fn balanced(
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
fn error_expr(id: ExprId) -> Expr {
    expr(id, ExprKind::Literal(Literal::Null))
}

const EXPR_START: &[Tok] = &[
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

fn starts_expr(t: Tok) -> bool {
    EXPR_START.contains(&t)
}

fn starts_member(t: Tok) -> bool {
    starts_expr(t) && !matches!(t, Tok::Bang)
}

/// Tokens that can come after a closed bracket.
fn follows_member(t: Tok) -> bool {
    !matches!(
        t,
        Tok::Int
            | Tok::Uint
            | Tok::Float
            | Tok::String
            | Tok::Bytes
            | Tok::Ident
            | Tok::EscIdent
            | Tok::True
            | Tok::False
            | Tok::Null
            | Tok::LBrace
            | Tok::LParen
            | Tok::Bang
    )
}

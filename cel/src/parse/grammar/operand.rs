//! An operand of the binary operators: cel-go's rules unary (`!`, `-` prefixes), member (the
//! `.field`, `.?field`, `.call(...)`, `[index]`, `[?index]` suffixes) and primary, in one
//! function so that a nesting level costs few machine-stack frames.

use super::{Node, PResult, Parser, call, expr, node, starts_expr};
use crate::ast::{Expr, ExprKind, Literal};
use crate::parse::depth::Rule;
use crate::parse::lexer::{Tok, Token};

impl Parser {
    pub(super) fn operand(&mut self) -> PResult<Node> {
        self.depth.enter(Rule::Unary)?;
        let op = self.la(0);
        // `-1` is a signed literal, not a negation: ANTLR takes the first alternative.
        let prefixed = matches!(op, Tok::Bang | Tok::Minus)
            && !(op == Tok::Minus && matches!(self.la(1), Tok::Int | Tok::Float));
        let mut negation = None;
        if prefixed {
            let first = self.tok(0);
            let mut count = 0;
            while self.la(0) == op {
                self.advance();
                count += 1;
            }
            if !starts_member(self.la(0)) {
                return Err(self.no_member_after_prefix(op));
            }
            if count % 2 == 1 {
                negation = Some((
                    self.ids.alloc(first.start),
                    if op == Tok::Bang { "!_" } else { "-_" },
                ));
            }
        }
        self.depth.enter(Rule::Member)?;
        self.depth.enter(Rule::Primary)?;
        let mut left = match self.la(0) {
            Tok::Dot | Tok::Ident => self.named()?,
            Tok::LParen => {
                self.advance();
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let inner = self.expr_in(&[Tok::RParen])?;
                self.expect(Tok::RParen)?;
                inner
            }
            Tok::LBracket => self.list()?,
            Tok::LBrace => self.map()?,
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
        let mut folds = 0;
        while matches!(self.la(0), Tok::Dot | Tok::LBracket) {
            self.depth.fold(Rule::Member)?;
            folds += 1;
            left = if self.la(0) == Tok::Dot {
                self.dotted(left)?
            } else {
                self.index(left)?
            };
        }
        self.depth.unroll(Rule::Member, folds);
        if let Some((id, function)) = negation {
            let h = left.h;
            left = node(self.global_call_or_macro(id, function, vec![left.e]).e, h);
        }
        self.depth.exit(Rule::Unary);
        Ok(left)
    }

    #[cold]
    #[inline(never)]
    fn no_member_after_prefix(&mut self, op: Tok) -> super::Abort {
        if op == Tok::Bang {
            // Past the choice of the prefix rule, the `!` loop's check finds the token
            // unwanted: `!]`.
            return self.not_one_of_unwanted(super::EXPR_START);
        }
        // `-!a`, `--`: choosing between a signed literal and a negation failed after the
        // last `-`.
        let (from, at) = (self.tokens[self.pos - 1], self.tok(0));
        self.no_viable(from, at)
    }

    /// `.field`, `.?field` or `.call(args)` after `left`.
    #[inline(never)]
    fn dotted(&mut self, left: Node) -> PResult<Node> {
        let dot = self.tok(0);
        let optional = self.la(1) == Tok::Question;
        let name_at = if optional { 2 } else { 1 };
        let name_kind = self.la(name_at);
        if !matches!(name_kind, Tok::Ident | Tok::EscIdent) {
            if optional {
                // `.?` chose the optional select; only its name is missing.
                self.pos += 2;
                return Err(self.not_one_of(&[Tok::Ident, Tok::EscIdent]));
            }
            let at = self.tok(name_at);
            return Err(self.no_viable(dot, at));
        }
        if !optional && name_kind == Tok::Ident && self.la(2) == Tok::LParen {
            self.advance();
            let name = self.advance();
            let open = self.advance();
            let id = self.ids.alloc(open.start);
            let (args, h) = self.call_args()?;
            let function = self.text(name);
            let e = self.receiver_call_or_macro(id, &function, left.e, args);
            return Ok(node(e.e, 1 + left.h.max(h)));
        }
        self.pos += name_at;
        let name_tok = self.advance();
        let name = self.escape_ident(name_tok);
        let e = if optional {
            let lit = self.ids.alloc(name_tok.start);
            let id = self.ids.alloc(dot.start);
            let field = expr(lit, ExprKind::Literal(Literal::String(name)));
            call(id, None, "_?._", vec![left.e, field])
        } else {
            let id = self.ids.alloc(dot.start);
            expr(
                id,
                ExprKind::Select {
                    operand: Box::new(left.e),
                    field: name,
                    test_only: false,
                },
            )
        };
        Ok(node(e, left.h + 1))
    }

    /// `[index]` or `[?index]` after `left`.
    #[inline(never)]
    fn index(&mut self, left: Node) -> PResult<Node> {
        let open = self.advance();
        let optional = self.la(0) == Tok::Question;
        if optional {
            self.advance();
        }
        let id = self.ids.alloc(open.start);
        if !starts_expr(self.la(0)) {
            let extra: &[Tok] = if optional { &[] } else { &[Tok::Question] };
            return Err(self.no_expr(extra));
        }
        let index = self.expr_in(&[Tok::RBracket])?;
        self.expect(Tok::RBracket)?;
        let function = if optional { "_[?_]" } else { "_[_]" };
        let h = 1 + left.h.max(index.h);
        Ok(node(
            self.global_call_or_macro(id, function, vec![left.e, index.e])
                .e,
            h,
        ))
    }

    /// A field name: a plain identifier, or a backtick-escaped one without its backticks.
    pub(super) fn escape_ident(&self, t: Token) -> String {
        if t.kind == Tok::EscIdent {
            self.chars[t.start + 1..t.end - 1].iter().collect()
        } else {
            self.text(t)
        }
    }

    /// `args)` after a call's open parenthesis.
    #[inline(never)]
    pub(super) fn call_args(&mut self) -> PResult<(Vec<Expr>, u32)> {
        let mut args = Vec::new();
        let mut h = 0;
        if self.la(0) != Tok::RParen {
            self.depth.enter(Rule::ExprList)?;
            loop {
                if !starts_expr(self.la(0)) {
                    let extra: &[Tok] = if args.is_empty() { &[Tok::RParen] } else { &[] };
                    return Err(self.no_expr(extra));
                }
                let arg = self.expr_in(&[Tok::Comma, Tok::RParen])?;
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
}

fn starts_member(t: Tok) -> bool {
    starts_expr(t) && t != Tok::Bang
}

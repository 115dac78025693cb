//! The primaries that are not operands' prefixes or suffixes: names (identifiers, global
//! calls, message literals), list and map literals, and constants.

use super::{Node, PResult, Parser, RESERVED, expr, node, starts_expr};
use crate::ast::{ExprKind, Literal, MapEntry, StructField};
use crate::parse::depth::Rule;
use crate::parse::lexer::Tok;
use crate::parse::unescape::unescape;

impl Parser {
    /// Ident, GlobalCall and CreateMessage: names with an optional leading dot.
    #[inline(never)]
    pub(super) fn named(&mut self) -> PResult<Node> {
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
                return self.reserved_call(first.start, &text);
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
    #[cold]
    #[inline(never)]
    fn reserved_call(&mut self, offset: usize, text: &str) -> PResult<Node> {
        let reported = self.errors.len();
        let error = self.report(offset, format!("reserved identifier: {text}"));
        self.advance();
        self.call_args()?;
        // cel-go never visits the arguments, so their own errors are not reported.
        self.errors.truncate(reported + 1);
        Ok(error)
    }

    #[inline(never)]
    pub(super) fn list(&mut self) -> PResult<Node> {
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
                let e = self.expr_in(&[Tok::Comma, Tok::RBracket])?;
                self.depth.exit(Rule::OptExpr);
                h = h.max(e.h);
                if optional {
                    optional_indices.push(elements.len());
                }
                elements.push(e.e);
                // A comma not followed by an element ends the list (ANTLR's choice).
                let more = starts_expr(self.la(1)) || self.la(1) == Tok::Question;
                if self.la(0) != Tok::Comma || !more {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::ListInit);
        }
        self.close(!elements.is_empty(), Tok::RBracket)?;
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

    /// `{k: v, ?k: v}`.
    #[inline(never)]
    pub(super) fn map(&mut self) -> PResult<Node> {
        let open = self.advance();
        let id = self.ids.alloc(open.start);
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
                    let extra: &[Tok] = if entries.is_empty() && !optional {
                        &[Tok::RBrace, Tok::Comma, Tok::Question]
                    } else {
                        &[]
                    };
                    return Err(self.no_expr(extra));
                }
                let key = self.expr_in(&[Tok::Colon])?;
                self.depth.exit(Rule::OptExpr);
                let colon = self.expect(Tok::Colon)?;
                self.ids.offsets.insert(entry_id, colon.start);
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let value = self.expr_in(&[Tok::Comma, Tok::RBrace])?;
                h = h.max(key.h).max(value.h);
                entries.push(MapEntry {
                    id: entry_id,
                    key: key.e,
                    value: value.e,
                    optional,
                });
                let more = starts_expr(self.la(1)) || self.la(1) == Tok::Question;
                if self.la(0) != Tok::Comma || !more {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::MapInitializerList);
        }
        self.close(!entries.is_empty(), Tok::RBrace)?;
        Ok(node(expr(id, ExprKind::Map { entries }), h))
    }

    /// `{f: v, ?f: v}` of a message literal, after the brace.
    #[inline(never)]
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
                    let names = [Tok::Ident, Tok::EscIdent];
                    let set: &[Tok] = if fields.is_empty() && !optional {
                        &[
                            Tok::RBrace,
                            Tok::Comma,
                            Tok::Question,
                            Tok::Ident,
                            Tok::EscIdent,
                        ]
                    } else {
                        &names
                    };
                    return Err(self.not_one_of(set));
                }
                let name_tok = self.advance();
                let name = self.escape_ident(name_tok);
                let colon = self.expect(Tok::Colon)?;
                let id = self.ids.alloc(colon.start);
                if !starts_expr(self.la(0)) {
                    return Err(self.no_expr(&[]));
                }
                let value = self.expr_in(&[Tok::Comma, Tok::RBrace])?;
                h = h.max(value.h);
                fields.push(StructField {
                    id,
                    field: name,
                    value: value.e,
                    optional,
                });
                let more = matches!(self.la(1), Tok::Ident | Tok::EscIdent | Tok::Question);
                if self.la(0) != Tok::Comma || !more {
                    break;
                }
                self.advance();
            }
            self.depth.exit(Rule::FieldInitializerList);
        }
        self.close(!fields.is_empty(), Tok::RBrace)?;
        Ok((fields, h))
    }

    #[inline(never)]
    pub(super) fn literal(&mut self) -> PResult<Node> {
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

    /// The end of a list, map or message literal: `,`? and the closing bracket.
    fn close(&mut self, had_items: bool, closer: Tok) -> PResult<()> {
        if had_items && !matches!(self.la(0), Tok::Comma) && self.la(0) != closer {
            return Err(self.not_one_of(&[closer, Tok::Comma]));
        }
        if self.la(0) == Tok::Comma {
            self.advance();
        }
        self.expect(closer)?;
        Ok(())
    }
}

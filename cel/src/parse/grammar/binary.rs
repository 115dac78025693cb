//! The binary operators: cel-go's rules conditionalOr (`||`), conditionalAnd (`&&`), relation
//! (`<`, `==`, `in`, ...) and calc (`*`, `/`, `%` over `+`, `-`).
//!
//! ANTLR runs these as nested recursive rules (relation and calc by precedence climbing, a
//! right operand being a fresh invocation of the rule at a higher precedence). Here the
//! invocations are frames on a heap stack, so that an expression's nesting costs the machine
//! stack only the few frames of [`Parser::expr`] and the operand; each frame replays the
//! rule events ANTLR's invocation would send, so the recursion limit falls where cel-go's does.

use super::{Node, PResult, Parser, balanced, node};
use crate::ast::{Expr, ExprId};
use crate::parse::depth::Rule;
use crate::parse::lexer::{Tok, Token};

/// One invocation of a rule.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Or,
    And,
    /// relation at a precedence (0, or 2 for a right operand).
    Relation(u32),
    /// calc at a precedence (0; 2 and 3 for right operands).
    Calc(u32),
}

impl Level {
    fn rule(self) -> Rule {
        match self {
            Level::Or => Rule::ConditionalOr,
            Level::And => Rule::ConditionalAnd,
            Level::Relation(_) => Rule::Relation,
            Level::Calc(_) => Rule::Calc,
        }
    }
}

struct Frame {
    level: Level,
    /// The `||`/`&&` terms so far, or the left operand of relation and calc.
    terms: Vec<Expr>,
    /// The `||`/`&&` operators' ids.
    ops: Vec<ExprId>,
    h: u32,
    /// An operator read, whose right operand is being parsed: its token and function.
    pending: Option<(Token, &'static str)>,
    /// The id of a relation or calc operator, taken when it is read (before its right
    /// operand, as cel-go's visitor takes it; a `||`/`&&` operator's comes after).
    pending_id: ExprId,
    /// Operators folded into the left operand (relation and calc).
    folds: u32,
}

impl Parser {
    /// conditionalOr, with everything below it.
    pub(super) fn binary(&mut self) -> PResult<Node> {
        let mut stack: Vec<Frame> = Vec::new();
        self.descend(&mut stack, Level::Or)?;
        loop {
            let mut value = self.operand()?;
            // Hand the value up until a frame needs another operand or the stack empties.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(value);
                };
                let Some(next) = self.absorb(frame, value)? else {
                    let Some(done) = stack.pop() else {
                        return Ok(value_of_empty());
                    };
                    value = self.finish(done);
                    continue;
                };
                self.descend(&mut stack, next)?;
                break;
            }
        }
    }

    /// Invokes `level` and the rules its first operand goes through, down to calc.
    #[inline(never)]
    fn descend(&mut self, stack: &mut Vec<Frame>, mut level: Level) -> PResult<()> {
        loop {
            self.depth.enter(level.rule())?;
            stack.push(Frame {
                level,
                terms: Vec::new(),
                ops: Vec::new(),
                h: 0,
                pending: None,
                pending_id: 0,
                folds: 0,
            });
            level = match level {
                Level::Or => Level::And,
                Level::And => Level::Relation(0),
                Level::Relation(_) => Level::Calc(0),
                Level::Calc(_) => return Ok(()),
            };
        }
    }

    /// Takes an operand into `frame`; the rule to invoke for its next operand, if any.
    #[inline(never)]
    fn absorb(&mut self, frame: &mut Frame, value: Node) -> PResult<Option<Level>> {
        frame.h = frame.h.max(value.h);
        match frame.level {
            Level::Or | Level::And => {
                frame.terms.push(value.e);
                if let Some((op, _)) = frame.pending.take() {
                    frame.ops.push(self.ids.alloc(op.start));
                }
                let (op, next) = match frame.level {
                    Level::Or => (Tok::Or, Level::And),
                    _ => (Tok::And, Level::Relation(0)),
                };
                if self.la(0) != op {
                    return Ok(None);
                }
                frame.pending = Some((self.advance(), ""));
                Ok(Some(next))
            }
            Level::Relation(precedence) | Level::Calc(precedence) => {
                match frame.pending.take() {
                    Some((_, function)) => {
                        let left = frame.terms.pop();
                        let id = frame.pending_id;
                        let args = left.into_iter().chain([value.e]).collect();
                        let e = self.global_call_or_macro(id, function, args).e;
                        frame.terms.push(e);
                        frame.h = value.h.max(frame.h) + 1;
                    }
                    None => frame.terms.push(value.e),
                }
                let next = match frame.level {
                    Level::Relation(_) => relation_op(self.la(0))
                        .filter(|_| precedence <= 1)
                        .map(|f| (f, Level::Relation(2))),
                    _ => calc_op(self.la(0))
                        .filter(|(_, level)| precedence <= *level)
                        .map(|(f, level)| (f, Level::Calc(level + 1))),
                };
                let Some((function, next)) = next else {
                    return Ok(None);
                };
                self.depth.fold(frame.level.rule())?;
                frame.folds += 1;
                let op = self.advance();
                frame.pending_id = self.ids.alloc(op.start);
                frame.pending = Some((op, function));
                Ok(Some(next))
            }
        }
    }

    /// A rule invocation returns its value.
    #[inline(never)]
    fn finish(&mut self, mut frame: Frame) -> Node {
        match frame.level {
            Level::Or | Level::And => {
                self.depth.exit(frame.level.rule());
                let function = if frame.level == Level::Or {
                    "_||_"
                } else {
                    "_&&_"
                };
                let mut terms: Vec<Option<Expr>> = frame.terms.into_iter().map(Some).collect();
                node(
                    balanced(function, &mut terms, &frame.ops, 0, frame.ops.len()),
                    frame.h,
                )
            }
            _ => {
                self.depth.unroll(frame.level.rule(), frame.folds);
                let e = frame.terms.pop().unwrap_or_else(|| super::error_expr(0));
                node(e, frame.h)
            }
        }
    }
}

/// The frame stack never empties while values are handed up; this keeps the loop total.
fn value_of_empty() -> Node {
    node(super::error_expr(0), 0)
}

fn relation_op(t: Tok) -> Option<&'static str> {
    Some(match t {
        Tok::Lt => "_<_",
        Tok::Le => "_<=_",
        Tok::Ge => "_>=_",
        Tok::Gt => "_>_",
        Tok::Eq => "_==_",
        Tok::Ne => "_!=_",
        Tok::In => "@in",
        _ => return None,
    })
}

/// A calc operator and its precedence (multiplicative 2, additive 1).
fn calc_op(t: Tok) -> Option<(&'static str, u32)> {
    Some(match t {
        Tok::Star => ("_*_", 2),
        Tok::Slash => ("_/_", 2),
        Tok::Percent => ("_%_", 2),
        Tok::Plus => ("_+_", 1),
        Tok::Minus => ("_-_", 1),
        _ => return None,
    })
}

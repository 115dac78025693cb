//! cel-go's two recursion limits, both 250 in the Kubernetes environment.
//!
//! While parsing, a listener counts per grammar rule how deeply it is nested and stops the
//! parse past 250 (`expression recursion limit exceeded: 250`). It hears ANTLR's rule events,
//! and for the left-recursive rules (relation, calc, member) ANTLR sends an exit and an enter
//! around every operator it folds in and then one exit per fold when the rule returns; the
//! counts never go below zero, so they run low after such a rule. [`RuleDepth`] replays those
//! events exactly, so that the limit falls where cel-go's falls.
//!
//! After parsing, the tree builder counts the nesting of ternaries, binary relations and
//! arithmetic, selects, member calls and indexes, and stops past 250 (`max recursion depth
//! exceeded`); the parser keeps that count per subtree as its height.

/// cel-go's default `MaxRecursionDepth`, which the Kubernetes environment keeps.
pub(crate) const MAX_DEPTH: u32 = 250;

/// The grammar's rules that can nest.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rule {
    Expr,
    ConditionalOr,
    ConditionalAnd,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    FieldInitializerList,
    MapInitializerList,
    OptExpr,
}

const RULES: usize = 13;

/// The parse listener's per-rule counts.
#[derive(Debug, Default)]
pub(crate) struct RuleDepth {
    counts: [u32; RULES],
}

/// The listener's limit was passed.
#[derive(Debug)]
pub(crate) struct TooDeep;

impl RuleDepth {
    pub(crate) fn enter(&mut self, rule: Rule) -> Result<(), TooDeep> {
        let count = &mut self.counts[rule as usize];
        *count += 1;
        if *count > MAX_DEPTH {
            return Err(TooDeep);
        }
        Ok(())
    }

    pub(crate) fn exit(&mut self, rule: Rule) {
        let count = &mut self.counts[rule as usize];
        *count = count.saturating_sub(1);
    }

    /// A left-recursive rule folds in one more operator.
    pub(crate) fn fold(&mut self, rule: Rule) -> Result<(), TooDeep> {
        self.exit(rule);
        self.enter(rule)
    }

    /// A left-recursive rule that folded `folds` operators returns.
    pub(crate) fn unroll(&mut self, rule: Rule, folds: u32) {
        for _ in 0..=folds {
            self.exit(rule);
        }
    }
}

//! Calls: the arguments' costs and nodes, the overloads the checker resolved, and each
//! overload's cost, asked of the extension estimators, then Kubernetes', then cel-go's own
//! formulas for the standard overloads (else 1).

use super::sizes::union_entries;
use super::walk::Coster;
use super::{
    CallEstimate, CostEstimate, Node, REGEX_PER_CHAR, SizeEstimate, TRAVERSAL, extensions,
    kubernetes,
};
use crate::ast::{Expr, ExprKind};

impl Coster<'_> {
    #[inline(never)]
    pub(super) fn cost_call(&mut self, e: &Expr) -> CostEstimate {
        let ExprKind::Call {
            target,
            function,
            args,
        } = &e.kind
        else {
            return CostEstimate::fixed(0);
        };
        // A namespaced call (`strings.quote(s)`) is, once checked, a global call without target.
        let (function, target) = match self.checked.rewritten.get(&e.id) {
            Some(name) => (name.clone(), None),
            None => (function.clone(), target.as_deref()),
        };
        if function == "dyn"
            && let Some(arg) = args.first()
        {
            // dyn() only turns checking off: its argument's cost and sizes, plus one.
            let cost = self.cost(arg);
            let size = self.compute_size(arg);
            self.set_size(e.id, size);
            let entry = self.entry_size(arg);
            self.set_entry_size(e.id, entry);
            return CostEstimate::fixed(1).add(cost);
        }
        let mut arg_costs = Vec::with_capacity(args.len());
        let mut nodes = Vec::with_capacity(args.len());
        for a in args {
            arg_costs.push(self.cost(a));
            nodes.push(self.node(a));
        }
        let Some(overloads) = self.checked.overloads.get(&e.id).filter(|o| !o.is_empty()) else {
            return CostEstimate::fixed(0);
        };
        let mut sum = CostEstimate::fixed(0);
        let target = match target {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.node(t))
            }
            None => None,
        };
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result: Option<SizeEstimate> = None;
        for id in overloads {
            let call = self.function_cost(e, &function, id, target.as_ref(), &nodes, &arg_costs);
            fn_cost = fn_cost.union(call.cost);
            if let Some(s) = call.size {
                result = Some(result.map_or(s, |r| r.union(s)));
            }
            let sub = match id.as_str() {
                "index_list" => "@items",
                "index_map" => "@values",
                _ => "",
            };
            if !sub.is_empty()
                && let Some(first) = args.first()
            {
                result = self.entry_size(first).map(|s| s.value);
                let path = self.path(first).append(sub);
                self.set_path(e.id, path);
            }
            if result.is_none() {
                result = self.compute_size(e);
            }
        }
        self.set_size(e.id, result);
        sum.add(fn_cost)
    }

    fn function_cost(
        &mut self,
        e: &Expr,
        function: &str,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
        arg_costs: &[CostEstimate],
    ) -> CallEstimate {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::fixed(0), |s, c| s.add(*c));
        let library = extensions::estimate(self, overload, target, args)
            .or_else(|| kubernetes::estimate(self, function, overload, target, args));
        if let Some(call) = library {
            return CallEstimate {
                cost: call.cost.add(arg_sum),
                size: call.size,
            };
        }
        let call = self.standard(e, overload, target, args, arg_costs);
        match call {
            Some(c) => c,
            None => CallEstimate {
                cost: CostEstimate::fixed(1).add(arg_sum),
                size: None,
            },
        }
    }

    /// cel-go's formulas; the cost includes the arguments'.
    fn standard(
        &mut self,
        e: &Expr,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
        arg_costs: &[CostEstimate],
    ) -> Option<CallEstimate> {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::fixed(0), |s, c| s.add(*c));
        let size = |n: &Node| n.computed.unwrap_or(super::UNKNOWN_SIZE);
        let traversal = |s: SizeEstimate| s.times(TRAVERSAL).add(arg_sum);
        match (overload, target, args) {
            ("string_format", Some(t), _) => CallEstimate::cost(traversal(size(t))),
            ("string_to_bytes", _, [a]) => {
                let s = size(a);
                let result = SizeEstimate {
                    min: s.min,
                    max: s.max.wrapping_mul(4),
                };
                CallEstimate::sized(traversal(s), result)
            }
            ("bytes_to_string", _, [a]) => {
                let s = size(a);
                let result = SizeEstimate {
                    min: s.min / 4,
                    max: s.max,
                };
                CallEstimate::sized(traversal(s), result)
            }
            ("strings_quote", _, [a]) => {
                let s = size(a);
                let result = SizeEstimate {
                    min: s.min.wrapping_add(2),
                    max: s.max.wrapping_mul(2).wrapping_add(2),
                };
                CallEstimate::sized(traversal(s), result)
            }
            ("starts_with_string" | "ends_with_string", _, [a]) => {
                CallEstimate::cost(traversal(size(a)))
            }
            ("in_list", _, [_, list]) => CallEstimate::cost(size(list).times(1.0).add(arg_sum)),
            ("matches_string", Some(s), [re]) | ("matches", None, [s, re]) => {
                let text = size(s).add(SizeEstimate::fixed(1)).times(TRAVERSAL);
                let regex = size(re).times(REGEX_PER_CHAR);
                CallEstimate::cost(text.multiply(regex).add(arg_sum))
            }
            ("contains_string", Some(s), [sub]) => {
                let text = size(s).times(TRAVERSAL);
                let sub = size(sub).times(TRAVERSAL);
                CallEstimate::cost(text.multiply(sub).add(arg_sum))
            }
            ("logical_or" | "logical_and", _, _) => {
                let (lhs, rhs) = (*arg_costs.first()?, *arg_costs.get(1)?);
                CallEstimate::cost(CostEstimate {
                    min: lhs.min,
                    max: lhs.add(rhs).max,
                })
            }
            ("conditional", _, [_, yes, no]) => {
                let result = size(yes).union(size(no));
                let (ye, ne) = (yes.expr?, no.expr?);
                let entry = union_entries(self.entry_size(ye), self.entry_size(ne));
                self.set_entry_size(e.id, entry);
                let [c, y, n] = arg_costs else {
                    return None;
                };
                CallEstimate::sized(c.add(y.union(*n)), result)
            }
            ("add_string" | "add_bytes" | "add_list", _, [l, r]) => {
                let result = size(l).add(size(r));
                let entry = union_entries(self.entry_size(l.expr?), self.entry_size(r.expr?));
                self.set_entry_size(e.id, entry);
                if overload == "add_list" {
                    CallEstimate::sized(CostEstimate::fixed(1).add(arg_sum), result)
                } else {
                    CallEstimate::sized(traversal(result), result)
                }
            }
            (
                "less_string"
                | "greater_string"
                | "less_equals_string"
                | "greater_equals_string"
                | "less_bytes"
                | "greater_bytes"
                | "less_equals_bytes"
                | "greater_equals_bytes"
                | "equals"
                | "not_equals",
                _,
                [l, r, ..],
            ) => {
                let smallest = size(l).max.min(size(r).max);
                let min = u64::from(smallest > 0);
                CallEstimate::cost(traversal(SizeEstimate { min, max: smallest }))
            }
            _ => None,
        }
    }
}

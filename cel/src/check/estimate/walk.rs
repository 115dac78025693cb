//! The walk: each node's cost as cel-go's coster computes it, with what it tracks along the
//! way (paths, sizes of results, sizes of list and map entries, comprehension variables).

use super::path::Path;
use super::sizes::{Container, EntrySize};
use super::{CostEstimate, LIST_CREATE, MAP_CREATE, STRUCT_CREATE, SizeEstimate, SizeEstimator};
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, Literal, MapEntry};
use crate::check::{Checked, Type};
use std::collections::HashMap;

/// A comprehension's or bind's variable.
pub(super) struct Local {
    pub(super) path: Path,
    pub(super) size: Option<SizeEstimate>,
    pub(super) entry: Option<EntrySize>,
}

pub(super) struct Coster<'a> {
    pub(super) checked: &'a Checked,
    pub(super) sizes: &'a dyn SizeEstimator,
    paths: HashMap<ExprId, Path>,
    locals: HashMap<String, Vec<Local>>,
    pub(super) computed: HashMap<ExprId, SizeEstimate>,
    pub(super) entries: HashMap<ExprId, EntrySize>,
}

impl<'a> Coster<'a> {
    pub(super) fn new(checked: &'a Checked, sizes: &'a dyn SizeEstimator) -> Coster<'a> {
        Coster {
            checked,
            sizes,
            paths: HashMap::new(),
            locals: HashMap::new(),
            computed: HashMap::new(),
            entries: HashMap::new(),
        }
    }

    /// Each kind has its own function, so that this frame, which every level of a deep tree
    /// holds, stays small.
    pub(super) fn cost(&mut self, e: &Expr) -> CostEstimate {
        if let Some(name) = self.checked.rewritten.get(&e.id)
            && matches!(e.kind, ExprKind::Select { .. })
        {
            return self.cost_ident(e, name);
        }
        match &e.kind {
            ExprKind::Literal(_) => CostEstimate::fixed(0),
            ExprKind::Ident(name) => self.cost_ident(e, name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.cost_select(e, operand, field, *test_only),
            ExprKind::Call { .. } => self.cost_call(e),
            ExprKind::List { elements, .. } => self.cost_list(e, elements),
            ExprKind::Map { entries } => self.cost_map(e, entries),
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::fixed(0);
                for f in fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE))
            }
            ExprKind::Comprehension(c) => self.cost_comprehension(e, c),
        }
    }

    #[inline(never)]
    fn cost_ident(&mut self, e: &Expr, name: &str) -> CostEstimate {
        let path = match self.local(name) {
            Some(v) => v.path.clone(),
            None => Path::root(name),
        };
        self.paths.insert(e.id, path);
        CostEstimate::fixed(1)
    }

    #[inline(never)]
    fn cost_select(
        &mut self,
        e: &Expr,
        operand: &Expr,
        field: &str,
        test_only: bool,
    ) -> CostEstimate {
        // The environment makes a presence test free.
        let mut sum = self.cost(operand);
        if test_only {
            return sum;
        }
        if matches!(
            self.type_of(operand),
            Type::Map(..) | Type::Object(_) | Type::Param(_)
        ) {
            sum = sum.add(CostEstimate::fixed(1));
        }
        let path = self.path(operand).append(field);
        self.paths.insert(e.id, path);
        sum
    }

    #[inline(never)]
    fn cost_list(&mut self, e: &Expr, elements: &[Expr]) -> CostEstimate {
        let mut sum = CostEstimate::fixed(0);
        let mut item = SizeEstimate {
            min: u64::MAX,
            max: 0,
        };
        if elements.is_empty() {
            item.min = 0;
        }
        for el in elements {
            sum = sum.add(self.cost(el));
            item = item.union(self.size_or_unknown(el));
        }
        self.entries.insert(
            e.id,
            EntrySize {
                container: Container::List,
                key: SizeEstimate::fixed(1),
                value: item,
            },
        );
        sum.add(CostEstimate::fixed(LIST_CREATE))
    }

    #[inline(never)]
    fn cost_map(&mut self, e: &Expr, entries: &[MapEntry]) -> CostEstimate {
        let mut sum = CostEstimate::fixed(0);
        let mut key = SizeEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut value = key;
        if entries.is_empty() {
            key.min = 0;
            value.min = 0;
        }
        for entry in entries {
            sum = sum.add(self.cost(&entry.key));
            sum = sum.add(self.cost(&entry.value));
            key = key.union(self.size_or_unknown(&entry.key));
            value = value.union(self.size_or_unknown(&entry.value));
        }
        self.entries.insert(
            e.id,
            EntrySize {
                container: Container::Map,
                key,
                value,
            },
        );
        sum.add(CostEstimate::fixed(MAP_CREATE))
    }

    #[inline(never)]
    fn cost_comprehension(&mut self, e: &Expr, c: &Comprehension) -> CostEstimate {
        if is_bind(c) {
            return self.cost_bind(e, c);
        }
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local(&c.accu_var, &c.accu_init);
        let two = !c.iter_var2.is_empty();
        if two {
            self.push_iter(&c.iter_var, &c.iter_range, Role::Key);
            self.push_iter(&c.iter_var2, &c.iter_range, Role::Value);
        } else {
            self.push_iter(&c.iter_var, &c.iter_range, Role::Single);
        }
        let loop_cost = self.cost(&c.loop_condition);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if two {
            self.pop_local(&c.iter_var2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let count = self.size_or_unknown(&c.iter_range);
        sum = sum.add(count.times_cost(step_cost.add(loop_cost)));
        match &c.accu_init.kind {
            ExprKind::Literal(_) => {
                let size = self.compute_size(&c.accu_init);
                self.set_size(e.id, size);
            }
            ExprKind::List { .. } | ExprKind::Map { .. } => {
                self.set_size(e.id, Some(count));
                if let Some(entry) = self.entry_size(&c.loop_step) {
                    self.entries.insert(e.id, entry);
                }
            }
            _ => {}
        }
        sum
    }

    fn cost_bind(&mut self, e: &Expr, c: &Comprehension) -> CostEstimate {
        // A bind's range is empty but still costed, as cel-go costs it.
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local(&c.accu_var, &c.accu_init);
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let size = self.compute_size(&c.result);
        self.set_size(e.id, size);
        if let Some(entry) = self.entry_size(&c.result) {
            self.entries.insert(e.id, entry);
        }
        sum
    }

    fn push_local(&mut self, name: &str, init: &Expr) {
        let path = self.path(init);
        let entry = self.entry_size(init);
        let size = self.compute_size(init);
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(Local { path, size, entry });
    }

    fn push_iter(&mut self, name: &str, range: &Expr, role: Role) {
        let entry = self.entry_size(range);
        let container = match entry {
            Some(e) => Some(e.container),
            None => match self.type_of(range) {
                Type::List(_) => Some(Container::List),
                Type::Map(..) => Some(Container::Map),
                _ => None,
            },
        };
        let list = container == Some(Container::List);
        let (size, sub) = match role {
            Role::Key => (
                entry.map(|e| e.key),
                if list { "@indices" } else { "@keys" },
            ),
            Role::Value => (
                entry.map(|e| e.value),
                if list { "@items" } else { "@values" },
            ),
            Role::Single if list => (entry.map(|e| e.value), "@items"),
            Role::Single => (entry.map(|e| e.key), "@keys"),
        };
        let path = self.path(range).append(sub);
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(Local {
                path,
                size,
                entry: None,
            });
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    pub(super) fn local(&self, name: &str) -> Option<&Local> {
        self.locals.get(name)?.last()
    }

    /// The name of an identifier, or of a selection the checker made one.
    pub(super) fn ident_name<'e>(&'e self, e: &'e Expr) -> Option<&'e str> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n),
            ExprKind::Select { .. } => self.checked.rewritten.get(&e.id).map(String::as_str),
            _ => None,
        }
    }

    pub(super) fn type_of(&self, e: &Expr) -> Type {
        self.checked
            .types
            .get(&e.id)
            .cloned()
            .unwrap_or(Type::Error)
    }

    pub(super) fn path(&self, e: &Expr) -> Path {
        if let Some(name) = self.ident_name(e)
            && let Some(v) = self.local(name)
        {
            return v.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    pub(super) fn set_path(&mut self, id: ExprId, path: Path) {
        self.paths.insert(id, path);
    }
}

#[derive(Clone, Copy)]
enum Role {
    Key,
    Value,
    Single,
}

/// cel.bind's expansion: an empty range, a false condition, its own accumulator.
fn is_bind(c: &Comprehension) -> bool {
    matches!(&c.iter_range.kind, ExprKind::List { elements, .. } if elements.is_empty())
        && matches!(
            c.loop_condition.kind,
            ExprKind::Literal(Literal::Bool(false))
        )
        && c.accu_var != "@result"
}

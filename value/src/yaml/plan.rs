//! The first pass over a document that has aliases: yaml.v2's alias accounting, done on the
//! events alone, before any value is built.
//!
//! It finds which anchors are aliased (only those are kept by the second pass, so defining an
//! anchor costs nothing) and where the document first goes past a limit on alias expansion or
//! nesting, so that the second pass stops there before copying anything.
//!
//! The accounting is yaml.v2's (`decode.go:350 unmarshal`): every node decoded counts once and
//! every node decoded through an alias counts once more as aliased, where decoding an alias decodes
//! its anchor's whole subtree again (nested aliases included); `<<` keys and the sequence node of
//! a `<<: [...]` value are never decoded themselves. Past 100 aliased and 1000 decoded nodes, the
//! aliased share may not exceed 99% up to 400,000 decodes, falling linearly to 10% at 4,000,000.

use std::collections::{HashMap, HashSet};

use granit_parser::{Event, Span};

use super::build::{Events, next_event};
use super::resolve::{self, TagKind};
use super::syntax;
use crate::{Error, ErrorKind, MAX_DEPTH};

/// How much scalar text alias expansion may copy in one document. Go shares strings, so yaml.v2
/// has no such rule; values here own their text, and a long string aliased many times would
/// otherwise multiply it.
pub(super) const MAX_ALIAS_TEXT: u64 = 16 << 20;

/// What the first pass learnt about a document.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// The anchors (by parser id) that some alias refers to.
    pub(super) used: HashSet<usize>,
    /// The index of the event (counted from the one after the document start) at which the
    /// document fails, and why.
    pub(super) failure: Option<(usize, Error)>,
}

/// What decoding a subtree costs.
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    /// Nodes yaml.v2 decodes.
    decodes: u64,
    /// Bytes of scalar text.
    text: u64,
    /// Levels of maps and lists (0 for a scalar).
    height: usize,
}

impl Cost {
    fn add(&mut self, child: Cost) {
        self.decodes = self.decodes.saturating_add(child.decodes);
        self.text = self.text.saturating_add(child.text);
        self.height = self.height.max(child.height + 1);
    }
}

#[derive(Debug)]
struct Frame {
    anchor: usize,
    cost: Cost,
    /// For a map: whether the next node is a key.
    at_key: Option<bool>,
    /// For a map: the last key was `<<`.
    merging: bool,
    /// This sequence is the value of a `<<` key (yaml.v2 does not decode its node).
    merge_list: bool,
}

/// yaml.v2's counters, reset for every document.
#[derive(Debug, Default)]
struct Counts {
    decodes: u64,
    aliases: u64,
    text: u64,
}

impl Counts {
    /// Counts `decodes` more decoded nodes of which `aliases` through aliases, and reports
    /// whether yaml.v2 would now find the document to contain excessive aliasing.
    fn excessive(&mut self, decodes: u64, aliases: u64) -> bool {
        self.decodes = self.decodes.saturating_add(decodes);
        self.aliases = self.aliases.saturating_add(aliases);
        self.aliases > 100
            && self.decodes > 1000
            && self.aliases as f64 / self.decodes as f64 > allowed_alias_ratio(self.decodes)
    }
}

/// `decode.go:334 allowedAliasRatio`, in the same float64 arithmetic.
fn allowed_alias_ratio(decodes: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    if decodes <= LOW {
        0.99
    } else if decodes >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decodes - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

/// Reads the events of one document (its start already read) up to its end or its first
/// failure. A syntax error just ends the plan: the second pass meets it at the same place.
pub(super) fn plan<'a>(events: &mut Events<'a>, text: &str) -> Plan {
    let mut planner = Planner {
        text,
        plan: Plan::default(),
        stack: Vec::new(),
        anchors: HashMap::new(),
        // The document node itself is decoded.
        counts: Counts {
            decodes: 1,
            ..Counts::default()
        },
    };
    let mut index = 0;
    while let Ok(Some((event, span))) = next_event(events, text) {
        match planner.event(event, &span) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                planner.plan.failure = Some((index, e));
                break;
            }
        }
        index += 1;
    }
    planner.plan
}

struct Planner<'t> {
    text: &'t str,
    plan: Plan,
    stack: Vec<Frame>,
    /// Anchors by parser id: `None` while their node is open.
    anchors: HashMap<usize, Option<Cost>>,
    counts: Counts,
}

impl Planner<'_> {
    /// Accounts for one event; `Ok(false)` at the end of the document.
    fn event(&mut self, event: Event<'_>, span: &Span) -> Result<bool, Error> {
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let top = self.stack.last_mut();
                if let Some(top) = top.filter(|top| top.at_key == Some(true)) {
                    if resolve::is_merge_key(&value, style, TagKind::of(tag.as_deref())) {
                        top.at_key = Some(false);
                        top.merging = true;
                        self.define(
                            anchor,
                            Cost {
                                decodes: 1,
                                text: 2,
                                height: 0,
                            },
                        );
                        return Ok(true);
                    }
                }
                let cost = Cost {
                    decodes: 1,
                    text: value.len() as u64,
                    height: 0,
                };
                self.count(1, 0, span)?;
                self.define(anchor, cost);
                self.complete(cost, false);
            }
            Event::SequenceStart(_, anchor, _) => self.open(anchor, false, span)?,
            Event::MappingStart(_, anchor, _) => self.open(anchor, true, span)?,
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(frame) = self.stack.pop() {
                    self.define(frame.anchor, frame.cost);
                    self.complete(frame.cost, frame.merge_list);
                }
            }
            Event::Alias(id) => {
                let name = alias_name(self.text, span);
                let cost = match self.anchors.get(&id) {
                    Some(Some(cost)) => *cost,
                    Some(None) => return Err(self_alias(self.text, span, name)),
                    None => return Err(unknown_anchor(self.text, span, name)),
                };
                self.plan.used.insert(id);
                if self.stack.len() + cost.height > MAX_DEPTH {
                    return Err(too_deep(self.text, span));
                }
                // The alias node, then its anchor's subtree again, every node of it aliased.
                self.count(1 + cost.decodes, cost.decodes, span)?;
                self.counts.text = self.counts.text.saturating_add(cost.text);
                if self.counts.text > MAX_ALIAS_TEXT {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!(
                            "document contains excessive aliasing: aliases copy more than \
                             {MAX_ALIAS_TEXT} bytes of text"
                        ),
                        syntax::location(self.text, &span.start),
                    ));
                }
                self.complete(
                    Cost {
                        decodes: 1 + cost.decodes,
                        ..cost
                    },
                    false,
                );
            }
            Event::UnresolvedAlias(name) => return Err(unknown_anchor(self.text, span, &name)),
            Event::DocumentEnd => return Ok(false),
            _ => {}
        }
        Ok(true)
    }

    fn open(&mut self, anchor: usize, map: bool, span: &Span) -> Result<(), Error> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(too_deep(self.text, span));
        }
        let merge_list = !map
            && self
                .stack
                .last()
                .is_some_and(|top| top.merging && top.at_key == Some(false));
        if !merge_list {
            self.count(1, 0, span)?;
        }
        if anchor != 0 {
            self.anchors.insert(anchor, None);
        }
        self.stack.push(Frame {
            anchor,
            cost: Cost {
                decodes: 1,
                text: 0,
                height: 1,
            },
            at_key: map.then_some(true),
            merging: false,
            merge_list,
        });
        Ok(())
    }

    fn define(&mut self, anchor: usize, cost: Cost) {
        if anchor != 0 {
            self.anchors.insert(anchor, Some(cost));
        }
    }

    /// A node is complete: it adds to its parent's cost.
    fn complete(&mut self, mut cost: Cost, merge_list: bool) {
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        if merge_list {
            cost.decodes = cost.decodes.saturating_sub(1);
        }
        top.cost.add(cost);
        if let Some(at_key) = top.at_key {
            if !at_key {
                top.merging = false;
            }
            top.at_key = Some(!at_key);
        }
    }

    fn count(&mut self, decodes: u64, aliases: u64, span: &Span) -> Result<(), Error> {
        if self.counts.excessive(decodes, aliases) {
            return Err(Error::new(
                ErrorKind::Limit,
                "document contains excessive aliasing",
                syntax::location(self.text, &span.start),
            ));
        }
        Ok(())
    }
}

/// The name in an alias token `*name`.
pub(super) fn alias_name<'t>(text: &'t str, span: &Span) -> &'t str {
    span.slice(text)
        .map_or("", |token| token.strip_prefix('*').unwrap_or(token))
}

pub(super) fn unknown_anchor(text: &str, span: &Span, name: &str) -> Error {
    Error::new(
        ErrorKind::Yaml,
        format!("found an alias to an unknown anchor `{name}`"),
        syntax::location(text, &span.start),
    )
}

pub(super) fn self_alias(text: &str, span: &Span, name: &str) -> Error {
    Error::new(
        ErrorKind::Yaml,
        format!("found an alias to anchor `{name}` inside the value it anchors"),
        syntax::location(text, &span.start),
    )
}

pub(super) fn too_deep(text: &str, span: &Span) -> Error {
    Error::new(
        ErrorKind::Limit,
        format!(
            "maps and lists nest deeper than {MAX_DEPTH} levels (smd's limit, not the API server's)"
        ),
        syntax::location(text, &span.start),
    )
}

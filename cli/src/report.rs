//! `smd diff -o json|yaml`: the library's [`smd::report::DiffReport`] filled from a run and
//! written as it goes — the head, each item as it is answered, then the unmatched live objects
//! and the summary — byte for byte the document serializing the whole report would give.

use smd::fieldpath::Value;
use smd::managedfields::ManagerId;
use smd::report::{
    DiffReport, Item, Manager, ObjectRef, Origin, Outcome, Refusal, Summary, Unmatched,
};

use super::batch::Bad;
use super::diff::DiffFormat;
use super::objects::{self, Identity};
use super::plan::{self, Refusal as Refused};

/// The report written piece by piece.
#[derive(Debug)]
pub(crate) struct Stream {
    format: DiffFormat,
    head: DiffReport,
    items: usize,
}

/// Where the items go in a report serialized with none.
const JSON_ITEMS: &str = "\"items\": []";
const YAML_ITEMS: &str = "items: []\n";

impl Stream {
    pub(crate) fn new(format: DiffFormat, request: &plan::Request<'_>) -> Stream {
        Stream {
            format,
            head: DiffReport {
                api_version: DiffReport::API_VERSION.to_owned(),
                kind: DiffReport::KIND.to_owned(),
                manager: request.manager.to_owned(),
                force: request.force,
                subresource: request.subresource.to_owned(),
                field_manager_only: request.field_manager_only,
                time: request.now.to_string(),
                items: Vec::new(),
                unmatched_live: Vec::new(),
                summary: Summary::default(),
            },
            items: 0,
        }
    }

    /// The report up to its first item (nothing for the text output).
    pub(crate) fn header(&self) -> String {
        match self.format {
            DiffFormat::Diff => String::new(),
            _ => {
                let whole = whole(self.format, &self.head);
                let marker = self.marker();
                whole
                    .find(marker)
                    .map_or(whole.as_str(), |at| &whole[..at])
                    .to_owned()
            }
        }
    }

    fn marker(&self) -> &'static str {
        match self.format {
            DiffFormat::Json => JSON_ITEMS,
            _ => YAML_ITEMS,
        }
    }

    /// An item's text ([`item_text`]) as it goes into the report.
    pub(crate) fn item(&mut self, text: &str) -> String {
        self.items += 1;
        let first = self.items == 1;
        match self.format {
            DiffFormat::Json => {
                let mut out = String::from(if first { "\"items\": [\n" } else { ",\n" });
                indent(&mut out, text.trim_end_matches('\n'), "    ", "    ");
                out
            }
            _ => {
                let mut out = String::from(if first { "items:\n" } else { "" });
                indent(&mut out, text, "- ", "  ");
                out
            }
        }
    }

    /// The rest of the report, after the last item.
    pub(crate) fn footer(&self, unmatched: Vec<Unmatched>, summary: Summary) -> String {
        let mut tail = self.head.clone();
        tail.unmatched_live = unmatched;
        tail.summary = summary;
        let whole = whole(self.format, &tail);
        let marker = self.marker();
        let Some(at) = whole.find(marker) else {
            return String::new();
        };
        let rest = &whole[at + marker.len()..];
        match (self.format, self.items) {
            (DiffFormat::Json, 0) => format!("{JSON_ITEMS}{rest}"),
            (DiffFormat::Json, _) => format!("\n  ]{rest}"),
            (_, 0) => format!("{YAML_ITEMS}{rest}"),
            _ => rest.to_owned(),
        }
    }
}

/// `text`'s lines, the first after `first`, the others after `rest` (empty lines left empty, as
/// the serializers write them).
fn indent(out: &mut String, text: &str, first: &str, rest: &str) {
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line != "\n" {
            out.push_str(if i == 0 { first } else { rest });
        }
        out.push_str(line);
    }
}

/// The whole report in `format`.
fn whole(format: DiffFormat, report: &DiffReport) -> String {
    let json = serde_json::to_value(report).unwrap_or_default();
    match format {
        DiffFormat::Json => {
            let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
            text.push('\n');
            text
        }
        _ => smd::fieldpath::yaml::to_string(&Value::from(json)),
    }
}

/// One item on its own, in `format` (what [`Stream::item`] takes).
pub(crate) fn item_text(format: DiffFormat, item: &Item) -> String {
    let json = serde_json::to_value(item).unwrap_or_default();
    match format {
        DiffFormat::Json => serde_json::to_string_pretty(&json).unwrap_or_default(),
        _ => smd::fieldpath::yaml::to_string(&Value::from(json)),
    }
}

pub(crate) fn object_ref(api_version: &str, identity: &Identity) -> ObjectRef {
    ObjectRef {
        api_version: api_version.to_owned(),
        kind: identity.kind.clone(),
        namespace: identity.namespace.clone(),
        name: identity.name.clone(),
    }
}

pub(crate) fn origin_ref(origin: &objects::Origin) -> Origin {
    Origin {
        file: origin.file.clone(),
        document: origin.document,
        line: origin.line,
        item: origin.item,
        text: origin.to_string(),
    }
}

pub(crate) fn manager(id: &ManagerId) -> Manager {
    Manager {
        manager: id.manager.clone(),
        operation: id.operation.to_string(),
        api_version: id.api_version.clone(),
        subresource: id.subresource.clone(),
    }
}

fn empty_item(outcome: Outcome, applied: Origin) -> Item {
    Item {
        object: None,
        outcome,
        applied,
        live: None,
        operation: String::new(),
        changed: false,
        refusal: None,
        error: None,
        diff: None,
        result: None,
        set_by_server: Vec::new(),
        managers: Vec::new(),
        removed: Vec::new(),
        removed_co_owned: Vec::new(),
        ignored: Vec::new(),
        kept: Vec::new(),
        conflicts: Vec::new(),
    }
}

/// The item of a document that was not sent.
pub(crate) fn bad_item(bad: &Bad, outcome: Outcome) -> Item {
    let applied = bad.origin.as_ref().map_or_else(
        || Origin {
            file: String::new(),
            document: 0,
            line: 0,
            item: None,
            text: String::new(),
        },
        origin_ref,
    );
    let mut item = empty_item(outcome, applied);
    item.object = bad.object.as_ref().map(|o| {
        let identity = o.identity();
        object_ref(o.text(&["apiVersion"]), &identity)
    });
    match bad.status {
        Some((code, reason)) => {
            item.refusal = Some(Refusal {
                code,
                reason: reason.to_owned(),
                message: bad.message.clone(),
            })
        }
        None => item.error = Some(bad.message.clone()),
    }
    item
}

/// The item of an apply refused otherwise than for conflicts: the server's Status.
pub(crate) fn refused_item(outcome: &plan::Outcome) -> Item {
    let pair = &outcome.pair;
    let mut item = empty_item(Outcome::Refused, origin_ref(&pair.applied.origin));
    item.object = Some(object_ref(
        pair.applied.text(&["apiVersion"]),
        &pair.identity,
    ));
    item.live = pair.live.as_ref().map(|l| origin_ref(&l.origin));
    item.operation = if pair.live.is_some() {
        "update"
    } else {
        "create"
    }
    .to_owned();
    item.refusal = Some(match &outcome.result {
        Err(Refused::Server(e)) => Refusal {
            code: e.code(),
            reason: e.reason().unwrap_or("InternalError").to_owned(),
            message: e.to_string(),
        },
        Err(Refused::Status(r)) => Refusal {
            code: r.code,
            reason: r.reason().unwrap_or_default().to_owned(),
            message: r.message().unwrap_or_default().to_owned(),
        },
        Err(Refused::Unserved(message)) => Refusal {
            code: 0,
            reason: String::new(),
            message: message.clone(),
        },
        Ok(_) => Refusal {
            code: 0,
            reason: String::new(),
            message: String::new(),
        },
    });
    item
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, outcome: Outcome) -> Item {
        let mut item = empty_item(
            outcome,
            Origin {
                file: "a.yaml".to_owned(),
                document: 2,
                line: 7,
                item: Some(1),
                text: "a.yaml: document 2 (line 7), item 1".to_owned(),
            },
        );
        item.object = Some(ObjectRef {
            api_version: "v1".to_owned(),
            kind: "ConfigMap".to_owned(),
            namespace: String::new(),
            name: name.to_owned(),
        });
        item.diff = Some("--- live\n+++ merged\n@@ -1 +1 @@\n-a: \"\"\n\n+a: -c\n".to_owned());
        item.result = Some(serde_json::json!({"data": {"": "", "k": [], "m": {}}}));
        item.removed = vec![".data.x".to_owned()];
        item
    }

    /// Written piece by piece, the report is what serializing it whole gives, for any number
    /// of items.
    #[test]
    fn a_report_streams_as_it_serializes() {
        let request = plan::Request {
            manager: "kubectl",
            force: false,
            subresource: "",
            now: smd::managedfields::Timestamp::parse("2026-06-01T12:00:00Z").unwrap(),
            jobs: 1,
            preview_forced: true,
            validation: objects::Validation::Strict,
            field_manager_only: false,
        };
        let items = [
            item("a", Outcome::Change),
            item("b", Outcome::BadInput),
            item("c", Outcome::Unchanged),
        ];
        for format in [DiffFormat::Json, DiffFormat::Yaml] {
            for n in 0..=items.len() {
                let mut stream = Stream::new(format, &request);
                let mut summary = Summary::default();
                let mut streamed = stream.header();
                for i in &items[..n] {
                    summary.count(i.outcome);
                    streamed.push_str(&stream.item(&item_text(format, i)));
                }
                let unmatched = vec![Unmatched {
                    object: items[0].object.clone().unwrap(),
                    origin: items[0].applied.clone(),
                }];
                streamed.push_str(&stream.footer(unmatched.clone(), summary.clone()));
                let mut report = stream.head.clone();
                report.items = items[..n].to_vec();
                report.unmatched_live = unmatched;
                report.summary = summary;
                assert_eq!(streamed, whole(format, &report), "{format:?}, {n} items");
                if format == DiffFormat::Json {
                    let back: DiffReport = serde_json::from_str(&streamed).unwrap();
                    assert_eq!(back, report);
                }
            }
        }
    }
}

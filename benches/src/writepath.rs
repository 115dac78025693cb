//! The inputs and the work of the `writepath/*` benchmarks: the operations of the
//! `fieldmanager/*` suite as whole requests to smd's in-memory API server
//! ([`smd::apiserver::ApiServer`]): the body's bytes read, the request routed, the object
//! decoded, defaulted and validated, admitted, the field manager run, the result stored and
//! answered. No Go twin (Go's API server does not run without etcd); `benches/compare --suite
//! writepath` reports each as a multiple of its object's floor ([`crate::floor`]).
//!
//! Per object of `data/fieldmanager` ([`crate::fieldmanager::Object`]), before any timing: a
//! server with the kind's endpoint built and no object (`empty`), and a server holding the
//! stored object (`stored`): kubectl's create by apply (201), then the controller's first
//! update (200): a PUT of the stored object with the first patch, to the status subresource
//! for a Deployment or a Pod, to the object for a ConfigMap. Then per iteration, on a fresh
//! copy of the server made outside the measurement (a request may write into its store):
//!
//! * `apply-create`: kubectl applies the manifest to `empty` (201);
//! * `apply-noop`: kubectl applies the same manifest to `stored` (200, the stored object
//!   unchanged and answered);
//! * `apply-change`: kubectl applies the changed manifest to `stored` (200, a new revision);
//! * `apply-conflict`: `gitops` applies the changed manifest, not forced (409);
//! * `update`: the controller's second update, a PUT of the stored object with the second
//!   patch (200).
//!
//! The bodies are JSON written once (an apply's as kubectl sends it, JSON under the apply-patch
//! content type); the response is dropped inside the measurement. [`WritePathData::load`]
//! checks every operation's answer once, so the timed loop only times.

use crate::RefVisitor;
use crate::fieldmanager::{
    APPLIER, CONFLICTER, CONTROLLED, CREATED, FieldManagerData, NOW, Object, merge_patch,
};
use smd::apiserver::{APPLY_PATCH, ApiServer, ObjectKey, Request, Response};
use smd::fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

/// The operations, in benchmark order.
pub const OPS: [&str; 5] = [
    "apply-create",
    "apply-noop",
    "apply-change",
    "apply-conflict",
    "update",
];

/// One object's servers and requests.
#[derive(Debug)]
pub struct Case {
    /// The benchmark name of the object (`Deployment`, `ConfigMap-1000`, …).
    pub name: String,
    /// The kind's endpoint built, no object.
    empty: ApiServer,
    /// The object created by kubectl's apply and updated once by the controller.
    stored: ApiServer,
    key: ObjectKey,
    apply: Request,
    change: Request,
    conflict: Request,
    update: Request,
}

/// Reads `path` of `v` as a string, or `""`.
fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for key in path {
        match cur.as_map().and_then(|m| m.get(key)) {
            Some(next) => cur = next,
            None => return "",
        }
    }
    cur.as_str().unwrap_or("")
}

fn json(v: &Value, what: &str) -> Result<String, String> {
    v.to_json().map_err(|e| format!("{what}: {e}"))
}

fn apply_request(path: &str, manager: &str, body: String) -> Request {
    Request::new("PATCH", path)
        .with_query("fieldManager", manager)
        .with_body(APPLY_PATCH, body)
}

fn expect(what: &str, got: &Response, code: u16) -> Result<(), String> {
    if got.code == code {
        Ok(())
    } else {
        Err(format!(
            "{what}: status {}, want {code}: {:?}",
            got.code,
            got.message()
        ))
    }
}

impl Case {
    /// Prepares the servers and the requests of `object` and checks every operation's answer.
    pub fn new(object: &Object) -> Result<Case, String> {
        let name = &object.name;
        let manifest = object.manifest();
        let gvk = GroupVersionKind::from_api_version(
            str_at(manifest, &["apiVersion"]),
            str_at(manifest, &["kind"]),
        );
        let mut empty = ApiServer::new();
        let resource = empty
            .resource_of_kind(&gvk)
            .cloned()
            .ok_or_else(|| format!("{name}: no resource of {gvk:?}"))?;
        // Built once here, shared by every copy of the server.
        empty
            .endpoint(&resource)
            .ok_or_else(|| format!("{name}: no endpoint"))?;
        let path = ApiServer::object_path(
            &resource,
            str_at(manifest, &["metadata", "namespace"]),
            str_at(manifest, &["metadata", "name"]),
        );
        let key = empty
            .key_of(&path)
            .ok_or_else(|| format!("{name}: no key for {path}"))?;
        let apply = apply_request(&path, APPLIER, json(manifest, name)?);
        let changed = json(object.changed(), name)?;
        let change = apply_request(&path, APPLIER, changed.clone());
        let conflict = apply_request(&path, CONFLICTER, changed);

        let mut stored = empty.clone();
        expect(
            &format!("{name}: create by apply"),
            &stored.handle_at(&apply, CREATED),
            201,
        )?;
        let controller_path = match object.subresource() {
            "" => path.clone(),
            sub => format!("{path}/{sub}"),
        };
        let put = |server: &ApiServer, patch| -> Result<Request, String> {
            let mut new = server
                .object(&key)
                .cloned()
                .ok_or_else(|| format!("{name}: not stored"))?;
            merge_patch(&mut new, patch);
            Ok(Request::new("PUT", &controller_path)
                .with_query("fieldManager", object.controller())
                .with_body("application/json", json(&new, name)?))
        };
        let [first, second] = object.patches();
        let first = put(&stored, first)?;
        expect(
            &format!("{name}: the controller's first update"),
            &stored.handle_at(&first, CONTROLLED),
            200,
        )?;
        let update = put(&stored, second)?;
        let case = Case {
            name: name.clone(),
            empty,
            stored,
            key,
            apply,
            change,
            conflict,
            update,
        };
        case.check()?;
        Ok(case)
    }

    /// The server an operation starts from and its request.
    fn op(&self, op: &str) -> Option<(&ApiServer, &Request)> {
        Some(match op {
            "apply-create" => (&self.empty, &self.apply),
            "apply-noop" => (&self.stored, &self.apply),
            "apply-change" => (&self.stored, &self.change),
            "apply-conflict" => (&self.stored, &self.conflict),
            "update" => (&self.stored, &self.update),
            _ => return None,
        })
    }

    /// One call of `op` on a fresh copy of its server: the answer and the server after it.
    pub fn run(&self, op: &str) -> Option<(Response, ApiServer)> {
        let (server, request) = self.op(op)?;
        let mut server = server.clone();
        let response = server.handle_at(request, NOW);
        Some((response, server))
    }

    /// Checks that each operation is what its name says.
    fn check(&self) -> Result<(), String> {
        let name = &self.name;
        let stored = self
            .stored
            .object(&self.key)
            .ok_or_else(|| format!("{name}: not stored"))?;
        let revision = |v: &Value| str_at(v, &["metadata", "resourceVersion"]).to_owned();
        for op in OPS {
            let what = format!("writepath/{name}/{op}");
            let (response, after) = self.run(op).ok_or_else(|| format!("{what}: no such op"))?;
            let code = match op {
                "apply-create" => 201,
                "apply-conflict" => 409,
                _ => 200,
            };
            expect(&what, &response, code)?;
            let now = after.object(&self.key);
            match op {
                "apply-noop" | "apply-conflict" => {
                    if now != Some(stored) || after.revision() != self.stored.revision() {
                        return Err(format!("{what}: the stored object changed"));
                    }
                    if op == "apply-noop" && &response.body != stored {
                        return Err(format!("{what}: the answer is not the stored object"));
                    }
                }
                "apply-change" | "update" => {
                    let now = now.ok_or_else(|| format!("{what}: not stored"))?;
                    if revision(now) == revision(stored) || &response.body != now {
                        return Err(format!("{what}: no new revision answered"));
                    }
                }
                _ => {
                    if now != Some(&response.body) {
                        return Err(format!("{what}: the answer is not what is stored"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The stored object (as the server holds it after the controller's first update).
    pub fn stored(&self) -> Option<&Value> {
        self.stored.object(&self.key)
    }
}

/// Stops the benchmark when an operation is not known (the names come from [`OPS`]).
#[allow(
    clippy::panic,
    reason = "a benchmark's work: a wrong outcome must stop it"
)]
fn request<'a>(case: &'a Case, op: &str) -> (&'a ApiServer, &'a Request) {
    case.op(op)
        .unwrap_or_else(|| panic!("writepath/{}/{op}: no such op", case.name))
}

/// The inputs of the `writepath/*` benchmarks.
#[derive(Debug)]
pub struct WritePathData {
    /// The objects, in `objects.json`'s order.
    pub cases: Vec<Case>,
}

impl WritePathData {
    /// Prepares every object of `data` and checks its operations.
    pub fn from_fieldmanager(data: &FieldManagerData) -> Result<WritePathData, String> {
        let cases = data
            .objects
            .iter()
            .map(Case::new)
            .collect::<Result<_, _>>()?;
        Ok(WritePathData { cases })
    }

    /// Reads the `fieldmanager/*` objects, prepares and checks them.
    pub fn load() -> Result<WritePathData, String> {
        WritePathData::from_fieldmanager(&FieldManagerData::load()?)
    }

    /// Runs every benchmark's work (`<Obj>/<op>`) through `visitor`.
    pub fn visit_ops(&self, visitor: &mut impl RefVisitor) {
        for case in &self.cases {
            for op in OPS {
                let (server, req) = request(case, op);
                visitor.op(
                    &format!("{}/{op}", case.name),
                    || server.clone(),
                    |s| s.handle_at(req, NOW),
                );
            }
        }
    }
}

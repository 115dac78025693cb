//! The inputs and the per-iteration work of the `fieldmanager/*` benchmarks: the API server's
//! field manager ([`smd::managedfields::FieldManager`], built as
//! [`FieldManager::kubernetes`] builds a built-in endpoint's) on whole Kubernetes objects,
//! shared by the criterion benchmark (`benches/fieldmanager.rs`) and the allocation counter
//! (`benches/fieldmanager_allocs.rs`), and the same work as the Go twin `BenchmarkFieldManager`
//! (`go/fieldmanager_test.go`: `managedfields.NewDefaultFieldManager` of
//! `k8s.io/apimachinery` v0.37.2 on `*unstructured.Unstructured`, typed by
//! `managedfields.NewTypeConverter` over the Kubernetes 1.37 OpenAPI v3 documents, the schema
//! smd embeds).
//!
//! The objects are the files of `data/fieldmanager` (written by `go test -run
//! TestFieldManagerData -update-fieldmanager-data`): `objects.json` names them in order; each
//! `<name>.json` holds the manifest kubectl applies, the changed manifest (an image bump, a
//! ConfigMap value), and two JSON merge patches that make a controller's updates (Deployment
//! and Pod: the status, through the status subresource; ConfigMap: an annotation, through the
//! main resource).
//!
//! Before any timing, each object is read into a [`Value`] (Go: an `Unstructured`), and the
//! stored object is made by the field manager itself: kubectl's create by apply, then the
//! controller's first update. Then per object:
//!
//! * `apply-create`: kubectl applies the manifest to the new, empty object;
//! * `apply-noop`: kubectl applies the same manifest to the stored object;
//! * `apply-change`: kubectl applies the changed manifest to the stored object;
//! * `apply-conflict`: `gitops` applies the changed manifest, not forced: the conflict error;
//! * `update`: the controller's second update of the stored object. Its new object is a fresh
//!   copy made outside the measurement on both sides (the API server decodes one per request;
//!   the field manager writes into it).
//!
//! Every call decodes the live object's managedFields, types both objects, merges and encodes
//! the managedFields, as Go's does. Times: Rust stamps a fixed [`Timestamp`] (Go reads its
//! clock). Both sides reach the same results: `data/fieldmanager-state.txt`, written by Go's
//! `TestFieldManagerState`, checked by `tests/fieldmanager.rs`.

use smd::fieldpath::{Map, Value};
use smd::managedfields::{Error, FieldManager, Timestamp};
use smd_schema::gvk::GroupVersionKind;
use std::path::PathBuf;

/// The directory of the objects.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/fieldmanager")
}

/// The file of every benchmark's result as Go reaches it (`go/fieldmanager_test.go` writes it).
pub fn state_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/fieldmanager-state.txt")
}

/// Who applies the manifest.
pub const APPLIER: &str = "kubectl";
/// Who applies the changed manifest without force, and conflicts with [`APPLIER`].
pub const CONFLICTER: &str = "gitops";

/// kubectl's create by apply (2026-12-03T00:00:00Z).
pub const CREATED: Timestamp = Timestamp::from_unix(1_796_256_000);
/// The controller's first update.
pub const CONTROLLED: Timestamp = Timestamp::from_unix(1_796_256_060);
/// Every measured call.
pub const NOW: Timestamp = Timestamp::from_unix(1_796_256_120);

/// Something that measures each operation of [`FieldManagerData::visit_ops`].
pub trait FmVisitor {
    /// Measures `work`, one call per iteration, each on an input `setup` makes outside the
    /// measurement; `name` is `<object>/<operation>`.
    fn op<I, R>(&mut self, name: &str, setup: impl FnMut() -> I, work: impl FnMut(I) -> R);
}

/// One object of the suite, read and prepared.
#[derive(Debug)]
pub struct Object {
    /// The benchmark name of the object (`Deployment`, `ConfigMap-1000`, …).
    pub name: String,
    main: FieldManager,
    /// Where the controller writes: the status subresource's field manager, or `None` for the
    /// main resource's.
    status: Option<FieldManager>,
    controller: String,
    empty: Value,
    manifest: Value,
    changed: Value,
    /// The controller's two JSON merge patches, in order.
    patches: [Map; 2],
    /// The controller's subresource (`status`), or `""` for the main resource.
    subresource: String,
    /// After kubectl's create by apply and the controller's first update.
    stored: Value,
    /// The controller's second update: `stored` with the second patch.
    controller_new: Value,
}

fn field<'a>(map: &'a Map, key: &str, what: &str) -> Result<&'a Value, String> {
    map.get(key).ok_or_else(|| format!("{what}: no {key:?}"))
}

fn str_field<'a>(map: &'a Map, key: &str, what: &str) -> Result<&'a str, String> {
    field(map, key, what)?
        .as_str()
        .ok_or_else(|| format!("{what}: {key:?} is not a string"))
}

/// A JSON merge patch (RFC 7386) applied to `dst`: maps merge, null deletes, anything else
/// replaces.
pub fn merge_patch(dst: &mut Value, patch: &Map) {
    if !matches!(dst, Value::Map(_)) {
        *dst = Value::Map(Map::new());
    }
    let Some(map) = dst.as_map_mut() else {
        return;
    };
    for (k, v) in patch.iter() {
        match v {
            Value::Null => {
                map.remove(k);
            }
            Value::Map(p) => {
                if map.get(k).is_none() {
                    map.insert(k, Value::Map(Map::new()));
                }
                if let Some(d) = map.get_mut(k) {
                    merge_patch(d, p);
                }
            }
            other => {
                map.insert(k, deep_copy(other));
            }
        }
    }
}

/// A copy sharing nothing with `v` (a [`Value`]'s clone shares its maps until one is changed):
/// what the API server has after decoding a request.
pub fn deep_copy(v: &Value) -> Value {
    match v {
        Value::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (k.to_owned(), deep_copy(v)))
                .collect(),
        ),
        Value::List(items) => Value::List(items.iter().map(deep_copy).collect()),
        other => other.clone(),
    }
}

fn read_json(path: &std::path::Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Value::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

impl Object {
    /// Reads `<name>.json` and makes the stored object.
    pub fn load(name: &str) -> Result<Object, String> {
        let path = data_dir().join(format!("{name}.json"));
        let file = read_json(&path)?;
        let what = path.display().to_string();
        let file = file
            .as_map()
            .ok_or_else(|| format!("{what}: not an object"))?;
        let ctl = field(file, "controller", &what)?
            .as_map()
            .ok_or_else(|| format!("{what}: controller is not an object"))?;
        let manifest = field(file, "manifest", &what)?.clone();
        let changed = field(file, "changed", &what)?.clone();
        let patches: Vec<&Map> = field(file, "controllerPatches", &what)?
            .as_list()
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_map)
            .collect();
        let [first, second] = patches[..] else {
            return Err(format!("{what}: want 2 controller patches"));
        };
        let m = manifest
            .as_map()
            .ok_or_else(|| format!("{what}: manifest is not an object"))?;
        let gvk = GroupVersionKind::from_api_version(
            str_field(m, "apiVersion", &what)?,
            str_field(m, "kind", &what)?,
        );
        let main = FieldManager::kubernetes(gvk.clone(), "");
        let subresource = str_field(ctl, "subresource", &what)?;
        let status = (!subresource.is_empty()).then(|| FieldManager::kubernetes(gvk, subresource));
        let controller = str_field(ctl, "manager", &what)?.to_owned();
        let empty = main.new_object();
        let created = main
            .apply(&empty, &manifest, APPLIER, false, CREATED)
            .map_err(|e| format!("{name}: create by apply: {e}"))?;
        let mut first_new = deep_copy(&created);
        merge_patch(&mut first_new, first);
        let stored = status
            .as_ref()
            .unwrap_or(&main)
            .update(&created, first_new, &controller, CONTROLLED)
            .map_err(|e| format!("{name}: the controller's first update: {e}"))?;
        let mut controller_new = deep_copy(&stored);
        merge_patch(&mut controller_new, second);
        let patches = [first.clone(), second.clone()];
        let subresource = subresource.to_owned();
        Ok(Object {
            name: name.to_owned(),
            main,
            status,
            controller,
            empty,
            manifest,
            changed,
            patches,
            subresource,
            stored,
            controller_new,
        })
    }

    /// The manifest kubectl applies.
    pub fn manifest(&self) -> &Value {
        &self.manifest
    }

    /// The changed manifest (`apply-change`, `apply-conflict`).
    pub fn changed(&self) -> &Value {
        &self.changed
    }

    /// The object the applies and the update run against: kubectl's create by apply, then the
    /// controller's first update (with managedFields).
    pub fn stored(&self) -> &Value {
        &self.stored
    }

    /// The controller's manager name.
    pub fn controller(&self) -> &str {
        &self.controller
    }

    /// The subresource the controller writes (`status`), or `""` for the main resource.
    pub fn subresource(&self) -> &str {
        &self.subresource
    }

    /// The controller's JSON merge patches: the first makes the stored object, the second the
    /// `update`.
    pub fn patches(&self) -> &[Map; 2] {
        &self.patches
    }

    fn controller_manager(&self) -> &FieldManager {
        self.status.as_ref().unwrap_or(&self.main)
    }

    /// `apply-create`.
    pub fn apply_create(&self) -> Result<Value, Error> {
        self.main
            .apply(&self.empty, &self.manifest, APPLIER, false, NOW)
    }

    /// `apply-noop`.
    pub fn apply_noop(&self) -> Result<Value, Error> {
        self.main
            .apply(&self.stored, &self.manifest, APPLIER, false, NOW)
    }

    /// `apply-change`.
    pub fn apply_change(&self) -> Result<Value, Error> {
        self.main
            .apply(&self.stored, &self.changed, APPLIER, false, NOW)
    }

    /// `apply-conflict` (an error).
    pub fn apply_conflict(&self) -> Result<Value, Error> {
        self.main
            .apply(&self.stored, &self.changed, CONFLICTER, false, NOW)
    }

    /// The input of `update`: a fresh copy of the controller's new object.
    pub fn update_input(&self) -> Value {
        deep_copy(&self.controller_new)
    }

    /// `update`, on an input of [`Object::update_input`].
    pub fn update(&self, new: Value) -> Result<Value, Error> {
        self.controller_manager()
            .update(&self.stored, new, &self.controller, NOW)
    }

    /// The operations, in benchmark order: name, whether it must fail, and the result of one
    /// call (for checks).
    pub fn results(&self) -> Vec<(&'static str, bool, Result<Value, Error>)> {
        vec![
            ("apply-create", false, self.apply_create()),
            ("apply-noop", false, self.apply_noop()),
            ("apply-change", false, self.apply_change()),
            ("apply-conflict", true, self.apply_conflict()),
            ("update", false, self.update(self.update_input())),
        ]
    }
}

/// Stops the benchmark when a call does not end as it must (as the Go twin's `b.Fatal`).
#[allow(
    clippy::panic,
    reason = "a benchmark's work: a wrong outcome must stop it"
)]
fn check(name: &str, want_err: bool, r: Result<Value, Error>) -> Result<Value, Error> {
    match (&r, want_err) {
        (Ok(_), true) => panic!("{name}: no error, want a conflict"),
        (Err(e), false) => panic!("{name}: {e}"),
        _ => r,
    }
}

/// The inputs of the `fieldmanager/*` benchmarks.
#[derive(Debug)]
pub struct FieldManagerData {
    /// The objects, in `objects.json`'s order.
    pub objects: Vec<Object>,
}

impl FieldManagerData {
    /// Reads every object and makes its stored object.
    pub fn load() -> Result<FieldManagerData, String> {
        let index = read_json(&data_dir().join("objects.json"))?;
        let names = index
            .as_list()
            .ok_or("objects.json: not a list")?
            .iter()
            .map(|v| v.as_str().ok_or("objects.json: a name is not a string"))
            .collect::<Result<Vec<_>, _>>()?;
        let objects = names
            .into_iter()
            .map(Object::load)
            .collect::<Result<_, _>>()?;
        Ok(FieldManagerData { objects })
    }

    /// Runs every benchmark's work through `visitor`, in Go's order.
    pub fn visit_ops(&self, visitor: &mut impl FmVisitor) {
        for o in &self.objects {
            let n = &o.name;
            let name = |op: &str| format!("{n}/{op}");
            visitor.op(
                &name("apply-create"),
                || (),
                |()| check("apply-create", false, o.apply_create()),
            );
            visitor.op(
                &name("apply-noop"),
                || (),
                |()| check("apply-noop", false, o.apply_noop()),
            );
            visitor.op(
                &name("apply-change"),
                || (),
                |()| check("apply-change", false, o.apply_change()),
            );
            visitor.op(
                &name("apply-conflict"),
                || (),
                |()| check("apply-conflict", true, o.apply_conflict()),
            );
            visitor.op(
                &name("update"),
                || o.update_input(),
                |new| check("update", false, o.update(new)),
            );
        }
    }

    /// Each benchmark's result as Go's `fmDigest` writes it: the object as canonical JSON (keys
    /// sorted, every managedFields time `T`), its length and FNV-1a 64; or the error's text.
    pub fn digests(&self) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for o in &self.objects {
            for (op, want_err, result) in o.results() {
                let name = format!("{}/{op}", o.name);
                match result {
                    Err(e) if want_err => {
                        out.push(format!(
                            "{name} error {}",
                            e.to_string().replace('\n', "\\n")
                        ));
                    }
                    Err(e) => return Err(format!("{name}: {e}")),
                    Ok(_) if want_err => return Err(format!("{name}: no error")),
                    Ok(v) => {
                        let text = canonical_json(&v).map_err(|e| format!("{name}: {e}"))?;
                        out.push(format!(
                            "{name} {} {:016x}",
                            text.len(),
                            crate::operations::fnv1a64(text.as_bytes())
                        ));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// `v` with every map's keys sorted and every managedFields entry's time `T`, as JSON (Go's
/// `encoding/json` with HTML escaping off writes the same bytes for these objects: no floats).
pub fn canonical_json(v: &Value) -> Result<String, String> {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Map(m) => {
                let mut m: Map = m.iter().map(|(k, v)| (k.to_owned(), sorted(v))).collect();
                m.sort_keys();
                Value::Map(m)
            }
            Value::List(items) => Value::List(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let mut v = sorted(v);
    if let Some(Value::List(entries)) = v
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("managedFields"))
    {
        for e in entries.iter_mut().filter_map(Value::as_map_mut) {
            if e.contains_key("time") {
                e.insert("time", Value::from("T"));
            }
        }
    }
    serde_json::to_string(&v).map_err(|e| e.to_string())
}

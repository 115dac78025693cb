//! The inputs and the per-iteration work of the `operations/*` benchmarks: end-to-end applies
//! and updates through [`smd::merge::Updater`], shared by the criterion benchmark
//! (`benches/operations.rs`) and the allocation counter (`benches/operations_allocs.rs`), and
//! the same work as the Go twins in `go/operations_test.go`.
//!
//! Go's merge benchmarks time upstream's test fixture (`internal/fixture`, `TestCase.Bench`):
//! operations parsed beforehand, then per iteration a new updater, an empty state whose live
//! object is the typed null (`FromUnstructured(nil)`), and each operation in turn — the live
//! object converted to the operation's version, then `Update` (the new object becomes the live
//! one) or `Apply` (its object, unless a no-op's `nil`, becomes the live one; an apply that
//! expects conflicts must get exactly those). [`Flow::run`] is that iteration.
//!
//! * `<Obj>/<Op>`: upstream `BenchmarkOperations` (`merge/real_test.go`), Obj ∈ Pod, Node,
//!   Endpoints, Node100%override, Node10%override, Endpoints100%override, Endpoints10%override,
//!   PrometheusCRD, apiresourceimport (a schema of `internal/testdata` and an object there),
//!   Op ∈ Create, Apply, ApplyTwice, ApplyTwiceNoCompare, Update, UpdateVersion ([`REAL_OPS`]).
//! * `DeducedSimple`, `DeducedNested`, `DeducedNestedAcrossVersion`,
//!   `LeafConflictAcrossVersion`, `MultipleApplierRecursiveRealConversion`: the upstream
//!   benchmarks of those names (without `Benchmark`), schemas and operations copied into
//!   `data/operations.yaml`; the last one with upstream's `repeatingConverter` ([`Repeating`]).
//! * `ConvertUnstructured/<Obj>/From`: upstream `typed/parser_test.go`'s — validation of an
//!   object read beforehand ([`TypedValue::validate`], Go's `FromUnstructured`).
//! * `Scaling/<Obj>-<n>/<Op>`: Apply and ApplyTwice of generated objects with n = 100, 1000,
//!   10000 items ([`endpoints_with_addresses`], [`pod_with_containers`]).
//!
//! The inputs of `internal/testdata` are read from the Go module cache, never copied here.

use crate::OpVisitor;
use crate::schema::{SMD_MODULE, go_module_dir};
use smd::fieldpath::{ManagedFields, Path, PathElement, Value, yaml};
use smd::merge::{Conflict, ConversionError, Converter, Error, Identity, Updater};
use smd::typed::{DEDUCED_TYPE, TypedValue, deduced_schema};
use smd_schema::{Schema, TypeRef};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// The file of the small upstream merge benchmarks' schemas and operations.
pub fn fixture_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/operations.yaml")
}

/// The file of every flow's final state as Go reaches it (`go/operations_test.go` writes it).
pub fn state_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/operations-state.txt")
}

/// What an operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// `Updater::update` (create, update, patch).
    Update,
    /// `Updater::apply`, not forced.
    Apply,
    /// `Updater::apply`, forced.
    ForceApply,
}

/// One operation, its object typed beforehand.
#[derive(Debug)]
pub struct Op {
    kind: OpKind,
    manager: String,
    version: String,
    object: TypedValue,
    /// The conflicts an apply expects (`None`: it must succeed).
    conflicts: Option<Vec<Conflict>>,
}

/// A type of a schema: what every version of a flow's objects is typed as (Go's
/// `SameVersionParser`).
#[derive(Debug, Clone)]
pub struct Type {
    schema: Arc<Schema>,
    type_ref: TypeRef,
}

impl Type {
    /// Type `name` of `schema`.
    pub fn new(schema: &Arc<Schema>, name: &str) -> Type {
        Type {
            schema: schema.clone(),
            type_ref: schema.type_ref(name),
        }
    }

    /// The deduced type (Go's `DeducedParseableType`).
    pub fn deduced() -> Type {
        Type::new(&deduced_schema(), DEDUCED_TYPE)
    }

    /// `value` typed and validated (Go's `FromYAML` after the YAML, `FromUnstructured`).
    pub fn typed(&self, value: Value, allow_duplicates: bool) -> Result<TypedValue, String> {
        TypedValue::new(
            value,
            self.schema.clone(),
            self.type_ref.clone(),
            allow_duplicates,
        )
        .map_err(|e| e.to_string())
    }

    /// YAML `text` read (yaml.v2's reading in Go) and typed.
    pub fn from_yaml(&self, text: &str, allow_duplicates: bool) -> Result<TypedValue, String> {
        let value = yaml::from_str(text).map_err(|e| e.to_string())?;
        self.typed(value, allow_duplicates)
    }
}

/// Which converter a flow's updater has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConverterKind {
    /// [`Identity`]: the fixture's `dummyConverter`.
    Identity,
    /// [`Repeating`].
    Repeating,
}

/// Upstream's `repeatingConverter` (`merge/multiple_appliers_test.go`): an object at version
/// `v<n>` is the object written as YAML (yaml.v2's `Marshal`), each line below the first
/// replaced by its indentation, its first character repeated n times and a colon, and read
/// back (`FromYAML`). Only what its benchmark meets is written: maps whose keys are
/// ASCII letters (not a YAML 1.1 boolean or null word) and values that are maps or null; anything else is a conversion error. Other
/// versions are missing.
#[derive(Debug, Clone)]
pub struct Repeating {
    typ: Type,
}

impl Repeating {
    /// A converter reading objects back as `typ`.
    pub fn new(typ: Type) -> Repeating {
        Repeating { typ }
    }
}

fn conversion_error(message: impl Into<String>) -> ConversionError {
    ConversionError {
        message: message.into(),
        missing_version: false,
    }
}

/// yaml.v2's `Marshal` of a value made of maps (letter keys, sorted) and nulls.
fn write_yaml(out: &mut String, v: &Value) -> Result<(), ConversionError> {
    fn entries(
        out: &mut String,
        m: &smd::fieldpath::Map,
        indent: usize,
    ) -> Result<(), ConversionError> {
        let mut keys: Vec<(&str, &Value)> = m.iter().collect();
        keys.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (k, v) in keys {
            // yaml.v2 quotes words that read as booleans or null in YAML 1.1, and anything
            // that is not plain.
            let reads_as_other = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"]
                .iter()
                .any(|w| k.eq_ignore_ascii_case(w));
            if k.is_empty() || reads_as_other || !k.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(conversion_error(format!(
                    "repeating converter: key {k:?} not supported"
                )));
            }
            for _ in 0..indent {
                out.push(' ');
            }
            out.push_str(k);
            match v {
                Value::Null => out.push_str(": null\n"),
                Value::Map(inner) if inner.is_empty() => out.push_str(": {}\n"),
                Value::Map(inner) => {
                    out.push_str(":\n");
                    entries(out, inner, indent + 2)?;
                }
                _ => return Err(conversion_error("repeating converter: only maps and nulls")),
            }
        }
        Ok(())
    }
    match v {
        Value::Null => out.push_str("null\n"),
        Value::Map(m) if m.is_empty() => out.push_str("{}\n"),
        Value::Map(m) => entries(out, m, 0)?,
        _ => return Err(conversion_error("repeating converter: only maps and nulls")),
    }
    Ok(())
}

impl Converter for Repeating {
    fn convert<'a>(
        &self,
        object: &'a TypedValue,
        version: &str,
    ) -> Result<Cow<'a, TypedValue>, ConversionError> {
        let missing = || ConversionError {
            message: "cannot convert to invalid version".to_owned(),
            missing_version: true,
        };
        let n: i64 = match version.strip_prefix('v') {
            Some(digits) if !digits.is_empty() => digits.parse().map_err(|_| missing())?,
            _ => return Err(missing()),
        };
        let n = usize::try_from(n).map_err(|_| missing())?;
        let mut y = String::new();
        write_yaml(&mut y, object.value())?;
        let mut out = String::new();
        for (i, line) in y.split('\n').enumerate() {
            if i == 0 {
                out.push_str(line);
                continue;
            }
            let spaces = line.len() - line.trim_start_matches(' ').len();
            if spaces == 0 {
                break;
            }
            let c = line
                .get(spaces..spaces + 1)
                .ok_or_else(|| conversion_error("repeating converter: not ASCII"))?;
            out.push('\n');
            out.push_str(&line[..spaces]);
            for _ in 0..n {
                out.push_str(c);
            }
            out.push(':');
        }
        self.typ
            .from_yaml(&out, false)
            .map(Cow::Owned)
            .map_err(conversion_error)
    }
}

/// A sequence of operations from an empty state: one iteration of upstream's
/// `TestCase.BenchWithConverter` with its operations preprocessed.
#[derive(Debug)]
pub struct Flow {
    typ: Type,
    converter: ConverterKind,
    return_input_on_noop: bool,
    ops: Vec<Op>,
}

/// The live object and the managers after a flow.
pub type FlowState<'a> = (Cow<'a, TypedValue>, ManagedFields);

impl Flow {
    /// Runs the operations from an empty state with a new updater.
    pub fn run(&self) -> Result<FlowState<'_>, String> {
        match self.converter {
            ConverterKind::Identity => self.run_with(
                Updater::new(Identity).with_return_input_on_noop(self.return_input_on_noop),
            ),
            ConverterKind::Repeating => self.run_with(
                Updater::new(Repeating::new(self.typ.clone()))
                    .with_return_input_on_noop(self.return_input_on_noop),
            ),
        }
    }

    fn run_with<C: Converter>(&self, updater: Updater<C>) -> Result<FlowState<'_>, String> {
        let mut live: Option<Cow<'_, TypedValue>> = None;
        let mut managers = ManagedFields::new();
        for (i, op) in self.ops.iter().enumerate() {
            let failed = |e: &dyn std::fmt::Display| format!("failed operation {i}: {e}");
            let current = match live.take() {
                Some(l) => l,
                // Go's `FromUnstructured(nil)`: the typed null, validated.
                None => Cow::Owned(
                    self.typ
                        .typed(Value::Null, false)
                        .map_err(|e| format!("failed to create new empty object: {e}"))?,
                ),
            };
            let converted = match updater.converter().convert(&current, &op.version) {
                Ok(Cow::Owned(c)) => Some(c),
                Ok(Cow::Borrowed(_)) => None,
                Err(e) => return Err(failed(&e)),
            };
            let current = match converted {
                Some(c) => Cow::Owned(c),
                None => current,
            };
            match op.kind {
                OpKind::Update => {
                    managers = updater
                        .update(&current, &op.object, &op.version, &managers, &op.manager)
                        .map_err(|e| failed(&e))?;
                    live = Some(Cow::Borrowed(&op.object));
                }
                OpKind::Apply | OpKind::ForceApply => {
                    let force = op.kind == OpKind::ForceApply;
                    match updater.apply(
                        &current,
                        &op.object,
                        &op.version,
                        &managers,
                        &op.manager,
                        force,
                    ) {
                        Err(Error::Conflicts(got)) if op.conflicts.is_some() => {
                            let want = op.conflicts.as_deref().unwrap_or_default();
                            if !same_conflicts(got.conflicts(), want) {
                                return Err(failed(&format!(
                                    "expected conflicts {want:?}, got {got}"
                                )));
                            }
                            live = Some(current);
                        }
                        Err(e) => return Err(failed(&e)),
                        Ok(_) if op.conflicts.is_some() => {
                            return Err(failed(&"expected conflicts, got none"));
                        }
                        Ok((new, m)) => {
                            managers = m;
                            live = Some(match new {
                                Some(n) => Cow::Owned(n),
                                None => current,
                            });
                        }
                    }
                }
            }
        }
        let live = match live {
            Some(l) => l,
            None => Cow::Owned(self.typ.typed(Value::Null, false)?),
        };
        Ok((live, managers))
    }
}

/// The fixture's check: no conflict added, none removed.
fn same_conflicts(a: &[Conflict], b: &[Conflict]) -> bool {
    a.iter().all(|c| b.contains(c)) && b.iter().all(|c| a.contains(c))
}

/// Upstream `BenchmarkOperations`' schema and object pairs: name, schema file, type, object
/// file (of `internal/testdata`).
pub const REAL_OBJECTS: [(&str, &str, &str, &str); 9] = [
    (
        "Pod",
        "k8s-schema.yaml",
        "io.k8s.api.core.v1.Pod",
        "pod.yaml",
    ),
    (
        "Node",
        "k8s-schema.yaml",
        "io.k8s.api.core.v1.Node",
        "node.yaml",
    ),
    (
        "Endpoints",
        "k8s-schema.yaml",
        "io.k8s.api.core.v1.Endpoints",
        "endpoints.yaml",
    ),
    (
        "Node100%override",
        "k8s-schema-100pct-fieldoverride.yaml",
        "io.k8s.api.core.v1.Node",
        "node.yaml",
    ),
    (
        "Node10%override",
        "k8s-schema-10pct-fieldoverride.yaml",
        "io.k8s.api.core.v1.Node",
        "node.yaml",
    ),
    (
        "Endpoints100%override",
        "k8s-schema-100pct-fieldoverride.yaml",
        "io.k8s.api.core.v1.Endpoints",
        "endpoints.yaml",
    ),
    (
        "Endpoints10%override",
        "k8s-schema-10pct-fieldoverride.yaml",
        "io.k8s.api.core.v1.Endpoints",
        "endpoints.yaml",
    ),
    (
        "PrometheusCRD",
        "k8s-schema.yaml",
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition",
        "prometheus-crd.yaml",
    ),
    (
        "apiresourceimport",
        "apiresourceimport.yaml",
        "apiresourceimport",
        "apiresourceimport-cr.yaml",
    ),
];

/// One operation of [`REAL_OPS`]: what, by whom, at which version.
type OpSpec = (OpKind, &'static str, &'static str);

/// Upstream `BenchmarkOperations`' operation lists: name, `ReturnInputOnNoop`, operations.
pub const REAL_OPS: [(&str, bool, &[OpSpec]); 6] = [
    ("Create", false, &[(OpKind::Update, "controller", "v1")]),
    ("Apply", false, &[(OpKind::Apply, "controller", "v1")]),
    (
        "ApplyTwice",
        false,
        &[
            (OpKind::Apply, "controller", "v1"),
            (OpKind::Apply, "other-controller", "v1"),
        ],
    ),
    (
        "ApplyTwiceNoCompare",
        true,
        &[
            (OpKind::Apply, "controller", "v1"),
            (OpKind::Apply, "other-controller", "v1"),
        ],
    ),
    (
        "Update",
        false,
        &[
            (OpKind::Update, "controller", "v1"),
            (OpKind::Update, "other-controller", "v1"),
        ],
    ),
    (
        "UpdateVersion",
        false,
        &[
            (OpKind::Update, "controller", "v1"),
            (OpKind::Update, "other-controller", "v2"),
        ],
    ),
];

/// The sizes of the scaling flows.
pub const SCALING_SIZES: [usize; 3] = [100, 1000, 10000];

/// The YAML of an Endpoints with `n` addresses in one subset (an atomic list): address `i` is
/// `10.<i>>16&255>.<i>>8&255>.<i&255>` on `node-<i%100>`, its target `pod-<i>` with uid
/// `00000000-0000-0000-0000-<i, 12 digits>`; one port. Go's `endpointsWithAddresses` writes
/// the same bytes.
pub fn endpoints_with_addresses(n: usize) -> String {
    let mut s = String::from(
        "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: scale\n  namespace: default\nsubsets:\n- addresses:\n",
    );
    for i in 0..n {
        let _ = write!(
            s,
            "  - ip: 10.{}.{}.{}\n    nodeName: node-{}\n    targetRef:\n      kind: Pod\n      name: pod-{i}\n      namespace: default\n      uid: 00000000-0000-0000-0000-{i:012}\n",
            i >> 16 & 255,
            i >> 8 & 255,
            i & 255,
            i % 100,
        );
    }
    s.push_str("  ports:\n  - name: http\n    port: 8080\n    protocol: TCP\n");
    s
}

/// The YAML of a Pod with `n` containers (an associative list keyed by name): `container-<i>`
/// with image `registry.example/app:<i>`, one port (8080/TCP, a list keyed by port and
/// protocol) and one environment variable `INDEX="<i>"` (keyed by name). Go's
/// `podWithContainers` writes the same bytes.
pub fn pod_with_containers(n: usize) -> String {
    let mut s = String::from(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: scale\n  namespace: default\nspec:\n  containers:\n",
    );
    for i in 0..n {
        let _ = write!(
            s,
            "  - name: container-{i}\n    image: registry.example/app:{i}\n    ports:\n    - containerPort: 8080\n      protocol: TCP\n    env:\n    - name: INDEX\n      value: \"{i}\"\n",
        );
    }
    s
}

/// A scaling object: name, type (of `k8s-schema.yaml`), generator of its YAML with n items.
pub type ScalingObject = (&'static str, &'static str, fn(usize) -> String);

/// The scaling flows' objects.
pub const SCALING_OBJECTS: [ScalingObject; 2] = [
    (
        "EndpointsAddresses",
        "io.k8s.api.core.v1.Endpoints",
        endpoints_with_addresses,
    ),
    (
        "PodContainers",
        "io.k8s.api.core.v1.Pod",
        pod_with_containers,
    ),
];

/// FNV-1a, 64 bits (Go's `hash/fnv` `New64a`).
pub fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The inputs of the `operations/*` benchmarks. Without the Go module cache only the flows of
/// `data/operations.yaml` are there, and [`OperationsData::missing`] says why.
#[derive(Debug, Default)]
pub struct OperationsData {
    /// `<Obj>/<Op>` flows (upstream `BenchmarkOperations`).
    pub real: Vec<(String, Flow)>,
    /// The small upstream merge benchmarks, by their upstream name without `Benchmark`.
    pub fixture: Vec<(String, Flow)>,
    /// `ConvertUnstructured/<Obj>/From`: objects typed without validation.
    pub convert: Vec<(String, TypedValue)>,
    /// `Scaling/<Obj>-<n>/<Op>` flows.
    pub scaling: Vec<(String, Flow)>,
    /// Why inputs are missing, one line each.
    pub missing: Vec<String>,
}

/// Upstream `BenchmarkConvertUnstructured`'s types and objects.
const CONVERT_OBJECTS: [(&str, &str); 4] = [
    ("io.k8s.api.core.v1.Pod", "pod.yaml"),
    ("io.k8s.api.core.v1.Node", "node.yaml"),
    ("io.k8s.api.core.v1.Endpoints", "endpoints.yaml"),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition",
        "prometheus-crd.yaml",
    ),
];

/// Each operation of `specs` with its own typed copy of `text` (as upstream's
/// `PreprocessOperations` parses each operation's object): updates allow duplicates, applies
/// do not.
fn preprocess(typ: &Type, text: &str, specs: &[OpSpec]) -> Result<Vec<Op>, String> {
    specs
        .iter()
        .map(|&(kind, manager, version)| {
            Ok(Op {
                kind,
                manager: manager.to_owned(),
                version: version.to_owned(),
                object: typ.from_yaml(text, kind == OpKind::Update)?,
                conflicts: None,
            })
        })
        .collect()
}

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_map().and_then(|m| m.get(key))
}

fn get_str<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    get(v, key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{}: no string {key:?}", fixture_file().display()))
}

/// The flows of `data/operations.yaml`.
fn fixture_flows() -> Result<Vec<(String, Flow)>, String> {
    let path = fixture_file();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut schemas: BTreeMap<&str, Arc<Schema>> = BTreeMap::new();
    if let Some(m) = get(&doc, "schemas").and_then(Value::as_map) {
        for (name, text) in m.iter() {
            let text = text.as_str().ok_or("schemas: not a string")?;
            let schema = Schema::from_yaml(text).map_err(|e| format!("schema {name}: {e}"))?;
            schemas.insert(name, Arc::new(schema));
        }
    }
    let mut out = Vec::new();
    let benchmarks = get(&doc, "benchmarks")
        .and_then(Value::as_list)
        .ok_or("no benchmarks")?;
    for b in benchmarks {
        let name = get_str(b, "name")?;
        let typ = match get_str(b, "schema")? {
            "deduced" => Type::deduced(),
            s => Type::new(
                schemas
                    .get(s)
                    .ok_or_else(|| format!("{name}: no schema {s}"))?,
                get_str(b, "type")?,
            ),
        };
        let converter = match get_str(b, "converter")? {
            "identity" => ConverterKind::Identity,
            "repeating" => ConverterKind::Repeating,
            c => return Err(format!("{name}: unknown converter {c:?}")),
        };
        let mut ops = Vec::new();
        for o in get(b, "ops").and_then(Value::as_list).unwrap_or_default() {
            let kind = match get_str(o, "op")? {
                "update" => OpKind::Update,
                "apply" => OpKind::Apply,
                "force-apply" => OpKind::ForceApply,
                k => return Err(format!("{name}: unknown op {k:?}")),
            };
            let conflicts = match get(o, "conflicts").and_then(Value::as_list) {
                None => None,
                Some(list) => Some(
                    list.iter()
                        .map(|c| {
                            let mut path = Path::new();
                            for f in get(c, "path").and_then(Value::as_list).unwrap_or_default() {
                                let f = f.as_str().ok_or("conflict path: not a string")?;
                                path.push(PathElement::field(f));
                            }
                            Ok(Conflict {
                                manager: get_str(c, "manager")?.to_owned(),
                                path,
                            })
                        })
                        .collect::<Result<Vec<_>, String>>()?,
                ),
            };
            ops.push(Op {
                kind,
                manager: get_str(o, "manager")?.to_owned(),
                version: get_str(o, "version")?.to_owned(),
                object: typ
                    .from_yaml(get_str(o, "object")?, kind == OpKind::Update)
                    .map_err(|e| format!("{name}: {e}"))?,
                conflicts,
            });
        }
        out.push((
            name.to_owned(),
            Flow {
                typ,
                converter,
                return_input_on_noop: false,
                ops,
            },
        ));
    }
    Ok(out)
}

impl OperationsData {
    /// Reads and types the inputs, and runs every flow once (a flow that fails is an error
    /// here, so the benchmarks only time flows that succeed).
    pub fn load() -> Result<OperationsData, String> {
        let data = OperationsData::read()?;
        for (name, flow) in data.flows() {
            flow.run().map_err(|e| format!("operations/{name}: {e}"))?;
        }
        for (name, tv) in &data.convert {
            tv.validate(false)
                .map_err(|e| format!("operations/{name}: {e}"))?;
        }
        Ok(data)
    }

    /// Reads and types the inputs without running the flows ([`OperationsData::load`] does).
    pub fn read() -> Result<OperationsData, String> {
        let mut data = OperationsData {
            fixture: fixture_flows()?,
            ..OperationsData::default()
        };
        match go_module_dir(SMD_MODULE) {
            Err(e) => data.missing.push(format!(
                "operations/<Obj>/*, operations/ConvertUnstructured/*, operations/Scaling/*: {e}"
            )),
            Ok(dir) => {
                let dir = dir.join("internal/testdata");
                let read = |file: &str| {
                    std::fs::read_to_string(dir.join(file))
                        .map_err(|e| format!("{}: {e}", dir.join(file).display()))
                };
                let mut schemas: BTreeMap<&str, Arc<Schema>> = BTreeMap::new();
                for (_, file, _, _) in REAL_OBJECTS {
                    if !schemas.contains_key(file) {
                        let schema =
                            Schema::from_yaml(&read(file)?).map_err(|e| format!("{file}: {e}"))?;
                        schemas.insert(file, Arc::new(schema));
                    }
                }
                for (name, schema, type_name, file) in REAL_OBJECTS {
                    let typ = Type::new(&schemas[schema], type_name);
                    let text = read(file)?;
                    for (op_name, return_input_on_noop, specs) in REAL_OPS {
                        let flow = Flow {
                            typ: typ.clone(),
                            converter: ConverterKind::Identity,
                            return_input_on_noop,
                            ops: preprocess(&typ, &text, specs)
                                .map_err(|e| format!("{name}/{op_name}: {e}"))?,
                        };
                        data.real.push((format!("{name}/{op_name}"), flow));
                    }
                }
                let k8s = &schemas["k8s-schema.yaml"];
                for (type_name, file) in CONVERT_OBJECTS {
                    let value = yaml::from_str(&read(file)?).map_err(|e| format!("{file}: {e}"))?;
                    let short = type_name.rsplit('.').next().unwrap_or(type_name);
                    let tv =
                        TypedValue::new_unvalidated(value, k8s.clone(), k8s.type_ref(type_name));
                    data.convert
                        .push((format!("ConvertUnstructured/{short}/From"), tv));
                }
                for (name, type_name, generate) in SCALING_OBJECTS {
                    let typ = Type::new(k8s, type_name);
                    for n in SCALING_SIZES {
                        let text = generate(n);
                        for (op_name, return_input_on_noop, specs) in &REAL_OPS[1..3] {
                            let flow = Flow {
                                typ: typ.clone(),
                                converter: ConverterKind::Identity,
                                return_input_on_noop: *return_input_on_noop,
                                ops: preprocess(&typ, &text, specs)?,
                            };
                            data.scaling
                                .push((format!("Scaling/{name}-{n}/{op_name}"), flow));
                        }
                    }
                }
            }
        }
        Ok(data)
    }

    /// Every flow with its name, in the order of [`OperationsData::visit_ops`].
    pub fn flows(&self) -> impl Iterator<Item = (&str, &Flow)> {
        self.real
            .iter()
            .chain(&self.fixture)
            .chain(&self.scaling)
            .map(|(n, f)| (n.as_str(), f))
    }

    /// Runs every `operations/*` benchmark through `visitor` (names without `operations/`), in
    /// the Go benchmarks' order: each flow's [`Flow::run`] (upstream's, then the small ones),
    /// each `ConvertUnstructured/*` validation, then the scaling flows.
    pub fn visit_ops(&self, visitor: &mut impl OpVisitor) {
        for (name, flow) in self.real.iter().chain(&self.fixture) {
            visitor.op(name, |_| flow.run());
        }
        for (name, tv) in &self.convert {
            visitor.op(name, |_| tv.validate(false));
        }
        for (name, flow) in &self.scaling {
            visitor.op(name, |_| flow.run());
        }
    }

    /// Every flow's final state, one line each as `go/operations_test.go`'s `stateDigest`
    /// writes it (the file [`state_file`]): the name, the number of managers, the length of the
    /// live object's field set in fieldsV1 bytes, and the FNV-1a 64 of each manager's name,
    /// version, applied flag and fieldsV1 (sorted by name), then of the live object's field set.
    pub fn final_states(&self) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        for (name, flow) in self.flows() {
            let (live, managers) = flow.run()?;
            let mut text = Vec::new();
            for (m, vs) in managers.iter() {
                let js = vs.set().to_fields_v1().map_err(|e| e.to_string())?;
                text.extend_from_slice(
                    format!("{m}\n{}\n{}\n", vs.api_version(), vs.applied()).as_bytes(),
                );
                text.extend_from_slice(&js);
                text.push(b'\n');
            }
            let live_set = live.to_field_set().map_err(|e| e.to_string())?;
            let js = live_set.to_fields_v1().map_err(|e| e.to_string())?;
            text.extend_from_slice(b"live\n");
            text.extend_from_slice(&js);
            text.push(b'\n');
            lines.push(format!(
                "{name} managers={} live-fields-bytes={} fnv={:016x}",
                managers.len(),
                js.len(),
                fnv1a64(&text)
            ));
        }
        Ok(lines)
    }
}

//! The inputs and the work of the `floor/*` benchmarks: reading an object of the `fieldmanager/*`
//! suite from compact JSON bytes into a `serde_json::Value`, the least any server does with a
//! request body or a stored object. Issue 16 asks for every apply to be reported as a multiple of
//! this floor (`benches/compare --suite fieldmanager` and `--suite writepath` print it).
//!
//! Per object of `data/fieldmanager` ([`crate::fieldmanager::FieldManagerData`]):
//!
//! * `floor/<Obj>`: the *stored* object, the one `fieldmanager/<Obj>/apply-noop` runs against
//!   (kubectl's create by apply, then the controller's first update: with managedFields);
//! * `floor/<Obj>/manifest`: the manifest kubectl applies (no managedFields, no status).
//!
//! The bytes are written once, before any timing, by `serde_json::to_vec` (compact, the
//! object's key order); each iteration is `serde_json::from_slice::<serde_json::Value>` of them,
//! the value dropped inside the measurement as the other suites drop their results. The
//! workspace builds serde_json with `preserve_order` (maps are `IndexMap`s), as smd uses it.

use crate::RefVisitor;
use crate::fieldmanager::FieldManagerData;

/// One object's bytes.
#[derive(Debug)]
pub struct FloorObject {
    /// The benchmark name of the object (`Deployment`, `ConfigMap-1000`, …).
    pub name: String,
    /// The stored object as compact JSON.
    pub stored: Vec<u8>,
    /// The manifest as compact JSON.
    pub manifest: Vec<u8>,
}

/// The inputs of the `floor/*` benchmarks.
#[derive(Debug)]
pub struct FloorData {
    /// The objects, in `objects.json`'s order.
    pub objects: Vec<FloorObject>,
}

/// Reads `bytes` as the floor does.
pub fn parse(bytes: &[u8]) -> serde_json::Result<serde_json::Value> {
    serde_json::from_slice(bytes)
}

/// Stops the benchmark when the bytes do not read back (they were written by serde_json).
#[allow(
    clippy::panic,
    reason = "a benchmark's work: a wrong outcome must stop it"
)]
fn check(name: &str, r: serde_json::Result<serde_json::Value>) -> serde_json::Value {
    r.unwrap_or_else(|e| panic!("floor/{name}: {e}"))
}

impl FloorData {
    /// Writes the bytes of every object of `data` (its stored objects and manifests).
    pub fn from_fieldmanager(data: &FieldManagerData) -> Result<FloorData, String> {
        let objects = data
            .objects
            .iter()
            .map(|o| {
                let write = |v| serde_json::to_vec(v).map_err(|e| format!("{}: {e}", o.name));
                Ok(FloorObject {
                    name: o.name.clone(),
                    stored: write(o.stored())?,
                    manifest: write(o.manifest())?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(FloorData { objects })
    }

    /// Reads the `fieldmanager/*` objects and writes their bytes.
    pub fn load() -> Result<FloorData, String> {
        FloorData::from_fieldmanager(&FieldManagerData::load()?)
    }

    /// The bytes whose reading is `floor/<name>` (`<Obj>` or `<Obj>/manifest`), in benchmark
    /// order.
    pub fn inputs(&self) -> Vec<(String, &[u8])> {
        self.objects
            .iter()
            .flat_map(|o| {
                [
                    (o.name.clone(), o.stored.as_slice()),
                    (format!("{}/manifest", o.name), o.manifest.as_slice()),
                ]
            })
            .collect()
    }

    /// Runs every benchmark's work through `visitor`.
    pub fn visit_ops(&self, visitor: &mut impl RefVisitor) {
        for (name, bytes) in self.inputs() {
            visitor.op(&name, || (), |_| check(&name, parse(bytes)));
        }
    }
}

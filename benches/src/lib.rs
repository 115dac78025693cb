//! The data and the per-iteration work of smd's benchmarks, shared by the criterion benchmark
//! (`benches/fieldset.rs`) and the allocation counter (`benches/fieldset_allocs.rs`) so that both
//! measure exactly the same thing — and the same thing as the Go benchmarks in `go/`.
//!
//! The operands are the files `go/cmd/gendata` wrote under `data/fieldset/<size>/`:
//! `NN.json` (operand sets, fieldsV1), `insert.jsonl` and `has.jsonl` (one one-path fieldsV1
//! object per line, in generation order).
//!
//! The `schema/*` benchmarks' inputs and work are in [`schema`], the `operations/*` ones' in
//! [`operations`], the `fieldmanager/*` ones' in [`fieldmanager`], the `floor/*` ones' in
//! [`floor`], the `writepath/*` ones' in [`writepath`].

pub mod allocs;
pub mod fieldmanager;
pub mod floor;
pub mod operations;
pub mod schema;
pub mod timer;
pub mod writepath;

/// Something that measures each benchmark of a suite whose work runs on an input it may change
/// (a server whose store a request writes): the input is made outside the measurement and
/// dropped outside it, the result of the work is dropped inside it.
pub trait RefVisitor {
    /// Measures `work`, one call per iteration, each on a fresh input `setup` makes outside the
    /// measurement; `name` is the benchmark's name after the suite's prefix.
    fn op<I, R>(&mut self, name: &str, setup: impl FnMut() -> I, work: impl FnMut(&mut I) -> R);
}

use smd_fieldpath::{Path, Set};
use std::fs;
use std::path::PathBuf;

/// Upstream `BenchmarkFieldSet`'s set sizes; each names a directory of [`data_dir`].
pub const SIZES: [usize; 5] = [20, 50, 100, 500, 1000];

/// How many `NN.json` operand sets each size directory holds.
pub const OPERAND_COUNT: usize = 50;

/// The `fieldsV1` document of `fieldsv1_read/*`: `n` sibling keys `f:k000000`, `f:k000001`, …,
/// the even ones members (`{}`), the odd ones with a child (`{"f:x":{}}`), in Go's order or
/// reversed. `go/fieldsv1_read_test.go` writes the same bytes.
pub fn fieldsv1_siblings(n: usize, reversed: bool) -> Vec<u8> {
    let mut keys: Vec<String> = (0..n)
        .map(|i| match i % 2 {
            0 => format!(r#""f:k{i:06}":{{}}"#),
            _ => format!(r#""f:k{i:06}":{{"f:x":{{}}}}"#),
        })
        .collect();
    if reversed {
        keys.reverse();
    }
    format!("{{{}}}", keys.join(",")).into_bytes()
}

/// Where `go/cmd/gendata` wrote the field-set operands.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/fieldset")
}

/// The operands of one size of the field-set benchmarks.
#[derive(Debug)]
pub struct FieldSetData {
    /// The number of paths each operand was built from (the directory name).
    pub size: usize,
    /// The operand sets, read from `NN.json`.
    pub operands: Vec<Set>,
    /// The bytes of `NN.json`, as Go's `ToJSON` wrote them.
    pub serialized: Vec<Vec<u8>>,
    /// One upstream `makeSet` call's paths, in generation order, duplicates kept.
    pub insert_paths: Vec<Path>,
    /// The probes of the `has` benchmark.
    pub has_paths: Vec<Path>,
}

/// Something that measures each operation of [`FieldSetData::visit_ops`].
pub trait OpVisitor {
    /// Measures `work`, one call per iteration; `work(i)` is iteration `i`'s work, and `name` is
    /// the benchmark's name without its size (`insert`, `recursive-difference`, …).
    fn op<R>(&mut self, name: &str, work: impl FnMut(usize) -> R);
}

fn read_set(name: &std::path::Path, data: &[u8]) -> Result<Set, String> {
    Set::from_fields_v1(data).map_err(|e| format!("{}: {e}", name.display()))
}

/// Reads a file of one-path fieldsV1 objects, one per line.
fn read_paths(name: &std::path::Path) -> Result<Vec<Path>, String> {
    let text = fs::read(name).map_err(|e| format!("{}: {e}", name.display()))?;
    let mut paths = Vec::new();
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let set = read_set(name, line)?;
        let mut iter = set.iter();
        match (iter.next(), iter.next()) {
            (Some(path), None) => paths.push(path),
            _ => {
                return Err(format!(
                    "{}:{}: want exactly one path, have {}",
                    name.display(),
                    n + 1,
                    set.size()
                ));
            }
        }
    }
    Ok(paths)
}

impl FieldSetData {
    /// Reads size `size`'s files.
    pub fn load(size: usize) -> Result<FieldSetData, String> {
        let dir = data_dir().join(size.to_string());
        let mut operands = Vec::with_capacity(OPERAND_COUNT);
        let mut serialized = Vec::with_capacity(OPERAND_COUNT);
        for i in 0..OPERAND_COUNT {
            let name = dir.join(format!("{i:02}.json"));
            let data = fs::read(&name).map_err(|e| format!("{}: {e}", name.display()))?;
            operands.push(read_set(&name, &data)?);
            serialized.push(data);
        }
        Ok(FieldSetData {
            size,
            operands,
            serialized,
            insert_paths: read_paths(&dir.join("insert.jsonl"))?,
            has_paths: read_paths(&dir.join("has.jsonl"))?,
        })
    }

    /// Differences between what Rust writes and what Go wrote, one line each: the benchmarks
    /// still time comparable work when there are some, but the writer has a bug.
    pub fn serialization_mismatches(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, (set, go)) in self.operands.iter().zip(&self.serialized).enumerate() {
            match set.to_fields_v1() {
                Ok(rust) if rust == *go => {}
                Ok(_) => out.push(format!(
                    "size {} operand {i:02}: bytes differ from Go's",
                    self.size
                )),
                Err(e) => out.push(format!("size {} operand {i:02}: {e}", self.size)),
            }
        }
        out
    }

    /// Iteration `i`'s operand: the operands in turn, as Go's benchmark does.
    fn operand(&self, i: usize) -> &Set {
        &self.operands[i % self.operands.len()]
    }

    /// Builds a new set from one `makeSet` call's paths.
    pub fn insert(&self) -> Set {
        let mut set = Set::new();
        for path in &self.insert_paths {
            set.insert(path);
        }
        set
    }

    /// Looks up probe `i` in operand `i`.
    pub fn has(&self, i: usize) -> bool {
        self.operand(i)
            .has(&self.has_paths[i % self.has_paths.len()])
    }

    /// Writes operand `i` as fieldsV1.
    pub fn serialize(&self, i: usize) -> smd_fieldpath::Result<Vec<u8>> {
        self.operand(i).to_fields_v1()
    }

    /// Reads operand `i`'s fieldsV1 bytes.
    pub fn deserialize(&self, i: usize) -> smd_fieldpath::Result<Set> {
        Set::from_fields_v1(&self.serialized[i % self.serialized.len()])
    }

    /// Operand `i` and the one after it: the operands of a binary operation.
    fn pair(&self, i: usize) -> (&Set, &Set) {
        (self.operand(i), self.operand(i % self.operands.len() + 1))
    }

    /// Runs every operation of upstream's `BenchmarkFieldSet` through `visitor`, in upstream's
    /// order.
    pub fn visit_ops(&self, visitor: &mut impl OpVisitor) {
        visitor.op("insert", |_| self.insert());
        visitor.op("has", |i| self.has(i));
        visitor.op("serialize", |i| self.serialize(i));
        visitor.op("deserialize", |i| self.deserialize(i));
        visitor.op("union", |i| {
            let (a, b) = self.pair(i);
            a.union(b)
        });
        visitor.op("intersection", |i| {
            let (a, b) = self.pair(i);
            a.intersection(b)
        });
        visitor.op("difference", |i| {
            let (a, b) = self.pair(i);
            a.difference(b)
        });
        visitor.op("recursive-difference", |i| {
            let (a, b) = self.pair(i);
            a.recursive_difference(b)
        });
        visitor.op("leaves", |i| self.operand(i).leaves());
    }
}

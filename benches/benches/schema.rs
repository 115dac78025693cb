//! `schema/*`: reading and converting schemas, the same work per iteration as the Go twins
//! `BenchmarkSchemaParse` (`go/schema_test.go`) and `BenchmarkSchemaConvert`
//! (`go/convert_test.go`); see [`smd_benches::schema::SchemaData::visit_ops`].
//!
//! * `schema/parse-<file>`, `schema/yaml-<file>`: an upstream SMD schema (`internal/testdata`
//!   of structured-merge-diff v6.4.2) read with [`smd_schema::Schema::from_yaml`], and its YAML
//!   alone, the floor of that work;
//! * `schema/convert-v2`: the Kubernetes 1.37 OpenAPI v2 spec (`api/openapi-spec/swagger.json`
//!   of `k8s.io/kubernetes` v1.37.2) converted to an SMD schema from a document read beforehand;
//!   `schema/read-convert-v2`: read from its bytes and converted.
//!
//! The inputs come from the Go module cache (`go mod download`); without Go or the network the
//! benchmark says which are missing and measures the rest. `benches/compare --suite schema`
//! runs both sides.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use smd_benches::OpVisitor;
use smd_benches::schema::SchemaData;
use std::time::Duration;

struct Timer<'a, 'b> {
    group: &'a mut BenchmarkGroup<'b, WallTime>,
}

impl OpVisitor for Timer<'_, '_> {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        self.group.bench_function(name, |b| b.iter(|| work(0)));
    }
}

fn schema(c: &mut Criterion) {
    let data = SchemaData::load().unwrap_or_else(|e| panic!("schema benchmark inputs: {e}"));
    for why in &data.missing {
        eprintln!("skipped: {why}");
    }
    let mut group = c.benchmark_group("schema");
    data.visit_ops(&mut Timer { group: &mut group });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    targets = schema
}
criterion_main!(benches);

//! `schema/parse-<file>`: reading an upstream SMD schema (`internal/testdata` of
//! structured-merge-diff v6.4.2, from the Go module cache) with [`Schema::from_yaml`]: YAML,
//! validation against the schema of schemas, the model. `schema/yaml-<file>`: the YAML reading
//! alone, the floor of that work. The Go twins are `BenchmarkSchemaParse/parse-<file>`
//! (`typed.NewParser`) and `/yaml-<file>` (`yaml.Unmarshal` into `interface{}`) in
//! `go/schema_test.go`.
//!
//! The files are not copied into the repository; without the module cache (`go mod download`
//! in `benches/go`) the benchmark says so and measures nothing.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use smd_schema::Schema;
use std::path::PathBuf;
use std::time::Duration;

/// The upstream schemas measured: the plain one and the one with an override on every reference.
const FILES: [&str; 2] = ["k8s-schema.yaml", "k8s-schema-100pct-fieldoverride.yaml"];

const MODULE: &str = "sigs.k8s.io/structured-merge-diff/v6@v6.4.2";

fn module_cache() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = set("GOMODCACHE") {
        return Some(dir.into());
    }
    if let Some(path) = set("GOPATH") {
        return std::env::split_paths(&path)
            .next()
            .map(|p| p.join("pkg/mod"));
    }
    let out = std::process::Command::new("go")
        .args(["env", "GOMODCACHE"])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(dir.trim()))
}

fn schema(c: &mut Criterion) {
    let Some(cache) = module_cache() else {
        eprintln!(
            "schema benchmarks skipped: no Go module cache (run `go mod download` in benches/go)"
        );
        return;
    };
    let mut group = c.benchmark_group("schema");
    for file in FILES {
        let path = cache.join(MODULE).join("internal/testdata").join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!(
                "schema/parse-{file} skipped: cannot read {}",
                path.display()
            );
            continue;
        };
        Schema::from_yaml(&text).expect("the upstream schema reads");
        let name = file.trim_end_matches(".yaml");
        group.bench_function(format!("parse-{name}"), |b| {
            b.iter(|| Schema::from_yaml(&text))
        });
        group.bench_function(format!("yaml-{name}"), |b| {
            b.iter(|| smd_fieldpath::yaml::from_str(&text))
        });
    }
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

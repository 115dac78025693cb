//! `schema/embedded-v1_37`: decoding the embedded Kubernetes 1.37 schema (every built-in type
//! and the GVK index) from its compact form, the work `smd_schema::kubernetes::v1_37()` does
//! once per process. The goal is under 5 ms.

#![allow(clippy::expect_used, reason = "a benchmark binary")]

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

fn schema(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("embedded-v1_37", |b| {
        b.iter(|| smd_schema::kubernetes::decode_v1_37().expect("the embedded schema decodes"));
    });
    group.finish();
}

criterion_group!(benches, schema);
criterion_main!(benches);

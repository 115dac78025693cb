//! `fieldsv1_read/<order>-<n>k`: reading a `fieldsV1` document of n sibling keys (every other
//! one with a child node), in Go's order (`sorted`) or reversed, with `Set::from_fields_v1`.
//! The Go twin is `BenchmarkFieldsV1Read` (`go/fieldsv1_read_test.go`, the same text from the
//! same generator). Go inserts keys that arrive out of order one by one into a sorted slice, so
//! its reversed reading grows with n²; smd's stays n·log n (issue 11, item 5).

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a document that does not read must stop it loudly"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use smd_benches::fieldsv1_siblings;
use smd_fieldpath::Set;
use std::time::Duration;

fn fieldsv1_read(c: &mut Criterion) {
    let mut group = c.benchmark_group("fieldsv1_read");
    for thousands in [1, 10, 100] {
        for (order, reversed) in [("sorted", false), ("reversed", true)] {
            let text = fieldsv1_siblings(thousands * 1000, reversed);
            let size = Set::from_fields_v1(&text)
                .expect("the document reads")
                .size();
            assert_eq!(size, thousands * 1000);
            group.bench_function(format!("{order}-{thousands}k"), |b| {
                b.iter(|| Set::from_fields_v1(&text))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    targets = fieldsv1_read
}
criterion_main!(benches);

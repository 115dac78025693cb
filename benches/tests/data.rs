//! The stored benchmark operands read, and write back byte for byte as Go wrote them: the
//! benchmarks only compare like with like if the Rust codec agrees with Go's on these sets.

#![allow(clippy::expect_used, reason = "a test: failures must stop it loudly")]

use smd_benches::{FieldSetData, OPERAND_COUNT, SIZES};

#[test]
fn stored_operands_round_trip_byte_for_byte() {
    for size in SIZES {
        let data = FieldSetData::load(size).expect("reading benches/data/fieldset");
        assert_eq!(data.operands.len(), OPERAND_COUNT, "size {size}");
        assert_eq!(data.insert_paths.len(), size, "size {size}: insert paths");
        assert!(!data.has_paths.is_empty(), "size {size}: has paths");
        assert_eq!(data.serialization_mismatches(), Vec::<String>::new());
        for i in 0..OPERAND_COUNT {
            let back = data.deserialize(i).expect("deserialize");
            assert!(back == data.operands[i], "size {size} operand {i:02}");
        }
    }
}

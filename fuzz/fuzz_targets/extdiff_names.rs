//! The file names `KUBECTL_EXTERNAL_DIFF` is given, from hostile groups, versions, kinds,
//! namespaces and names (a schema may declare any kind; a manifest may name anything).
//!
//! Invariants: a name is refused, or it is one plain file name inside the directory: no
//! separator, no NUL, not `.` or `..`, at most 255 bytes; it keeps kubectl's
//! `[<group>.]<version>.<kind>.<namespace>.<name>` for the characters real objects use; and
//! different objects get different names unless their parts' dots line up.
#![no_main]

use std::path::{Component, Path};

use libfuzzer_sys::fuzz_target;
use smd_cli::fuzzing::external_diff_file_name;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(5, '\u{1}');
    let mut next = || parts.next().unwrap_or_default().to_owned();
    let owned = [next(), next(), next(), next(), next()];
    let parts = [
        owned[0].as_str(),
        owned[1].as_str(),
        owned[2].as_str(),
        owned[3].as_str(),
        owned[4].as_str(),
    ];
    let Ok(name) = external_diff_file_name(parts) else {
        return;
    };
    assert!(name.len() <= 255, "{name}");
    assert!(!name.contains(['/', '\\', '\0']), "{name:?}");
    let components: Vec<Component<'_>> = Path::new(&name).components().collect();
    assert!(
        matches!(components.as_slice(), [Component::Normal(_)]),
        "{name:?} is not one plain file name: {components:?}"
    );
    let plain = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
    };
    if parts.iter().all(|p| plain(p)) {
        let mut expected: Vec<&str> = Vec::new();
        if !parts[0].is_empty() {
            expected.push(parts[0]);
        }
        expected.extend(&parts[1..]);
        assert_eq!(name, expected.join("."), "kubectl's name");
    }
});

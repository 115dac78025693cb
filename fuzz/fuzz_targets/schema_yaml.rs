//! SMD schema YAML: reading never panics; a schema that reads, with unique keys in its keyed
//! lists, writes back to YAML that reads to an equal schema. (Keys must be unique to round-trip:
//! a null name and an empty one are two keys of a keyed list, in Go too, and both decode to
//! "", which written back is a duplicate key. That holds for the types (by name), a map's
//! fields (by name) and a union's fields (by fieldName); `schema/validation.yaml`,
//! `null-name-and-empty-name-are-two-keys` and the two cases after it.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_schema::{Atom, Schema, TypeRef};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(schema) = Schema::from_yaml(text) else {
        return;
    };
    if !unique(schema.types().iter().map(|t| t.name()))
        || !schema.types().iter().all(|t| keys_unique(t.atom()))
    {
        return;
    }
    let yaml = schema.to_yaml();
    let again = Schema::from_yaml(&yaml)
        .unwrap_or_else(|e| panic!("written schema does not read back: {e}\n{yaml}"));
    assert!(
        again == schema,
        "schema YAML round trip changed the schema:\n{yaml}"
    );
});

fn unique<'a>(names: impl Iterator<Item = &'a str>) -> bool {
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable();
    names.windows(2).all(|w| w[0] != w[1])
}

/// Whether every keyed list under `atom` (a map's fields, its unions' fields, and those of the
/// atoms inlined below it) has unique keys.
fn keys_unique(atom: &Atom) -> bool {
    let below = |ty: &TypeRef| keys_unique(ty.inlined_atom());
    if let Some(map) = atom.as_map() {
        if !unique(map.fields().iter().map(|f| f.name()))
            || !map
                .unions()
                .iter()
                .all(|u| unique(u.fields().iter().map(|f| f.field_name())))
            || !map.fields().iter().all(|f| below(f.type_ref()))
            || !map.element_type().is_none_or(below)
        {
            return false;
        }
    }
    atom.as_list().is_none_or(|list| below(list.element_type()))
}

//! Random cases, shaped exactly like scenario cases (see `conformance/README.md`).

use super::canonical_b64;
use super::rng::Rng;
use super::sets::{
    Pe, PeShape, gen_paths, gen_pe, mutate, pe_structured, pe_text, set_text, value_spec,
};
use super::text::{Spelling, gen_string};
use super::values::{Val, gen_number, gen_scalar, gen_value, to_json};
use serde_json::{Value as Json, json};

/// A case generator: its name (for `--ops` and the counts), its weight in the mix, and the
/// function.
#[derive(Debug, Clone, Copy)]
pub struct Generator {
    /// `kind.op`, with a suffix for variants.
    pub name: &'static str,
    /// How often it runs, relative to the others.
    pub weight: usize,
    /// Makes one case.
    pub make: fn(&mut Rng) -> Json,
}

/// Every generator.
pub const GENERATORS: &[Generator] = &[
    Generator {
        name: "fieldset.parse",
        weight: 16,
        make: fieldset_parse,
    },
    Generator {
        name: "fieldset.parse.mutated",
        weight: 14,
        make: fieldset_parse_mutated,
    },
    Generator {
        name: "fieldset.algebra",
        weight: 12,
        make: fieldset_algebra,
    },
    Generator {
        name: "fieldset.filter",
        weight: 8,
        make: fieldset_filter,
    },
    Generator {
        name: "fieldset.build",
        weight: 8,
        make: fieldset_build,
    },
    Generator {
        name: "fieldset.fromValue",
        weight: 8,
        make: fieldset_from_value,
    },
    Generator {
        name: "fieldset.managers",
        weight: 3,
        make: fieldset_managers,
    },
    Generator {
        name: "pathElement.parse",
        weight: 10,
        make: path_element_parse,
    },
    Generator {
        name: "pathElement.serialize",
        weight: 4,
        make: path_element_serialize,
    },
    Generator {
        name: "pathElement.order",
        weight: 5,
        make: path_element_order,
    },
    Generator {
        name: "path.string",
        weight: 3,
        make: path_string,
    },
    Generator {
        name: "value.compare",
        weight: 6,
        make: value_compare,
    },
    Generator {
        name: "value.string",
        weight: 5,
        make: value_string,
    },
    Generator {
        name: "value.parseJSON",
        weight: 6,
        make: value_parse_json,
    },
    Generator {
        name: "typed.validate",
        weight: 6,
        make: |rng| super::typed::typed_case(rng, "validate"),
    },
    Generator {
        name: "typed.toFieldSet",
        weight: 6,
        make: |rng| super::typed::typed_case(rng, "toFieldSet"),
    },
    Generator {
        name: "typed.compare",
        weight: 8,
        make: |rng| super::typed::typed_case(rng, "compare"),
    },
    Generator {
        name: "typed.merge",
        weight: 8,
        make: |rng| super::typed::typed_case(rng, "merge"),
    },
    Generator {
        name: "typed.removeItems",
        weight: 6,
        make: |rng| super::typed::typed_case(rng, "removeItems"),
    },
    Generator {
        name: "typed.extractItems",
        weight: 6,
        make: |rng| super::typed::typed_case(rng, "extractItems"),
    },
    Generator {
        name: "updater.sequence",
        weight: 30,
        make: super::typed::updater_case,
    },
    Generator {
        name: "fieldmanager.sequence",
        weight: 10,
        make: super::fieldmanager::sequence_case,
    },
    Generator {
        name: "patch.merge",
        weight: 6,
        make: super::patches::merge_case,
    },
    Generator {
        name: "patch.json",
        weight: 10,
        make: super::patches::json_case,
    },
    Generator {
        name: "patch.strategic",
        weight: 10,
        make: super::patches::strategic_case,
    },
];

fn spelling(rng: &mut Rng, canonical_percent: usize) -> Spelling {
    if rng.percent(canonical_percent) {
        Spelling::Canonical
    } else {
        Spelling::Loose
    }
}

const SHAPE: PeShape = PeShape { odd_indexes: false };
const ODD: PeShape = PeShape { odd_indexes: true };

/// A set size: mostly small, sometimes empty or larger.
fn set_size(rng: &mut Rng) -> usize {
    match rng.weighted(&[5, 70, 25]) {
        0 => 0,
        1 => rng.range(1, 5),
        _ => rng.range(6, 20),
    }
}

/// Bytes as `input` when they are UTF-8, else as `inputBase64`.
fn input_field(case: &mut Json, bytes: Vec<u8>) {
    match String::from_utf8(bytes) {
        Ok(text) => case["input"] = Json::String(text),
        Err(e) => case["inputBase64"] = Json::String(canonical_b64(e.as_bytes())),
    }
}

/// A path element string: `pe`, or once in a while one Go refuses or reads oddly.
fn pe_string(rng: &mut Rng, pe: &Pe, spelling: Spelling) -> Json {
    if rng.one_in(40) {
        return Json::String(rng.pick(BROKEN_PES).to_owned());
    }
    Json::String(pe_text(rng, pe, spelling))
}

/// A path as a list of PE strings and structured elements.
fn path_json(rng: &mut Rng, path: &[Pe], structured_percent: usize) -> Json {
    Json::Array(
        path.iter()
            .map(|pe| {
                if rng.percent(structured_percent) {
                    if let Some(s) = pe_structured(rng, pe) {
                        return s;
                    }
                }
                let sp = spelling(rng, 80);
                pe_string(rng, pe, sp)
            })
            .collect(),
    )
}

/// Probes for a set built from `paths`: its paths, their prefixes, extensions, and strangers.
fn probe_paths(rng: &mut Rng, paths: &[Vec<Pe>]) -> Vec<Vec<Pe>> {
    let n = rng.range(1, 4);
    (0..n)
        .map(|_| {
            if paths.is_empty() || rng.one_in(5) {
                return (0..rng.range(0, 3)).map(|_| gen_pe(rng, SHAPE)).collect();
            }
            let p = &paths[rng.below(paths.len())];
            match rng.below(3) {
                0 => p.clone(),
                1 => p[..rng.range(0, p.len())].to_vec(),
                _ => {
                    let mut q = p.clone();
                    q.push(gen_pe(rng, SHAPE));
                    q
                }
            }
        })
        .collect()
}

fn fieldset_parse(rng: &mut Rng) -> Json {
    let n = set_size(rng);
    let sp = spelling(rng, 50);
    let shape = if sp == Spelling::Loose && rng.one_in(4) {
        ODD
    } else {
        SHAPE
    };
    let paths = gen_paths(rng, n, shape);
    let mut case = json!({"kind": "fieldset", "op": "parse", "input": set_text(rng, &paths, sp)});
    if rng.one_in(2) {
        let probes = probe_paths(rng, &paths);
        case["has"] = Json::Array(probes.iter().map(|p| path_json(rng, p, 30)).collect());
    }
    if rng.one_in(2) {
        let n = rng.range(1, 3);
        let prefixes: Vec<Json> = (0..n)
            .map(|_| {
                let pe = match paths.get(rng.below(paths.len() + 1)) {
                    Some(p) if !p.is_empty() => p[0].clone(),
                    _ => gen_pe(rng, SHAPE),
                };
                pe_string(rng, &pe, Spelling::Canonical)
            })
            .collect();
        case["withPrefix"] = Json::Array(prefixes);
    }
    case
}

fn fieldset_parse_mutated(rng: &mut Rng) -> Json {
    let n = rng.range(0, 4);
    let paths = gen_paths(rng, n, SHAPE);
    let sp = spelling(rng, 60);
    let mut bytes = set_text(rng, &paths, sp).into_bytes();
    let utf8_only = rng.percent(70);
    for _ in 0..rng.range(1, 3) {
        mutate(rng, &mut bytes, utf8_only);
    }
    let mut case = json!({"kind": "fieldset", "op": "parse"});
    input_field(&mut case, bytes);
    case
}

/// A set related to `paths`: a subset, a superset, parents, children, a different spelling
/// of the same set, an overlap with others, or the empty set.
fn related_paths(rng: &mut Rng, paths: &[Vec<Pe>], pool: &[Vec<Pe>]) -> Vec<Vec<Pe>> {
    let subset = |rng: &mut Rng, from: &[Vec<Pe>]| -> Vec<Vec<Pe>> {
        from.iter().filter(|_| rng.one_in(2)).cloned().collect()
    };
    match rng.below(7) {
        0 => subset(rng, paths),
        1 => {
            let mut more = paths.to_vec();
            more.extend(subset(rng, pool));
            more
        }
        2 => paths
            .iter()
            .map(|p| p[..rng.range(1, p.len().max(1)).min(p.len())].to_vec())
            .collect(),
        3 => paths
            .iter()
            .map(|p| {
                let mut q = p.clone();
                for _ in 0..rng.range(1, 2) {
                    q.push(gen_pe(rng, SHAPE));
                }
                q
            })
            .collect(),
        4 => paths.to_vec(),
        5 => subset(rng, pool),
        _ => Vec::new(),
    }
}

fn fieldset_algebra(rng: &mut Rng) -> Json {
    let n = set_size(rng).max(1);
    let pool = gen_paths(rng, n * 2, SHAPE);
    let a: Vec<Vec<Pe>> = pool.iter().filter(|_| rng.percent(60)).cloned().collect();
    let b = related_paths(rng, &a, &pool);
    let (sa, sb) = (spelling(rng, 70), spelling(rng, 70));
    let (a, b) = if rng.one_in(2) { (a, b) } else { (b, a) };
    json!({
        "kind": "fieldset", "op": "algebra",
        "a": set_text(rng, &a, sa),
        "b": set_text(rng, &b, sb),
    })
}

fn fieldset_filter(rng: &mut Rng) -> Json {
    let n = set_size(rng).max(1);
    let pool = gen_paths(rng, n * 2, SHAPE);
    let set: Vec<Vec<Pe>> = pool.iter().filter(|_| rng.percent(60)).cloned().collect();
    let sp = spelling(rng, 70);
    let mut case = json!({"kind": "fieldset", "op": "filter", "set": set_text(rng, &set, sp)});
    if rng.one_in(2) {
        let exclude = related_paths(rng, &set, &pool);
        let sp = spelling(rng, 70);
        case["exclude"] = Json::String(set_text(rng, &exclude, sp));
    } else {
        let patterns: Vec<Json> = (0..rng.range(0, 3))
            .map(|_| {
                let base: Vec<Pe> = match pool.get(rng.below(pool.len())) {
                    Some(p) if rng.percent(80) => p[..rng.range(0, p.len())].to_vec(),
                    _ => (0..rng.range(0, 2)).map(|_| gen_pe(rng, SHAPE)).collect(),
                };
                Json::Array(
                    base.iter()
                        .map(|pe| {
                            if rng.one_in(4) {
                                Json::String("*".into())
                            } else {
                                pe_string(rng, pe, Spelling::Canonical)
                            }
                        })
                        .collect(),
                )
            })
            .collect();
        case["include"] = Json::Array(patterns);
    }
    case
}

fn fieldset_build(rng: &mut Rng) -> Json {
    let n = set_size(rng);
    let mut paths = gen_paths(rng, n, ODD);
    if rng.one_in(8) {
        paths.insert(rng.below(paths.len() + 1), Vec::new());
    }
    if rng.one_in(6) && !paths.is_empty() {
        let again = paths[rng.below(paths.len())].clone();
        paths.push(again);
    }
    let paths: Vec<Json> = paths.iter().map(|p| path_json(rng, p, 50)).collect();
    json!({"kind": "fieldset", "op": "build", "paths": paths})
}

/// A Kubernetes-like object: maps of maps, lists of maps keyed by `name`/`key`/`id`, scalars.
fn gen_object(rng: &mut Rng, depth: usize) -> Val {
    if depth == 0 || rng.percent(30) {
        return gen_scalar(rng);
    }
    match rng.weighted(&[55, 30, 15]) {
        0 => {
            let mut entries: Vec<(String, Val)> = Vec::new();
            for _ in 0..rng.range(0, 4) {
                let key = if rng.percent(70) {
                    super::text::plain_name(rng)
                } else {
                    gen_string(rng)
                };
                if entries.iter().all(|(k, _)| *k != key) {
                    entries.push((key, gen_object(rng, depth - 1)));
                }
            }
            Val::Map(entries)
        }
        1 => {
            // A list of items that may carry key candidates.
            let items = (0..rng.range(0, 4))
                .map(|_| {
                    let mut entries: Vec<(String, Val)> = Vec::new();
                    for name in ["name", "key", "id"] {
                        if rng.one_in(3) {
                            let v = if rng.percent(80) {
                                gen_scalar(rng)
                            } else {
                                gen_value(rng, 1, false)
                            };
                            entries.push((name.to_owned(), v));
                        }
                    }
                    if rng.one_in(2) {
                        entries.push(("value".into(), gen_object(rng, depth - 1)));
                    }
                    if rng.one_in(5) {
                        gen_object(rng, depth - 1)
                    } else {
                        Val::Map(entries)
                    }
                })
                .collect();
            Val::List(items)
        }
        _ => Val::List(
            (0..rng.range(0, 3))
                .map(|_| gen_object(rng, depth - 1))
                .collect(),
        ),
    }
}

fn fieldset_from_value(rng: &mut Rng) -> Json {
    let depth = rng.range(1, 5);
    let object = match gen_object(rng, depth) {
        v @ Val::Map(_) => v,
        other if rng.one_in(4) => other,
        other => Val::Map(vec![("spec".into(), other)]),
    };
    json!({"kind": "fieldset", "op": "fromValue", "value": value_spec(rng, &object)})
}

fn fieldset_managers(rng: &mut Rng) -> Json {
    let pool = gen_paths(rng, 8, SHAPE);
    let side = |rng: &mut Rng| -> Json {
        let mut managers = serde_json::Map::new();
        for name in ["alice", "bob", "carol"] {
            if rng.one_in(2) {
                continue;
            }
            let paths: Vec<Vec<Pe>> = pool.iter().filter(|_| rng.one_in(3)).cloned().collect();
            let sp = spelling(rng, 80);
            let mut entry = json!({
                "apiVersion": rng.pick(&["v1", "v2", "apps/v1"]),
                "fieldsV1": set_text(rng, &paths, sp),
            });
            if rng.one_in(2) {
                entry["applied"] = Json::Bool(rng.one_in(2));
            }
            managers.insert(name.into(), entry);
        }
        Json::Object(managers)
    };
    let lhs = side(rng);
    let rhs = if rng.one_in(3) {
        lhs.clone()
    } else {
        side(rng)
    };
    json!({"kind": "fieldset", "op": "managers", "lhs": lhs, "rhs": rhs})
}

/// Path element strings Go refuses, or reads in surprising ways.
const BROKEN_PES: &[&str] = &[
    "",
    "f",
    "x:foo",
    "f:",
    "i:",
    "v:",
    "k:",
    "k:{}",
    "k:[]",
    "k:{\"a\":1",
    "k:{\"a\":1}x",
    "k:{\"a\":1} ",
    "k: {\"a\":1}",
    "v:1 2",
    "v:1,",
    "v: 1 ",
    "v:nul",
    "v:tru",
    "v:\"a",
    "v:[1,",
    "v:{\"a\":}",
    "k:{\"a\":{}}",
    "k:null",
    "k:{\"a\":1,}",
    "k:{\"a\" 1}",
    "fx",
    ":f",
    "F:a",
    "v:01",
    "v:1.",
    "v:.5",
    "v:+1",
    "v:-",
    "v:1e",
    "v:NaN",
    "v:Infinity",
    "v:0x10",
    "v:\"\\x\"",
    "k:{\"a\":1,\"a\":2}",
    "v:{}",
    "v:[]",
    "k:{\"\":1}",
    "v:\"\\ud800\"",
    "v:\"\u{1}\"",
];

fn path_element_parse(rng: &mut Rng) -> Json {
    let mut case = json!({"kind": "pathElement", "op": "parse"});
    match rng.weighted(&[70, 12, 18]) {
        0 => {
            let pe = gen_pe(rng, ODD);
            let sp = spelling(rng, 60);
            case["input"] = Json::String(pe_text(rng, &pe, sp));
        }
        1 => case["input"] = Json::String(rng.pick(BROKEN_PES).to_owned()),
        _ => {
            let pe = gen_pe(rng, ODD);
            let sp = spelling(rng, 60);
            let mut bytes = pe_text(rng, &pe, sp).into_bytes();
            let utf8_only = rng.percent(70);
            for _ in 0..rng.range(1, 2) {
                mutate(rng, &mut bytes, utf8_only);
            }
            input_field(&mut case, bytes);
        }
    }
    case
}

fn path_element_serialize(rng: &mut Rng) -> Json {
    if rng.one_in(8) {
        let (lang, text) = rng.pick(EDGE_VALUES);
        let element = if rng.one_in(2) {
            json!({ "value": { lang: text } })
        } else {
            json!({ "key": { "yaml": format!("{{name: {text}}}") } })
        };
        return json!({"kind": "pathElement", "op": "serialize", "element": element});
    }
    loop {
        let pe = gen_pe(rng, SHAPE);
        if let Some(element) = pe_structured(rng, &pe) {
            return json!({"kind": "pathElement", "op": "serialize", "element": element});
        }
    }
}

/// Elements drawn from a small pool, so that equal and nearly equal elements meet.
fn related_pes(rng: &mut Rng, n: usize) -> Vec<Pe> {
    let names = [gen_string(rng), gen_string(rng), "a".to_owned()];
    let scalars = [gen_scalar(rng), gen_scalar(rng), Val::Num(gen_number(rng))];
    (0..n)
        .map(|_| match rng.below(5) {
            0 => Pe::Field(rng.pick(&names)),
            1 => Pe::Value(rng.pick(&scalars)),
            2 => Pe::Index(rng.range(0, 2).to_string()),
            3 => {
                let mut fields = vec![(rng.pick(&names), rng.pick(&scalars))];
                if rng.one_in(2) {
                    fields.push(("name".into(), rng.pick(&scalars)));
                }
                Pe::Key(fields)
            }
            _ => gen_pe(rng, SHAPE),
        })
        .collect()
}

fn path_element_order(rng: &mut Rng) -> Json {
    let n = rng.range(2, 5);
    let inputs: Vec<Json> = related_pes(rng, n)
        .iter()
        .map(|pe| {
            let sp = spelling(rng, 60);
            pe_string(rng, pe, sp)
        })
        .collect();
    json!({"kind": "pathElement", "op": "order", "inputs": inputs})
}

fn path_string(rng: &mut Rng) -> Json {
    let n = rng.range(0, 5);
    let path: Vec<Pe> = (0..n).map(|_| gen_pe(rng, SHAPE)).collect();
    json!({"kind": "path", "op": "string", "path": path_json(rng, &path, 40)})
}

/// A value close to `v`: the same value, a sibling number, a changed leaf, or a stranger.
fn nearby(rng: &mut Rng, v: &Val) -> Val {
    match (rng.below(5), v) {
        (0, _) => v.clone(),
        (1, Val::Num(_)) => Val::Num(gen_number(rng)),
        (1, Val::List(items)) if !items.is_empty() => {
            let mut items = items.clone();
            let i = rng.below(items.len());
            items[i] = nearby(rng, &items[i]);
            Val::List(items)
        }
        (1, Val::Map(entries)) if !entries.is_empty() => {
            let mut entries = entries.clone();
            let i = rng.below(entries.len());
            entries[i].1 = nearby(rng, &entries[i].1);
            Val::Map(entries)
        }
        (2, Val::List(items)) => {
            let mut items = items.clone();
            if rng.one_in(2) || items.is_empty() {
                items.push(gen_scalar(rng));
            } else {
                items.pop();
            }
            Val::List(items)
        }
        (2, Val::Map(entries)) => {
            let mut entries = entries.clone();
            if rng.one_in(2) || entries.is_empty() {
                entries.push((gen_string(rng), gen_scalar(rng)));
            } else {
                entries.pop();
            }
            Val::Map(entries)
        }
        (3, _) => gen_scalar(rng),
        _ => gen_value(rng, 2, true),
    }
}

/// Values where kinds meet: NaN and infinities (YAML only), zeros, ints and floats that are
/// equal, empty containers, null, false, the empty string.
const EDGE_VALUES: &[(&str, &str)] = &[
    ("yaml", ".nan"),
    ("yaml", ".inf"),
    ("yaml", "-.inf"),
    ("yaml", "[.nan]"),
    ("yaml", "{a: .nan}"),
    ("yaml", "0"),
    ("yaml", "-0.0"),
    ("yaml", "1"),
    ("yaml", "1.0"),
    ("json", "1"),
    ("json", "-0"),
    ("json", "9007199254740993"),
    ("yaml", "9007199254740993"),
    ("yaml", "9223372036854775807"),
    ("json", "9223372036854775807"),
    ("json", "null"),
    ("json", "false"),
    ("json", "\"\""),
    ("json", "[]"),
    ("json", "{}"),
    ("json", "[null]"),
    ("json", "{\"a\":null}"),
];

fn value_compare(rng: &mut Rng) -> Json {
    if rng.one_in(4) {
        let (la, ta) = rng.pick(EDGE_VALUES);
        let (lb, tb) = rng.pick(EDGE_VALUES);
        return json!({"kind": "value", "op": "compare", "a": {la: ta}, "b": {lb: tb}});
    }
    let a = gen_value(rng, 3, true);
    let b = nearby(rng, &a);
    let (a, b) = (value_spec(rng, &a), value_spec(rng, &b));
    json!({"kind": "value", "op": "compare", "a": a, "b": b})
}

fn value_string(rng: &mut Rng) -> Json {
    let multi = rng.one_in(10);
    let v = gen_value(rng, 3, multi);
    json!({"kind": "value", "op": "string", "a": value_spec(rng, &v)})
}

fn value_parse_json(rng: &mut Rng) -> Json {
    let v = gen_value(rng, 3, true);
    let sp = spelling(rng, 50);
    let mut bytes = to_json(rng, &v, sp).into_bytes();
    if rng.one_in(3) {
        let utf8_only = rng.percent(70);
        for _ in 0..rng.range(1, 2) {
            mutate(rng, &mut bytes, utf8_only);
        }
    }
    let mut case = json!({"kind": "value", "op": "parseJSON"});
    input_field(&mut case, bytes);
    case
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generator_makes_well_formed_cases() {
        for g in GENERATORS {
            let mut rng = Rng::new(1);
            for _ in 0..300 {
                let case = (g.make)(&mut rng);
                if let Err(m) = crate::run_case(&case) {
                    panic!("{}: malformed case {case}: {m}", g.name);
                }
            }
        }
    }
}

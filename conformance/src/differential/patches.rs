//! Random `patch` cases: merge patches, JSON patches and strategic merge patches of small
//! objects whose keys, strings and numbers come from small sets, so that patches meet what
//! they change. Numbers are ints and non-integral floats spelled one way: json-patch's `test`
//! compares spellings, which `smd::patch` knowingly does not see (see `KNOWN_DEVIATIONS`).

use super::rng::Rng;
use serde_json::{Map, Value as Json, json};

const KEYS: &[&str] = &["a", "b", "c", "name", "x/y", "~k", ""];
const STRINGS: &[&str] = &["a", "b", "c", "é", "<&>"];

fn scalar(rng: &mut Rng) -> Json {
    match rng.weighted(&[10, 10, 40, 10, 30]) {
        0 => Json::Null,
        1 => Json::Bool(rng.one_in(2)),
        2 => json!(rng.below(5)),
        3 => json!(if rng.one_in(2) { 0.5 } else { -2.5 }),
        _ => Json::String(rng.pick(STRINGS).to_owned()),
    }
}

fn value(rng: &mut Rng, depth: usize) -> Json {
    if depth == 0 || rng.percent(45) {
        return scalar(rng);
    }
    if rng.one_in(3) {
        Json::Array(
            (0..rng.range(0, 4))
                .map(|_| value(rng, depth - 1))
                .collect(),
        )
    } else {
        object(rng, depth - 1)
    }
}

fn object(rng: &mut Rng, depth: usize) -> Json {
    let mut m = Map::new();
    for _ in 0..rng.range(0, 4) {
        m.insert(rng.pick(KEYS).to_owned(), value(rng, depth));
    }
    Json::Object(m)
}

fn case(op: &str, original: &Json, patch: &Json) -> Json {
    json!({
        "kind": "patch",
        "op": op,
        "original": original.to_string(),
        "patch": patch.to_string(),
    })
}

/// A merge patch of a random object.
pub fn merge_case(rng: &mut Rng) -> Json {
    let original = object(rng, 3);
    let patch = match rng.weighted(&[85, 8, 4, 3]) {
        0 => object(rng, 3),
        1 => Json::Array((0..rng.range(0, 3)).map(|_| value(rng, 2)).collect()),
        2 => scalar(rng),
        _ => Json::Null,
    };
    case("merge", &original, &patch)
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Every JSON pointer into `v` (not the root), with the value there.
fn pointers(v: &Json, at: &str, out: &mut Vec<(String, Json)>) {
    match v {
        Json::Object(m) => {
            for (k, item) in m {
                let p = format!("{at}/{}", escape(k));
                out.push((p.clone(), item.clone()));
                pointers(item, &p, out);
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push((p.clone(), item.clone()));
                pointers(item, &p, out);
            }
        }
        _ => {}
    }
}

fn pointer(rng: &mut Rng, known: &[(String, Json)]) -> (String, Option<Json>) {
    if known.is_empty() || rng.percent(20) {
        let odd = ["", "/", "a", "a/b", "/a/b/c", "/-", "/a/-1", "/~2"];
        return (rng.pick(&odd).to_owned(), None);
    }
    let (p, v) = known[rng.below(known.len())].clone();
    match rng.weighted(&[60, 15, 25]) {
        0 => (p, Some(v)),
        1 => {
            let tail = ["-", "-1", "0", "+1", "01", "9", "x", "a", "~01"];
            (format!("{p}/{}", rng.pick(&tail)), None)
        }
        _ => (format!("{p}/{}", escape(rng.pick(KEYS))), None),
    }
}

/// A JSON patch of a random object: operations on its own paths, and some that fail.
pub fn json_case(rng: &mut Rng) -> Json {
    let original = object(rng, 3);
    let mut known = Vec::new();
    pointers(&original, "", &mut known);
    let mut ops = Vec::new();
    for _ in 0..rng.range(1, 5) {
        let kinds = ["add", "remove", "replace", "move", "copy", "test", "nop"];
        let kind = kinds[rng.weighted(&[25, 15, 15, 10, 10, 20, 5])];
        let (path, at) = pointer(rng, &known);
        let mut op = Map::new();
        op.insert("op".into(), json!(kind));
        if !rng.one_in(30) {
            op.insert("path".into(), json!(path));
        }
        if matches!(kind, "move" | "copy") && !rng.one_in(20) {
            op.insert("from".into(), json!(pointer(rng, &known).0));
        }
        if matches!(kind, "add" | "replace" | "test") && !rng.one_in(15) {
            let v = match at {
                Some(v) if kind == "test" && rng.percent(60) => v,
                _ => value(rng, 2),
            };
            op.insert("value".into(), v);
        }
        ops.push(Json::Object(op));
    }
    let patch = if rng.one_in(40) {
        object(rng, 1)
    } else {
        Json::Array(ops)
    };
    case("json", &original, &patch)
}

const NAMES: &[&str] = &["a", "b", "c", "d"];

fn container(rng: &mut Rng, name: &str) -> Json {
    let mut c = Map::new();
    c.insert("name".into(), json!(name));
    if rng.percent(70) {
        c.insert("image".into(), json!(format!("{name}:{}", rng.below(3))));
    }
    if rng.one_in(3) {
        let env: Vec<Json> = (0..rng.range(1, 3))
            .map(|_| json!({"name": rng.pick(NAMES), "value": rng.pick(STRINGS)}))
            .collect();
        c.insert("env".into(), Json::Array(env));
    }
    if rng.one_in(4) {
        c.insert("args".into(), json!([rng.pick(STRINGS), rng.pick(STRINGS)]));
    }
    Json::Object(c)
}

fn names(rng: &mut Rng) -> Vec<&'static str> {
    let mut n: Vec<&str> = NAMES.to_vec();
    rng.shuffle(&mut n);
    n.truncate(rng.range(0, 4));
    n
}

/// A strategic merge patch of a Pod: labels, finalizers (a merged list of scalars), containers
/// (merged by name, with env merged by name), tolerations (replaced), with every directive.
pub fn strategic_case(rng: &mut Rng) -> Json {
    let mut labels = Map::new();
    for k in names(rng) {
        labels.insert(k.into(), json!(rng.pick(STRINGS)));
    }
    let finalizers: Vec<Json> = (0..rng.range(0, 4))
        .map(|_| json!(rng.pick(NAMES)))
        .collect();
    let containers: Vec<Json> = names(rng).into_iter().map(|n| container(rng, n)).collect();
    let original = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "labels": labels, "finalizers": finalizers},
        "spec": {"containers": containers, "tolerations": [{"key": "t"}]},
    });
    let mut meta = Map::new();
    let mut spec = Map::new();
    if rng.one_in(2) {
        let mut l = Map::new();
        for k in names(rng) {
            l.insert(
                k.into(),
                if rng.one_in(3) {
                    Json::Null
                } else {
                    json!(rng.pick(STRINGS))
                },
            );
        }
        meta.insert("labels".into(), Json::Object(l));
    }
    if rng.one_in(2) {
        let f: Vec<Json> = (0..rng.range(0, 4))
            .map(|_| json!(rng.pick(NAMES)))
            .collect();
        meta.insert("finalizers".into(), Json::Array(f));
    }
    if rng.one_in(4) {
        let f: Vec<Json> = names(rng).into_iter().map(|n| json!(n)).collect();
        meta.insert("$deleteFromPrimitiveList/finalizers".into(), Json::Array(f));
    }
    if rng.one_in(4) {
        let f: Vec<Json> = names(rng).into_iter().map(|n| json!(n)).collect();
        meta.insert("$setElementOrder/finalizers".into(), Json::Array(f));
    }
    if rng.percent(70) {
        let mut items = Vec::new();
        for n in names(rng) {
            items.push(match rng.weighted(&[70, 15, 5, 5, 5]) {
                0 => container(rng, n),
                1 => json!({"name": n, "$patch": "delete"}),
                2 => json!({"$patch": "replace"}),
                3 => json!({"name": n, "$patch": rng.pick(&["merge", "x"])}),
                _ => json!({"image": "x"}),
            });
        }
        spec.insert("containers".into(), Json::Array(items));
    }
    if rng.one_in(3) {
        let order: Vec<Json> = names(rng).into_iter().map(|n| json!({"name": n})).collect();
        spec.insert("$setElementOrder/containers".into(), Json::Array(order));
    }
    if rng.one_in(5) {
        spec.insert("tolerations".into(), json!([{"key": rng.pick(NAMES)}]));
    }
    if rng.one_in(8) {
        let keep: Vec<Json> = ["containers", "tolerations", "x"]
            .iter()
            .filter(|_| rng.one_in(2))
            .map(|k| json!(k))
            .collect();
        spec.insert("$retainKeys".into(), Json::Array(keep));
    }
    if rng.one_in(12) {
        spec.insert(
            "$patch".into(),
            json!(rng.pick(&["replace", "delete", "x"])),
        );
    }
    let mut patch = Map::new();
    if !meta.is_empty() {
        patch.insert("metadata".into(), Json::Object(meta));
    }
    if !spec.is_empty() {
        patch.insert("spec".into(), Json::Object(spec));
    }
    let mut c = case("strategic", &original, &Json::Object(patch));
    c["gvk"] = json!({"apiVersion": "v1", "kind": "Pod"});
    c
}

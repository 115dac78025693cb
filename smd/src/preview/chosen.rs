//! Values only a server can choose (a new object's uid and creation time, generated names,
//! allocated addresses and ports, and what a strategy derives from them): smd's in-memory
//! server makes up its own ([`crate::apiserver::Exchange::server_chosen`]), a real server would
//! choose others, so an answer leaves those fields out and names them instead.

use smd_fieldpath::Value;

use crate::apiserver::ServerChoice;

/// Removes from `object` every field whose value is one of `chosen` (outside
/// `metadata.managedFields`, whose times the reports show apart); a list item whose `name` is
/// chosen goes whole. Returns the paths removed, as `.metadata.uid` and
/// `.spec.volumes[name="kube-api-access-x"]`, in the object's order.
pub fn strip_server_chosen(object: &mut Value, chosen: &[ServerChoice]) -> Vec<String> {
    let mut removed = Vec::new();
    if !chosen.is_empty() {
        walk(object, chosen, &mut String::new(), &mut removed);
    }
    removed
}

fn is_chosen(key: &str, value: &Value, chosen: &[ServerChoice]) -> bool {
    chosen.iter().any(|c| c.is(key, value))
}

fn walk(value: &mut Value, chosen: &[ServerChoice], path: &mut String, removed: &mut Vec<String>) {
    match value {
        Value::Map(map) => {
            let keys: Vec<String> = map.keys().map(str::to_owned).collect();
            for key in keys {
                if path == ".metadata" && key == "managedFields" {
                    continue;
                }
                let len = path.len();
                path.push('.');
                path.push_str(&key);
                let hit = map.get(&key).is_some_and(|v| is_chosen(&key, v, chosen));
                if hit {
                    map.remove(&key);
                    removed.push(path.clone());
                } else if let Some(child) = map.get_mut(&key) {
                    walk(child, chosen, path, removed);
                }
                path.truncate(len);
            }
        }
        Value::List(items) => {
            let mut i = 0;
            while i < items.len() {
                let len = path.len();
                let name = items[i].as_map().and_then(|m| m.get("name")).cloned();
                match &name {
                    Some(Value::String(n)) => {
                        path.push_str("[name=");
                        path.push_str(&Value::from(n.as_str()).to_string());
                        path.push(']');
                    }
                    _ => path.push_str(&format!("[{i}]")),
                }
                if name.as_ref().is_some_and(|n| is_chosen("name", n, chosen)) {
                    items.remove(i);
                    removed.push(path.clone());
                    path.truncate(len);
                    continue;
                }
                walk(&mut items[i], chosen, path, removed);
                path.truncate(len);
                i += 1;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_values_go_and_are_named() {
        let mut object = Value::from_json(
            r#"{"metadata":{"uid":"u-1","creationTimestamp":"t","managedFields":[{"time":"t"}],
                "labels":{"controller-uid":"u-1","app":"x"}},
                "spec":{"volumes":[{"name":"a"},{"name":"tok-1"}],
                    "ports":[{"port":30001,"nodePort":30001}]}}"#,
        )
        .unwrap_or(Value::Null);
        let text = |t: &str| ServerChoice {
            field: None,
            value: Value::from(t),
        };
        let port = ServerChoice {
            field: Some("nodePort"),
            value: Value::Int(30001),
        };
        let chosen = [text("u-1"), text("t"), text("tok-1"), port];
        let removed = strip_server_chosen(&mut object, &chosen);
        assert_eq!(
            removed,
            [
                ".metadata.uid",
                ".metadata.creationTimestamp",
                ".metadata.labels.controller-uid",
                ".spec.volumes[name=\"tok-1\"]",
                ".spec.ports[0].nodePort"
            ]
        );
        let left = serde_json::to_string(&object).unwrap_or_default();
        assert_eq!(
            left,
            r#"{"metadata":{"managedFields":[{"time":"t"}],"labels":{"app":"x"}},"spec":{"volumes":[{"name":"a"}],"ports":[{"port":30001}]}}"#
        );
    }
}

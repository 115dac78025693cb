//! Derives the compact form of the embedded Kubernetes schema from its canonical JSON
//! (`src/kubernetes/v1_37.*.json`, written by the Go generator): a string table and the types
//! in a flat binary layout that `src/kubernetes/compact.rs` decodes in a few milliseconds.
//! A test checks that both forms give the same schema.
//!
//! Layout (every integer a little-endian u32 unless said otherwise):
//! `SMDK` 1; strings: count, then length + UTF-8 bytes each; types: count, then name + atom;
//! GVKs: count, then group, version, kind, type (string indices).
//! atom: u8 flags (1 scalar, 2 list, 4 map); scalar: string; list: type ref, relationship
//! (string), key count + keys; map: field count + (name, type ref, value or 0xFF), element
//! type ref, relationship. type ref: u8 flags (1 named, 2 relationship, 4 nullable), name if
//! named, atom, relationship if set. value: u8 tag (0 null, 1 false, 2 true, 3 i64, 4 f64
//! bits as u64, 5 string, 6 list, 7 map of string keys).

use std::collections::HashMap;
use std::error::Error;
use std::path::PathBuf;

use serde_json::Value as Json;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("src/kubernetes");
    let schema_path = dir.join("v1_37.schema.json");
    let gvk_path = dir.join("v1_37.gvk.json");
    println!("cargo::rerun-if-changed={}", schema_path.display());
    println!("cargo::rerun-if-changed={}", gvk_path.display());
    let schema: Json = serde_json::from_slice(&std::fs::read(&schema_path)?)?;
    let gvks: Json = serde_json::from_slice(&std::fs::read(&gvk_path)?)?;

    let mut w = Writer::default();
    let mut body = Vec::new();
    let types = array(&schema["types"])?;
    put_u32(&mut body, types.len())?;
    for t in types {
        let name = w.string(text(&t["name"])?)?;
        put_u32(&mut body, name)?;
        w.atom(&mut body, t)?;
    }
    let gvks = array(&gvks)?;
    put_u32(&mut body, gvks.len())?;
    for g in gvks {
        for part in ["group", "version", "kind", "type"] {
            let i = w.string(text(&g[part])?)?;
            put_u32(&mut body, i)?;
        }
    }

    let mut out = b"SMDK".to_vec();
    put_u32(&mut out, 1)?;
    put_u32(&mut out, w.strings.len())?;
    for s in &w.strings {
        put_u32(&mut out, s.len())?;
        out.extend_from_slice(s.as_bytes());
    }
    out.extend_from_slice(&body);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("v1_37.bin"), out)?;
    Ok(())
}

#[derive(Default)]
struct Writer {
    strings: Vec<String>,
    index: HashMap<String, usize>,
}

impl Writer {
    fn string(&mut self, s: &str) -> Result<usize> {
        if let Some(&i) = self.index.get(s) {
            return Ok(i);
        }
        let i = self.strings.len();
        self.strings.push(s.to_owned());
        self.index.insert(s.to_owned(), i);
        Ok(i)
    }

    fn atom(&mut self, out: &mut Vec<u8>, obj: &Json) -> Result<()> {
        let (scalar, list, map) = (obj.get("scalar"), obj.get("list"), obj.get("map"));
        let flags = u8::from(scalar.is_some())
            | u8::from(list.is_some()) << 1
            | u8::from(map.is_some()) << 2;
        out.push(flags);
        if let Some(s) = scalar {
            let i = self.string(text(s)?)?;
            put_u32(out, i)?;
        }
        if let Some(l) = list {
            self.type_ref(out, l.get("elementType"))?;
            self.relationship(out, l.get("elementRelationship"))?;
            let keys = match l.get("keys") {
                Some(k) => array(k)?.clone(),
                None => Vec::new(),
            };
            put_u32(out, keys.len())?;
            for k in &keys {
                let i = self.string(text(k)?)?;
                put_u32(out, i)?;
            }
        }
        if let Some(m) = map {
            let fields = match m.get("fields") {
                Some(f) => array(f)?.clone(),
                None => Vec::new(),
            };
            put_u32(out, fields.len())?;
            for f in &fields {
                let i = self.string(text(&f["name"])?)?;
                put_u32(out, i)?;
                self.type_ref(out, f.get("type"))?;
                match f.get("default") {
                    Some(d) => self.value(out, d)?,
                    None => out.push(0xFF),
                }
            }
            self.type_ref(out, m.get("elementType"))?;
            self.relationship(out, m.get("elementRelationship"))?;
        }
        Ok(())
    }

    fn relationship(&mut self, out: &mut Vec<u8>, r: Option<&Json>) -> Result<()> {
        let i = self.string(r.map(text).transpose()?.unwrap_or(""))?;
        put_u32(out, i)
    }

    fn type_ref(&mut self, out: &mut Vec<u8>, tr: Option<&Json>) -> Result<()> {
        let empty = Json::Object(Default::default());
        let tr = tr.unwrap_or(&empty);
        let named = tr.get("namedType");
        let er = tr.get("elementRelationship");
        let nullable = tr.get("nullable").and_then(Json::as_bool).unwrap_or(false);
        out.push(u8::from(named.is_some()) | u8::from(er.is_some()) << 1 | u8::from(nullable) << 2);
        if let Some(n) = named {
            let i = self.string(text(n)?)?;
            put_u32(out, i)?;
        }
        self.atom(out, tr)?;
        if let Some(er) = er {
            let i = self.string(text(er)?)?;
            put_u32(out, i)?;
        }
        Ok(())
    }

    fn value(&mut self, out: &mut Vec<u8>, v: &Json) -> Result<()> {
        match v {
            Json::Null => out.push(0),
            Json::Bool(b) => out.push(1 + u8::from(*b)),
            Json::Number(n) => {
                if let (Some(i), false) = (n.as_i64(), n.is_f64()) {
                    out.push(3);
                    out.extend_from_slice(&i.to_le_bytes());
                } else {
                    let f = n.as_f64().ok_or("a number beyond f64")?;
                    out.push(4);
                    out.extend_from_slice(&f.to_bits().to_le_bytes());
                }
            }
            Json::String(s) => {
                out.push(5);
                let i = self.string(s)?;
                put_u32(out, i)?;
            }
            Json::Array(items) => {
                out.push(6);
                put_u32(out, items.len())?;
                for item in items {
                    self.value(out, item)?;
                }
            }
            Json::Object(m) => {
                out.push(7);
                put_u32(out, m.len())?;
                for (k, item) in m {
                    // Canonical values double a leading `$`; tagged forms do not occur here.
                    let key = match k.strip_prefix('$') {
                        Some(rest) if rest.starts_with('$') => rest,
                        Some(_) => return Err(format!("a tagged value {k:?} in a default").into()),
                        None => k.as_str(),
                    };
                    let i = self.string(key)?;
                    put_u32(out, i)?;
                    self.value(out, item)?;
                }
            }
        }
        Ok(())
    }
}

fn put_u32(out: &mut Vec<u8>, n: usize) -> Result<()> {
    out.extend_from_slice(&u32::try_from(n)?.to_le_bytes());
    Ok(())
}

fn text(j: &Json) -> Result<&str> {
    j.as_str()
        .ok_or_else(|| format!("expected a string, got {j}").into())
}

fn array(j: &Json) -> Result<&Vec<Json>> {
    j.as_array()
        .ok_or_else(|| format!("expected an array, got {j}").into())
}

//! Kubernetes' `library.Format`: the named formats (`format.dns1123Label()`, ...,
//! `format.named(name)`) and `<format>.validate(string)`, which answers `optional.none()` for a
//! valid string and else the validator's messages. The name validators are apimachinery's
//! (smd's `validation::names`); `uri` reports `url.ParseRequestURI`'s error; `uuid`, `byte`,
//! `date` and `datetime` are kube-openapi's `strfmt` checks with fixed messages.

use crate::customresource::validation::formats;
use crate::validation::names;
use smd_cel::Value;
use smd_cel::error::{Error, Result};
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Opaque, Type};
use std::sync::Arc;

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "kubernetes.NamedFormat";

/// One named format: its function name suffix, its `Name`, its validator and the regular
/// expression size its cost assumes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NamedFormat {
    key: &'static str,
    name: &'static str,
    validate: fn(&str) -> Vec<String>,
    max_regex_size: u64,
}

fn strfmt(format: &'static str, message: &'static str) -> impl Fn(&str) -> Vec<String> {
    move |s| {
        if formats::validates(format, s) {
            Vec::new()
        } else {
            vec![message.to_owned()]
        }
    }
}

const FORMATS: [NamedFormat; 13] = [
    NamedFormat {
        key: "dns1123Label",
        name: "DNS1123Label",
        validate: |s| names::name_is_dns_label(s, false),
        max_regex_size: 30,
    },
    NamedFormat {
        key: "dns1123Subdomain",
        name: "DNS1123Subdomain",
        validate: |s| names::name_is_dns_subdomain(s, false),
        max_regex_size: 60,
    },
    NamedFormat {
        key: "dns1035Label",
        name: "DNS1035Label",
        validate: |s| names::name_is_dns1035_label(s, false),
        max_regex_size: 30,
    },
    NamedFormat {
        key: "qualifiedName",
        name: "QualifiedName",
        validate: names::is_qualified_name,
        max_regex_size: 60,
    },
    NamedFormat {
        key: "dns1123LabelPrefix",
        name: "DNS1123LabelPrefix",
        validate: |s| names::name_is_dns_label(s, true),
        max_regex_size: 30,
    },
    NamedFormat {
        key: "dns1123SubdomainPrefix",
        name: "DNS1123SubdomainPrefix",
        validate: |s| names::name_is_dns_subdomain(s, true),
        max_regex_size: 60,
    },
    NamedFormat {
        key: "dns1035LabelPrefix",
        name: "DNS1035LabelPrefix",
        validate: |s| names::name_is_dns1035_label(s, true),
        max_regex_size: 30,
    },
    NamedFormat {
        key: "labelValue",
        name: "LabelValue",
        validate: names::is_label_value,
        max_regex_size: 40,
    },
    NamedFormat {
        key: "uri",
        name: "URI",
        validate: |s| super::url::parse_request_uri(s).err().into_iter().collect(),
        // The library's estimate of govalidator's URL expression.
        max_regex_size: 1103,
    },
    NamedFormat {
        key: "uuid",
        name: "uuid",
        validate: |s| strfmt("uuid", "does not match the UUID format")(s),
        // len(strfmt.UUIDPattern)
        max_regex_size: 70,
    },
    NamedFormat {
        key: "byte",
        name: "byte",
        validate: |s| strfmt("byte", "invalid base64")(s),
        max_regex_size: 84,
    },
    NamedFormat {
        key: "date",
        name: "date",
        validate: |s| strfmt("date", "invalid date")(s),
        // len(strfmt.DateTimePattern)
        max_regex_size: 71,
    },
    NamedFormat {
        key: "datetime",
        name: "datetime",
        validate: |s| strfmt("datetime", "invalid datetime")(s),
        max_regex_size: 71,
    },
];

/// A named format as a CEL value; formats are equal when their names are.
#[derive(Debug)]
pub(crate) struct Format(pub(crate) NamedFormat);

impl Opaque for Format {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_format(other).is_some_and(|o| o.0.name == self.0.name)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn as_format(v: &Value) -> Option<&Format> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Format>(),
        _ => None,
    }
}

/// The messages of the format called `key` (`dns1123Label`, `uri`, ...) for `s`: empty when
/// valid; `None` for an unknown format.
#[cfg(test)]
pub(crate) fn validate(key: &str, s: &str) -> Option<Vec<String>> {
    FORMATS
        .iter()
        .find(|f| f.key == key)
        .map(|f| (f.validate)(s))
}

fn format_value(f: NamedFormat) -> Value {
    Value::Opaque(Arc::new(Format(f)))
}

pub(super) fn register(f: &mut Functions) {
    for nf in FORMATS {
        let name = format!("format.{}", nf.key);
        f.add(
            &name,
            Overload::new(name.clone(), vec![], move |_| Ok(format_value(nf))),
        );
    }
    let s = Param::Is(Type::String);
    f.add(
        "format.named",
        Overload::new("format-named", vec![s.clone()], |a| {
            let Value::String(key) = &a[0] else {
                return Err(Error::no_such_overload());
            };
            Ok(Value::optional(
                FORMATS
                    .iter()
                    .find(|f| f.key == &**key)
                    .map(|f| format_value(*f)),
            ))
        }),
    );
    f.add(
        "validate",
        Overload::new(
            "format-validate",
            vec![Param::Is(Type::Opaque(Arc::from(TYPE_NAME))), s],
            |a| {
                let format = as_format(&a[0]).ok_or_else(Error::no_such_overload)?;
                let Value::String(text) = &a[1] else {
                    return Err(Error::no_such_overload());
                };
                let messages = (format.0.validate)(text);
                Ok(Value::optional((!messages.is_empty()).then(|| {
                    Value::list(messages.into_iter().map(Value::from).collect())
                })))
            },
        ),
    );
    f.set_cost("format-named", Arc::new(|_, _| 1));
    f.set_cost(
        "format-validate",
        Arc::new(|a: &[Value], _: &Result<Value>| {
            let Some(format) = as_format(&a[0]) else {
                return 1;
            };
            let len = a[1].cost_size() as f64;
            let text = ((1.0 + len) * 0.1).ceil() as u64;
            let regex = (format.0.max_regex_size as f64 * 0.25).ceil() as u64;
            text * regex
        }),
    );
}

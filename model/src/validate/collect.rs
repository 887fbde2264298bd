//! Every failure of a value, for [`Validator::errors`]: the walk that goes on past a
//! failure, keeping the path to the failing value for its pointer, in `jsonschema`'s order
//! and with its (masked) messages. Whether an assertion fails is
//! [`check_valid`](Validator::check_valid)'s answer (the keyword's one verdict,
//! `Check::asserts`); only the containers are walked here, their members looked up by the
//! same [`property`](super::keyword::property).

use serde_json::{Map, Value};

use super::keyword::{has_key, missing, property};
use super::node::{Check, Node, TYPE_NAMES};
use super::{ErrorKind, MAX_DEPTH, ValidationError, Validator};
use crate::contract::{Seg, render as pointer};
use crate::schema::default_property_names_accepts;

pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Validator {
    pub(super) fn collect<'v>(
        &self,
        id: usize,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<ValidationError>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            out.push(ValidationError {
                pointer: pointer(path),
                message: "the schema refers to itself without end".to_owned(),
                kind: ErrorKind::Recursion,
            });
            return;
        }
        match &self.nodes[id] {
            Node::True | Node::Pending => {}
            Node::False => out.push(ValidationError {
                pointer: pointer(path),
                message: "False schema does not allow value".to_owned(),
                kind: ErrorKind::FalseSchema,
            }),
            Node::Ref(target) => self.collect(*target, v, path, out, depth + 1),
            Node::Checks(checks) => {
                for check in checks {
                    if self.collect_members(check, v, path, out, depth)
                        || self.check_valid(check, v, depth)
                    {
                        continue;
                    }
                    if let Some((kind, message)) = self.failure(check, v, depth) {
                        out.push(ValidationError {
                            pointer: pointer(path),
                            message,
                            kind,
                        });
                    }
                }
            }
        }
    }

    /// A keyword that reports its members' failures itself (or, for `required`, each
    /// missing name): walked, and `true`; `false` for the others.
    fn collect_members<'v>(
        &self,
        check: &Check,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<ValidationError>,
        depth: usize,
    ) -> bool {
        match (check, v) {
            (Check::Items(id), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    self.collect(*id, item, path, out, depth + 1);
                    path.pop();
                }
            }
            (Check::Properties(props), Value::Object(map)) => {
                // `jsonschema`'s order: the instance's members, or (for an object of more
                // than four members per declared property, with under 15 declared) the
                // declared properties.
                if props.len() < 15 && map.len() > props.len().saturating_mul(4) {
                    for (k, id) in props {
                        if let Some((key, value)) = map.get_key_value(&k.text) {
                            path.push(Seg::Key(key));
                            self.collect(*id, value, path, out, depth + 1);
                            path.pop();
                        }
                    }
                } else {
                    for (key, value) in map {
                        if let Some(i) = property(props, key) {
                            path.push(Seg::Key(key));
                            self.collect(props[i].1, value, path, out, depth + 1);
                            path.pop();
                        }
                    }
                }
            }
            (Check::Closed { .. }, Value::Object(map)) => {
                self.collect_closed(check, map, path, out, depth);
            }
            (Check::Required(names, _), Value::Object(map)) => {
                for n in missing(names, map) {
                    out.push(required_error(path, n));
                }
            }
            (Check::PropertyNames(id), Value::Object(map)) => {
                for k in map.keys() {
                    let name = Value::String(k.clone());
                    let mut inner = Vec::new();
                    let mut inner_path = Vec::new();
                    self.collect(*id, &name, &mut inner_path, &mut inner, depth + 1);
                    let shown = name.to_string();
                    for e in inner {
                        out.push(ValidationError {
                            pointer: pointer(path),
                            message: unmask(&e.message, &shown),
                            kind: ErrorKind::PropertyNames,
                        });
                    }
                }
            }
            (Check::DefaultPropertyNames(schema), Value::Object(map)) => {
                for k in map.keys().filter(|k| !default_property_names_accepts(k)) {
                    out.push(ValidationError {
                        pointer: pointer(path),
                        message: format!(
                            "{} is not allowed for {}",
                            schema.get("not").map_or_else(String::new, Value::to_string),
                            Value::String(k.clone())
                        ),
                        kind: ErrorKind::PropertyNames,
                    });
                }
            }
            (Check::AllOf(ids), _) => {
                for id in ids {
                    self.collect(*id, v, path, out, depth + 1);
                }
            }
            _ => return false,
        }
        true
    }

    /// `properties` beside `additionalProperties` (a schema, or `false`): the members'
    /// failures, then the undeclared members refused, then the one required name checked
    /// in the same pass.
    fn collect_closed<'v>(
        &self,
        check: &Check,
        map: &'v Map<String, Value>,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<ValidationError>,
        depth: usize,
    ) {
        let Check::Closed {
            properties,
            additional,
            declared,
            required,
            ..
        } = check
        else {
            return;
        };
        let mut unexpected = Vec::new();
        for (k, value) in map {
            match property(properties, k)
                .map(|i| properties[i].1)
                .or(*additional)
            {
                Some(id) => {
                    path.push(Seg::Key(k));
                    self.collect(id, value, path, out, depth + 1);
                    path.pop();
                }
                None => unexpected.push(k.clone()),
            }
        }
        if !unexpected.is_empty() {
            out.push(if *declared {
                let listed: Vec<String> = unexpected.iter().map(|k| format!("'{k}'")).collect();
                ValidationError {
                    pointer: pointer(path),
                    message: format!(
                        "Additional properties are not allowed ({} {} unexpected)",
                        listed.join(", "),
                        if unexpected.len() == 1 { "was" } else { "were" }
                    ),
                    kind: ErrorKind::AdditionalProperties { unexpected },
                }
            } else {
                ValidationError {
                    pointer: pointer(path),
                    message: "False schema does not allow value".to_owned(),
                    kind: ErrorKind::FalseSchema,
                }
            });
        }
        if let Some(n) = required
            && !has_key(map, n)
        {
            out.push(required_error(path, n));
        }
    }

    /// The message of an assertion that failed on `v` (and of `anyOf`, `oneOf`, `not`,
    /// whose branches' failures are not listed); `None` for the keywords reported by
    /// [`collect_members`](Self::collect_members).
    fn failure(&self, check: &Check, v: &Value, depth: usize) -> Option<(ErrorKind, String)> {
        Some(match check {
            Check::Type { set, single } => {
                let names: Vec<&str> = TYPE_NAMES
                    .iter()
                    .filter(|(b, _)| set & b != 0)
                    .map(|(_, n)| *n)
                    .collect();
                let message = if *single {
                    format!(
                        "value is not of type \"{}\"",
                        names.first().copied().unwrap_or("")
                    )
                } else {
                    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                    format!("value is not of types {}", quoted.join(", "))
                };
                (ErrorKind::Type, message)
            }
            Check::Enum(options) => (ErrorKind::Enum, enum_message(options)),
            Check::Const(c) => (ErrorKind::Const, format!("{c} was expected")),
            Check::Minimum(_, l) => (
                ErrorKind::Minimum,
                format!("value is less than the minimum of {l}"),
            ),
            Check::Maximum(_, l) => (
                ErrorKind::Maximum,
                format!("value is greater than the maximum of {l}"),
            ),
            Check::ExclusiveMinimum(_, l) => (
                ErrorKind::ExclusiveMinimum,
                format!("value is less than or equal to the minimum of {l}"),
            ),
            Check::ExclusiveMaximum(_, l) => (
                ErrorKind::ExclusiveMaximum,
                format!("value is greater than or equal to the maximum of {l}"),
            ),
            Check::MultipleOf(m) => (
                ErrorKind::MultipleOf,
                format!("value is not a multiple of {m}"),
            ),
            Check::MinLength(l) => (
                ErrorKind::MinLength,
                format!(
                    "value is shorter than {}",
                    plural(*l, "character", "characters")
                ),
            ),
            Check::MaxLength(l) => (
                ErrorKind::MaxLength,
                format!(
                    "value is longer than {}",
                    plural(*l, "character", "characters")
                ),
            ),
            Check::Pattern(_, p) => (ErrorKind::Pattern, format!("value does not match \"{p}\"")),
            Check::Format(_, name) => (ErrorKind::Format, format!("value is not a \"{name}\"")),
            Check::MinItems(l) => (
                ErrorKind::MinItems,
                format!("value has less than {}", plural(*l, "item", "items")),
            ),
            Check::MaxItems(l) => (
                ErrorKind::MaxItems,
                format!("value has more than {}", plural(*l, "item", "items")),
            ),
            Check::UniqueItems => (
                ErrorKind::UniqueItems,
                "value has non-unique elements".to_owned(),
            ),
            Check::AnyOf(_) => (
                ErrorKind::AnyOf,
                "value is not valid under any of the schemas listed in the 'anyOf' keyword"
                    .to_owned(),
            ),
            Check::OneOf(ids) => {
                if ids.iter().any(|id| self.valid(*id, v, depth + 1)) {
                    (
                        ErrorKind::OneOfMultipleValid,
                        "value is valid under more than one of the schemas listed in the 'oneOf' keyword"
                            .to_owned(),
                    )
                } else {
                    (
                        ErrorKind::OneOfNotValid,
                        "value is not valid under any of the schemas listed in the 'oneOf' keyword"
                            .to_owned(),
                    )
                }
            }
            Check::Not(_, schema) => (ErrorKind::Not, format!("{schema} is not allowed for value")),
            // Reported by `collect_members`, or never failing on their own.
            _ => return None,
        })
    }
}

fn required_error(path: &[Seg<'_>], name: &str) -> ValidationError {
    ValidationError {
        pointer: pointer(path),
        message: format!("{} is a required property", Value::String(name.to_owned())),
        kind: ErrorKind::Required {
            property: name.to_owned(),
        },
    }
}

/// A masked message about a property name, with the name shown instead.
fn unmask(message: &str, shown: &str) -> String {
    if let Some(rest) = message.strip_prefix("value ") {
        format!("{shown} {rest}")
    } else if let Some(head) = message.strip_suffix(" for value") {
        format!("{head} for {shown}")
    } else if let Some(rest) = message.strip_prefix("False schema does not allow value") {
        format!("False schema does not allow {shown}{rest}")
    } else {
        message.to_owned()
    }
}

fn enum_message(options: &[Value]) -> String {
    let mut text = String::from("value is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            if i == 0 {
                text.push_str(&o.to_string());
            } else if i == options.len() - 1 {
                text.push_str(&format!(" or {o}"));
            } else {
                text.push_str(&format!(", {o}"));
            }
        }
    } else {
        for (i, o) in options.iter().take(2).enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&o.to_string());
        }
        text.push_str(&format!(" or {} other candidates", options.len() - 2));
    }
    text
}

//! Refusals a model can act on, for [`Validator::explain`]: every fault of a refused value
//! at the deepest place it can be matched, the rule in plain words with its bound or its
//! allowed values ([`words`](super::words)). A walk beside [`collect`](super::collect)'s
//! (which keeps `jsonschema`'s wording for the parity tests): whether a keyword fails is
//! the same [`check_valid`](Validator::check_valid) verdict; only what is said differs, and
//! where a `oneOf`/`anyOf` is explained inside the branch the value was meant for
//! ([`branch`](super::branch)).
//!
//! Built only for a refused value: [`Validator::is_valid`] decides first.

use serde_json::{Map, Value};

use super::keyword::{has_key, missing, property};
use super::node::{Check, Node};
use super::{MAX_DEPTH, Validator, words};
use crate::contract::{Seg, append_token, render};

/// One fault of a refused value, as the model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The JSON pointer of the faulty value in the instance (of the key, for a key that is
    /// missing or not accepted).
    pub pointer: String,
    /// The rule in plain words, with its bound or allowed values.
    pub message: String,
    /// What the fault is.
    pub kind: FaultKind,
}

/// What a [`Fault`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    /// The value at the pointer breaks a rule.
    Value,
    /// A required key is missing (the pointer is the key's).
    Missing {
        /// The key.
        key: String,
    },
    /// A key the object does not accept (the pointer is the key's).
    Unknown {
        /// The key.
        key: String,
    },
}

impl Validator {
    /// Every fault of `instance`, for a model to fix its call: at the deepest place it can
    /// be matched (inside the branch of a data-carrying enum its tag picks), the rule in
    /// plain words with its bound; empty when `instance` is valid. Walked only for a
    /// refused value.
    ///
    /// ```
    /// use neuralis_model::validate::Validator;
    /// use serde_json::json;
    /// let v = Validator::compile(&json!({
    ///     "type": "object", "additionalProperties": false,
    ///     "properties": {"percent": {"type": "integer", "maximum": 50},
    ///                    "dry_run": {"type": "boolean"}}
    /// })).expect("in the subset");
    /// let faults = v.explain(&json!({"percent": 80, "dryrun": true}));
    /// assert_eq!(faults[0].pointer, "/percent");
    /// assert_eq!(faults[0].message, "at most 50");
    /// assert_eq!(faults[1].pointer, "/dryrun");
    /// assert_eq!(faults[1].message, "`dryrun` is not an argument here; did you mean `dry_run`?");
    /// ```
    #[must_use]
    pub fn explain(&self, instance: &Value) -> Vec<Fault> {
        let mut out = Vec::new();
        if !self.is_valid(instance) {
            let mut path = Vec::new();
            self.explain_at(0, instance, &mut path, &mut out, 0);
        }
        out
    }

    pub(super) fn explain_at<'v>(
        &self,
        id: usize,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            out.push(value_fault(
                path,
                "the schema refers to itself without end".to_owned(),
            ));
            return;
        }
        match &self.nodes[id] {
            Node::True | Node::Pending => {}
            Node::False => out.push(value_fault(path, "no value is accepted here".to_owned())),
            Node::Ref(target) => self.explain_at(*target, v, path, out, depth + 1),
            Node::Checks(checks) => {
                // A list of values says more than their type.
                let listed = checks.iter().any(|c| {
                    matches!(c, Check::Enum(_) | Check::Const(_)) && !self.check_valid(c, v, depth)
                });
                for check in checks {
                    if self.explain_members(check, v, path, out, depth)
                        || self.check_valid(check, v, depth)
                        || (listed && matches!(check, Check::Type { .. }))
                    {
                        continue;
                    }
                    if let Some(message) = words::rule(check, v) {
                        out.push(value_fault(path, message));
                    }
                }
            }
        }
    }

    /// A keyword that holds subschemas (or, for `required`, names keys): explained, and
    /// `true`; `false` for the assertions.
    fn explain_members<'v>(
        &self,
        check: &Check,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) -> bool {
        match (check, v) {
            (Check::Items(id), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if !self.valid(*id, item, depth + 1) {
                        path.push(Seg::Index(i));
                        self.explain_at(*id, item, path, out, depth + 1);
                        path.pop();
                    }
                }
            }
            (Check::Properties(props), Value::Object(map)) => {
                for (key, value) in map {
                    if let Some(i) = property(props, key)
                        && !self.valid(props[i].1, value, depth + 1)
                    {
                        path.push(Seg::Key(key));
                        self.explain_at(props[i].1, value, path, out, depth + 1);
                        path.pop();
                    }
                }
            }
            (Check::Closed { .. }, Value::Object(map)) => {
                self.explain_closed(check, map, path, out, depth);
            }
            (Check::Required(names, _), Value::Object(map)) => {
                for n in missing(names, map) {
                    out.push(missing_fault(path, n));
                }
            }
            (Check::PropertyNames(id), Value::Object(map)) => {
                for k in map.keys() {
                    let name = Value::String(k.clone());
                    if self.valid(*id, &name, depth + 1) {
                        continue;
                    }
                    let mut inner = Vec::new();
                    self.explain_at(*id, &name, &mut Vec::new(), &mut inner, depth + 1);
                    let rules: Vec<String> = inner.into_iter().map(|f| f.message).collect();
                    out.push(Fault {
                        pointer: at_key(path, k),
                        message: format!("`{k}` is not an accepted key: {}", rules.join("; ")),
                        kind: FaultKind::Unknown { key: k.clone() },
                    });
                }
            }
            (Check::DefaultPropertyNames(_), Value::Object(map)) => {
                for k in map.keys() {
                    if !crate::schema::default_property_names_accepts(k) {
                        out.push(Fault {
                            pointer: at_key(path, k),
                            message: format!(
                                "`{k}` is not an accepted key: a key may not start with `__` \
                                 or `$`, nor be `constructor` or `prototype`"
                            ),
                            kind: FaultKind::Unknown { key: k.clone() },
                        });
                    }
                }
            }
            (Check::AllOf(ids), _) => {
                for id in ids {
                    self.explain_at(*id, v, path, out, depth + 1);
                }
            }
            (Check::AnyOf(ids) | Check::OneOf(ids), _) => {
                if !self.check_valid(check, v, depth) {
                    let one_of = matches!(check, Check::OneOf(_));
                    self.explain_branches(ids, one_of, v, path, out, depth + 1);
                }
            }
            _ => return false,
        }
        true
    }

    /// `properties` beside `additionalProperties`: the members' faults, each key not
    /// accepted (with the closest declared key, or the declared keys when few), the one
    /// required key checked in the same pass.
    fn explain_closed<'v>(
        &self,
        check: &Check,
        map: &'v Map<String, Value>,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        let Check::Closed {
            properties,
            additional,
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
                    if !self.valid(id, value, depth + 1) {
                        path.push(Seg::Key(k));
                        self.explain_at(id, value, path, out, depth + 1);
                        path.pop();
                    }
                }
                None => unexpected.push(k),
            }
        }
        if !unexpected.is_empty() {
            let declared: Vec<&str> = properties.iter().map(|(n, _)| n.text.as_str()).collect();
            for k in unexpected {
                out.push(Fault {
                    pointer: at_key(path, k),
                    message: words::unknown_key(k, &declared, path.is_empty()),
                    kind: FaultKind::Unknown { key: k.clone() },
                });
            }
        }
        if let Some(n) = required
            && !has_key(map, n)
        {
            out.push(missing_fault(path, n));
        }
    }
}

/// The pointer of `key` in the object at `path`.
pub(super) fn at_key(path: &[Seg<'_>], key: &str) -> String {
    let mut pointer = render(path);
    append_token(&mut pointer, key);
    pointer
}

/// A rule the value at `path` breaks.
pub(super) fn value_fault(path: &[Seg<'_>], message: String) -> Fault {
    Fault {
        pointer: render(path),
        message,
        kind: FaultKind::Value,
    }
}

/// A required key the object at `path` lacks.
pub(super) fn missing_fault(path: &[Seg<'_>], key: &str) -> Fault {
    Fault {
        pointer: at_key(path, key),
        message: words::missing(key),
        kind: FaultKind::Missing {
            key: key.to_owned(),
        },
    }
}

//! A refused `oneOf`/`anyOf`, explained where the value was meant to go
//! ([`Validator::explain`]). The derive writes a Rust enum that carries data as one of
//! these, and its branches say by their shape which representation it is, so no keyword
//! of our own is needed to recognize it:
//!
//! - **internally or adjacently tagged** (serde's `tag`, `tag` + `content`): every object
//!   branch requires one same key whose value is a single string (`"enum": ["canary"]` or
//!   `"const": "canary"`), different per branch. The tag the value sends picks the
//!   branch, and its faults are reported inside it; an unknown tag lists the tags, a
//!   missing one names the key and its values, a key of another branch names the branch
//!   it belongs to.
//! - **externally tagged** (serde's default): every object branch is a closed object of
//!   one required key (the variant's name); unit variants are strings beside them. The
//!   key sent picks the branch.
//! - anything else (`untagged`, a hand-written `oneOf`/`anyOf`): the closest branch, the
//!   one whose type and required keys the value fits, then the one with the fewest and
//!   deepest faults; when none is closer, the branches in one short line each, described
//!   by their shape (never by a name internal to the schema).

use std::cmp::{Ordering, Reverse};

use serde_json::Value;

use super::explain::{Fault, FaultKind, at_key, value_fault};
use super::keyword::has_key;
use super::node::{Check, Name, Node, OBJECT};
use super::{Validator, num, words};
use crate::contract::Seg;

/// How many `$ref`s are followed to find a branch's own keywords.
const MAX_REFS: usize = 64;

/// A branch's faults ranked: fewest, then deepest, first.
type Rank = (usize, Reverse<usize>);

/// A tag recognized by its shape: the key, and per object branch its value.
struct Tag<'s> {
    key: &'s str,
    variants: Vec<(usize, &'s Value)>,
}

/// An externally tagged enum: per object branch its one key; the unit variants' names.
struct External<'s> {
    variants: Vec<(usize, &'s str)>,
    units: Vec<&'s Value>,
}

impl Validator {
    pub(super) fn explain_branches<'v>(
        &self,
        ids: &[usize],
        one_of: bool,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        if one_of && ids.iter().filter(|id| self.valid(**id, v, depth)).count() > 1 {
            let shapes: Vec<String> = ids
                .iter()
                .filter(|id| self.valid(**id, v, depth))
                .map(|id| self.shape(*id))
                .collect();
            out.push(value_fault(
                path,
                format!(
                    "fits more than one shape, and exactly one is accepted: {}",
                    shapes.join("; ")
                ),
            ));
            return;
        }
        if let Some(tag) = self.tag(ids)
            && (v.is_object() || tag.variants.len() == ids.len())
        {
            return self.explain_tagged(&tag, v, path, out, depth);
        }
        if let Some(external) = self.external(ids) {
            return self.explain_external(&external, v, path, out, depth);
        }
        self.explain_closest(ids, v, path, out, depth);
    }

    /// The faults of an internally or adjacently tagged value, inside the branch its tag
    /// picks.
    fn explain_tagged<'v>(
        &self,
        tag: &Tag<'_>,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        let tags = || tag.variants.iter().map(|(_, t)| *t);
        let Value::Object(map) = v else {
            out.push(value_fault(
                path,
                format!(
                    "an object whose `{}` is {}, not {}",
                    tag.key,
                    words::one_of(tags()),
                    words::value_kind(OBJECT, v)
                ),
            ));
            return;
        };
        let Some((key, sent)) = map.get_key_value(tag.key) else {
            out.push(Fault {
                pointer: at_key(path, tag.key),
                message: format!(
                    "{} (it picks the variant): {}",
                    words::missing(tag.key),
                    words::one_of(tags())
                ),
                kind: FaultKind::Missing {
                    key: tag.key.to_owned(),
                },
            });
            return;
        };
        let Some(&(branch, chosen)) = tag.variants.iter().find(|(_, t)| num::equal(t, sent)) else {
            path.push(Seg::Key(key));
            out.push(value_fault(path, words::one_of(tags())));
            path.pop();
            return;
        };
        let start = out.len();
        self.explain_at(branch, v, path, out, depth);
        // A key of another variant names the variant it belongs to.
        for fault in &mut out[start..] {
            let FaultKind::Unknown { key } = &fault.kind else {
                continue;
            };
            if fault.pointer != at_key(path, key) {
                continue;
            }
            let owners: Vec<&Value> = tag
                .variants
                .iter()
                .filter(|(b, _)| *b != branch && self.declares(*b, key))
                .map(|(_, t)| *t)
                .collect();
            if !owners.is_empty() {
                fault.message = format!(
                    "`{key}` is not a field of {}; it belongs to {}",
                    words::shown(chosen),
                    words::list(owners.iter().map(|t| words::shown(t)), owners.len())
                );
            }
        }
    }

    /// The faults of an externally tagged value, inside the branch its one key picks.
    fn explain_external<'v>(
        &self,
        external: &External<'_>,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        let names = || {
            let keys = external.variants.iter().map(|(_, k)| format!("`{k}`"));
            words::list(keys, external.variants.len())
        };
        let expected = || {
            let object = format!("an object with one key, the variant: one of {}", names());
            if external.units.is_empty() {
                object
            } else {
                format!(
                    "{}, or {object}",
                    words::one_of(external.units.iter().copied())
                )
            }
        };
        match v {
            Value::Object(map) => {
                let sent: Vec<usize> = external
                    .variants
                    .iter()
                    .filter(|(_, k)| has_key(map, k))
                    .map(|(b, _)| *b)
                    .collect();
                match sent[..] {
                    [branch] => self.explain_at(branch, v, path, out, depth),
                    [] if !map.is_empty() => {
                        let keys: Vec<&str> = external.variants.iter().map(|(_, k)| *k).collect();
                        for k in map.keys() {
                            let message = match crate::suggest::did_you_mean(k, &keys) {
                                Some(close) => {
                                    format!("`{k}` is not a variant here; did you mean `{close}`?")
                                }
                                None => format!("`{k}` is not a variant here: {}", expected()),
                            };
                            out.push(Fault {
                                pointer: at_key(path, k),
                                message,
                                kind: FaultKind::Unknown { key: k.clone() },
                            });
                        }
                    }
                    _ => out.push(value_fault(path, expected())),
                }
            }
            _ => out.push(value_fault(path, expected())),
        }
    }

    /// The faults of the branch the value comes closest to, or the branches in words when
    /// none is closer.
    fn explain_closest<'v>(
        &self,
        ids: &[usize],
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<Fault>,
        depth: usize,
    ) {
        // The faults, and their rank: fewest, then deepest, first.
        let mut best: Option<(Vec<Fault>, Rank)> = None;
        let mut tied = false;
        // The branches whose type and required keys the value fits, else those whose type
        // it fits.
        let mut fitting: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|id| self.fits(*id, v, depth, true))
            .collect();
        if fitting.is_empty() {
            fitting = ids
                .iter()
                .copied()
                .filter(|id| self.fits(*id, v, depth, false))
                .collect();
        }
        for id in &fitting {
            let mut faults = Vec::new();
            self.explain_at(*id, v, path, &mut faults, depth);
            let deepest = faults
                .iter()
                .map(|f| f.pointer.matches('/').count())
                .max()
                .unwrap_or(0);
            let rank = (faults.len(), Reverse(deepest));
            match &best {
                Some((b, r)) => match rank.cmp(r) {
                    Ordering::Less => {
                        best = Some((faults, rank));
                        tied = false;
                    }
                    Ordering::Equal => tied |= *b != faults,
                    Ordering::Greater => {}
                },
                None => best = Some((faults, rank)),
            }
        }
        match best {
            Some((faults, _)) if !tied => out.extend(faults),
            _ => {
                let shapes: Vec<String> = ids.iter().map(|id| self.shape(*id)).collect();
                out.push(value_fault(path, words::alternatives(&shapes)));
            }
        }
    }

    /// A branch's own keywords (its `$ref`s followed).
    fn own_checks(&self, id: usize) -> Option<&[Check]> {
        let mut id = id;
        for _ in 0..MAX_REFS {
            match &self.nodes[id] {
                Node::Ref(target) => id = *target,
                Node::Checks(checks) => return Some(checks),
                _ => return None,
            }
        }
        None
    }

    /// Whether `v` is of a type the branch accepts (and, with `keys`, holds the keys it
    /// requires).
    fn fits(&self, id: usize, v: &Value, depth: usize, keys: bool) -> bool {
        let mut id = id;
        for _ in 0..MAX_REFS {
            match &self.nodes[id] {
                Node::Ref(target) => id = *target,
                Node::Checks(checks) => {
                    return checks.iter().all(|c| match c {
                        Check::Type { .. } => self.check_valid(c, v, depth),
                        Check::Required(names, _) => {
                            !keys
                                || v.as_object()
                                    .is_none_or(|map| names.iter().all(|n| has_key(map, n)))
                        }
                        Check::Closed {
                            required: Some(key),
                            ..
                        } => !keys || v.as_object().is_none_or(|map| has_key(map, key)),
                        _ => true,
                    });
                }
                Node::True | Node::Pending => return true,
                Node::False => return false,
            }
        }
        false
    }

    /// Whether the branch declares `key` (a member of its `properties`).
    fn declares(&self, id: usize, key: &str) -> bool {
        self.own_checks(id)
            .and_then(declared)
            .is_some_and(|props| props.iter().any(|(n, _)| n.text == key))
    }

    /// The internal (or adjacent) tag of these branches, if their shapes say there is one.
    fn tag(&self, ids: &[usize]) -> Option<Tag<'_>> {
        let objects: Vec<(usize, &[Check])> = ids
            .iter()
            .filter_map(|id| self.own_checks(*id).map(|c| (*id, c)))
            .filter(|(_, c)| only_objects(c))
            .collect();
        let (_, first) = objects.first()?;
        'key: for (name, _) in declared(first)? {
            let key = name.text.as_str();
            let mut variants: Vec<(usize, &Value)> = Vec::new();
            for (id, checks) in &objects {
                let Some(value) = self.tag_value(checks, key) else {
                    continue 'key;
                };
                if variants.iter().any(|(_, t)| num::equal(t, value)) {
                    continue 'key;
                }
                variants.push((*id, value));
            }
            return Some(Tag { key, variants });
        }
        None
    }

    /// The single string a branch requires at `key`, if it does.
    fn tag_value<'s>(&'s self, checks: &'s [Check], key: &str) -> Option<&'s Value> {
        if !requires(checks, key) {
            return None;
        }
        let (_, id) = declared(checks)?.iter().find(|(n, _)| n.text == key)?;
        self.own_checks(*id)?.iter().find_map(|c| match c {
            Check::Enum(values) if values.len() == 1 && values[0].is_string() => Some(&values[0]),
            Check::Const(value) if value.is_string() => Some(value),
            _ => None,
        })
    }

    /// The externally tagged shape of these branches, if they have it.
    fn external(&self, ids: &[usize]) -> Option<External<'_>> {
        let mut variants = Vec::new();
        let mut units = Vec::new();
        for id in ids {
            let checks = self.own_checks(*id)?;
            if only_objects(checks) {
                let Some(Check::Closed {
                    properties,
                    additional: None,
                    ..
                }) = checks.iter().find(|c| matches!(c, Check::Closed { .. }))
                else {
                    return None;
                };
                let [(name, _)] = &properties[..] else {
                    return None;
                };
                if !requires(checks, &name.text) {
                    return None;
                }
                variants.push((*id, name.text.as_str()));
            } else {
                let strings = checks.iter().find_map(|c| match c {
                    Check::Enum(values) if values.iter().all(Value::is_string) => Some(values),
                    _ => None,
                })?;
                units.extend(strings);
            }
        }
        (!variants.is_empty()).then_some(External { variants, units })
    }

    /// A branch in a few words: its values, or its type and the keys it requires.
    fn shape(&self, id: usize) -> String {
        let Some(checks) = self.own_checks(id) else {
            return match self.nodes.get(id) {
                Some(Node::False) => "nothing".to_owned(),
                _ => "any value".to_owned(),
            };
        };
        for c in checks {
            match c {
                Check::Enum(values) => return words::exactly(values),
                Check::Const(value) => return format!("exactly {}", words::shown(value)),
                _ => {}
            }
        }
        let mut text = checks
            .iter()
            .find_map(|c| match c {
                Check::Type { set, .. } => Some(words::type_words(*set)),
                _ => None,
            })
            .unwrap_or_else(|| "a value of another shape".to_owned());
        let mut keys: Vec<String> = Vec::new();
        for c in checks {
            match c {
                Check::Format(_, name) => return words::format_words(name).to_owned(),
                Check::Pattern(_, p) => text = format!("{text} that matches `{p}`"),
                Check::Required(names, _) => keys.extend(names.iter().map(|n| format!("`{n}`"))),
                Check::Closed {
                    required: Some(n), ..
                } => keys.push(format!("`{n}`")),
                _ => {}
            }
        }
        if !keys.is_empty() {
            let n = keys.len();
            text = format!("{text} with {}", words::list(keys.into_iter(), n));
        }
        text
    }
}

/// Whether a branch accepts only objects.
fn only_objects(checks: &[Check]) -> bool {
    checks
        .iter()
        .any(|c| matches!(c, Check::Type { set, .. } if *set == OBJECT))
}

/// A branch's declared properties.
fn declared(checks: &[Check]) -> Option<&[(Name, usize)]> {
    checks.iter().find_map(|c| match c {
        Check::Properties(props) => Some(&props[..]),
        Check::Closed { properties, .. } => Some(&properties[..]),
        _ => None,
    })
}

/// Whether a branch requires `key`.
fn requires(checks: &[Check], key: &str) -> bool {
    checks.iter().any(|c| match c {
        Check::Required(names, _) => names.iter().any(|n| n == key),
        Check::Closed {
            required: Some(n), ..
        } => n == key,
        _ => false,
    })
}

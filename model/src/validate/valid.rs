//! Whether a value is valid: the walk `is_valid` runs, with no allocation and no path,
//! stopping at the first failure. The assertions are [`Check::asserts`]'s verdicts, the
//! keywords that hold subschemas are walked in [`nested_valid`](Validator::nested_valid).
//! [`collect`](super::collect) asks the same [`check_valid`](Validator::check_valid) of
//! every assertion.

use serde_json::Value;

use super::keyword::{has_key, property};
use super::node::{Check, Node};
use super::{MAX_DEPTH, Validator};

impl Validator {
    #[inline]
    pub(super) fn valid(&self, id: usize, v: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &self.nodes[id] {
            Node::True | Node::Pending => true,
            Node::False => false,
            Node::Ref(target) => self.valid(*target, v, depth + 1),
            node @ Node::Checks(checks) => match self.leaf(id) {
                Some(leaf) => leaf.accepts(v, node),
                None => checks.iter().all(|c| self.check_valid(c, v, depth)),
            },
        }
    }

    /// One keyword: an assertion's verdict ([`Check::asserts`]) in line, the applicators
    /// (which recurse) in [`nested_valid`](Self::nested_valid), so that a leaf costs no call.
    #[inline]
    pub(super) fn check_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        match check.asserts(v) {
            Some(verdict) => verdict,
            None => self.nested_valid(check, v, depth),
        }
    }

    /// The keywords that hold subschemas (see [`check_valid`](Self::check_valid)).
    #[inline(never)]
    fn nested_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        match check {
            Check::Items(id) => v
                .as_array()
                .is_none_or(|items| items.iter().all(|i| self.valid(*id, i, depth + 1))),
            Check::Properties(props) => {
                let Value::Object(map) = v else {
                    return true;
                };
                if map.len() > props.len() * 4 {
                    props.iter().all(|(k, id)| {
                        map.get(&k.text)
                            .is_none_or(|value| self.valid(*id, value, depth + 1))
                    })
                } else {
                    map.iter().all(|(k, value)| {
                        property(props, k).is_none_or(|i| self.valid(props[i].1, value, depth + 1))
                    })
                }
            }
            Check::Closed {
                properties,
                additional,
                required,
                required_mask,
                ..
            } => {
                let Value::Object(map) = v else {
                    return true;
                };
                if !required.as_ref().is_none_or(|n| has_key(map, n)) {
                    return false;
                }
                let mut seen = 0u64;
                for (k, value) in map {
                    let ok = match property(properties, k) {
                        Some(i) => {
                            if i < 64 {
                                seen |= 1 << i;
                            }
                            self.valid(properties[i].1, value, depth + 1)
                        }
                        None => additional.is_some_and(|id| self.valid(id, value, depth + 1)),
                    };
                    if !ok {
                        return false;
                    }
                }
                seen & required_mask == *required_mask
            }
            Check::PropertyNames(id) => v.as_object().is_none_or(|map| {
                map.keys()
                    .all(|k| self.valid(*id, &Value::String(k.clone()), depth + 1))
            }),
            Check::AllOf(ids) => ids.iter().all(|id| self.valid(*id, v, depth + 1)),
            Check::AnyOf(ids) => ids.iter().any(|id| self.valid(*id, v, depth + 1)),
            Check::OneOf(ids) => {
                ids.iter()
                    .filter(|id| self.valid(**id, v, depth + 1))
                    .take(2)
                    .count()
                    == 1
            }
            Check::Not(id, _) => !self.valid(*id, v, depth + 1),
            // The assertions are decided by `Check::asserts`.
            _ => true,
        }
    }
}

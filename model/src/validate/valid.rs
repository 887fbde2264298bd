//! Whether a value is valid: the walk `is_valid` runs, with no allocation and no path,
//! stopping at the first failure. The leaf keywords are decided in line, the keywords that
//! hold subschemas in [`nested_valid`](Validator::nested_valid). [`collect`](super::collect)
//! asks the same [`check_valid`](Validator::check_valid) of every leaf keyword.

use serde_json::Value;

use super::node::{
    Check, Node, has_key, head, length_at_least, length_at_most, number, type_matches, unique,
};
use super::num;
use super::{MAX_DEPTH, Validator};
use crate::schema::default_property_names_accepts;

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

    /// One keyword: the assertions in line, the applicators (which recurse) in
    /// [`nested_valid`](Self::nested_valid), so that a leaf costs no call.
    #[inline]
    pub(super) fn check_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        // On the keyword first (one jump), then on the instance.
        match check {
            Check::Type { set, .. } => type_matches(*set, v),
            Check::Enum(options) => options.iter().any(|o| num::equal(o, v)),
            Check::Const(c) => num::equal(c, v),
            Check::Minimum(l, _) => number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_ge())),
            Check::Maximum(l, _) => number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_le())),
            Check::ExclusiveMinimum(l, _) => {
                number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_gt()))
            }
            Check::ExclusiveMaximum(l, _) => {
                number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_lt()))
            }
            Check::MultipleOf(m) => number(v, |n| num::is_multiple_of(n, *m)),
            Check::MinLength(l) => v.as_str().is_none_or(|s| length_at_least(s, *l)),
            Check::MaxLength(l) => v.as_str().is_none_or(|s| length_at_most(s, *l)),
            Check::Pattern(re, _) => v.as_str().is_none_or(|s| re.is_match(s)),
            Check::Format(f, _) => v.as_str().is_none_or(|s| f.accepts(s)),
            Check::MinItems(l) => v.as_array().is_none_or(|items| items.len() as u64 >= *l),
            Check::MaxItems(l) => v.as_array().is_none_or(|items| items.len() as u64 <= *l),
            Check::Required(names, covered) => {
                *covered
                    || v.as_object()
                        .is_none_or(|map| names.iter().all(|n| has_key(map, n)))
            }
            _ => self.nested_valid(check, v, depth),
        }
    }

    /// The keywords that hold subschemas (see [`check_valid`](Self::check_valid)).
    #[inline(never)]
    fn nested_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        match check {
            Check::Items(id) => v
                .as_array()
                .is_none_or(|items| items.iter().all(|i| self.valid(*id, i, depth + 1))),
            Check::UniqueItems => v.as_array().is_none_or(|items| unique(items)),
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
                        props
                            .iter()
                            .find(|(name, _)| name.matches(k, head(k)))
                            .is_none_or(|(_, id)| self.valid(*id, value, depth + 1))
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
                    let h = head(k);
                    let ok = match properties.iter().position(|(name, _)| name.matches(k, h)) {
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
            Check::Required(names, covered) => {
                *covered
                    || v.as_object()
                        .is_none_or(|map| names.iter().all(|n| has_key(map, n)))
            }
            Check::PropertyNames(id) => v.as_object().is_none_or(|map| {
                map.keys()
                    .all(|k| self.valid(*id, &Value::String(k.clone()), depth + 1))
            }),
            Check::DefaultPropertyNames(_) => v
                .as_object()
                .is_none_or(|map| map.keys().all(|k| default_property_names_accepts(k))),
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
            // The assertions are decided in line.
            _ => true,
        }
    }
}

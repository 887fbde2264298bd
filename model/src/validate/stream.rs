//! A value checked piece by piece as it is read, for a deserializer that reads JSON text
//! straight into a type (no tree): where each member or element goes ([`Spot`]), what a
//! scalar must be ([`accepts`](Validator::accepts), the same walk as
//! [`is_valid`](Validator::is_valid)), and what an object or an array must hold
//! ([`ObjectPlan`], [`ArrayPlan`]).
//!
//! The reader may always be stricter than the validator (it then asks the validator
//! about the whole value); it must never be looser. A subschema whose keywords cannot be
//! decided piece by piece (`allOf`, `anyOf`, `oneOf`, `not`, `uniqueItems`,
//! `propertyNames`, an `enum` or `const` holding a container) is [`Piece::Whole`]: the
//! reader builds that one value and asks [`accepts`](Validator::accepts).
//!
//! ```
//! use neuralis_model::validate::{Piece, Validator};
//! use serde_json::json;
//!
//! let v = Validator::compile(&json!({
//!     "type": "object", "additionalProperties": false, "required": ["city"],
//!     "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer"}}
//! })).expect("in the subset");
//! let (piece, root) = v.piece(v.root());
//! assert_eq!(piece, Piece::Checked);
//! let plan = v.object_plan(root).expect("an object is read member by member");
//! let city = plan.member("city").expect("declared");
//! assert!(plan.member("country").is_none(), "additionalProperties: false");
//! assert!(v.accepts(city.spot, &json!("Porto")));
//! assert!(!v.accepts(city.spot, &json!("")));
//! assert!(plan.complete(1 << city.index.expect("declared")));
//! assert!(!plan.complete(0), "`city` is required");
//! ```

use serde_json::Value;

use super::keyword::{
    count_at_least, count_at_most, in_enum, length_at_least, length_at_most, of_type, property,
};
use super::node::{ARRAY, Check, Name, Node, OBJECT};
use super::{MAX_DEPTH, Validator};
use crate::schema::default_property_names_accepts;

/// Where a value being read is checked: a subschema of the validator and the depth the
/// validator's own walk would be at there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    node: usize,
    depth: usize,
}

impl Spot {
    /// A spot where anything is valid (what an absent `items` or `additionalProperties`
    /// allows), for a value read outside any schema.
    #[must_use]
    #[inline]
    pub fn any() -> Spot {
        Spot {
            node: ANY,
            depth: 0,
        }
    }
}

/// The node index of the schema `true` (an absent `items` or `additionalProperties`).
const ANY: usize = usize::MAX;

/// How a value at a [`Spot`] is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Anything is valid there (the schema `true`).
    Any,
    /// Nothing is (the schema `false`, or a `$ref` chain too deep).
    Never,
    /// Build the value and ask [`Validator::accepts`].
    Whole,
    /// Scalars with [`Validator::accepts`], an object with [`Validator::object_plan`], an
    /// array with [`Validator::array_plan`].
    Checked,
}

/// The members an object at a [`Spot`] may hold.
#[derive(Debug, Clone, Copy)]
pub struct ObjectPlan<'v> {
    properties: &'v [(Name, usize)],
    /// `None`: an undeclared key is refused; `Some(ANY)`: anything goes.
    additional: Option<usize>,
    /// The declared properties that must be present, by index.
    required: u64,
    /// Keys must pass the default `propertyNames`.
    default_names: bool,
    depth: usize,
}

/// One member of an object: its declared index (`None` for a key the schema does not
/// declare) and where its value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The index among the declared properties.
    pub index: Option<usize>,
    /// Where the member's value is checked.
    pub spot: Spot,
}

/// What an array at a [`Spot`] must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayPlan {
    items: Spot,
    min: u64,
    max: u64,
}

impl Validator {
    /// The spot of the whole value.
    #[must_use]
    #[inline]
    pub fn root(&self) -> Spot {
        Spot { node: 0, depth: 0 }
    }

    /// How a value at `spot` is checked, and the spot with its `$ref`s followed.
    #[must_use]
    #[inline]
    pub fn piece(&self, mut spot: Spot) -> (Piece, Spot) {
        loop {
            if spot.node == ANY {
                return (Piece::Any, spot);
            }
            if spot.depth > MAX_DEPTH {
                return (Piece::Never, spot);
            }
            let piece = match &self.nodes[spot.node] {
                Node::True | Node::Pending => Piece::Any,
                Node::False => Piece::Never,
                Node::Ref(target) => {
                    spot = Spot {
                        node: *target,
                        depth: spot.depth + 1,
                    };
                    continue;
                }
                Node::Checks(_) if self.streams[spot.node].piecewise => Piece::Checked,
                Node::Checks(_) => Piece::Whole,
            };
            return (piece, spot);
        }
    }

    /// Whether `value` is valid at `spot`: the validator's own walk from there.
    #[must_use]
    #[inline]
    pub fn accepts(&self, spot: Spot, value: &Value) -> bool {
        if spot.node == ANY {
            return true;
        }
        // The leaf test first, as `valid` would reach it (without its steps).
        match self.leaf(spot.node) {
            Some(leaf) if spot.depth <= MAX_DEPTH => leaf.accepts(value, &self.nodes[spot.node]),
            _ => self.walk(spot, value),
        }
    }

    /// [`valid`](Self::valid) from `spot`, out of line: the reader's scalars are mostly
    /// leaves.
    #[inline(never)]
    fn walk(&self, spot: Spot, value: &Value) -> bool {
        self.valid(spot.node, value, spot.depth)
    }

    /// The node's keywords as one leaf test, when they are (see [`Leaf`]).
    #[inline]
    pub(super) fn leaf(&self, node: usize) -> Option<Leaf> {
        self.streams.get(node).and_then(|s| s.leaf)
    }

    /// The members an object at `spot` (a [`Piece::Checked`] one) may hold; `None` when an
    /// object is not valid there, or cannot be checked member by member (check it whole).
    /// Decided once per node, when the schema is compiled (`stream_nodes`).
    #[must_use]
    #[inline]
    pub fn object_plan(&self, spot: Spot) -> Option<ObjectPlan<'_>> {
        let object = self.streams.get(spot.node)?.object?;
        let properties = match object.members.and_then(|i| self.checks(spot)?.get(i)) {
            Some(Check::Properties(properties) | Check::Closed { properties, .. }) => properties,
            _ => &[][..],
        };
        Some(ObjectPlan {
            properties,
            additional: object.additional,
            required: object.required,
            default_names: object.default_names,
            depth: spot.depth + 1,
        })
    }

    /// What an array at `spot` (a [`Piece::Checked`] one) must hold; `None` when an array
    /// is not valid there.
    #[must_use]
    pub fn array_plan(&self, spot: Spot) -> Option<ArrayPlan> {
        let checks = self.checks(spot)?;
        let mut plan = ArrayPlan {
            items: Spot {
                node: ANY,
                depth: spot.depth + 1,
            },
            min: 0,
            max: u64::MAX,
        };
        for check in checks {
            match check {
                Check::Type { set, .. } if set & ARRAY == 0 => return None,
                Check::Enum(_) | Check::Const(_) => return None,
                Check::Items(id) => plan.items.node = *id,
                Check::MinItems(n) => plan.min = plan.min.max(*n),
                Check::MaxItems(n) => plan.max = plan.max.min(*n),
                _ => {}
            }
        }
        Some(plan)
    }

    fn checks(&self, spot: Spot) -> Option<&[Check]> {
        match self.nodes.get(spot.node) {
            Some(Node::Checks(checks)) => Some(checks),
            _ => None,
        }
    }
}

/// What a node's keywords allow a reader, decided once when the schema is compiled.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stream {
    /// Every keyword is decided piece by piece.
    piecewise: bool,
    /// How an object is read member by member (`None`: not, or not valid here).
    object: Option<ObjectParts>,
    /// The keywords as one leaf test (`None`: walk them).
    leaf: Option<Leaf>,
}

/// A node whose keywords are only `type`, `minLength`, `maxLength` and `enum` (most of
/// an input's scalars), decided by one test on the value with the walk's own predicates
/// rather than by walking the keywords: they are all assertions on the value, so their
/// order does not change the verdict, and each is decided by its keyword's predicate
/// (`super::keyword`), as the walk decides it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Leaf {
    types: u8,
    min_length: u64,
    max_length: u64,
    /// The index of the `enum` keyword among the node's checks.
    options: Option<usize>,
}

impl Leaf {
    fn of(checks: &[Check]) -> Option<Leaf> {
        let mut leaf = Leaf {
            types: u8::MAX,
            min_length: 0,
            max_length: u64::MAX,
            options: None,
        };
        for (i, check) in checks.iter().enumerate() {
            match check {
                Check::Type { set, .. } => leaf.types &= set,
                Check::MinLength(n) => leaf.min_length = leaf.min_length.max(*n),
                Check::MaxLength(n) => leaf.max_length = leaf.max_length.min(*n),
                Check::Enum(_) if leaf.options.is_none() => leaf.options = Some(i),
                _ => return None,
            }
        }
        Some(leaf)
    }

    #[inline]
    pub(super) fn accepts(self, v: &Value, node: &Node) -> bool {
        if !of_type(self.types, v) {
            return false;
        }
        if let Value::String(s) = v
            && !(length_at_least(s, self.min_length) && length_at_most(s, self.max_length))
        {
            return false;
        }
        match (self.options, node) {
            (Some(i), Node::Checks(checks)) => match &checks[i] {
                Check::Enum(options) => in_enum(options, v),
                _ => true,
            },
            _ => true,
        }
    }
}

/// An [`ObjectPlan`] without its borrow: the index of the keyword holding the
/// properties, and what the keywords together require.
#[derive(Debug, Clone, Copy)]
struct ObjectParts {
    members: Option<usize>,
    additional: Option<usize>,
    required: u64,
    default_names: bool,
}

/// Per node, what a reader may do there.
pub(super) fn stream_nodes(nodes: &[Node]) -> Vec<Stream> {
    nodes
        .iter()
        .map(|node| match node {
            Node::Checks(checks) => Stream {
                piecewise: checks.iter().all(piecewise),
                object: object_parts(checks),
                leaf: Leaf::of(checks),
            },
            _ => Stream {
                piecewise: true,
                object: None,
                leaf: None,
            },
        })
        .collect()
}

/// How an object is read against `checks` member by member: the declared properties
/// (one `properties` keyword at most), what else may come, what is required (by index,
/// the first 64); `None` when an object is not valid there or cannot be read so.
fn object_parts(checks: &[Check]) -> Option<ObjectParts> {
    let mut parts = ObjectParts {
        members: None,
        additional: Some(ANY),
        required: 0,
        default_names: false,
    };
    let mut properties: &[(Name, usize)] = &[];
    let mut names: Vec<&String> = Vec::new();
    for (i, check) in checks.iter().enumerate() {
        match check {
            Check::Type { set, .. } if set & OBJECT == 0 => return None,
            Check::Enum(_) | Check::Const(_) => return None,
            Check::Properties(declared) if parts.members.is_none() => {
                parts.members = Some(i);
                properties = declared;
            }
            Check::Closed {
                properties: declared,
                additional,
                required,
                required_mask,
                ..
            } if parts.members.is_none() => {
                parts.members = Some(i);
                properties = declared;
                parts.additional = *additional;
                parts.required |= required_mask;
                names.extend(required);
            }
            Check::Properties(_) | Check::Closed { .. } => return None,
            Check::Required(required, false) => names.extend(required),
            Check::DefaultPropertyNames(_) => parts.default_names = true,
            _ => {}
        }
    }
    for name in names {
        let i = property(properties, name).filter(|i| *i < 64)?;
        parts.required |= 1 << i;
    }
    Some(parts)
}

/// Whether a keyword is decided piece by piece: on a scalar as it is, on an object member
/// by member, on an array element by element.
fn piecewise(check: &Check) -> bool {
    match check {
        Check::Enum(options) => options.iter().all(scalar),
        Check::Const(value) => scalar(value),
        Check::UniqueItems
        | Check::PropertyNames(_)
        | Check::AllOf(_)
        | Check::AnyOf(_)
        | Check::OneOf(_)
        | Check::Not(..) => false,
        _ => true,
    }
}

fn scalar(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

impl ObjectPlan<'_> {
    /// The member `key`, or `None` when the schema refuses the key itself (undeclared
    /// beside `additionalProperties: false`, or a name `propertyNames` refuses).
    #[must_use]
    #[inline]
    pub fn member(&self, key: &str) -> Option<Member> {
        if self.default_names && !default_property_names_accepts(key) {
            return None;
        }
        let (index, node) = match property(self.properties, key) {
            Some(i) => (Some(i), self.properties[i].1),
            None => (None, self.additional?),
        };
        Some(Member {
            index,
            spot: Spot {
                node,
                depth: self.depth,
            },
        })
    }

    /// Whether an object holding the declared properties `seen` (bits by index, the first
    /// 64) has every property it requires.
    #[must_use]
    #[inline]
    pub fn complete(&self, seen: u64) -> bool {
        seen & self.required == self.required
    }
}

impl ArrayPlan {
    /// Where each element is checked.
    #[must_use]
    #[inline]
    pub fn items(&self) -> Spot {
        self.items
    }

    /// Whether `count` elements are as many as the array may hold.
    #[must_use]
    #[inline]
    pub fn count_ok(&self, count: usize) -> bool {
        count_at_least(count, self.min) && count_at_most(count, self.max)
    }
}

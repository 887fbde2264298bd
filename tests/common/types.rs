//! The types behind the golden and round-trip tests: one per supported type family and
//! serde attribute. Each derives `ToolInput`, `ToolOutput`, `Serialize` and `Deserialize`, so the
//! round-trip tests can compare the schemas with what serde really reads and writes.
#![allow(dead_code)]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use neuralis::{ToolInput, ToolOutput};
use serde::{Deserialize, Serialize};

/// Every scalar type.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Scalars {
    pub flag: bool,
    pub i8: i8,
    pub i16: i16,
    pub i32: i32,
    pub i64: i64,
    pub isize: isize,
    pub u8: u8,
    pub u16: u16,
    pub u32: u32,
    pub u64: u64,
    pub usize: usize,
    pub f32: f32,
    pub f64: f64,
    pub text: String,
    pub letter: char,
    pub cow: Cow<'static, str>,
    pub boxed: Box<str>,
}

/// Optional fields and serde defaults.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Optionals {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maybe: Option<u16>,
    #[serde(default)]
    pub defaulted: u8,
    #[serde(default = "seven")]
    pub with_path: u32,
    pub needed: bool,
}

fn seven() -> u32 {
    7
}

/// A container-level `#[serde(default)]`: nothing is required.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(default, deny_unknown_fields)]
#[schema(root)]
pub struct AllDefault {
    pub a: u8,
    pub b: String,
}

/// Sequences, sets, arrays, maps and JSON values.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Collections {
    pub list: Vec<u8>,
    pub deque: VecDeque<String>,
    pub hash_set: HashSet<u16>,
    pub tree_set: BTreeSet<String>,
    pub triple: [i8; 3],
    pub hash_map: HashMap<String, u32>,
    pub tree_map: BTreeMap<String, bool>,
    pub any: serde_json::Value,
    pub bag: serde_json::Map<String, serde_json::Value>,
    pub boxed: Box<Leaf>,
    pub nested_list: Vec<Vec<bool>>,
}

/// A nested struct: closed, its own `required`.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Leaf {
    /// The leaf's label.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<u8>,
}

/// `Rc` and `Arc` have their inner type's schema (serde reads them with its `rc` feature).
#[derive(ToolInput)]
#[schema(root)]
pub struct Pointers {
    pub rc: std::rc::Rc<Leaf>,
    pub arc: std::sync::Arc<str>,
    pub boxed: Box<u8>,
}

/// `rename`, `rename_all`, `skip`, `skip_deserializing`, raw identifiers.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(root)]
pub struct Renamed {
    pub city_name: String,
    #[serde(rename = "zip")]
    pub postal_code: String,
    #[serde(rename(serialize = "deName", deserialize = "deName"))]
    pub both_ways: u8,
    #[serde(alias = "kind")]
    pub r#type: String,
    #[serde(skip)]
    pub cache: u64,
    #[serde(skip_deserializing, skip_serializing)]
    pub computed: u32,
}

macro_rules! case_struct {
    ($($name:ident = $rule:literal;)*) => {$(
        #[doc = concat!("`rename_all = \"", $rule, "\"`.")]
        #[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
        #[serde(rename_all = $rule, deny_unknown_fields)]
        pub struct $name {
            pub user_id: u8,
            pub very_long_name: bool,
        }
    )*};
}

case_struct! {
    Lower = "lowercase";
    Upper = "UPPERCASE";
    Pascal = "PascalCase";
    Camel = "camelCase";
    Snake = "snake_case";
    ScreamingSnake = "SCREAMING_SNAKE_CASE";
    Kebab = "kebab-case";
    ScreamingKebab = "SCREAMING-KEBAB-CASE";
}

/// Every `rename_all` style on fields.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Cases {
    pub lower: Lower,
    pub upper: Upper,
    pub pascal: Pascal,
    pub camel: Camel,
    pub snake: Snake,
    pub screaming_snake: ScreamingSnake,
    pub kebab: Kebab,
    pub screaming_kebab: ScreamingKebab,
}

/// Every `rename_all` style on variants.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum Shout {
    VeryLoud,
    Quiet,
    #[serde(rename = "custom")]
    Renamed,
}

/// A unit-only enum: an `enum` list.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Units {
    /// Degrees Celsius.
    Metric,
    Imperial,
    #[serde(skip)]
    Hidden,
}

/// Externally tagged, with unit, newtype and struct variants.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum External {
    Nothing,
    /// A number.
    Number(u8),
    Point {
        x_pos: i32,
        y_pos: i32,
    },
}

/// Internally tagged (`tag`).
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Internal {
    Circle { radius: u16 },
    Leaf(Leaf),
    Empty,
}

/// Adjacently tagged (`tag` + `content`).
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Text(String),
    Pair { a: u8, b: u8 },
    Unit,
}

/// Untagged: the first shape that fits.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Untagged {
    Flag(bool),
    Named { name: String },
}

/// Every enum representation.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Enums {
    pub shout: Shout,
    pub units: Units,
    pub external: External,
    pub internal: Internal,
    pub adjacent: Adjacent,
    pub untagged: Untagged,
}

/// How loudly to alert.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Paging the on-call engineer.
    Page,
    /// A message in the [team channel](https://example.com/chat).
    ///
    /// Never at night.
    Notify,
    Log,
    #[schema(description = "Nothing at all.")]
    Silent,
}

/// An enum with unit and data variants: the unit branch lists its values' meanings.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Escalation {
    /// Wait for office hours.
    Later,
    /// After this many minutes.
    After(u16),
}

/// What the documented values of an enum mean reaches the model beside the portable
/// `enum`, whichever description it reads.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Meanings {
    /// The field's own words, then the values' meanings.
    pub level: Level,
    pub bare: Level,
    /// Optional, with its own words.
    pub maybe: Option<Level>,
    /// A list of them: the items carry the meanings.
    pub many: Vec<Level>,
    #[schema(description = "Set by the attribute.")]
    pub described: Level,
    #[doc = include_str!("doc.txt")]
    pub filed: Level,
    pub escalation: Escalation,
}

/// Flattened fields are merged into the root, which stays closed.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(root)]
pub struct Flattened {
    pub query: String,
    #[serde(flatten)]
    pub page: Page,
    #[serde(flatten)]
    pub filter: Option<Filter>,
}

#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Page {
    /// Page size.
    pub limit: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Filter {
    pub tag: String,
}

/// `transparent` and newtype structs read as their one field.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Wrappers {
    pub meters: Meters,
    pub email: Email,
    pub inner: Transparent,
}

/// Metres.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Meters(pub f64);

#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
pub struct Email {
    #[schema(format = "email", min_length = 3)]
    pub address: String,
}

#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
pub struct Transparent {
    pub leaf: Leaf,
}

/// A recursive type: `$ref` only here.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Recursive {
    pub name: String,
    pub tree: Tree,
    pub children: Vec<Recursive>,
}

#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    pub value: u8,
    pub children: Vec<Tree>,
}

/// Every `#[schema]` key.
///
/// The second paragraph.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root, title = "Schema keys")]
pub struct Keywords {
    /// Overridden by the key.
    #[schema(
        title = "Days",
        description = "Days ahead.",
        minimum = 1,
        maximum = 14,
        default = 3
    )]
    pub days: u8,
    #[schema(exclusive_minimum = 0, exclusive_maximum = 100, multiple_of = 0.5)]
    pub ratio: f64,
    #[schema(min_length = 1, max_length = 8, pattern = "^[a-z]+$", examples = ["abc", "z"])]
    pub code: String,
    #[schema(format = "date")]
    pub date: String,
    #[schema(min_items = 1, max_items = 3, unique_items)]
    pub picks: Vec<u8>,
    #[schema(deprecated)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<bool>,
    /// Read as `Meters`.
    #[schema(with = Meters)]
    pub distance: f64,
}

/// Doc comments: joined as rustdoc joins them, `include_str!` too.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Docs {
    /// First line,
    /// second line.
    ///
    ///     indented block.
    pub multi: String,
    #[doc = include_str!("doc.txt")]
    pub included: String,
    /** Block comment. */
    pub block: String,
    /// One [`Leaf`], see [`Leaf::label`], [fn@str::len] and [the guide](https://example.com/guide).
    pub linked: String,
    /// Read [the store][store] or [`Docs`][]; a ratio in [0, 1] stays, and `[x]` in code.
    ///
    /// [store]: https://example.com/store
    pub referenced: String,
}

/// 128-bit integers (bounds written as floats), linked lists and boxed slices.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Wide {
    pub big: i128,
    pub huge: u128,
    pub linked: std::collections::LinkedList<u8>,
    pub slice: Box<[bool]>,
}

/// A generic container: `T: ToolInput` is added to the impl's bounds.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub total: u32,
}

/// Generic types nest with their arguments' schemas.
#[derive(ToolInput, ToolOutput, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(root)]
pub struct Generics {
    pub leaves: Paged<Leaf>,
    pub numbers: Paged<i16>,
}

/// Rust's `#[deprecated]` marks the property `deprecated` too.
#[derive(ToolInput)]
#[schema(root)]
pub struct Deprecations {
    #[deprecated = "use `new`"]
    pub old: u8,
    pub new: u8,
}

/// An output only: what serde writes where an input has no counterpart (`null` for an
/// `Option` it does not skip, `null` for a float that is not finite).
#[derive(ToolOutput, Serialize, Debug, Clone, PartialEq)]
pub struct Written {
    /// Written as `null` when `None`.
    pub maybe: Option<u8>,
    /// Written as `null` when NaN or infinite.
    pub ratio: f64,
    /// Left out when `None`, never `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Never written.
    #[serde(skip_serializing)]
    pub secret: String,
    /// Written under its serialize name.
    #[serde(rename(serialize = "outName", deserialize = "inName"))]
    pub renamed: bool,
    /// Maybe left out, by a predicate of the author's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Units>,
}

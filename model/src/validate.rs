//! One draft-07 validator for the schemas the toolkit writes.
//!
//! [`Validator::compile`] reads a schema once into checks (no schema walking is left for
//! a call); [`Validator::is_valid`] answers without allocating, and
//! [`Validator::errors`] lists every failure with the JSON pointer of the failing value
//! and the message `jsonschema` words for it (the instance masked as `value`);
//! [`Validator::explain`] gives a refused value's faults as a model reads them (the rule in
//! plain words with its bound, at the deepest place, inside a data-carrying enum's branch
//! too; docs/refusals.md).
//!
//! The keywords read are the ones the toolkit emits: `type`, `enum`, `const`, `minimum`,
//! `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (draft-07 numbers), `multipleOf`,
//! `minLength`, `maxLength` (in code points), `pattern` (ECMA-262, see `ecma`),
//! `format` (what draft-07 asserts, see `format`), `items` (one schema), `minItems`,
//! `maxItems`, `uniqueItems`, `properties`, `required`, `additionalProperties`,
//! `propertyNames`, `allOf`, `anyOf`, `oneOf`, `not`, `$ref` into the same document (`#`,
//! `#/definitions/...`; draft-07 ignores a `$ref`'s siblings), boolean schemas, and the
//! annotations (`default`, `examples`, `title`, `description`, `$comment`, `readOnly`,
//! `writeOnly`, `$schema`, `definitions`). A keyword draft-07 defines outside that set
//! (`patternProperties`, `dependencies`, `if`, `contains`, tuple `items`, `$id`,
//! `minProperties`...) makes the schema *not in the subset*: [`compile`](Validator::compile)
//! says so, naming the keyword and where it is, and the caller needs a general validator.
//! Other keys (`x-neuralis`, `deprecated`) are ignored, as draft-07 ignores unknown keys.
//!
//! ```
//! use neuralis_model::validate::Validator;
//! use serde_json::json;
//!
//! let v = Validator::compile(&json!({
//!     "type": "object",
//!     "properties": { "city": { "type": "string", "minLength": 1 } },
//!     "required": ["city"],
//!     "additionalProperties": false
//! })).expect("in the subset");
//! assert!(v.is_valid(&json!({"city": "Porto"})));
//! let errors = v.errors(&json!({"city": ""}));
//! assert_eq!(errors[0].pointer, "/city");
//! assert_eq!(errors[0].message, "value is shorter than 1 character");
//!
//! let outside = Validator::compile(&json!({"patternProperties": {"^a": {}}}));
//! assert_eq!(outside.err().map(|e| e.keyword), Some("patternProperties".to_owned()));
//! ```

mod branch;
mod collect;
mod compile;
mod draft07;
mod ecma;
mod explain;
mod format;
mod keyword;
mod node;
mod num;
mod stream;
mod valid;
mod words;

use std::fmt;

use serde_json::Value;

pub use draft07::{META_SCHEMA, Subset, meta_errors};
pub use explain::{Fault, FaultKind};
use node::Node;
pub use stream::{ArrayPlan, Member, ObjectPlan, Piece, Spot};

/// Why a `pattern` cannot be used: not an ECMA-262 regular expression, or one the built-in
/// engine does not run (lookaround, backreferences, `\p{...}`, modifiers: a general
/// validator runs those).
///
/// ```
/// use neuralis_model::validate::{PatternProblem, check_pattern};
/// assert_eq!(check_pattern("^[a-z]+$"), Ok(()));
/// assert_eq!(check_pattern("(?P<n>a)"), Err(PatternProblem::Invalid));
/// assert_eq!(check_pattern("a(?=b)"), Err(PatternProblem::NotInSubset("lookaround")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternProblem {
    /// Not an ECMA-262 regular expression (under the `u` flag).
    Invalid,
    /// Valid, but using this construct, which the built-in engine does not run.
    NotInSubset(&'static str),
}

/// Whether `pattern` is an ECMA-262 regular expression the built-in validator runs (the
/// language of JSON Schema's `pattern`, as the platform's JavaScript engine reads it).
///
/// # Errors
///
/// The [`PatternProblem`].
pub fn check_pattern(pattern: &str) -> Result<(), PatternProblem> {
    match ecma::parse(pattern) {
        Err(ecma::Invalid) => Err(PatternProblem::Invalid),
        Ok(ecma::Translation::Unsupported(what)) => Err(PatternProblem::NotInSubset(what)),
        Ok(ecma::Translation::Runs(translated)) => regex_lite::Regex::new(&translated)
            .map(|_| ())
            .map_err(|_| {
                PatternProblem::NotInSubset("a pattern too large for the built-in engine")
            }),
    }
}

/// How deep validation follows subschemas (`$ref` cycles that consume no input stop here).
const MAX_DEPTH: usize = 1024;

/// A compiled schema (see the [module docs](self)).
#[derive(Debug)]
pub struct Validator {
    nodes: Vec<Node>,
    /// Per node, what a reader checking a value piece by piece may do there (see
    /// `stream`).
    streams: Vec<stream::Stream>,
}

/// Why a schema did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// The JSON pointer, in the schema, of the subschema holding the keyword.
    pub pointer: String,
    /// The keyword.
    pub keyword: String,
    /// What is wrong.
    pub kind: CompileErrorKind,
}

/// What a [`CompileError`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileErrorKind {
    /// A valid draft-07 keyword (or value, such as a lookaround in a `pattern`) that this
    /// validator does not read: the schema needs a general draft-07 validator.
    NotInSubset(String),
    /// Not a valid draft-07 schema there (a `pattern` that is no regular expression, a
    /// `$ref` to nothing...).
    Invalid(String),
}

impl CompileError {
    /// Whether the schema is valid draft-07 but outside the subset.
    #[must_use]
    pub fn is_not_in_subset(&self) -> bool {
        matches!(self.kind, CompileErrorKind::NotInSubset(_))
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        match &self.kind {
            CompileErrorKind::NotInSubset(what) => write!(
                f,
                "`{}` at `{at}` ({what}) is not in the subset of draft-07 the built-in validator reads",
                self.keyword
            ),
            CompileErrorKind::Invalid(what) => {
                write!(f, "`{}` at `{at}`: {what}", self.keyword)
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// One failure of a value against a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// The JSON pointer of the failing value in the instance.
    pub pointer: String,
    /// What is wrong, as `jsonschema` words it with the instance masked as `value`.
    pub message: String,
    /// What failed.
    pub kind: ErrorKind,
}

/// What a [`ValidationError`] is about: the keyword, and for `required` and
/// `additionalProperties` the names involved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `type`.
    Type,
    /// `enum`.
    Enum,
    /// `const`.
    Const,
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minLength`.
    MinLength,
    /// `maxLength`.
    MaxLength,
    /// `pattern`.
    Pattern,
    /// `format`.
    Format,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`.
    UniqueItems,
    /// `required`: the missing property.
    Required {
        /// The property.
        property: String,
    },
    /// `additionalProperties: false`: the properties it does not allow.
    AdditionalProperties {
        /// The properties, in the instance's order.
        unexpected: Vec<String>,
    },
    /// The schema `false` (or `additionalProperties: false` with no `properties`).
    FalseSchema,
    /// `propertyNames`.
    PropertyNames,
    /// `anyOf`.
    AnyOf,
    /// `oneOf`, no branch valid.
    OneOfNotValid,
    /// `oneOf`, more than one branch valid.
    OneOfMultipleValid,
    /// `not`.
    Not,
    /// A schema that refers to itself without end.
    Recursion,
}

impl Validator {
    fn of(nodes: Vec<Node>) -> Validator {
        let streams = stream::stream_nodes(&nodes);
        Validator { nodes, streams }
    }

    /// Compiles `schema`, or says why it cannot: outside the subset (a general validator is
    /// needed) or invalid.
    ///
    /// # Errors
    ///
    /// A [`CompileError`] naming the keyword and its place.
    pub fn compile(schema: &Value) -> Result<Validator, CompileError> {
        compile::compile(schema).map(Validator::of)
    }

    /// Compiles `schema`, the subschema of `root` at the JSON pointer `pointer`, its
    /// `$ref`s resolved in `root` (`#` is `root`): what the subschema means in its
    /// document, without copying it out.
    ///
    /// # Errors
    ///
    /// As [`compile`](Self::compile).
    ///
    /// ```
    /// use neuralis_model::validate::Validator;
    /// use serde_json::json;
    /// let root = json!({
    ///     "properties": {"next": {"$ref": "#/definitions/n"}},
    ///     "definitions": {"n": {"type": "integer", "minimum": 1}}
    /// });
    /// let at = "/properties/next";
    /// let next = Validator::compile_at(&root, at, &root["properties"]["next"]).expect("compiles");
    /// assert!(next.is_valid(&json!(2)));
    /// assert_eq!(next.errors(&json!(0))[0].message, "value is less than the minimum of 1");
    /// ```
    pub fn compile_at(
        root: &Value,
        pointer: &str,
        schema: &Value,
    ) -> Result<Validator, CompileError> {
        compile::compile_at(root, pointer, schema).map(Validator::of)
    }

    /// Compiles `schema` when it holds no subschema and no `$ref`: each of its keywords is
    /// then decided on the value itself, so it means what [`compile_at`](Self::compile_at)
    /// gives for it anywhere in any document, and no document or pointer is needed (the
    /// checker's `default-invalid` checks most defaults with it).
    ///
    /// `None` when `schema` holds a subschema (`items`, `properties`, `not`...) or a
    /// `$ref`, or does not compile: compile it in its document then.
    ///
    /// ```
    /// use neuralis_model::validate::Validator;
    /// use serde_json::json;
    /// let leaf = Validator::compile_leaf(&json!({"type": "integer", "minimum": 1}));
    /// assert!(leaf.is_some_and(|v| !v.is_valid(&json!(0))));
    /// assert!(Validator::compile_leaf(&json!({"items": {"type": "string"}})).is_none());
    /// assert!(Validator::compile_leaf(&json!({"$ref": "#"})).is_none());
    /// ```
    #[must_use]
    pub fn compile_leaf(schema: &Value) -> Option<Validator> {
        compile::compile_leaf(schema).map(Validator::of)
    }

    /// Whether `instance` is valid.
    #[must_use]
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.valid(0, instance, 0)
    }

    /// Every failure of `instance`, in the order `jsonschema` reports them.
    #[must_use]
    pub fn errors(&self, instance: &Value) -> Vec<ValidationError> {
        let mut out = Vec::new();
        if !self.is_valid(instance) {
            let mut path = Vec::new();
            self.collect(0, instance, &mut path, &mut out, 0);
        }
        out
    }

    /// The first failure of `instance`, if any.
    #[must_use]
    pub fn first_error(&self, instance: &Value) -> Option<ValidationError> {
        self.errors(instance).into_iter().next()
    }
}

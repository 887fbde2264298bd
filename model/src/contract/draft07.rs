//! The draft-07 validator interface the checker's three validator-backed checks take
//! from their caller: below the checker, beside what the validators share.

use serde_json::Value;

/// The only `$schema` a tool file may declare.
pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// A draft-07 validator, for the three checks that need one: the meta-schema half of
/// `schema-draft`, and the values of `defaults-undeclared` and `default-invalid`.
///
/// `neuralis-core` passes `jsonschema` (its `check_value`, `check_bytes`, the package
/// loader, `neuralis check`). The build script passes none: it checks documents the
/// toolkit composed itself, whose literals the macros' `const` checks have already
/// compared with their types, and the full check runs again when the package is built
/// at run time and in its drift tests.
pub trait Draft07 {
    /// Every way `schema` fails the draft-07 meta-schema, in the validator's order.
    fn meta_violations(&self, schema: &Value) -> Vec<Violation>;

    /// A validator for `schema`; `None` when it does not compile (a broken `$ref`), which
    /// is `schema-draft`'s to report.
    fn compile<'a>(&'a self, schema: &Value) -> Option<Box<dyn Compiled + 'a>>;
}

/// A compiled schema (see [`Draft07::compile`]).
pub trait Compiled {
    /// Every way `instance` fails the schema.
    fn violations(&self, instance: &Value) -> Vec<Violation>;

    /// The first way `instance` fails the schema.
    fn first_violation(&self, instance: &Value) -> Option<Violation> {
        self.violations(instance).into_iter().next()
    }
}

/// One failure of a value against a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The JSON pointer of the failing part of the instance.
    pub pointer: String,
    /// The validator's message, without the (possibly huge) instance.
    pub message: String,
    /// The failing value, when it is a scalar (messages show it).
    pub found: Option<Value>,
}

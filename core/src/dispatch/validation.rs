//! A tool's compiled schema: the built-in validator for every schema in its subset (every
//! macro-built tool's), `jsonschema` for the others when the `jsonschema` feature is on.

use neuralis_model::validate::{CompileError, Validator};
use serde_json::Value;

use super::failed::ArgumentError;
#[cfg(feature = "jsonschema")]
use crate::contract::push_pointer;
#[cfg(feature = "jsonschema")]
use crate::contract::rules::RESERVED_INPUT_KEYS;

/// Why a schema outside the subset cannot be used in a build without a general validator
/// ([`Checker::new`]'s error), and what to do about it.
pub(super) fn needs_general(error: &CompileError) -> String {
    format!(
        "{error}; turn on the `jsonschema` feature (a general draft-07 validator) of \
         `neuralis-mcp` (`neuralis-mcp = {{ features = [\"jsonschema\"] }}`) or of \
         `neuralis-core`, or keep to the keywords the toolkit writes"
    )
}

/// A schema compiled once, when the package is built.
pub(super) enum Checker {
    Builtin(Validator),
    #[cfg(feature = "jsonschema")]
    General(Box<jsonschema::Validator>),
    /// A schema no validator compiles (the reason); every call is refused with it.
    Broken(String),
}

impl Checker {
    /// `Err` for a schema outside the subset when no general validator is compiled in.
    pub(super) fn new(schema: &Value) -> Result<Checker, CompileError> {
        match Validator::compile(schema) {
            Ok(v) => Ok(Checker::Builtin(v)),
            #[cfg(feature = "jsonschema")]
            Err(e) if e.is_not_in_subset() => Ok(match jsonschema::draft7::new(schema) {
                Ok(v) => Checker::General(Box::new(v)),
                Err(e) => Checker::Broken(e.masked().to_string()),
            }),
            #[cfg(not(feature = "jsonschema"))]
            Err(e) if e.is_not_in_subset() => Err(e),
            Err(e) => Ok(Checker::Broken(e.to_string())),
        }
    }

    /// Why the schema does not compile, if it does not.
    pub(super) fn broken(&self) -> Option<&str> {
        match self {
            Checker::Broken(why) => Some(why),
            _ => None,
        }
    }

    pub(super) fn is_valid(&self, instance: &Value) -> bool {
        match self {
            Checker::Builtin(v) => v.is_valid(instance),
            #[cfg(feature = "jsonschema")]
            Checker::General(v) => v.is_valid(instance),
            Checker::Broken(_) => false,
        }
    }

    /// The faults of refused arguments, one entry per fault (a missing key at its own
    /// place, each extra key at its own), in the words a model reads.
    pub(super) fn argument_errors(&self, instance: &Value) -> Vec<ArgumentError> {
        let mut out = Vec::new();
        match self {
            // The words a model reads: one place builds them, beside the validator's
            // verdicts (`Validator::explain`).
            Checker::Builtin(v) => {
                out.extend(v.explain(instance).into_iter().map(|f| ArgumentError {
                    pointer: f.pointer,
                    message: f.message,
                }));
            }
            #[cfg(feature = "jsonschema")]
            Checker::General(v) => {
                use jsonschema::error::ValidationErrorKind;
                for e in v.iter_errors(instance) {
                    let base = e.instance_path().as_str();
                    match e.kind() {
                        ValidationErrorKind::Required {
                            property: Value::String(key),
                        } => required(base, key, &mut out),
                        ValidationErrorKind::AdditionalProperties { unexpected } => {
                            extra(base, unexpected, &mut out);
                        }
                        // No keyword's name for the model, even from a general validator.
                        ValidationErrorKind::AnyOf { .. }
                        | ValidationErrorKind::OneOfNotValid { .. } => out.push(ArgumentError {
                            pointer: base.to_owned(),
                            message: "fits none of the accepted shapes".to_owned(),
                        }),
                        ValidationErrorKind::OneOfMultipleValid { .. } => out.push(ArgumentError {
                            pointer: base.to_owned(),
                            message: "fits more than one shape, and exactly one is accepted"
                                .to_owned(),
                        }),
                        _ => out.push(ArgumentError {
                            pointer: base.to_owned(),
                            message: e.masked().to_string(),
                        }),
                    }
                }
            }
            Checker::Broken(_) => {}
        }
        out
    }

    /// The first failure of `instance`: its pointer and message.
    pub(super) fn first_error(&self, instance: &Value) -> Option<(String, String)> {
        match self {
            Checker::Builtin(v) => v.first_error(instance).map(|e| (e.pointer, e.message)),
            #[cfg(feature = "jsonschema")]
            Checker::General(v) => v.iter_errors(instance).next().map(|e| {
                (
                    e.instance_path().as_str().to_owned(),
                    e.masked().to_string(),
                )
            }),
            Checker::Broken(why) => Some((String::new(), why.clone())),
        }
    }
}

/// A missing key, reported where it belongs (which says more than the object does).
#[cfg(feature = "jsonschema")]
fn required(base: &str, key: &str, out: &mut Vec<ArgumentError>) {
    out.push(ArgumentError {
        pointer: push_pointer(base, key),
        message: format!("`{key}` is required"),
    });
}

/// Keys the schema does not allow, each at its place; a session field at the root says
/// where such values come from.
#[cfg(feature = "jsonschema")]
fn extra(base: &str, keys: &[String], out: &mut Vec<ArgumentError>) {
    for key in keys {
        let why = if base.is_empty() && RESERVED_INPUT_KEYS.contains(&key.as_str()) {
            "; caller identity and session fields come from the verified session, never from arguments"
        } else {
            ""
        };
        out.push(ArgumentError {
            pointer: push_pointer(base, key),
            message: format!("`{key}` is not an argument here{why}"),
        });
    }
}

//! The checker: sections 1, 2 and 4 of the contract on one tool file. It stands above
//! what it calls (`validate`, `remote`, `xn`), which share only the floor below them
//! (`contract`: the rule table, diagnostics and pointers, the byte-level reader, the
//! meta-schema walk and the [`Draft07`] interface).
//!
//! [`check_bytes_using`] reads the file ([`json::read`]: `depth-limit`, `json-syntax`),
//! then [`check_value_using`] runs one small function per rule id, each named `check_<rule>`
//! with a two-line comment (the rule, its reason), in `docs/contract.md` order:
//! section 1 here, section 2 in `root` (whose one walk of every subschema serves
//! `required-undeclared` and `open-object-implicit`, and gathers the subschemas
//! `default-invalid` checks, having passed on the leaves whose own compiled node accepts
//! their values) and `defaults` (`default-invalid`),
//! section 4 in `xn`, and the message
//! helpers (suggestions, value rendering) in `words`.

use serde_json::Value;

use crate::contract::json;
pub use crate::contract::{Compiled, DRAFT_07, Draft07, Violation};
use crate::contract::{Diagnostic, RuleId};
use crate::name::{NameProblem, TOOL_NAME_PATTERN};

mod defaults;
mod root;
mod words;

pub use words::did_you_mean;
mod xn;

use defaults::check_default_invalid;
use root::{
    check_reserved_input_key, check_root_closed, check_root_composition, check_root_type,
    check_schema_draft, walk_schemas,
};
use xn::{
    Xn, check_askonkeys_duplicate, check_askonkeys_posture, check_askonkeys_too_many,
    check_askonkeys_undeclared, check_card_type_unmatched, check_category_invalid,
    check_category_missing, check_defaults_undeclared, check_description_missing,
    check_hints_contradict, check_presentation_implicit, check_xn_missing, check_xn_recovery_field,
    check_xn_type, check_xn_unknown_key,
};

/// Which rule set a file is checked against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Sections 1, 2 and 4 of the contract: what the platform's package loader enforces.
    #[default]
    Neuralis,
    /// `neuralis` plus section 6: what platforms that consume MCP servers do to a tool
    /// (see [`crate::remote`]).
    McpRemote,
    /// `neuralis` plus section 8 for OpenAI strict function calling (see
    /// [`crate::dialect`]).
    OpenAi,
    /// `neuralis` plus section 8 for Anthropic strict tool use.
    Anthropic,
    /// `neuralis` plus section 8 for Gemini function declarations.
    Gemini,
}

impl Profile {
    /// The profile's name on the command line: `neuralis` or `mcp-remote`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Neuralis => "neuralis",
            Self::McpRemote => "mcp-remote",
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
        }
    }

    /// The provider whose dialect the profile checks, for `openai`, `anthropic` and
    /// `gemini`.
    #[must_use]
    pub const fn provider(self) -> Option<crate::dialect::Provider> {
        match self {
            Self::OpenAi => Some(crate::dialect::Provider::OpenAi),
            Self::Anthropic => Some(crate::dialect::Provider::Anthropic),
            Self::Gemini => Some(crate::dialect::Provider::Gemini),
            Self::Neuralis | Self::McpRemote => None,
        }
    }
}

/// What the checker knows beyond the file itself.
///
/// ```
/// use neuralis_model::checker::{CheckOptions, Profile};
/// let options = CheckOptions {
///     cards: Some(vec!["weather.result".to_owned()]),
///     profile: Profile::McpRemote,
///     ..CheckOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The card types the package declares, when known (`card-type-unmatched`).
    pub cards: Option<Vec<String>>,
    /// The rule set: the platform's own, or with the `mcp-remote` profile added.
    pub profile: Profile,
    /// The model providers' dialects the tool must be served in (section 8, beside the
    /// profile's own): what each refuses is `dialect-refused`, what each moves into words
    /// `dialect-weakened`.
    pub dialects: Vec<crate::dialect::Provider>,
}

/// Everything the checker found in one file.
#[derive(Debug, Clone)]
pub struct Report {
    /// The tool name (the file stem).
    pub name: String,
    /// Every violation, errors and warnings, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// The parsed document, when it parsed.
    pub schema: Option<Value>,
}

impl Report {
    /// Whether any diagnostic is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Checks the bytes of `tools/<name>.json`, with `validator` for the checks that need one
/// (see [`Draft07`]).
///
/// A file that cannot be read (`depth-limit`, `json-syntax`) gets that one diagnostic
/// alone, and no schema. Otherwise every diagnostic of
/// [`check_value_using`] gets the line and column of its pointer, and they come in
/// document order.
///
/// ```
/// use neuralis_model::checker::{CheckOptions, check_bytes_using};
/// use neuralis_model::contract::RuleId;
/// let report = check_bytes_using("find", br#"{"type": "object"}"#, &CheckOptions::default(), None);
/// assert!(report.has_errors());
/// assert!(report.diagnostics.iter().any(|d| d.rule == RuleId::RootClosed));
/// ```
#[must_use]
pub fn check_bytes_using(
    name: &str,
    bytes: &[u8],
    options: &CheckOptions,
    validator: Option<&dyn Draft07>,
) -> Report {
    match json::read(bytes) {
        Ok(schema) => {
            let mut diagnostics = check_value_using(name, &schema, options, validator);
            for d in &mut diagnostics {
                if d.rule != RuleId::ToolName {
                    d.location = json::locate(bytes, &d.pointer);
                }
            }
            diagnostics.sort_by_key(|d| d.location);
            Report {
                name: name.to_owned(),
                diagnostics,
                schema: Some(schema),
            }
        }
        Err(diagnostic) => Report {
            name: name.to_owned(),
            diagnostics: vec![*diagnostic],
            schema: None,
        },
    }
}

/// Checks an already parsed tool document named `name`: every rule of sections 1, 2 and
/// 4 of `docs/contract.md` except `duplicate-tool` (a build-time rule), all violations at once,
/// each with the RFC 6901 pointer of the offending key or value, in a fixed order. Without
/// a `validator`, the three checks that need one (see [`Draft07`]) are left out.
///
/// The checks recurse as deep as the value goes: for untrusted input, start from bytes
/// with [`check_bytes_using`], which refuses documents deeper than 128 levels first.
///
/// ```
/// use neuralis_model::checker::{CheckOptions, check_value_using};
/// use neuralis_model::contract::RuleId;
/// let schema = serde_json::json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "type": "object",
///     "additionalProperties": false,
///     "description": "Look a user up.",
///     "properties": { "userId": { "type": "string" } },
///     "x-neuralis": { "annotations": { "category": "read" } }
/// });
/// let found = check_value_using("find_user", &schema, &CheckOptions::default(), None);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].rule, RuleId::ReservedInputKey);
/// assert_eq!(found[0].pointer, "/properties/userId");
/// ```
#[must_use]
pub fn check_value_using(
    name: &str,
    schema: &Value,
    options: &CheckOptions,
    validator: Option<&dyn Draft07>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_tool_name(name, &mut out);
    let Some(root) = schema.as_object() else {
        out.push(
            Diagnostic::new(RuleId::JsonSyntax, "")
                .with_message("the document is not a JSON object"),
        );
        return out;
    };
    // Section 2: the root schema.
    check_schema_draft(schema, root, validator, &mut out);
    check_root_type(root, &mut out);
    check_root_closed(root, &mut out);
    check_root_composition(schema, root, &mut out);
    let mut held_values = Vec::new();
    walk_schemas(
        schema,
        validator.is_some().then_some(&mut held_values),
        &mut out,
    );
    check_reserved_input_key(root, &mut out);
    if let Some(validator) = validator {
        check_default_invalid(schema, held_values, validator, &mut out);
    }
    // Section 4: the x-neuralis block.
    let xn = Xn::of(root);
    check_xn_missing(root, &mut out);
    check_xn_recovery_field(&xn, &mut out);
    check_xn_unknown_key(&xn, &mut out);
    check_xn_type(root, &xn, &mut out);
    check_category_missing(&xn, &mut out);
    check_category_invalid(&xn, &mut out);
    check_defaults_undeclared(root, &xn, validator, &mut out);
    check_askonkeys_posture(&xn, &mut out);
    check_askonkeys_too_many(&xn, &mut out);
    check_askonkeys_duplicate(&xn, &mut out);
    check_askonkeys_undeclared(root, &xn, &mut out);
    check_hints_contradict(&xn, &mut out);
    check_description_missing(root, &mut out);
    check_presentation_implicit(&xn, &mut out);
    check_card_type_unmatched(&xn, options, &mut out);
    if options.profile == Profile::McpRemote {
        out.extend(crate::remote::check_profile(name, schema));
    }
    let named = options.profile.provider().into_iter();
    let mut providers: Vec<crate::dialect::Provider> = named.collect();
    for p in &options.dialects {
        if !providers.contains(p) {
            providers.push(*p);
        }
    }
    for provider in providers {
        out.extend(crate::dialect::check_provider(provider, name, schema));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Section 1: files and names

// tool-name: the file stem matches `^[a-zA-Z0-9_-]{1,48}$`.
// Reason: the platform skips a tool whose name is not wire-safe.
fn check_tool_name(name: &str, out: &mut Vec<Diagnostic>) {
    if let Some(problem) = NameProblem::of(name) {
        out.push(Diagnostic::new(RuleId::ToolName, "").with_message(format!(
            "tool name `{name}` {problem}, so it does not match `{TOOL_NAME_PATTERN}`"
        )));
    }
}

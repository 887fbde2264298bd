//! The contract as data: every rule id with its severity, message and hint.
//!
//! One table serves the macros, the build emitter and `neuralis check`, so a rule reads
//! the same wherever it fires. The ids are public interface (see `docs/contract.md`).

use std::fmt;

/// How bad a violation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The package would fail to load, or the tool would be skipped.
    Error,
    /// It loads, but probably not as the author meant.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id, for example `reserved-input-key`.
    pub id: RuleId,
    /// How bad a violation is.
    pub severity: Severity,
    /// The section of `docs/contract.md` the rule belongs to.
    pub section: u8,
    /// What is wrong, lower-case, no final period.
    pub message: &'static str,
    /// What to do about it.
    pub hint: &'static str,
}

macro_rules! rules {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $id:literal, $sev:ident, $section:literal,
            $message:literal, $hint:literal;
    )*) => {
        /// A rule id of the contract.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum RuleId {
            $( $(#[$doc])* $variant, )*
        }

        /// Every rule, in `docs/contract.md` order.
        pub static RULES: &[Rule] = &[
            $( Rule {
                id: RuleId::$variant,
                severity: Severity::$sev,
                section: $section,
                message: $message,
                hint: $hint,
            }, )*
        ];

        impl RuleId {
            /// Every rule id, in `docs/contract.md` order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// The stable id, as it appears in `docs/contract.md`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $(RuleId::$variant => $id,)* }
            }

            /// Parses a stable id.
            #[must_use]
            pub fn from_id(id: &str) -> Option<Self> {
                match id { $($id => Some(RuleId::$variant),)* _ => None }
            }

            /// The rule's row of the table.
            #[must_use]
            pub const fn rule(self) -> &'static Rule {
                &RULES[self as usize]
            }

            /// The rule's severity.
            #[must_use]
            pub const fn severity(self) -> Severity {
                self.rule().severity
            }
        }
    };
}

rules! {
    // 1. Files and names
    /// A tool name must match `^[a-zA-Z0-9_-]{1,48}$`.
    ToolName = "tool-name", Error, 1,
        "tool name does not match `^[a-zA-Z0-9_-]{1,48}$`",
        "use 1 to 48 ASCII letters, digits, `_` or `-`";
    /// Two handlers in one crate claim one tool name.
    DuplicateTool = "duplicate-tool", Error, 1,
        "two handlers claim the same tool name",
        "rename one of the handlers, or give it `name = \"...\"`";
    /// The file is not one JSON object.
    JsonSyntax = "json-syntax", Error, 1,
        "the file is not one JSON object",
        "write a single JSON object in UTF-8, with no duplicate keys";
    // 2. The root schema
    /// `$schema` is draft-07 and the document is a valid draft-07 schema.
    SchemaDraft = "schema-draft", Error, 2,
        "the document is not a valid draft-07 JSON Schema",
        "set `$schema` to `http://json-schema.org/draft-07/schema#` and fix the keyword shown";
    /// The root has `"type": "object"`.
    RootType = "root-type", Error, 2,
        "the root schema is not `\"type\": \"object\"`",
        "add `\"type\": \"object\"` at the root";
    /// The root has `"additionalProperties": false`.
    RootClosed = "root-closed", Error, 2,
        "the root schema is not closed",
        "add `\"additionalProperties\": false` at the root";
    /// The root admits keys only through its own `properties`.
    RootComposition = "root-composition", Error, 2,
        "the root admits keys other than through its own `properties`",
        "declare every root key in the root's `properties`; keep `$ref`, `patternProperties` and property-declaring composition off the root";
    /// Every required name is declared.
    RequiredUndeclared = "required-undeclared", Error, 2,
        "a `required` name is not declared in `properties`",
        "declare the property, or remove it from `required`";
    /// No reserved session key at the root.
    ReservedInputKey = "reserved-input-key", Error, 2,
        "a root property uses a reserved session-context name",
        "rename the property: the session context supplies `userId`, `projectId`, `agentId`, `conversationId`, `requestId`, `toolUseId`, `delegateRunId`, `delegateMode`, `role`, `priority`, `grantedFeatures`, `spendLimits`, `llmRateLimitRpm`, `agentAccess`, `agentOwnership` and `session`, and caller identity comes from the verified session, never from arguments (nested uses are fine)";
    /// A `default` or an `examples` entry that its own subschema refuses.
    DefaultInvalid = "default-invalid", Warning, 2,
        "a `default` or an `examples` entry does not validate against its own schema",
        "give a value the schema accepts: a client that fills in the default would send an argument the tool refuses";
    /// Too deep or too large to read safely.
    DepthLimit = "depth-limit", Error, 2,
        "the document is nested deeper than 128 levels or is larger than 4 MiB",
        "flatten the schema or split the tool";
    // 4. The x-neuralis block
    /// The `x-neuralis` block is missing.
    XnMissing = "xn-missing", Error, 4,
        "the root has no `x-neuralis` object",
        "add an `x-neuralis` block with at least `annotations.category`";
    /// A nested object schema says nothing about extra keys.
    OpenObjectImplicit = "open-object-implicit", Warning, 4,
        "a nested object schema does not say whether it accepts other keys",
        "set `additionalProperties` to `false` (closed) or `true` (an open bag)";
    /// An unknown key in the `x-neuralis` block.
    XnUnknownKey = "xn-unknown-key", Error, 4,
        "unknown key in the `x-neuralis` block",
        "remove the key or fix its spelling";
    /// A recovery field in the `x-neuralis` block.
    XnRecoveryField = "xn-recovery-field", Error, 4,
        "a recovery field is declared on the tool",
        "remove it: recovery posture is resolved by the platform's mutation-safety policy at run time, never declared on a tool";
    /// A known `x-neuralis` key with the wrong type.
    XnType = "xn-type", Error, 4,
        "an `x-neuralis` key has the wrong type",
        "give the key the type the contract states";
    /// `annotations.category` is missing.
    CategoryMissing = "category-missing", Error, 4,
        "`annotations.category` is missing",
        "add a category: `read`, `write`, `execute`, `network`, `machine`, `credential`, `admin` or `unknown`";
    /// `annotations.category` has an unknown value.
    CategoryInvalid = "category-invalid", Error, 4,
        "`annotations.category` is not a known category",
        "use one of `read`, `write`, `execute`, `network`, `machine`, `credential`, `admin`, `unknown`";
    /// A default for a key the root does not declare, or of the wrong type.
    DefaultsUndeclared = "defaults-undeclared", Error, 4,
        "a default does not fit a root property",
        "default only root properties, with values their schema accepts";
    /// `askOnKeys` on a tool whose posture already asks.
    AskonkeysPosture = "askonkeys-posture", Error, 4,
        "`askOnKeys` is only valid on a destructive tool of category `write`, `execute`, `network` or `machine`",
        "remove `askOnKeys`, or declare `destructiveHint: true` with one of those categories";
    /// More than 8 `askOnKeys`.
    AskonkeysTooMany = "askonkeys-too-many", Error, 4,
        "`askOnKeys` lists more than 8 distinct keys",
        "keep at most 8 keys; a tool that must ask about more should ask about every call";
    /// A key listed twice in `askOnKeys`.
    AskonkeysDuplicate = "askonkeys-duplicate", Error, 4,
        "`askOnKeys` lists a key twice",
        "list each key once";
    /// An `askOnKeys` entry that is not a root property.
    AskonkeysUndeclared = "askonkeys-undeclared", Error, 4,
        "an `askOnKeys` key is not a root property of the tool's input",
        "name a root property of this tool's input schema";
    /// `readOnlyHint` and `destructiveHint` both true.
    HintsContradict = "hints-contradict", Warning, 4,
        "`readOnlyHint` and `destructiveHint` are both true",
        "a tool that only reads destroys nothing: drop one of the hints";
    /// The root has no description.
    DescriptionMissing = "description-missing", Warning, 4,
        "the root schema has no `description`",
        "describe what the tool does and when to call it: the model decides from this text";
    /// A read-only tool renders in the explored style without saying so.
    PresentationImplicit = "presentation-implicit", Warning, 4,
        "a read-only tool without `ui.cardType` or `ui.presentation` renders in the compact explored style",
        "set `ui.presentation` explicitly";
    /// `ui.cardType` names no declared card.
    CardTypeUnmatched = "card-type-unmatched", Warning, 4,
        "`ui.cardType` names no card the package declares",
        "declare the card, or fix the card type; otherwise results fall back to the default card";
    // 5. Tool results
    /// A result is not of the contract's shape.
    ResultShape = "result-shape", Warning, 5,
        "the result is not of the shape `{ content, isError?, structuredContent?, _meta? }`",
        "return text, image, audio or resource blocks; other block types are dropped";
    /// `_meta` would reach the model.
    ResultMeta = "result-meta", Warning, 5,
        "`_meta` is UI/runtime-only and never reaches the model",
        "put facts the model needs in `content`; keep accounting under `_meta.neuralis`";
    /// A result exceeded a cap and was bounded.
    ResultBound = "result-bound", Warning, 5,
        "the result exceeded a cap and was bounded",
        "paginate or summarize: return the headline fields as top-level `structuredContent` keys";
    /// The settled status breaks the convention.
    StatusConvention = "status-convention", Warning, 5,
        "the result's `status` breaks the settled-status convention",
        "use `ok: true|false`, or a status word without `pending` (except `pending_review`); put domain codes in fields like `httpStatus`";
    /// How a result's card is chosen.
    CardResolution = "card-resolution", Warning, 5,
        "the result resolves to no declared card",
        "set `ui.cardType` to a declared card";
    /// The iframe payload exceeded its budget.
    IframeBudget = "iframe-budget", Warning, 5,
        "the card payload exceeded the iframe budget and was cut",
        "keep card payloads under 131,072 bytes and strings under 16,384 characters";
    // 6. Profile mcp-remote
    /// A remote tool name is not wire-safe.
    RemoteName = "remote-name", Error, 6,
        "the remote tool name does not match `^[a-zA-Z0-9_-]{1,48}$`",
        "rename the tool: it would be skipped at discovery";
    /// A remote tool takes an assistant's own name.
    RemoteReservedName = "remote-reserved-name", Error, 6,
        "the remote tool takes a name reserved for the assistant's own tools",
        "rename the tool";
    /// The description will be rewritten.
    RemoteDescription = "remote-description", Warning, 6,
        "the description will be rewritten before the model sees it",
        "write one plain sentence under 400 characters, without newlines, backticks or instruction-shaped phrases";
    /// A construct the provider subset drops.
    RemoteDropped = "remote-dropped", Warning, 6,
        "a schema construct is dropped by the provider subset",
        "simplify the argument, and validate it on the handler side (the toolkit does)";
    /// A root property that looks like an entitlement.
    RemoteEntitlement = "remote-entitlement", Warning, 6,
        "a root property looks like an entitlement chosen by the model",
        "resolve entitlements server-side from the caller and drop the argument";
    // 7. Rules only the source can break
    /// A tool's input is not a struct with named fields.
    InputNotStruct = "input-not-struct", Error, 7,
        "a tool's input type must be a struct with named fields",
        "wrap the type in a struct with named fields";
    /// A field type with no schema.
    UnsupportedType = "unsupported-type", Error, 7,
        "this field's type has no schema",
        "use `#[schema(with = ...)]`, or enable the feature for the type's crate";
    /// A serde attribute the toolkit does not model.
    SerdeUnsupported = "serde-unsupported", Error, 7,
        "this serde attribute is not modelled by the toolkit",
        "remove the attribute or restructure the type; the schema would drift from what serde accepts";
    /// A malformed `#[schema(...)]` argument.
    SchemaAttr = "schema-attr", Error, 7,
        "malformed `#[schema(...)]` argument",
        "see the `#[schema]` reference for the accepted keys and values";
    /// The abort signal does not match `cancellable`.
    CancellableSignal = "cancellable-signal", Error, 7,
        "a handler takes an abort signal exactly when it declares `cancellable`",
        "declare `annotations(cancellable)` or stop reading the abort signal";
    /// A handler the toolkit cannot call.
    HandlerSignature = "handler-signature", Error, 7,
        "the handler's signature is not one the toolkit can call",
        "take the input by value and optionally `&ToolContext`; return a type deriving `ToolOutput`, a `ToolResult` (or `Json<T>` for an untyped value), or a `Result` of either whose error is `Display`";
    /// A malformed `bound(...)` in `#[tool]`.
    BoundAttr = "bound-attr", Error, 7,
        "malformed `bound(...)` argument of `#[tool]`",
        "give caps as positive integers (`text_chars`, `array_len`, `string_chars`, `structured_bytes`, `blob_bytes`) and `more` as the serde name of a root property of the tool's input, for example `bound(array_len = 50, more = \"cursor\")`, with `more_value = \"offset\"` when the marker should say the next offset to send in it";
    /// A form a handler asks a person to fill in is not one MCP elicitation can show.
    ElicitationForm = "elicitation-form", Error, 7,
        "an elicitation form is a flat object of primitive fields",
        "keep to strings (`format` email, uri, date or date-time; `min_length`, `max_length`), numbers and integers (`minimum`, `maximum`), booleans, and unit enums marked `#[schema(elicitation)]` (one, or a `Vec` of them with `min_items`, `max_items`): clients show nothing else";
    /// A malformed `task` or `task_start` in `#[tool]`.
    TaskAttr = "task-attr", Error, 7,
        "malformed `task` or `task_start` argument of `#[tool]`",
        "give `task = \"optional\"` (a task when the client opted in), `\"required\"` (only as a task) or `\"forbidden\"`, and `task_start = \"handler\"` only beside a `task` the handler begins with `cx.begin_task()`";
    /// A tool that must run as a task cannot be cancelled.
    TaskCancellable = "task-cancellable", Error, 7,
        "a tool whose calls run only as tasks must be cancellable",
        "declare `annotations(cancellable)` and take an `AbortSignal` (a client stops a task with `tasks/cancel`), or make the task `optional`";
    /// A malformed `#[schema(header = "...")]`: an argument mirrored in an HTTP header.
    HeaderAttr = "header-attr", Error, 7,
        "malformed `header` argument of `#[schema]`",
        "mirror a root property of a tool's input whose type is a string, an integer or a boolean in a header named by an HTTP token, for example `#[schema(header = \"Region\")]`, each name once in a tool";
    // 8. Provider dialects
    /// A construct a provider's dialect cannot carry.
    DialectRefused = "dialect-refused", Error, 8,
        "a provider's dialect cannot carry this schema construct",
        "change the argument's type to one the provider decodes (no map, no recursion, no value of any type), or drop the provider from the dialects the package serves";
    /// A constraint a provider's dialect moves into words.
    DialectWeakened = "dialect-weakened", Warning, 8,
        "a provider does not enforce this constraint: the model reads it in the description",
        "nothing to do if words are enough: the server validates the call all the same";
    // Build emitter
    /// A file in `tools/` that no handler produces.
    StaleToolFile = "stale-tool-file", Warning, 1,
        "a file in `tools/` is produced by no handler",
        "delete it, or turn pruning on in `neuralis_build`";
    /// A file under `skills/` that is no part of a skill a host can load.
    SkillLayout = "skill-layout", Error, 1,
        "a file under `skills/` is no part of a skill a host can load",
        "give each skill a folder `skills/<name>/` with its `SKILL.md` at the top and its files below it, as regular files with UTF-8 names (no symbolic link, no second `SKILL.md`)";
    /// A `SKILL.md` whose frontmatter cannot be read.
    SkillFrontmatter = "skill-frontmatter", Error, 1,
        "the frontmatter of a `SKILL.md` cannot be read",
        "open `SKILL.md` with a `---` line, then a YAML mapping (`name: ...`, `description: ...`), then a closing `---` line";
    /// A skill whose frontmatter `name` is not a skill name or not its folder's.
    SkillName = "skill-name", Error, 1,
        "a skill's `name` is not a skill name equal to its folder's",
        "write `name:` as the folder's name, 1 to 64 lowercase letters, digits and single hyphens, not at either end";
    /// A skill with no description a host can show.
    SkillDescription = "skill-description", Error, 1,
        "a skill's `description` is not a text of 1 to 1024 characters",
        "write `description:` as what the skill does and when to use it, in at most 1024 characters";
    /// A skill over the files or bytes a host loads.
    SkillSize = "skill-size", Error, 1,
        "a skill is over 512 files or 16 MiB, which a host need not load",
        "move what the skill does not need out of its folder, or split it into two skills";
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RuleId::from_id(&id)
            .ok_or_else(|| serde::de::Error::custom(format_args!("unknown rule id `{id}`")))
    }
}

/// The session-context fields the platform names, in the contract's order: each one's
/// Rust name, its name on the wire, its kind (`id`, `text`, `grants`, `json`, `count`) and
/// what it is. The one list: `RESERVED_INPUT_KEYS`, `SessionContext` (fields, accessors,
/// builder) and the WASM entry's reader of the host's session are all made from it.
///
/// It calls `$callback!` with the list, each entry `#[doc] name "wireName" (kind);`.
#[doc(hidden)]
#[macro_export]
macro_rules! session_fields {
    ($callback:path) => {
        $callback! {
            /// The verified user.
            user_id "userId" (id);
            /// The project.
            project_id "projectId" (text);
            /// The agent running the call.
            agent_id "agentId" (text);
            /// The conversation.
            conversation_id "conversationId" (text);
            /// The request.
            request_id "requestId" (text);
            /// This tool use.
            tool_use_id "toolUseId" (text);
            /// The delegate run, when the call comes from a delegated run.
            delegate_run_id "delegateRunId" (text);
            /// The delegate mode.
            delegate_mode "delegateMode" (text);
            /// The caller's role.
            role "role" (text);
            /// The run's priority.
            priority "priority" (text);
            /// The features granted to the caller, in the host's order.
            granted_features "grantedFeatures" (grants);
            /// The spend limits, as the platform states them.
            spend_limits "spendLimits" (json);
            /// The model-call rate limit, in requests per minute.
            llm_rate_limit_rpm "llmRateLimitRpm" (count);
            /// The agent access grants, as the platform states them.
            agent_access "agentAccess" (json);
            /// The agent ownership, as the platform states it.
            agent_ownership "agentOwnership" (json);
            /// The bundled session ticket, as the platform states it.
            session "session" (json);
        }
    };
}

macro_rules! wire_names {
    ($($(#[$doc:meta])* $name:ident $wire:literal ($kind:ident);)*) => {
        /// The session-context names no root property may take (`reserved-input-key`).
        pub const RESERVED_INPUT_KEYS: &[&str] = &[$($wire),*];
    };
}

session_fields!(wire_names);

/// The risk categories (`category-invalid`), from the `x-neuralis` model.
pub use crate::xn::CATEGORIES;

/// The most distinct keys `askOnKeys` may list (`askonkeys-too-many`), from the
/// `x-neuralis` model.
pub use crate::xn::verdict::ASK_ON_KEYS_MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_variant() {
        for (i, rule) in RULES.iter().enumerate() {
            assert_eq!(rule.id as usize, i);
            assert_eq!(RuleId::from_id(rule.id.as_str()), Some(rule.id));
            assert!(!rule.message.ends_with('.'), "{}", rule.id);
        }
    }

    #[test]
    fn the_reserved_key_hint_names_every_reserved_key() {
        let hint = RuleId::ReservedInputKey.rule().hint;
        for key in RESERVED_INPUT_KEYS {
            assert!(
                hint.contains(&format!("`{key}`")),
                "{key} missing from the hint"
            );
        }
    }

    #[test]
    fn the_contract_document_lists_the_table() {
        // Every row of `docs/contract.md`'s rule tables: `| `id` | severity | rule |`.
        let contract = include_str!("../../../docs/contract.md");
        let rows: Vec<(&str, &str)> = contract
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| {
                let (id, rest) = l.split_once("` | ")?;
                let (severity, _) = rest.split_once(" | ")?;
                Some((id, severity))
            })
            .collect();
        let table: Vec<(&str, &str)> = RULES
            .iter()
            .map(|r| {
                let severity = match r.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                (r.id.as_str(), severity)
            })
            .collect();
        assert_eq!(rows, table, "docs/contract.md and the rule table differ");
    }
}

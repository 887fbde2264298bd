//! Asking the person or client behind a call: the host's [`Asker`], the [`Question`]s the
//! approval gate and handlers put through it, and the [`ApprovalPolicy`] that decides
//! what the pipeline does with a call whose posture asks.
//!
//! The pipeline never talks to anybody itself. A host that can reach a person (the MCP
//! server, a test client, a chat UI) implements [`Asker`] and hands it to
//! [`Package::dispatch_with`](super::Package::dispatch_with) through
//! [`CallOptions::asker`](super::CallOptions::asker); the approval gate asks through it
//! ([`Question::Approve`]), and so do handlers, with [`ToolContext::elicit`],
//! [`ToolContext::confirm`], [`ToolContext::sample`] and [`ToolContext::roots`].
//!
//! [`ToolContext::elicit`]: super::ToolContext::elicit
//! [`ToolContext::confirm`]: super::ToolContext::confirm
//! [`ToolContext::sample`]: super::ToolContext::sample
//! [`ToolContext::roots`]: super::ToolContext::roots

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::approval::AskReason;
use super::handler::BoxFuture;
use crate::input::ToolInput;
use crate::result::ToolResult;

/// What the pipeline does with a call whose approval posture asks
/// ([`Package::approval`](super::Package::approval): a sent `askOnKeys` key, category
/// `unknown`).
///
/// ```
/// use neuralis_core::dispatch::{ApprovalPolicy, CallOptions};
///
/// // The MCP server's default: a person confirms through the call's asker.
/// let options = CallOptions::new().approval(ApprovalPolicy::Ask);
/// # let _ = options;
/// assert_eq!(ApprovalPolicy::default(), ApprovalPolicy::Host);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ApprovalPolicy {
    /// The pipeline does not gate: the host asked
    /// [`Package::approval`](super::Package::approval) itself before dispatching, and
    /// decided. The default of [`CallOptions`](super::CallOptions), and what the plain
    /// pipeline ([`Package::dispatch`](super::Package::dispatch)) and the WASM entry do.
    #[default]
    Host,
    /// The call does not reach its handler until a person confirms it: the pipeline puts
    /// a [`Question::Approve`] to the call's [`Asker`]. Declined, cancelled, or no way to
    /// ask (no asker, a client that cannot answer a form): an `isError` result saying the
    /// call needs approval and was not run.
    Ask,
    /// Every call whose posture asks is refused with that `isError` result, unrun (a host
    /// with nobody to ask, that will not run such calls unconfirmed).
    Refuse,
    /// Every call runs: the platform in front of this host runs its own guard on the
    /// posture (it reads `x-neuralis`, as the seeds' platform does when it discovers a
    /// package's server) and only forwards what it approved.
    Trust,
}

impl ApprovalPolicy {
    /// The policy's name, as a command line spells it: `host`, `ask`, `refuse`, `trust`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalPolicy::Host => "host",
            ApprovalPolicy::Ask => "ask",
            ApprovalPolicy::Refuse => "refuse",
            ApprovalPolicy::Trust => "trust",
        }
    }
}

impl fmt::Display for ApprovalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ApprovalPolicy {
    type Err = String;

    /// `host`, `ask`, `refuse` or `trust`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "host" => Ok(ApprovalPolicy::Host),
            "ask" => Ok(ApprovalPolicy::Ask),
            "refuse" => Ok(ApprovalPolicy::Refuse),
            "trust" => Ok(ApprovalPolicy::Trust),
            other => Err(format!(
                "`{other}` is no approval policy: give `ask`, `refuse`, `trust` or `host`"
            )),
        }
    }
}

/// The host's way to put questions to the person or client behind a call (MCP: a request
/// to the client, or an `InputRequiredResult` round).
///
/// Implement it with boxed futures, as [`Handler`](super::Handler)s are: `ask` is called
/// once per question, possibly several times at once (a handler that joins two asks). An
/// answer of the wrong kind for its question reads as [`AskError::Failed`].
///
/// Every question comes with its **key**, a name the asker chose that is stable across
/// runs of the same call (the approval gate's is [`APPROVAL_KEY`]): MCP 2026-07-28 names
/// the questions of an `InputRequiredResult` by it, and matches the answers of the retry
/// to them; a host that asks right away may ignore it.
///
/// ```
/// use neuralis_core::dispatch::{Answer, AskError, Asker, BoxFuture, Elicited, Question};
///
/// /// Approves every call, fills in no form, knows no model and no roots.
/// struct Approving;
///
/// impl Asker for Approving {
///     fn ask<'a>(&'a self, _key: &'a str, question: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
///         Box::pin(async move {
///             match question {
///                 Question::Approve(_) => Ok(Answer::Elicit(Elicited::Accept(Default::default()))),
///                 other => Err(AskError::Unsupported(other.capability())),
///             }
///         })
///     }
/// }
/// # let _ = Approving;
/// ```
pub trait Asker: Send + Sync + 'static {
    /// Puts `question`, named `key`, to the person or client, and gives its answer.
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>>;

    /// Whether the client can answer questions that need `capability` (MCP: it declared
    /// the capability). `true` unless the asker knows better.
    fn supports(&self, capability: Capability) -> bool {
        let _ = capability;
        true
    }

    /// The call reached the point where it becomes a task (see
    /// [`TaskMode`](super::TaskMode)): a host that runs it as a task from here ends the
    /// call's request at this point and never lets the future finish; any other asker
    /// returns at once, which is the default.
    fn begin_task(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
}

/// The key of the approval gate's [`Question::Approve`] (see [`Asker`]); a handler's own
/// questions use other keys.
pub const APPROVAL_KEY: &str = "neuralis.approval";

/// What a client must be able to do to answer a [`Question`] (the MCP client capability
/// of the same name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// Fill in a form (`elicitation`).
    Elicitation,
    /// Run a completion on its model (`sampling`).
    Sampling,
    /// List its roots (`roots`).
    Roots,
}

impl Capability {
    /// The capability's MCP name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One question to the person or client behind a call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Question {
    /// The approval gate asks a person to confirm a call before it runs
    /// ([`ApprovalPolicy::Ask`]). Answered like a form: [`Elicited::Accept`] confirms.
    Approve(ApprovalRequest),
    /// A form a person fills in (MCP `elicitation/create`, form mode).
    Elicit(Form),
    /// A completion from the client's model (MCP `sampling/createMessage`).
    Sample(SamplingRequest),
    /// The client's roots (MCP `roots/list`).
    Roots,
}

impl Question {
    /// What the client must be able to do to answer it.
    #[must_use]
    pub fn capability(&self) -> Capability {
        match self {
            Question::Approve(_) | Question::Elicit(_) => Capability::Elicitation,
            Question::Sample(_) => Capability::Sampling,
            Question::Roots => Capability::Roots,
        }
    }

    /// The capability it needs, when `supports` (the client's declared capabilities, as
    /// the asker knows them) has it; else the [`AskError::Unsupported`] naming it. What
    /// every [`Asker`] answers first, before asking anybody.
    ///
    /// ```
    /// use neuralis_core::dispatch::{AskError, Capability, Question};
    ///
    /// assert_eq!(Question::Roots.supported_by(|_| true).ok(), Some(Capability::Roots));
    /// let refused = Question::Roots.supported_by(|c| c != Capability::Roots);
    /// assert!(matches!(refused, Err(AskError::Unsupported(Capability::Roots))));
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::Unsupported`] when `supports` does not have the capability.
    pub fn supported_by(
        &self,
        supports: impl FnOnce(Capability) -> bool,
    ) -> Result<Capability, AskError> {
        let capability = self.capability();
        if supports(capability) {
            Ok(capability)
        } else {
            Err(AskError::Unsupported(capability))
        }
    }

    /// The question as JSON: `{"approve": ..}`, `{"elicit": ..}`, `{"sample": ..}` or
    /// `{"roots": {}}` (for hosts that record what was asked, and digests).
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Question::Approve(a) => json!({"approve": {
                "tool": a.tool, "keys": a.keys(), "form": a.form.to_json()
            }}),
            Question::Elicit(f) => json!({"elicit": f.to_json()}),
            Question::Sample(s) => json!({"sample": s.to_json()}),
            Question::Roots => json!({"roots": {}}),
        }
    }
}

/// The approval gate's question: which tool, why it asks, and the confirm form a client
/// shows (its message names the tool and the keys that triggered it; no fields: accepting
/// it confirms).
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The tool whose call waits.
    pub tool: String,
    /// Why the call asks.
    pub reason: AskReason,
    /// The confirm form.
    pub form: Form,
}

impl ApprovalRequest {
    /// The request for calling `tool`, asking for `reason`.
    ///
    /// ```
    /// use neuralis_core::dispatch::{ApprovalRequest, AskReason};
    ///
    /// let request = ApprovalRequest::new("notes_write", AskReason::Keys(vec!["delete".into()]));
    /// assert_eq!(
    ///     request.form.message,
    ///     "Allow the tool `notes_write` to run? The call sends `delete`, which asks for approval."
    /// );
    /// assert_eq!(request.form.schema["properties"], serde_json::json!({}));
    /// ```
    #[must_use]
    pub fn new(tool: &str, reason: AskReason) -> Self {
        let why = match &reason {
            AskReason::UnknownCategory => {
                "Its effects are unknown (category `unknown`), so every call asks for approval."
                    .to_owned()
            }
            AskReason::Keys(keys) => {
                let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                let (list, verb) = match keys.as_slice() {
                    [one] => (one.clone(), "asks"),
                    [init @ .., last] => (format!("{} and {last}", init.join(", ")), "ask"),
                    [] => (String::new(), "asks"),
                };
                format!("The call sends {list}, which {verb} for approval.")
            }
        };
        let message = format!("Allow the tool `{tool}` to run? {why}");
        let form = Form::new(
            message,
            json!({"type": "object", "properties": {}, "required": []}),
        );
        Self {
            tool: tool.to_owned(),
            reason,
            form,
        }
    }

    /// The `askOnKeys` keys the call sent (none for category `unknown`).
    #[must_use]
    pub fn keys(&self) -> &[String] {
        match &self.reason {
            AskReason::Keys(keys) => keys,
            AskReason::UnknownCategory => &[],
        }
    }
}

/// A form for a person to fill in: the message shown with it, and the requested schema
/// (MCP's elicitation subset: an object of primitive properties).
///
/// Build one from a checked type with [`Form::of`], or from any schema with
/// [`Form::new`] (the client, not this crate, then decides whether it is one it can show).
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    /// What the person reads.
    pub message: String,
    /// The requested schema: `{"type": "object", "properties": {..}, "required": [..]}`.
    pub schema: Value,
}

impl Form {
    /// A form with any requested `schema`.
    #[must_use]
    pub fn new(message: impl Into<String>, schema: Value) -> Self {
        Self {
            message: message.into(),
            schema,
        }
    }

    /// The form of the type `T` (see [`ElicitForm`]): its choices titled as SEP-1330
    /// writes them (`oneOf` of `const` and `title` for one choice, `items.anyOf` for a
    /// list of them) when the enum's variants have titles.
    #[must_use]
    pub fn of<T: ElicitForm>(message: impl Into<String>) -> Self {
        let mut schema = form_schema::<T>();
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            for (name, titles) in T::CHOICES {
                if let Some(property) = properties.get_mut(*name) {
                    title_choice(property, titles);
                }
            }
        }
        Self::new(message, schema)
    }

    /// `{"message": .., "requestedSchema": ..}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({"message": self.message, "requestedSchema": self.schema})
    }
}

/// The requested schema of `T`: its root document without what is the contract's, not
/// the form's (`$schema`, `additionalProperties`, `x-neuralis`).
fn form_schema<T: ToolInput + ?Sized>() -> Value {
    let mut schema = T::schema();
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
        map.remove("additionalProperties");
        map.remove(crate::xn::BLOCK);
        map.entry("required").or_insert_with(|| json!([]));
    }
    schema
}

/// A choice's options with their titles (SEP-1330): `[{"const": value, "title": title}]`
/// in place of the `enum` of one choice, or of the `items` of a list of choices (as
/// `anyOf`, a multi-select's items); nothing when the enum gives no titles.
fn title_choice(property: &mut Value, titles: &[(&str, &str)]) {
    if titles.is_empty() {
        return;
    }
    let options: Vec<Value> = titles
        .iter()
        .map(|(value, title)| json!({"const": value, "title": title}))
        .collect();
    let Some(map) = property.as_object_mut() else {
        return;
    };
    if map.get("type").and_then(Value::as_str) == Some("array") {
        map.insert("items".to_owned(), json!({ "anyOf": options }));
    } else {
        map.remove("enum");
        map.insert("oneOf".to_owned(), Value::Array(options));
    }
}

/// A type a handler may ask a person to fill in ([`ToolContext::elicit`]): its
/// [`ToolInput`] schema is a form MCP elicitation can show, a flat object of primitive
/// fields (strings, with `format` email, uri, date or date-time and `min_length` /
/// `max_length`; numbers and integers with `minimum` / `maximum`; booleans; enums of unit
/// variants, one of them or a list of them: SEP-1330's single and multi-select, titled
/// when the variants have `#[schema(title = "...")]`).
///
/// Implemented by `#[derive(ToolInput)]` on a struct marked `#[schema(elicitation)]`,
/// which checks exactly that when the crate compiles (rule `elicitation-form`), so a type
/// that is not a form is a compile error on its offending token, never a refusal from the
/// client at run time.
///
/// [`ToolContext::elicit`]: super::ToolContext::elicit
pub trait ElicitForm: ToolInput + DeserializeOwned {
    /// Each property whose value is a choice (one, or a list of them) with its options'
    /// titles ([`ElicitChoice::TITLES`]), which [`Form::of`] writes as SEP-1330's titled
    /// choices.
    const CHOICES: &'static [(&'static str, &'static [(&'static str, &'static str)])] = &[];
}

/// A unit enum a form's field may take: its names are the choice the person makes.
/// Implemented by `#[derive(ToolInput)]` on an enum marked `#[schema(elicitation)]`, which
/// checks that every variant is a unit variant (rule `elicitation-form`); the form's
/// derive requires it of every field whose type it does not know.
#[diagnostic::on_unimplemented(
    message = "elicitation-form: `{Self}` is not a field a form can have",
    label = "a form's field is a string, a number, an integer, a boolean, a unit enum or a `Vec` of one",
    note = "mark a unit enum `#[schema(elicitation)]` to offer its names as a choice"
)]
pub trait ElicitChoice: ToolInput {
    /// Each option (the variant's serde name) with the title a client shows for it, from
    /// the variants' `#[schema(title = "...")]` (a variant without one shows its name);
    /// empty when no variant has one.
    const TITLES: &'static [(&'static str, &'static str)] = &[];
}

/// A person's answer to a form: accepted with its content, declined, or cancelled.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicited<T = Map<String, Value>> {
    /// Filled in and sent.
    Accept(T),
    /// Explicitly refused.
    Decline,
    /// Dismissed without a choice.
    Cancel,
}

impl<T> Elicited<T> {
    /// Whether the person accepted.
    #[must_use]
    pub fn is_accepted(&self) -> bool {
        matches!(self, Elicited::Accept(_))
    }

    /// The content, when accepted.
    #[must_use]
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicited::Accept(t) => Some(t),
            Elicited::Decline | Elicited::Cancel => None,
        }
    }

    /// The action's MCP name: `accept`, `decline`, `cancel`.
    #[must_use]
    pub fn action(&self) -> &'static str {
        match self {
            Elicited::Accept(_) => "accept",
            Elicited::Decline => "decline",
            Elicited::Cancel => "cancel",
        }
    }
}

/// Who speaks in a sampling message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The person (or the server, speaking for them).
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// `user` or `assistant`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One text message of a sampling request.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What they say.
    pub text: String,
}

/// A completion asked of the client's model (MCP `sampling/createMessage`): text
/// messages, at most `max_tokens`, and the optional system prompt and temperature.
///
/// ```
/// use neuralis_core::dispatch::SamplingRequest;
///
/// let request = SamplingRequest::user("What is the capital of France?", 100)
///     .system_prompt("Answer in one word.");
/// assert_eq!(request.to_json()["maxTokens"], 100);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the completion may take.
    pub max_tokens: u32,
    /// The system prompt, if any.
    pub system_prompt: Option<String>,
    /// The sampling temperature, if the server has a preference.
    pub temperature: Option<f64>,
}

impl SamplingRequest {
    /// One user message, at most `max_tokens` back.
    #[must_use]
    pub fn user(text: impl Into<String>, max_tokens: u32) -> Self {
        Self {
            messages: vec![SamplingMessage {
                role: Role::User,
                text: text.into(),
            }],
            max_tokens,
            system_prompt: None,
            temperature: None,
        }
    }

    /// This request with a system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// This request with a temperature.
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The MCP `sampling/createMessage` params.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let messages: Vec<Value> = self
            .messages
            .iter()
            .map(|m| json!({"role": m.role.as_str(), "content": {"type": "text", "text": m.text}}))
            .collect();
        let mut params = json!({"messages": messages, "maxTokens": self.max_tokens});
        if let Some(system) = &self.system_prompt {
            params["systemPrompt"] = json!(system);
        }
        if let Some(t) = self.temperature {
            params["temperature"] = json!(t);
        }
        params
    }
}

/// The client model's completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// Who speaks (the model: [`Role::Assistant`]).
    pub role: Role,
    /// Its text (empty when the completion is not text).
    pub text: String,
    /// The model that answered, as the client names it.
    pub model: String,
    /// Why the completion stopped, if the client says (`endTurn`, `maxTokens`...).
    pub stop_reason: Option<String>,
}

/// One of the client's roots (MCP `roots/list`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// Its URI (`file:///...`).
    pub uri: String,
    /// Its name, if the client gives one.
    pub name: Option<String>,
}

/// The answer to a [`Question`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Answer {
    /// To [`Question::Approve`] and [`Question::Elicit`].
    Elicit(Elicited),
    /// To [`Question::Sample`].
    Sample(Sampled),
    /// To [`Question::Roots`].
    Roots(Vec<Root>),
}

impl Answer {
    /// The kind of answer, for an error that says what came instead.
    fn kind(&self) -> &'static str {
        match self {
            Answer::Elicit(_) => "a form's answer",
            Answer::Sample(_) => "a completion",
            Answer::Roots(_) => "a list of roots",
        }
    }
}

/// Why a question got no answer. Declining or cancelling a form is an answer
/// ([`Elicited`]), not an error.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AskError {
    /// The host gave the call no way to ask anybody (the plain pipeline, the WASM entry,
    /// a host without an [`Asker`]).
    NoAsker,
    /// The client did not declare the capability the question needs.
    Unsupported(Capability),
    /// The client answered with an error, or with something that does not read as the
    /// answer: the reason, for logs and the model.
    Failed(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::NoAsker => {
                f.write_str("nobody can be asked during this call: its host gave it no way to ask")
            }
            AskError::Unsupported(c) => write!(
                f,
                "the client cannot answer this: it did not declare the `{c}` capability"
            ),
            AskError::Failed(why) => write!(f, "the question got no usable answer: {why}"),
        }
    }
}

impl std::error::Error for AskError {}

/// The form's answer in `answer`, typed: content that does not deserialize into `T` is
/// [`AskError::Failed`].
pub(super) fn typed_form<T: DeserializeOwned>(
    answer: Result<Answer, AskError>,
) -> Result<Elicited<T>, AskError> {
    match form_answer(answer)? {
        Elicited::Accept(content) => serde_json::from_value(Value::Object(content))
            .map(Elicited::Accept)
            .map_err(|e| AskError::Failed(format!("the form's content does not fit: {e}"))),
        Elicited::Decline => Ok(Elicited::Decline),
        Elicited::Cancel => Ok(Elicited::Cancel),
    }
}

/// The form's answer in `answer`.
pub(super) fn form_answer(answer: Result<Answer, AskError>) -> Result<Elicited, AskError> {
    match answer? {
        Answer::Elicit(e) => Ok(e),
        other => Err(unexpected("a form's answer", &other)),
    }
}

/// The completion in `answer`.
pub(super) fn sampled(answer: Result<Answer, AskError>) -> Result<Sampled, AskError> {
    match answer? {
        Answer::Sample(s) => Ok(s),
        other => Err(unexpected("a completion", &other)),
    }
}

/// The roots in `answer`.
pub(super) fn roots(answer: Result<Answer, AskError>) -> Result<Vec<Root>, AskError> {
    match answer? {
        Answer::Roots(r) => Ok(r),
        other => Err(unexpected("a list of roots", &other)),
    }
}

fn unexpected(wanted: &str, got: &Answer) -> AskError {
    AskError::Failed(format!("the host answered {} for {wanted}", got.kind()))
}

/// How the approval gate's question ended, when it did not confirm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NotApproved {
    /// The policy refuses every asking call.
    Refused,
    /// The person declined.
    Declined,
    /// The person dismissed the form.
    Cancelled,
    /// Nobody could be asked, or the answer was unusable.
    NoAnswer(AskError),
}

/// The `isError` result of a call that needs approval and was not run: the text says
/// why for the model, `structuredContent` says it for programs
/// (`{"ok": false, "error": "approval-required", "outcome": ..}`).
pub(super) fn not_approved_result(request: &ApprovalRequest, why: &NotApproved) -> ToolResult {
    let trigger = match &request.reason {
        AskReason::UnknownCategory => "its effects are unknown (category `unknown`)".to_owned(),
        AskReason::Keys(keys) => {
            let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!("it sends {}", keys.join(", "))
        }
    };
    let (outcome, what) = match why {
        NotApproved::Refused => (
            "refused",
            "this server runs no call that asks for approval".to_owned(),
        ),
        NotApproved::Declined => ("declined", "the person declined".to_owned()),
        NotApproved::Cancelled => ("cancelled", "the person cancelled".to_owned()),
        NotApproved::NoAnswer(e) => ("unconfirmed", format!("nobody could confirm it ({e})")),
    };
    ToolResult::error(format!(
        "the call of `{}` needs approval ({trigger}) and was not run: {what}",
        request.tool
    ))
    .with_structured(json!({
        "ok": false,
        "error": "approval-required",
        "outcome": outcome,
        "keys": request.keys(),
    }))
}

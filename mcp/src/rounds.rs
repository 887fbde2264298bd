//! Questions on MCP 2026-07-28 (SEP-2322, multi-round-trip requests): a call that asks
//! answers with an `InputRequiredResult` (the questions as `inputRequests`, keyed by the
//! keys the handler gave them, and a sealed `requestState`); the client retries the same
//! `tools/call` with `inputResponses` and the state, and the call runs again from the
//! start, every question it asks again answered by key.
//!
//! **Resume model.** The handler is run again from the start on every round, not
//! suspended and resumed: a 2026-07-28 server keeps nothing between requests (stateless
//! replicas behind a load balancer may each take one round), and a future cannot be
//! sealed into a string. So the state carries the answers, never the handler's progress,
//! and a handler does nothing irreversible before its last question.
//!
//! **The state** (`rmcp`'s [`RequestStateCodec`], HMAC-SHA256) carries the answers so far
//! and the keys of the questions still open, each with a digest of its question. It is
//! bound, as associated data, to the caller's verified user id, the tool, and a digest of
//! the arguments as sent, and stamped with an expiry: a state sent by another caller, for
//! another tool or other arguments, after its expiry, or altered, does not open, and the
//! call is refused with `-32602` before anything runs. It is signed, not encrypted: the
//! client that gave the answers can read them back.
//!
//! **Single use.** Every state carries a fresh random nonce. A retry whose round gives the
//! approval gate a confirm (taken from its `inputResponses`, or carried by its state from
//! an earlier round) consumes its state's nonce in the server's [`ConsumedStates`] before
//! the handler runs: a state whose nonce was consumed already is refused with `-32602`
//! (`data.reason` `replayed`) and nothing runs. A handler that asks again after the
//! confirm gets a new state, with a new nonce, carrying the confirm on. A state that
//! carries no confirm (a handler's questions only) may be sent again: the handler runs
//! again from the start on every round anyway, and its answers are not approvals.
//!
//! **Answers.** A handler's question is answered by the retry's `inputResponses` under its
//! key (with or without a state, as SEP-2322 allows: a client may answer ahead), or by
//! the state's earlier answers when its question is the same; an answer that does not read
//! as one to its question is asked again. The approval gate's confirm is taken only from
//! a retry whose state shows the server asked it: a client cannot approve a call nobody
//! showed it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use neuralis_core::dispatch::{
    Answer, AskError, Asker, BoxFuture, Capability, Elicited, Question, SessionContext,
};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, GetPromptRequestParams, InputRequests,
    InputRequiredResult, InputResponses, JsonObject, ReadResourceRequestParams, RequestStateCodec,
    RequestStateError, SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use tokio::sync::Notify;

use crate::consumed::{ConsumedStates, MemoryConsumedStates};
use crate::questions::{declared, input_request, read_answer, required};

/// How long a `requestState` opens by default: long enough for a person to read a form.
pub(crate) const DEFAULT_TTL: Duration = Duration::from_secs(15 * 60);

/// How long past a state's expiry its nonce is kept consumed: the replicas' clocks may
/// differ by this much.
const CLOCK_SLACK: Duration = Duration::from_secs(60);

/// The key and expiry of a server's `requestState`s, and where the nonces of the
/// approvals used are recorded.
#[derive(Clone)]
pub(crate) struct States {
    codec: Arc<RequestStateCodec>,
    pub(crate) ttl: Duration,
    /// Whether the owner gave the key (replicas given the same one share states).
    pub(crate) configured: bool,
    ledger: Arc<dyn ConsumedStates>,
}

impl std::fmt::Debug for States {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("States")
            .field("ttl", &self.ttl)
            .field("configured", &self.configured)
            .finish_non_exhaustive()
    }
}

impl States {
    /// A random key of this process (states open on this process only), and a ledger in
    /// its memory.
    pub(crate) fn random() -> Self {
        let mut key = [0u8; 32];
        random_bytes(&mut key);
        Self {
            codec: Arc::new(RequestStateCodec::new_unchecked(key.to_vec())),
            ttl: DEFAULT_TTL,
            configured: false,
            ledger: Arc::new(MemoryConsumedStates::default()),
        }
    }

    /// These states with the owner's key (at least 32 bytes), the same ledger.
    pub(crate) fn with_key(self, key: Vec<u8>, ttl: Duration) -> Result<Self, String> {
        let codec = RequestStateCodec::try_new(key).map_err(|e| e.to_string())?;
        Ok(Self {
            codec: Arc::new(codec),
            ttl,
            configured: true,
            ledger: self.ledger,
        })
    }

    /// These states with the approvals used recorded in `ledger`.
    pub(crate) fn with_ledger(self, ledger: Arc<dyn ConsumedStates>) -> Self {
        Self { ledger, ..self }
    }

    /// The round of `request` by `session`: its state opened (when it carries one) and its
    /// `inputResponses`.
    ///
    /// # Errors
    ///
    /// `-32602` for a state that does not open for this caller, tool and arguments, or
    /// has expired.
    pub(crate) fn open(
        &self,
        request: &impl Retried,
        session: &SessionContext,
        capabilities: Option<ClientCapabilities>,
    ) -> Result<Round, ErrorData> {
        let binding = binding(session, request);
        let sealed = match request.request_state() {
            None => Sealed::default(),
            Some(state) => self
                .codec
                .open_json_with::<Sealed>(state, binding.as_bytes())
                .map_err(refused)?,
        };
        let state = request
            .request_state()
            .is_some()
            .then_some((sealed.nonce, sealed.expires));
        Ok(Round {
            inner: Mutex::new(Inner {
                answered: sealed.answered,
                pending: sealed.pending,
                responses: request
                    .input_responses()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .collect(),
                asked: BTreeMap::new(),
                missing: Vec::new(),
                refused: None,
            }),
            suspended: Notify::new(),
            capabilities,
            binding,
            state,
            ledger: Arc::clone(&self.ledger),
        })
    }

    /// What a suspended round answers: its refusal (a confirm already used), otherwise the
    /// `InputRequiredResult` of its open questions with the state of the answers so far
    /// and a fresh nonce.
    pub(crate) fn suspend(&self, round: &Round) -> Result<InputRequiredResult, ErrorData> {
        let mut inner = round.lock();
        if let Some(refused) = inner.refused.take() {
            return Err(refused);
        }
        let mut requests = InputRequests::new();
        let mut pending = BTreeMap::new();
        for (key, (digest, question)) in &inner.asked {
            let request = input_request(question)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            requests.insert(key.clone(), request);
            pending.insert(key.clone(), digest.clone());
        }
        let mut nonce = [0u8; 16];
        random_bytes(&mut nonce);
        let expires = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .saturating_add(self.ttl);
        let sealed = Sealed {
            answered: inner.answered.clone(),
            pending,
            nonce: hex(&nonce),
            // The codec stamps its own expiry a moment later: a second more covers it.
            expires: u64::try_from(expires.as_millis())
                .unwrap_or(u64::MAX)
                .saturating_add(1000),
        };
        let state = self
            .codec
            .seal_json_with(
                &sealed,
                &SealOptions::new()
                    .associated_data(round.binding.as_bytes())
                    .ttl(self.ttl),
            )
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)))
    }
}

/// `buf` filled with OS entropy, or, without it, std's per-process random hash keys
/// (128 random bits).
pub(crate) fn random_bytes(buf: &mut [u8]) {
    if getrandom::fill(buf).is_err() {
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in buf.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
        }
    }
}

/// The refusal of a state whose confirm a call has used already.
fn replayed() -> ErrorData {
    ErrorData::invalid_params(
        "the `requestState` is refused: the confirm it carries was used already by a call that ran; call the tool again to be asked again",
        Some(serde_json::json!({"reason": "replayed"})),
    )
}

/// The refusal of a state that does not open.
fn refused(e: RequestStateError) -> ErrorData {
    let (reason, why) = match e {
        RequestStateError::Expired => ("expired", "it has expired: call the tool again"),
        _ => (
            "invalid",
            "it was not issued by this server for this caller, tool and arguments, or it was altered",
        ),
    };
    ErrorData::invalid_params(
        format!("the `requestState` is refused: {why}"),
        Some(serde_json::json!({"reason": reason})),
    )
}

/// A request a client retries with `inputResponses` and the `requestState` of an
/// `InputRequiredResult`: a tool's call, a prompt's get, a resource's read.
pub trait Retried {
    /// What it asks for, which its state is bound to: a tool by its name, a prompt or a
    /// resource by its method and name or URI (so a state of one never opens for another).
    fn target(&self) -> String;
    /// Its arguments, which its state is bound to.
    fn arguments(&self) -> Option<&JsonObject>;
    /// The answers it brings.
    fn input_responses(&self) -> Option<&InputResponses>;
    /// The state it brings back.
    fn request_state(&self) -> Option<&str>;
}

/// `Retried` for a request type: what it asks for, its arguments, and the two fields
/// every retriable request has.
macro_rules! retried {
    ($($ty:ty => |$r:ident| $target:expr, |$a:ident| $arguments:expr;)*) => {$(
        impl Retried for $ty {
            fn target(&self) -> String {
                let $r = self;
                $target
            }
            fn arguments(&self) -> Option<&JsonObject> {
                let $a = self;
                $arguments
            }
            fn input_responses(&self) -> Option<&InputResponses> {
                self.input_responses.as_ref()
            }
            fn request_state(&self) -> Option<&str> {
                self.request_state.as_deref()
            }
        }
    )*};
}

retried! {
    CallToolRequestParams => |r| r.name.to_string(), |a| a.arguments.as_ref();
    GetPromptRequestParams => |r| format!("prompts/get {}", r.name), |a| a.arguments.as_ref();
    ReadResourceRequestParams => |r| format!("resources/read {}", r.uri), |_a| None;
}

/// What a state is bound to: the caller's verified user id, what the request asks for
/// (the tool...), and the SHA-256 of the arguments as sent (in canonical form: keys
/// sorted, no spaces).
fn binding(session: &SessionContext, request: &impl Retried) -> String {
    let mut canonical = String::new();
    match request.arguments() {
        Some(args) => write_canonical(&Value::Object(args.clone()), &mut canonical),
        None => canonical.push_str("{}"),
    }
    format!(
        "neuralis/mrtr/1\n{}\n{}\n{}",
        session.user_id(),
        request.target(),
        hex(&Sha256::digest(canonical.as_bytes()))
    )
}

/// `value` as JSON with every object's keys sorted.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A question's digest: the first 16 bytes of the SHA-256 of its JSON.
pub(crate) fn digest(question: &Question) -> String {
    hex(&Sha256::digest(question.to_json().to_string().as_bytes())[..16])
}

/// What a `requestState` carries.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Sealed {
    /// The answers so far, by key.
    #[serde(rename = "a", default)]
    answered: BTreeMap<String, Recorded>,
    /// The questions of the last round, by key: their digests.
    #[serde(rename = "p", default)]
    pending: BTreeMap<String, String>,
    /// This state's nonce (hex): consumed when a call its confirm approves runs.
    #[serde(rename = "n")]
    nonce: String,
    /// When the state stops opening (unix milliseconds, a little after the codec's).
    #[serde(rename = "e")]
    expires: u64,
}

/// One answer, with the digest of its question.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Recorded {
    #[serde(rename = "d")]
    digest: String,
    #[serde(rename = "v")]
    answer: Value,
}

/// One round of a call on 2026-07-28: what it knows, and the questions it could not
/// answer. Its [`RoundAsker`] answers the handler's questions or suspends the call.
pub(crate) struct Round {
    inner: Mutex<Inner>,
    /// Notified when a question cannot be answered in this round.
    pub(crate) suspended: Notify,
    capabilities: Option<ClientCapabilities>,
    binding: String,
    /// The nonce and expiry of the state this round came with.
    state: Option<(String, u64)>,
    ledger: Arc<dyn ConsumedStates>,
}

struct Inner {
    answered: BTreeMap<String, Recorded>,
    /// The open questions of the state this round came with.
    pending: BTreeMap<String, String>,
    /// This request's `inputResponses`.
    responses: BTreeMap<String, Value>,
    /// This round's unanswered questions, by key.
    asked: BTreeMap<String, (String, Question)>,
    /// Capabilities the client lacks for questions of this round.
    missing: Vec<Capability>,
    /// Why the round ends refused instead (its confirm used already...).
    refused: Option<ErrorData>,
}

impl Round {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `-32021` naming what the client lacks, for a call of this round that ended in
    /// error after a question of its handler needed a capability the client did not
    /// declare (the handler let the `AskError` through, or failed without the answer);
    /// `None` when no question did, or the call ended well (its fallback ran).
    pub(crate) fn unanswerable(&self, ended_in_error: bool) -> Option<ErrorData> {
        let inner = self.lock();
        (ended_in_error && !inner.missing.is_empty())
            .then(|| ErrorData::missing_required_client_capability(required(&inner.missing)))
    }

    /// The answer to `question` under `key`, if this round has one.
    fn answer(&self, key: &str, question: &Question) -> Option<Answer> {
        let d = digest(question);
        let mut inner = self.lock();
        if let Some(recorded) = inner.answered.get(key)
            && recorded.digest == d
            && let Ok(answer) = read_answer(question, &recorded.answer)
        {
            return Some(answer);
        }
        let asked_here = inner.pending.get(key).map(|p| *p == d);
        // The gate's confirm only when the state shows the server asked it; any other
        // question also when the client answers ahead, unless the state asked another
        // question under its key.
        let take = match question {
            Question::Approve(_) => asked_here == Some(true),
            _ => asked_here != Some(false),
        };
        if !take {
            return None;
        }
        let response = inner.responses.get(key)?;
        let answer = read_answer(question, response).ok()?;
        let recorded = Recorded {
            digest: d,
            answer: response.clone(),
        };
        inner.answered.insert(key.to_owned(), recorded);
        Some(answer)
    }

    /// Consumes the nonce of this round's state, whose confirm is about to let the call
    /// run: the refusal when it was consumed already or cannot be recorded.
    async fn consume(&self) -> Result<(), ErrorData> {
        let Some((nonce, expires)) = &self.state else {
            // The gate takes a confirm only from a state (`answer`).
            return Err(ErrorData::internal_error("a confirm with no state", None));
        };
        let until = UNIX_EPOCH + Duration::from_millis(*expires) + CLOCK_SLACK;
        match self.ledger.consume(nonce, until).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(replayed()),
            Err(e) => Err(ErrorData::internal_error(
                format!(
                    "the call did not run: the server could not record that its confirm was used ({e})"
                ),
                None,
            )),
        }
    }

    /// Whether the handler asks under `key` a question other than the one this round's
    /// state answered, or asked and the client now answers: its text or form changed
    /// between rounds (a handler that asks differently each time, replicas that differ).
    /// Asking it again would loop until the client gives up.
    fn changed(&self, key: &str, question: &Question) -> bool {
        let d = digest(question);
        let inner = self.lock();
        let answered_other = inner.answered.get(key).is_some_and(|r| r.digest != d);
        let asked_other =
            inner.pending.get(key).is_some_and(|p| *p != d) && inner.responses.contains_key(key);
        answered_other || asked_other
    }

    /// Ends the round with `refusal` instead of its questions.
    fn refuse(&self, refusal: ErrorData) {
        self.lock().refused = Some(refusal);
        self.suspended.notify_one();
    }
}

/// The asker of a call on 2026-07-28 (see the [module docs](self)).
pub(crate) struct RoundAsker(pub(crate) Arc<Round>);

impl Asker for RoundAsker {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        let round = &self.0;
        if round.changed(key, &question) {
            tracing::warn!(
                target: "neuralis_mcp::mrtr",
                key,
                "a question changed between rounds: the call is refused rather than asked again"
            );
            round.refuse(ErrorData::internal_error(
                format!(
                    "the question `{key}` changed between rounds (its text or form is not the one the client answered): the call is refused; a question must be the same on every round and every replica"
                ),
                None,
            ));
            return Box::pin(std::future::pending());
        }
        if let Some(answer) = round.answer(key, &question) {
            let confirms = matches!(question, Question::Approve(_))
                && matches!(answer, Answer::Elicit(Elicited::Accept(_)));
            return Box::pin(async move {
                if confirms && let Err(refusal) = round.consume().await {
                    // The call ends refused: the server answers this round and drops
                    // the run before its handler.
                    round.refuse(refusal);
                    return std::future::pending().await;
                }
                Ok(answer)
            });
        }
        let capability = question.capability();
        if let Err(unsupported) = question.supported_by(|c| self.supports(c)) {
            // The handler gets the `AskError` it gets on every era, and its fallback
            // runs; only a call that then ends in error ends with `-32021`
            // (`Round::unanswerable`). The gate's confirm, unanswerable, refuses the call.
            if !matches!(question, Question::Approve(_)) {
                let mut inner = round.lock();
                if !inner.missing.contains(&capability) {
                    inner.missing.push(capability);
                }
            }
            return Box::pin(async move { Err(unsupported) });
        } else if let Err(e) = input_request(&question) {
            return Box::pin(async move { Err(e) });
        } else {
            round
                .lock()
                .asked
                .insert(key.to_owned(), (digest(&question), question));
        }
        round.suspended.notify_one();
        // The call ends here: the server answers this round and drops the run.
        Box::pin(std::future::pending())
    }

    fn supports(&self, capability: Capability) -> bool {
        declared(self.0.capabilities.as_ref(), capability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use neuralis_core::dispatch::{ApprovalRequest, AskReason, Elicited, Form};
    use serde_json::json;

    fn call(args: Value) -> CallToolRequestParams {
        let mut request = CallToolRequestParams::new("purge");
        request.arguments = args.as_object().cloned();
        request
    }

    fn caps() -> Option<ClientCapabilities> {
        serde_json::from_value(json!({"elicitation": {}})).ok()
    }

    fn form() -> Question {
        Question::Elicit(Form::new(
            "Name?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
        ))
    }

    #[test]
    fn canonical_arguments_ignore_key_order() {
        let mut a = String::new();
        write_canonical(&json!({"b": [1, {"y": 2, "x": 1}], "a": "s"}), &mut a);
        assert_eq!(a, r#"{"a":"s","b":[1,{"x":1,"y":2}]}"#);
        let u = SessionContext::builder("u").build();
        assert_eq!(
            binding(&u, &call(json!({"a": 1, "b": 2}))),
            binding(&u, &call(json!({"b": 2, "a": 1})))
        );
        assert_ne!(
            binding(&u, &call(json!({"a": 1}))),
            binding(&u, &call(json!({"a": 2})))
        );
        assert_ne!(
            binding(&u, &call(json!({}))),
            binding(&SessionContext::builder("v").build(), &call(json!({})))
        );
    }

    #[test]
    fn a_state_opens_only_for_its_caller_tool_and_arguments_and_before_its_expiry() {
        let states = States::random()
            .with_key(vec![7; 32], Duration::from_secs(60))
            .expect("key");
        let ada = SessionContext::builder("ada").build();
        let request = call(json!({"key": "k"}));
        let round = states.open(&request, &ada, caps()).expect("no state");
        let asker = RoundAsker(Arc::new(round));
        drop(asker.ask("name", form()));
        let result = states.suspend(&asker.0).expect("a round");
        let state = result.request_state.clone().expect("state");
        assert!(
            result
                .input_requests
                .expect("requests")
                .contains_key("name")
        );

        let mut retry = request.clone();
        retry.request_state = Some(state.clone());
        assert!(states.open(&retry, &ada, caps()).is_ok());
        // Another caller, other arguments, another tool, an altered state, another key.
        let bob = SessionContext::builder("bob").build();
        assert!(states.open(&retry, &bob, caps()).is_err());
        let mut other = call(json!({"key": "other"}));
        other.request_state = Some(state.clone());
        assert!(states.open(&other, &ada, caps()).is_err());
        let mut tool = retry.clone();
        tool.name = "other_tool".into();
        assert!(states.open(&tool, &ada, caps()).is_err());
        let mut altered = retry.clone();
        altered.request_state = Some(format!("{state}x"));
        let err = states.open(&altered, &ada, caps()).err().expect("refused");
        assert_eq!(err.code.0, -32602);
        let replica = States::random()
            .with_key(vec![7; 32], Duration::from_secs(60))
            .expect("key");
        assert!(replica.open(&retry, &ada, caps()).is_ok());
        assert!(States::random().open(&retry, &ada, caps()).is_err());
        // Expired.
        let brief = States::random()
            .with_key(vec![7; 32], Duration::from_millis(1))
            .expect("key");
        let round = brief.open(&request, &ada, caps()).expect("no state");
        let asker = RoundAsker(Arc::new(round));
        drop(asker.ask("name", form()));
        let state = brief.suspend(&asker.0).expect("a round").request_state;
        std::thread::sleep(Duration::from_millis(20));
        let mut late = request.clone();
        late.request_state = state;
        let err = brief.open(&late, &ada, caps()).err().expect("expired");
        assert_eq!(err.data.expect("data")["reason"], "expired");
    }

    #[test]
    fn the_gate_takes_a_confirm_only_when_the_state_asked_it() {
        let states = States::random();
        let ada = SessionContext::builder("ada").build();
        let approve = Question::Approve(ApprovalRequest::new(
            "purge",
            AskReason::Keys(vec!["force".into()]),
        ));
        let accept = json!({"action": "accept"});
        // Answered ahead, with no state: not taken.
        let mut ahead = call(json!({}));
        ahead.input_responses = Some([("neuralis.approval".to_owned(), accept.clone())].into());
        let round = states.open(&ahead, &ada, caps()).expect("round");
        assert!(round.answer("neuralis.approval", &approve).is_none());
        // A handler's question is.
        ahead.input_responses = Some([("name".to_owned(), json!({"action": "decline"}))].into());
        let round = states.open(&ahead, &ada, caps()).expect("round");
        assert_eq!(
            round.answer("name", &form()),
            Some(Answer::Elicit(Elicited::Decline))
        );
        // Asked, then answered: taken.
        let asker = RoundAsker(Arc::new(
            states.open(&call(json!({})), &ada, caps()).expect("round"),
        ));
        drop(asker.ask("neuralis.approval", approve.clone()));
        let mut retry = call(json!({}));
        retry.request_state = states.suspend(&asker.0).expect("round").request_state;
        retry.input_responses = Some([("neuralis.approval".to_owned(), accept)].into());
        let round = states.open(&retry, &ada, caps()).expect("round");
        assert!(matches!(
            round.answer("neuralis.approval", &approve),
            Some(Answer::Elicit(Elicited::Accept(_)))
        ));
    }

    /// A question asked on one round and answered, then asked under its key with other
    /// text on the retry (a replica that differs): refused, naming the key, not asked
    /// again; the same question is answered as before.
    #[test]
    fn a_question_changed_between_rounds_is_refused_naming_its_key() {
        let states = States::random();
        let ada = SessionContext::builder("ada").build();
        let asker = RoundAsker(Arc::new(
            states.open(&call(json!({})), &ada, caps()).expect("round"),
        ));
        drop(asker.ask("name", form()));
        let mut retry = call(json!({}));
        retry.request_state = states.suspend(&asker.0).expect("round").request_state;
        retry.input_responses = Some([("name".to_owned(), json!({"action": "decline"}))].into());
        let other = Question::Elicit(Form::new(
            "Your full name?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
        ));
        let round = RoundAsker(Arc::new(states.open(&retry, &ada, caps()).expect("round")));
        drop(round.ask("name", other));
        let refused = states.suspend(&round.0).expect_err("refused");
        assert!(
            refused.message.contains("`name` changed between rounds"),
            "{}",
            refused.message
        );
        let same = RoundAsker(Arc::new(states.open(&retry, &ada, caps()).expect("round")));
        assert!(!same.0.changed("name", &form()));
    }

    #[test]
    fn every_state_carries_its_own_nonce_and_expiry() {
        let states = States::random()
            .with_key(vec![7; 32], Duration::from_secs(60))
            .expect("key");
        let ada = SessionContext::builder("ada").build();
        let request = call(json!({}));
        let asker = RoundAsker(Arc::new(
            states.open(&request, &ada, caps()).expect("round"),
        ));
        drop(asker.ask("name", form()));
        let opened = |state: String| -> Sealed {
            states
                .codec
                .open_json_with(&state, binding(&ada, &request).as_bytes())
                .expect("opens")
        };
        let before = SystemTime::now().duration_since(UNIX_EPOCH).expect("now");
        let one = opened(
            states
                .suspend(&asker.0)
                .expect("round")
                .request_state
                .expect("state"),
        );
        let two = opened(
            states
                .suspend(&asker.0)
                .expect("round")
                .request_state
                .expect("state"),
        );
        assert_ne!(one.nonce, two.nonce);
        assert_eq!(one.nonce.len(), 32);
        let ttl = u64::try_from((before + Duration::from_secs(60)).as_millis()).expect("ms");
        assert!(
            (ttl..ttl + 2000).contains(&one.expires),
            "{} vs {ttl}",
            one.expires
        );
    }

    #[test]
    fn a_question_the_client_cannot_answer_is_an_ask_error_then_minus_32021_if_the_call_fails() {
        let states = States::random();
        let ada = SessionContext::builder("ada").build();
        let round = states.open(&call(json!({})), &ada, caps()).expect("round");
        let asker = RoundAsker(Arc::new(round));
        let answer = neuralis_core::dispatch::block_on(asker.ask("roots", Question::Roots))
            .expect("answered at once");
        assert_eq!(answer, Err(AskError::Unsupported(Capability::Roots)));
        assert!(
            asker.0.unanswerable(false).is_none(),
            "a call whose fallback ran ends as it ended"
        );
        let err = asker.0.unanswerable(true).expect("-32021");
        assert_eq!(err.code.0, -32021);
        assert_eq!(
            err.data.expect("data")["requiredCapabilities"],
            json!({"roots": {}})
        );
    }
}

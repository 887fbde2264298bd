//! The call pipeline: from a model's JSON arguments to a bounded result.
//!
//! A [`Package`] holds a package's tools (their checked, normalized files) and their
//! [`Handler`]s. [`Package::dispatch`] runs one call through every stage:
//!
//! 1. **gate**: an unknown tool, and a tool whose `requires.features` the session's grants
//!    do not satisfy, get one and the same generic refusal ([`Refusal`]), byte for byte,
//!    so a caller cannot enumerate the tools it may not see;
//! 2. **defaults**: `x-neuralis.defaults` filled in for the keys the call did not send;
//! 3. **validation** against the tool's full schema (providers drop constraints, so this
//!    side always validates) with the built-in validator (`neuralis_model::validate`) for
//!    every schema in its subset, which is every macro-built tool's, or `jsonschema` for
//!    the others (the `jsonschema` feature; without it such a schema does not build). The
//!    schema is compiled once per tool, when the package is built, never per call. The
//!    closed root refuses session field names such as `userId` here, before any handler
//!    runs;
//! 4. **deserialization** into the handler's input type;
//! 5. **handler**, sync or async, with a [`ToolContext`]: the verified [`SessionContext`],
//!    and the [`AbortSignal`] only when the tool declares `annotations.cancellable: true`;
//! 6. **normalization** of what the handler returned ([`IntoToolResult`]: typed results are
//!    well-formed by construction, raw JSON goes through
//!    [`normalize_result`](crate::result::normalize_result));
//! 7. **bounding** with [`bound_result_owned`](crate::result::bound_result_owned) and the
//!    package's [`BoundCaps`](crate::result::BoundCaps).
//!
//! Validation and deserialization failures are `isError` results the model can read, one
//! line per failing value with its JSON pointer.
//!
//! **Approval.** By default ([`ApprovalPolicy::Host`]) the pipeline gates nothing: the
//! host asks [`Package::approval`] first and decides, as the plain pipeline and the WASM
//! entry leave it. A host that chooses [`ApprovalPolicy::Ask`] in its [`CallOptions`]
//! (the MCP server's default) makes the pipeline put a [`Question::Approve`] (a confirm
//! form naming the tool and the keys that triggered it) to the call's [`Asker`] after
//! validation, and the handler runs only when a person accepts it; declined, cancelled
//! or nobody to ask, the call is an `isError` result saying it needs approval and was not
//! run. [`ApprovalPolicy::Refuse`] refuses such calls unasked, [`ApprovalPolicy::Trust`]
//! runs them (the platform in front runs its own guard).
//!
//! **Panics.** A handler that panics (sync, or while its future is polled) gives an
//! `isError` result saying the tool has a bug; the panic message goes to
//! `_meta.neuralis.panic` (UI only), never to the model. Catching needs unwinding: on
//! targets built with `panic = "abort"` (wasm32-unknown-unknown on stable) a panic aborts as
//! usual, and the WASM entry answers the call with the same result before the abort
//! traps the module (see [`wasm`](crate::wasm)).
//!
//! **Cancellation.** For a `cancellable` tool, `dispatch` races the handler against the
//! abort signal and returns a cancelled result as soon as it fires (the handler's future is
//! dropped; a sync handler is expected to poll [`ToolContext::is_aborted`]). A tool that
//! does not declare it is never interrupted by the pipeline: its handler runs to
//! completion even when the run is aborted. A caller that stops waiting drops the future
//! of `dispatch`, and with it an async handler's future: to let such a handler finish,
//! spawn the dispatch on the host's runtime and drop the join handle instead. A call
//! aborted before its handler starts is not started.
//!
//! No runtime is needed: futures are boxed, [`block_on`] is std only, and the pipeline
//! uses no threads (it builds for `wasm32-unknown-unknown`).
//!
//! The name [`Package`] is this module's: the package a host serves. The loader's
//! [`load::LoadedPackage`](crate::load::LoadedPackage) is what loading tool files found; a
//! dispatch package is built from those files through it.
//!
//! ```
//! use neuralis_core::dispatch::{AbortSignal, Package, SessionContext, sync_fn};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize)]
//! struct Greet { name: String, punctuation: String }
//!
//! let tool = br#"{
//!   "$schema": "http://json-schema.org/draft-07/schema#",
//!   "type": "object", "additionalProperties": false, "description": "Greet someone.",
//!   "properties": {
//!     "name": { "type": "string", "minLength": 1 },
//!     "punctuation": { "type": "string" }
//!   },
//!   "required": ["name"],
//!   "x-neuralis": { "defaults": { "punctuation": "!" }, "annotations": { "category": "read" } }
//! }"#;
//! let package = Package::builder()
//!     .tool("greet", &tool[..], sync_fn(|g: Greet| format!("hello, {}{}", g.name, g.punctuation)))
//!     .build()
//!     .expect("a valid package");
//! let session = SessionContext::builder("user-1").build();
//!
//! let ok = package.dispatch_blocking("greet", json!({"name": "Ada"}), &session);
//! assert_eq!(ok.for_model(), json!({"content": [{"type": "text", "text": "hello, Ada!"}]}));
//!
//! let refused = package.dispatch_blocking("greet", json!({"name": "Ada", "userId": "x"}), &session);
//! assert!(refused.is_error);
//! ```

mod abort;
mod approval;
mod ask;
mod block_on;
mod builder;
pub(crate) mod call_json;
mod de;
mod failed;
mod handler;
mod log;
pub mod output;
mod package;
mod pipeline;
mod progress;
pub(crate) mod returned;
mod session;
mod state;
mod validation;

pub use self::abort::{AbortController, AbortSignal, Cancelled};
pub use self::approval::{Approval, AskReason};
pub use self::ask::{
    APPROVAL_KEY, Answer, ApprovalPolicy, ApprovalRequest, AskError, Asker, Capability,
    ElicitChoice, ElicitForm, Elicited, Form, Question, Role, Root, Sampled, SamplingMessage,
    SamplingRequest,
};
pub use self::block_on::block_on;
pub use self::builder::{BuildError, BuildProblem, PackageBuilder};
pub use self::failed::Refusal;
pub(crate) use self::failed::{ArgumentError, arguments_result, panic_message, panic_result};
pub use self::handler::{
    Arguments, AsyncFnCx, BoxFuture, Call, Handler, IntoToolResult, Json, ToolContext, WithTask,
    async_fn, async_fn_cx, deserialize_input, sync_fn, sync_fn_cx, with_task,
};
pub use self::log::{LogLevel, LogMessage, LogSink};
pub use self::output::{Output, OutputMismatch};
pub use self::package::Package;
use self::package::Slot;
pub use self::progress::{CallOptions, Progress, ProgressSink};
pub use self::session::{SessionBuilder, SessionContext};
pub use self::state::{DuplicateState, ServiceType, StateMap};
pub use neuralis_model::task::{TaskMode, TaskStart, TaskSupport};

//! Conversion of a handler's return value for generated code, decided by the type
//! system where the concrete type is known (autoref specialization: method probing tries
//! the receiver `&&Returned` first, then `&Returned`, then `Returned`). Two steps:
//!
//! 1. **split**: a `Result<T, E>` (or an alias of one) is always a result, whatever `T`
//!    and `E` implement: `Err` becomes the `isError` result with the error's text (`E`
//!    must be `Display`, else `handler-signature` on it), `Ok` goes on as `T`. Any other
//!    value goes on as it is. A `Result` is never serialized whole.
//! 2. **kind**, on what goes on:
//!    - a type that converts itself ([`IntoToolResult`]: a [`ToolResult`], a `type`
//!      alias of one, `String`, [`Value`], [`Json<T>`](super::Json)...) converts through it;
//!    - any other type must be `Serialize` and have an output schema, so that the tool
//!      declares what it returns (its MCP `outputSchema`): its `ToolOutput` impl, else what
//!      its `ToolInput` derive wrote ([`Written`]); else `handler-signature`, naming both
//!      fixes (derive `ToolOutput`, or return [`Json<T>`](super::Json) to send it untyped). Such a value is bounded as it is serialized
//!      ([`bound_typed`](crate::result::bound_typed)) with the call's caps (the tool's,
//!      from the [`ToolContext`]): it never becomes a whole `Value`, and its text is the
//!      JSON of what is kept.
//!
//! ```
//! use neuralis_core::tool::private::{
//!     Returned, ViaIntoToolResult as _, ViaOutputKind as _, ViaPlain as _, ViaResult as _,
//!     ViaSerialize as _,
//! };
//! use neuralis_core::dispatch::{SessionContext, ToolContext};
//! use neuralis_core::result::ToolResult;
//!
//! let cx = ToolContext::new("t", SessionContext::builder("u").build());
//! let out: Vec<u32> = vec![1, 2];
//! let split = (&&Returned(&out)).__neuralis_split().split(out);
//! let r = split.map(|v| (&&Returned(&v)).__neuralis_kind().convert(v, &cx));
//! assert_eq!(r.ok().and_then(|r| r.structured_content), Some(serde_json::json!([1, 2])));
//!
//! type Reply = ToolResult;
//! let out: Reply = ToolResult::text("as is");
//! let r = (&&Returned(&out)).__neuralis_kind().convert(out, &cx);
//! assert_eq!(r.structured_content, None);
//!
//! // A `Result` whose error also derives `Serialize` is still a result.
//! #[derive(serde::Serialize, Debug)]
//! struct NotFound;
//! impl std::fmt::Display for NotFound {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("no such city") }
//! }
//! let out: Result<u8, NotFound> = Err(NotFound);
//! let r = (&&Returned(&out)).__neuralis_split().split(out);
//! assert!(r.is_err_and(|e| e.is_error));
//! ```
//!
//! Not public API: generated code reaches it through `neuralis::__private`.

use std::fmt::Display;
use std::marker::PhantomData;

use serde::Serialize;

use serde_json::Value;

use super::{IntoToolResult, Output, ToolContext};
use crate::output::{ToolOutput, Written};
use crate::result::{RESULT, ToolResult, bound_typed};

/// A borrow of a handler's return value, probed for how it converts.
pub struct Returned<'a, T>(pub &'a T);

impl<T> Clone for Returned<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Returned<'_, T> {}

/// A `Result`: `Err` is the call's `isError` result.
pub struct ResultSplit;

impl ResultSplit {
    /// `Ok`'s value to convert, or the `isError` result of `Err`.
    ///
    /// # Errors
    ///
    /// The `isError` result with the error's text.
    pub fn split<T, E: ToolError>(self, value: Result<T, E>) -> Result<T, Box<ToolResult>> {
        value.map_err(|e| Box::new(ToolResult::error(e.to_string())))
    }
}

/// Any other value: converted as it is.
pub struct PlainSplit;

impl PlainSplit {
    /// The value to convert.
    ///
    /// # Errors
    ///
    /// Never.
    pub fn split<T>(self, value: T) -> Result<T, Box<ToolResult>> {
        Ok(value)
    }
}

/// The error type of a handler's `Result`: its text is what the caller is told.
#[diagnostic::on_unimplemented(
    message = "handler-signature: the error type `{Self}` of a handler's `Result` does not implement `Display`",
    label = "the caller is told an error's `Display` text",
    note = "implement `std::fmt::Display` for `{Self}` (or `std::error::Error`, for example with `thiserror`), or map the error to a `String` with `.map_err(|e| e.to_string())`"
)]
pub trait ToolError: Display {}

#[diagnostic::do_not_recommend]
impl<E: Display + ?Sized> ToolError for E {}

/// The first choice of the split: a `Result`, whatever its `T` and `E`.
pub trait ViaResult {
    /// How the value splits.
    fn __neuralis_split(self) -> ResultSplit;
}

impl<T, E> ViaResult for &Returned<'_, Result<T, E>> {
    fn __neuralis_split(self) -> ResultSplit {
        ResultSplit
    }
}

/// The last choice of the split: any other value.
pub trait ViaPlain {
    /// How the value splits.
    fn __neuralis_split(self) -> PlainSplit;
}

impl<T> ViaPlain for Returned<'_, T> {
    fn __neuralis_split(self) -> PlainSplit {
        PlainSplit
    }
}

/// The value converts itself.
pub struct IntoKind;

impl IntoKind {
    /// The result: a [`Json`](super::Json) value bounded as it is serialized, anything
    /// else later, by the pipeline.
    pub fn convert<T: IntoToolResult>(self, value: T, cx: &ToolContext) -> ToolResult {
        value.into_tool_result_in(cx)
    }
}

/// A serializable `ToolOutput` value.
pub struct OutputKind;

impl OutputKind {
    /// The result, bounded as it is serialized with the call's caps.
    pub fn convert<T: Serialize + ToolOutput>(self, value: T, cx: &ToolContext) -> ToolResult {
        bounded(&value, cx)
    }
}

/// A serializable value whose type only derives `ToolInput`, else `handler-signature`.
pub struct SerializeKind;

impl SerializeKind {
    /// The result, bounded as it is serialized with the call's caps.
    pub fn convert<T: HandlerReturn>(self, value: T, cx: &ToolContext) -> ToolResult {
        value.__neuralis_into_result(cx)
    }
}

/// What the last choice needs: a `Serialize` value whose type derives `ToolInput` (a
/// `ToolOutput` type is the choice before).
#[diagnostic::on_unimplemented(
    message = "handler-signature: a handler returns `{Self}`, which has no output schema",
    label = "returned here",
    note = "derive `ToolOutput` (and `Serialize`) on `{Self}`, so that the tool declares what it returns; or return `neuralis::Json<{Self}>` to send it without an output schema; or return a `ToolResult`, a `String` or a `serde_json::Value`"
)]
pub trait HandlerReturn {
    /// The result, bounded as it is serialized with the call's caps.
    fn __neuralis_into_result(self, cx: &ToolContext) -> ToolResult;
}

#[diagnostic::do_not_recommend]
impl<T: Serialize + Written> HandlerReturn for T {
    fn __neuralis_into_result(self, cx: &ToolContext) -> ToolResult {
        bounded(&self, cx)
    }
}

/// A value a handler returns, bounded as it is serialized with the call's caps.
pub(super) fn bounded<T: Serialize + ?Sized>(value: &T, cx: &ToolContext) -> ToolResult {
    let how = cx.typed_bound();
    let (mut result, _) = bound_typed(value, how);
    if how.wrapped && !result.is_error {
        // Bounded as `{"result": value}`, as it is sent; the pipeline wraps the value
        // again (`Output`), as it wraps every handler's.
        result.structured_content = match result.structured_content {
            Some(Value::Object(mut m)) => m.remove(RESULT),
            _ => None,
        };
    }
    result
}

/// The first choice of the kind.
pub trait ViaIntoToolResult {
    /// How the value converts.
    fn __neuralis_kind(self) -> IntoKind;
}

impl<T: IntoToolResult> ViaIntoToolResult for &&Returned<'_, T> {
    fn __neuralis_kind(self) -> IntoKind {
        IntoKind
    }
}

/// The second choice of the kind: a `ToolOutput` type.
pub trait ViaOutputKind {
    /// How the value converts.
    fn __neuralis_kind(self) -> OutputKind;
}

impl<T: Serialize + ToolOutput> ViaOutputKind for &Returned<'_, T> {
    fn __neuralis_kind(self) -> OutputKind {
        OutputKind
    }
}

/// The last choice of the kind: a type that only derives `ToolInput`, else
/// `handler-signature` (`HandlerReturn`'s message).
pub trait ViaSerialize {
    /// How the value converts.
    fn __neuralis_kind(self) -> SerializeKind;
}

impl<T> ViaSerialize for Returned<'_, T> {
    fn __neuralis_kind(self) -> SerializeKind {
        SerializeKind
    }
}

/// The output a handler returning `T` declares, decided like its conversion (autoref
/// specialization, receiver `&&&&&OutputProbe` first):
///
/// 1. a type that converts itself ([`IntoToolResult`]: a `ToolResult`, `String`, a
///    `Value`, a [`Json<T>`](super::Json), a `Result` of those...) declares none: its
///    `structuredContent` is whatever it makes;
/// 2. a `Result<T, E>` whose `T` is `ToolOutput` declares `T`'s (errors are not
///    checked: they are `isError` results);
/// 3. a `Result<T, E>` whose `T` only derives `ToolInput` ([`Written`]) declares what
///    its input derive wrote;
/// 4. a `ToolOutput` type declares its own;
/// 5. a type that only derives `ToolInput` declares what its input derive wrote; anything
///    else fails to convert (above).
///
/// ```
/// use neuralis_core::tool::private::{
///     OutputProbe, ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _, ViaResultOutput as _,
///     ViaResultWritten as _, ViaWritten as _,
/// };
///
/// assert!((&&&&&OutputProbe::<Vec<u32>>::NEW).__neuralis_output().is_some());
/// assert!((&&&&&OutputProbe::<Result<Vec<u32>, String>>::NEW).__neuralis_output().is_some());
/// assert!((&&&&&OutputProbe::<String>::NEW).__neuralis_output().is_none());
/// // A `Result` of a type that converts itself: `String` is a `ToolOutput` too, but the
/// // text is what the handler sends.
/// assert!((&&&&&OutputProbe::<Result<String, String>>::NEW).__neuralis_output().is_none());
/// assert!((&&&&&OutputProbe::<Result<serde_json::Value, String>>::NEW).__neuralis_output().is_none());
/// assert!((&&&&&OutputProbe::<neuralis_core::dispatch::Json<u8>>::NEW).__neuralis_output().is_none());
/// ```
///
/// The probe is called as `(&&&&&OutputProbe::<R>::NEW).__neuralis_output()` and the
/// methods take `self`, so method resolution tries `Self = &&&&&OutputProbe` first, then
/// each type one reference down: the impls sit on those types in the order of the choices
/// above.
pub struct OutputProbe<T>(PhantomData<fn() -> T>);

impl<T> OutputProbe<T> {
    /// The probe.
    pub const NEW: Self = Self(PhantomData);
}

impl<T> Clone for OutputProbe<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for OutputProbe<T> {}

/// The first choice: the value converts itself.
pub trait ViaIntoOutput {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T: IntoToolResult> ViaIntoOutput for &&&&&OutputProbe<T> {
    fn __neuralis_output(self) -> Option<Output> {
        None
    }
}

/// The second choice: a `Result` of a `ToolOutput` type.
pub trait ViaResultOutput {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T: ToolOutput + Serialize, E> ViaResultOutput for &&&&OutputProbe<Result<T, E>> {
    fn __neuralis_output(self) -> Option<Output> {
        Some(Output::of::<T>())
    }
}

/// The third choice: a `Result` of a type that only derives `ToolInput`.
pub trait ViaResultWritten {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T: Written + Serialize, E> ViaResultWritten for &&&OutputProbe<Result<T, E>> {
    fn __neuralis_output(self) -> Option<Output> {
        Some(Output::written::<T>())
    }
}

/// The fourth choice: a `ToolOutput` type.
pub trait ViaOutput {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T: ToolOutput + Serialize> ViaOutput for &&OutputProbe<T> {
    fn __neuralis_output(self) -> Option<Output> {
        Some(Output::of::<T>())
    }
}

/// The fifth choice: a type that only derives `ToolInput`.
pub trait ViaWritten {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T: Written + Serialize> ViaWritten for &OutputProbe<T> {
    fn __neuralis_output(self) -> Option<Output> {
        Some(Output::written::<T>())
    }
}

/// The last choice: no output schema.
pub trait ViaNoOutput {
    /// The output declared.
    fn __neuralis_output(self) -> Option<Output>;
}

impl<T> ViaNoOutput for OutputProbe<T> {
    fn __neuralis_output(self) -> Option<Output> {
        None
    }
}

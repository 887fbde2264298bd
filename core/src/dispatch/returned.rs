//! Conversion of a handler's return value for generated code, decided by the type
//! system where the concrete type is known (autoref specialization: method probing tries
//! the receiver `&&Returned` first, then `&Returned`, then `Returned`):
//!
//! 1. a type that implements [`IntoToolResult`] (a [`ToolResult`], a `type` alias of
//!    one, `String`, [`Value`], a `Result` of those...) converts through it;
//! 2. a `Result<T, E>` with `T: Serialize` and `E: Display`: `Ok` becomes [`Json`],
//!    `Err` an `isError` result with the error's text;
//! 3. any other `Serialize` type becomes [`Json`]; a type that is none of these fails to
//!    compile with `handler-signature`.
//!
//! ```
//! use neuralis_core::tool::private::{Returned, ViaIntoToolResult as _, ViaResult as _, ViaSerialize as _};
//! use neuralis_core::result::ToolResult;
//!
//! #[derive(serde::Serialize)]
//! struct Forecast { ok: bool }
//! type Reply = ToolResult;
//!
//! let out = Forecast { ok: true };
//! let r = (&&Returned(&out)).__neuralis_kind().convert(out);
//! assert_eq!(r.structured_content, Some(serde_json::json!({"ok": true})));
//!
//! let out: Reply = ToolResult::text("as is");
//! let r = (&&Returned(&out)).__neuralis_kind().convert(out);
//! assert_eq!(r.structured_content, None);
//!
//! let out: Result<Forecast, String> = Err("no such city".into());
//! let r = (&&Returned(&out)).__neuralis_kind().convert(out);
//! assert!(r.is_error);
//! ```
//!
//! Not public API: generated code reaches it through `neuralis::__private`.

use std::fmt::Display;
use std::marker::PhantomData;

use serde::Serialize;

use super::{IntoToolResult, Json, Output};
use crate::output::ToolOutput;
use crate::result::ToolResult;

/// A borrow of a handler's return value, probed for how it converts.
pub struct Returned<'a, T>(pub &'a T);

impl<T> Clone for Returned<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Returned<'_, T> {}

/// The value converts itself.
pub struct IntoKind;

impl IntoKind {
    /// The result.
    pub fn convert<T: IntoToolResult>(self, value: T) -> ToolResult {
        value.into_tool_result()
    }
}

/// A `Result` of a serializable value.
pub struct ResultKind;

impl ResultKind {
    /// The result.
    pub fn convert<T: Serialize, E: Display>(self, value: Result<T, E>) -> ToolResult {
        match value {
            Ok(v) => Json(v).into_tool_result(),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }
}

/// A serializable value.
pub struct SerializeKind;

impl SerializeKind {
    /// The result.
    pub fn convert<T: HandlerReturn>(self, value: T) -> ToolResult {
        value.__neuralis_into_result()
    }
}

/// What the last choice needs: a `Serialize` value.
#[diagnostic::on_unimplemented(
    message = "handler-signature: a handler returning `{Self}` cannot be called: it is not a tool result",
    label = "returned here",
    note = "return a `ToolResult`, a `Serialize` value, or a `Result` of either whose error implements `Display`"
)]
pub trait HandlerReturn {
    /// The result.
    fn __neuralis_into_result(self) -> ToolResult;
}

impl<T: Serialize> HandlerReturn for T {
    fn __neuralis_into_result(self) -> ToolResult {
        Json(self).into_tool_result()
    }
}

/// The first choice.
pub trait ViaIntoToolResult {
    /// How the value converts.
    fn __neuralis_kind(self) -> IntoKind;
}

impl<T: IntoToolResult> ViaIntoToolResult for &&Returned<'_, T> {
    fn __neuralis_kind(self) -> IntoKind {
        IntoKind
    }
}

/// The second choice.
pub trait ViaResult {
    /// How the value converts.
    fn __neuralis_kind(self) -> ResultKind;
}

impl<T: Serialize, E: Display> ViaResult for &Returned<'_, Result<T, E>> {
    fn __neuralis_kind(self) -> ResultKind {
        ResultKind
    }
}

/// The last choice.
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
/// specialization, receiver `&&&OutputProbe` first):
///
/// 1. a type that converts itself ([`IntoToolResult`]: a `ToolResult`, `String`, a
///    `Value`...) declares none: its `structuredContent` is whatever it makes;
/// 2. a `Result<T, E>` whose `T` derives `ToolOutput` declares `T`'s (errors are not
///    checked);
/// 3. a `ToolOutput` type declares its own; any other `Serialize` type declares none.
///
/// ```
/// use neuralis_core::tool::private::{OutputProbe, ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _, ViaResultOutput as _};
///
/// assert!((&&&OutputProbe::<Vec<u32>>::NEW).__neuralis_output().is_some());
/// assert!((&&&OutputProbe::<Result<Vec<u32>, String>>::NEW).__neuralis_output().is_some());
/// assert!((&&&OutputProbe::<String>::NEW).__neuralis_output().is_none());
/// #[derive(serde::Serialize)]
/// struct Untyped { ok: bool }
/// assert!((&&&OutputProbe::<Untyped>::NEW).__neuralis_output().is_none());
/// ```
pub struct OutputProbe<T>(PhantomData<fn() -> T>);

impl<T> OutputProbe<T> {
    /// The probe.
    pub const NEW: Self = Self(PhantomData);
}

/// The first choice: the value converts itself.
pub trait ViaIntoOutput {
    /// The output declared.
    fn __neuralis_output(&self) -> Option<Output>;
}

impl<T: IntoToolResult> ViaIntoOutput for &&&OutputProbe<T> {
    fn __neuralis_output(&self) -> Option<Output> {
        None
    }
}

/// The second choice: a `Result` of a `ToolOutput` type.
pub trait ViaResultOutput {
    /// The output declared.
    fn __neuralis_output(&self) -> Option<Output>;
}

impl<T: ToolOutput + Serialize, E: Display> ViaResultOutput for &&OutputProbe<Result<T, E>> {
    fn __neuralis_output(&self) -> Option<Output> {
        Some(Output::of::<T>())
    }
}

/// The third choice: a `ToolOutput` type.
pub trait ViaOutput {
    /// The output declared.
    fn __neuralis_output(&self) -> Option<Output>;
}

impl<T: ToolOutput + Serialize> ViaOutput for &OutputProbe<T> {
    fn __neuralis_output(&self) -> Option<Output> {
        Some(Output::of::<T>())
    }
}

/// The last choice: no output schema.
pub trait ViaNoOutput {
    /// The output declared.
    fn __neuralis_output(&self) -> Option<Output>;
}

impl<T> ViaNoOutput for OutputProbe<T> {
    fn __neuralis_output(&self) -> Option<Output> {
        None
    }
}

//! A call's arguments as a handler reads them: [`Arguments`] (a checked tree, or the
//! JSON text read as it is checked) and [`deserialize_input`].

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::dispatch::de::{Fields, read_text};
use crate::dispatch::{ArgumentError, arguments_result};
use crate::result::ToolResult;
use crate::tool::CallError;

/// Deserializes validated arguments into a handler's input type, by value (strings move
/// into the input). The rules are `serde_json::from_value`'s, except that a struct is read
/// from an object only (serde_json also takes an array of the fields, which no struct's
/// object schema lets through). On failure, the `isError` result names the JSON pointer
/// of the value that did not fit.
///
/// ```
/// use neuralis_core::dispatch::deserialize_input;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Rows { rows: Vec<Row> }
/// #[derive(serde::Deserialize, Debug)]
/// struct Row { n: u8 }
///
/// let rows: Rows = deserialize_input("t", json!({"rows": [{"n": 1}]})).expect("fits");
/// assert_eq!(rows.rows[0].n, 1);
/// let refused = deserialize_input::<Rows>("t", json!({"rows": [{"n": 1}, {"n": 300}]}))
///     .expect_err("300 is no u8");
/// let errors = &refused.structured_content.as_ref().expect("errors")["errors"];
/// assert_eq!(errors[0]["pointer"], "/rows/1/n");
/// ```
///
/// # Errors
///
/// The `isError` result the model reads.
pub fn deserialize_input<I: DeserializeOwned>(
    tool: &str,
    args: Value,
) -> Result<I, Box<ToolResult>> {
    // By value (strings move into the input), one deserializer type for the whole tree,
    // and the pointer of a failure built on the way out of it: nothing tracked on success.
    crate::dispatch::de::from_value::<I>(args)
        .map_err(|(pointer, message)| misfit(tool, pointer, message))
}

/// A call's arguments as a handler reads them: a tree that passed the tool's schema (its
/// defaults in), or, on [`Package::dispatch_text`](crate::dispatch::Package::dispatch_text), the
/// JSON text itself, checked against the schema as it is read into the input (no tree).
///
/// A text the reader cannot decide on the way (anything that would not pass, and a few
/// texts `serde_json` reads in its own way, such as a repeated key) is not read:
/// [`read`](Self::read) gives [`CallError::Reread`] and the pipeline runs the call again
/// with the tree, which writes any refusal. A handler never sees the difference.
///
/// ```
/// use neuralis_core::dispatch::Arguments;
/// use neuralis_core::tool::CallError;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Echo { text: String }
/// let echo: Echo = Arguments::from(json!({"text": "hi"})).read("echo").expect("fits");
/// assert_eq!(echo.text, "hi");
/// let refused = Arguments::from(json!({"text": 1})).read::<Echo>("echo").expect_err("no string");
/// assert!(matches!(refused, CallError::Input(_)));
/// ```
pub struct Arguments<'t>(Source<'t>);

enum Source<'t> {
    Tree(Value),
    Text(&'t str, Fields<'t>),
}

impl From<Value> for Arguments<'_> {
    fn from(tree: Value) -> Self {
        Arguments(Source::Tree(tree))
    }
}

impl fmt::Debug for Arguments<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Source::Tree(tree) => f.debug_tuple("Arguments::Tree").field(tree).finish(),
            Source::Text(text, _) => f.debug_tuple("Arguments::Text").field(text).finish(),
        }
    }
}

impl<'t> Arguments<'t> {
    /// Text to be checked against `fields` as it is read.
    pub(in crate::dispatch) fn text(text: &'t str, fields: Fields<'t>) -> Self {
        Arguments(Source::Text(text, fields))
    }

    /// The input the handler of `tool` takes.
    ///
    /// # Errors
    ///
    /// [`CallError::Input`] when a tree does not fit the input type (the `isError` result
    /// naming where), [`CallError::Reread`] when a text was not decided on the way.
    pub fn read<I: DeserializeOwned>(self, tool: &str) -> Result<I, CallError> {
        match self.0 {
            Source::Tree(tree) => deserialize_input(tool, tree).map_err(CallError::Input),
            Source::Text(text, fields) => read_text(text, fields).ok_or(CallError::Reread),
        }
    }
}

/// The refusal of arguments that passed the schema but not the input type (not generic:
/// one copy for every input type).
#[cold]
fn misfit(tool: &str, pointer: String, message: String) -> Box<ToolResult> {
    Box::new(arguments_result(
        tool,
        "the arguments do not fit the tool's input type",
        &[ArgumentError { pointer, message }],
    ))
}

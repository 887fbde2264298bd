//! handler-signature near-misses: return types decided by the type system, not by name.
//! An alias of `ToolResult` is used as is; an alias of `Result` gives `Ok` as data and
//! `Err` as an `isError` result; a serializable value becomes `structuredContent`.
use neuralis::{ToolContext, ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

#[derive(serde::Serialize)]
pub struct Out {
    pub ok: bool,
}

pub type Reply = ToolResult;
pub type Outcome<T> = Result<T, String>;

/// An alias of `ToolResult`.
#[tool(annotations(category = "read"))]
pub fn aliased(input: Input) -> Reply {
    ToolResult::text(input.path)
}

/// An alias of `Result`.
#[tool(annotations(category = "read"))]
pub fn fallible(input: Input) -> Outcome<Out> {
    if input.path.is_empty() {
        Err("no path".into())
    } else {
        Ok(Out { ok: true })
    }
}

/// A serializable value.
#[tool(annotations(category = "read"))]
pub fn data(input: Input) -> Out {
    let _ = input;
    Out { ok: true }
}

fn call(d: &neuralis::tool::ToolDescriptor, args: serde_json::Value) -> ToolResult {
    let cx = ToolContext::new(d.name, neuralis::dispatch::SessionContext::builder("u").build());
    let neuralis::__private::Handler::Sync(f) = d.handler else {
        panic!("a sync handler");
    };
    f(args, &cx).expect("valid arguments")
}

fn main() {
    let r = call(&__neuralis_tool_aliased, serde_json::json!({ "path": "a" }));
    assert_eq!(r.structured_content, None, "a `ToolResult` alias is used as is");
    let r = call(&__neuralis_tool_fallible, serde_json::json!({ "path": "a" }));
    assert_eq!(r.structured_content, Some(serde_json::json!({ "ok": true })));
    let r = call(&__neuralis_tool_fallible, serde_json::json!({ "path": "" }));
    assert!(r.is_error, "an `Err` of a `Result` alias is an error result");
    let r = call(&__neuralis_tool_data, serde_json::json!({ "path": "a" }));
    assert_eq!(r.structured_content, Some(serde_json::json!({ "ok": true })));
}

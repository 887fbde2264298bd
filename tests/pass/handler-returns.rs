//! handler-signature near-misses: return types decided by the type system, not by name.
//! An alias of `ToolResult` is used as is; an alias of `Result` gives `Ok` as data and
//! `Err` as an `isError` result; a `ToolOutput` value becomes `structuredContent`; a
//! `Result` whose error also derives `Serialize` is still a result; `Json<T>` sends a
//! value that only derives `Serialize`, without an output schema; a type that derives
//! only `ToolInput` is typed too (no second derive), and a type that derives both, as
//! packages written before `ToolInput` gave outputs do, builds and is typed the same
//! (returned, in a `Vec`, in a `Result`, nested and flattened in a `ToolOutput` type).
use neuralis::{Json, ToolContext, ToolInput, ToolOutput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

#[derive(serde::Serialize, ToolOutput)]
pub struct Out {
    pub ok: bool,
}

/// Read and returned.
#[derive(ToolInput, serde::Deserialize, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A file.
    File,
    Dir,
}

#[derive(ToolInput, serde::Deserialize, serde::Serialize)]
pub struct Entry {
    pub path: String,
    pub kind: Kind,
    pub size: Option<u64>,
}

/// Written differently from how it is read: both derives.
#[derive(ToolInput, ToolOutput, serde::Deserialize, serde::Serialize)]
pub struct Sparse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub entry: Entry,
}

/// Written differently, deriving only `ToolInput`: not returned itself, but a field of a
/// type read and written alike, whose output schema says what serde writes for it.
#[derive(ToolInput, serde::Deserialize, serde::Serialize)]
pub struct Window {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
}

/// Mutually recursive, read and written alike.
#[derive(ToolInput, serde::Deserialize, serde::Serialize)]
pub struct Folder {
    pub window: Window,
    pub files: Vec<File>,
}

#[derive(ToolInput, serde::Deserialize, serde::Serialize)]
pub struct File {
    pub parent: Option<Box<Folder>>,
}

#[derive(serde::Serialize)]
pub struct Untyped {
    pub ok: bool,
}

#[derive(serde::Serialize, Debug)]
pub struct LookupError {
    pub code: u16,
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "lookup failed with {}", self.code)
    }
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

/// A `Result` whose error is `Display` and `Serialize`.
#[tool(annotations(category = "read"))]
pub fn lookup(input: Input) -> Result<Out, LookupError> {
    if input.path.is_empty() {
        Err(LookupError { code: 404 })
    } else {
        Ok(Out { ok: true })
    }
}

/// A type that derives only `ToolInput`.
#[tool(annotations(category = "read"))]
pub fn shared(input: Entry) -> Sparse {
    Sparse {
        note: None,
        entry: input,
    }
}

/// A recursive type that derives only `ToolInput`, holding one whose output differs.
#[tool(annotations(category = "read"))]
pub fn folder(input: Folder) -> Folder {
    input
}

/// An untyped value, said so.
#[tool(annotations(category = "read"))]
pub fn untyped(input: Input) -> Json<Untyped> {
    let _ = input;
    Json(Untyped { ok: true })
}

// Both derives.
/// A shared status.
#[derive(ToolInput, ToolOutput, serde::Deserialize, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Listed.
    Active,
    Archived,
}

// `ToolInput` alone.
/// A shared status.
#[derive(ToolInput, serde::Deserialize, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum StatusOne {
    /// Listed.
    Active,
    Archived,
}

// Both derives.
/// A shared item.
#[derive(ToolInput, ToolOutput, serde::Deserialize, serde::Serialize, Clone)]
pub struct Sku {
    pub code: String,
    pub status: Status,
    pub count: Option<u32>,
}

// `ToolInput` alone.
/// A shared item.
#[derive(ToolInput, serde::Deserialize, serde::Serialize, Clone)]
pub struct SkuOne {
    pub code: String,
    pub status: StatusOne,
    pub count: Option<u32>,
}

/// An output holding shared types: a list, a value and a flattened struct.
#[derive(serde::Serialize, ToolOutput)]
pub struct Shelf {
    pub skus: Vec<Sku>,
    pub state: Status,
    #[serde(flatten)]
    pub first: Sku,
}

/// An output holding shared types: a list, a value and a flattened struct.
#[derive(serde::Serialize, ToolOutput)]
pub struct ShelfOne {
    pub skus: Vec<SkuOne>,
    pub state: StatusOne,
    #[serde(flatten)]
    pub first: SkuOne,
}

/// Returns a type that derives both.
#[tool(annotations(category = "read"))]
pub fn sku(input: Sku) -> Sku {
    input
}

/// Returns a type that derives `ToolInput` alone.
#[tool(annotations(category = "read"))]
pub fn sku_one(input: SkuOne) -> SkuOne {
    input
}

/// A list of a type that derives both.
#[tool(annotations(category = "read"))]
pub fn skus(input: Sku) -> Vec<Sku> {
    vec![input]
}

/// A list of a type that derives `ToolInput` alone.
#[tool(annotations(category = "read"))]
pub fn skus_one(input: SkuOne) -> Vec<SkuOne> {
    vec![input]
}

/// A `Result` of a type that derives both.
#[tool(annotations(category = "read"))]
pub fn sku_checked(input: Sku) -> Outcome<Sku> {
    Ok(input)
}

/// A `Result` of a type that derives `ToolInput` alone.
#[tool(annotations(category = "read"))]
pub fn sku_one_checked(input: SkuOne) -> Outcome<SkuOne> {
    Ok(input)
}

/// Shared types nested in an output.
#[tool(annotations(category = "read"))]
pub fn shelf(input: Sku) -> Shelf {
    Shelf {
        skus: vec![input.clone()],
        state: input.status,
        first: input,
    }
}

#[tool(annotations(category = "read"))]
pub fn shelf_one(input: SkuOne) -> ShelfOne {
    ShelfOne {
        skus: vec![input.clone()],
        state: input.status,
        first: input,
    }
}

/// Written differently from how it is read, `ToolInput` alone, returned: what serde
/// writes (`days` left out when `None`).
#[tool(annotations(category = "read"))]
pub fn window(input: Window) -> Window {
    input
}

fn same_output(both: &neuralis::tool::ToolDescriptor, one: &neuralis::tool::ToolDescriptor) {
    let both_out = (both.output)().expect("typed");
    let one_out = (one.output)().expect("typed");
    assert_eq!(both_out, one_out, "{} and {}", both.name, one.name);
    let args = serde_json::json!({"code": "a", "status": "active"});
    assert_eq!(
        call(both, args.clone()).structured_content,
        call(one, args).structured_content
    );
}

fn call(d: &neuralis::tool::ToolDescriptor, args: serde_json::Value) -> ToolResult {
    let cx = ToolContext::new(
        d.name,
        neuralis::dispatch::SessionContext::builder("u").build(),
    );
    let neuralis::__private::Adapter::Sync(f) = d.handler else {
        panic!("a sync handler");
    };
    f(args.into(), &cx).expect("valid arguments")
}

fn main() {
    let r = call(&__neuralis_tool_aliased, serde_json::json!({ "path": "a" }));
    assert_eq!(
        r.structured_content, None,
        "a `ToolResult` alias is used as is"
    );
    let r = call(
        &__neuralis_tool_fallible,
        serde_json::json!({ "path": "a" }),
    );
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "ok": true }))
    );
    let r = call(&__neuralis_tool_fallible, serde_json::json!({ "path": "" }));
    assert!(
        r.is_error,
        "an `Err` of a `Result` alias is an error result"
    );
    let r = call(&__neuralis_tool_data, serde_json::json!({ "path": "a" }));
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "ok": true }))
    );
    assert!(
        (__neuralis_tool_data.output)().is_some(),
        "a `ToolOutput` value is typed"
    );

    let r = call(&__neuralis_tool_lookup, serde_json::json!({ "path": "" }));
    assert!(
        r.is_error,
        "`Err` is an error result, although the error is `Serialize`"
    );
    assert_eq!(
        r.structured_content, None,
        "the `Result` is not serialized whole"
    );
    let wire = serde_json::to_value(&r).expect("a result serializes");
    assert_eq!(wire["content"][0]["text"], "lookup failed with 404");
    let r = call(&__neuralis_tool_lookup, serde_json::json!({ "path": "a" }));
    assert!(!r.is_error);
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "ok": true })),
        "not `{{\"Ok\": ...}}`"
    );
    assert!(
        (__neuralis_tool_lookup.output)().is_some(),
        "`Ok`'s type declares the output"
    );

    let r = call(
        &__neuralis_tool_shared,
        serde_json::json!({ "path": "a", "kind": "dir" }),
    );
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "entry": { "path": "a", "kind": "dir", "size": null } }))
    );
    let output = (__neuralis_tool_shared.output)().expect("typed");
    let entry = &output.schema()["properties"]["entry"];
    assert_eq!(
        entry["required"],
        serde_json::json!(["path", "kind", "size"])
    );
    assert_eq!(
        entry["properties"]["kind"]["description"],
        "Read and returned.\n\n`file`: A file."
    );

    let output = (__neuralis_tool_folder.output)().expect("typed");
    assert_eq!(
        output.schema()["properties"]["window"]["required"],
        serde_json::Value::Null,
        "`days` is left out when `None`, never required: {}",
        output.schema()
    );
    assert_eq!(
        output.schema()["properties"]["files"]["items"]["properties"]["parent"]["anyOf"][0],
        serde_json::json!({ "$ref": "#" })
    );
    let r = call(
        &__neuralis_tool_folder,
        serde_json::json!({ "window": {}, "files": [{}] }),
    );
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "window": {}, "files": [{ "parent": null }] }))
    );

    let r = call(&__neuralis_tool_untyped, serde_json::json!({ "path": "a" }));
    assert_eq!(
        r.structured_content,
        Some(serde_json::json!({ "ok": true }))
    );
    assert!(
        (__neuralis_tool_untyped.output)().is_none(),
        "`Json<T>` declares no output"
    );

    same_output(&__neuralis_tool_sku, &__neuralis_tool_sku_one);
    same_output(&__neuralis_tool_skus, &__neuralis_tool_skus_one);
    same_output(
        &__neuralis_tool_sku_checked,
        &__neuralis_tool_sku_one_checked,
    );
    same_output(&__neuralis_tool_shelf, &__neuralis_tool_shelf_one);
    let shelf = (__neuralis_tool_shelf.output)().expect("typed");
    assert_eq!(
        shelf.schema()["properties"]["state"]["enum"],
        serde_json::json!(["active", "archived"])
    );
    assert_eq!(
        shelf.schema()["properties"]["code"]["type"],
        "string",
        "flattened"
    );
    assert_eq!(
        shelf.schema()["properties"]["skus"]["items"]["properties"]["count"]["anyOf"][1],
        serde_json::json!({"type": "null"}),
        "an `Option` is written as its value or `null`"
    );
    let window = (__neuralis_tool_window.output)().expect("typed");
    assert_eq!(
        window.schema()["required"],
        serde_json::Value::Null,
        "{}",
        window.schema()
    );
}

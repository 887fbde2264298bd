//! A `#[tool]` returning a typed value, through the pipeline: the value is bounded as it
//! is serialized with the tool's caps (`#[tool(bound(...))]` over the package's), its
//! text is the JSON of what `structuredContent` keeps with a marker naming the argument
//! that asks for more, a wrapped output (a list) goes under `result`, what is sent is
//! checked against the output schema (a schema that bounding breaks gives the "too
//! large" error, the tool's bug the generic one), and the caps never reach the tool file.
#![allow(missing_docs, clippy::unwrap_used)]

use neuralis::dispatch::{OutputMismatch, Package, SessionContext};
use neuralis::result::BoundCaps;
use neuralis::{ToolInput, ToolOutput, tool};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    /// Where to start: the `cursor` a truncated result names.
    pub cursor: Option<u32>,
    /// How many entries to make.
    pub count: u32,
}

/// One audit entry.
#[derive(ToolOutput, serde::Serialize, Clone)]
pub struct Entry {
    pub id: u32,
    pub actor: String,
}

/// The audit log.
#[derive(ToolOutput, serde::Serialize)]
pub struct Audit {
    pub ok: bool,
    pub entries: Vec<Entry>,
}

fn entries(input: &Export) -> Vec<Entry> {
    let start = input.cursor.unwrap_or(0);
    (start..start + input.count)
        .map(|id| Entry {
            id,
            actor: format!("user-{id}"),
        })
        .collect()
}

/// Exports the audit log.
#[tool(
    annotations(read_only, category = "read"),
    ui(presentation = "explored"),
    bound(array_len = 50, more = "cursor")
)]
pub fn audit_export(input: Export) -> Audit {
    Audit {
        ok: true,
        entries: entries(&input),
    }
}

/// Lists the audit entries (a list: sent under `result`).
#[tool(
    annotations(read_only, category = "read"),
    ui(presentation = "explored")
)]
pub fn audit_list(input: Export) -> Vec<Entry> {
    entries(&input)
}

/// At least 60 entries, or none.
#[derive(ToolOutput, serde::Serialize)]
pub struct Page {
    #[schema(min_items = 60)]
    pub entries: Vec<Entry>,
    pub total: u32,
}

/// Pages through the audit log (its schema wants 60 entries: bounding to 50 breaks it).
#[tool(
    annotations(read_only, category = "read"),
    ui(presentation = "explored"),
    bound(array_len = 50)
)]
pub fn audit_page(input: Export) -> Page {
    Page {
        entries: entries(&input),
        total: input.count,
    }
}

/// The audit ids, untyped (`Json`: no output schema, bounded as it is serialized all the
/// same).
#[tool(
    annotations(read_only, category = "read"),
    ui(presentation = "explored")
)]
pub fn audit_ids(input: Export) -> Result<neuralis::Json<Vec<u32>>, String> {
    Ok(neuralis::Json(
        entries(&input).iter().map(|e| e.id).collect(),
    ))
}

type Seen = Arc<Mutex<Vec<OutputMismatch>>>;

fn package() -> (Package, Seen) {
    let seen: Seen = Arc::default();
    let sink = Arc::clone(&seen);
    let package = neuralis::testing::handlers!(audit_export, audit_list, audit_page, audit_ids)
        .caps(BoundCaps {
            text_chars: 4000,
            ..BoundCaps::default()
        })
        .on_output_mismatch(move |m| sink.lock().unwrap().push(m.clone()))
        .build()
        .expect("a valid package");
    (package, seen)
}

fn texts(r: &neuralis::ToolResult) -> Vec<String> {
    r.for_model()["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap().to_owned())
        .collect()
}

fn call(p: &Package, name: &str, args: Value) -> neuralis::ToolResult {
    p.dispatch_blocking(name, args, &SessionContext::builder("u").build())
}

#[test]
fn a_typed_result_is_bounded_with_the_tools_caps_and_says_how_to_get_more() {
    let (package, seen) = package();
    let r = call(&package, "audit_export", json!({"count": 20_000}));
    assert!(!r.is_error, "{r:?}");
    let structured = r.structured_content.as_ref().unwrap();
    assert_eq!(structured["entries"].as_array().unwrap().len(), 50);
    let said = texts(&r);
    assert_eq!(said.len(), 2, "{said:?}");
    // The text is the JSON of what is sent (it fits the package's 4,000 characters).
    let shown: Value = serde_json::from_str(&said[0]).unwrap();
    assert_eq!(&shown, structured);
    assert_eq!(
        said[1],
        "… [truncated: 19950 of 20000 items left out at /entries; to get more, call again with `cursor`]"
    );
    let record = &r.meta.as_ref().unwrap()["neuralis"]["bound"];
    assert_eq!(record["itemsDropped"], 19_950);
    assert!(seen.lock().unwrap().is_empty());

    // A small result is sent as it is, its text its JSON.
    let r = call(&package, "audit_export", json!({"count": 2, "cursor": 7}));
    assert_eq!(
        texts(&r),
        [r#"{"ok":true,"entries":[{"id":7,"actor":"user-7"},{"id":8,"actor":"user-8"}]}"#]
    );
    assert!(r.meta.is_none());
}

#[test]
fn a_list_goes_under_result_with_the_packages_caps_and_its_text_stays_json() {
    let (package, _) = package();
    let r = call(&package, "audit_list", json!({"count": 20_000}));
    assert!(!r.is_error, "{r:?}");
    let structured = r.structured_content.as_ref().unwrap();
    // The package's caps: 200 items; the text, within 4,000 characters, fewer.
    assert_eq!(structured["result"].as_array().unwrap().len(), 200);
    let said = texts(&r);
    let shown: Vec<Value> = serde_json::from_str(&said[0]).unwrap();
    assert!(shown.len() < 200 && !shown.is_empty(), "{}", shown.len());
    // Items whole from the head; the last one may be cut to what is left (`{}` here).
    let n = shown.len() - 1;
    assert_eq!(shown[..n], structured["result"].as_array().unwrap()[..n]);
    let head = format!(
        "… [truncated: {} of 20000 items left out at the top level",
        20_000 - shown.len()
    );
    assert!(said[1].starts_with(&head), "{}", said[1]);
    let units: usize = said.iter().map(|t| t.encode_utf16().count()).sum();
    assert!(units <= 4000, "{units}");
}

#[test]
fn a_schema_that_bounding_breaks_is_the_too_large_error() {
    let (package, seen) = package();
    let r = call(&package, "audit_page", json!({"count": 500}));
    assert!(r.is_error);
    assert!(r.structured_content.is_none());
    assert!(texts(&r)[0].contains("too large"), "{:?}", texts(&r));
    let m = seen.lock().unwrap().pop().unwrap();
    assert!(m.after_bounding, "{m:?}");
    assert_eq!(m.pointer, "/structuredContent/entries");

    // Fewer than 60 entries without any cut: the tool's bug.
    let r = call(&package, "audit_page", json!({"count": 3}));
    assert!(r.is_error);
    assert!(!texts(&r)[0].contains("too large"), "{:?}", texts(&r));
    let m = seen.lock().unwrap().pop().unwrap();
    assert!(!m.after_bounding, "{m:?}");
}

#[test]
fn the_tools_caps_stay_out_of_its_file() {
    let d = neuralis::testing::descriptor!(audit_export);
    assert_eq!(d.bound.array_len, Some(50));
    assert_eq!(d.bound.more, Some("cursor"));
    let file = d.document().to_string();
    assert!(
        !file.contains("array_len") && !file.contains("\"more\""),
        "{file}"
    );
    assert_eq!(
        d.x_neuralis(),
        json!({"annotations": {"readOnlyHint": true, "category": "read"}, "ui": {"presentation": "explored"}})
    );
}

#[test]
fn an_untyped_json_value_is_bounded_as_it_is_serialized_too() {
    let (package, _) = package();
    let r = call(&package, "audit_ids", json!({"count": 20_000}));
    assert!(!r.is_error, "{r:?}");
    let ids: Vec<u32> = (0..200).collect();
    assert_eq!(r.structured_content, Some(json!(ids)));
    let said = texts(&r);
    assert_eq!(said[0], serde_json::to_string(&ids).unwrap());
    assert_eq!(
        said[1],
        "… [truncated: 19800 of 20000 items left out at the top level]"
    );
}

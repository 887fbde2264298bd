//! Normalization of untrusted result JSON into a [`ToolResult`].

use serde_json::{Map, Value};

use super::NEURALIS_META;
use super::types::{
    BinaryContent, Content, ContentAnnotations, ContentBlock, EmbeddedResource, ResourceContents,
    TextContent, ToolResult,
};
use crate::contract::{Diagnostic, RuleId, push_pointer};

/// The keys of a result object.
const RESULT_KEYS: [&str; 4] = ["content", "isError", "structuredContent", "_meta"];

/// Reads a result from untrusted JSON (a handler's return value, or what an external MCP
/// server sent), never panicking. Every repair is reported as a `result-shape` warning
/// with the pointer of what was repaired.
///
/// - `content` a string or an array of `text`, `image`, `audio` and `resource` blocks.
///   A `resource_link` becomes a `resource` (its `name`, `title`, `description` and
///   `size` kept under the resource's `_meta.neuralis.link`); a `video` block with a
///   `video/*` mime type becomes a `resource` carrying its `data` as `blob` (its `uri`,
///   or `neuralis:inline-video` when it has none). Blocks of any other type are dropped
///   and counted in `_meta.neuralis.droppedBlocks`; malformed blocks (a required field
///   missing or of the wrong type) are dropped and counted in
///   `_meta.neuralis.malformedBlocks`. Both counts add to counts already present, so
///   normalizing twice changes nothing.
/// - A value that is not a result object (no `content`, `isError`, `structuredContent`
///   or `_meta` key) is read as a JSON value: it becomes `structuredContent` with its
///   text as content; a bare string becomes the text.
/// - A result without `content` gets the text of its `structuredContent` (or no blocks).
/// - `isError` that is not a boolean is read as `false`; `_meta` that is not an object is
///   dropped; `structuredContent: null` is absent; other keys are dropped.
///
/// ```
/// use neuralis_core::result::normalize_result;
/// use serde_json::json;
///
/// let (r, diags) = normalize_result(json!({
///     "content": [
///         {"type": "text", "text": "hi"},
///         {"type": "hologram", "data": "..."},
///         {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"}
///     ]
/// }));
/// assert_eq!(r.blocks().len(), 2);
/// assert_eq!(r.blocks()[1].kind(), "resource");
/// assert_eq!(r.neuralis_meta().and_then(|m| m.get("droppedBlocks")), Some(&json!(1)));
/// assert_eq!(diags[0].rule.as_str(), "result-shape");
/// assert_eq!(diags[0].pointer, "/content/1");
/// ```
#[must_use]
pub fn normalize_result(value: Value) -> (ToolResult, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let result = match value {
        Value::Object(m) if RESULT_KEYS.iter().any(|k| m.contains_key(*k)) => {
            read_result(m, &mut diags)
        }
        Value::String(s) => {
            diags.push(
                shape("", "the result is a bare string, not a result object")
                    .with_hint("return `{ \"content\": [{ \"type\": \"text\", \"text\": ... }] }`"),
            );
            ToolResult::text(s)
        }
        other => {
            diags.push(
                shape(
                    "",
                    "the result is not a result object; read as `structuredContent`",
                )
                .with_hint("return `{ \"content\": [...], \"structuredContent\": {...} }`"),
            );
            ToolResult::json(other)
        }
    };
    (result, diags)
}

fn shape(pointer: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(RuleId::ResultShape, pointer).with_message(message)
}

/// How a JSON value is named in a diagnostic (`a string`, `an object`...).
pub(super) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn read_result(mut m: Map<String, Value>, diags: &mut Vec<Diagnostic>) -> ToolResult {
    let mut result = ToolResult::default();

    let mut meta = match m.remove("_meta") {
        None | Some(Value::Null) => None,
        Some(Value::Object(meta)) => Some(meta),
        Some(other) => {
            diags.push(shape(
                "/_meta",
                format!("`_meta` is {}, not an object; dropped", type_name(&other)),
            ));
            None
        }
    };

    result.is_error = match m.remove("isError") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(other) => {
            diags.push(shape(
                "/isError",
                format!(
                    "`isError` is {}, not a boolean; read as `false`",
                    type_name(&other)
                ),
            ));
            false
        }
    };

    result.structured_content = match m.remove("structuredContent") {
        None | Some(Value::Null) => None,
        Some(v) => {
            if !v.is_object() {
                diags.push(
                    shape(
                        "/structuredContent",
                        format!("`structuredContent` is {}, not an object", type_name(&v)),
                    )
                    .with_hint("wrap the value in an object, for example `{ \"items\": [...] }`"),
                );
            }
            Some(v)
        }
    };

    let mut dropped = 0u64;
    let mut malformed = 0u64;
    result.content = match m.remove("content") {
        Some(Value::String(s)) => Content::Text(s),
        Some(Value::Array(items)) => {
            let mut blocks = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let pointer = format!("/content/{i}");
                match read_block(item, &pointer, diags) {
                    Block::Kept(b) => blocks.push(b),
                    Block::Unknown => dropped += 1,
                    Block::Malformed => malformed += 1,
                }
            }
            Content::Blocks(blocks)
        }
        None | Some(Value::Null) => {
            diags.push(shape("/content", "the result has no `content`").with_hint(
                "put what the model needs to read in `content`; `structuredContent` is for cards",
            ));
            match &result.structured_content {
                Some(v) => Content::Blocks(vec![ContentBlock::text(v.to_string())]),
                None => Content::Blocks(Vec::new()),
            }
        }
        Some(other) => {
            diags.push(shape(
                "/content",
                format!(
                    "`content` is {}, not a string or an array of blocks; dropped",
                    type_name(&other)
                ),
            ));
            Content::Blocks(Vec::new())
        }
    };

    for key in m.keys() {
        diags.push(shape(
            &push_pointer("", key),
            format!("unknown result key `{key}`; dropped"),
        ));
    }

    if dropped > 0 || malformed > 0 {
        let meta = meta.get_or_insert_with(Map::new);
        let slot = meta
            .entry(NEURALIS_META)
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        if let Value::Object(n) = slot {
            add_count(n, "droppedBlocks", dropped);
            add_count(n, "malformedBlocks", malformed);
        }
    }
    result.meta = meta;
    result
}

fn add_count(m: &mut Map<String, Value>, key: &str, n: u64) {
    if n == 0 {
        return;
    }
    let before = m.get(key).and_then(Value::as_u64).unwrap_or(0);
    m.insert(key.to_owned(), Value::from(before.saturating_add(n)));
}

#[allow(
    clippy::large_enum_variant,
    reason = "a short-lived return value, moved straight into the block list"
)]
enum Block {
    Kept(ContentBlock),
    Unknown,
    Malformed,
}

fn take_string(m: &mut Map<String, Value>, key: &str) -> Option<String> {
    match m.remove(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

fn take_meta(m: &mut Map<String, Value>) -> Option<Map<String, Value>> {
    match m.remove("_meta") {
        Some(Value::Object(o)) => Some(o),
        _ => None,
    }
}

fn read_block(item: Value, pointer: &str, diags: &mut Vec<Diagnostic>) -> Block {
    let Value::Object(mut m) = item else {
        diags.push(shape(
            pointer,
            format!(
                "a content block is {}, not an object; dropped",
                type_name(&item)
            ),
        ));
        return Block::Malformed;
    };
    let kind = match m.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(other) => {
            diags.push(shape(
                &format!("{pointer}/type"),
                format!(
                    "block `type` is {}, not a string; dropped",
                    type_name(other)
                ),
            ));
            return Block::Malformed;
        }
        None => {
            diags.push(shape(pointer, "a content block has no `type`; dropped"));
            return Block::Malformed;
        }
    };
    let envelope = Envelope {
        annotations: read_annotations(&mut m, pointer, diags),
        meta: take_meta(&mut m),
    };
    match kind.as_str() {
        "text" => read_text(m, pointer, envelope, diags),
        "image" | "audio" => read_binary(m, &kind, pointer, envelope, diags),
        "resource" => read_resource(m, pointer, envelope, diags),
        "resource_link" => read_resource_link(m, pointer, envelope, diags),
        "video" => read_video(m, pointer, envelope, diags),
        _ => {
            diags.push(
                shape(pointer, format!("content block type `{kind}` is not `text`, `image`, `audio` or `resource`; dropped"))
                    .with_hint("return text, image, audio or resource blocks; video rides a `resource` with a `video/*` mime type"),
            );
            Block::Unknown
        }
    }
}

/// What every block may carry beside its own fields: its `annotations` and `_meta`.
struct Envelope {
    annotations: Option<ContentAnnotations>,
    meta: Option<Map<String, Value>>,
}

impl Envelope {
    /// A block kept as an embedded `resource`.
    fn resource(self, resource: ResourceContents) -> Block {
        Block::Kept(ContentBlock::Resource(EmbeddedResource {
            resource,
            annotations: self.annotations,
            meta: self.meta,
        }))
    }
}

/// Reports a `kind` block without its string `field`: the block is malformed.
fn missing_field(diags: &mut Vec<Diagnostic>, pointer: &str, kind: &str, field: &str) -> Block {
    diags.push(
        shape(
            &push_pointer(pointer, field),
            format!("`{kind}` block without a string `{field}`; dropped"),
        )
        .with_hint(format!("give the `{kind}` block a string `{field}`")),
    );
    Block::Malformed
}

/// A `text` block: its string `text`.
fn read_text(
    mut m: Map<String, Value>,
    pointer: &str,
    envelope: Envelope,
    diags: &mut Vec<Diagnostic>,
) -> Block {
    match take_string(&mut m, "text") {
        Some(text) => Block::Kept(ContentBlock::Text(TextContent {
            text,
            annotations: envelope.annotations,
            meta: envelope.meta,
        })),
        None => missing_field(diags, pointer, "text", "text"),
    }
}

/// An `image` or `audio` block (`kind`): its string `data` and `mimeType`.
fn read_binary(
    mut m: Map<String, Value>,
    kind: &str,
    pointer: &str,
    envelope: Envelope,
    diags: &mut Vec<Diagnostic>,
) -> Block {
    let Some(data) = take_string(&mut m, "data") else {
        return missing_field(diags, pointer, kind, "data");
    };
    let Some(mime_type) = take_string(&mut m, "mimeType") else {
        return missing_field(diags, pointer, kind, "mimeType");
    };
    let b = BinaryContent {
        data,
        mime_type,
        annotations: envelope.annotations,
        meta: envelope.meta,
    };
    Block::Kept(if kind == "image" {
        ContentBlock::Image(b)
    } else {
        ContentBlock::Audio(b)
    })
}

/// A `resource` block: its `resource` object, with a string `uri`.
fn read_resource(
    mut m: Map<String, Value>,
    pointer: &str,
    envelope: Envelope,
    diags: &mut Vec<Diagnostic>,
) -> Block {
    let Some(Value::Object(mut r)) = m.remove("resource") else {
        return missing_object(diags, pointer);
    };
    let Some(uri) = take_string(&mut r, "uri") else {
        diags.push(shape(
            &format!("{pointer}/resource/uri"),
            "`resource` block without a string `uri`; dropped",
        ));
        return Block::Malformed;
    };
    let resource = ResourceContents {
        uri,
        mime_type: take_string(&mut r, "mimeType"),
        text: take_string(&mut r, "text"),
        blob: take_string(&mut r, "blob"),
        meta: take_meta(&mut r),
    };
    envelope.resource(resource)
}

/// A `resource_link` block, as a `resource`: its `uri` and `mimeType`, its `name`,
/// `title`, `description` and `size` under the resource's `_meta.neuralis.link`.
fn read_resource_link(
    mut m: Map<String, Value>,
    pointer: &str,
    envelope: Envelope,
    diags: &mut Vec<Diagnostic>,
) -> Block {
    let Some(uri) = take_string(&mut m, "uri") else {
        return missing_field(diags, pointer, "resource_link", "uri");
    };
    let mut link = Map::new();
    for key in ["name", "title", "description", "size"] {
        if let Some(v) = m.remove(key) {
            link.insert(key.to_owned(), v);
        }
    }
    let resource_meta = (!link.is_empty()).then(|| {
        let mut n = Map::new();
        n.insert("link".into(), Value::Object(link));
        let mut meta = Map::new();
        meta.insert(NEURALIS_META.into(), Value::Object(n));
        meta
    });
    let resource = ResourceContents {
        uri,
        mime_type: take_string(&mut m, "mimeType"),
        text: None,
        blob: None,
        meta: resource_meta,
    };
    envelope.resource(resource)
}

/// A `video` block with a `video/*` `mimeType`, as a `resource` carrying its `data` as
/// `blob` (its `uri`, or `neuralis:inline-video` when it has none).
fn read_video(
    mut m: Map<String, Value>,
    pointer: &str,
    envelope: Envelope,
    diags: &mut Vec<Diagnostic>,
) -> Block {
    let mime_type = match take_string(&mut m, "mimeType") {
        Some(t) if t.starts_with("video/") => t,
        _ => {
            diags.push(
                shape(
                    &format!("{pointer}/mimeType"),
                    "`video` block without a `video/*` `mimeType`; dropped",
                )
                .with_hint("send video as a `resource` block with a `video/*` `mimeType`"),
            );
            return Block::Malformed;
        }
    };
    let uri = take_string(&mut m, "uri").unwrap_or_else(|| "neuralis:inline-video".to_owned());
    let resource = ResourceContents {
        uri,
        mime_type: Some(mime_type),
        text: None,
        blob: take_string(&mut m, "data"),
        meta: None,
    };
    envelope.resource(resource)
}

fn missing_object(diags: &mut Vec<Diagnostic>, pointer: &str) -> Block {
    diags.push(shape(
        &format!("{pointer}/resource"),
        "`resource` block without a `resource` object; dropped",
    ));
    Block::Malformed
}

fn read_annotations(
    m: &mut Map<String, Value>,
    pointer: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<ContentAnnotations> {
    let v = m.remove("annotations")?;
    let at = format!("{pointer}/annotations");
    let Value::Object(mut a) = v else {
        if !v.is_null() {
            diags.push(shape(
                &at,
                format!("`annotations` is {}, not an object; dropped", type_name(&v)),
            ));
        }
        return None;
    };
    let mut out = ContentAnnotations::default();
    match a.remove("audience") {
        None => {}
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            out.audience = Some(
                items
                    .into_iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
            );
        }
        Some(_) => diags.push(shape(
            &format!("{at}/audience"),
            "`audience` is not an array of strings; dropped",
        )),
    }
    match a.remove("priority") {
        None => {}
        Some(Value::Number(n)) if n.as_f64().is_some() => out.priority = n.as_f64(),
        Some(_) => diags.push(shape(
            &format!("{at}/priority"),
            "`priority` is not a number; dropped",
        )),
    }
    match a.remove("lastModified") {
        None => {}
        Some(Value::String(s)) => out.last_modified = Some(s),
        Some(_) => diags.push(shape(
            &format!("{at}/lastModified"),
            "`lastModified` is not a string; dropped",
        )),
    }
    (out != ContentAnnotations::default()).then_some(out)
}

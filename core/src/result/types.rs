//! The result a tool returns, in the MCP wire form.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a tool returns: `{ content, isError?, structuredContent?, _meta? }` on the wire.
///
/// - `content` is what the model reads: a string or a list of [`ContentBlock`]s.
/// - `structured_content` is JSON for cards and external MCP clients.
/// - `meta` (`_meta`) is UI/runtime-only and never reaches the model; the toolkit's own
///   accounting lives under `_meta.neuralis`.
///
/// ```
/// use neuralis_core::result::ToolResult;
/// use serde_json::json;
///
/// let r = ToolResult::json(json!({"ok": true, "count": 3}));
/// assert_eq!(r.structured_content, Some(json!({"ok": true, "count": 3})));
/// assert_eq!(r.for_model(), json!({"content": [{"type": "text", "text": "{\"ok\":true,\"count\":3}"}]}));
///
/// let e = ToolResult::error("city not found");
/// assert!(e.is_error);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// What the model reads.
    pub content: Content,
    /// Whether the call failed (`isError`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// JSON for card rendering and external MCP clients (`structuredContent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// UI/runtime-only metadata (`_meta`), stripped before the model sees the result.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
fn is_false(b: &bool) -> bool {
    !*b
}

/// The `content` of a result: a plain string or a list of blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// A plain string.
    Text(String),
    /// MCP content blocks.
    Blocks(Vec<ContentBlock>),
}

impl Default for Content {
    fn default() -> Self {
        Self::Blocks(Vec::new())
    }
}

/// One MCP content block: `text`, `image`, `audio` or `resource`, and nothing else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// `{"type": "text", "text": ...}`.
    Text(TextContent),
    /// `{"type": "image", "data": <base64>, "mimeType": ...}`.
    Image(BinaryContent),
    /// `{"type": "audio", "data": <base64>, "mimeType": ...}`.
    Audio(BinaryContent),
    /// `{"type": "resource", "resource": {"uri": ..., "mimeType"?, "text"? | "blob"?}}`.
    /// Video rides here, with a `video/*` mime type.
    Resource(EmbeddedResource),
}

/// A text block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// MCP annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ContentAnnotations>,
    /// Block metadata, stripped for the model.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// An image or audio block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinaryContent {
    /// Base64 data.
    pub data: String,
    /// The mime type (`mimeType`).
    #[serde(rename = "mimeType")]
    pub mime_type: String,
    /// MCP annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ContentAnnotations>,
    /// Block metadata, stripped for the model.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// An embedded resource block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The resource.
    pub resource: ResourceContents,
    /// MCP annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ContentAnnotations>,
    /// Block metadata, stripped for the model.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The contents of an embedded resource: a URI with text or a base64 blob. A resource
/// normalized from a `resource_link` carries neither; the link's `name`, `title`,
/// `description` and `size` are kept under `_meta.neuralis.link`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceContents {
    /// The resource URI.
    pub uri: String,
    /// The mime type (`mimeType`).
    #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// Resource metadata, stripped for the model.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// MCP annotations on a content block (audience, priority, last modified); the tool's own
/// annotations are [`catalog::Annotations`](crate::catalog::Annotations).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentAnnotations {
    /// Who the block is for (`user`, `assistant`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<String>>,
    /// Importance from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 timestamp (`lastModified`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl ContentBlock {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from base64 data.
    #[must_use]
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image(BinaryContent::new(data, mime_type))
    }

    /// An audio block from base64 data.
    #[must_use]
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio(BinaryContent::new(data, mime_type))
    }

    /// An embedded text resource.
    #[must_use]
    pub fn resource_text(
        uri: impl Into<String>,
        mime_type: Option<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::resource(ResourceContents {
            uri: uri.into(),
            mime_type,
            text: Some(text.into()),
            blob: None,
            meta: None,
        })
    }

    /// An embedded binary resource (base64); use a `video/*` mime type for video.
    #[must_use]
    pub fn resource_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        blob: impl Into<String>,
    ) -> Self {
        Self::resource(ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: None,
            blob: Some(blob.into()),
            meta: None,
        })
    }

    /// An embedded resource.
    #[must_use]
    pub fn resource(resource: ResourceContents) -> Self {
        Self::Resource(EmbeddedResource {
            resource,
            annotations: None,
            meta: None,
        })
    }

    /// The wire `type` of the block.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::Resource(_) => "resource",
        }
    }

    /// The block without any `_meta` (its own and its resource's).
    #[must_use]
    pub fn without_meta(&self) -> Self {
        let mut b = self.clone();
        match &mut b {
            Self::Text(t) => t.meta = None,
            Self::Image(x) | Self::Audio(x) => x.meta = None,
            Self::Resource(r) => {
                r.meta = None;
                r.resource.meta = None;
            }
        }
        b
    }
}

impl BinaryContent {
    /// Base64 data with its mime type.
    #[must_use]
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }
}

impl ToolResult {
    /// A result with one text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::from_blocks(vec![ContentBlock::text(text)])
    }

    /// A result from content blocks.
    #[must_use]
    pub fn from_blocks(blocks: Vec<ContentBlock>) -> Self {
        Self {
            content: Content::Blocks(blocks),
            ..Self::default()
        }
    }

    /// A JSON value as `structuredContent`, with its compact JSON text as the content the
    /// model reads.
    #[must_use]
    pub fn json(value: Value) -> Self {
        let text = value.to_string();
        Self::text(text).with_structured(value)
    }

    /// A failed call (`isError: true`) with the message as text.
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        Self::text(message).with_error(true)
    }

    /// A failed call from an error and its chain of sources (`outer: inner: root`).
    #[must_use]
    pub fn from_error(error: &(dyn std::error::Error + 'static)) -> Self {
        let mut message = error.to_string();
        let mut source = error.source();
        while let Some(e) = source {
            message.push_str(": ");
            message.push_str(&e.to_string());
            source = e.source();
        }
        Self::error(message)
    }

    /// Adds a content block (turning string content into a text block first).
    #[must_use]
    pub fn with_block(mut self, block: ContentBlock) -> Self {
        self.content = match self.content {
            Content::Text(t) => Content::Blocks(vec![ContentBlock::text(t), block]),
            Content::Blocks(mut b) => {
                b.push(block);
                Content::Blocks(b)
            }
        };
        self
    }

    /// Sets `structuredContent` (`null` means none, as on the wire).
    #[must_use]
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured_content = (!value.is_null()).then_some(value);
        self
    }

    /// Sets `isError`.
    #[must_use]
    pub fn with_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// Sets `_meta.<key>`.
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta
            .get_or_insert_with(Map::new)
            .insert(key.into(), value);
        self
    }

    /// Sets `_meta.neuralis.<key>`, the toolkit's own accounting.
    #[must_use]
    pub fn with_neuralis_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.neuralis_meta_mut().insert(key.into(), value);
        self
    }

    /// `_meta.neuralis`, when present and an object.
    #[must_use]
    pub fn neuralis_meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()?.get(super::NEURALIS_META)?.as_object()
    }

    /// `_meta.neuralis`, created (or replaced, when not an object) as needed.
    pub fn neuralis_meta_mut(&mut self) -> &mut Map<String, Value> {
        let meta = self.meta.get_or_insert_with(Map::new);
        let slot = meta
            .entry(super::NEURALIS_META)
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        match slot {
            Value::Object(m) => m,
            _ => unreachable!("just made an object"),
        }
    }

    /// The content blocks, a string content read as one text block.
    #[must_use]
    pub fn blocks(&self) -> Vec<ContentBlock> {
        match &self.content {
            Content::Text(t) => vec![ContentBlock::text(t.clone())],
            Content::Blocks(b) => b.clone(),
        }
    }

    /// What the model receives: `content` (without any block `_meta`) and `isError` when
    /// set. Never `_meta`; never `structuredContent` (the in-product model reads content
    /// only, so a fact it needs belongs in the text).
    #[must_use]
    pub fn for_model(&self) -> Value {
        let content = match &self.content {
            Content::Text(t) => Value::String(t.clone()),
            Content::Blocks(b) => Value::Array(
                b.iter()
                    .map(|b| serde_json::to_value(b.without_meta()).unwrap_or(Value::Null))
                    .collect(),
            ),
        };
        let mut out = Map::new();
        out.insert("content".into(), content);
        if self.is_error {
            out.insert("isError".into(), Value::Bool(true));
        }
        Value::Object(out)
    }

    /// What the UI receives: the whole result in wire form, `_meta` included.
    #[must_use]
    pub fn for_ui(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The settled status of the result: `isError` settles as failure, otherwise the
    /// status convention over `structuredContent` decides (see [`settled_status`](super::settled_status)).
    #[must_use]
    pub fn status(&self) -> super::Status {
        let status =
            super::settled_status(self.structured_content.as_ref().unwrap_or(&Value::Null));
        if self.is_error && status.tone != super::Tone::Failure {
            return super::Status::new("error", super::Tone::Failure);
        }
        status
    }
}

impl From<String> for ToolResult {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for ToolResult {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

impl From<Value> for ToolResult {
    fn from(value: Value) -> Self {
        Self::json(value)
    }
}

impl From<ContentBlock> for ToolResult {
    fn from(block: ContentBlock) -> Self {
        Self::from_blocks(vec![block])
    }
}

impl From<Vec<ContentBlock>> for ToolResult {
    fn from(blocks: Vec<ContentBlock>) -> Self {
        Self::from_blocks(blocks)
    }
}

/// `Ok` converts as its value does; `Err` becomes `isError: true` with the error's text.
impl<T: Into<ToolResult>, E: fmt::Display> From<Result<T, E>> for ToolResult {
    fn from(result: Result<T, E>) -> Self {
        match result {
            Ok(v) => v.into(),
            Err(e) => Self::error(e.to_string()),
        }
    }
}

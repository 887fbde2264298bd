//! A toolkit result in rmcp's typed wire model, built with rmcp's own constructors.
//!
//! rmcp's constructors (`CallToolResult::success`, `::error`) set what each protocol
//! version needs (the `resultType: "complete"` discriminator of 2026-07-28), and rmcp's
//! server handler removes it for a peer that negotiated an older version. A result
//! deserialized from JSON would carry no discriminator at all, which 2026-07-28 clients
//! reject, so nothing here goes through JSON.

use neuralis_core::result::{self as core, Content, ToolResult};
use rmcp::model::{
    Annotations, AudioContent, CallToolResult, ContentBlock, EmbeddedResource, ImageContent,
    MetaObject, ResourceContents, Role, TextContent,
};

/// The wire form of a toolkit result: `content`, `isError`, `structuredContent` and
/// `_meta` (the toolkit's `_meta.neuralis` accounting, for the client's UI).
pub(crate) fn call_tool_result(result: ToolResult) -> CallToolResult {
    let ToolResult {
        content,
        is_error,
        structured_content,
        meta,
    } = result;
    let blocks = match content {
        Content::Text(text) => vec![ContentBlock::text(text)],
        Content::Blocks(blocks) => blocks.into_iter().map(block).collect(),
    };
    let mut wire = if is_error {
        CallToolResult::error(blocks)
    } else {
        CallToolResult::success(blocks)
    };
    wire.structured_content = structured_content;
    wire.with_meta(meta.map(MetaObject))
}

fn block(block: core::ContentBlock) -> ContentBlock {
    match block {
        core::ContentBlock::Text(t) => {
            let mut wire = TextContent::new(t.text);
            wire.meta = t.meta.map(MetaObject);
            wire.annotations = t.annotations.map(annotations);
            ContentBlock::Text(wire)
        }
        core::ContentBlock::Image(b) => {
            let mut wire = ImageContent::new(b.data, b.mime_type);
            wire.meta = b.meta.map(MetaObject);
            wire.annotations = b.annotations.map(annotations);
            ContentBlock::Image(wire)
        }
        core::ContentBlock::Audio(b) => {
            let mut wire = AudioContent::new(b.data, b.mime_type);
            wire.meta = b.meta.map(MetaObject);
            wire.annotations = b.annotations.map(annotations);
            ContentBlock::Audio(wire)
        }
        core::ContentBlock::Resource(r) => {
            let mut wire = EmbeddedResource::new(resource(r.resource));
            wire.meta = r.meta.map(MetaObject);
            wire.annotations = r.annotations.map(annotations);
            ContentBlock::Resource(wire)
        }
    }
}

/// MCP's resource contents carry `text` or `blob`. A resource normalized from a
/// `resource_link` has neither (its link lives in `_meta.neuralis.link`): it goes out as
/// an empty text, which every protocol version accepts.
fn resource(r: core::ResourceContents) -> ResourceContents {
    let core::ResourceContents {
        uri,
        mime_type,
        text,
        blob,
        meta,
    } = r;
    let meta = meta.map(MetaObject);
    match (text, blob) {
        (None, Some(blob)) => ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            meta,
        },
        (text, _) => ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text: text.unwrap_or_default(),
            meta,
        },
    }
}

/// MCP knows the audiences `user` and `assistant`; any other word is left out.
fn annotations(a: core::ContentAnnotations) -> Annotations {
    let mut wire = Annotations::default();
    wire.audience = a.audience.map(|audience| {
        audience
            .iter()
            .filter_map(|who| match who.as_str() {
                "user" => Some(Role::User),
                "assistant" => Some(Role::Assistant),
                _ => None,
            })
            .collect()
    });
    #[allow(
        clippy::cast_possible_truncation,
        reason = "MCP's priority is a number from 0 to 1; rmcp models it as f32"
    )]
    {
        wire.priority = a.priority.map(|p| p as f32);
    }
    wire.last_modified = a.last_modified;
    wire
}

/// The JSON the client receives for `result` (for tests and docs: what rmcp writes).
#[cfg(test)]
fn wire_json(result: ToolResult) -> serde_json::Value {
    serde_json::to_value(call_tool_result(result)).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use neuralis_core::result::ContentBlock as Block;
    use serde_json::{Map, json};

    #[test]
    fn every_result_carries_the_complete_discriminator_and_its_parts() {
        let ok = ToolResult::json(json!({"ok": true, "n": 2}))
            .with_neuralis_meta("bound", json!({"cut": 0}));
        assert_eq!(
            wire_json(ok),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": "{\"ok\":true,\"n\":2}"}],
                "structuredContent": {"ok": true, "n": 2},
                "isError": false,
                "_meta": {"neuralis": {"bound": {"cut": 0}}}
            })
        );
        let refused = ToolResult::error("no tool named `x` is available")
            .with_structured(json!({"ok": false, "error": "unknown-tool"}));
        let wire = wire_json(refused);
        assert_eq!(wire["resultType"], "complete");
        assert_eq!(wire["isError"], true);
        assert_eq!(wire["structuredContent"]["error"], "unknown-tool");
    }

    #[test]
    fn blocks_keep_their_kind_data_meta_and_annotations() {
        let mut text = Block::text("hi");
        if let Block::Text(t) = &mut text {
            t.annotations = Some(core::ContentAnnotations {
                audience: Some(vec!["user".into(), "robot".into()]),
                priority: Some(0.5),
                last_modified: None,
            });
        }
        let result = ToolResult::from_blocks(vec![
            text,
            Block::image("aGk=", "image/png"),
            Block::audio("aGk=", "audio/wav"),
            Block::resource_text("file:///a.txt", Some("text/plain".into()), "body"),
            Block::resource_blob("file:///v.mp4", "video/mp4", "aGk="),
            Block::resource(core::ResourceContents {
                uri: "https://example.invalid/doc".into(),
                mime_type: None,
                text: None,
                blob: None,
                meta: Some(Map::from_iter([(
                    "neuralis".into(),
                    json!({"link": {"name": "doc"}}),
                )])),
            }),
        ]);
        let wire = wire_json(result);
        let content = wire["content"].as_array().expect("blocks");
        assert_eq!(
            content[0],
            json!({"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}})
        );
        assert_eq!(
            content[1],
            json!({"type": "image", "data": "aGk=", "mimeType": "image/png"})
        );
        assert_eq!(
            content[2],
            json!({"type": "audio", "data": "aGk=", "mimeType": "audio/wav"})
        );
        assert_eq!(
            content[3]["resource"],
            json!({"uri": "file:///a.txt", "mimeType": "text/plain", "text": "body"})
        );
        assert_eq!(
            content[4]["resource"],
            json!({"uri": "file:///v.mp4", "mimeType": "video/mp4", "blob": "aGk="})
        );
        assert_eq!(
            content[5]["resource"],
            json!({"uri": "https://example.invalid/doc", "text": "",
                   "_meta": {"neuralis": {"link": {"name": "doc"}}}})
        );
    }
}

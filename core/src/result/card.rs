//! Which card renders a result.

use serde::Serialize;
use serde_json::Value;

use super::types::ToolResult;
use crate::catalog::ToolMeta;
use crate::contract::{Diagnostic, RuleId};

/// The card every result can fall back to.
pub const DEFAULT_CARD: &str = "default";

/// The key of the app marker under `_meta.neuralis`: a result that carries
/// `_meta.neuralis.card` asks for that card before anything else **(ours)**.
pub const CARD_MARKER: &str = "card";

/// Where a card type came from, in resolution order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CardSource {
    /// The result's app marker, `_meta.neuralis.card`.
    AppMarker,
    /// The tool's `x-neuralis.ui.cardType`.
    CardType,
    /// The tool's `x-neuralis.operation`.
    Operation,
    /// `structuredContent.kind`.
    Kind,
    /// `structuredContent.type`.
    Type,
    /// The tool name.
    ToolName,
    /// Nothing matched: the default card.
    Default,
}

/// The card a result renders in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardMatch {
    /// The card type.
    pub card: String,
    /// Which step of the resolution chose it.
    pub source: CardSource,
}

/// Resolves a result's card type, first match wins: the app marker on the result
/// (`_meta.neuralis.card`), the tool's `ui.cardType`, its `operation`,
/// `structuredContent.kind`, then `.type`, the tool name, then `default`.
///
/// A candidate matches when it is a string naming a declared card. With `declared`
/// `None` (the package's cards are unknown, as in a preview) the first candidate present
/// wins. The tool's block is read as [`ToolMeta`]; a block without the contract's shape
/// (which the checker reports) offers no candidate.
///
/// ```
/// use neuralis_core::result::{CardSource, ToolResult, resolve_card};
/// use serde_json::json;
///
/// let tool = json!({"x-neuralis": {"operation": "weather.forecast", "ui": {"cardType": "weather.result"}}});
/// let r = ToolResult::json(json!({"kind": "forecast"}));
/// let m = resolve_card("weather_forecast", &tool, &r, Some(&["forecast"]));
/// assert_eq!((m.card.as_str(), m.source), ("forecast", CardSource::Kind));
/// let m = resolve_card("weather_forecast", &tool, &r, Some(&[]));
/// assert_eq!((m.card.as_str(), m.source), ("default", CardSource::Default));
/// ```
#[must_use]
pub fn resolve_card(
    tool_name: &str,
    tool: &Value,
    result: &ToolResult,
    declared: Option<&[&str]>,
) -> CardMatch {
    let meta = ToolMeta::from_schema(tool).ok();
    let structured = result.structured_content.as_ref();
    let candidates: [(Option<&str>, CardSource); 6] = [
        (
            result
                .neuralis_meta()
                .and_then(|n| n.get(CARD_MARKER))
                .and_then(Value::as_str),
            CardSource::AppMarker,
        ),
        (
            meta.as_ref().and_then(|m| m.ui.card_type.as_deref()),
            CardSource::CardType,
        ),
        (
            meta.as_ref().and_then(|m| m.operation.as_deref()),
            CardSource::Operation,
        ),
        (
            structured
                .and_then(|s| s.get("kind"))
                .and_then(Value::as_str),
            CardSource::Kind,
        ),
        (
            structured
                .and_then(|s| s.get("type"))
                .and_then(Value::as_str),
            CardSource::Type,
        ),
        (Some(tool_name), CardSource::ToolName),
    ];
    for (candidate, source) in candidates {
        if let Some(card) = candidate
            && declared.is_none_or(|d| d.contains(&card))
        {
            return CardMatch {
                card: card.to_owned(),
                source,
            };
        }
    }
    CardMatch {
        card: DEFAULT_CARD.to_owned(),
        source: CardSource::Default,
    }
}

/// A `card-resolution` warning when the tool declares `ui.cardType` but the result
/// still falls back to the default card (pointer into the tool file).
#[must_use]
pub fn check_card(
    tool_name: &str,
    tool: &Value,
    result: &ToolResult,
    declared: Option<&[&str]>,
) -> Vec<Diagnostic> {
    let meta = ToolMeta::from_schema(tool).ok();
    let wanted = meta.as_ref().and_then(|m| m.ui.card_type.as_deref());
    let m = resolve_card(tool_name, tool, result, declared);
    match wanted {
        Some(card) if m.source == CardSource::Default => vec![
            Diagnostic::new(RuleId::CardResolution, crate::xn::keys::CARD_TYPE.pointer())
                .with_message(format!("`ui.cardType` `{card}` names no declared card; the result renders in the default card")),
        ],
        _ => Vec::new(),
    }
}

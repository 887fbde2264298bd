//! The payload a sandboxed iframe card receives.

use serde_json::{Map, Value};

use super::engine::{Engine, Limits, Members};
use super::tally::Tally;
use super::types::ToolResult;
use crate::contract::{Diagnostic, RuleId};

/// The most bytes the serialized payload may take.
pub const IFRAME_MAX_BYTES: usize = 131_072;

/// The most UTF-16 code units any string (key or value) of the payload may take.
pub const IFRAME_MAX_STRING_CHARS: usize = 16_384;

/// Bytes kept aside for the `truncated` report.
const REPORT_RESERVE: usize = 4_096;

/// The one-way payload of a sandboxed card.
#[derive(Debug, Clone, PartialEq)]
pub struct IframePayload {
    /// The payload: `toolName`, `status`, `structuredContent`, `input`, `result` (what the
    /// model reads: `content` and `isError`), and `truncated` when a cap cut real data.
    pub value: Value,
    /// The payload serialized, exactly as sent; at most [`IFRAME_MAX_BYTES`] bytes.
    pub json: String,
    /// What the caps cut.
    pub cuts: Tally,
}

impl IframePayload {
    /// One `iframe-budget` warning per listed cut.
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.cuts
            .diagnostics()
            .into_iter()
            .map(|d| Diagnostic::new(RuleId::IframeBudget, d.pointer).with_message(d.message))
            .collect()
    }
}

/// Builds the payload a sandboxed card receives: the tool's name, its input, the settled
/// status, the result and `structuredContent`, within [`IFRAME_MAX_BYTES`] serialized and
/// [`IFRAME_MAX_STRING_CHARS`] UTF-16 units per string, whatever the input.
///
/// Strings over the cap end with the marker `… [truncated: N → M characters]`. When the
/// total is over budget the primitives go first, then whole members smallest first,
/// then `structuredContent`, `input` and `result` shrink in that order (arrays from the
/// tail). Whenever a cap cut data the payload carries
/// `"truncated": {"cuts": <count>, "at": [{"pointer", "kind", "original", "kept"}, ...]}`,
/// pointers into the payload. Members whose key is over the string cap are dropped (a
/// clipped key could collide), and containers nested deeper than 127 levels are dropped.
///
/// ```
/// use neuralis_core::result::{IFRAME_MAX_BYTES, ToolResult, iframe_payload};
/// use serde_json::json;
///
/// let r = ToolResult::json(json!({"ok": true, "rows": vec!["😀".repeat(1000); 1000]}));
/// let p = iframe_payload("list_rows", &json!({"q": "x"}), &r);
/// assert!(p.json.len() <= IFRAME_MAX_BYTES);
/// assert_eq!(p.value["status"]["tone"], "success");
/// assert!(p.value["truncated"]["cuts"].as_u64().unwrap() > 0);
/// ```
#[must_use]
pub fn iframe_payload(tool_name: &str, input: &Value, result: &ToolResult) -> IframePayload {
    let name = Value::String(tool_name.to_owned());
    let status = serde_json::to_value(result.status()).unwrap_or(Value::Null);
    let model = result.for_model();
    let structured = result.structured_content.as_ref().unwrap_or(&Value::Null);
    let members: [(&str, &Value); 5] = [
        ("toolName", &name),
        ("status", &status),
        ("structuredContent", structured),
        ("input", input),
        ("result", &model),
    ];
    let limits = Limits {
        string_chars: IFRAME_MAX_STRING_CHARS,
        array_len: usize::MAX,
        key_chars: IFRAME_MAX_STRING_CHARS,
    };
    let mut engine = Engine::new(limits, "");
    let plan = engine.fit_members(Members::List(&members), IFRAME_MAX_BYTES - REPORT_RESERVE);
    let rules = engine.rules();
    let cuts = engine.tally;
    let mut payload = rules.materialize_members(Members::List(&members), plan, 1);
    if !cuts.is_empty() {
        payload.insert("truncated".into(), report(&cuts));
    }
    let value = Value::Object(payload);
    let json = value.to_string();
    debug_assert!(json.len() <= IFRAME_MAX_BYTES, "iframe payload over budget");
    IframePayload { value, json, cuts }
}

/// The `truncated` report, within the reserve (its key and comma included).
fn report(cuts: &Tally) -> Value {
    let overhead = ",\"truncated\":".len();
    let mut at = Vec::new();
    let mut m = Map::new();
    m.insert("cuts".into(), Value::from(cuts.total_cuts));
    m.insert("at".into(), Value::Array(Vec::new()));
    let mut size = overhead + Value::Object(m.clone()).to_string().len();
    for cut in &cuts.cuts {
        let entry = serde_json::to_value(cut).unwrap_or(Value::Null);
        let add = entry.to_string().len() + usize::from(!at.is_empty());
        if size + add > REPORT_RESERVE {
            break;
        }
        size += add;
        at.push(entry);
    }
    m.insert("at".into(), Value::Array(at));
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::result::utf16_len;

    fn strings(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|e| strings(e, out)),
            Value::Object(m) => m.iter().for_each(|(k, e)| {
                out.push(k.clone());
                strings(e, out);
            }),
            _ => {}
        }
    }

    fn assert_within(p: &IframePayload) {
        assert!(p.json.len() <= IFRAME_MAX_BYTES, "{} bytes", p.json.len());
        let reparsed: Value = serde_json::from_str(&p.json).expect("valid JSON");
        assert_eq!(reparsed, p.value);
        let mut all = Vec::new();
        strings(&p.value, &mut all);
        assert!(all.iter().all(|s| utf16_len(s) <= IFRAME_MAX_STRING_CHARS));
    }

    #[test]
    fn small_payload_is_whole_and_unmarked() {
        let r = ToolResult::json(json!({"ok": true, "count": 2}));
        let p = iframe_payload("t", &json!({"a": 1}), &r);
        assert_within(&p);
        assert_eq!(
            p.value,
            json!({
                "toolName": "t",
                "status": {"name": "success", "tone": "success"},
                "structuredContent": {"ok": true, "count": 2},
                "input": {"a": 1},
                "result": {"content": [{"type": "text", "text": "{\"ok\":true,\"count\":2}"}]}
            })
        );
    }

    #[test]
    fn long_string_is_clipped_with_marker() {
        let r = ToolResult::text("x").with_structured(json!({"blob": "y".repeat(20_000)}));
        let p = iframe_payload("t", &json!({}), &r);
        assert_within(&p);
        let s = p.value["structuredContent"]["blob"].as_str().expect("kept");
        assert!(
            s.ends_with("… [truncated: 20000 → 16345 characters]"),
            "{}",
            &s[s.len() - 60..]
        );
        assert_eq!(
            p.value["truncated"]["at"][0]["pointer"],
            "/structuredContent/blob"
        );
    }

    #[test]
    fn megabytes_of_emoji_stay_within_budget() {
        let emoji = "😀\"\\\u{1}".repeat(500_000);
        let r = ToolResult::text(emoji.clone()).with_structured(json!({"a": emoji, "n": 1}));
        let p = iframe_payload("t", &json!({"q": emoji}), &r);
        assert_within(&p);
        assert_eq!(p.value["structuredContent"]["n"], 1);
    }

    #[test]
    fn many_tiny_keys_stay_within_budget() {
        let m: Map<String, Value> = (0..100_000).map(|i| (format!("k{i}"), json!(i))).collect();
        let r = ToolResult::text("x").with_structured(Value::Object(m.clone()));
        let p = iframe_payload("t", &Value::Object(m), &r);
        assert_within(&p);
        assert!(
            p.value["structuredContent"]
                .as_object()
                .is_some_and(|o| o.len() > 1000)
        );
    }

    #[test]
    fn deep_nesting_stays_within_budget() {
        let mut v = json!("leaf");
        for _ in 0..300 {
            v = json!({"d": [v]});
        }
        let r = ToolResult::text("x").with_structured(v.clone());
        let p = iframe_payload("t", &v, &r);
        assert_within(&p);
        assert!(p.value["truncated"]["cuts"].as_u64().is_some_and(|n| n > 0));
    }
}

//! The `x-neuralis` block of a tool, in the canonical key order of the block.

use serde_json::{Map, Value};

use super::Tool;
use crate::attr::Spanned;

fn strings(list: &[Spanned<String>]) -> Value {
    Value::Array(
        list.iter()
            .map(|s| Value::String(s.value.clone()))
            .collect(),
    )
}

pub(super) fn x_neuralis(tool: &Tool) -> Value {
    let mut block = Map::new();
    let text = |v: &Option<Spanned<String>>| v.as_ref().map(|v| Value::String(v.value.clone()));
    let flag = |v: &Option<Spanned<bool>>| v.as_ref().map(|v| Value::Bool(v.value));
    let put = |map: &mut Map<String, Value>, key: &str, v: Option<Value>| {
        if let Some(v) = v {
            map.insert(key.to_owned(), v);
        }
    };
    put(&mut block, "family", text(&tool.family));
    put(&mut block, "operation", text(&tool.operation));
    put(&mut block, "transport", text(&tool.transport));
    if let Some(defaults) = &tool.defaults {
        let map: Map<String, Value> = defaults
            .value
            .iter()
            .map(|d| (d.key.value.clone(), d.value.value.clone()))
            .collect();
        block.insert("defaults".into(), Value::Object(map));
    }
    let a = &tool.annotations;
    let mut ann = Map::new();
    put(&mut ann, "title", text(&a.title));
    put(&mut ann, "readOnlyHint", flag(&a.read_only));
    put(&mut ann, "destructiveHint", flag(&a.destructive));
    put(&mut ann, "idempotentHint", flag(&a.idempotent));
    put(&mut ann, "openWorldHint", flag(&a.open_world));
    put(&mut ann, "category", text(&a.category));
    put(
        &mut ann,
        "estimatedDurationMs",
        a.estimated_duration_ms
            .as_ref()
            .map(|v| Value::from(v.value)),
    );
    put(&mut ann, "cancellable", flag(&a.cancellable));
    if a.span.is_some() || !ann.is_empty() {
        block.insert("annotations".into(), Value::Object(ann));
    }
    let u = &tool.ui;
    let mut ui = Map::new();
    put(&mut ui, "presentation", text(&u.presentation));
    put(&mut ui, "cardType", text(&u.card_type));
    put(&mut ui, "icon", text(&u.icon));
    if u.span.is_some() || !ui.is_empty() {
        block.insert("ui".into(), Value::Object(ui));
    }
    let r = &tool.requires;
    let mut req = Map::new();
    put(
        &mut req,
        "features",
        r.features.as_ref().map(|l| strings(&l.value)),
    );
    put(
        &mut req,
        "escalations",
        r.escalations.as_ref().map(|l| strings(&l.value)),
    );
    if r.span.is_some() || !req.is_empty() {
        block.insert("requires".into(), Value::Object(req));
    }
    if let Some(keys) = &tool.ask_on_keys {
        block.insert("askOnKeys".into(), strings(&keys.value));
    }
    Value::Object(block)
}

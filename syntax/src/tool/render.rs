//! The `x-neuralis` block of a tool, written from the model's value, with where each of
//! its keys was written.

use neuralis_model::contract::push_pointer;
use neuralis_model::xn::BLOCK_POINTER;
use proc_macro2::Span;
use serde_json::Value;

use super::Tool;

/// A tool's `x-neuralis` block and the pairs that place it in the source.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The block: the model's value ([`Tool::xn`]) as JSON, in the canonical key order.
    pub block: Value,
    /// For each key the block holds, and each entry of its lists and of `defaults`, the
    /// JSON pointer in the tool file and the token that decides it (the value when one is
    /// written after `=`, else the key; an entry's own token). In the block's order.
    pub spans: Vec<(String, Span)>,
}

pub(super) fn render(tool: &Tool) -> Rendered {
    let block = tool.x_neuralis();
    let mut spans = Vec::new();
    place(tool, BLOCK_POINTER, &block, &mut spans);
    Rendered { block, spans }
}

/// The members of `value` (at `pointer`) the attribute wrote, and theirs, depth first.
fn place(tool: &Tool, pointer: &str, value: &Value, out: &mut Vec<(String, Span)>) {
    let members: Box<dyn Iterator<Item = (String, &Value)>> = match value {
        Value::Object(map) => Box::new(map.iter().map(|(k, v)| (push_pointer(pointer, k), v))),
        Value::Array(items) => Box::new(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (push_pointer(pointer, &i.to_string()), v)),
        ),
        _ => return,
    };
    for (at, member) in members {
        // What the attribute did not write (`category`'s default) has no place, nor has
        // anything below it.
        let Some(written) = tool.written.place(&at) else {
            continue;
        };
        out.push((at.clone(), written.span()));
        place(tool, &at, member, out);
    }
}

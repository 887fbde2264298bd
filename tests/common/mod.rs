//! Shared by the golden and round-trip tests.
#![allow(dead_code, missing_docs)]

pub mod types;

use serde_json::{Value, json};

/// The root schema with the `x-neuralis` block `#[tool]` adds, as `check` sees a file.
pub fn as_tool_file(schema: &Value) -> Value {
    let mut file = schema.clone();
    if let Some(map) = file.as_object_mut() {
        map.insert(
            "x-neuralis".into(),
            json!({ "annotations": { "category": "read" } }),
        );
    }
    file
}

/// Every error `check_value` reports on the tool file made from `schema`.
pub fn checker_errors(name: &str, schema: &Value) -> Vec<neuralis::Diagnostic> {
    let file = as_tool_file(schema);
    neuralis::check_value(name, &file, &neuralis::contract::CheckOptions::default())
        .into_iter()
        .filter(neuralis::Diagnostic::is_error)
        .collect()
}

//! The served dialects against the `mcp-remote` platform's reading (`remote::lower`, its
//! documented lowering): served `contract`, the platform gets the tool file; served
//! `portable`, an optional property's `anyOf` is dropped whole there, so the property
//! reaches it without its type, and nothing else changes (counted here; docs/dialects.md
//! says to serve such a platform `mcp-remote`, held to the seed's conversion in
//! `tests/mcp_remote.rs`).

use std::path::Path;

use neuralis_model::dialect::{Served, served_schema};
use neuralis_model::remote::lower;
use serde_json::Value;

fn example_tools() -> Vec<(String, Value)> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for package in std::fs::read_dir(&examples).expect("examples") {
        let tools = package.expect("entry").path().join("tools");
        let Ok(files) = std::fs::read_dir(&tools) else {
            continue;
        };
        for file in files {
            let path = file.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).expect("a tool file");
                let doc: Value = serde_json::from_str(&text).expect("JSON");
                out.push((path.display().to_string(), doc));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() > 30, "the example tools: {}", out.len());
    out
}

/// The tool file as a server projects it before any dialect: no `$schema`, no block.
fn projected(doc: &Value) -> serde_json::Map<String, Value> {
    let mut map = doc.as_object().cloned().unwrap_or_default();
    map.remove("$schema");
    map.remove("x-neuralis");
    map
}

/// Walks the platform's view of the file (`file`) and of the served schema (`served`)
/// side by side: the properties that lost their `type`, and `Err` for any other change.
fn lost_types(file: &Value, served: &Value, at: &str) -> Result<usize, String> {
    let (Some(f), Some(s)) = (file.as_object(), served.as_object()) else {
        return if file == served {
            Ok(0)
        } else {
            Err(format!("{at}: {file} != {served}"))
        };
    };
    if f.contains_key("type") && !s.contains_key("type") {
        // The `anyOf` was dropped: only the description can be left.
        let rest: Vec<&String> = s.keys().filter(|k| *k != "description").collect();
        return if rest.is_empty() {
            Ok(1)
        } else {
            Err(format!("{at}: kept {rest:?}"))
        };
    }
    let mut lost = 0;
    for (key, fv) in f {
        let sv = s.get(key).ok_or_else(|| format!("{at}: `{key}` is gone"))?;
        lost += match key.as_str() {
            "properties" => {
                let (Some(fp), Some(sp)) = (fv.as_object(), sv.as_object()) else {
                    return Err(format!("{at}: properties"));
                };
                let mut n = 0;
                for (name, p) in fp {
                    let q = sp
                        .get(name)
                        .ok_or_else(|| format!("{at}: `{name}` is gone"))?;
                    n += lost_types(p, q, &format!("{at}/properties/{name}"))?;
                }
                n
            }
            "items" => lost_types(fv, sv, &format!("{at}/items"))?,
            _ if fv == sv => 0,
            _ => return Err(format!("{at}/{key}: {fv} != {sv}")),
        };
    }
    Ok(lost)
}

#[test]
fn served_contract_reaches_the_platform_as_the_file_does() {
    for (path, doc) in example_tools() {
        let file = Value::Object(projected(&doc));
        let served = Value::Object(served_schema(&projected(&doc), Served::Contract));
        assert_eq!(lower(&served).schema, lower(&file).schema, "{path}");
    }
}

#[test]
fn served_portable_reaches_the_platform_without_the_types_of_optional_properties() {
    let (mut lost, mut tools) = (0, 0);
    for (path, doc) in example_tools() {
        let file = lower(&Value::Object(projected(&doc))).schema;
        let served = lower(&Value::Object(served_schema(
            &projected(&doc),
            Served::Portable,
        )))
        .schema;
        let n = lost_types(&file, &served, "").unwrap_or_else(|e| panic!("{path}: {e}"));
        lost += n;
        tools += usize::from(n > 0);
    }
    // What docs/dialects.md says.
    println!(
        "portable: {lost} optional properties in {tools} example tools reach mcp-remote untyped"
    );
    assert!(lost > 0);
}

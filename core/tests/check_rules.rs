//! Every rule of sections 1, 2 and 4, both ways: reported (rule id and pointer) and its
//! near miss accepted.

#![allow(clippy::unwrap_used)]

use neuralis_core::contract::{
    CheckOptions, Diagnostic, Location, RuleId, check_bytes, check_bytes_with, check_value,
};
use serde_json::{Value, json};

/// A tool document under test, built fluently from a clean base.
struct Tool {
    name: String,
    schema: Value,
    options: CheckOptions,
}

/// A tool that passes every rule with no warning.
fn tool() -> Tool {
    Tool {
        name: "probe_tool".to_owned(),
        schema: json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Probe",
            "type": "object",
            "additionalProperties": false,
            "description": "Probe something.",
            "properties": {
                "query": { "type": "string", "description": "What to probe." },
                "limit": { "type": "integer", "minimum": 1 }
            },
            "required": ["query"],
            "x-neuralis": {
                "family": "probe",
                "operation": "probe.run",
                "transport": "embedded",
                "annotations": {
                    "title": "Probe",
                    "readOnlyHint": false,
                    "destructiveHint": false,
                    "category": "read"
                },
                "ui": { "presentation": "inline" }
            }
        }),
        options: CheckOptions::default(),
    }
}

fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

impl Tool {
    /// Sets the value at `pointer`, creating objects on the way.
    fn set(mut self, pointer: &str, value: Value) -> Self {
        let tokens = tokens(pointer);
        let (last, path) = tokens.split_last().expect("a non-empty pointer");
        let mut at = &mut self.schema;
        for t in path {
            at = match at {
                Value::Array(items) => &mut items[t.parse::<usize>().expect("an index")],
                _ => at
                    .as_object_mut()
                    .expect("an object on the way")
                    .entry(t.clone())
                    .or_insert_with(|| json!({})),
            };
        }
        match at {
            Value::Array(items) => items[last.parse::<usize>().expect("an index")] = value,
            _ => {
                at.as_object_mut()
                    .expect("an object")
                    .insert(last.clone(), value);
            }
        }
        self
    }

    /// Removes the value at `pointer`.
    fn remove(mut self, pointer: &str) -> Self {
        let tokens = tokens(pointer);
        let (last, path) = tokens.split_last().expect("a non-empty pointer");
        let mut at = &mut self.schema;
        for t in path {
            at = at.get_mut(t.as_str()).expect("a path that exists");
        }
        at.as_object_mut()
            .expect("an object")
            .shift_remove(last.as_str())
            .expect("a key that exists");
        self
    }

    fn named(mut self, name: &str) -> Self {
        name.clone_into(&mut self.name);
        self
    }

    fn cards(mut self, cards: &[&str]) -> Self {
        self.options.cards = Some(cards.iter().map(|&c| c.to_owned()).collect());
        self
    }

    fn check(&self) -> Vec<Diagnostic> {
        check_value(&self.name, &self.schema, &self.options)
    }

    /// Asserts `rule` is reported at `pointer`.
    #[track_caller]
    fn reports(self, rule: RuleId, pointer: &str) -> Self {
        let found = self.check();
        assert!(
            found.iter().any(|d| d.rule == rule && d.pointer == pointer),
            "expected {rule} at `{pointer}`, got {found:#?}"
        );
        for d in &found {
            assert!(!d.message.is_empty() && !d.message.ends_with('.'), "{d:?}");
        }
        self
    }

    /// Asserts `rule` is reported exactly at these pointers, in this order.
    #[track_caller]
    fn reports_only(self, rule: RuleId, pointers: &[&str]) -> Self {
        let found: Vec<String> = self
            .check()
            .into_iter()
            .filter(|d| d.rule == rule)
            .map(|d| d.pointer)
            .collect();
        assert_eq!(found, pointers, "{rule}");
        self
    }

    /// Asserts `rule` is not reported anywhere.
    #[track_caller]
    fn accepts(self, rule: RuleId) -> Self {
        let found = self.check();
        assert!(
            !found.iter().any(|d| d.rule == rule),
            "expected no {rule}, got {found:#?}"
        );
        self
    }

    /// Asserts nothing at all is reported.
    #[track_caller]
    fn clean(self) -> Self {
        let found = self.check();
        assert!(found.is_empty(), "expected no diagnostics, got {found:#?}");
        self
    }

    /// The message of the one `rule` diagnostic.
    #[track_caller]
    fn message(&self, rule: RuleId) -> Diagnostic {
        let found: Vec<_> = self
            .check()
            .into_iter()
            .filter(|d| d.rule == rule)
            .collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        found.into_iter().next().expect("one")
    }
}

#[test]
fn the_base_is_clean() {
    tool().clean();
}

#[test]
fn the_seed_examples_pass() {
    for (name, path) in [
        (
            "catalog_list",
            "../examples/catalog/tools/catalog_list.json",
        ),
        (
            "weather_forecast",
            "../examples/weather/tools/weather_forecast.json",
        ),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let bytes = std::fs::read(&path).expect("the example exists");
        let report = check_bytes_with(
            name,
            &bytes,
            &CheckOptions {
                cards: Some(vec!["weather.result".to_owned()]),
                ..CheckOptions::default()
            },
        );
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:#?}",
            report.diagnostics
        );
        assert!(report.schema.is_some());
    }
}

// --- section 1 ---------------------------------------------------------------------------

#[test]
fn tool_name() {
    tool().named("probe.tool").reports(RuleId::ToolName, "");
    tool().named("").reports(RuleId::ToolName, "");
    tool().named(&"a".repeat(49)).reports(RuleId::ToolName, "");
    tool().named(&"a".repeat(48)).accepts(RuleId::ToolName);
    tool().named("Probe-tool_2").accepts(RuleId::ToolName);
}

#[test]
fn json_syntax() {
    for bad in [
        &b""[..],
        b"   ",
        b"[]",
        b"\"x\"",
        b"null",
        b"{\"a\": 1,}",
        b"{\"a\": 1} {}",
        b"{\"a\": 1, \"a\": 1}",
        b"{\"p\": {\"x\": 1, \"x\": 2}}",
        b"{\"a\": \"\xc3\x28\"}",
        b"\xef\xbb\xbf{}",
    ] {
        let report = check_bytes("probe", bad);
        assert_eq!(
            report.diagnostics.len(),
            1,
            "{bad:?}: {:#?}",
            report.diagnostics
        );
        let d = &report.diagnostics[0];
        assert_eq!(d.rule, RuleId::JsonSyntax, "{bad:?}");
        assert_eq!(d.pointer, "");
        assert!(d.location.is_some(), "{bad:?}");
        assert!(report.schema.is_none());
    }
    // Near miss: the same key in two different objects.
    let report = check_bytes("probe", br#"{"a": {"x": 1}, "b": {"x": 2}}"#);
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.rule != RuleId::JsonSyntax)
    );
    assert!(report.schema.is_some());
}

#[test]
fn json_syntax_messages_say_what_is_wrong() {
    for (text, said) in [
        (&b"[]"[..], "the top level is an array, not a JSON object"),
        (b" 12", "the top level is a number, not a JSON object"),
        (b"\xef\xbb\xbf{}", "the file starts with a byte order mark"),
        (b"", "the file is empty"),
        (b"{\"a\": \"\xff\"}", "not valid UTF-8"),
        (b"{} {}", "trailing characters"),
    ] {
        let report = check_bytes("probe", text);
        let message = &report.diagnostics[0].message;
        assert!(message.contains(said), "{text:?}: {message}");
    }
}

#[test]
fn json_syntax_duplicate_key_is_located() {
    let report = check_bytes("probe", b"{\n  \"a\": 1,\n  \"a\": 2\n}");
    assert_eq!(report.diagnostics[0].rule, RuleId::JsonSyntax);
    assert_eq!(
        report.diagnostics[0].location,
        Some(Location { line: 3, column: 3 })
    );
    assert!(report.diagnostics[0].message.contains("duplicate key `a`"));
}

fn nested(levels: usize) -> String {
    format!(
        "{}{}",
        "{\"a\":".repeat(levels - 1) + "{",
        "}".repeat(levels)
    )
}

#[test]
fn depth_limit() {
    // Alone: not even `tool-name` joins it.
    let deep = check_bytes("bad.name", nested(129).as_bytes());
    assert_eq!(deep.diagnostics.len(), 1, "{:#?}", deep.diagnostics);
    assert_eq!(deep.diagnostics[0].rule, RuleId::DepthLimit);
    assert_eq!(deep.diagnostics[0].pointer, "");
    // Arrays count too, and the check runs before the parser (which would say json-syntax).
    let arrays = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
    assert_eq!(
        check_bytes("probe", arrays.as_bytes()).diagnostics[0].rule,
        RuleId::DepthLimit
    );
    // Even when the text is broken after the limit.
    let broken = format!("{{\"a\":{}", "[".repeat(500));
    let report = check_bytes("probe", broken.as_bytes());
    assert_eq!(report.diagnostics.len(), 1);
    assert_eq!(report.diagnostics[0].rule, RuleId::DepthLimit);

    // Near miss: exactly 128 levels parse (and get the ordinary rules, not depth-limit).
    let ok = check_bytes("probe", nested(128).as_bytes());
    assert!(ok.schema.is_some());
    assert!(
        ok.diagnostics
            .iter()
            .all(|d| d.rule != RuleId::DepthLimit && d.rule != RuleId::JsonSyntax)
    );
}

#[test]
fn depth_limit_on_size() {
    let mut big = b"{}".to_vec();
    big.resize(4 * 1024 * 1024 + 1, b' ');
    let report = check_bytes("probe", &big);
    assert_eq!(report.diagnostics.len(), 1);
    assert_eq!(report.diagnostics[0].rule, RuleId::DepthLimit);
    big.pop();
    let report = check_bytes("probe", &big);
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.rule != RuleId::DepthLimit)
    );
}

// --- section 2 ---------------------------------------------------------------------------

#[test]
fn schema_draft_uri() {
    tool()
        .set(
            "/$schema",
            json!("https://json-schema.org/draft/2020-12/schema"),
        )
        .reports_only(RuleId::SchemaDraft, &["/$schema"]);
    tool()
        .set("/$schema", json!("http://json-schema.org/draft-07/schema"))
        .reports(RuleId::SchemaDraft, "/$schema");
    // Near miss: `$schema` may be absent.
    tool().remove("/$schema").accepts(RuleId::SchemaDraft);
}

#[test]
fn schema_draft_meta_schema() {
    let t = tool()
        .set("/properties/query/type", json!("strin"))
        .reports(RuleId::SchemaDraft, "/properties/query/type");
    let d = t.message(RuleId::SchemaDraft);
    assert!(d.message.contains("did you mean `string`?"), "{d:?}");
    tool()
        .set("/properties/limit/minimum", json!("1"))
        .set("/properties/query/maxLength", json!(-1))
        .reports(RuleId::SchemaDraft, "/properties/limit/minimum")
        .reports(RuleId::SchemaDraft, "/properties/query/maxLength");
    tool()
        .set("/required", json!("query"))
        .reports(RuleId::SchemaDraft, "/required");
    // Pointers escape `~` and `/` in keys, and locate the key in the file.
    let t = tool().set("/properties/a~1b~0c", json!({"type": 5}));
    let d = t.message(RuleId::SchemaDraft);
    assert_eq!(d.pointer, "/properties/a~1b~0c/type");
    let text = serde_json::to_vec_pretty(&t.schema).expect("serializes");
    let located = check_bytes("probe_tool", &text);
    assert!(!located.diagnostics.is_empty());
    assert!(
        located
            .diagnostics
            .iter()
            .all(|d| d.pointer == "/properties/a~1b~0c/type" && d.location.is_some())
    );
    // Near miss: unknown keywords and vendor extensions are valid draft-07.
    tool()
        .set("/properties/query/x-ui-hint", json!({"any": "thing"}))
        .set("/properties/query/maxLength", json!(0))
        .accepts(RuleId::SchemaDraft);
}

#[test]
fn root_type() {
    tool()
        .set("/type", json!("array"))
        .reports(RuleId::RootType, "/type");
    tool()
        .set("/type", json!(["object", "null"]))
        .reports(RuleId::RootType, "/type");
    tool().remove("/type").reports(RuleId::RootType, "");
    tool()
        .set("/type", json!("object"))
        .accepts(RuleId::RootType);
}

#[test]
fn root_closed() {
    tool()
        .set("/additionalProperties", json!(true))
        .reports(RuleId::RootClosed, "/additionalProperties");
    tool()
        .set("/additionalProperties", json!({}))
        .reports(RuleId::RootClosed, "/additionalProperties");
    tool()
        .remove("/additionalProperties")
        .reports(RuleId::RootClosed, "");
    tool().accepts(RuleId::RootClosed);
}

#[test]
fn root_composition() {
    tool()
        .set("/patternProperties", json!({"^x-": {"type": "string"}}))
        .reports(RuleId::RootComposition, "/patternProperties");
    tool()
        .set("/$ref", json!("#/definitions/input"))
        .set("/definitions/input", json!({"type": "object"}))
        .reports(RuleId::RootComposition, "/$ref");
    tool()
        .set(
            "/allOf",
            json!([{"required": ["query"]}, {"properties": {"extra": {}}}]),
        )
        .reports_only(RuleId::RootComposition, &["/allOf/1"]);
    tool()
        .set("/if", json!({"properties": {"query": {"const": "a"}}}))
        .set("/then", json!({"required": ["limit"]}))
        .reports_only(RuleId::RootComposition, &["/if"]);
    tool()
        .set(
            "/dependencies",
            json!({"query": {"properties": {"extra": {}}}}),
        )
        .reports(RuleId::RootComposition, "/dependencies/query");
    // Through nested composition.
    tool()
        .set(
            "/anyOf",
            json!([{"not": {"oneOf": [{}, {"properties": {"x": {}}}]}}]),
        )
        .reports(RuleId::RootComposition, "/anyOf/0");
    // Through a local `$ref`, with a reference cycle on the way.
    tool()
        .set("/oneOf", json!([{"$ref": "#/definitions/a"}]))
        .set(
            "/definitions/a",
            json!({"allOf": [{"$ref": "#/definitions/b"}]}),
        )
        .set(
            "/definitions/b",
            json!({"anyOf": [{"$ref": "#/definitions/a"}, {"properties": {"x": {}}}]}),
        )
        .reports_only(RuleId::RootComposition, &["/oneOf/0"]);

    // Near misses: branches that only require, or reach only property-less schemas.
    tool()
        .set(
            "/anyOf",
            json!([{"required": ["query"]}, {"required": ["limit"]}]),
        )
        .set("/not", json!({"required": ["limit"]}))
        .set("/oneOf", json!([{"$ref": "#/definitions/needs"}]))
        .set("/definitions/needs", json!({"required": ["query"]}))
        .set("/dependencies", json!({"limit": ["query"]}))
        .accepts(RuleId::RootComposition);
    // A nested `patternProperties` is not the root's.
    tool()
        .set(
            "/properties/tags",
            json!({"type": "object", "additionalProperties": false, "patternProperties": {"^t": {}}}),
        )
        .accepts(RuleId::RootComposition);
}

#[test]
fn required_undeclared() {
    tool()
        .set("/required", json!(["query", "qurey"]))
        .reports_only(RuleId::RequiredUndeclared, &["/required/1"]);
    tool()
        .set(
            "/properties/filter",
            json!({"type": "object", "additionalProperties": false,
                   "properties": {"a": {}}, "required": ["a", "b"]}),
        )
        .reports_only(
            RuleId::RequiredUndeclared,
            &["/properties/filter/required/1"],
        );
    // An open bag with no properties may require nothing.
    tool()
        .set(
            "/properties/meta",
            json!({"type": "object", "additionalProperties": true, "required": ["k"]}),
        )
        .reports(RuleId::RequiredUndeclared, "/properties/meta/required/0");
    // A branch may require only what its own schema or the holder declares.
    tool()
        .set(
            "/anyOf",
            json!([{"required": ["query"]}, {"required": ["nope"]}]),
        )
        .reports_only(RuleId::RequiredUndeclared, &["/anyOf/1/required/0"]);
    tool()
        .set("/dependencies", json!({"limit": {"required": ["nope"]}}))
        .reports_only(
            RuleId::RequiredUndeclared,
            &["/dependencies/limit/required/0"],
        );
    // A `definitions` entry is its own object, not a branch of the root.
    tool()
        .set(
            "/definitions/d",
            json!({"type": "object", "additionalProperties": false, "required": ["query"]}),
        )
        .reports(RuleId::RequiredUndeclared, "/definitions/d/required/0");

    // Near misses.
    tool()
        .set("/required", json!(["query", "limit"]))
        .set(
            "/anyOf",
            json!([{"required": ["query"]}, {"not": {"required": ["limit"]}}]),
        )
        .set("/dependencies", json!({"limit": {"required": ["query"]}}))
        .set(
            "/properties/filter",
            json!({"type": "object", "additionalProperties": false,
                   "properties": {"kind": {"type": "string"}, "a": {}},
                   "oneOf": [{"properties": {"kind": {"const": "x"}}, "required": ["kind", "a"]}]}),
        )
        .accepts(RuleId::RequiredUndeclared);
    // Inside a default or an enum, `required` is data, not a keyword.
    tool()
        .set("/properties/query/default", json!({"required": ["nope"]}))
        .accepts(RuleId::RequiredUndeclared);
}

#[test]
fn reserved_input_key() {
    tool()
        .set("/properties/userId", json!({"type": "string"}))
        .set("/properties/session", json!({"type": "string"}))
        .reports_only(
            RuleId::ReservedInputKey,
            &["/properties/userId", "/properties/session"],
        );
    tool()
        .set("/properties/priority", json!({"type": "integer"}))
        .reports(RuleId::ReservedInputKey, "/properties/priority");
    // Near misses: other cases, and the same names nested.
    tool()
        .set("/properties/UserId", json!({"type": "string"}))
        .set("/properties/user_id", json!({"type": "string"}))
        .set(
            "/properties/members",
            json!({"type": "array", "items": {"type": "object", "additionalProperties": false,
                "properties": {"userId": {"type": "string"}, "priority": {"type": "integer"}}}}),
        )
        .accepts(RuleId::ReservedInputKey);
}

#[test]
fn default_invalid() {
    // A default outside its enum, an example of the wrong type, a default that breaks a
    // nested bound: each at its own pointer.
    tool()
        .set(
            "/properties/urgency",
            json!({"type": "string", "enum": ["low", "high"], "default": "medium"}),
        )
        .set("/properties/query/examples", json!(["fine", 3]))
        .set(
            "/properties/page",
            json!({"type": "object", "additionalProperties": false,
                "properties": {"size": {"type": "integer", "maximum": 50, "default": 100}}}),
        )
        .reports_only(
            RuleId::DefaultInvalid,
            &[
                "/properties/query/examples/1",
                "/properties/urgency/default",
                "/properties/page/properties/size/default",
            ],
        );
    // Through `definitions` and the root's own `$ref: "#"`: references still resolve.
    tool()
        .set(
            "/definitions/Level",
            json!({"type": "string", "enum": ["low", "high"]}),
        )
        .set(
            "/properties/level",
            json!({"allOf": [{"$ref": "#/definitions/Level"}], "default": "medium"}),
        )
        .reports_only(RuleId::DefaultInvalid, &["/properties/level/default"]);
    // A default object of a closed nested object with a key it does not declare.
    tool()
        .set(
            "/properties/page",
            json!({"type": "object", "additionalProperties": false,
                "properties": {"size": {"type": "integer"}}, "default": {"sise": 1}}),
        )
        .reports(RuleId::DefaultInvalid, "/properties/page/default");
    // Near misses: valid defaults and examples, through a reference too; a `default`
    // inside an `enum` value or another default is data, not a schema.
    tool()
        .set(
            "/definitions/Level",
            json!({"type": "string", "enum": ["low", "high"]}),
        )
        .set(
            "/properties/level",
            json!({"allOf": [{"$ref": "#/definitions/Level"}], "default": "low", "examples": ["high"]}),
        )
        .set(
            "/properties/tree",
            json!({"type": "object", "additionalProperties": false,
                "properties": {"child": {"$ref": "#"}},
                "default": {"child": {"query": "x"}}}),
        )
        .set("/properties/limit/default", json!(5))
        .set(
            "/properties/blob",
            json!({"enum": [{"default": 3}], "default": {"default": 3}}),
        )
        .accepts(RuleId::DefaultInvalid);
    // A warning: the file still loads.
    let found = tool().set("/properties/limit/default", json!(0)).check();
    assert!(
        found
            .iter()
            .all(|d| d.rule != RuleId::DefaultInvalid || !d.is_error())
    );
}

// --- section 4 ---------------------------------------------------------------------------

#[test]
fn xn_missing() {
    tool()
        .remove("/x-neuralis")
        .reports_only(RuleId::XnMissing, &[""])
        .accepts(RuleId::CategoryMissing);
    tool()
        .set("/x-neuralis", json!({"annotations": {"category": "read"}}))
        .accepts(RuleId::XnMissing);
}

#[test]
fn open_object_implicit() {
    tool()
        .set(
            "/properties/filter",
            json!({"type": "object", "properties": {"a": {}}}),
        )
        .reports_only(RuleId::OpenObjectImplicit, &["/properties/filter"]);
    tool()
        .set(
            "/properties/list",
            json!({"type": "array", "items": {"properties": {"a": {}}}}),
        )
        .reports(RuleId::OpenObjectImplicit, "/properties/list/items");
    tool()
        .set("/definitions/thing", json!({"type": ["object", "null"]}))
        .reports(RuleId::OpenObjectImplicit, "/definitions/thing");
    // Near misses: explicit either way, composition branches, and the root (root-closed).
    tool()
        .set(
            "/properties/meta",
            json!({"type": "object", "additionalProperties": true}),
        )
        .set(
            "/properties/closed",
            json!({"type": "object", "additionalProperties": false, "properties": {"a": {}},
                   "oneOf": [{"properties": {"a": {"const": 1}}}]}),
        )
        .set(
            "/properties/map",
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
        )
        .set("/properties/query/default", json!({"type": "object"}))
        .accepts(RuleId::OpenObjectImplicit);
    tool()
        .remove("/additionalProperties")
        .accepts(RuleId::OpenObjectImplicit);
}

#[test]
fn xn_unknown_key() {
    let t = tool()
        .set("/x-neuralis/familly", json!("probe"))
        .set("/x-neuralis/annotations/readonlyHint", json!(true))
        .set("/x-neuralis/ui/colour", json!("red"))
        .set("/x-neuralis/requires/feature", json!(["a"]))
        .reports_only(
            RuleId::XnUnknownKey,
            &[
                "/x-neuralis/familly",
                "/x-neuralis/annotations/readonlyHint",
                "/x-neuralis/ui/colour",
                "/x-neuralis/requires/feature",
            ],
        );
    let d = t
        .check()
        .into_iter()
        .find(|d| d.pointer == "/x-neuralis/annotations/readonlyHint")
        .expect("reported");
    assert_eq!(d.hint, "did you mean `readOnlyHint`?");
    assert!(d.message.contains("`readonlyHint`"), "{}", d.message);
    // Near miss: every known key, at every level, and any key inside `defaults`.
    tool()
        .set(
            "/x-neuralis",
            json!({
                "family": "f", "operation": "o", "transport": "embedded",
                "defaults": {"query": "x"},
                "annotations": {"title": "t", "readOnlyHint": false, "destructiveHint": true,
                    "idempotentHint": true, "openWorldHint": false, "category": "write",
                    "estimatedDurationMs": 10, "cancellable": true},
                "ui": {"presentation": "card", "cardType": "c", "icon": "i"},
                "requires": {"features": ["a"], "escalations": ["b"]},
                "askOnKeys": ["query"]
            }),
        )
        .clean();
}

#[test]
fn xn_recovery_field() {
    tool()
        .set("/x-neuralis/recovery", json!("retry"))
        .set("/x-neuralis/annotations/recoveryPolicy", json!("x"))
        .set("/x-neuralis/ui/RecoveryHint", json!("x"))
        .reports_only(
            RuleId::XnRecoveryField,
            &[
                "/x-neuralis/recovery",
                "/x-neuralis/annotations/recoveryPolicy",
                "/x-neuralis/ui/RecoveryHint",
            ],
        )
        // Its own message takes precedence over xn-unknown-key.
        .accepts(RuleId::XnUnknownKey);
    // Near misses: a property named `recovery` in `defaults` (and in the input), and `recover`.
    tool()
        .set("/properties/recoveryCode", json!({"type": "string"}))
        .set("/x-neuralis/defaults", json!({"recoveryCode": "abc"}))
        .accepts(RuleId::XnRecoveryField);
    tool()
        .set("/x-neuralis/recover", json!(true))
        .accepts(RuleId::XnRecoveryField)
        .reports(RuleId::XnUnknownKey, "/x-neuralis/recover");
}

#[test]
fn xn_type() {
    tool()
        .set("/x-neuralis", json!(null))
        .reports_only(RuleId::XnType, &["/x-neuralis"])
        .accepts(RuleId::XnMissing);
    tool()
        .set("/x-neuralis", json!(["annotations"]))
        .reports_only(RuleId::XnType, &["/x-neuralis"]);
    tool()
        .set("/x-neuralis/family", json!(1))
        .set("/x-neuralis/defaults", json!([]))
        .set("/x-neuralis/askOnKeys", json!(["query", 3]))
        .set("/x-neuralis/annotations/readOnlyHint", json!("false"))
        .set("/x-neuralis/annotations/estimatedDurationMs", json!(-5))
        .set("/x-neuralis/ui/presentation", json!("modal"))
        .set("/x-neuralis/ui/icon", json!(null))
        .set("/x-neuralis/requires/features", json!(["a", "", "a", 1]))
        .set("/x-neuralis/requires/escalations", json!("admin"))
        .reports_only(
            RuleId::XnType,
            &[
                "/x-neuralis/family",
                "/x-neuralis/defaults",
                "/x-neuralis/askOnKeys/1",
                "/x-neuralis/annotations/readOnlyHint",
                "/x-neuralis/annotations/estimatedDurationMs",
                "/x-neuralis/ui/presentation",
                "/x-neuralis/ui/icon",
                "/x-neuralis/requires/features/1",
                "/x-neuralis/requires/features/2",
                "/x-neuralis/requires/features/3",
                "/x-neuralis/requires/escalations",
            ],
        );
    tool()
        .set("/x-neuralis/ui", json!("card"))
        .reports_only(RuleId::XnType, &["/x-neuralis/ui"]);
    // Near misses.
    tool()
        .set("/x-neuralis/annotations/estimatedDurationMs", json!(0))
        .set("/x-neuralis/requires/features", json!([]))
        .set("/x-neuralis/ui/presentation", json!("explored"))
        .accepts(RuleId::XnType);
}

#[test]
fn category_missing() {
    tool()
        .remove("/x-neuralis/annotations/category")
        .reports_only(RuleId::CategoryMissing, &["/x-neuralis/annotations"]);
    tool()
        .remove("/x-neuralis/annotations")
        .reports_only(RuleId::CategoryMissing, &["/x-neuralis"]);
    tool()
        .set("/x-neuralis/annotations/category", json!("unknown"))
        .accepts(RuleId::CategoryMissing);
}

#[test]
fn category_invalid() {
    let t = tool()
        .set("/x-neuralis/annotations/category", json!("Write"))
        .reports(RuleId::CategoryInvalid, "/x-neuralis/annotations/category");
    assert!(t.message(RuleId::CategoryInvalid).hint.contains("`write`"));
    tool()
        .set("/x-neuralis/annotations/category", json!(3))
        .reports(RuleId::CategoryInvalid, "/x-neuralis/annotations/category");
    for category in [
        "read",
        "write",
        "execute",
        "network",
        "machine",
        "credential",
        "admin",
        "unknown",
    ] {
        tool()
            .set("/x-neuralis/annotations/category", json!(category))
            .accepts(RuleId::CategoryInvalid);
    }
}

#[test]
fn defaults_undeclared() {
    tool()
        .set(
            "/x-neuralis/defaults",
            json!({"query": "x", "pageSize": 10}),
        )
        .reports_only(
            RuleId::DefaultsUndeclared,
            &["/x-neuralis/defaults/pageSize"],
        );
    tool()
        .set("/x-neuralis/defaults", json!({"limit": 0}))
        .reports_only(RuleId::DefaultsUndeclared, &["/x-neuralis/defaults/limit"]);
    tool()
        .set("/x-neuralis/defaults", json!({"limit": "10"}))
        .reports(RuleId::DefaultsUndeclared, "/x-neuralis/defaults/limit");
    // Through a local `$ref`, and deep inside the value.
    tool()
        .set(
            "/definitions/pair",
            json!({"type": "array", "items": {"type": "integer"}}),
        )
        .set("/properties/pair", json!({"$ref": "#/definitions/pair"}))
        .set("/x-neuralis/defaults", json!({"pair": [1, "two"]}))
        .reports_only(RuleId::DefaultsUndeclared, &["/x-neuralis/defaults/pair/1"]);
    // Through a `$ref` to another root property.
    tool()
        .set("/properties/max", json!({"$ref": "#/properties/limit"}))
        .set("/x-neuralis/defaults", json!({"max": -1}))
        .reports_only(RuleId::DefaultsUndeclared, &["/x-neuralis/defaults/max"]);
    // Near misses.
    tool()
        .set("/properties/max", json!({"$ref": "#/properties/limit"}))
        .set("/x-neuralis/defaults", json!({"max": 5}))
        .clean();
    tool()
        .set(
            "/definitions/pair",
            json!({"type": "array", "items": {"type": "integer"}}),
        )
        .set("/properties/pair", json!({"$ref": "#/definitions/pair"}))
        .set(
            "/x-neuralis/defaults",
            json!({"limit": 1, "query": "", "pair": [1, 2]}),
        )
        .clean();
}

/// A tool whose posture allows `askOnKeys`.
fn destructive() -> Tool {
    tool()
        .set("/x-neuralis/annotations/destructiveHint", json!(true))
        .set("/x-neuralis/annotations/category", json!("write"))
}

#[test]
fn askonkeys_posture() {
    tool()
        .set("/x-neuralis/askOnKeys", json!(["query"]))
        .reports_only(RuleId::AskonkeysPosture, &["/x-neuralis/askOnKeys"]);
    destructive()
        .set("/x-neuralis/annotations/category", json!("admin"))
        .set("/x-neuralis/askOnKeys", json!(["query"]))
        .reports(RuleId::AskonkeysPosture, "/x-neuralis/askOnKeys");
    for category in ["write", "execute", "network", "machine"] {
        destructive()
            .set("/x-neuralis/annotations/category", json!(category))
            .set("/x-neuralis/askOnKeys", json!(["query"]))
            .clean();
    }
}

fn props(n: usize) -> Tool {
    let mut t = destructive();
    for i in 0..n {
        t = t.set(&format!("/properties/k{i}"), json!({"type": "boolean"}));
    }
    t
}

#[test]
fn askonkeys_too_many() {
    let nine: Vec<String> = (0..9).map(|i| format!("k{i}")).collect();
    props(9)
        .set("/x-neuralis/askOnKeys", json!(nine))
        .reports_only(RuleId::AskonkeysTooMany, &["/x-neuralis/askOnKeys"]);
    // Near miss: exactly 8 distinct keys, even when one repeats.
    let mut eight: Vec<String> = (0..8).map(|i| format!("k{i}")).collect();
    props(8)
        .set("/x-neuralis/askOnKeys", json!(eight.clone()))
        .clean();
    eight.push("k0".to_owned());
    props(8)
        .set("/x-neuralis/askOnKeys", json!(eight))
        .accepts(RuleId::AskonkeysTooMany)
        .reports_only(RuleId::AskonkeysDuplicate, &["/x-neuralis/askOnKeys/8"]);
}

#[test]
fn askonkeys_duplicate() {
    destructive()
        .set("/x-neuralis/askOnKeys", json!(["query", "limit", "query"]))
        .reports_only(RuleId::AskonkeysDuplicate, &["/x-neuralis/askOnKeys/2"]);
    // Near miss: case matters.
    destructive()
        .set("/properties/Query", json!({"type": "string"}))
        .set("/x-neuralis/askOnKeys", json!(["query", "Query"]))
        .clean();
}

#[test]
fn askonkeys_undeclared() {
    let t = destructive()
        .set(
            "/x-neuralis/askOnKeys",
            json!(["query", "limitt", "members"]),
        )
        .reports_only(
            RuleId::AskonkeysUndeclared,
            &["/x-neuralis/askOnKeys/1", "/x-neuralis/askOnKeys/2"],
        );
    let hints: Vec<String> = t
        .check()
        .into_iter()
        .filter(|d| d.rule == RuleId::AskonkeysUndeclared)
        .map(|d| d.hint)
        .collect();
    assert_eq!(hints[0], "did you mean `limit`?");
    // No close name: the rule's own hint.
    assert_eq!(hints[1], "name a root property of this tool's input schema");
    // A nested property is not a root property; the hint says where it is.
    let t = destructive()
        .set(
            "/properties/filter",
            json!({"type": "object", "additionalProperties": false, "properties": {"force": {}}}),
        )
        .set("/x-neuralis/askOnKeys", json!(["force"]))
        .reports(RuleId::AskonkeysUndeclared, "/x-neuralis/askOnKeys/0");
    let hint = t
        .check()
        .into_iter()
        .find(|d| d.rule == RuleId::AskonkeysUndeclared)
        .map(|d| d.hint)
        .unwrap_or_default();
    assert!(
        hint.starts_with("it is a property of `filter`, one level down"),
        "{hint}"
    );
    destructive()
        .set("/x-neuralis/askOnKeys", json!(["limit"]))
        .accepts(RuleId::AskonkeysUndeclared);
}

#[test]
fn hints_contradict() {
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .set("/x-neuralis/annotations/destructiveHint", json!(true))
        .reports_only(RuleId::HintsContradict, &["/x-neuralis/annotations"]);
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .set("/x-neuralis/annotations/destructiveHint", json!(false))
        .accepts(RuleId::HintsContradict);
}

#[test]
fn description_missing() {
    tool()
        .remove("/description")
        .reports_only(RuleId::DescriptionMissing, &[""]);
    tool()
        .set("/description", json!("  "))
        .reports_only(RuleId::DescriptionMissing, &["/description"]);
    // Near miss: a title is not a description, but a description is enough.
    tool().remove("/title").accepts(RuleId::DescriptionMissing);
}

#[test]
fn presentation_implicit() {
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .remove("/x-neuralis/ui")
        .reports_only(
            RuleId::PresentationImplicit,
            &["/x-neuralis/annotations/readOnlyHint"],
        );
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .set("/x-neuralis/ui", json!({"icon": "x"}))
        .reports(
            RuleId::PresentationImplicit,
            "/x-neuralis/annotations/readOnlyHint",
        );
    // Near misses.
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .set("/x-neuralis/ui", json!({"cardType": "probe.card"}))
        .accepts(RuleId::PresentationImplicit);
    tool()
        .set("/x-neuralis/annotations/readOnlyHint", json!(true))
        .accepts(RuleId::PresentationImplicit);
    tool()
        .remove("/x-neuralis/ui")
        .accepts(RuleId::PresentationImplicit);
}

#[test]
fn card_type_unmatched() {
    let t = tool()
        .set("/x-neuralis/ui/cardType", json!("probe.reslt"))
        .cards(&["probe.result", "default"])
        .reports_only(RuleId::CardTypeUnmatched, &["/x-neuralis/ui/cardType"]);
    assert_eq!(
        t.message(RuleId::CardTypeUnmatched).hint,
        "did you mean `probe.result`?"
    );
    // Near misses: the card is declared, or the cards are not known.
    tool()
        .set("/x-neuralis/ui/cardType", json!("probe.result"))
        .cards(&["probe.result"])
        .accepts(RuleId::CardTypeUnmatched);
    tool()
        .set("/x-neuralis/ui/cardType", json!("probe.reslt"))
        .accepts(RuleId::CardTypeUnmatched);
}

// --- the report --------------------------------------------------------------------------

#[test]
fn all_violations_at_once_in_document_order() {
    let text = br#"{
  "type": "object",
  "properties": {
    "userId": { "type": "string" },
    "filter": { "type": "object" }
  },
  "required": ["nope"],
  "x-neuralis": {
    "annotations": { "category": "wrte" }
  }
}"#;
    let report = check_bytes("bad.name", text);
    type Seen<'a> = (RuleId, &'a str, Option<(usize, usize)>);
    let got: Vec<Seen<'_>> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.rule,
                d.pointer.as_str(),
                d.location.map(|l| (l.line, l.column)),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (RuleId::ToolName, "", None),
            (RuleId::RootClosed, "", Some((1, 1))),
            (RuleId::DescriptionMissing, "", Some((1, 1))),
            (RuleId::ReservedInputKey, "/properties/userId", Some((4, 5))),
            (
                RuleId::OpenObjectImplicit,
                "/properties/filter",
                Some((5, 5))
            ),
            (RuleId::RequiredUndeclared, "/required/0", Some((7, 16))),
            (
                RuleId::CategoryInvalid,
                "/x-neuralis/annotations/category",
                Some((9, 22))
            ),
        ]
    );
}

#[test]
fn deepest_schemas_do_not_exhaust_the_stack() {
    // 128 levels of schema keywords: the walk, `locate` and the meta-schema check all go
    // as deep as the reader allows.
    for open in ["{\"not\":", "{\"items\":[", "{\"properties\":{\"a\":"] {
        let per = open.matches(['{', '[']).count();
        let n = 127 / per;
        let close: String = open
            .chars()
            .rev()
            .filter_map(|c| match c {
                '{' => Some('}'),
                '[' => Some(']'),
                _ => None,
            })
            .collect();
        let text = format!("{}{{}}{}", open.repeat(n), close.repeat(n));
        let report = check_bytes("deep", text.as_bytes());
        assert!(report.schema.is_some(), "{open}: {:#?}", report.diagnostics);
        if open.contains("properties") {
            // The walk reached the bottom: every nested level warns.
            let warned = report
                .diagnostics
                .iter()
                .filter(|d| d.rule == RuleId::OpenObjectImplicit && d.location.is_some())
                .count();
            assert_eq!(warned, n - 1);
        }
    }
}

//! The emitter on small crates written to a temporary directory.

use neuralis_build::{Cfg, Profile, Summary};
use serde_json::Value;

mod common;
use common::Pkg;

/// A warning line: the rule id leads, the location follows.
fn warned(w: &[&str], rule: &str, at: &str) -> bool {
    w.iter()
        .any(|l| l.starts_with(&format!("{rule}: ")) && l.contains(at))
}

/// An error block: the rule id leads, `-->` points, the source line and a caret follow.
#[track_caller]
fn assert_block(m: &str, rule: &str, at: &str) {
    assert!(m.starts_with(&format!("error: {rule}: ")), "{m}");
    assert!(
        m.lines().nth(1).map(str::trim_start) == Some(at.trim_start()),
        "{at} on the second line:\n{m}"
    );
    assert!(
        m.lines()
            .any(|l| l.trim_start().starts_with('|') && l.contains('^')),
        "a caret: {m}"
    );
}

fn warnings(s: &Summary) -> Vec<&str> {
    s.cargo_lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo:warning="))
        .collect()
}

const WEATHER: &str = r#"
use neuralis::{ToolInput, tool};

mod input;
pub use input::WeatherForecast;

/// Forecast the weather for a city over the next few days.
#[tool(
    family = "weather",
    operation = "weather.forecast",
    transport = "embedded",
    defaults(days = 3),
    annotations(title = "Weather Forecast", read_only, destructive = false, category = "network",
                estimated_duration_ms = 2000),
    ui(presentation = "card", card_type = "weather.result", icon = "cloud-sun"),
    requires(features("weather.read")),
)]
pub async fn weather_forecast(input: WeatherForecast) -> String {
    String::new()
}
"#;

const WEATHER_INPUT: &str = r#"
use neuralis::ToolInput;

#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root, title = "Weather Forecast")]
pub struct WeatherForecast {
    /// City name, for example "Lisbon".
    #[schema(min_length = 1, max_length = 120)]
    pub city: String,
    /// Days ahead.
    #[schema(minimum = 1, maximum = 14)]
    pub days: Option<u8>,
}
"#;

fn weather() -> Pkg {
    Pkg::new(&[("src/lib.rs", WEATHER), ("src/input.rs", WEATHER_INPUT)])
}

#[test]
fn writes_the_seed_tool_and_is_byte_stable() {
    let pkg = weather();
    let first = pkg.run();
    assert_eq!(first.tools, ["weather_forecast"]);
    assert_eq!(first.written, [pkg.tool_path("weather_forecast")]);
    let seed: Value = serde_json::from_str(include_str!(
        "../../examples/weather/tools/weather_forecast.json"
    ))
    .expect("seed json");
    assert_eq!(pkg.tool("weather_forecast"), seed);
    let bytes = std::fs::read(pkg.tool_path("weather_forecast")).expect("bytes");
    assert_eq!(
        bytes,
        neuralis_core::schema::to_canonical_vec(&seed),
        "canonical bytes"
    );
    let report = neuralis_core::check_bytes("weather_forecast", &bytes);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);

    let second = pkg.run();
    assert!(
        second.written.is_empty(),
        "no write when the bytes are the same"
    );
    assert_eq!(
        std::fs::read(pkg.tool_path("weather_forecast")).expect("bytes"),
        bytes
    );
}

#[test]
fn reruns_on_every_source_file_and_the_tools_dir() {
    let pkg = weather();
    let s = pkg.run();
    let reruns: Vec<&str> = s
        .cargo_lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .collect();
    let root = pkg.path();
    assert!(reruns.contains(&root.join("src/lib.rs").to_str().expect("utf-8")));
    assert!(reruns.contains(&root.join("src/input.rs").to_str().expect("utf-8")));
    assert!(reruns.contains(&root.join("tools").to_str().expect("utf-8")));
}

/// The package table, without whitespace (it is written as tokens).
fn table(pkg: &Pkg) -> String {
    squash(&std::fs::read_to_string(pkg.path().join("out/neuralis_package.rs")).expect("table"))
}

fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn the_package_table_embeds_the_files() {
    let pkg = weather();
    pkg.run();
    let table = table(&pkg);
    assert!(table.contains(&squash(
        r#"("weather_forecast", "crate::weather_forecast", include_str!("#
    )));
    assert!(table.contains("weather_forecast.json"));
}

#[test]
fn a_doc_comment_edit_changes_the_description() {
    let pkg = weather();
    pkg.run();
    pkg.write(
        "src/lib.rs",
        &WEATHER.replace("Forecast the weather for", "Forecast rain in"),
    );
    let s = pkg.run();
    assert_eq!(s.written.len(), 1);
    assert_eq!(
        pkg.tool("weather_forecast")["description"],
        "Forecast rain in a city over the next few days."
    );
}

#[test]
fn include_str_docs_are_read_and_watched() {
    let pkg = weather();
    pkg.write(
        "src/input.rs",
        &WEATHER_INPUT.replace("/// Days ahead.", r#"#[doc = include_str!("days.md")]"#),
    );
    pkg.write("src/days.md", "Days ahead, from the file.\n");
    let s = pkg.run();
    assert_eq!(
        pkg.tool("weather_forecast")["properties"]["days"]["description"],
        "Days ahead, from the file."
    );
    let md = pkg.path().join("src/days.md");
    assert!(
        s.cargo_lines
            .contains(&format!("cargo:rerun-if-changed={}", md.display()))
    );
}

#[test]
fn reserved_root_key_skips_the_tool_and_leaves_it_to_the_compiler() {
    let pkg = weather();
    pkg.run();
    let before = std::fs::read(pkg.tool_path("weather_forecast")).expect("bytes");
    pkg.write(
        "src/input.rs",
        &WEATHER_INPUT.replace(
            "pub days: Option<u8>,",
            "pub days: Option<u8>,\n    pub user_id: String,",
        ),
    );
    let s = pkg.run();
    // The compiler reports the error: the build script says nothing (cargo would repeat
    // a warning of it when the crate fails to compile), and records the skip.
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    assert_eq!(s.skipped.len(), 1, "{:?}", s.skipped);
    assert!(
        s.skipped[0].starts_with("skipped weather_forecast: reserved-input-key: ")
            && s.skipped[0].contains(&pkg.at("src/input.rs", 14, 9)),
        "{}",
        s.skipped[0]
    );
    assert!(s.written.is_empty());
    assert_eq!(
        std::fs::read(pkg.tool_path("weather_forecast")).expect("bytes"),
        before,
        "the old file stays"
    );
    assert!(s.stale.is_empty(), "a skipped tool's file is not stale");
}

#[test]
fn a_nested_reserved_name_is_fine() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)]
        pub struct Member { pub user_id: String }
        #[derive(ToolInput)]
        #[serde(rename_all = "camelCase")]
        pub struct Team {
            /// The members.
            pub members: Vec<Member>,
        }
        /// List a team.
        #[tool(annotations(category = "write"))]
        fn team(input: Team) -> String { String::new() }
        "#,
    )]);
    let s = pkg.run();
    assert_eq!(s.tools, ["team"]);
    assert_eq!(
        pkg.tool("team")["properties"]["members"]["items"]["properties"]["user_id"]["type"],
        "string"
    );
}

#[test]
fn stale_files_are_reported_then_pruned() {
    let pkg = weather();
    pkg.write("tools/old_tool.json", "{}");
    // The output schemas `neuralis outputs` prints, where docs/changing.md puts them: not
    // a tool, not stale, never pruned.
    pkg.write("tools/outputs.json", r#"{"weather_forecast": null}"#);
    let s = pkg.run();
    let w = warnings(&s);
    assert!(
        w.iter().any(|l| l.starts_with("stale-tool-file: ")
            && l.contains(&format!(" --> {}", pkg.tool_path("old_tool").display()))),
        "{w:?}"
    );
    assert!(!w.iter().any(|l| l.contains("outputs.json")), "{w:?}");
    assert!(pkg.tool_path("old_tool").exists());
    let s = pkg.builder().prune(true).run().expect("ok");
    assert_eq!(s.removed, [pkg.tool_path("old_tool")]);
    assert!(!pkg.tool_path("old_tool").exists());
    assert!(pkg.tool_path("outputs").exists(), "outputs.json is kept");
    assert!(pkg.tool_path("weather_forecast").exists());
}

#[test]
fn duplicate_tool_is_an_error_naming_both() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"
            mod a;
            #[derive(ToolInput)] pub struct In { pub q: String }
            /// One.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn search(input: In) -> String { String::new() }
            "#,
        ),
        (
            "src/a.rs",
            r#"
            /// Two.
            #[tool(name = "search", annotations(category = "read"), ui(presentation = "inline"))]
            fn find(input: super::In) -> String { String::new() }
            /// Case matters.
            #[tool(name = "Search", annotations(category = "read"), ui(presentation = "inline"))]
            fn other(input: super::In) -> String { String::new() }
            "#,
        ),
    ]);
    let e = pkg.fail();
    assert_eq!(e.messages.len(), 1, "{e}");
    let m = &e.messages[0];
    assert!(
        m.contains("duplicate-tool: tool `search` is claimed by"),
        "{m}"
    );
    assert!(
        m.contains(&format!("`search` ({}:", pkg.shown("src/lib.rs"))),
        "{m}"
    );
    assert!(
        m.contains(&format!("`find` ({}:", pkg.shown("src/a.rs"))),
        "{m}"
    );
    assert_block(m, "duplicate-tool", &pkg.at("src/lib.rs", 6, 16));
    assert!(pkg.tool_path("Search").exists(), "`Search` is another tool");
    assert!(!pkg.tool_path("search").exists());
}

#[test]
fn an_unresolved_type_names_the_field_and_the_fix() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)]
        pub struct In {
            pub when: other_crate::When,
        }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    let e = pkg.fail();
    let m = &e.messages[0];
    assert!(
        m.starts_with("error: unsupported-type: cannot resolve type `other_crate::When` of field `when` in `In`"),
        "{m}"
    );
    assert_block(m, "unsupported-type", &pkg.at("src/lib.rs", 4, 23));
    assert!(
        m.contains("`other_crate` is neither a module of this crate nor a dependency"),
        "{m}"
    );
    assert!(
        m.contains("help: give the field `#[schema(with = T)]`")
            && m.contains("derive `ToolInput` on the type in its crate")
            && m.contains("feature"),
        "{m}"
    );
    assert!(!pkg.tool_path("act").exists());
}

#[test]
fn an_ambiguous_name_names_both_candidates() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"
            mod a; mod b;
            use a::*;
            use b::*;
            #[derive(ToolInput)]
            pub struct In { pub item: Item }
            /// Do it.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn act(input: In) -> String { String::new() }
            "#,
        ),
        (
            "src/a.rs",
            "#[derive(ToolInput)] pub struct Item { pub a: u8 }",
        ),
        (
            "src/b.rs",
            "#[derive(ToolInput)] pub struct Item { pub b: u8 }",
        ),
    ]);
    let m = pkg.fail().messages.join("\n");
    assert!(
        m.contains("type `Item` of field `item` in `In` is ambiguous"),
        "{m}"
    );
    assert!(
        m.contains(&format!(
            "`crate::a::Item` ({}:1:33)",
            pkg.shown("src/a.rs")
        )),
        "{m}"
    );
    assert!(
        m.contains(&format!(
            "`crate::b::Item` ({}:1:33)",
            pkg.shown("src/b.rs")
        )),
        "{m}"
    );

    // The path written decides.
    pkg.write(
        "src/lib.rs",
        &std::fs::read_to_string(pkg.path().join("src/lib.rs"))
            .expect("read")
            .replace("pub item: Item", "pub item: b::Item"),
    );
    pkg.run();
    assert!(pkg.tool("act")["properties"]["item"]["properties"]["b"].is_object());
}

#[test]
fn a_type_without_the_derive_is_named() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        pub struct Plain { pub a: u8 }
        #[derive(ToolInput)]
        pub struct In { pub plain: Plain }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    let m = pkg.fail().messages.join("\n");
    assert!(
        m.contains("type `Plain` of field `plain` in `In` does not derive `ToolInput`"),
        "{m}"
    );
    assert!(m.contains("add `#[derive(ToolInput)]` to `Plain`"), "{m}");
}

#[test]
fn features_decide_which_tools_exist() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct In { pub q: String }
        /// Always.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn always(input: In) -> String { String::new() }
        #[cfg(feature = "extra")]
        mod extra {
            /// Sometimes.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn sometimes(input: super::In) -> String { String::new() }
        }
        "#,
    )]);
    assert_eq!(pkg.run().tools, ["always"]);
    let mut cfg = Cfg::default();
    cfg.enable_feature("extra");
    let s = pkg.builder().cfg(cfg).run().expect("ok");
    assert_eq!(s.tools, ["always", "sometimes"]);
}

#[test]
fn warnings_carry_the_source_location() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"#[derive(ToolInput)]
pub struct In {
    pub q: String,
}
#[tool(annotations(read_only, category = "read"))]
fn look(input: In) -> String { String::new() }
"#,
    )]);
    let s = pkg.run();
    let w = warnings(&s);
    assert!(
        warned(&w, "description-missing", &pkg.at("src/lib.rs", 6, 4)),
        "{w:?}"
    );
    assert!(
        warned(&w, "presentation-implicit", &pkg.at("src/lib.rs", 5, 20)),
        "{w:?}"
    );
    assert_eq!(s.tools, ["look"], "warnings do not stop the tool");
}

#[test]
fn mcp_remote_errors_stop_the_build_and_warnings_point_at_the_field() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"#[derive(ToolInput)]
pub struct In {
    /// The tier.
    pub tier: String,
    /// How many.
    #[schema(minimum = 1)]
    pub count: u8,
}
/// Look.
#[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
fn look(input: In) -> String { String::new() }
"#,
    )]);
    let s = pkg
        .builder()
        .profile(Profile::McpRemote)
        .run()
        .expect("warnings only");
    let w = warnings(&s);
    assert!(
        warned(&w, "remote-entitlement", &pkg.at("src/lib.rs", 4, 9)),
        "{w:?}"
    );
    assert!(
        warned(&w, "remote-dropped", &pkg.at("src/lib.rs", 7, 9)),
        "{w:?}"
    );
    assert!(pkg.run().cargo_lines.iter().all(|l| !l.contains("remote-")));

    pkg.write(
        "src/lib.rs",
        &std::fs::read_to_string(pkg.path().join("src/lib.rs"))
            .expect("read")
            .replace("fn look(", "fn finish_turn("),
    );
    let e = pkg
        .builder()
        .profile(Profile::McpRemote)
        .run()
        .expect_err("a reserved remote name");
    let m = e
        .messages
        .iter()
        .find(|m| m.starts_with("error: remote-reserved-name: "))
        .expect("remote-reserved-name");
    assert_block(m, "remote-reserved-name", &pkg.at("src/lib.rs", 11, 4));
}

#[test]
fn the_macro_s_errors_skip_the_tool() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct In { pub q: String }
        /// Bad category.
        #[tool(annotations(category = "reading"))]
        fn bad(input: In) -> String { String::new() }
        /// Bad field.
        #[derive(ToolInput)] pub struct Worse { #[schema(minimum = 3, maximum = 1)] pub n: u8 }
        /// Uses it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn worse(input: Worse) -> String { String::new() }
        "#,
    )]);
    let s = pkg.run();
    assert!(
        warnings(&s).is_empty(),
        "the compiler reports them: {:?}",
        warnings(&s)
    );
    assert_eq!(s.skipped.len(), 2, "{:?}", s.skipped);
    assert!(
        s.skipped
            .iter()
            .any(|l| l.starts_with("skipped bad: category-invalid: ")
                && l.contains(&pkg.at("src/lib.rs", 4, 39))),
        "{:?}",
        s.skipped
    );
    assert!(
        s.skipped
            .iter()
            .any(|l| l.starts_with("skipped worse: schema-attr: ")
                && l.contains(&pkg.at("src/lib.rs", 7, 71))),
        "{:?}",
        s.skipped
    );
    assert!(s.tools.is_empty());
}

#[test]
fn generics_recursion_and_aliases_follow_the_run_time_impls() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct Page<T> { pub items: Vec<T>, pub next: Option<String> }
        #[derive(ToolInput)] pub struct Node { pub name: String, pub children: Vec<Node> }
        pub type Tags = std::collections::BTreeSet<String>;
        #[derive(ToolInput)] pub struct In { pub page: Page<u8>, pub tree: Node, pub tags: Tags }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    pkg.run();
    let doc = pkg.tool("act");
    assert_eq!(
        doc["properties"]["page"]["properties"]["items"]["items"]["maximum"],
        255
    );
    assert_eq!(
        doc["properties"]["tree"]["properties"]["children"]["items"]["$ref"],
        "#/definitions/Node"
    );
    assert_eq!(
        doc["definitions"]["Node"]["properties"]["children"]["items"]["$ref"],
        "#/definitions/Node"
    );
    assert_eq!(doc["properties"]["tags"]["uniqueItems"], true);
}

/// The build script writes the documented values' meanings as the derive does
/// (`tests/snapshots/meanings.json`): after the enum's own description, and after a
/// field's, also when that is only known from a file (`include_str!`).
#[test]
fn variant_meanings_follow_the_run_time_composition() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"
        /// How loudly to alert.
        #[derive(ToolInput)]
        #[serde(rename_all = "snake_case")]
        pub enum Level {
            /// Paging the on-call engineer.
            Page,
            /// A message in the [team channel](https://example.com/chat).
            ///
            /// Never at night.
            Notify,
            Log,
            #[schema(description = "Nothing at all.")]
            Silent,
        }
        #[derive(ToolInput)]
        pub struct In {
            /// The field's own words, then the values' meanings.
            pub level: Level,
            pub bare: Level,
            #[doc = include_str!("level.md")]
            pub filed: Level,
        }
        /// Alert.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn alert(input: In) -> String { String::new() }
        "#,
        ),
        ("src/level.md", "From the file.\n"),
    ]);
    pkg.run();
    let p = &pkg.tool("alert")["properties"];
    let meanings = "`page`: Paging the on-call engineer; `notify`: A message in the team channel; `silent`: Nothing at all.";
    assert_eq!(
        p["level"]["description"],
        format!("The field's own words, then the values' meanings.\n\n{meanings}")
    );
    assert_eq!(
        p["bare"]["description"],
        format!("How loudly to alert.\n\n{meanings}")
    );
    assert_eq!(
        p["filed"]["description"],
        format!("From the file.\n\n{meanings}")
    );
    assert_eq!(
        p["level"]["enum"],
        serde_json::json!(["page", "notify", "log", "silent"])
    );
}

#[test]
fn a_crate_without_tools_creates_nothing_and_watches_no_missing_path() {
    let pkg = Pkg::new(&[("src/lib.rs", "pub fn plain() {}")]);
    let s = pkg.run();
    assert!(s.tools.is_empty());
    assert!(!pkg.path().join("tools").exists());
    let tools = pkg.path().join("tools");
    assert!(
        !s.cargo_lines
            .contains(&format!("cargo:rerun-if-changed={}", tools.display())),
        "{:?}",
        s.cargo_lines
    );
    assert!(s.cargo_lines.contains(&format!(
        "cargo:rerun-if-changed={}",
        pkg.path().join("src/lib.rs").display()
    )));
}

#[test]
fn the_table_names_a_renamed_neuralis_crate() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        mod inner {
            #[derive(ToolInput)] pub struct In { pub q: String }
            /// Look.
            #[tool(crate = "::renamed", annotations(category = "read"), ui(presentation = "inline"))]
            pub fn look(input: In) -> String { String::new() }
        }
        "#,
    )]);
    pkg.run();
    let table = table(&pkg);
    assert!(
        table.contains(&squash(
            "pub static TOOLS: &[&::renamed::__private::ToolDescriptor]"
        )),
        "{table}"
    );
    assert!(
        table.contains(&squash("&crate::inner::__neuralis_tool_look]")),
        "{table}"
    );
    assert!(!table.contains("::neuralis::"), "{table}");
}

#[test]
fn nested_warnings_point_at_the_nested_field() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"mod parts;
#[derive(ToolInput)]
pub struct In {
    /// The rows.
    pub rows: Vec<parts::Row>,
}
/// Look.
#[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
fn look(input: In) -> String { String::new() }
"#,
        ),
        (
            "src/parts.rs",
            r#"/// A row.
#[derive(ToolInput)]
pub struct Row {
    /// A count.
    #[schema(maximum = 9)]
    pub count: u8,
}
"#,
        ),
    ]);
    let s = pkg
        .builder()
        .profile(Profile::McpRemote)
        .run()
        .expect("warnings only");
    let w = warnings(&s);
    assert!(
        w.iter().any(|l| l.starts_with("remote-dropped: ")
            && l.contains(&pkg.at("src/parts.rs", 6, 9))
            && l.contains("/properties/rows/items/properties/count/")),
        "{w:?}"
    );
}

#[test]
fn cfg_attr_and_cfg_fields_are_read_as_rustc_reads_them() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)]
        #[cfg_attr(feature = "loud", serde(rename_all = "UPPERCASE"))]
        pub struct In {
            /// Always.
            pub always: String,
            #[cfg(feature = "loud")]
            pub loud_only: bool,
            #[cfg(not(feature = "loud"))]
            pub quiet_only: bool,
        }
        /// Do it.
        #[cfg_attr(feature = "loud", tool(annotations(category = "read"), ui(presentation = "inline")))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    let s = pkg.run();
    assert!(s.tools.is_empty(), "no `#[tool]` without the feature");
    let mut cfg = Cfg::default();
    cfg.enable_feature("loud");
    let s = pkg.builder().cfg(cfg).run().expect("ok");
    assert_eq!(s.tools, ["act"]);
    let props = pkg.tool("act")["properties"].clone();
    let keys: Vec<&String> = props.as_object().expect("properties").keys().collect();
    assert_eq!(keys, ["ALWAYS", "LOUD_ONLY"]);
}

#[test]
fn a_crate_type_shadows_a_well_known_name() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        mod net { #[derive(ToolInput)] pub struct Url { pub host: String } }
        use net::Url;
        #[derive(ToolInput)]
        pub struct In { pub site: Url, pub other: url::Url }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    pkg.run();
    let doc = pkg.tool("act");
    assert_eq!(
        doc["properties"]["site"]["properties"]["host"]["type"],
        "string"
    );
    assert_eq!(doc["properties"]["other"]["format"], "uri");
}

#[test]
fn a_contract_error_fails_the_build_instead_of_dropping_the_tool() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)]
        pub enum Urgency { Low, High }
        #[derive(ToolInput)]
        pub struct Issue { pub title: String, pub urgency: Option<Urgency> }
        /// Create an issue.
        #[tool(defaults(urgency = "medium"), annotations(category = "write"), ui(presentation = "inline"))]
        fn issue_create(input: Issue) -> String { String::new() }
        "#,
    )]);
    let e = pkg.fail();
    let m = e.messages.join("\n");
    assert_eq!(e.messages.len(), 1, "{m}");
    assert_block(&m, "defaults-undeclared", &pkg.at("src/lib.rs", 7, 35));
    assert!(m.contains("urgency"), "{m}");
    assert!(e.summary.skipped.is_empty(), "never a silent skip");
    // The near miss: a member of the enum.
    pkg.write(
        "src/lib.rs",
        &std::fs::read_to_string(pkg.path().join("src/lib.rs"))
            .expect("read")
            .replace("\"medium\"", "\"High\""),
    );
    assert_eq!(pkg.run().tools, ["issue_create"]);
}

#[test]
fn errors_are_reported_in_line_order_each_once_with_their_help() {
    // `alpha` comes first by name, last in the file; both tools take `In`, whose field
    // cannot be resolved: one error for it, not one per tool.
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"#[derive(ToolInput)]
pub struct In { pub when: other_crate::When }
/// Zeta.
#[tool(defaults(nope = 1), annotations(category = "read"), ui(presentation = "inline"))]
fn zeta(input: Plain) -> String { String::new() }
/// Beta.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn beta(input: In) -> String { String::new() }
/// Alpha.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn alpha(input: In) -> String { String::new() }
#[derive(ToolInput)]
pub struct Plain { pub n: u8 }
"#,
    )]);
    let e = pkg.fail();
    assert_eq!(e.messages.len(), 2, "{e}");
    assert_block(
        &e.messages[0],
        "unsupported-type",
        &pkg.at("src/lib.rs", 2, 27),
    );
    assert_block(
        &e.messages[1],
        "defaults-undeclared",
        &pkg.at("src/lib.rs", 4, 24),
    );
    for m in &e.messages {
        assert_eq!(m.matches("= help: ").count(), 1, "{m}");
    }
    // The report is every diagnostic in that order: here the errors alone.
    assert_eq!(e.report, e.messages.join("\n"));
    assert_eq!(e.to_string(), e.report);
}

#[test]
fn an_invalid_name_does_not_make_the_last_good_file_stale() {
    let source = |name: &str| {
        format!(
            r#"
        #[derive(ToolInput)] pub struct In {{ pub q: String }}
        /// Look.
        #[tool(name = "{name}", annotations(category = "read"), ui(presentation = "inline"))]
        fn look(input: In) -> String {{ String::new() }}
        "#
        )
    };
    let pkg = Pkg::new(&[("src/lib.rs", &source("look_up"))]);
    pkg.run();
    pkg.write("src/lib.rs", &source("look up"));
    let s = pkg.run();
    let w = warnings(&s);
    assert!(
        w.is_empty(),
        "the compiler reports it, and nothing is stale: {w:?}"
    );
    assert_eq!(s.skipped.len(), 1, "{:?}", s.skipped);
    assert!(
        s.skipped[0].starts_with("skipped look up: tool-name: "),
        "{:?}",
        s.skipped
    );
    assert!(s.stale.is_empty(), "{:?}", s.stale);
    assert!(
        pkg.tool_path("look_up").exists(),
        "the last good file stays"
    );
}

#[test]
fn another_crate_s_type_is_never_a_local_namesake() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"
            mod local;
            mod tools;
            "#,
        ),
        (
            "src/local.rs",
            "#[derive(ToolInput)] pub struct Item { pub local: u8 }",
        ),
        (
            "src/tools.rs",
            r#"use ext::Item;
#[derive(ToolInput)]
pub struct In { pub item: Item }
/// Do it.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn act(input: In) -> String { String::new() }
"#,
        ),
    ]);
    let m = pkg.fail().messages.join("\n");
    assert_block(&m, "unsupported-type", &pkg.at("src/tools.rs", 3, 27));
    assert!(
        m.contains("type `Item` of field `item` in `In`") && m.contains("`use ext::Item`"),
        "{m}"
    );
    // A well-known name from another crate is not the well-known type either.
    pkg.write(
        "src/tools.rs",
        r#"use ext::Uuid;
#[derive(ToolInput)]
pub struct In { pub id: Uuid }
/// Do it.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn act(input: In) -> String { String::new() }
"#,
    );
    let m = pkg.fail().messages.join("\n");
    assert!(m.contains("`Uuid` here is `ext::Uuid`"), "{m}");
    // The near miss: the crate's own type, by its path.
    pkg.write(
        "src/tools.rs",
        r#"use crate::local::Item;
#[derive(ToolInput)]
pub struct In { pub item: Item, pub id: uuid::Uuid }
/// Do it.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn act(input: In) -> String { String::new() }
"#,
    );
    pkg.run();
    assert!(pkg.tool("act")["properties"]["item"]["properties"]["local"].is_object());
}

#[test]
fn an_unresolvable_generic_argument_is_reported_at_its_use() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct Page<T> { pub items: Vec<T> }
        #[derive(ToolInput)] pub struct In { pub spans: Page<std::ops::Range<u8>> }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    let m = pkg.fail().messages.join("\n");
    assert_block(&m, "unsupported-type", &pkg.at("src/lib.rs", 3, 57));
    assert!(m.contains("of field `spans` in `In`"), "{m}");
}

#[test]
fn recursive_generics_are_named_as_at_run_time() {
    let pkg = Pkg::new(&[
        (
            "src/lib.rs",
            r#"
            mod b;
            #[derive(ToolInput)]
            pub struct Page<T> { pub items: Vec<T>, pub next: Option<Box<Page<T>>> }
            #[derive(ToolInput)] pub struct In { pub page: Page<b::Item> }
            /// Do it.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn act(input: In) -> String { String::new() }
            "#,
        ),
        (
            "src/b.rs",
            "#[derive(ToolInput)] pub struct Item { pub n: u8 }",
        ),
    ]);
    pkg.run();
    let doc = pkg.tool("act");
    assert!(doc["definitions"]["Page<Item>"].is_object(), "{doc:#}");
    assert_eq!(
        doc["properties"]["page"]["properties"]["next"]["$ref"],
        "#/definitions/Page%3CItem%3E"
    );
}

/// The names `tests/golden.rs` (`definitions_are_named_from_the_types_as_written`) pins
/// for the derive, from the same source.
#[test]
fn definitions_are_named_from_the_types_as_written() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        pub mod a {
            #[derive(neuralis::ToolInput)]
            pub struct Node { pub next: Option<Box<Node>> }
        }
        pub mod b {
            #[derive(neuralis::ToolInput)]
            pub struct Node { pub children: Vec<Node> }
        }
        #[derive(ToolInput)]
        pub struct Page<T> { pub items: Vec<T>, pub next: Option<Box<Page<T>>> }
        #[derive(ToolInput)]
        pub struct In { pub a: a::Node, pub b: b::Node, pub page: Page<Vec<b::Node>> }
        /// Do it.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn act(input: In) -> String { String::new() }
        "#,
    )]);
    pkg.run();
    let doc = pkg.tool("act");
    let names: Vec<&String> = doc["definitions"]
        .as_object()
        .map(|d| d.keys().collect())
        .unwrap_or_default();
    assert_eq!(names, ["Node", "Node2", "Page<Vec<Node>>"], "{doc:#}");
    let p = &doc["properties"];
    assert_eq!(p["a"]["properties"]["next"]["$ref"], "#/definitions/Node");
    assert_eq!(
        p["b"]["properties"]["children"]["items"]["$ref"],
        "#/definitions/Node2"
    );
    assert_eq!(
        p["page"]["properties"]["next"]["$ref"],
        "#/definitions/Page%3CVec%3CNode%3E%3E"
    );
}

const SERVICES: &str = r#"
use neuralis::{ToolInput, tool, tools};

mod store;

#[derive(ToolInput, Deserialize)] pub struct In { pub q: String }

/// A free function beside the services.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
fn ping(input: In) -> String { String::new() }

pub struct Tracker;

#[tools]
impl Tracker {
    /// Count a thing.
    #[tool(annotations(category = "write"))]
    pub fn count(&self, input: In) -> u64 { 0 }

    fn helper(&self) {}
}

#[neuralis::tools]
impl Tracker {
    /// Reset, asynchronously.
    #[tool(name = "tracker-reset", annotations(category = "write", cancellable))]
    pub async fn reset(&self, input: In, abort: AbortSignal) -> u64 { 0 }

    #[cfg(feature = "off")]
    /// Only with a feature.
    #[tool(annotations(category = "read"), ui(presentation = "inline"))]
    pub fn hidden(&self, input: In) -> u64 { 0 }
}
"#;

const STORE: &str = r#"
use super::In;

pub struct Notes;

mod inline {
    #[neuralis::tools]
    impl super::Notes {
        /// List the notes (a method named like `Tracker`'s free neighbour).
        #[tool(name = "notes_list", annotations(read_only, category = "read"), ui(presentation = "inline"))]
        pub fn count(&self, input: super::In) -> u64 { 0 }
    }
}
"#;

#[test]
fn tool_methods_are_emitted_and_named_in_the_table() {
    let pkg = Pkg::new(&[("src/lib.rs", SERVICES), ("src/store.rs", STORE)]);
    let s = pkg.run();
    assert_eq!(s.tools, ["count", "notes_list", "ping", "tracker-reset"]);
    assert!(warnings(&s).is_empty(), "{:?}", warnings(&s));
    let count = pkg.tool("count");
    assert_eq!(count["description"], "Count a thing.");
    assert_eq!(count["properties"]["q"]["type"], "string");
    assert_eq!(
        pkg.tool("tracker-reset")["x-neuralis"]["annotations"]["cancellable"],
        true
    );
    assert!(
        !pkg.tool_path("hidden").exists(),
        "`#[cfg]` on a method is read"
    );
    let table = table(&pkg);
    for line in [
        r#"("count", "crate::Tracker::count", include_str!("#,
        r#"("notes_list", "crate::store::inline::Notes::count", include_str!("#,
        "&crate::__neuralis_tool_Tracker__count",
        "&crate::__neuralis_tool_Tracker__reset",
        "&crate::store::inline::__neuralis_tool_Notes__count",
        "&crate::__neuralis_tool_ping",
        r#"pub const SERVICES: &[&str] = &["Tracker", "super::Notes"];"#,
    ] {
        assert!(table.contains(&squash(line)), "{line} in:\n{table}");
    }
    assert!(table.contains(&squash("fn drift_notes_list()")), "{table}");
    syn::parse_file(
        &std::fs::read_to_string(pkg.path().join("out/neuralis_package.rs")).expect("table"),
    )
    .expect("the table is Rust");

    let mut on = Cfg::default();
    on.enable_feature("off");
    let s = pkg.builder().cfg(on).run().expect("no errors");
    assert!(s.tools.contains(&"hidden".to_owned()), "{:?}", s.tools);
}

#[test]
fn a_method_and_a_function_claiming_one_name_are_duplicate_tools() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct In { pub q: String }
        /// One.
        #[tool(annotations(category = "read"), ui(presentation = "inline"))]
        fn search(input: In) -> String { String::new() }
        pub struct Index;
        #[tools]
        impl Index {
            /// Two.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn search(&self, input: In) -> String { String::new() }
        }
        "#,
    )]);
    let e = pkg.fail();
    assert_eq!(e.messages.len(), 1, "{e}");
    let m = &e.messages[0];
    assert!(
        m.contains("duplicate-tool: tool `search` is claimed by"),
        "{m}"
    );
    assert!(
        m.contains(&format!("`Index::search` ({}:", pkg.shown("src/lib.rs"))),
        "{m}"
    );
}

#[test]
fn methods_the_macros_refuse_are_skipped_with_one_line_each() {
    let pkg = Pkg::new(&[(
        "src/lib.rs",
        r#"
        #[derive(ToolInput)] pub struct In { pub q: String }
        pub struct Notes;
        impl Notes {
            /// No marker.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn unmarked(&self, input: In) -> String { String::new() }
            /// No marker, no receiver.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn bare(input: In) -> String { String::new() }
        }
        #[tools]
        impl Notes {
            /// Mutable.
            #[tool(annotations(category = "write"))]
            fn mutable(&mut self, input: In) -> String { String::new() }
        }
        #[tools]
        impl Clone for Notes {
            /// In a trait impl.
            #[tool(annotations(category = "read"), ui(presentation = "inline"))]
            fn traited(&self, input: In) -> String { String::new() }
        }
        "#,
    )]);
    let s = pkg.run();
    assert!(s.tools.is_empty(), "{:?}", s.tools);
    assert!(
        warnings(&s).is_empty(),
        "the compiler reports them: {:?}",
        warnings(&s)
    );
    let w = &s.skipped;
    for (name, what) in [
        ("unmarked", "needs `#[neuralis::tools]` on its impl"),
        ("bare", "needs `#[neuralis::tools]` on the impl"),
        ("mutable", "not `&mut self`"),
        ("traited", "not a trait impl"),
    ] {
        assert!(
            w.iter().any(
                |l| l.starts_with(&format!("skipped {name}: handler-signature: "))
                    && l.contains(&format!(" --> {}:", pkg.shown("src/lib.rs")))
                    && l.contains(what)
            ),
            "{name}: {w:?}"
        );
    }
}

const PLAN: &str = r#"
use neuralis::{ToolInput, tool};

/// The input of `plan`.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Plan {
    /// The plan's name.
    #[schema(min_length = 1, max_length = 40, pattern = "^[a-z]+$")]
    pub name: String,
    /// How many steps.
    #[schema(maximum = 9)]
    pub count: Option<u32>,
}

/// Plan something.
#[tool(annotations(category = "read", read_only), ui(presentation = "inline"))]
pub fn plan(input: Plan) -> String {
    input.name
}
"#;

/// The package's manifest naming every provider's dialect, and `allow_weakened` when given.
fn plan_manifest(allow: &str) -> String {
    format!(
        "[package]\nname = \"plan\"\nversion = \"0.1.0\"\n\n[package.metadata.neuralis]\ndialects = [\"openai\", \"anthropic\", \"gemini\"]\n{allow}"
    )
}

/// `dialect-weakened` says each field once per dialect (its keywords together), nothing
/// of a bound the type implies and the author did not write (`Option<u32>`'s `minimum:
/// 0`), and a line per dialect sums the run up; `allow_weakened` in the manifest silences
/// a dialect, or (`true`) every one.
#[test]
fn dialect_warnings_once_per_field_and_dialect_with_a_summary() {
    let pkg = Pkg::new(&[("src/lib.rs", PLAN), ("Cargo.toml", &plan_manifest(""))]);
    let s = pkg.run();
    let w = warnings(&s);
    let weakened: Vec<&&str> = w
        .iter()
        .filter(|l| l.starts_with("dialect-weakened: "))
        .collect();
    assert!(!weakened.is_empty(), "{w:#?}");
    assert!(
        !weakened.iter().any(|l| l.contains("`minimum`")),
        "the type's own bound is not the author's: {weakened:#?}"
    );
    for provider in ["openai", "anthropic", "gemini"] {
        let mine: Vec<&&&str> = weakened
            .iter()
            .filter(|l| l.starts_with(&format!("dialect-weakened: {provider} ")))
            .collect();
        let mut places: Vec<&str> = mine
            .iter()
            .map(|l| l.rsplit(" --> ").next().expect("a place"))
            .collect();
        let all = places.len();
        places.sort_unstable();
        places.dedup();
        assert_eq!(
            places.len(),
            all,
            "one line per field for {provider}: {mine:#?}"
        );
        let summary = w
            .iter()
            .find(|l| l.starts_with(&format!("{provider}: ")))
            .unwrap_or_else(|| panic!("a summary for {provider}: {w:#?}"));
        assert!(
            summary.contains("said in words") && summary.ends_with(", 0 refused"),
            "{summary}"
        );
    }
    // Several keywords of one field: one line naming them all.
    assert!(
        weakened.iter().any(|l| l.contains("`, `")),
        "a field with several keywords said in words: {weakened:#?}"
    );

    pkg.write(
        "Cargo.toml",
        &plan_manifest("allow_weakened = [\"anthropic\"]\n"),
    );
    let w2 = pkg.run();
    let w2 = warnings(&w2);
    assert!(
        !w2.iter()
            .any(|l| l.starts_with("dialect-weakened: anthropic ")),
        "{w2:#?}"
    );
    assert!(w2.iter().any(|l| l.starts_with("dialect-weakened: openai ")
        || l.starts_with("dialect-weakened: gemini ")));
    pkg.write("Cargo.toml", &plan_manifest("allow_weakened = true\n"));
    let w3 = pkg.run();
    assert!(
        !warnings(&w3)
            .iter()
            .any(|l| l.starts_with("dialect-weakened: ")),
        "{:#?}",
        warnings(&w3)
    );
    pkg.write(
        "Cargo.toml",
        &plan_manifest("allow_weakened = [\"cohere\"]\n"),
    );
    let e = pkg.fail();
    assert!(e.to_string().contains("`cohere`"), "{e}");
}

const FEATURED: &str = r#"
use neuralis::{ToolInput, tool};

/// The input of `status`.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Status {
    /// The service.
    pub service: String,
}

/// Say how a service is.
#[tool(annotations(category = "read", read_only), ui(presentation = "inline"))]
pub fn status(input: Status) -> String {
    input.service
}

/// Deploy a service.
#[cfg(feature = "deploy")]
#[tool(annotations(category = "write", destructive), ui(presentation = "inline"))]
pub fn deploy(input: Status) -> String {
    input.service
}
"#;

/// A tool behind a cargo feature: built with the feature, its file is written; built
/// without it, the file is neither stale nor pruned, and a warning at the handler says it
/// is compiled out (cargo replays it on every build of that feature set).
#[test]
fn a_tool_behind_a_feature_keeps_its_file_and_says_so() {
    let pkg = Pkg::new(&[("src/lib.rs", FEATURED)]);
    let mut with = Cfg::default();
    with.enable_feature("deploy");
    let s = pkg.builder().cfg(with).run().expect("ok");
    assert_eq!(s.tools, ["deploy", "status"]);
    assert!(pkg.tool_path("deploy").exists());
    let s = pkg.builder().prune(true).run().expect("ok");
    assert_eq!(s.tools, ["status"]);
    assert!(s.removed.is_empty() && s.stale.is_empty(), "{s:?}");
    assert!(pkg.tool_path("deploy").exists(), "kept");
    let w = warnings(&s);
    assert!(
        w.iter().any(|l| l
            .contains("`deploy` is compiled out in this build (#[cfg(feature = \"deploy\")])")
            && l.contains(&pkg.at("src/lib.rs", 21, 8))),
        "{w:#?}"
    );
    assert!(
        !w.iter().any(|l| l.starts_with("stale-tool-file: ")),
        "{w:#?}"
    );
}

//! Types of other crates: each crate's run publishes its type table to its `OUT_DIR`,
//! and a dependent's run reads the tables it is given (in a build script, cargo's
//! `DEP_<LINKS>_NEURALIS_TABLE`) and the source they point to. The crates are written to
//! temporary directories with their `Cargo.toml`, and run in process.

use std::path::{Path, PathBuf};

use neuralis_build::{Builder, Cfg, Error, Summary};
use serde_json::{Value, json};

struct Pkg {
    dir: tempfile::TempDir,
}

impl Pkg {
    /// A package named `name` with `deps` (lines of its `[dependencies]`) and `lib`.
    fn new(name: &str, deps: &str, lib: &str) -> Self {
        let pkg = Self {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        pkg.write(
            "Cargo.toml",
            &format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\n[dependencies]\n{deps}\n"
            ),
        );
        pkg.write("src/lib.rs", lib);
        pkg
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
        std::fs::write(p, text).expect("write");
    }

    fn builder(&self, deps: &[&Pkg]) -> Builder {
        Builder::new()
            .manifest_dir(self.path())
            .out_dir(self.path().join("out"))
            .cfg(Cfg::default())
            .dependency_tables(deps.iter().map(|d| d.table()))
    }

    /// Runs the emitter as the crate's build script would, given its dependencies'
    /// tables (each dependency has run before).
    fn run(&self, deps: &[&Pkg]) -> Summary {
        self.builder(deps).run().expect("no errors")
    }

    fn fail(&self, deps: &[&Pkg]) -> Error {
        self.builder(deps).run().expect_err("an error")
    }

    fn table(&self) -> PathBuf {
        self.path().join("out/neuralis_table.json")
    }

    fn tool(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.path().join(format!("tools/{name}.json")))
            .expect("the tool file");
        serde_json::from_str(&text).expect("json")
    }
}

const TYPES: &str = r#"
use neuralis::ToolInput;
use serde::Deserialize;

pub mod paging;
pub use paging::Paging;

/// Who did it.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Actor {
    /// The actor's id.
    #[schema(min_length = 1)]
    pub actor_id: String,
    /// How the actor is shown.
    pub display_name: Option<String>,
}

/// A label's color.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color { Red, Green }

/// A label.
#[derive(ToolInput, Deserialize)]
pub struct Label {
    /// Its name.
    pub name: String,
    /// Its color.
    pub color: Color,
}

/// Not an input.
pub struct Plain { pub a: u8 }
"#;

const PAGING: &str = r#"
use neuralis::ToolInput;

/// Which page.
#[derive(ToolInput, serde::Deserialize)]
pub struct Paging {
    /// The page, from 1.
    #[schema(minimum = 1)]
    pub page: Option<u32>,
    /// Items a page.
    #[schema(minimum = 1, maximum = 100)]
    pub page_size: Option<u8>,
}
"#;

fn types() -> Pkg {
    let t = Pkg::new("tracker-types", "neuralis = \"0.1\"\nserde = \"1\"", TYPES);
    t.write("src/paging.rs", PAGING);
    t.run(&[]);
    t
}

fn tools(deps: &str, body: &str) -> Pkg {
    Pkg::new(
        "tracker-tools",
        &format!("neuralis = \"0.1\"\nserde = \"1\"\n{deps}"),
        &format!("use neuralis::{{ToolInput, tool}};\n{body}"),
    )
}

const TOOL: &str = r#"
/// Open an issue.
#[tool(annotations(category = "write"), ui(presentation = "inline"))]
pub fn issue_open(input: Open) -> String { String::new() }
"#;

#[test]
fn a_dependency_s_types_nest_and_flatten_as_local_ones() {
    let t = types();
    let table: Value =
        serde_json::from_str(&std::fs::read_to_string(t.table()).expect("the table"))
            .expect("json");
    assert_eq!(table["package"], "tracker-types");
    assert_eq!(table["lib"], "tracker_types");
    assert_eq!(
        table["externs"]["serde"],
        json!({ "package": "serde", "table": null })
    );

    let p = tools(
        "tracker-types = { path = \"../types\" }",
        &format!(
            r#"
use tracker_types::{{Actor, Paging}};

#[derive(ToolInput, serde::Deserialize)]
pub struct Open {{
    /// The title.
    pub title: String,
    /// Who opens it.
    pub reporter: Actor,
    /// Its labels.
    pub labels: Vec<tracker_types::Label>,
    #[serde(flatten)]
    pub paging: Paging,
}}
{TOOL}"#
        ),
    );
    let s = p.run(&[&t]);
    assert_eq!(s.tools, ["issue_open"]);
    let doc = p.tool("issue_open");
    let props = &doc["properties"];
    assert_eq!(
        props["reporter"],
        json!({
            "type": "object",
            "description": "Who opens it.",
            "properties": {
                "actorId": { "type": "string", "description": "The actor's id.", "minLength": 1 },
                "displayName": { "type": "string", "description": "How the actor is shown." }
            },
            "required": ["actorId"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        props["labels"]["items"]["properties"]["color"]["enum"],
        json!(["red", "green"])
    );
    assert_eq!(props["page_size"]["maximum"], 100, "flattened: {doc:#}");
    assert_eq!(doc["required"], json!(["title", "reporter", "labels"]));
    // The dependency's source files and its table are watched.
    let reruns: Vec<&str> = s
        .cargo_lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .collect();
    for f in [
        t.path().join("src/lib.rs"),
        t.path().join("src/paging.rs"),
        t.table(),
        p.path().join("Cargo.toml"),
    ] {
        assert!(
            reruns.contains(&f.to_str().expect("utf-8")),
            "{f:?} in {reruns:?}"
        );
    }
}

#[test]
fn a_renamed_dependency_goes_by_its_key() {
    let t = types();
    let open = r#"
#[derive(ToolInput, serde::Deserialize)]
pub struct Open { pub reporter: types::Actor, #[serde(flatten)] pub paging: types::Paging }
"#;
    let p = tools(
        "types = { package = \"tracker-types\", path = \"../types\" }",
        &format!("{open}{TOOL}"),
    );
    p.run(&[&t]);
    let doc = p.tool("issue_open");
    assert_eq!(
        doc["properties"]["reporter"]["required"],
        json!(["actorId"])
    );
    assert!(doc["properties"]["page"].is_object());

    // Under its package's name it is not a dependency of this crate: the compiler
    // reports the path, the build script says which dependency it means, once, and
    // leaves the tool (and its last good file) alone.
    let before = std::fs::read(p.path().join("tools/issue_open.json")).expect("the file");
    p.write(
        "src/lib.rs",
        &format!(
            "use neuralis::{{ToolInput, tool}};\n{}{TOOL}",
            open.replace("types::Actor", "tracker_types::Actor")
        ),
    );
    let s = p.run(&[&t]);
    let warnings: Vec<&str> = s
        .cargo_lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo:warning="))
        .collect();
    let at = p.path().join("src/lib.rs");
    assert_eq!(
        warnings,
        [format!(
            "`tracker_types` is not a dependency of this package: Cargo.toml renames `tracker-types` to `types`; write `types::Actor` --> {}:4:33",
            at.display()
        )],
        "one warning, at the field"
    );
    assert!(s.tools.is_empty() && s.skipped.len() == 1, "{s:?}");
    assert_eq!(
        std::fs::read(p.path().join("tools/issue_open.json")).expect("the file"),
        before
    );
}

#[test]
fn a_use_of_a_renamed_dependency_s_package_name_is_left_to_the_compiler() {
    let t = types();
    let p = tools(
        "stock = { package = \"tracker-types\", path = \"../types\" }",
        &format!(
            r#"
use tracker_types::{{Actor, Paging}};
use serde::Deserialize;

#[derive(ToolInput, Deserialize)]
pub struct Open {{ pub reporter: Actor, pub paging: Paging }}
{TOOL}
#[derive(ToolInput, Deserialize)]
pub struct Close {{ pub by: Actor }}

/// Close an issue.
#[tool(annotations(category = "write"), ui(presentation = "inline"))]
pub fn issue_close(input: Close) -> String {{ String::new() }}

#[derive(ToolInput, Deserialize)]
pub struct Typo {{ pub value: serd::Value }}

/// A typo in a crate's name.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn typo(input: Typo) -> String {{ String::new() }}

#[derive(ToolInput, Deserialize)]
pub struct Nothing {{ pub thing: nosuchcrate::Thing }}

/// A crate that is no dependency at all.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn nothing(input: Nothing) -> String {{ String::new() }}
"#
        ),
    );
    let s = p.run(&[&t]);
    let warnings: Vec<&str> = s
        .cargo_lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo:warning="))
        .collect();
    let at = p.path().join("src/lib.rs").display().to_string();
    // One warning for the `use` that two tools need, at its first segment, in line order.
    assert_eq!(
        warnings,
        [
            format!(
                "`tracker_types` is not a dependency of this package: Cargo.toml renames `tracker-types` to `stock`; write `stock::Actor` --> {at}:3:5"
            ),
            format!(
                "`serd` is not a dependency of this package: did you mean `serde::Value`? --> {at}:21:30"
            ),
            format!(
                "`nosuchcrate` is not a dependency of this package: add it to `[dependencies]` in Cargo.toml, or fix the path --> {at}:28:33"
            ),
        ]
    );
    assert!(s.tools.is_empty(), "{:?}", s.tools);
    assert_eq!(s.skipped.len(), 4, "{:?}", s.skipped);

    // Without a manifest the build script cannot know the dependencies: the old error.
    std::fs::remove_file(p.path().join("Cargo.toml")).expect("rm");
    let e = p.fail(&[&t]);
    assert!(
        e.messages.iter().all(|m| m.contains("unsupported-type")),
        "{e}"
    );
}

#[test]
fn a_re_export_chain_is_followed_to_the_crate_that_defines_the_type() {
    let t = types();
    // `common` re-exports `tracker-types` under other names, two hops deep.
    let common = Pkg::new(
        "common",
        "base = { package = \"tracker-types\", path = \"../types\" }",
        r#"
pub use base::Actor as Person;
pub mod prelude {
    pub use crate::Person;
    pub use base::paging::*;
}
"#,
    );
    common.run(&[&t]);
    let p = tools(
        "common = { path = \"../common\" }",
        &format!(
            r#"
use common::prelude::*;

#[derive(ToolInput, serde::Deserialize)]
pub struct Open {{ pub who: Person, pub paging: Paging, pub also: common::Person }}
{TOOL}"#
        ),
    );
    // Only `common`'s table is handed over: `tracker-types` is reached through it.
    p.run(&[&common]);
    let doc = p.tool("issue_open");
    assert_eq!(doc["properties"]["who"]["required"], json!(["actorId"]));
    assert_eq!(doc["properties"]["also"], doc["properties"]["who"]);
    assert_eq!(
        doc["properties"]["paging"]["properties"]["page_size"]["maximum"],
        100
    );
}

#[test]
fn a_name_in_two_crates_is_an_error_naming_both() {
    let a = Pkg::new(
        "types-a",
        "",
        "#[derive(ToolInput)]\npub struct Paging { pub page: u32 }\n",
    );
    a.run(&[]);
    let b = Pkg::new(
        "types-b",
        "",
        "#[derive(ToolInput)]\npub struct Paging { pub cursor: String }\nstruct Private;\n",
    );
    b.run(&[]);
    let body = |field: &str| {
        format!(
            "use types_a::*;\nuse types_b::*;\n#[derive(ToolInput)]\npub struct Open {{ pub paging: {field} }}\n{TOOL}"
        )
    };
    let deps = "types-a = { path = \"../a\" }\ntypes-b = { path = \"../b\" }";
    let p = tools(deps, &body("Paging"));
    let m = p.fail(&[&a, &b]).messages.join("\n");
    assert!(
        m.contains(
            "type `Paging` of field `paging` in `Open` is ambiguous: it names `types_a::Paging` ("
        ) && m.contains("and `types_b::Paging` ("),
        "{m}"
    );
    let a_file = a.path().join("src/lib.rs");
    assert!(m.contains(&format!("{}:2:12", a_file.display())), "{m}");
    assert!(m.contains("help: write the full path"), "{m}");

    // The path written decides.
    p.write(
        "src/lib.rs",
        &format!(
            "use neuralis::{{ToolInput, tool}};\n{}",
            body("types_b::Paging")
        ),
    );
    p.run(&[&a, &b]);
    assert!(p.tool("issue_open")["properties"]["paging"]["properties"]["cursor"].is_object());
}

#[test]
fn a_foreign_type_that_derives_nothing_is_a_clean_error() {
    let t = types();
    let p = tools(
        "tracker-types = { path = \"../types\" }\nplain-types = \"1\"",
        &format!(
            "#[derive(ToolInput)]\npub struct Open {{ pub plain: tracker_types::Plain }}\n{TOOL}"
        ),
    );
    let e = p.fail(&[&t]);
    assert_eq!(e.messages.len(), 1, "{e}");
    let m = &e.messages[0];
    let at = format!("{}:", t.path().join("src/lib.rs").display());
    assert!(
        m.starts_with("error: unsupported-type: type `tracker_types::Plain` of field `plain` in `Open` does not derive `ToolInput` (")
            && m.contains(&at)
            && m.contains(&format!("--> {}:3:30\n", p.path().join("src/lib.rs").display())),
        "{m}"
    );
    assert!(
        m.contains("help: add `#[derive(ToolInput)]` to `Plain` in crate `tracker_types`"),
        "{m}"
    );

    // A dependency that publishes no table.
    p.write(
        "src/lib.rs",
        &format!(
            "use neuralis::{{ToolInput, tool}};\nuse plain_types::Thing;\n#[derive(ToolInput)]\npub struct Open {{ pub thing: Thing }}\n{TOOL}"
        ),
    );
    let e = p.fail(&[&t]);
    let m = &e.messages[0];
    assert!(
        m.starts_with("error: unsupported-type: cannot resolve type `Thing` of field `thing` in `Open`: it is `plain_types::Thing` (`use plain_types::Thing`), a type of `plain-types`, which publishes no type table the build script can read\n")
            && m.contains(&format!("--> {}:4:30\n", p.path().join("src/lib.rs").display())),
        "{m}"
    );
    for fix in [
        "`#[schema(with = T)]`",
        "derive `ToolInput` on the type in its crate",
        "`links`",
        "feature",
    ] {
        assert!(m.contains(fix), "{fix}: {m}");
    }
    assert!(!m.contains("panicked"), "{m}");
}

#[test]
fn a_dependency_is_read_with_its_own_features() {
    let t = Pkg::new(
        "flagged",
        "",
        r#"
#[derive(ToolInput)]
pub struct Opts {
    pub always: bool,
    #[cfg(feature = "extra")]
    pub extra: bool,
}
"#,
    );
    let mut cfg = Cfg::default();
    cfg.enable_feature("extra");
    t.builder(&[]).cfg(cfg).run().expect("ok");
    let p = tools(
        "flagged = { path = \"../flagged\", features = [\"extra\"] }",
        &format!("#[derive(ToolInput)]\npub struct Open {{ pub opts: flagged::Opts }}\n{TOOL}"),
    );
    p.run(&[&t]);
    let props = p.tool("issue_open")["properties"]["opts"]["properties"].clone();
    assert!(
        props["extra"].is_object(),
        "the dependency's feature: {props:#}"
    );
    t.run(&[]);
    p.run(&[&t]);
    assert!(p.tool("issue_open")["properties"]["opts"]["properties"]["extra"].is_null());
}

#[test]
fn a_private_item_is_not_seen_through_a_glob() {
    let t = Pkg::new(
        "hidden",
        "",
        "#[derive(ToolInput)]\nstruct Paging { pub page: u32 }\npub mod public { #[derive(ToolInput)] pub struct Paging { pub cursor: String } }\nuse public::Paging as Alias;\n",
    );
    t.run(&[]);
    let p = tools(
        "hidden = { path = \"../hidden\" }",
        &format!(
            "use hidden::*;\nuse hidden::public::*;\n#[derive(ToolInput)]\npub struct Open {{ pub paging: Paging }}\n{TOOL}"
        ),
    );
    p.run(&[&t]);
    assert!(p.tool("issue_open")["properties"]["paging"]["properties"]["cursor"].is_object());
    // `Alias` is a private import of `hidden`: not in scope here.
    p.write(
        "src/lib.rs",
        &format!("use neuralis::{{ToolInput, tool}};\nuse hidden::*;\n#[derive(ToolInput)]\npub struct Open {{ pub paging: Alias }}\n{TOOL}"),
    );
    let m = p.fail(&[&t]).messages.join("\n");
    assert!(m.contains("cannot resolve type `Alias`"), "{m}");
}

#[test]
fn a_dependency_s_own_tools_are_not_the_dependent_s() {
    // A crate with types and a tool of its own (a free function and a method).
    let lib = format!(
        r#"{TYPES}
#[derive(ToolInput, Deserialize)]
pub struct Ping {{ pub id: String }}

/// Ping.
#[neuralis::tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn types_ping(input: Ping) -> String {{ input.id }}

pub struct Svc;

#[neuralis::tools]
impl Svc {{
    /// Pong.
    #[tool(annotations(category = "read"), ui(presentation = "inline"))]
    pub fn types_pong(&self, input: Ping) -> String {{ input.id }}
}}
"#
    );
    let t = Pkg::new("tracker-types", "neuralis = \"0.1\"\nserde = \"1\"", &lib);
    t.write("src/paging.rs", PAGING);
    let own = t.run(&[]);
    assert_eq!(own.tools, ["types_ping", "types_pong"]);
    let p = tools(
        "tracker-types = { path = \"../types\" }",
        &format!(
            r#"
#[derive(ToolInput, serde::Deserialize)]
pub struct Open {{ pub reporter: tracker_types::Actor }}
{TOOL}"#
        ),
    );
    let s = p.run(&[&t]);
    assert_eq!(s.tools, ["issue_open"], "only the package's own tools");
    assert!(!p.path().join("tools/types_ping.json").exists());
}

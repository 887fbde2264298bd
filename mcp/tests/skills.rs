//! The skills a package ships (MCP's skills extension, SEP-2640), served in both eras over
//! stdio and read on the wire: the extension declared with `directoryRead`, `skills/list`
//! and `skills/get` with each file's SHA-256 digest and size, `resources/read` of each file
//! (text or base64), each `SKILL.md` in `resources/list` before a handler's resources, and
//! `resources/directory/read` of a skill's folders; `-32602` for what no skill has.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::dispatch::{BuildProblem, Package, SessionContext};
use neuralis_core::skill::{Skill, SkillFile};
use neuralis_mcp::McpServer;
use rmcp::model::{
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

mod common;

const MANIFEST: &[u8] =
    b"---\nname: release-notes\ndescription: Write release notes.\nmetadata:\n  author: us\n---\n\n# Release notes\n";
const KINDS: &[u8] = b"# Kinds\n";
const LOGO: &[u8] = &[0x89, b'P', b'N', b'G', 0, 1, 2, 3];

static SKILLS: &[Skill] = &[Skill {
    name: "release-notes",
    frontmatter: r#"{"name":"release-notes","description":"Write release notes.","metadata":{"author":"us"}}"#,
    files: &[
        SkillFile {
            path: "SKILL.md",
            bytes: MANIFEST,
        },
        SkillFile {
            path: "assets/logo.png",
            bytes: LOGO,
        },
        SkillFile {
            path: "references/KINDS.md",
            bytes: KINDS,
        },
    ],
}];

fn package() -> Package {
    common::greeter_builder().skills(SKILLS).build().unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

const ROOT: &str = "skill://release-notes";
const SKILL_MD: &str = "skill://release-notes/SKILL.md";

/// What every era answers alike: the list and one skill, each file, the folders.
async fn assert_served(lines: &mut common::Lines, params: &dyn Fn(Value) -> Value) {
    let mut ask =
        async |method: &str, p: Value| lines.send(method, params(p), &|_| json!({})).await.1;
    let listed = ask("skills/list", json!({})).await;
    let skills = listed["result"]["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 1, "{listed}");
    assert_eq!(skills[0]["uri"], SKILL_MD);
    assert_eq!(
        skills[0]["frontmatter"],
        json!({"name": "release-notes", "description": "Write release notes.", "metadata": {"author": "us"}})
    );
    assert_eq!(
        skills[0]["resources"],
        json!([
            {"uri": SKILL_MD, "digest": sha256(MANIFEST), "size": MANIFEST.len()},
            {"uri": format!("{ROOT}/assets/logo.png"), "digest": sha256(LOGO), "size": LOGO.len()},
            {"uri": format!("{ROOT}/references/KINDS.md"), "digest": sha256(KINDS), "size": KINDS.len()},
        ])
    );
    assert!(listed["result"].get("nextCursor").is_none(), "{listed}");

    let got = ask("skills/get", json!({"uri": SKILL_MD})).await;
    assert_eq!(got["result"]["skill"], skills[0], "{got}");
    let unknown = ask("skills/get", json!({"uri": "skill://nope/SKILL.md"})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    let read = ask("resources/read", json!({"uri": SKILL_MD})).await;
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "text/markdown", "{read}");
    assert_eq!(contents["text"], std::str::from_utf8(MANIFEST).unwrap());
    let logo = ask(
        "resources/read",
        json!({"uri": format!("{ROOT}/assets/logo.png")}),
    )
    .await;
    let contents = &logo["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "image/png", "{logo}");
    assert_eq!(contents["blob"], "iVBORwABAgM=");

    let resources = ask("resources/list", json!({})).await;
    assert_eq!(
        resources["result"]["resources"][0],
        json!({"uri": SKILL_MD, "name": "release-notes", "description": "Write release notes.",
               "mimeType": "text/markdown", "size": MANIFEST.len()}),
        "{resources}"
    );

    let root = ask("resources/directory/read", json!({"uri": ROOT})).await;
    let children: Vec<(&str, Option<&str>)> = root["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str()))
        .collect();
    assert_eq!(
        children,
        [
            ("skill://release-notes/assets", Some("inode/directory")),
            ("skill://release-notes/references", Some("inode/directory")),
            (SKILL_MD, Some("text/markdown")),
        ],
        "{root}"
    );
    let below = ask(
        "resources/directory/read",
        json!({"uri": format!("{ROOT}/references")}),
    )
    .await;
    assert_eq!(
        below["result"]["resources"],
        json!([{"uri": format!("{ROOT}/references/KINDS.md"), "name": "KINDS.md",
                "mimeType": "text/markdown", "size": KINDS.len()}]),
        "{below}"
    );
    let file = ask("resources/directory/read", json!({"uri": SKILL_MD})).await;
    assert_eq!(file["error"]["code"], -32602, "{file}");
    let missing = ask(
        "resources/directory/read",
        json!({"uri": format!("{ROOT}/nope")}),
    )
    .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_are_served_before_2026_07_28() {
    let server = McpServer::new(package(), SessionContext::builder("u").build());
    let mut lines = common::Lines::start(server);
    let init = lines.initialize(json!({})).await;
    let capabilities = &init["result"]["capabilities"];
    assert_eq!(capabilities["resources"], json!({}), "{init}");
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true}),
        "{init}"
    );
    assert_served(&mut lines, &|p| p).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_are_served_on_2026_07_28_with_caching_hints() {
    let server = McpServer::new(package(), SessionContext::builder("u").build());
    let mut lines = common::Lines::start(server);
    let modern = |mut p: Value| {
        p["_meta"] = common::meta(json!({}));
        p
    };
    let (_, discovered) = lines
        .send("server/discover", modern(json!({})), &|_| json!({}))
        .await;
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true}),
        "{discovered}"
    );
    for method in ["skills/list", "skills/get"] {
        let (_, answer) = lines
            .send(method, modern(json!({"uri": SKILL_MD})), &|_| json!({}))
            .await;
        assert!(answer["result"]["ttlMs"].is_u64(), "{method}: {answer}");
        assert!(
            answer["result"]["cacheScope"].is_string(),
            "{method}: {answer}"
        );
    }
    assert_served(&mut lines, &modern).await;
}

/// A handler with one resource of its own.
#[derive(Clone)]
struct Notes;

impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
        )
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "note://today",
            "today",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != "note://today" {
            return Err(ErrorData::resource_not_found(request.uri, None));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text("Rain.", "note://today")]).into())
    }
}

/// Beside a handler's resources: both listed, the skills first; each read by its side; the
/// handler's `resources` capability (with `subscribe`) kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_sit_beside_a_handlers_resources() {
    let server =
        McpServer::new(package(), SessionContext::builder("u").build()).with_handler(Notes);
    let mut lines = common::Lines::legacy(server, json!({})).await;
    let mut ask = async |method: &str, p: Value| lines.send(method, p, &|_| json!({})).await.1;
    let listed = ask("resources/list", json!({})).await;
    let uris: Vec<&str> = listed["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, [SKILL_MD, "note://today"], "{listed}");
    let note = ask("resources/read", json!({"uri": "note://today"})).await;
    assert_eq!(note["result"]["contents"][0]["text"], "Rain.", "{note}");
    let skill = ask("resources/read", json!({"uri": SKILL_MD})).await;
    assert_eq!(skill["result"]["contents"][0]["mimeType"], "text/markdown");
    let other = ask("resources/read", json!({"uri": "note://nope"})).await;
    assert_eq!(other["error"]["code"], -32002, "{other}");
}

/// A skill a package is given by hand is checked as the build script checks its own.
#[test]
fn a_skill_that_cannot_be_served_fails_the_package_build() {
    static BAD: &[Skill] = &[Skill {
        name: "release-notes",
        frontmatter: r#"{"name":"release_notes","description":"x"}"#,
        files: &[SkillFile {
            path: "SKILL.md",
            bytes: b"",
        }],
    }];
    let error = common::greeter_builder().skills(BAD).build().unwrap_err();
    let [BuildProblem::Skill { skill, reason }] = error.problems.as_slice() else {
        panic!("{error}");
    };
    assert_eq!(skill, "release-notes");
    assert!(reason.contains("`name` is not `release-notes`"), "{reason}");
}

/// A package without skills declares no extension and leaves `skills/list` to rmcp.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_package_without_skills_declares_none() {
    let server = McpServer::new(common::greeter(), SessionContext::builder("u").build());
    let mut lines = common::Lines::start(server);
    let init = lines.initialize(json!({})).await;
    let capabilities = &init["result"]["capabilities"];
    assert!(capabilities.get("resources").is_none(), "{init}");
    assert!(capabilities.get("extensions").is_none(), "{init}");
    let (_, listed) = lines.send("skills/list", json!({}), &|_| json!({})).await;
    assert_eq!(listed["error"]["code"], -32601, "{listed}");
}

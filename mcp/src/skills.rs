//! The skills a package ships (MCP's skills extension, SEP-2640), served from the bytes
//! the package table embedded (`neuralis_core::skill`): `skills/list`, `skills/get`,
//! `resources/directory/read`, and each file as a `skill://<name>/<path>` resource, with
//! rmcp's own types (and rmcp's check of every entry it answers with).
//!
//! The catalog is made once per server from the package's skills: each file's digest and
//! size, each skill's `SKILL.md` for `resources/list` (its frontmatter's `name` and
//! `description`), and each folder's children for a directory read.

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use base64::prelude::BASE64_STANDARD;
use neuralis_core::skill::{SKILL_MD, Skill as Embedded};
use rmcp::ErrorData;
use rmcp::model::{
    DIRECTORY_MIME_TYPE, GetSkillResult, ListSkillsResult, ReadResourceDirectoryResult,
    ReadResourceResult, Resource, ResourceContents, Skill, SkillFrontmatter, SkillResource,
    SkillResources,
};

/// The scheme of every skill resource.
const SCHEME: &str = "skill://";

/// The skills of one package, ready to answer.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    /// Every skill, by URI order.
    skills: Vec<Skill>,
    /// Each skill's `SKILL.md`, for `resources/list`.
    listed: Vec<Resource>,
    /// Every file by URI.
    files: HashMap<String, File>,
    /// Every folder (a skill's root, `skill://<name>`, and the folders below it) by URI:
    /// its children, folders first, then files, each by name.
    directories: HashMap<String, Vec<Resource>>,
}

#[derive(Debug)]
struct File {
    bytes: &'static [u8],
    mime_type: Option<&'static str>,
}

impl Catalog {
    /// The catalog of `skills`; one that cannot be served (the package builder refuses
    /// it, so only a package assembled otherwise has one) is left out with a warning.
    pub(crate) fn new(skills: &[Embedded]) -> Self {
        let mut catalog = Self::default();
        let mut seen = std::collections::HashSet::new();
        for skill in skills {
            let frontmatter = match skill.problem() {
                None => serde_json::from_str::<SkillFrontmatter>(skill.frontmatter).ok(),
                Some(reason) => {
                    tracing::warn!(skill = skill.name, %reason, "skill not served");
                    None
                }
            };
            if let Some(frontmatter) = frontmatter
                && seen.insert(skill.name)
            {
                catalog.add(skill, frontmatter);
            }
        }
        catalog.skills.sort_by(|a, b| a.uri.cmp(&b.uri));
        catalog.listed.sort_by(|a, b| a.uri.cmp(&b.uri));
        catalog
    }

    fn add(&mut self, skill: &Embedded, frontmatter: SkillFrontmatter) {
        let root = format!("{SCHEME}{}", skill.name);
        let uri = |path: &str| format!("{root}/{}", encode(path));
        let mut children: BTreeMap<String, BTreeMap<(bool, String), Resource>> = BTreeMap::new();
        children.entry(String::new()).or_default();
        let mut resources = Vec::with_capacity(skill.files.len());
        for file in skill.files {
            let file_uri = uri(file.path);
            let mime_type = mime_type(file.path);
            resources.push(SkillResource::from_bytes(&file_uri, file.bytes));
            let (folder, name) = file.path.rsplit_once('/').unwrap_or(("", file.path));
            let mut child = Resource::new(&file_uri, name).with_size(file.bytes.len() as u64);
            child.mime_type = mime_type.map(Into::into);
            children
                .entry(folder.to_owned())
                .or_default()
                .insert((true, name.to_owned()), child);
            // Each folder above the file is a child of its own parent.
            let mut below = folder;
            while !below.is_empty() {
                let (parent, name) = below.rsplit_once('/').unwrap_or(("", below));
                let folder_uri = uri(below);
                children.entry(parent.to_owned()).or_default().insert(
                    (false, name.to_owned()),
                    Resource::new(folder_uri, name).with_mime_type(DIRECTORY_MIME_TYPE),
                );
                children.entry(below.to_owned()).or_default();
                below = parent;
            }
            self.files.insert(
                file_uri,
                File {
                    bytes: file.bytes,
                    mime_type,
                },
            );
        }
        for (folder, listing) in children {
            let folder_uri = if folder.is_empty() {
                root.clone()
            } else {
                uri(&folder)
            };
            self.directories
                .insert(folder_uri, listing.into_values().collect());
        }
        resources.sort_by(|a, b| a.uri.cmp(&b.uri));
        let manifest_uri = uri(SKILL_MD);
        let size = self.files.get(&manifest_uri).map_or(0, |f| f.bytes.len());
        self.listed.push(
            Resource::new(&manifest_uri, &frontmatter.name)
                .with_description(&frontmatter.description)
                .with_mime_type(MARKDOWN)
                .with_size(size as u64),
        );
        self.skills.push(Skill::new(
            manifest_uri,
            frontmatter,
            SkillResources::Files(resources),
        ));
    }

    /// Whether the package ships no skill (then the server declares no extension).
    pub(crate) fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// The answer to `skills/list`: every skill, on one page.
    pub(crate) fn list(&self) -> ListSkillsResult {
        ListSkillsResult::with_all_items(self.skills.clone())
    }

    /// The answer to `skills/get`: `-32602` for a URI that is no skill's `SKILL.md`.
    pub(crate) fn get(&self, uri: &str) -> Result<GetSkillResult, ErrorData> {
        self.skills
            .iter()
            .find(|skill| skill.uri == uri)
            .map(|skill| GetSkillResult::new(skill.clone()))
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("no skill at `{uri}`: `skills/list` gives every skill's URI"),
                    None,
                )
            })
    }

    /// Each skill's `SKILL.md`, for `resources/list`.
    pub(crate) fn resources(&self) -> &[Resource] {
        &self.listed
    }

    /// The answer to `resources/read` of a skill's file; `None` for any other URI.
    pub(crate) fn read(&self, uri: &str) -> Option<ReadResourceResult> {
        let file = self.files.get(uri)?;
        let text = file
            .mime_type
            .filter(|m| is_textual(m))
            .and_then(|_| std::str::from_utf8(file.bytes).ok())
            .filter(|text| !text.contains('\0'));
        let contents = match text {
            Some(text) => ResourceContents::text(text, uri),
            None => ResourceContents::blob(BASE64_STANDARD.encode(file.bytes), uri),
        };
        let contents = match file.mime_type {
            Some(mime_type) => contents.with_mime_type(mime_type),
            None => contents,
        };
        Some(ReadResourceResult::new(vec![contents]))
    }

    /// The answer to `resources/directory/read` of a skill's folder; `None` for a URI
    /// outside every skill, `-32602` for a skill's file or a path it does not have.
    pub(crate) fn directory(
        &self,
        uri: &str,
    ) -> Option<Result<ReadResourceDirectoryResult, ErrorData>> {
        let trimmed = uri.strip_suffix('/').unwrap_or(uri);
        if let Some(children) = self.directories.get(trimmed) {
            return Some(Ok(ReadResourceDirectoryResult::with_all_items(
                children.clone(),
            )));
        }
        let name = uri.strip_prefix(SCHEME)?.split('/').next()?;
        self.directories
            .contains_key(&format!("{SCHEME}{name}"))
            .then(|| {
                Err(ErrorData::invalid_params(
                    format!("`{uri}` is not a folder of the skill `{name}`"),
                    None,
                ))
            })
    }
}

const MARKDOWN: &str = "text/markdown";

/// A path's bytes as they go in a URI: unreserved characters and `/` as they are, the
/// rest percent-encoded (as rmcp's own catalog writes them).
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Whether a file of this type goes out as `text` (when its bytes are UTF-8 without NUL),
/// not as a base64 `blob`.
fn is_textual(mime_type: &str) -> bool {
    mime_type.starts_with("text/")
        || matches!(
            mime_type,
            "application/json"
                | "application/xml"
                | "application/yaml"
                | "application/toml"
                | "application/x-sh"
                | "image/svg+xml"
        )
}

/// The type of a file by its extension; `None` (no `mimeType`) for one not listed.
fn mime_type(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "md" | "markdown" => MARKDOWN,
        "txt" => "text/plain",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "xml" => "application/xml",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "js" | "mjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "py" => "text/x-python",
        "rs" => "text/x-rust",
        "sh" => "application/x-sh",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        _ => return None,
    })
}

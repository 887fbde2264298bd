//! Loading a package's tools: check, normalize, and type every `tools/*.json`.
//!
//! [`load_package_from_sources`] works on names and bytes, so a wasm32 host can use it;
//! [`load_package`] (feature `fs`, on by default) reads a directory and calls it.

use std::collections::HashSet;

use serde_json::Value;

use crate::catalog::{ToolEntry, ToolMeta};
use crate::contract::{CheckOptions, Diagnostic, RuleId, check_bytes_with};
use crate::schema::normalize;

/// What loading a package found: the tools that loaded, and every file's diagnostics.
#[derive(Debug, Clone, Default)]
pub struct LoadedPackage {
    /// The tools with no error, normalized and typed, in load order.
    pub tools: Vec<ToolEntry>,
    /// One entry per file, in load order, loaded or not.
    pub files: Vec<FileReport>,
}

/// The outcome of one tool file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileReport {
    /// The file, as given (`tools/catalog_list.json`, or `<name>.json` for sources).
    pub file: String,
    /// The tool name (the file stem).
    pub name: String,
    /// Every diagnostic, errors and warnings, in the checker's order.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the tool loaded (no errors): it is then in [`LoadedPackage::tools`].
    pub loaded: bool,
}

impl FileReport {
    /// Whether any diagnostic is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

impl LoadedPackage {
    /// Whether any file has an error (the platform would fail the package load).
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.files.iter().any(FileReport::has_errors)
    }

    /// Every diagnostic of every file, with its file.
    pub fn diagnostics(&self) -> impl Iterator<Item = (&FileReport, &Diagnostic)> {
        self.files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| (f, d)))
    }

    /// The loaded tool named `name`.
    #[must_use]
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The tools a caller with the `granted` features sees (catalog, MCP listing, client
    /// snapshot): those whose `requires.features` are all granted.
    ///
    /// ```
    /// use neuralis_core::load::load_package_from_sources;
    /// let tool = |features: &str| format!(r#"{{"type":"object","additionalProperties":false,
    ///     "description":"d","x-neuralis":{{"annotations":{{"category":"read"}},
    ///     "requires":{{"features":[{features}]}}}}}}"#);
    /// let package = load_package_from_sources([
    ///     ("open", tool("")),
    ///     ("gated", tool(r#""weather.read""#)),
    /// ]);
    /// let seen: Vec<_> = package.visible_tools(["other"]).map(|t| t.name.as_str()).collect();
    /// assert_eq!(seen, ["open"]);
    /// assert_eq!(package.visible_tools(["weather.read"]).count(), 2);
    /// ```
    pub fn visible_tools<'a, S: AsRef<str>>(
        &'a self,
        granted: impl IntoIterator<Item = S>,
    ) -> impl Iterator<Item = &'a ToolEntry> + 'a {
        let granted: Vec<String> = granted.into_iter().map(|g| g.as_ref().to_owned()).collect();
        self.tools
            .iter()
            .filter(move |t| t.meta.features_granted(|f| granted.iter().any(|g| g == f)))
    }

    /// The tool a direct dispatch of `name` may run for a caller with the `granted` features.
    ///
    /// `None` both when no tool has that name and when the caller lacks a required feature,
    /// so the refusal can be the one generic message of an unknown tool and reveal nothing.
    #[must_use]
    pub fn dispatchable<S: AsRef<str>>(
        &self,
        name: &str,
        granted: impl IntoIterator<Item = S>,
    ) -> Option<&ToolEntry> {
        self.tool(name).filter(|t| t.features_satisfied(granted))
    }
}

/// Loads tools from `(name, bytes)` pairs, `name` being the tool name (the file stem).
///
/// Each source is checked with [`check_bytes_with`]; one with no error is normalized and its
/// `x-neuralis` block typed into a [`ToolEntry`]. A name seen twice loads once, the second
/// gets `duplicate-tool`. Sources are taken in the order given. Nothing panics on bad bytes.
///
/// ```
/// use neuralis_core::load::load_package_from_sources;
///
/// let tool = br#"{
///   "$schema": "http://json-schema.org/draft-07/schema#",
///   "type": "object",
///   "additionalProperties": false,
///   "description": "Tag an item.",
///   "properties": { "tags": { "type": "object", "additionalProperties": { "type": "string" } } },
///   "x-neuralis": { "annotations": { "category": "write" } }
/// }"#;
/// let package = load_package_from_sources([("tag_item", &tool[..])]);
/// assert!(!package.has_errors());
/// let entry = package.tool("tag_item").expect("loaded");
/// assert!(entry.schema["properties"]["tags"].get("propertyNames").is_some());
/// ```
#[must_use]
pub fn load_package_from_sources<I, N, B>(sources: I) -> LoadedPackage
where
    I: IntoIterator<Item = (N, B)>,
    N: AsRef<str>,
    B: AsRef<[u8]>,
{
    load_package_from_sources_with(sources, &CheckOptions::default())
}

/// [`load_package_from_sources`] with checker options (the declared cards).
#[must_use]
pub fn load_package_from_sources_with<I, N, B>(sources: I, options: &CheckOptions) -> LoadedPackage
where
    I: IntoIterator<Item = (N, B)>,
    N: AsRef<str>,
    B: AsRef<[u8]>,
{
    let mut loader = Loader::default();
    for (name, bytes) in sources {
        loader.push_source(name.as_ref(), bytes.as_ref(), options);
    }
    loader.package
}

/// A package being loaded.
#[derive(Default)]
pub(crate) struct Loader {
    pub(crate) package: LoadedPackage,
    seen: HashSet<String>,
}

impl Loader {
    /// Checks, normalizes and types one file, recording its outcome.
    pub(crate) fn push(&mut self, file: String, name: &str, bytes: &[u8], options: &CheckOptions) {
        let report = check_bytes_with(name, bytes, options);
        self.record(file, name, report.diagnostics, report.schema);
    }

    /// [`push`](Self::push) of a source given by name (its file `<name>.json`).
    pub(crate) fn push_source(&mut self, name: &str, bytes: &[u8], options: &CheckOptions) {
        self.push(format!("{name}.json"), name, bytes, options);
    }

    /// Normalizes and types one file the build script checked against the contract (the
    /// package table's): it is parsed, not checked again, so a module that only loads such
    /// files does not link the checker.
    pub(crate) fn push_checked(&mut self, name: &str, text: &str) {
        let schema = serde_json::from_str(text).ok();
        self.record(format!("{name}.json"), name, Vec::new(), schema);
    }

    /// Records one file's outcome: loaded when it has no error and names a new tool.
    fn record(
        &mut self,
        file: String,
        name: &str,
        mut diagnostics: Vec<Diagnostic>,
        schema: Option<Value>,
    ) {
        let mut loaded = false;
        if !self.seen.insert(name.to_owned()) {
            diagnostics.push(
                Diagnostic::new(RuleId::DuplicateTool, "")
                    .with_message(format!("a second file names the tool `{name}`")),
            );
        } else if !diagnostics.iter().any(Diagnostic::is_error) {
            match into_entry(name, schema) {
                Ok(entry) => {
                    self.package.tools.push(entry);
                    loaded = true;
                }
                Err(d) => diagnostics.push(d),
            }
        }
        self.package.files.push(FileReport {
            file,
            name: name.to_owned(),
            diagnostics,
            loaded,
        });
    }
}

/// Normalizes and types a document the checker passed (at run time, or in the build
/// script for the package table's files).
///
/// The checker has already refused what fails here; these diagnostics only guard the
/// invariant, so nothing unchecked is ever loaded.
fn into_entry(name: &str, schema: Option<Value>) -> Result<ToolEntry, Diagnostic> {
    let Some(mut schema) = schema else {
        return Err(
            Diagnostic::new(RuleId::JsonSyntax, "").with_message("the file is not one JSON object")
        );
    };
    if !schema.is_object() {
        return Err(
            Diagnostic::new(RuleId::JsonSyntax, "").with_message("the file is not one JSON object")
        );
    }
    if schema.get(crate::xn::BLOCK).is_none() {
        return Err(Diagnostic::new(RuleId::XnMissing, ""));
    }
    let meta = match ToolMeta::from_schema(&schema) {
        Ok(meta) => meta,
        Err(e) => {
            return Err(
                Diagnostic::new(RuleId::XnType, crate::xn::BLOCK_POINTER).with_message(format!(
                    "`x-neuralis` does not have the contract's shape: {e}"
                )),
            );
        }
    };
    normalize(&mut schema);
    Ok(ToolEntry {
        name: name.to_owned(),
        schema,
        meta,
    })
}

#[cfg(feature = "fs")]
pub use self::fs::{MAX_READ_BYTES, load_package, load_package_with};

#[cfg(feature = "fs")]
mod fs {
    use std::fs::File;
    use std::io::{self, Read};
    use std::path::Path;

    use super::{CheckOptions, LoadedPackage, Loader};

    /// How much of one file is read: one byte past the contract's 4 MiB limit, so the
    /// checker sees an oversized file as such (`depth-limit`) without reading all of it.
    pub const MAX_READ_BYTES: u64 = 4 * 1024 * 1024 + 1;

    /// Loads every `*.json` directly in `dir` (sorted by file name; the tool name is the
    /// file stem): checks each, normalizes those without errors, and types their
    /// `x-neuralis` blocks. Subdirectories and other files are ignored.
    ///
    /// # Errors
    ///
    /// When `dir` or one of its `*.json` files cannot be read. Contract violations are not
    /// errors: they are in [`LoadedPackage::files`].
    ///
    /// ```no_run
    /// let package = neuralis_core::load::load_package("examples/catalog/tools")?;
    /// for (file, d) in package.diagnostics() {
    ///     eprintln!("{}: {d}", file.file);
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn load_package(dir: impl AsRef<Path>) -> io::Result<LoadedPackage> {
        load_package_with(dir, &CheckOptions::default())
    }

    /// [`load_package`] with checker options (the declared cards).
    ///
    /// # Errors
    ///
    /// As [`load_package`].
    pub fn load_package_with(
        dir: impl AsRef<Path>,
        options: &CheckOptions,
    ) -> io::Result<LoadedPackage> {
        let dir = dir.as_ref();
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            let is_json = path.extension().is_some_and(|e| e == "json");
            if is_json && path.is_file() {
                paths.push(path);
            }
        }
        paths.sort();
        let mut loader = Loader::default();
        let mut bytes = Vec::new();
        for path in paths {
            bytes.clear();
            File::open(&path)?
                .take(MAX_READ_BYTES)
                .read_to_end(&mut bytes)?;
            // `outputs.json`, the output schemas `neuralis outputs` prints, is no tool.
            let file = path
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or_default();
            if neuralis_model::name::is_outputs_file(file, &bytes) {
                continue;
            }
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            loader.push(path.display().to_string(), &name, &bytes, options);
        }
        Ok(loader.package)
    }
}

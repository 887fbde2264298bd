//! The package's `Cargo.toml`, for the names its source gives its dependencies: a
//! dependency is written by its library's name unless `Cargo.toml` renames it
//! (`types = { package = "tracker-types", ... }`), and only the manifest says so.
//!
//! Parsed with `toml`'s parser alone (no serde): every dependency table (`[dependencies]`
//! and each `[target.<cfg>.dependencies]`; build and dev dependencies are not the
//! library's), `package = ...` read as written or inherited from the workspace root's
//! `[workspace.dependencies]` (`name.workspace = true`), and the library's own name and
//! root file (`[lib] name`, `path`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One normal dependency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dep {
    /// The key written in `Cargo.toml`.
    pub key: String,
    /// The package it names (the key, unless `package = ...`).
    pub package: String,
    /// Whether `package = ...` renames it: the source then calls it by the key.
    pub renamed: bool,
}

impl Dep {
    /// The name the source gives the dependency: the key when renamed, else its
    /// library's name (`lib`, which only the dependency knows; by default the package
    /// name with `-` as `_`).
    #[must_use]
    pub fn extern_name(&self, lib: Option<&str>) -> String {
        if self.renamed {
            self.key.replace('-', "_")
        } else {
            lib.map_or_else(|| self.package.replace('-', "_"), str::to_owned)
        }
    }
}

/// What the emitter reads of a manifest.
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    /// `package.name`.
    pub package: Option<String>,
    /// `lib.name`.
    pub lib_name: Option<String>,
    /// `lib.path`, relative to the manifest directory.
    pub lib_path: Option<String>,
    /// The normal dependencies of every target, in the order written.
    pub deps: Vec<Dep>,
    /// The manifests read (this one, and the workspace root's when a dependency is
    /// inherited from it).
    pub files: Vec<PathBuf>,
    /// `package.metadata.neuralis.dialects`: the providers' dialects every tool must be
    /// served in, as written.
    pub dialects: Vec<String>,
    /// `package.metadata.neuralis.allow_weakened`: the dialects whose `dialect-weakened`
    /// the package allows everywhere, as written (`true`: `["*"]`, every dialect).
    pub allow_weakened: Vec<String>,
}

impl Manifest {
    /// The library's name: `lib.name`, else the package name with `-` as `_`.
    #[must_use]
    pub fn lib(&self) -> Option<String> {
        self.lib_name
            .clone()
            .or_else(|| self.package.as_ref().map(|p| p.replace('-', "_")))
    }
}

fn str_of<'a>(v: &'a DeValue<'_>) -> Option<&'a str> {
    match v {
        DeValue::String(s) => Some(s),
        _ => None,
    }
}

fn table_of<'a, 'i>(v: &'a DeValue<'i>) -> Option<&'a DeTable<'i>> {
    match v {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

fn get<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<&'a DeValue<'i>> {
    t.get(key).map(Spanned::get_ref)
}

fn parse<'i>(path: &Path, text: &'i str) -> Result<DeTable<'i>, String> {
    DeTable::parse(text)
        .map(Spanned::into_inner)
        .map_err(|e| format!("{}: {}", path.display(), e.message()))
}

/// Reads `<dir>/Cargo.toml`; `Ok(None)` when there is none.
///
/// # Errors
///
/// A manifest that cannot be read or parsed, or a dependency inherited from a workspace
/// root that cannot be found.
pub fn read(dir: &Path) -> Result<Option<Manifest>, String> {
    let path = dir.join("Cargo.toml");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let doc = parse(&path, &text)?;
    let mut m = Manifest {
        files: vec![path.clone()],
        ..Manifest::default()
    };
    let package_table = get(&doc, "package").and_then(table_of);
    m.package = package_table
        .and_then(|p| get(p, "name"))
        .and_then(str_of)
        .map(str::to_owned);
    let neuralis = package_table
        .and_then(|p| get(p, "metadata"))
        .and_then(table_of)
        .and_then(|m| get(m, "neuralis"))
        .and_then(table_of);
    // A list of names as written; another value is one name saying what it is, which
    // the caller refuses as no dialect's.
    let names = |key: &str| -> Vec<String> {
        neuralis
            .and_then(|n| get(n, key))
            .map(|d| match d {
                DeValue::Array(items) => items
                    .iter()
                    .map(|i| {
                        str_of(i.get_ref())
                            .map_or_else(|| format!("{:?}", i.get_ref()), str::to_owned)
                    })
                    .collect(),
                DeValue::Boolean(true) => vec!["*".to_owned()],
                DeValue::Boolean(false) => Vec::new(),
                other => vec![
                    str_of(other)
                        .map_or_else(|| "a value that is not a list".to_owned(), str::to_owned),
                ],
            })
            .unwrap_or_default()
    };
    m.dialects = names("dialects");
    m.allow_weakened = names("allow_weakened");
    if let Some(lib) = get(&doc, "lib").and_then(table_of) {
        m.lib_name = get(lib, "name").and_then(str_of).map(str::to_owned);
        m.lib_path = get(lib, "path").and_then(str_of).map(str::to_owned);
    }
    let mut tables = Vec::new();
    if let Some(t) = get(&doc, "dependencies").and_then(table_of) {
        tables.push(t);
    }
    if let Some(targets) = get(&doc, "target").and_then(table_of) {
        for (_, target) in targets.iter() {
            if let Some(t) = table_of(target.get_ref()).and_then(|t| get(t, "dependencies")) {
                tables.extend(table_of(t));
            }
        }
    }
    // The workspace root's `[workspace.dependencies]`: key → `package`, read when first
    // needed.
    let mut inherited_from: Option<BTreeMap<String, Option<String>>> = None;
    for table in tables {
        for (key, value) in table.iter() {
            let key = key.get_ref().to_string();
            let spec = table_of(value.get_ref());
            let inherited = spec
                .and_then(|s| get(s, "workspace"))
                .is_some_and(|w| matches!(w, DeValue::Boolean(true)));
            let mut package = spec
                .and_then(|s| get(s, "package"))
                .and_then(str_of)
                .map(str::to_owned);
            if inherited {
                if inherited_from.is_none() {
                    let explicit = package_table
                        .and_then(|p| get(p, "workspace"))
                        .and_then(str_of);
                    let root = find_workspace_root(dir, explicit)?;
                    inherited_from = Some(workspace_packages(&root)?);
                    m.files.push(root);
                }
                let packages = inherited_from.as_ref();
                package = packages.and_then(|p| p.get(&key).cloned().flatten());
            }
            let dep = Dep {
                renamed: package.is_some(),
                package: package.unwrap_or_else(|| key.clone()),
                key,
            };
            if !m.deps.contains(&dep) {
                m.deps.push(dep);
            }
        }
    }
    Ok(Some(m))
}

/// `[workspace.dependencies]` of the root manifest at `path`: key → `package`.
fn workspace_packages(path: &Path) -> Result<BTreeMap<String, Option<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = parse(path, &text)?;
    let deps = get(&doc, "workspace")
        .and_then(table_of)
        .and_then(|w| get(w, "dependencies"))
        .and_then(table_of);
    Ok(deps
        .into_iter()
        .flat_map(|d| d.iter())
        .map(|(k, v)| {
            let package = table_of(v.get_ref())
                .and_then(|s| get(s, "package"))
                .and_then(str_of)
                .map(str::to_owned);
            (k.get_ref().to_string(), package)
        })
        .collect())
}

/// The workspace root's manifest: `package.workspace` when given, else the nearest
/// ancestor's `Cargo.toml` with a `[workspace]` table, as cargo finds it.
fn find_workspace_root(dir: &Path, explicit: Option<&str>) -> Result<PathBuf, String> {
    if let Some(rel) = explicit {
        return Ok(dir.join(rel).join("Cargo.toml"));
    }
    for ancestor in dir.ancestors().skip(1) {
        let candidate = ancestor.join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&candidate) else {
            continue;
        };
        if parse(&candidate, &text).is_ok_and(|doc| get(&doc, "workspace").is_some()) {
            return Ok(candidate);
        }
    }
    Err(format!(
        "{}: a dependency is inherited from the workspace (`workspace = true`), but no workspace root was found above it",
        dir.join("Cargo.toml").display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
        std::fs::write(p, text).expect("write");
    }

    fn dep(key: &str, package: &str, renamed: bool) -> Dep {
        Dep {
            key: key.into(),
            package: package.into(),
            renamed,
        }
    }

    #[test]
    fn reads_renames_in_every_form_and_inherits_from_the_workspace() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path();
        write(
            d,
            "Cargo.toml",
            r#"
[workspace]
members = ["pkg"]
[workspace.dependencies]
inherited = { package = "real-inherited", path = "x" }
plain-inherited = { path = "y" }
"#,
        );
        write(
            d,
            "pkg/Cargo.toml",
            r#"
[package]
name = "my-pkg"
[lib]
name = "mine"
[dependencies]
serde = "1"
types = { package = "tracker-types", path = "../types" }
inherited.workspace = true
plain-inherited = { workspace = true }
[dependencies.dotted]
package = "dotted-real"
version = "1"
[target.'cfg(unix)'.dependencies]
unix-only = { package = "real-unix", version = "1" }
[dev-dependencies]
not-the-library = "1"
[build-dependencies]
neuralis-build = "0.1"
"#,
        );
        let m = read(&d.join("pkg")).expect("reads").expect("a manifest");
        assert_eq!(m.package.as_deref(), Some("my-pkg"));
        assert_eq!(m.lib().as_deref(), Some("mine"));
        assert_eq!(
            m.deps,
            [
                dep("dotted", "dotted-real", true),
                dep("inherited", "real-inherited", true),
                dep("plain-inherited", "plain-inherited", false),
                dep("serde", "serde", false),
                dep("types", "tracker-types", true),
                dep("unix-only", "real-unix", true),
            ]
        );
        assert_eq!(m.files, [d.join("pkg/Cargo.toml"), d.join("Cargo.toml")]);
        assert_eq!(m.deps[4].extern_name(Some("tracker_types")), "types");
        assert_eq!(m.deps[2].extern_name(None), "plain_inherited");
        assert_eq!(m.deps[2].extern_name(Some("lib_name")), "lib_name");
    }

    #[test]
    fn no_manifest_is_none_and_a_broken_one_an_error() {
        let tmp = tempfile::tempdir().expect("tempdir");
        assert!(read(tmp.path()).expect("no error").is_none());
        write(tmp.path(), "Cargo.toml", "[package\nname = 1");
        let e = read(tmp.path()).expect_err("a parse error");
        assert!(e.contains("Cargo.toml"), "{e}");
    }
}

//! What the subcommands read of a package's `Cargo.toml`: `diff` its version as written
//! at a revision ([`package_version`]); `server-json` `[package]`'s `name`, `version`,
//! `description`, `repository`, `homepage`, `readme` and `publish` (each also inherited
//! from the workspace root's `[workspace.package]` with `<key>.workspace = true`), and the
//! table `[package.metadata.neuralis.registry]` ([`read`]); `check` the dialects the
//! package names ([`dialects`]).

use std::path::{Path, PathBuf};

use toml::{Table, Value};

/// `[package] version` of a manifest's text, as written.
pub fn package_version(text: &str) -> Option<String> {
    let doc: Table = toml::from_str(text).ok()?;
    doc.get("package")?
        .get("version")?
        .as_str()
        .map(str::to_owned)
}

/// The dialect names `[package.metadata.neuralis] <key>` gives in the manifest at `path`
/// (a `Cargo.toml`, or the folder holding one), as written: `dialects`, the dialects the
/// package's build checks every tool against, and `allow_weakened`, those whose
/// `dialect-weakened` it allows (`true`: `["*"]`, every one), which `check` reads too.
/// `Ok(None)` when the key is absent.
///
/// # Errors
///
/// A manifest that cannot be read or parsed, or a value that is not an array of strings
/// (or, for `allow_weakened`, a boolean).
pub fn dialect_names(path: &Path, key: &str) -> Result<Option<Vec<String>>, String> {
    let path = if path.is_dir() {
        path.join("Cargo.toml")
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let doc: Table = toml::from_str(&text)
        .map_err(|e| format!("`{}` is not TOML: {}", path.display(), e.message()))?;
    let Some(list) = ["package", "metadata", "neuralis", key]
        .iter()
        .try_fold(&Value::Table(doc.clone()), |v, k| v.get(k))
        .cloned()
    else {
        return Ok(None);
    };
    if let Value::Boolean(all) = list {
        return Ok(Some(if all {
            vec!["*".to_owned()]
        } else {
            Vec::new()
        }));
    }
    list.as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "`{}`: `[package.metadata.neuralis] {key}` is not an array of dialect names",
                path.display()
            )
        })
}

/// A package's manifest, as `server-json` reads it.
#[derive(Debug)]
pub struct Manifest {
    /// The `Cargo.toml` read.
    pub path: PathBuf,
    /// `package.name`.
    pub name: String,
    /// `package.version`.
    pub version: Option<String>,
    /// `package.description`.
    pub description: Option<String>,
    /// `package.repository`.
    pub repository: Option<String>,
    /// `package.homepage`.
    pub homepage: Option<String>,
    /// The README file cargo packages (`package.readme`, else `README.md`, `README.txt`
    /// or `README` beside the manifest), `None` with `readme = false` or none found.
    pub readme: Option<PathBuf>,
    /// `package.publish` is not `false`.
    pub publish: bool,
    /// `[package.metadata.neuralis.registry]`.
    pub registry: Option<Table>,
}

/// Reads `<dir>/Cargo.toml`.
///
/// # Errors
///
/// A manifest that cannot be read or parsed, one without `[package] name`, or a key
/// inherited from a workspace root that cannot be found.
pub fn read(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let doc: Table = toml::from_str(&text)
        .map_err(|e| format!("`{}` is not TOML: {}", path.display(), e.message()))?;
    let package = doc
        .get("package")
        .and_then(Value::as_table)
        .ok_or_else(|| format!("`{}` has no `[package]`", path.display()))?;
    let root = Inherited::new(dir);
    let field = |key: &str| -> Result<Option<Value>, String> {
        match package.get(key) {
            Some(Value::Table(t)) if t.get("workspace").and_then(Value::as_bool) == Some(true) => {
                root.get(key, &path).map(Some)
            }
            other => Ok(other.cloned()),
        }
    };
    let text_of = |key: &str| -> Result<Option<String>, String> {
        Ok(field(key)?.and_then(|v| v.as_str().map(str::to_owned)))
    };
    let name =
        text_of("name")?.ok_or_else(|| format!("`{}` has no `package.name`", path.display()))?;
    let readme = match field("readme")? {
        Some(Value::Boolean(false)) => None,
        Some(Value::String(file)) => Some(readme_base(package, &root, dir).join(file)),
        _ => ["README.md", "README.txt", "README"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file()),
    };
    let publish = !matches!(field("publish")?, Some(Value::Boolean(false)));
    let registry = package
        .get("metadata")
        .and_then(|m| m.get("neuralis"))
        .and_then(|n| n.get("registry"))
        .and_then(Value::as_table)
        .cloned();
    Ok(Manifest {
        version: text_of("version")?,
        description: text_of("description")?,
        repository: text_of("repository")?,
        homepage: text_of("homepage")?,
        readme,
        publish,
        registry,
        name,
        path,
    })
}

/// The folder a `readme` path is relative to: the workspace root's when inherited.
fn readme_base(package: &Table, root: &Inherited, dir: &Path) -> PathBuf {
    let inherited = package
        .get("readme")
        .and_then(Value::as_table)
        .is_some_and(|t| t.contains_key("workspace"));
    match (&root.dir, inherited) {
        (Some(root), true) => root.clone(),
        _ => dir.to_path_buf(),
    }
}

/// The workspace root above a package, read when a key is inherited.
struct Inherited {
    dir: Option<PathBuf>,
    package: Option<Table>,
}

impl Inherited {
    fn new(dir: &Path) -> Self {
        let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        for ancestor in start.ancestors() {
            let Ok(text) = std::fs::read_to_string(ancestor.join("Cargo.toml")) else {
                continue;
            };
            let Ok(doc) = toml::from_str::<Table>(&text) else {
                continue;
            };
            if let Some(workspace) = doc.get("workspace").and_then(Value::as_table) {
                return Self {
                    dir: Some(ancestor.to_path_buf()),
                    package: workspace.get("package").and_then(Value::as_table).cloned(),
                };
            }
        }
        Self {
            dir: None,
            package: None,
        }
    }

    /// `[workspace.package] <key>` for the package at `manifest`.
    fn get(&self, key: &str, manifest: &Path) -> Result<Value, String> {
        self.package
            .as_ref()
            .and_then(|p| p.get(key))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "`{}` inherits `package.{key}` from the workspace, and no workspace root above it has `[workspace.package] {key}`",
                    manifest.display()
                )
            })
    }
}

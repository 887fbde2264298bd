//! Other crates' types: each crate that calls `emit()` publishes a type table, and a
//! dependent's build script reads the tables of its dependencies, then their source with
//! the same syntax model.
//!
//! The table (`OUT_DIR/neuralis_table.json`) says where the crate's source is and how it
//! is configured: its package and library name, its root file, the features and `cfg`
//! cargo gave its build script, and what its source calls its own dependencies (each
//! with that dependency's table, when it has one). cargo hands it to the build scripts of
//! direct dependents when the crate declares `links` (`cargo::metadata=neuralis_table=`
//! becomes `DEP_<LINKS>_NEURALIS_TABLE`); the tables of dependencies' dependencies are
//! reached through the externs of each table, so a re-export of a re-export is followed
//! to the crate that defines the type. The source read is that of the very dependency
//! being compiled (its version, its features), and nothing is written outside `OUT_DIR`.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::cfg::Cfg;
use crate::discover::Crate;
use crate::manifest::Manifest;

/// The file a crate's table is written to, in `OUT_DIR`.
pub const TABLE_FILE: &str = "neuralis_table.json";
/// The `cargo::metadata` key; dependents read `DEP_<LINKS>_NEURALIS_TABLE`.
pub const METADATA_KEY: &str = "neuralis_table";
const FORMAT: &str = "neuralis-build type table 1";
/// Crates read at most, so that a hostile table cannot make the run endless.
const MAX_CRATES: usize = 512;

/// A crate whose source was read.
#[derive(Debug, Clone)]
pub struct CrateInfo {
    /// What its modules' paths start with: `crate` for the package being built, else the
    /// library's name.
    pub name: String,
    /// Its package, when known.
    pub package: Option<String>,
    /// Its root module (none when the root file could not be read).
    pub root: Option<usize>,
    /// Its modules (indexes into [`Crate::modules`]).
    pub modules: Range<usize>,
    /// What its source calls its dependencies.
    pub externs: BTreeMap<String, Extern>,
    /// Whether `externs` are all its dependencies (from its manifest or its table), so a
    /// name not among them is none.
    pub externs_known: bool,
    /// Its library's name, when known (the package's own library is a crate its binaries
    /// may name).
    pub lib: Option<String>,
    /// The table it was read from (none for the package being built).
    pub table: Option<PathBuf>,
}

impl CrateInfo {
    /// The package being built.
    #[must_use]
    pub fn package(root: Option<usize>, modules: Range<usize>) -> Self {
        Self {
            name: "crate".into(),
            package: None,
            root,
            modules,
            externs: BTreeMap::new(),
            externs_known: false,
            lib: None,
            table: None,
        }
    }
}

/// A dependency, by the name a crate's source gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extern {
    /// A crate whose source was read (index into [`Crate::crates`]).
    Read(usize),
    /// A dependency that publishes no type table: its package.
    Opaque(String),
}

/// One crate's published table.
#[derive(Debug, Clone)]
struct Table {
    package: String,
    lib: String,
    root: PathBuf,
    cfg: Cfg,
    /// Name in the crate's source → (package, its table).
    externs: BTreeMap<String, (String, Option<PathBuf>)>,
}

impl Table {
    fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let bad = || "not a neuralis-build type table (or of another version)".to_owned();
        if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(bad());
        }
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let cfg = v.get("cfg").and_then(Cfg::from_json).ok_or_else(bad)?;
        let mut externs = BTreeMap::new();
        for (name, e) in v
            .get("externs")
            .and_then(Value::as_object)
            .ok_or_else(bad)?
        {
            let package = e.get("package").and_then(Value::as_str).ok_or_else(bad)?;
            let table = e.get("table").and_then(Value::as_str).map(PathBuf::from);
            externs.insert(name.clone(), (package.to_owned(), table));
        }
        Ok(Self {
            package: s("package").ok_or_else(bad)?,
            lib: s("lib").ok_or_else(bad)?,
            root: s("root").map(PathBuf::from).ok_or_else(bad)?,
            cfg,
            externs,
        })
    }
}

/// The tables cargo hands this build script: `DEP_<LINKS>_NEURALIS_TABLE` of each
/// direct dependency that declares `links` and publishes one, in name order.
#[must_use]
pub fn tables_from_env() -> Vec<PathBuf> {
    let mut found: Vec<(String, PathBuf)> = std::env::vars_os()
        .filter_map(|(k, v)| {
            let k = k.into_string().ok()?;
            let upper = METADATA_KEY.to_uppercase();
            (k.starts_with("DEP_") && k.ends_with(&format!("_{upper}")))
                .then(|| (k, PathBuf::from(v)))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, p)| p).collect()
}

/// What loading found besides the crates: files to watch and what to warn about.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The tables read.
    pub files: Vec<PathBuf>,
    /// One line each.
    pub warnings: Vec<String>,
}

/// Reads the direct dependencies' `tables` (and the tables they lead to) and their
/// source into `krate`, and sets the package's externs: each dependency of the manifest
/// under the name its source uses, read or opaque. With no manifest (a crate outside
/// cargo), each table's crate is named by its library's name.
pub fn load(krate: &mut Crate, manifest: Option<&Manifest>, tables: &[PathBuf]) -> Loaded {
    let mut loader = Loader {
        krate,
        by_path: BTreeMap::new(),
        loaded: Loaded::default(),
    };
    let direct: Vec<(PathBuf, Table)> = tables
        .iter()
        .filter_map(|p| loader.table(p).map(|t| (p.clone(), t)))
        .collect();
    let mut externs = BTreeMap::new();
    match manifest {
        Some(m) => {
            for dep in &m.deps {
                match direct.iter().find(|(_, t)| t.package == dep.package) {
                    Some((path, t)) => {
                        let name = dep.extern_name(Some(&t.lib));
                        if let Some(k) = loader.load(path, t.clone()) {
                            externs.insert(name, Extern::Read(k));
                        }
                    }
                    None => {
                        externs.insert(dep.extern_name(None), Extern::Opaque(dep.package.clone()));
                    }
                }
            }
        }
        None => {
            for (path, t) in &direct {
                if let Some(k) = loader.load(path, t.clone()) {
                    externs.insert(t.lib.clone(), Extern::Read(k));
                }
            }
        }
    }
    let loaded = std::mem::take(&mut loader.loaded);
    if let Some(package) = krate.crates.first_mut() {
        package.externs = externs;
        package.externs_known = manifest.is_some();
        package.package = manifest.and_then(|m| m.package.clone());
        package.lib = manifest.and_then(Manifest::lib);
    }
    loaded
}

struct Loader<'a> {
    krate: &'a mut Crate,
    by_path: BTreeMap<PathBuf, usize>,
    loaded: Loaded,
}

impl Loader<'_> {
    fn table(&mut self, path: &Path) -> Option<Table> {
        match Table::read(path) {
            Ok(t) => {
                if !self.loaded.files.iter().any(|f| f == path) {
                    self.loaded.files.push(path.to_path_buf());
                }
                Some(t)
            }
            Err(e) => {
                self.loaded.warnings.push(format!(
                    "cannot read the type table {}: {e}; its crate's types cannot be followed",
                    path.display()
                ));
                None
            }
        }
    }

    /// Reads the crate of `table` (once per table) and, first, the crates it leads to.
    fn load(&mut self, path: &Path, table: Table) -> Option<usize> {
        if let Some(&k) = self.by_path.get(path) {
            return Some(k);
        }
        if self.krate.crates.len() >= MAX_CRATES {
            self.loaded.warnings.push(format!(
                "more than {MAX_CRATES} crates publish type tables; {} is not read",
                path.display()
            ));
            return None;
        }
        let (modules, root) = self
            .krate
            .read_dependency(&table.root, &table.cfg, &table.lib);
        let index = self.krate.crates.len();
        self.krate.crates.push(CrateInfo {
            name: table.lib.clone(),
            package: Some(table.package.clone()),
            root,
            modules,
            externs: BTreeMap::new(),
            externs_known: true,
            lib: Some(table.lib.clone()),
            table: Some(path.to_path_buf()),
        });
        self.by_path.insert(path.to_path_buf(), index);
        let mut externs = BTreeMap::new();
        for (name, (package, sub)) in table.externs {
            let read = sub.and_then(|p| {
                let t = self.table(&p)?;
                self.load(&p, t)
            });
            externs.insert(
                name,
                read.map_or_else(|| Extern::Opaque(package), Extern::Read),
            );
        }
        self.krate.crates[index].externs = externs;
        Some(index)
    }
}

/// The package's own table, for its dependents (dependents know a table by the package
/// its manifest names): `None` when a path is not UTF-8 (a JSON table cannot carry it).
#[must_use]
pub fn table_text(krate: &Crate, manifest: &Manifest, root: &Path, cfg: &Cfg) -> Option<String> {
    let package = manifest.package.clone()?;
    let lib = manifest.lib().unwrap_or_else(|| package.replace('-', "_"));
    let root = std::path::absolute(root).ok()?;
    let mut externs = Map::new();
    if let Some(package_info) = krate.crates.first() {
        for (name, e) in &package_info.externs {
            let (package, table) = match e {
                Extern::Read(k) => {
                    let c = &krate.crates[*k];
                    let table = match &c.table {
                        Some(t) => Value::String(t.to_str()?.to_owned()),
                        None => Value::Null,
                    };
                    (c.package.clone().unwrap_or_default(), table)
                }
                Extern::Opaque(p) => (p.clone(), Value::Null),
            };
            externs.insert(name.clone(), json!({ "package": package, "table": table }));
        }
    }
    let v = json!({
        "format": FORMAT,
        "package": package,
        "lib": lib,
        "root": root.to_str()?,
        "cfg": cfg.to_json(),
        "externs": externs,
    });
    serde_json::to_string_pretty(&v).ok().map(|mut s| {
        s.push('\n');
        s
    })
}

impl Crate {
    /// The crate that `module` belongs to (index into [`Crate::crates`]).
    #[must_use]
    pub fn crate_of(&self, module: usize) -> usize {
        self.crates
            .iter()
            .position(|c| c.modules.contains(&module))
            .unwrap_or(0)
    }

    /// The package of a dependency (its library's name when the table named none).
    #[must_use]
    pub fn extern_package(&self, e: &Extern) -> String {
        match e {
            Extern::Opaque(package) => package.clone(),
            Extern::Read(k) => self
                .crates
                .get(*k)
                .map(|c| c.package.clone().unwrap_or_else(|| c.name.clone()))
                .unwrap_or_default(),
        }
    }

    /// The dependency that the crate of `module` calls `name`.
    #[must_use]
    pub fn extern_named(&self, module: usize, name: &str) -> Option<&Extern> {
        self.crates
            .get(self.crate_of(module))
            .and_then(|c| c.externs.get(name))
    }
}

//! Name resolution: a type path written in a module, to the item it names, in the
//! package or in a dependency whose source was read (`deps`).
//!
//! By the path written only, as rustc resolves it: `crate::`, `self::`, `super::`, child
//! modules, `use` entries (which shadow globs), globs, `pub use` re-exports, and, for the
//! first segment, the dependencies by the names the crate's source gives them (`::name`
//! for a dependency only). Nothing is found "by name elsewhere": a name the source does
//! not bring into scope is a typo or a type of a crate that publishes no table, and two
//! globs bringing one name (from one crate or two) are an ambiguity, never a guess. A
//! glob into another crate sees what that crate makes `pub` only.

use proc_macro2::Span;

use crate::deps::Extern;
use crate::discover::{Crate, Use};

/// Uses are followed at most this deep, so `use` cycles end.
const MAX_DEPTH: usize = 16;

/// Where a path leads when it names no item that was read: for messages, and for the
/// origin of a well-known name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trace {
    /// Out of the crates read, into `package` (a dependency that publishes no type table,
    /// or `std`/`core`/`alloc`), as `path` is written where it leaves them.
    Opaque {
        /// The package (`-` as written in `Cargo.toml`).
        package: String,
        /// The path.
        path: Vec<String>,
    },
    /// Into a crate that was read (index into [`Crate::crates`]), which has no such item.
    Absent {
        /// The crate.
        krate: usize,
    },
    /// The first segment is no module, and no dependency the build script knows.
    Unknown {
        /// That segment.
        first: String,
        /// The path, as written where the segment is met.
        path: Vec<String>,
        /// The `use` that writes it, when the path was reached through one.
        via: Option<Via>,
    },
    /// One name, brought in by no `use`: the prelude, a glob, or nothing.
    Unscoped,
}

/// Where a `use` writes a path: its module and the span of the path's first segment.
#[derive(Debug, Clone, Copy)]
pub struct Via {
    /// The module of the `use`.
    pub module: usize,
    /// The first segment.
    pub span: Span,
}

impl PartialEq for Via {
    fn eq(&self, other: &Self) -> bool {
        self.module == other.module
            && self.span.start() == other.span.start()
            && self.span.end() == other.span.end()
    }
}

impl Eq for Via {}

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The type at this index of [`Crate::types`].
    Type(usize),
    /// Nothing in this crate: another crate's type (or a typo).
    Missing,
    /// Brought in by globs from several places.
    Ambiguous(Vec<usize>),
}

impl Crate {
    /// Resolves `path` (segments without generic arguments) written in `module`.
    #[must_use]
    pub fn resolve_type(&self, module: usize, path: &[String]) -> Found {
        let mut found = Vec::new();
        self.type_at(module, path, 0, &mut found);
        found.sort_unstable();
        found.dedup();
        match found.len() {
            0 => Found::Missing,
            1 => Found::Type(found[0]),
            _ => Found::Ambiguous(found),
        }
    }

    /// The crate's type that `path` names by the path written, when exactly one: a
    /// crate type shadows a std or prelude name, as in rustc.
    #[must_use]
    pub fn type_by_path(&self, module: usize, path: &[String]) -> Option<usize> {
        match self.resolve_type(module, path) {
            Found::Type(t) => Some(t),
            _ => None,
        }
    }

    /// The `use` that brings `name` into `module` (`use ext::Item;`), if any: the path a
    /// field typed `Item` then names.
    #[must_use]
    pub fn import<'a>(&'a self, module: usize, name: &'a str) -> Option<&'a [String]> {
        self.import_entry(module, name).map(|u| u.path.as_slice())
    }

    /// Where `path`, written in `module`, leads when it names no item that was read:
    /// through `use` entries and re-exports, into the crates read, out of them.
    #[must_use]
    pub fn trace(&self, module: usize, path: &[String]) -> Trace {
        self.trace_at(module, path, 0, None)
    }

    /// The `use` entry that brings `name` into `module`, as [`Crate::import`] finds it.
    fn import_entry<'a>(&'a self, module: usize, name: &'a str) -> Option<&'a Use> {
        self.uses_named(module, name)
            .find(|u| !is_self_import(u, name))
    }

    fn trace_at(&self, module: usize, path: &[String], depth: usize, via: Option<Via>) -> Trace {
        if depth > MAX_DEPTH {
            return Trace::Unscoped;
        }
        let Some((last, prefix)) = path.split_last() else {
            return Trace::Unscoped;
        };
        let through = |u: &Use| u.span.map(|span| Via { module, span }).or(via);
        if prefix.is_empty() {
            return match self.import_entry(module, last) {
                Some(u) => self.trace_at(module, &u.path, depth + 1, through(u)),
                None => Trace::Unscoped,
            };
        }
        if let Some(at) = self.module_at(module, prefix, depth) {
            return match self.trace_at(at, std::slice::from_ref(last), depth + 1, via) {
                Trace::Unscoped => Trace::Absent {
                    krate: self.crate_of(at),
                },
                t => t,
            };
        }
        let (first, rest) = match prefix.split_first() {
            Some((f, r)) if f == "::" => match r.split_first() {
                Some((name, _)) => (name, true),
                None => return Trace::Unscoped,
            },
            Some((f, _)) => (f, false),
            None => return Trace::Unscoped,
        };
        let local = !rest
            && (self.start(module, first).is_some()
                || self.modules[module].children.contains_key(first.as_str())
                || self.import(module, first).is_some());
        if local {
            return match self.import_entry(module, first) {
                Some(u) if !self.modules[module].children.contains_key(first.as_str()) => {
                    let mut written = u.path.clone();
                    written.extend(path.iter().skip(1).cloned());
                    self.trace_at(module, &written, depth + 1, through(u))
                }
                _ => Trace::Absent {
                    krate: self.crate_of(module),
                },
            };
        }
        match self.extern_named(module, first) {
            Some(Extern::Opaque(package)) => Trace::Opaque {
                package: package.clone(),
                path: path.to_vec(),
            },
            Some(Extern::Read(k)) => Trace::Absent { krate: *k },
            None if matches!(first.as_str(), "std" | "core" | "alloc") => Trace::Opaque {
                package: first.clone(),
                path: path.to_vec(),
            },
            None => Trace::Unknown {
                first: first.clone(),
                path: path.to_vec(),
                via,
            },
        }
    }

    /// Whether `first`, the first segment of a path written in `module` that names no
    /// module, item or dependency the build script knows, certainly names nothing: then
    /// the compiler reports the path, and the build script can leave it to the compiler.
    ///
    /// Only in the package's own source, only when its manifest was read (the
    /// dependencies are then known), and not when the name could come from where the
    /// build script cannot look: the sysroot's crates, the package's own library,
    /// `extern crate`, an item-level macro, or a glob into a crate whose source was not
    /// read.
    #[must_use]
    pub fn names_nothing(&self, module: usize, first: &str) -> bool {
        let Some(package) = self.crates.first() else {
            return false;
        };
        self.crate_of(module) == 0
            && package.externs_known
            && !package.externs.contains_key(first)
            // `neuralis_package`: what `neuralis::package!()` defines.
            && !matches!(
                first,
                "std" | "core" | "alloc" | "proc_macro" | "test" | "Self" | "neuralis_package"
            )
            && package.lib.as_deref() != Some(first)
            && !self.extern_crates.iter().any(|e| e == first)
            && !self.may_bring(module, first, 0)
    }

    /// Whether `name` could be in scope in `module` without the build script seeing
    /// where from: defined or brought in there (a module, a type, a `use`), made by a
    /// macro there, or brought by a glob that may bring it.
    fn may_bring(&self, module: usize, name: &str, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        let m = &self.modules[module];
        if m.macros
            || m.children.contains_key(name)
            || m.types.contains_key(name)
            || self.uses_named(module, name).next().is_some()
        {
            return true;
        }
        m.uses.iter().filter(|u| u.alias.is_none()).any(|g| {
            match self.module_at(module, &g.path, depth + 1) {
                Some(target) => self.may_bring(target, name, depth + 1),
                // A glob into a crate whose source was not read may bring anything; a glob
                // whose path names nothing fails to compile by itself.
                None => match g.path.iter().find(|s| *s != "::") {
                    Some(first) => {
                        self.start(module, first).is_some()
                            || m.children.contains_key(first.as_str())
                            || self.import(module, first).is_some()
                            || self.extern_named(module, first).is_some()
                            || !self.names_nothing_here(first)
                    }
                    None => true,
                },
            }
        })
    }

    /// [`Crate::names_nothing`] without the scope: the name is no crate of the package.
    fn names_nothing_here(&self, first: &str) -> bool {
        self.crates.first().is_some_and(|p| {
            p.externs_known
                && !p.externs.contains_key(first)
                && !matches!(first, "std" | "core" | "alloc" | "proc_macro" | "test")
                && p.lib.as_deref() != Some(first)
                && !self.extern_crates.iter().any(|e| e == first)
        })
    }

    fn start(&self, module: usize, first: &str) -> Option<usize> {
        match first {
            "crate" => self.crates.get(self.crate_of(module)).and_then(|c| c.root),
            "self" => Some(module),
            "super" => self.modules[module].parent,
            _ => None,
        }
    }

    /// The root module of the dependency that the crate of `module` calls `name`, when
    /// its source was read.
    fn extern_root(&self, module: usize, name: &str) -> Option<usize> {
        match self.extern_named(module, name)? {
            Extern::Read(k) => self.crates[*k].root,
            Extern::Opaque(_) => None,
        }
    }

    /// The module named by `path` from `module`.
    fn module_at(&self, module: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let (mut at, rest) = if first == "::" {
            let (name, rest) = rest.split_first()?;
            (self.extern_root(module, name)?, rest)
        } else {
            let at = match self.start(module, first) {
                Some(m) => m,
                // Names in scope shadow the dependencies (rustc's extern prelude).
                None => self
                    .child_module(module, first, depth)
                    .or_else(|| self.extern_root(module, first))?,
            };
            (at, rest)
        };
        for seg in rest {
            at = match seg.as_str() {
                "super" => self.modules[at].parent?,
                "self" => at,
                _ => self.child_module(at, seg, depth)?,
            };
        }
        Some(at)
    }

    /// A module visible by `name` in `module`: a child, or a `use` of one.
    fn child_module(&self, module: usize, name: &str, depth: usize) -> Option<usize> {
        if let Some(c) = self.modules[module].children.get(name) {
            return Some(*c);
        }
        self.uses_named(module, name)
            .filter(|u| !is_self_import(u, name))
            .find_map(|u| self.module_at(module, &u.path, depth + 1))
    }

    fn uses_named<'a>(&'a self, module: usize, name: &'a str) -> impl Iterator<Item = &'a Use> {
        self.modules[module]
            .uses
            .iter()
            .filter(move |u| u.alias.as_deref() == Some(name))
    }

    /// The types named by `path` from `module`, by the path written.
    fn type_at(&self, module: usize, path: &[String], depth: usize, found: &mut Vec<usize>) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some((last, prefix)) = path.split_last() else {
            return;
        };
        let at = if prefix.is_empty() {
            module
        } else {
            match self.module_at(module, prefix, depth) {
                Some(m) => m,
                None => return,
            }
        };
        let outside = self.crate_of(at) != self.crate_of(module);
        self.type_in(at, last, outside, depth, found);
    }

    /// The types visible by `name` in `module`: defined there, else brought in by `use`,
    /// else by globs (all of them: more than one is an ambiguity). `outside`: seen from
    /// another crate, which sees `pub` items only.
    fn type_in(
        &self,
        module: usize,
        name: &str,
        outside: bool,
        depth: usize,
        found: &mut Vec<usize>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let m = &self.modules[module];
        if let Some(&t) = m.types.get(name) {
            if !outside || self.types[t].public {
                found.push(t);
            }
            return;
        }
        // An explicit `use` shadows every glob, even one that leads out of this crate.
        let mut imported = false;
        for u in self
            .uses_named(module, name)
            .filter(|u| !outside || u.public)
        {
            imported = true;
            self.type_at(module, &u.path, depth + 1, found);
        }
        if imported {
            return;
        }
        for g in m
            .uses
            .iter()
            .filter(|u| u.alias.is_none() && (!outside || u.public))
            .filter_map(|u| self.module_at(module, &u.path, depth + 1))
        {
            let outside = outside || self.crate_of(g) != self.crate_of(module);
            self.type_in(g, name, outside, depth + 1, found);
        }
    }
}

/// `use name;` or `use ::name;`: the dependency itself, not another name for a module.
fn is_self_import(u: &Use, name: &str) -> bool {
    match u.path.as_slice() {
        [only] => only == name,
        [colons, only] => colons == "::" && only == name,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::Cfg;

    fn krate(files: &[(&str, &str)]) -> (tempfile::TempDir, Crate) {
        let tmp = tempfile::tempdir().expect("tempdir");
        for (rel, text) in files {
            let p = tmp.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(p, text).expect("write");
        }
        let k = Crate::read(&tmp.path().join("src/lib.rs"), &Cfg::default());
        (tmp, k)
    }

    fn segs(s: &str) -> Vec<String> {
        s.split("::").map(str::to_owned).collect()
    }

    fn name_of(k: &Crate, f: &Found) -> String {
        match f {
            Found::Type(t) => format!(
                "{}::{}",
                k.module_name(k.types[*t].module),
                k.types[*t].ident
            ),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn by_path_never_by_name_elsewhere() {
        let (_t, k) = krate(&[
            (
                "src/lib.rs",
                "mod a; mod b; mod c; pub use a::Item as Renamed; use b::*; struct Root;",
            ),
            (
                "src/a.rs",
                "pub struct Item; pub struct Only; use super::Root;",
            ),
            (
                "src/b.rs",
                "pub struct Item; pub struct FromGlob; pub mod inner { pub struct Deep; }",
            ),
            (
                "src/c.rs",
                "use ext::Item; use ext::Other as Mine; use super::b::*;",
            ),
        ]);
        let root = 0;
        let a = k.module_by_path(&segs("crate::a")).expect("a");
        let c = k.module_by_path(&segs("crate::c")).expect("c");
        let r = |m, p: &str| name_of(&k, &k.resolve_type(m, &segs(p)));
        assert_eq!(r(root, "a::Item"), "crate::a::Item");
        assert_eq!(r(root, "crate::b::Item"), "crate::b::Item");
        assert_eq!(r(a, "Item"), "crate::a::Item", "own module first");
        assert_eq!(r(a, "super::b::Item"), "crate::b::Item");
        assert_eq!(r(a, "Root"), "crate::Root", "through `use`");
        assert_eq!(r(root, "Renamed"), "crate::a::Item", "through `use ... as`");
        assert_eq!(r(root, "FromGlob"), "crate::b::FromGlob", "through a glob");
        assert_eq!(r(root, "b::inner::Deep"), "crate::b::inner::Deep");
        assert_eq!(r(a, "Only"), "crate::a::Only");
        // Not in scope where written: another crate's, never a namesake found elsewhere.
        assert_eq!(k.resolve_type(root, &segs("Deep")), Found::Missing);
        assert_eq!(k.resolve_type(a, &segs("Deep")), Found::Missing);
        assert_eq!(k.resolve_type(a, &segs("other::Item")), Found::Missing);
        assert_eq!(k.resolve_type(a, &segs("Missing")), Found::Missing);
        // `use ext::Item` while the crate has its own `Item`s: the import wins.
        assert_eq!(k.resolve_type(c, &segs("Item")), Found::Missing);
        assert_eq!(
            k.import(c, "Item").map(<[String]>::to_vec),
            Some(segs("ext::Item"))
        );
        match k.trace(c, &segs("Mine")) {
            Trace::Unknown {
                first,
                path,
                via: Some(via),
            } => {
                assert_eq!((first.as_str(), path), ("ext", segs("ext::Other")));
                // `use ext::Other as Mine;`, the second `use` of the line: at its `ext`.
                assert_eq!(via.module, c);
                assert_eq!((via.span.start().line, via.span.start().column), (1, 19));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            k.trace(root, &segs("a::Nothing")),
            Trace::Absent { krate: 0 }
        );
        assert_eq!(
            k.trace(root, &segs("std::time::Duration")),
            Trace::Opaque {
                package: "std".into(),
                path: segs("std::time::Duration")
            }
        );
        // `Item` from the root: not defined there, through the glob only.
        match k.resolve_type(root, &segs("Item")) {
            Found::Type(t) => assert_eq!(k.module_name(k.types[t].module), "crate::b", "the glob"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_name_names_nothing_only_where_nothing_could_bring_it() {
        let (_t, mut k) = krate(&[
            (
                "src/lib.rs",
                "mod plain; mod globbed; mod macroed; mod tables; mod opaque_glob; mod unknown_glob; pub mod inner {} extern crate foo as bar;",
            ),
            ("src/plain.rs", "use warehouse_types::Sku;"),
            ("src/globbed.rs", "use super::*;"),
            (
                "src/macroed.rs",
                "make_modules! {}\nmacro_rules! defines_nothing { () => {} }",
            ),
            (
                "src/tables.rs",
                "neuralis::package!();\nneuralis::wasm_entry!();",
            ),
            ("src/opaque_glob.rs", "use stock::*;"),
            ("src/unknown_glob.rs", "use nosuch::*;"),
        ]);
        let m = |name: &str| {
            k.module_by_path(&segs(&format!("crate::{name}")))
                .expect(name)
        };
        let (plain, globbed, macroed, tables, opaque, unknown) = (
            m("plain"),
            m("globbed"),
            m("macroed"),
            m("tables"),
            m("opaque_glob"),
            m("unknown_glob"),
        );
        // Without a manifest the dependencies are not known: nothing is certain.
        assert!(!k.names_nothing(plain, "warehouse_types"));
        let package = &mut k.crates[0];
        package.externs_known = true;
        package.lib = Some("mylib".into());
        package
            .externs
            .insert("stock".into(), Extern::Opaque("warehouse-types".into()));
        assert!(k.names_nothing(plain, "warehouse_types"));
        for known in [
            "stock",
            "std",
            "core",
            "alloc",
            "proc_macro",
            "mylib",
            "bar",
            "Self",
        ] {
            assert!(!k.names_nothing(plain, known), "{known}");
        }
        // Through `use super::*`: the parent's module and `extern crate`, not more.
        assert!(!k.names_nothing(globbed, "inner"));
        assert!(k.names_nothing(globbed, "warehouse_types"));
        // A macro may define any name; a glob into a crate not read may bring any.
        assert!(!k.names_nothing(macroed, "warehouse_types"));
        // The toolkit's own macros define `neuralis_package` only.
        assert!(k.names_nothing(tables, "warehouse_types"));
        assert!(!k.names_nothing(tables, "neuralis_package"));
        assert!(!k.names_nothing(opaque, "warehouse_types"));
        // A glob that names nothing fails to compile by itself.
        assert!(k.names_nothing(unknown, "warehouse_types"));
    }

    #[test]
    fn two_globs_are_an_ambiguity() {
        let (_t, k) = krate(&[
            ("src/lib.rs", "mod a; mod b; use a::*; use b::*;"),
            ("src/a.rs", "pub struct Item;"),
            ("src/b.rs", "pub struct Item;"),
        ]);
        match k.resolve_type(0, &segs("Item")) {
            Found::Ambiguous(c) => assert_eq!(c.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn use_cycles_end() {
        let (_t, k) = krate(&[
            ("src/lib.rs", "mod a; mod b;"),
            ("src/a.rs", "pub use super::b::*;"),
            ("src/b.rs", "pub use super::a::*;"),
        ]);
        assert_eq!(k.resolve_type(0, &segs("a::Nothing")), Found::Missing);
    }
}

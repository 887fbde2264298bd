//! Name resolution: a type path written in a module, to the crate's item it names.
//!
//! First by the path written (`crate::`, `self::`, `super::`, child modules, `use`
//! entries and globs, `pub use` re-exports), else by a unique name in the crate. Two
//! items of that name are an ambiguity, never a guess.

use crate::discover::{Crate, Use};

/// Uses are followed at most this deep, so `use` cycles end.
const MAX_DEPTH: usize = 16;

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The type at this index of [`Crate::types`].
    Type(usize),
    /// Nothing in this crate (another crate's type, or a typo).
    Missing,
    /// Found by name only, in several places.
    Ambiguous(Vec<usize>),
}

impl Crate {
    /// Resolves `path` (segments without generic arguments) written in `module`.
    #[must_use]
    pub fn resolve_type(&self, module: usize, path: &[String]) -> Found {
        if let Some(t) = self.type_at(module, path, 0) {
            return Found::Type(t);
        }
        let Some(last) = path.last() else {
            return Found::Missing;
        };
        // A path into another crate (`chrono::NaiveDate`) never falls back to a local
        // namesake.
        if path.len() > 1 && self.module_at(module, &path[..1], 0).is_none() {
            return Found::Missing;
        }
        let candidates: Vec<usize> = self
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.ident == last.as_str())
            .map(|(i, _)| i)
            .collect();
        match candidates.len() {
            0 => Found::Missing,
            1 => Found::Type(candidates[0]),
            _ => Found::Ambiguous(candidates),
        }
    }

    /// The crate's type that `path` names by the path written alone (no fallback by
    /// name): a crate type shadows a std or prelude name, as in rustc.
    #[must_use]
    pub fn type_by_path(&self, module: usize, path: &[String]) -> Option<usize> {
        self.type_at(module, path, 0)
    }

    fn start(&self, module: usize, first: &str) -> Option<usize> {
        match first {
            "crate" => Some(0),
            "self" => Some(module),
            "super" => self.modules[module].parent,
            _ => None,
        }
    }

    /// The module named by `path` from `module`.
    fn module_at(&self, module: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let mut at = match self.start(module, first) {
            Some(m) => m,
            None => self.child_module(module, first, depth)?,
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
            .find_map(|u| self.module_at(module, &u.path, depth + 1))
    }

    fn uses_named<'a>(&'a self, module: usize, name: &'a str) -> impl Iterator<Item = &'a Use> {
        self.modules[module]
            .uses
            .iter()
            .filter(move |u| u.alias.as_deref() == Some(name))
    }

    /// The type named by `path` from `module`, by the path written.
    fn type_at(&self, module: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (last, prefix) = path.split_last()?;
        let at = if prefix.is_empty() {
            module
        } else {
            self.module_at(module, prefix, depth)?
        };
        self.type_in(at, last, depth)
    }

    /// A type visible by `name` in `module`: defined there, brought in by `use`, or by
    /// a glob.
    fn type_in(&self, module: usize, name: &str, depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = &self.modules[module];
        if let Some(t) = m.types.get(name) {
            return Some(*t);
        }
        if let Some(t) = self
            .uses_named(module, name)
            .find_map(|u| self.type_at(module, &u.path, depth + 1))
        {
            return Some(t);
        }
        m.uses
            .iter()
            .filter(|u| u.alias.is_none())
            .filter_map(|u| self.module_at(module, &u.path, depth + 1))
            .find_map(|g| self.type_in(g, name, depth + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::Cfg;
    use std::path::Path;

    fn krate(files: &[(&str, &str)]) -> (tempfile::TempDir, Crate) {
        let tmp = tempfile::tempdir().expect("tempdir");
        for (rel, text) in files {
            let p = tmp.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(p, text).expect("write");
        }
        let k = Crate::read(
            &tmp.path().join("src/lib.rs"),
            Path::new("/"),
            &Cfg::default(),
        );
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
    fn by_path_then_by_unique_name() {
        let (_t, k) = krate(&[
            (
                "src/lib.rs",
                "mod a; mod b; pub use a::Item as Renamed; use b::*; struct Root;",
            ),
            (
                "src/a.rs",
                "pub struct Item; pub struct Only; use super::Root;",
            ),
            (
                "src/b.rs",
                "pub struct Item; pub struct FromGlob; pub mod inner { pub struct Deep; }",
            ),
        ]);
        let root = 0;
        let a = k.module_by_path(&segs("crate::a")).expect("a");
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
        assert_eq!(r(root, "Deep"), "crate::b::inner::Deep", "unique name");
        assert!(matches!(k.resolve_type(a, &segs("Deep")), Found::Type(_)));
        match k.resolve_type(a, &segs("other::Item")) {
            Found::Missing => {}
            other => panic!("another crate's path must not fall back: {other:?}"),
        }
        match k.resolve_type(a, &segs("Missing")) {
            Found::Missing => {}
            other => panic!("{other:?}"),
        }
        // `Item` from the root: not there by path (the root has `Renamed`), two by name.
        match k.resolve_type(root, &segs("Item")) {
            Found::Type(t) => assert_eq!(k.module_name(k.types[t].module), "crate::b", "the glob"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ambiguity_names_both() {
        let (_t, k) = krate(&[
            ("src/lib.rs", "mod a; mod b;"),
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

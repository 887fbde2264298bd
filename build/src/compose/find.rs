//! Finding the crate item a named type is, and, when there is none, why and what to do.

use neuralis_model::types::{self, Known, Meaning};
use neuralis_syntax::types::{Ty, type_args};
use syn::Type;

use super::{Problem, Scope, Site, StaticView, segments, tokens};
use crate::deps::Extern;
use crate::resolve::{Found, Trace, Via};

const HELP_OPAQUE: &str = "give the field `#[schema(with = T)]` naming a type with the same JSON form; or derive `ToolInput` on the type in its crate and publish that crate's type table (`links` in its Cargo.toml and `neuralis_build::emit()` in its build.rs); or, for a well-known crate's type (`uuid`, `chrono`, `url`, `time`), turn on the `neuralis` feature of that name";

impl StaticView<'_> {
    /// The crate item a path type names, with its generic arguments.
    pub(super) fn find(
        &self,
        ty: &Ty,
        scope: &Scope,
        site: &Site,
    ) -> Result<(usize, Vec<(Type, Scope)>), Problem> {
        if let Some((t, s, use_site)) = self.parameter(ty, scope) {
            return self.find(&Ty::of(t), s, use_site);
        }
        let Some(path) = ty.path() else {
            return Err(self.unresolved(&ty.written, site, "it is not a path to a type"));
        };
        let segments = segments(path);
        let args = path
            .segments
            .last()
            .map(|s| type_args(&s.arguments))
            .unwrap_or_default()
            .into_iter()
            .map(|t| (t.clone(), scope.clone()))
            .collect();
        let ty = &ty.written;
        match self.krate.resolve_type(scope.module, &segments) {
            Found::Type(t) => Ok((t, args)),
            Found::Missing => Err(self.missing(ty, &segments, scope, site)),
            Found::Ambiguous(candidates) => {
                let names: Vec<String> = candidates
                    .iter()
                    .map(|&c| {
                        let t = &self.krate.types[c];
                        format!(
                            "`{}::{}` ({})",
                            self.krate.module_name(t.module),
                            t.ident,
                            self.loc(t.module, t.ident.span()).display(self.krate)
                        )
                    })
                    .collect();
                Err(Problem::Unresolved {
                    loc: site.loc.clone(),
                    message: format!(
                        "type `{}` of field `{}` in `{}` is ambiguous: it names {}",
                        tokens(ty),
                        site.field,
                        site.owner,
                        names.join(" and ")
                    ),
                    help:
                        "write the full path (`crate::...`) or bring the one you mean in with `use`"
                            .into(),
                })
            }
        }
    }

    /// A well-known name is read as the well-known type only when its path (as written,
    /// or through the `use` that brings it in) starts at one of that type's crates.
    pub(super) fn check_origin(
        &self,
        ty: &Type,
        segments: &[String],
        known: &Known,
        scope: &Scope,
        site: &Site,
    ) -> Result<(), Problem> {
        let (name, crates) = (known.name, known.crates);
        let (package, path) = match self.krate.trace(scope.module, segments) {
            // The prelude, or a glob: the compiler decides, and the drift test compares.
            Trace::Unscoped => return Ok(()),
            Trace::Opaque { package, path } => (package.replace('-', "_"), path),
            Trace::Unknown { first, via, path }
                if self.krate.names_nothing(scope.module, &first) =>
            {
                return Err(self.unlinked(&first, via, &path, site));
            }
            // No manifest names the crate (a build outside cargo): the path decides.
            Trace::Unknown { first, path, .. } => (first, path),
            Trace::Absent { krate } => {
                let here = match krate {
                    0 => "this crate".to_owned(),
                    k => format!("crate `{}`", self.krate.crates[k].name),
                };
                return Err(self.unresolved(
                    ty,
                    site,
                    &format!("{here} has no `{name}` the build script can follow at that path"),
                ));
            }
        };
        if crates.contains(&package.as_str()) {
            return Ok(());
        }
        let path: Vec<&str> = path
            .iter()
            .map(String::as_str)
            .filter(|s| *s != "::")
            .collect();
        Err(self.unresolved(
            ty,
            site,
            &format!(
                "`{name}` here is `{}` (crate `{package}`), not the `{name}` of `{}` that the toolkit knows",
                path.join("::"),
                crates.join("`/`")
            ),
        ))
    }

    /// Why a path names no type that was read, and what to do.
    pub(super) fn missing(
        &self,
        ty: &Type,
        segments: &[String],
        scope: &Scope,
        site: &Site,
    ) -> Problem {
        let shown = |p: &[String]| {
            p.iter()
                .map(String::as_str)
                .filter(|s| *s != "::")
                .collect::<Vec<_>>()
                .join("::")
        };
        let through = match segments {
            [name] => self
                .krate
                .import(scope.module, name)
                .map(|p| format!(" (`use {}`)", shown(p)))
                .unwrap_or_default(),
            _ => String::new(),
        };
        let (why, help) = match self.krate.trace(scope.module, segments) {
            Trace::Opaque { package, path } => {
                let name = segments.last().map(String::as_str).unwrap_or_default();
                match types::lookup(name) {
                    Some(Known {
                        meaning: Meaning::Unsupported(reason),
                        crates,
                        ..
                    }) if crates.contains(&package.as_str()) => (
                        format!("`{}` has no schema: {reason}", shown(&path)),
                        (*reason).to_owned(),
                    ),
                    _ => (
                        format!(
                            "it is `{}`{through}, a type of `{package}`, which publishes no type table the build script can read",
                            shown(&path)
                        ),
                        HELP_OPAQUE.to_owned(),
                    ),
                }
            }
            Trace::Absent { krate: 0 } => (
                format!("no type of this crate has that path{through}"),
                String::new(),
            ),
            Trace::Absent { krate } => (
                format!(
                    "crate `{}` (its source was read) has no type at that path{through}",
                    self.krate.crates[krate].name
                ),
                String::new(),
            ),
            Trace::Unknown { first, via, path }
                if self.krate.names_nothing(scope.module, &first) =>
            {
                return self.unlinked(&first, via, &path, site);
            }
            Trace::Unknown { first, .. } => (
                format!(
                    "`{first}` is neither a module of this crate nor a dependency that publishes a type table{through}"
                ),
                HELP_OPAQUE.to_owned(),
            ),
            Trace::Unscoped => (
                "no type is in scope by that name in this module".to_owned(),
                String::new(),
            ),
        };
        let mut p = self.unresolved(ty, site, &why);
        if let Problem::Unresolved { help: h, .. } = &mut p
            && !help.is_empty()
        {
            *h = help;
        }
        p
    }

    /// A path that starts at `first`, which names nothing the package has: which
    /// dependency it probably means, at the `use` that writes it (`via`) or at the field.
    pub(super) fn unlinked(
        &self,
        first: &str,
        via: Option<Via>,
        path: &[String],
        site: &Site,
    ) -> Problem {
        let loc = via.map_or_else(|| site.loc.clone(), |v| self.loc(v.module, v.span));
        let externs: Vec<(&str, String)> = self
            .krate
            .crates
            .first()
            .map(|p| {
                p.externs
                    .iter()
                    .map(|(name, e)| (name.as_str(), self.krate.extern_package(e)))
                    .collect()
            })
            .unwrap_or_default();
        // The path as written where `first` is met, after it.
        let rest: Vec<&str> = path
            .iter()
            .map(String::as_str)
            .filter(|s| *s != "::")
            .skip(1)
            .collect();
        let write = |name: &str| {
            let mut p = vec![name];
            p.extend(rest.iter().copied());
            p.join("::")
        };
        let hint = match externs
            .iter()
            .find(|(name, package)| package.replace('-', "_") == first && *name != first)
        {
            Some((name, package)) => format!(
                "Cargo.toml renames `{package}` to `{name}`; write `{}`",
                write(name)
            ),
            None => {
                let names: Vec<&str> = externs.iter().map(|(n, _)| *n).collect();
                match (
                    neuralis_syntax::attr::did_you_mean(first, &names),
                    self.named_by_a_dependency(first),
                ) {
                    (Some(near), _) => format!("did you mean `{}`?", write(near)),
                    (None, Some((dependency, package))) => format!(
                        "it is `{dependency}`'s name for its dependency `{package}`; add `{package}` to `[dependencies]` to name it here"
                    ),
                    (None, None) => {
                        "add it to `[dependencies]` in Cargo.toml, or fix the path".to_owned()
                    }
                }
            }
        };
        Problem::Unlinked {
            loc,
            first: first.to_owned(),
            message: format!("`{first}` is not a dependency of this package: {hint}"),
        }
    }

    /// A dependency (as this package calls it) whose source calls one of its own
    /// dependencies `name`, and that dependency's package.
    pub(super) fn named_by_a_dependency(&self, name: &str) -> Option<(String, String)> {
        let crates = &self.krate.crates;
        crates
            .first()?
            .externs
            .iter()
            .find_map(|(called, e)| match e {
                Extern::Read(k) => crates
                    .get(*k)?
                    .externs
                    .get(name)
                    .map(|inner| (called.clone(), self.krate.extern_package(inner))),
                Extern::Opaque(_) => None,
            })
    }

    pub(super) fn unresolved(&self, ty: &Type, site: &Site, why: &str) -> Problem {
        Problem::Unresolved {
            loc: site.loc.clone(),
            message: format!(
                "cannot resolve type `{}` of field `{}` in `{}`: {why}",
                tokens(ty),
                site.field,
                site.owner
            ),
            help: "derive `ToolInput` on the type and name it by its path, or give the field `#[schema(with = T)]` naming one with the same JSON form".into(),
        }
    }
}

//! The static view: a tool input's schema composed from source, with the plan from
//! `neuralis_syntax::render` (the one renderer the derive also lowers) and the run-time
//! helpers of `neuralis_model::input::private`, so both views build the same JSON.
//!
//! Where the derive composes through `ToolInput` impls at run time, this module follows
//! the same impls from syntax: the standard types by name (as `neuralis_syntax::types`
//! recognises them), the crate's own types by name resolution.

use std::path::PathBuf;
use std::rc::Rc;

use neuralis_model::contract::push_pointer;
use neuralis_model::input::Recursion;
use neuralis_model::input::private as rt;
use neuralis_model::types::{self, Known, Meaning};
use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::Container;
use neuralis_syntax::attr::docs::DocPart;
use neuralis_syntax::check::check;
use neuralis_syntax::render::{Member, Plan, render};
use neuralis_syntax::types::type_args;
use proc_macro2::Span;
use quote::ToTokens as _;
use serde_json::Value;
use syn::Type;
use syn::spanned::Spanned as _;

use crate::deps::Extern;
use crate::diag::Loc;
use crate::discover::{Crate, TypeItem};
use crate::resolve::{Found, Trace, Via};

/// Where a type is written: its module, and what its generic parameters stand for.
#[derive(Debug, Clone)]
pub struct Scope {
    /// The module whose names the type uses.
    pub module: usize,
    /// Generic parameters: name, the argument, where the argument is written, and the
    /// field it is written for (errors inside a generic point there, at the use).
    subst: Rc<Vec<(String, Type, Scope, Site)>>,
}

impl Scope {
    /// The scope of a module with no generic parameters.
    #[must_use]
    pub fn module(module: usize) -> Self {
        Self {
            module,
            subst: Rc::new(Vec::new()),
        }
    }
}

/// The field a type belongs to, for messages.
#[derive(Debug, Clone)]
pub struct Site {
    /// The type that holds the field.
    pub owner: String,
    /// The field's Rust name.
    pub field: String,
    /// The field's type as written.
    pub loc: Loc,
}

/// Why a schema could not be composed.
#[derive(Debug, Clone)]
pub enum Problem {
    /// A type the build script cannot follow: an error that stops the build.
    Unresolved {
        /// Where.
        loc: Loc,
        /// The message, led by nothing (the caller adds the rule id).
        message: String,
        /// What to do.
        help: String,
    },
    /// An item the macro will reject with a spanned error: skipped, not fatal.
    Skip {
        /// The first error (`rule-id: message`, then `= help: ...`).
        reason: String,
        /// Where.
        loc: Loc,
    },
    /// A path whose first segment names no crate, module or item: the compiler reports
    /// it, so the tool is skipped, with a warning that says what the path probably means.
    Unlinked {
        /// Where the segment is written (in the `use` when the path goes through one).
        loc: Loc,
        /// The segment.
        first: String,
        /// What is wrong and what the path probably means.
        message: String,
    },
}

/// A root schema and where its properties come from.
#[derive(Debug)]
pub struct Composed {
    /// The normalized root document, before any tool metadata.
    pub schema: Value,
    /// Source locations of pointers into `schema`, most specific last.
    pub locations: Vec<(String, Loc)>,
}

/// The static view: composes schemas from the crate's source (the run time composes
/// them through `ToolInput` impls, `model::input::Composer`).
pub struct StaticView<'k> {
    krate: &'k Crate,
    recursion: Recursion<String>,
    /// Files read for `#[doc = include_str!(...)]`.
    pub extra_files: Vec<PathBuf>,
    /// The pointer of the schema being composed, as reference tokens.
    at: Vec<String>,
    /// Where each property's field is written.
    locations: Vec<(String, Loc)>,
}

fn tokens(ty: &Type) -> String {
    ty.to_token_stream()
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("< ", "<")
        .replace(" ,", ",")
        .replace(" :: ", "::")
}

/// A path's segments without their arguments; `::a::B` starts with a `"::"` segment.
fn segments(path: &syn::Path) -> Vec<String> {
    path.leading_colon
        .map(|_| "::".to_owned())
        .into_iter()
        .chain(path.segments.iter().map(|s| s.ident.to_string()))
        .collect()
}

const HELP_OPAQUE: &str = "give the field `#[schema(with = T)]` naming a type with the same JSON form; or derive `ToolInput` on the type in its crate and publish that crate's type table (`links` in its Cargo.toml and `neuralis_build::emit()` in its build.rs); or, for a well-known crate's type (`uuid`, `chrono`, `url`, `time`), turn on the `neuralis` feature of that name";

impl<'k> StaticView<'k> {
    /// A composer over `krate`.
    #[must_use]
    pub fn new(krate: &'k Crate) -> Self {
        Self {
            krate,
            recursion: Recursion::default(),
            extra_files: Vec::new(),
            at: Vec::new(),
            locations: Vec::new(),
        }
    }

    /// Composes with `tokens` appended to the current pointer.
    fn under<T>(&mut self, tokens: &[&str], f: impl FnOnce(&mut Self) -> T) -> T {
        let depth = self.at.len();
        self.at.extend(tokens.iter().map(|t| (*t).to_owned()));
        let out = f(self);
        self.at.truncate(depth);
        out
    }

    fn pointer(&self) -> String {
        self.at
            .iter()
            .fold(String::new(), |p, t| push_pointer(&p, t))
    }

    fn loc(&self, module: usize, span: Span) -> Loc {
        Loc {
            file: self.krate.modules[module].file,
            span,
        }
    }

    /// The root document of the type `ty` written in `module` (see
    /// `neuralis_model::input::root_schema`, which this mirrors).
    ///
    /// # Errors
    ///
    /// A type that cannot be followed, or an item the macro rejects.
    pub fn root(&mut self, ty: &Type, module: usize, site: &Site) -> Result<Composed, Problem> {
        let scope = Scope::module(module);
        let (def, args) = self.find(ty, &scope, site)?;
        let id = self.identity(def, &args);
        self.recursion = Recursion::default();
        self.recursion.set_root(id);
        let fragment = self.named(def, args, ty, site)?;
        let locations = std::mem::take(&mut self.locations);
        let definitions = self.recursion.take_definitions();
        let schema = neuralis_model::input::root_document(fragment, definitions);
        Ok(Composed { schema, locations })
    }

    /// The type's identity for recursion: its full path, its arguments resolved.
    fn identity(&self, def: usize, args: &[(Type, Scope)]) -> String {
        self.name_of(def, args, true)
    }

    /// `Page<Item>`: the type's name with its arguments resolved (generic parameters
    /// substituted, aliases of this crate followed) and, unless `full`, every path dropped,
    /// as `neuralis_model::input::short_type_name` writes `std::any::type_name` at run time.
    fn name_of(&self, def: usize, args: &[(Type, Scope)], full: bool) -> String {
        let t = &self.krate.types[def];
        let mut name = if full {
            format!("{}::{}", self.krate.module_name(t.module), t.ident)
        } else {
            t.ident.to_string()
        };
        if !args.is_empty() {
            let a: Vec<String> = args
                .iter()
                .map(|(ty, scope)| self.canonical(ty, scope, full, 0))
                .collect();
            name = format!("{name}<{}>", a.join(", "));
        }
        name
    }

    fn canonical(&self, ty: &Type, scope: &Scope, full: bool, depth: usize) -> String {
        if depth > 32 {
            return tokens(ty);
        }
        let next = |ty: &Type, scope: &Scope| self.canonical(ty, scope, full, depth + 1);
        match ty {
            Type::Group(g) => next(&g.elem, scope),
            Type::Paren(p) => next(&p.elem, scope),
            Type::Reference(r) => {
                let m = if r.mutability.is_some() { "mut " } else { "" };
                format!("&{m}{}", next(&r.elem, scope))
            }
            Type::Slice(sl) => format!("[{}]", next(&sl.elem, scope)),
            Type::Array(a) => format!(
                "[{}; {}]",
                next(&a.elem, scope),
                a.len.to_token_stream().to_string().replace(' ', "")
            ),
            Type::Tuple(t) => {
                let items: Vec<String> = t.elems.iter().map(|e| next(e, scope)).collect();
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Type::Path(p) if p.qself.is_none() => {
                if let Some(ident) = p.path.get_ident()
                    && let Some((_, t, s, _)) = scope.subst.iter().find(|(n, ..)| ident == n)
                {
                    return next(t, s);
                }
                let Some(last) = p.path.segments.last() else {
                    return tokens(ty);
                };
                let segments = segments(&p.path);
                let args: Vec<(Type, Scope)> = type_args(&last.arguments)
                    .into_iter()
                    .map(|t| (t.clone(), scope.clone()))
                    .collect();
                match self.krate.type_by_path(scope.module, &segments) {
                    Some(def) => match &self.krate.types[def].item {
                        TypeItem::Alias(target) if args.is_empty() => {
                            let module = self.krate.types[def].module;
                            next(target, &Scope::module(module))
                        }
                        _ => self.name_of(def, &args, full),
                    },
                    None => {
                        let mut name = last.ident.to_string();
                        if !args.is_empty() {
                            let a: Vec<String> = args.iter().map(|(t, s)| next(t, s)).collect();
                            name = format!("{name}<{}>", a.join(", "));
                        }
                        name
                    }
                }
            }
            other => tokens(other),
        }
    }

    /// The crate item a path type names, with its generic arguments.
    fn find(
        &self,
        ty: &Type,
        scope: &Scope,
        site: &Site,
    ) -> Result<(usize, Vec<(Type, Scope)>), Problem> {
        let ty = match ty {
            Type::Group(g) => &*g.elem,
            Type::Paren(p) => &*p.elem,
            other => other,
        };
        let Type::Path(p) = ty else {
            return Err(self.unresolved(ty, site, "it is not a path to a type"));
        };
        if let Some(seg) = p.path.get_ident()
            && let Some((_, t, s, use_site)) = scope.subst.iter().find(|(n, ..)| seg == n)
        {
            return self.find(t, s, use_site);
        }
        let segments = segments(&p.path);
        let args = p
            .path
            .segments
            .last()
            .map(|s| type_args(&s.arguments))
            .unwrap_or_default()
            .into_iter()
            .map(|t| (t.clone(), scope.clone()))
            .collect();
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
    fn check_origin(
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
    fn missing(&self, ty: &Type, segments: &[String], scope: &Scope, site: &Site) -> Problem {
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
    fn unlinked(&self, first: &str, via: Option<Via>, path: &[String], site: &Site) -> Problem {
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
    fn named_by_a_dependency(&self, name: &str) -> Option<(String, String)> {
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

    fn unresolved(&self, ty: &Type, site: &Site, why: &str) -> Problem {
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

    /// The schema of `ty` written in `scope`.
    fn type_schema(&mut self, ty: &Type, scope: &Scope, site: &Site) -> Result<Value, Problem> {
        match ty {
            Type::Group(g) => self.type_schema(&g.elem, scope, site),
            Type::Paren(p) => self.type_schema(&p.elem, scope, site),
            Type::Reference(r) => self.type_schema(&r.elem, scope, site),
            Type::Slice(s) => {
                let items = self.under(&["items"], |c| c.type_schema(&s.elem, scope, site))?;
                Ok(types::array(items, false))
            }
            Type::Array(a) => {
                let items = self.under(&["items"], |c| c.type_schema(&a.elem, scope, site))?;
                let len = match &a.len {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(n),
                        ..
                    }) => n.base10_parse::<usize>().ok(),
                    _ => None,
                };
                let Some(n) = len else {
                    return Err(self.unresolved(
                        ty,
                        site,
                        "the array length is not a literal the build script can read",
                    ));
                };
                Ok(types::fixed_array(items, n))
            }
            Type::Path(p) if p.qself.is_none() => {
                if let Some(ident) = p.path.get_ident()
                    && let Some((_, t, s, use_site)) = scope.subst.iter().find(|(n, ..)| ident == n)
                {
                    let (t, s, use_site) = (t.clone(), s.clone(), use_site.clone());
                    return self.type_schema(&t, &s, &use_site);
                }
                let Some(last) = p.path.segments.last() else {
                    return Err(self.unresolved(ty, site, "an empty path"));
                };
                let segments = segments(&p.path);
                if self.krate.type_by_path(scope.module, &segments).is_some() {
                    let (def, args) = self.find(ty, scope, site)?;
                    return self.named(def, args, ty, site);
                }
                let name = last.ident.to_string();
                let args = type_args(&last.arguments);
                let Some(known) =
                    types::lookup(&name).filter(|k| !matches!(k.meaning, Meaning::Unsupported(_)))
                else {
                    let (def, args) = self.find(ty, scope, site)?;
                    return self.named(def, args, ty, site);
                };
                self.check_origin(ty, &segments, known, scope, site)?;
                match (known.meaning, args.as_slice()) {
                    (Meaning::Value, []) | (Meaning::JsonMap, [_, _]) => {
                        Ok(known.schema().unwrap_or_default())
                    }
                    (Meaning::Value | Meaning::JsonMap, _) => {
                        let (def, args) = self.find(ty, scope, site)?;
                        self.named(def, args, ty, site)
                    }
                    (Meaning::Option | Meaning::Pointer, [inner, ..]) => {
                        self.type_schema(inner, scope, site)
                    }
                    (Meaning::Seq { unique }, [item, ..]) => {
                        let items = self.under(&["items"], |c| c.type_schema(item, scope, site))?;
                        Ok(types::array(items, unique))
                    }
                    (Meaning::Map, [_, value, ..]) => {
                        let values = self.under(&["additionalProperties"], |c| {
                            c.type_schema(value, scope, site)
                        })?;
                        Ok(types::open_map(values))
                    }
                    _ => match known.schema() {
                        Some(schema) => Ok(schema),
                        None => {
                            let (def, args) = self.find(ty, scope, site)?;
                            self.named(def, args, ty, site)
                        }
                    },
                }
            }
            _ => Err(self.unresolved(ty, site, "this type has no JSON form")),
        }
    }

    fn named(
        &mut self,
        def: usize,
        args: Vec<(Type, Scope)>,
        ty: &Type,
        site: &Site,
    ) -> Result<Value, Problem> {
        let t = &self.krate.types[def];
        match &t.item {
            TypeItem::Data(_, true) => self.subschema(def, args, site),
            TypeItem::Alias(target) => {
                let target = (**target).clone();
                self.type_schema(&target, &Scope::module(t.module), site)
            }
            TypeItem::Data(_, false) | TypeItem::Other => Err(Problem::Unresolved {
                loc: site.loc.clone(),
                message: format!(
                    "type `{}` of field `{}` in `{}` does not derive `ToolInput` ({})",
                    tokens(ty),
                    site.field,
                    site.owner,
                    self.loc(t.module, t.ident.span()).display(self.krate)
                ),
                help: match self.krate.crate_of(t.module) {
                    0 => format!(
                        "add `#[derive(ToolInput)]` to `{}`, or give the field `#[schema(with = T)]`",
                        t.ident
                    ),
                    k => format!(
                        "add `#[derive(ToolInput)]` to `{}` in crate `{}`, or give the field `#[schema(with = T)]`",
                        t.ident, self.krate.crates[k].name
                    ),
                },
            }),
        }
    }

    /// `Composer::subschema` of the run-time composer: a type that reaches itself is
    /// written once.
    fn subschema(
        &mut self,
        def: usize,
        args: Vec<(Type, Scope)>,
        site: &Site,
    ) -> Result<Value, Problem> {
        let id = self.identity(def, &args);
        let name = self.schema_name(def, &args);
        if let Some(reference) = self.recursion.enter(&id, &name) {
            return Ok(reference);
        }
        match self.data_type(def, args, site) {
            Ok(schema) => {
                self.recursion.leave(&id, &name, &schema);
                Ok(schema)
            }
            Err(e) => {
                self.recursion.abandon();
                Err(e)
            }
        }
    }

    fn schema_name(&self, def: usize, args: &[(Type, Scope)]) -> String {
        self.name_of(def, args, false)
    }

    /// The schema of a struct or enum that derives `ToolInput`.
    fn data_type(
        &mut self,
        def: usize,
        args: Vec<(Type, Scope)>,
        site: &Site,
    ) -> Result<Value, Problem> {
        let krate = self.krate;
        let t = &krate.types[def];
        let TypeItem::Data(di, true) = &t.item else {
            let ident = &t.ident;
            return self.named(def, args, &syn::parse_quote!(#ident), site);
        };
        let cx = Ctxt::new();
        let cont = Container::from_ast(&cx, di);
        if let Some(cont) = &cont {
            check(&cx, cont);
        }
        let owner = t.ident.to_string();
        let cont = match (cx.check(), cont) {
            (Ok(()), Some(cont)) => cont,
            (Err(e), _) => {
                // The first error only: `syn::Error`'s text joins all of them.
                let first = e.into_iter().next();
                return Err(Problem::Skip {
                    reason: first.as_ref().map(ToString::to_string).unwrap_or_default(),
                    loc: self.loc(t.module, first.map_or_else(|| t.ident.span(), |e| e.span())),
                });
            }
            (Ok(()), None) => {
                return Err(Problem::Skip {
                    reason: format!("`{owner}` has no schema"),
                    loc: self.loc(t.module, t.ident.span()),
                });
            }
        };
        let params: Vec<String> = di
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        let subst: Vec<(String, Type, Scope, Site)> = params
            .into_iter()
            .zip(args)
            .map(|(p, (ty, s))| (p, ty, s, site.clone()))
            .collect();
        let scope = Scope {
            module: t.module,
            subst: Rc::new(subst),
        };
        let rendered = render(&cont);
        let here = Here {
            owner,
            module: t.module,
        };
        self.plan(&rendered.plan, &scope, &here, &cont)
    }

    fn plan(
        &mut self,
        plan: &Plan,
        scope: &Scope,
        here: &Here,
        cont: &Container,
    ) -> Result<Value, Problem> {
        Ok(match plan {
            Plan::Fixed(v) => v.clone(),
            Plan::Type { ty, keywords, docs } => {
                let site = self.site_of(ty, here, cont);
                let mut out = self.type_schema(ty, scope, &site)?;
                if !keywords.is_empty() {
                    out = rt::overlay_map(out, keywords.clone());
                }
                if let Some(parts) = docs {
                    out = self.describe(out, parts, here)?;
                }
                out
            }
            Plan::Object {
                keywords,
                docs,
                members,
            } => {
                let mut o = keywords.clone();
                for m in members {
                    match m {
                        Member::Property {
                            name,
                            plan,
                            required,
                        } => {
                            let schema = self.under(&["properties", name], |c| {
                                if let Some(f) = neuralis_syntax::check::all_fields(cont)
                                    .find(|f| f.name.value == *name && !f.is_skipped())
                                {
                                    let loc = c.loc(here.module, f.name.span);
                                    c.locations.push((c.pointer(), loc));
                                }
                                c.plan(plan, scope, here, cont)
                            })?;
                            rt::property(&mut o, name, schema, *required);
                        }
                        Member::Flatten { ty, required } => {
                            let site = self.site_of(ty, here, cont);
                            let schema = self.type_schema(ty, scope, &site)?;
                            rt::flatten(&mut o, schema, *required);
                        }
                    }
                }
                let out = rt::close(o);
                match docs {
                    Some(parts) => self.describe(out, parts, here)?,
                    None => out,
                }
            }
            Plan::Described(inner, parts) => {
                let out = self.plan(inner, scope, here, cont)?;
                self.describe(out, parts, here)?
            }
            Plan::Choice {
                keyword,
                keywords,
                docs,
                branches,
            } => {
                let mut map = keywords.clone();
                let mut all = Vec::with_capacity(branches.len());
                for (i, b) in branches.iter().enumerate() {
                    let index = i.to_string();
                    all.push(self.under(&[keyword, &index], |c| c.plan(b, scope, here, cont))?);
                }
                map.insert((*keyword).into(), Value::Array(all));
                let out = Value::Object(map);
                match docs {
                    Some(parts) => self.describe(out, parts, here)?,
                    None => out,
                }
            }
        })
    }

    /// The field of `cont` whose schema type is `ty`, for messages.
    fn site_of(&self, ty: &Type, here: &Here, cont: &Container) -> Site {
        let field = neuralis_syntax::check::all_fields(cont).find(|f| f.ty == *ty);
        let (name, span) = field.map_or_else(
            || (String::from("?"), ty.span()),
            |f| {
                (
                    f.original
                        .ident
                        .as_ref()
                        .map_or_else(|| f.name.value.clone(), ToString::to_string),
                    f.ty.span(),
                )
            },
        );
        Site {
            owner: here.owner.clone(),
            field: name,
            loc: self.loc(here.module, span),
        }
    }

    /// `#[doc = include_str!("...")]`, read relative to the source file as rustc does.
    fn describe(
        &mut self,
        schema: Value,
        parts: &[DocPart],
        here: &Here,
    ) -> Result<Value, Problem> {
        let texts = self.doc_parts(parts, here)?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(rt::describe(schema, &refs))
    }

    fn doc_parts(&mut self, parts: &[DocPart], here: &Here) -> Result<Vec<String>, Problem> {
        let mut texts = Vec::with_capacity(parts.len());
        for part in parts {
            match part {
                DocPart::Text(t) => texts.push(t.clone()),
                DocPart::Expr(e) => texts.push(self.doc_expr(e, here)?),
            }
        }
        Ok(texts)
    }

    /// A doc comment written in `module`, joined as rustdoc joins it; `None` when empty.
    ///
    /// # Errors
    ///
    /// A `#[doc = ...]` expression other than `include_str!` of a readable file.
    pub fn doc_text(
        &mut self,
        parts: &[DocPart],
        module: usize,
        owner: &str,
    ) -> Result<Option<String>, Problem> {
        let here = Here {
            owner: owner.to_owned(),
            module,
        };
        let texts = self.doc_parts(parts, &here)?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let text = neuralis_model::input::join_doc(&refs);
        Ok((!text.is_empty()).then_some(text))
    }

    fn doc_expr(
        &mut self,
        tokens: &proc_macro2::TokenStream,
        here: &Here,
    ) -> Result<String, Problem> {
        let fail = |why: &str| Problem::Unresolved {
            loc: self.loc(here.module, tokens.span()),
            message: format!("cannot read the doc comment of `{}`: {why}", here.owner),
            help: "write the doc comment as `///` lines or `#[doc = include_str!(\"file\")]`"
                .into(),
        };
        let expr: syn::Expr = syn::parse2(tokens.clone()).map_err(|_| fail("not an expression"))?;
        let syn::Expr::Macro(m) = &expr else {
            return Err(fail("only `include_str!` is read at build time"));
        };
        if !m.mac.path.is_ident("include_str") {
            return Err(fail("only `include_str!` is read at build time"));
        }
        let lit: syn::LitStr = m
            .mac
            .parse_body()
            .map_err(|_| fail("`include_str!` takes one string literal here"))?;
        let file = &self.krate.sources[self.krate.modules[here.module].file].path;
        let path = file
            .parent()
            .map(|d| d.join(lit.value()))
            .unwrap_or_else(|| PathBuf::from(lit.value()));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| fail(&format!("`{}`: {e}", path.display())))?;
        self.extra_files.push(path);
        Ok(text)
    }
}

struct Here {
    owner: String,
    module: usize,
}

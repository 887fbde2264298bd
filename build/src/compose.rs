//! The static view: a tool input's schema composed from source, with the plan from
//! `neuralis_syntax::render` (the one renderer the derive also lowers) and the run-time
//! helpers of `neuralis_model::input::private`, so both views build the same JSON.
//!
//! Where the derive composes through `ToolInput` impls at run time, this module follows
//! the same impls from syntax: the standard types by name (as `neuralis_syntax::types`
//! recognises them), the crate's own types by name resolution.
//!
//! Here: the walk over a type's tree and a container's plan. Beside it: `names` (a type's
//! identity and its `definitions` name), `find` (the crate item a named type is, or why
//! there is none), `docs` (`include_str!` doc comments).

mod docs;
mod find;
mod names;

use std::path::PathBuf;
use std::rc::Rc;

use neuralis_model::contract::push_pointer;
use neuralis_model::input::Recursion;
use neuralis_model::input::private as rt;
use neuralis_model::types::{self, Known};
use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::Container;
use neuralis_syntax::check::check;
use neuralis_syntax::render::{Member, Plan, render};
use neuralis_syntax::types::{Len, Ty, TypeKind};
use proc_macro2::Span;
use serde_json::Value;
use syn::Type;
use syn::spanned::Spanned as _;

use crate::diag::Loc;
use crate::discover::{Crate, TypeItem};

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
    /// A type that implements `ToolInput` by hand: the build script cannot compose its
    /// schema, so the tool's file is the one its author writes.
    HandWritten {
        /// Where the type is used.
        loc: Loc,
        /// The type as written.
        ty: String,
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
    /// The pointers of the fields marked `#[schema(allow_weakened)]`: no
    /// `dialect-weakened` under them.
    pub quiet: Vec<String>,
    /// Each field's pointer, and whether its author wrote a `minimum` and a `maximum`: a
    /// bound the author did not write is the type's (`u32`'s `minimum: 0`), and no
    /// `dialect-weakened` is said of it.
    pub bounds: Vec<FieldBounds>,
}

/// Whether the author of the field at `pointer` wrote its bounds (see
/// [`StaticView::bounds`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldBounds {
    /// The field's pointer in the tool's schema.
    pub pointer: String,
    /// `#[schema(minimum = ..)]` was written.
    pub minimum: bool,
    /// `#[schema(maximum = ..)]` was written.
    pub maximum: bool,
}

use neuralis_syntax::types::type_text as tokens;

/// A path's segments without their arguments; `::a::B` starts with a `"::"` segment.
fn segments(path: &syn::Path) -> Vec<String> {
    path.leading_colon
        .map(|_| "::".to_owned())
        .into_iter()
        .chain(path.segments.iter().map(|s| s.ident.to_string()))
        .collect()
}

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
            quiet: Vec::new(),
            bounds: Vec::new(),
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
        let (def, args) = self.find(&Ty::of(ty), &scope, site)?;
        let id = self.identity(def, &args);
        self.recursion = Recursion::default();
        self.recursion.set_root(id);
        let fragment = self.named(def, args, ty, site)?;
        let locations = std::mem::take(&mut self.locations);
        let definitions = self.recursion.take_definitions();
        let schema = neuralis_model::input::root_document(fragment, definitions);
        Ok(Composed { schema, locations })
    }

    /// The schema of `ty` written in `scope`, read from its tree (`neuralis_syntax::types`,
    /// which the derive's checks read too): a generic parameter is its argument, a type of
    /// this crate is this crate's whatever its name, a type the table knows must lead to the
    /// table's crates, and a named type is resolved through the crate index.
    fn type_schema(&mut self, ty: &Ty, scope: &Scope, site: &Site) -> Result<Value, Problem> {
        if let Some((t, s, use_site)) = self.parameter(ty, scope) {
            let (t, s, use_site) = (Ty::of(t), s.clone(), use_site.clone());
            return self.type_schema(&t, &s, &use_site);
        }
        let path = ty.path().map(segments);
        let ours = path
            .as_ref()
            .is_some_and(|p| self.krate.type_by_path(scope.module, p).is_some());
        let known = match (&ty.kind, ty.known) {
            (TypeKind::Named { .. }, _) => None,
            // A name the table knows as unsupported may still be a type the index has.
            (TypeKind::Unsupported(_), Some(_)) => None,
            (TypeKind::Unsupported(why), None) => {
                return Err(self.unresolved(&ty.written, site, why));
            }
            (_, known) if !ours => known,
            _ => None,
        };
        let (Some(known), Some(path)) = (known, &path) else {
            if path.is_none() && !ours && !matches!(ty.kind, TypeKind::Named { .. }) {
                return self.table_schema(ty, scope, site);
            }
            let (def, args) = self.find(ty, scope, site)?;
            return self.named(def, args, &ty.written, site);
        };
        self.check_origin(&ty.written, path, known, scope, site)?;
        self.table_schema(ty, scope, site)
    }

    /// The schema of a type the table knows: a leaf's own, or a container's around its
    /// type arguments' schemas.
    fn table_schema(&mut self, ty: &Ty, scope: &Scope, site: &Site) -> Result<Value, Problem> {
        match &ty.kind {
            TypeKind::Option(inner) | TypeKind::Pointer(inner) => {
                self.type_schema(inner, scope, site)
            }
            TypeKind::Seq { item, unique, len } => {
                let items = self.under(&["items"], |c| c.type_schema(item, scope, site))?;
                match len {
                    Len::Any => Ok(types::array(items, *unique)),
                    Len::Fixed(n) => Ok(types::fixed_array(items, *n)),
                    Len::Unread => Err(self.unresolved(
                        &ty.written,
                        site,
                        "the array length is not a literal the build script can read",
                    )),
                }
            }
            TypeKind::Map(value) => {
                let values = self.under(&["additionalProperties"], |c| {
                    c.type_schema(value, scope, site)
                })?;
                Ok(types::open_map(values))
            }
            _ => match ty.known.and_then(Known::schema) {
                Some(schema) => Ok(schema),
                None => {
                    let (def, args) = self.find(ty, scope, site)?;
                    self.named(def, args, &ty.written, site)
                }
            },
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
                let target = Ty::of(target);
                self.type_schema(&target, &Scope::module(t.module), site)
            }
            TypeItem::Data(_, false)
                if self.krate.hand_inputs.iter().any(|(module, name)| {
                    t.ident == name && self.krate.crate_of(*module) == self.krate.crate_of(t.module)
                }) =>
            {
                Err(Problem::HandWritten {
                    loc: site.loc.clone(),
                    ty: tokens(ty),
                })
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
                let mut out = self.type_schema(&Ty::of(ty), scope, &site)?;
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
                                    if f.schema.allow_weakened.is_some() {
                                        c.quiet.push(c.pointer());
                                    }
                                    c.bounds.push(FieldBounds {
                                        pointer: c.pointer(),
                                        minimum: f.schema.minimum.is_some(),
                                        maximum: f.schema.maximum.is_some(),
                                    });
                                }
                                c.plan(plan, scope, here, cont)
                            })?;
                            rt::property(&mut o, name, schema, *required);
                        }
                        Member::Flatten { ty, required } => {
                            let site = self.site_of(ty, here, cont);
                            let schema = self.type_schema(&Ty::of(ty), scope, &site)?;
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
}

struct Here {
    owner: String,
    module: usize,
}

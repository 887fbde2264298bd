//! Names of types in the static view: a type's identity for recursion (its full path)
//! and its `definitions` name, read from the type tree as the run time writes them.

use std::borrow::Cow;

use neuralis_model::input::generic_name;
use neuralis_syntax::types::{Ty, TypeKind, type_args};
use quote::ToTokens as _;
use syn::Type;

use super::{Scope, Site, StaticView, segments, tokens};
use crate::discover::TypeItem;

impl StaticView<'_> {
    /// The type's identity for recursion: its full path, its arguments resolved.
    pub(super) fn identity(&self, def: usize, args: &[(Type, Scope)]) -> String {
        self.name_of(def, args, true)
    }

    /// `Page<Item>`: the type's name with its arguments resolved (generic parameters
    /// substituted, aliases of this crate followed) and, unless `full`, spelled as the
    /// derive's `schema_name` and the standard impls spell it at run time
    /// (`neuralis_model::input::generic_name`; a table type by the table's name, a pointer
    /// as its type). `full` is the identity: every type by its full path, pointers kept, as
    /// distinct as the run time's `std::any::type_name` keys.
    pub(super) fn name_of(&self, def: usize, args: &[(Type, Scope)], full: bool) -> String {
        let t = &self.krate.types[def];
        let name = if full {
            format!("{}::{}", self.krate.module_name(t.module), t.ident)
        } else {
            syn::ext::IdentExt::unraw(&t.ident).to_string()
        };
        let args: Vec<Cow<'_, str>> = args
            .iter()
            .map(|(ty, scope)| Cow::Owned(self.canonical(&Ty::of(ty), scope, full, 0)))
            .collect();
        generic_name(&name, &args)
    }

    /// A type's name, read from its tree (see [`Self::name_of`]).
    pub(super) fn canonical(&self, ty: &Ty, scope: &Scope, full: bool, depth: usize) -> String {
        if depth > 32 {
            return tokens(&ty.written);
        }
        let next = |ty: &Ty, scope: &Scope| self.canonical(ty, scope, full, depth + 1);
        if let Some((t, s, _)) = self.parameter(ty, scope) {
            return next(&Ty::of(t), s);
        }
        let Some(path) = ty.path() else {
            return match (&ty.written, &ty.kind) {
                (Type::Slice(_), TypeKind::Seq { item, .. }) => format!("[{}]", next(item, scope)),
                (Type::Array(a), TypeKind::Seq { item, .. }) => format!(
                    "[{}; {}]",
                    next(item, scope),
                    a.len.to_token_stream().to_string().replace(' ', "")
                ),
                _ => tokens(&ty.written),
            };
        };
        let args: Vec<Ty> = path
            .segments
            .last()
            .map(|l| type_args(&l.arguments).into_iter().map(Ty::of).collect())
            .unwrap_or_default();
        if let Some(def) = self.krate.type_by_path(scope.module, &segments(path)) {
            return match &self.krate.types[def].item {
                TypeItem::Alias(target) if args.is_empty() => {
                    let module = self.krate.types[def].module;
                    next(&Ty::of(target), &Scope::module(module))
                }
                _ => {
                    let args: Vec<(Type, Scope)> = args
                        .into_iter()
                        .map(|a| (a.written, scope.clone()))
                        .collect();
                    self.name_of(def, &args, full)
                }
            };
        }
        let ident = path
            .segments
            .last()
            .map(|l| l.ident.to_string())
            .unwrap_or_default();
        let spelled = |name: &str| {
            let args: Vec<Cow<'_, str>> = args.iter().map(|t| Cow::Owned(next(t, scope))).collect();
            generic_name(name, &args)
        };
        if full {
            return spelled(&ident);
        }
        match (&ty.kind, ty.known) {
            (TypeKind::Pointer(inner), _) => next(inner, scope),
            (TypeKind::Named { .. } | TypeKind::Unsupported(_), _) | (_, None) => spelled(&ident),
            (TypeKind::Option(_) | TypeKind::Seq { .. } | TypeKind::Map(_), Some(known)) => {
                spelled(known.name)
            }
            // A table leaf: the table's name, arguments and all (`Map`, `DateTime`).
            (_, Some(known)) => known.name.to_owned(),
        }
    }

    /// The argument a generic parameter stands for, where it is written, and the field it
    /// is written for.
    pub(super) fn parameter<'s>(
        &self,
        ty: &Ty,
        scope: &'s Scope,
    ) -> Option<(&'s Type, &'s Scope, &'s Site)> {
        let ident = ty.path()?.get_ident()?;
        scope
            .subst
            .iter()
            .find(|(n, ..)| ident == n)
            .map(|(_, t, s, site)| (t, s, site))
    }

    pub(super) fn schema_name(&self, def: usize, args: &[(Type, Scope)]) -> String {
        self.name_of(def, args, false)
    }
}

//! A field's type classified from syntax, by the one type table
//! (`neuralis_model::types`), whose entries the run-time `ToolInput` impls and the build
//! script's static view read too.
//!
//! The macro composes schemas through the `ToolInput` trait at run time; this
//! classification is what the compile-time checks use (which `#[schema]` keys fit,
//! whether a `default` fits, whether the field is optional, which literal shape a
//! `defaults` entry is checked against). Types are recognised by their last path
//! segment, as serde recognises `Option`; the schema itself is always the trait's (a
//! type alias of a known type is a nested `ToolInput` type here, and the trait decides).

use neuralis_model::types::{self, Meaning};
use syn::{GenericArgument, PathArguments, Type};

/// What a type means as a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// `bool`
    Bool,
    /// An integer type with its natural bounds.
    Int {
        /// The Rust type name, `u8`...
        name: &'static str,
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: u128,
    },
    /// `f32`, `f64`
    Float,
    /// `String`, `str`, `Cow<str>`, `Box<str>`
    Str,
    /// `char`: a string of one character.
    Char,
    /// `Option<T>`: the field may be absent.
    Option(Box<TypeKind>),
    /// `Vec<T>`, `VecDeque<T>`, `LinkedList<T>`, `[T]`, sets, `[T; N]`.
    Seq {
        /// The item type.
        item: Box<TypeKind>,
        /// Sets: `uniqueItems`.
        unique: bool,
        /// Arrays: the fixed length, when a literal.
        len: Option<usize>,
    },
    /// `HashMap<String, V>`, `BTreeMap<String, V>`: an open bag.
    Map(Box<TypeKind>),
    /// `serde_json::Value`: any JSON value.
    Value,
    /// `serde_json::Map<String, Value>`: an open bag of any values.
    JsonMap,
    /// A string with a `format`, from a well-known crate behind a feature.
    Format {
        /// The JSON Schema `format`; empty where a `pattern` stands in for one.
        format: &'static str,
        /// The `neuralis` feature that supports the type.
        feature: &'static str,
    },
    /// Any other path: a nested `ToolInput` type (or a generic parameter).
    Nested,
    /// No schema: the reason, for the error message.
    Unsupported(String),
}

impl TypeKind {
    /// The kind under `Option`.
    #[must_use]
    pub fn unwrap_option(&self) -> &TypeKind {
        match self {
            TypeKind::Option(inner) => inner.unwrap_option(),
            other => other,
        }
    }

    /// Whether the field may be absent (`Option<T>`).
    #[must_use]
    pub fn is_option(&self) -> bool {
        matches!(self, TypeKind::Option(_))
    }

    /// The JSON type names a value of this kind has, or `None` when any value may do
    /// (nested types, `Value`).
    #[must_use]
    pub fn json_type(&self) -> Option<&'static str> {
        match self.unwrap_option() {
            TypeKind::Bool => Some("boolean"),
            TypeKind::Int { .. } => Some("integer"),
            TypeKind::Float => Some("number"),
            TypeKind::Str | TypeKind::Char | TypeKind::Format { .. } => Some("string"),
            TypeKind::Seq { .. } => Some("array"),
            TypeKind::Map(_) | TypeKind::JsonMap => Some("object"),
            _ => None,
        }
    }
}

/// The type arguments of a path segment (`<K, V>`), lifetimes and consts left out.
#[must_use]
pub fn type_args(args: &PathArguments) -> Vec<&Type> {
    match args {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn is_string_key(ty: &Type) -> bool {
    matches!(classify(ty), TypeKind::Str)
}

/// Classifies a type by its syntax.
#[must_use]
pub fn classify(ty: &Type) -> TypeKind {
    match ty {
        Type::Group(g) => classify(&g.elem),
        Type::Paren(p) => classify(&p.elem),
        Type::Reference(r) => classify(&r.elem),
        Type::Slice(s) => TypeKind::Seq {
            item: Box::new(classify(&s.elem)),
            unique: false,
            len: None,
        },
        Type::Array(a) => {
            let len = match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse().ok(),
                _ => None,
            };
            TypeKind::Seq {
                item: Box::new(classify(&a.elem)),
                unique: false,
                len,
            }
        }
        Type::Tuple(t) if t.elems.is_empty() => {
            TypeKind::Unsupported("`()` deserializes from `null` only; remove the field".into())
        }
        Type::Tuple(_) => TypeKind::Unsupported(
            "a tuple is a fixed-position array, which draft-07 cannot describe without tuple `items`; use a struct with named fields".into(),
        ),
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return TypeKind::Nested;
            };
            classify_segment(&last.ident.to_string(), &type_args(&last.arguments))
        }
        Type::Path(_) => TypeKind::Nested,
        Type::FnPtr(_) => TypeKind::Unsupported("a function pointer has no JSON form".into()),
        Type::Ptr(_) => TypeKind::Unsupported("a raw pointer has no JSON form".into()),
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            TypeKind::Unsupported("a trait object has no schema; use a concrete type".into())
        }
        Type::Never(_) => TypeKind::Unsupported("`!` has no values".into()),
        _ => TypeKind::Unsupported("this type has no JSON form".into()),
    }
}

/// The type under any `Option<..>` around `ty` (recognised as [`classify`] recognises it),
/// or `ty` itself.
#[must_use]
pub fn option_inner(ty: &Type) -> &Type {
    let mut ty = ty;
    loop {
        let Type::Path(p) = ty else {
            return ty;
        };
        let Some(last) = p.path.segments.last() else {
            return ty;
        };
        let is_option = types::lookup(&last.ident.to_string())
            .is_some_and(|known| matches!(known.meaning, Meaning::Option));
        match (is_option, type_args(&last.arguments).first()) {
            (true, Some(&inner)) => ty = inner,
            _ => return ty,
        }
    }
}

fn classify_segment(name: &str, args: &[&Type]) -> TypeKind {
    let Some(known) = types::lookup(name) else {
        return TypeKind::Nested;
    };
    let first = args.first().map(|t| classify(t));
    match (known.meaning, first) {
        (Meaning::Bool, _) => TypeKind::Bool,
        (Meaning::Int { min, max }, _) => TypeKind::Int {
            name: known.name,
            min,
            max,
        },
        (Meaning::Float, _) => TypeKind::Float,
        (Meaning::Str, _) => TypeKind::Str,
        (Meaning::Char, _) => TypeKind::Char,
        (Meaning::Value, _) => TypeKind::Value,
        (Meaning::JsonMap, _) if args.len() == 2 && is_string_key(args[0]) => TypeKind::JsonMap,
        (Meaning::Format { format, .. }, _) => TypeKind::Format {
            format,
            feature: known.feature.unwrap_or_default(),
        },
        (Meaning::Unsupported(why), _) => TypeKind::Unsupported(why.to_owned()),
        (Meaning::Option, Some(inner)) => TypeKind::Option(Box::new(inner)),
        (Meaning::Pointer, Some(inner)) => inner,
        (Meaning::Seq { unique }, Some(item)) => TypeKind::Seq {
            item: Box::new(item),
            unique,
            len: None,
        },
        (Meaning::Map, Some(_)) if args.len() >= 2 => {
            if is_string_key(args[0]) {
                TypeKind::Map(Box::new(classify(args[1])))
            } else {
                TypeKind::Unsupported(
                    "a map's keys must be strings (`String`, `Cow<str>`) for a JSON object".into(),
                )
            }
        }
        _ => TypeKind::Nested,
    }
}

/// The first unsupported kind inside `kind` (an `Option<Vec<Duration>>` too).
#[must_use]
pub fn unsupported_reason(kind: &TypeKind) -> Option<&str> {
    match kind {
        TypeKind::Unsupported(why) => Some(why),
        TypeKind::Option(inner) | TypeKind::Map(inner) => unsupported_reason(inner),
        TypeKind::Seq { item, .. } => unsupported_reason(item),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(src: &str) -> TypeKind {
        classify(&syn::parse_str(src).expect("a type"))
    }

    #[test]
    fn table() {
        assert_eq!(kind("bool"), TypeKind::Bool);
        assert!(matches!(
            kind("u8"),
            TypeKind::Int {
                min: 0,
                max: 255,
                ..
            }
        ));
        assert_eq!(kind("std::borrow::Cow<'a, str>"), TypeKind::Str);
        assert_eq!(
            kind("Option<String>"),
            TypeKind::Option(Box::new(TypeKind::Str))
        );
        assert!(matches!(
            kind("[u8; 4]"),
            TypeKind::Seq { len: Some(4), .. }
        ));
        assert!(matches!(
            kind("BTreeSet<u8>"),
            TypeKind::Seq { unique: true, .. }
        ));
        assert_eq!(
            kind("HashMap<String, bool>"),
            TypeKind::Map(Box::new(TypeKind::Bool))
        );
        assert!(matches!(
            kind("HashMap<u32, bool>"),
            TypeKind::Unsupported(_)
        ));
        assert_eq!(kind("serde_json::Map<String, Value>"), TypeKind::JsonMap);
        assert_eq!(kind("Arc<Inner>"), TypeKind::Nested);
        assert!(matches!(kind("(u8, u8)"), TypeKind::Unsupported(_)));
        assert!(unsupported_reason(&kind("Option<Vec<std::time::Duration>>")).is_some());
        assert!(matches!(
            kind("uuid::Uuid"),
            TypeKind::Format { format: "uuid", .. }
        ));
    }

    #[test]
    fn option_inner_peels_every_option() {
        let ty: Type = syn::parse_quote!(Option<std::option::Option<Color>>);
        let inner = option_inner(&ty);
        assert_eq!(quote::quote!(#inner).to_string(), "Color");
        let plain: Type = syn::parse_quote!(Vec<Color>);
        assert_eq!(option_inner(&plain), &plain);
    }
}

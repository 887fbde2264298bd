//! A type walked once, from syntax, into a tree whose leaves are the one type table's
//! types (`neuralis_model::types`, which the run-time `ToolInput` impls read too) or named
//! types (`Named`: a type the table does not know, composed through its own schema).
//!
//! Every reader of a field's type reads this tree: the derive's compile-time checks (which
//! `#[schema]` keys fit, whether a `default` fits, whether the field is optional, which
//! literal shape a `defaults` entry is checked against), the macros' `const` shapes, and
//! the build script's static view, which resolves `Named` through its crate index where
//! the derive composes it through the `ToolInput` trait. Types are recognised by their
//! last path segment, as serde recognises `Option`; the rules that need more than syntax
//! (a map's keys, an array's length) are read here once.

use neuralis_model::types::{self, Known, Meaning};
use syn::{GenericArgument, PathArguments, Type};

/// A type as written, and what it means as a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Ty {
    /// The type as written, references, groups and parentheses looked through.
    pub written: Type,
    /// The table's entry for the last segment of the type's path, when the table has one
    /// (whatever its meaning): the build script checks that the path leads to the entry's
    /// crates.
    pub known: Option<&'static Known>,
    /// What the type means.
    pub kind: TypeKind,
}

/// How many items a sequence has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Len {
    /// Any number: `Vec<T>`, `[T]`, the sets.
    Any,
    /// `[T; N]` with `N` an integer literal.
    Fixed(usize),
    /// `[T; N]` with `N` a constant or an expression: the run time reads it, syntax cannot.
    Unread,
}

/// What a type means as a schema: one node of the tree.
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
    /// `String`, `str`
    Str,
    /// `char`: a string of one character.
    Char,
    /// `Option<T>`: the field may be absent.
    Option(Box<Ty>),
    /// `Box<T>`, `Rc<T>`, `Arc<T>`, `Cow<T>`: `T`'s schema.
    Pointer(Box<Ty>),
    /// `Vec<T>`, `VecDeque<T>`, `LinkedList<T>`, `[T]`, sets, `[T; N]`.
    Seq {
        /// The item type.
        item: Box<Ty>,
        /// Sets: `uniqueItems`.
        unique: bool,
        /// How many items.
        len: Len,
    },
    /// `HashMap<String, V>`, `BTreeMap<String, V>`: an open bag of `V`.
    Map(Box<Ty>),
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
    /// Any other path, the type being [`Ty::written`]: a type with its own schema (or a
    /// generic parameter), with its type arguments.
    Named {
        /// The type arguments of the path's last segment.
        args: Vec<Ty>,
    },
    /// No schema: the reason, for the error message.
    Unsupported(String),
}

impl TypeKind {
    /// The kind under `Option` and the pointers.
    #[must_use]
    pub fn unwrap_option(&self) -> &TypeKind {
        match self {
            TypeKind::Option(inner) | TypeKind::Pointer(inner) => inner.kind.unwrap_option(),
            other => other,
        }
    }

    /// The kind under the pointers.
    #[must_use]
    pub fn peel(&self) -> &TypeKind {
        match self {
            TypeKind::Pointer(inner) => inner.kind.peel(),
            other => other,
        }
    }

    /// Whether the field may be absent (`Option<T>`).
    #[must_use]
    pub fn is_option(&self) -> bool {
        matches!(self.peel(), TypeKind::Option(_))
    }

    /// Whether a named type is in the tree: its schema (and what a literal must be to fit
    /// it) is the type's own, not the table's.
    #[must_use]
    pub fn has_named(&self) -> bool {
        match self {
            TypeKind::Named { .. } => true,
            TypeKind::Option(inner) | TypeKind::Pointer(inner) | TypeKind::Map(inner) => {
                inner.kind.has_named()
            }
            TypeKind::Seq { item, .. } => item.kind.has_named(),
            _ => false,
        }
    }

    /// The JSON type names a value of this kind has, or `None` when any value may do
    /// (named types, `Value`).
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

    /// The first unsupported kind inside (an `Option<Vec<Duration>>` too), with why.
    #[must_use]
    pub fn unsupported(&self) -> Option<&str> {
        match self {
            TypeKind::Unsupported(why) => Some(why),
            TypeKind::Option(inner) | TypeKind::Pointer(inner) | TypeKind::Map(inner) => {
                inner.kind.unsupported()
            }
            TypeKind::Seq { item, .. } => item.kind.unsupported(),
            _ => None,
        }
    }
}

/// A type as the toolkit's messages print it, and the build script names it: the tokens
/// without the spaces `quote` puts around `<`, `>`, `,` and `::` (`Vec<std::string::String>`,
/// not `Vec < std :: string :: String >`). The one rendering of a type as text, so the
/// macros' and the build script's messages print paths alike.
///
/// ```
/// let ty: syn::Type = syn::parse_quote!(Vec<std::collections::BTreeMap<String, u8>>);
/// assert_eq!(neuralis_syntax::types::type_text(&ty), "Vec<std::collections::BTreeMap<String, u8>>");
/// ```
#[must_use]
pub fn type_text(ty: &Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("< ", "<")
        .replace(" ,", ",")
        .replace(" :: ", "::")
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

impl Ty {
    /// Walks a type.
    #[must_use]
    pub fn of(ty: &Type) -> Ty {
        let ty = look_through(ty);
        let (known, kind) = match ty {
            Type::Slice(s) => (
                None,
                TypeKind::Seq {
                    item: Box::new(Ty::of(&s.elem)),
                    unique: false,
                    len: Len::Any,
                },
            ),
            Type::Array(a) => {
                let len = match &a.len {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(n),
                        ..
                    }) => n.base10_parse().map_or(Len::Unread, Len::Fixed),
                    _ => Len::Unread,
                };
                (
                    None,
                    TypeKind::Seq {
                        item: Box::new(Ty::of(&a.elem)),
                        unique: false,
                        len,
                    },
                )
            }
            Type::Path(p) if p.qself.is_none() => match p.path.segments.last() {
                Some(last) => {
                    let known = types::lookup(&last.ident.to_string());
                    let args: Vec<Ty> = type_args(&last.arguments)
                        .into_iter()
                        .map(Ty::of)
                        .collect();
                    (known, path_kind(known, args))
                }
                None => (None, TypeKind::Named { args: Vec::new() }),
            },
            Type::Path(_) => (None, TypeKind::Named { args: Vec::new() }),
            Type::Tuple(t) if t.elems.is_empty() => (
                None,
                TypeKind::Unsupported(
                    "`()` deserializes from `null` only; remove the field".into(),
                ),
            ),
            Type::Tuple(_) => (
                None,
                TypeKind::Unsupported(
                    "a tuple is a fixed-position array, which draft-07 cannot describe without tuple `items`; use a struct with named fields".into(),
                ),
            ),
            Type::FnPtr(_) => (
                None,
                TypeKind::Unsupported("a function pointer has no JSON form".into()),
            ),
            Type::Ptr(_) => (
                None,
                TypeKind::Unsupported("a raw pointer has no JSON form".into()),
            ),
            Type::TraitObject(_) | Type::ImplTrait(_) => (
                None,
                TypeKind::Unsupported("a trait object has no schema; use a concrete type".into()),
            ),
            Type::Never(_) => (None, TypeKind::Unsupported("`!` has no values".into())),
            _ => (
                None,
                TypeKind::Unsupported("this type has no JSON form".into()),
            ),
        };
        Ty {
            written: ty.clone(),
            known,
            kind,
        }
    }

    /// A type whose schema is its own whatever its syntax (`#[schema(with = T)]`: the
    /// trait decides).
    #[must_use]
    pub fn named(ty: &Type) -> Ty {
        let ty = look_through(ty);
        let args = match ty {
            Type::Path(p) => p
                .path
                .segments
                .last()
                .map(|s| type_args(&s.arguments).into_iter().map(Ty::of).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Ty {
            written: ty.clone(),
            known: None,
            kind: TypeKind::Named { args },
        }
    }

    /// The type under any `Option<..>` around it, or itself.
    #[must_use]
    pub fn under_options(&self) -> &Ty {
        match &self.kind {
            TypeKind::Option(inner) => inner.under_options(),
            _ => self,
        }
    }

    /// The path as written, when the type is one (a named type always is, unless it is
    /// `<T as Trait>::Assoc`).
    #[must_use]
    pub fn path(&self) -> Option<&syn::Path> {
        match &self.written {
            Type::Path(p) if p.qself.is_none() => Some(&p.path),
            _ => None,
        }
    }
}

/// References, groups and parentheses are their inner type.
fn look_through(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => look_through(&g.elem),
        Type::Paren(p) => look_through(&p.elem),
        Type::Reference(r) => look_through(&r.elem),
        other => other,
    }
}

fn is_string(ty: &Ty) -> bool {
    matches!(ty.kind.peel(), TypeKind::Str)
}

/// What a path means: the table's entry for its last segment, read with the segment's
/// type arguments; a name the table does not know (or a known name with arguments it does
/// not take) is a named type.
fn path_kind(known: Option<&'static Known>, mut args: Vec<Ty>) -> TypeKind {
    let Some(known) = known else {
        return TypeKind::Named { args };
    };
    match (known.meaning, args.len()) {
        (Meaning::Bool, 0) => TypeKind::Bool,
        (Meaning::Int { min, max }, 0) => TypeKind::Int {
            name: known.name,
            min,
            max,
        },
        (Meaning::Float, 0) => TypeKind::Float,
        (Meaning::Str, 0) => TypeKind::Str,
        (Meaning::Char, 0) => TypeKind::Char,
        (Meaning::Value, 0) => TypeKind::Value,
        (Meaning::JsonMap, 2) if is_string(&args[0]) => TypeKind::JsonMap,
        (Meaning::Format { format, .. }, _) => TypeKind::Format {
            format,
            feature: known.feature.unwrap_or_default(),
        },
        (Meaning::Unsupported(why), _) => TypeKind::Unsupported(why.to_owned()),
        (Meaning::Option, 1) => TypeKind::Option(Box::new(args.remove(0))),
        (Meaning::Pointer, 1) => TypeKind::Pointer(Box::new(args.remove(0))),
        (Meaning::Seq { unique }, 1) => TypeKind::Seq {
            item: Box::new(args.remove(0)),
            unique,
            len: Len::Any,
        },
        (Meaning::Map, 2..) if is_string(&args[0]) => TypeKind::Map(Box::new(args.remove(1))),
        (Meaning::Map, 2..) => TypeKind::Unsupported(
            "a map's keys must be strings (`String`, `Cow<str>`) for a JSON object".into(),
        ),
        _ => TypeKind::Named { args },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(src: &str) -> TypeKind {
        Ty::of(&syn::parse_str(src).expect("a type")).kind
    }

    fn item(kind: &TypeKind) -> &TypeKind {
        match kind {
            TypeKind::Option(inner) | TypeKind::Map(inner) => &inner.kind,
            TypeKind::Seq { item, .. } => &item.kind,
            other => other,
        }
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
        assert_eq!(kind("std::borrow::Cow<'a, str>").peel(), &TypeKind::Str);
        assert_eq!(kind("&'a str"), TypeKind::Str);
        assert!(kind("Option<String>").is_option());
        assert_eq!(item(&kind("Option<String>")), &TypeKind::Str);
        assert!(matches!(
            kind("[u8; 4]"),
            TypeKind::Seq {
                len: Len::Fixed(4),
                ..
            }
        ));
        assert!(matches!(
            kind("[u8; SIZE]"),
            TypeKind::Seq {
                len: Len::Unread,
                ..
            }
        ));
        assert!(matches!(
            kind("BTreeSet<u8>"),
            TypeKind::Seq { unique: true, .. }
        ));
        assert_eq!(item(&kind("HashMap<String, bool>")), &TypeKind::Bool);
        assert!(matches!(kind("HashMap<String, bool>"), TypeKind::Map(_)));
        assert!(matches!(
            kind("HashMap<u32, bool>"),
            TypeKind::Unsupported(_)
        ));
        assert_eq!(kind("serde_json::Map<String, Value>"), TypeKind::JsonMap);
        assert!(matches!(
            kind("serde_json::Map<u32, Value>"),
            TypeKind::Named { .. }
        ));
        assert!(kind("Arc<Inner>").has_named());
        let TypeKind::Named { args } = kind("Page<Vec<Item>>") else {
            panic!("a named type")
        };
        assert!(matches!(args[0].kind, TypeKind::Seq { .. }));
        assert!(matches!(kind("(u8, u8)"), TypeKind::Unsupported(_)));
        assert!(
            kind("Option<Vec<std::time::Duration>>")
                .unsupported()
                .is_some()
        );
        assert!(matches!(
            kind("uuid::Uuid"),
            TypeKind::Format { format: "uuid", .. }
        ));
    }

    #[test]
    fn under_options_peels_every_option() {
        let ty: Type = syn::parse_quote!(Option<std::option::Option<Color>>);
        let tree = Ty::of(&ty);
        let inner = &tree.under_options().written;
        assert_eq!(quote::quote!(#inner).to_string(), "Color");
        let plain: Type = syn::parse_quote!(Vec<Color>);
        assert_eq!(Ty::of(&plain).under_options().written, plain);
    }
}

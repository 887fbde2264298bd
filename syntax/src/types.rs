//! The type table: what a field's Rust type means as a schema, decided from syntax.
//!
//! The macro composes schemas through the `ToolInput` trait at run time; this table is
//! what compile-time checks use (which `#[schema]` keys fit, whether a `default` fits,
//! whether the field is optional) and what the build emitter renders from. Types are
//! recognised by their last path segment, as serde recognises `Option`: a type alias of
//! a known type is treated as a nested `ToolInput` type.

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

const INTS: &[(&str, i128, u128)] = &[
    ("i8", i8::MIN as i128, i8::MAX as u128),
    ("i16", i16::MIN as i128, i16::MAX as u128),
    ("i32", i32::MIN as i128, i32::MAX as u128),
    ("i64", i64::MIN as i128, i64::MAX as u128),
    ("isize", i64::MIN as i128, i64::MAX as u128),
    ("i128", i128::MIN, i128::MAX as u128),
    ("u8", 0, u8::MAX as u128),
    ("u16", 0, u16::MAX as u128),
    ("u32", 0, u32::MAX as u128),
    ("u64", 0, u64::MAX as u128),
    ("usize", 0, u64::MAX as u128),
    ("u128", 0, u128::MAX),
];

const FORMATS: &[(&str, &str, &str)] = &[
    ("Uuid", "uuid", "uuid"),
    ("DateTime", "date-time", "chrono"),
    ("NaiveDateTime", "", "chrono"),
    ("NaiveDate", "date", "chrono"),
    ("NaiveTime", "", "chrono"),
    ("Url", "uri", "url"),
    ("OffsetDateTime", "date-time", "time"),
];

const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "Duration",
        "serde writes a `Duration` as `{ secs, nanos }`; use an integer of seconds or milliseconds",
    ),
    (
        "SystemTime",
        "serde writes a `SystemTime` as `{ secs_since_epoch, nanos_since_epoch }`; use a string with `format`",
    ),
    ("Instant", "an `Instant` cannot be deserialized"),
    ("PathBuf", "a path is platform-specific; use a `String`"),
    ("Path", "a path is platform-specific; use a `String`"),
    (
        "OsString",
        "an `OsString` is platform-specific; use a `String`",
    ),
    (
        "IpAddr",
        "use a `String` with `#[schema(format = \"ipv4\")]` or `\"ipv6\"`",
    ),
    (
        "Ipv4Addr",
        "use a `String` with `#[schema(format = \"ipv4\")]`",
    ),
    (
        "Ipv6Addr",
        "use a `String` with `#[schema(format = \"ipv6\")]`",
    ),
    ("SocketAddr", "use a `String`"),
    ("Cell", "interior mutability has no place in an input"),
    ("RefCell", "interior mutability has no place in an input"),
    ("Mutex", "interior mutability has no place in an input"),
    ("RwLock", "interior mutability has no place in an input"),
    (
        "PhantomData",
        "`PhantomData` deserializes from `null` only; skip the field with `#[serde(skip)]`",
    ),
];

fn type_args(args: &PathArguments) -> Vec<&Type> {
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

fn classify_segment(name: &str, args: &[&Type]) -> TypeKind {
    if let Some((n, min, max)) = INTS.iter().find(|(n, ..)| *n == name) {
        return TypeKind::Int {
            name: n,
            min: *min,
            max: *max,
        };
    }
    if let Some((_, format, feature)) = FORMATS.iter().find(|(n, ..)| *n == name) {
        return TypeKind::Format { format, feature };
    }
    if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
        return TypeKind::Unsupported((*why).to_owned());
    }
    let first = args.first().map(|t| classify(t));
    match (name, first) {
        ("bool", _) => TypeKind::Bool,
        ("f32" | "f64", _) => TypeKind::Float,
        ("String" | "str", _) => TypeKind::Str,
        ("char", _) => TypeKind::Char,
        ("Value", _) => TypeKind::Value,
        ("Map", _) if args.len() == 2 && is_string_key(args[0]) => TypeKind::JsonMap,
        ("Option", Some(inner)) => TypeKind::Option(Box::new(inner)),
        ("Box" | "Rc" | "Arc" | "Cow", Some(inner)) => inner,
        ("Vec" | "VecDeque" | "LinkedList", Some(item)) => TypeKind::Seq {
            item: Box::new(item),
            unique: false,
            len: None,
        },
        ("HashSet" | "BTreeSet", Some(item)) => TypeKind::Seq {
            item: Box::new(item),
            unique: true,
            len: None,
        },
        ("HashMap" | "BTreeMap", Some(_)) if args.len() >= 2 => {
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
}

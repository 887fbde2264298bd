//! The type table: what each well-known Rust type means as a schema.
//!
//! One table, read three ways: the [`ToolInput`](crate::input::ToolInput) impls of
//! [`input`](crate::input) take their schemas and shapes from it; the build script's
//! static view reads it by name for the types it meets in source (only when the path
//! leads to one of the entry's [`crates`](Known::crates)); and the derive's syntactic
//! checks (`neuralis_syntax::types`) classify a field's type with it. The containers'
//! schemas ([`array`](fn@array), [`fixed_array`], [`open_map`]) are written here once, too.
//!
//! ```
//! use neuralis_model::types::{self, Meaning};
//! let u8_ = types::lookup("u8").expect("in the table");
//! assert_eq!(u8_.meaning, Meaning::Int { min: 0, max: 255 });
//! assert_eq!(u8_.schema(), Some(serde_json::json!({ "type": "integer", "minimum": 0, "maximum": 255 })));
//! assert_eq!(types::lookup("Vec").map(|k| k.meaning), Some(Meaning::Seq { unique: false }));
//! assert!(matches!(types::lookup("Duration").map(|k| k.meaning), Some(Meaning::Unsupported(_))));
//! ```

use serde_json::{Value, json};

use crate::shape::Shape;

/// What a well-known type means as a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// `bool`.
    Bool,
    /// An integer type, with its natural bounds.
    Int {
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: u128,
    },
    /// `f32`, `f64`.
    Float,
    /// `String`, `str`.
    Str,
    /// `char`: a string of one character.
    Char,
    /// `serde_json::Value`: any JSON value.
    Value,
    /// `serde_json::Map<String, Value>`: an open bag of any values.
    JsonMap,
    /// A string with a `format`, from a well-known crate behind a feature, or with a
    /// `pattern` where no draft-07 format matches serde's text.
    Format {
        /// The JSON Schema `format`, or `""` where `pattern` stands in.
        format: &'static str,
        /// The `pattern` that stands in for a format.
        pattern: &'static str,
    },
    /// `Option<T>`: `T`'s schema; in a struct, the field may be absent.
    Option,
    /// `Box<T>`, `Rc<T>`, `Arc<T>`, `Cow<T>`: `T`'s schema.
    Pointer,
    /// A sequence of its first type argument: `Vec`, `VecDeque`, `LinkedList`, sets.
    Seq {
        /// Sets: `uniqueItems`.
        unique: bool,
    },
    /// A string-keyed map of its second type argument: an open bag.
    Map,
    /// No schema: why, and what to use instead.
    Unsupported(&'static str),
}

/// One entry of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The type's name: the last segment of its path.
    pub name: &'static str,
    /// The crates a path to the type starts with (`std`, `core`, `alloc` for the standard
    /// library), so that another crate's namesake is never read as this type.
    pub crates: &'static [&'static str],
    /// The `neuralis` feature that implements `ToolInput` for it, if one does.
    pub feature: Option<&'static str>,
    /// What it means.
    pub meaning: Meaning,
}

impl Known {
    /// The schema of a leaf type (`None` for containers and unsupported types).
    #[must_use]
    pub fn schema(&self) -> Option<Value> {
        Some(match self.meaning {
            Meaning::Bool => json!({ "type": "boolean" }),
            Meaning::Int { min, max } => json!({
                "type": "integer", "minimum": int_value(min), "maximum": uint_value(max)
            }),
            Meaning::Float => json!({ "type": "number" }),
            Meaning::Str => json!({ "type": "string" }),
            Meaning::Char => json!({ "type": "string", "minLength": 1, "maxLength": 1 }),
            Meaning::Value => json!({}),
            Meaning::JsonMap => json!({ "type": "object", "additionalProperties": true }),
            Meaning::Format {
                format: "",
                pattern,
            } => json!({ "type": "string", "pattern": pattern }),
            Meaning::Format { format, .. } => json!({ "type": "string", "format": format }),
            Meaning::Option
            | Meaning::Pointer
            | Meaning::Seq { .. }
            | Meaning::Map
            | Meaning::Unsupported(_) => return None,
        })
    }

    /// What a literal must be to fit a leaf type (see [`crate::shape`]); containers and
    /// unsupported types give [`Shape::Any`].
    #[must_use]
    pub const fn shape(&self) -> Shape {
        match self.meaning {
            Meaning::Bool => Shape::Bool,
            Meaning::Int { min, max } => Shape::Int { min, max },
            Meaning::Float => Shape::Number,
            Meaning::Str | Meaning::Format { .. } => Shape::Str,
            Meaning::Char => Shape::Char,
            Meaning::JsonMap | Meaning::Map => Shape::Object,
            _ => Shape::Any,
        }
    }
}

/// JSON numbers past 64 bits are written as floats; the bounds stay exact enough to
/// refuse what serde refuses by orders of magnitude.
fn int_value(n: i128) -> Value {
    match i64::try_from(n) {
        Ok(n) => json!(n),
        Err(_) => json!(n as f64),
    }
}

fn uint_value(n: u128) -> Value {
    match u64::try_from(n) {
        Ok(n) => json!(n),
        Err(_) => json!(n as f64),
    }
}

/// The schema of a sequence of `items`.
#[must_use]
pub fn array(items: Value, unique: bool) -> Value {
    if unique {
        json!({ "type": "array", "items": items, "uniqueItems": true })
    } else {
        json!({ "type": "array", "items": items })
    }
}

/// The schema of a fixed-length array `[T; N]`.
#[must_use]
pub fn fixed_array(items: Value, len: usize) -> Value {
    json!({ "type": "array", "items": items, "minItems": len, "maxItems": len })
}

/// The schema of a string-keyed map of `values`: an open bag.
#[must_use]
pub fn open_map(values: Value) -> Value {
    json!({ "type": "object", "additionalProperties": values })
}

const STD: &[&str] = &["std", "core", "alloc"];

const fn std_type(name: &'static str, meaning: Meaning) -> Known {
    Known {
        name,
        crates: STD,
        feature: None,
        meaning,
    }
}

const fn int(name: &'static str, min: i128, max: u128) -> Known {
    std_type(name, Meaning::Int { min, max })
}

const fn formatted(
    name: &'static str,
    krate: &'static [&'static str],
    format: &'static str,
    pattern: &'static str,
) -> Known {
    Known {
        name,
        crates: krate,
        feature: Some(krate[0]),
        meaning: Meaning::Format { format, pattern },
    }
}

const fn unsupported(name: &'static str, why: &'static str) -> Known {
    std_type(name, Meaning::Unsupported(why))
}

/// `bool`.
pub const BOOL: Known = std_type("bool", Meaning::Bool);
/// `i8`.
pub const I8: Known = int("i8", i8::MIN as i128, i8::MAX as u128);
/// `i16`.
pub const I16: Known = int("i16", i16::MIN as i128, i16::MAX as u128);
/// `i32`.
pub const I32: Known = int("i32", i32::MIN as i128, i32::MAX as u128);
/// `i64`.
pub const I64: Known = int("i64", i64::MIN as i128, i64::MAX as u128);
/// `isize`: serde and JSON tools treat it as 64 bits.
pub const ISIZE: Known = int("isize", i64::MIN as i128, i64::MAX as u128);
/// `i128`.
pub const I128: Known = int("i128", i128::MIN, i128::MAX as u128);
/// `u8`.
pub const U8: Known = int("u8", 0, u8::MAX as u128);
/// `u16`.
pub const U16: Known = int("u16", 0, u16::MAX as u128);
/// `u32`.
pub const U32: Known = int("u32", 0, u32::MAX as u128);
/// `u64`.
pub const U64: Known = int("u64", 0, u64::MAX as u128);
/// `usize`: serde and JSON tools treat it as 64 bits.
pub const USIZE: Known = int("usize", 0, u64::MAX as u128);
/// `u128`.
pub const U128: Known = int("u128", 0, u128::MAX);
/// `f32`.
pub const F32: Known = std_type("f32", Meaning::Float);
/// `f64`.
pub const F64: Known = std_type("f64", Meaning::Float);
/// `String`.
pub const STRING: Known = std_type("String", Meaning::Str);
/// `str`.
pub const STR: Known = std_type("str", Meaning::Str);
/// `char`.
pub const CHAR: Known = std_type("char", Meaning::Char);
/// `serde_json::Value`.
pub const JSON_VALUE: Known = Known {
    name: "Value",
    crates: &["serde_json"],
    feature: None,
    meaning: Meaning::Value,
};
/// `serde_json::Map<String, Value>`.
pub const JSON_MAP: Known = Known {
    name: "Map",
    crates: &["serde_json"],
    feature: None,
    meaning: Meaning::JsonMap,
};
/// `uuid::Uuid`.
pub const UUID: Known = formatted("Uuid", &["uuid"], "uuid", "");
/// `chrono::DateTime<Tz>`: RFC 3339, as chrono's serde writes it.
pub const CHRONO_DATE_TIME: Known = formatted("DateTime", &["chrono"], "date-time", "");
/// `chrono::NaiveDate`.
pub const CHRONO_NAIVE_DATE: Known = formatted("NaiveDate", &["chrono"], "date", "");
/// `chrono::NaiveDateTime`: no offset, so not a draft-07 `date-time`: a pattern instead.
pub const CHRONO_NAIVE_DATE_TIME: Known = formatted(
    "NaiveDateTime",
    &["chrono"],
    "",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$",
);
/// `chrono::NaiveTime`: no offset, so not a draft-07 `time`: a pattern instead.
pub const CHRONO_NAIVE_TIME: Known = formatted(
    "NaiveTime",
    &["chrono"],
    "",
    "^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$",
);
/// `url::Url`.
pub const URL: Known = formatted("Url", &["url"], "uri", "");
/// `time::OffsetDateTime`, as `time::serde::rfc3339` writes it (time's own serde format
/// is not RFC 3339: write `#[serde(with = "time::serde::rfc3339")]
/// #[schema(with = time::OffsetDateTime)]`).
pub const TIME_OFFSET_DATE_TIME: Known = formatted("OffsetDateTime", &["time"], "date-time", "");

/// Every entry, looked up by name with [`lookup`].
pub const TABLE: &[Known] = &[
    BOOL,
    I8,
    I16,
    I32,
    I64,
    ISIZE,
    I128,
    U8,
    U16,
    U32,
    U64,
    USIZE,
    U128,
    F32,
    F64,
    STRING,
    STR,
    CHAR,
    JSON_VALUE,
    JSON_MAP,
    UUID,
    CHRONO_DATE_TIME,
    CHRONO_NAIVE_DATE,
    CHRONO_NAIVE_DATE_TIME,
    CHRONO_NAIVE_TIME,
    URL,
    TIME_OFFSET_DATE_TIME,
    std_type("Option", Meaning::Option),
    std_type("Box", Meaning::Pointer),
    std_type("Rc", Meaning::Pointer),
    std_type("Arc", Meaning::Pointer),
    std_type("Cow", Meaning::Pointer),
    std_type("Vec", Meaning::Seq { unique: false }),
    std_type("VecDeque", Meaning::Seq { unique: false }),
    std_type("LinkedList", Meaning::Seq { unique: false }),
    std_type("HashSet", Meaning::Seq { unique: true }),
    std_type("BTreeSet", Meaning::Seq { unique: true }),
    std_type("HashMap", Meaning::Map),
    std_type("BTreeMap", Meaning::Map),
    unsupported(
        "Duration",
        "serde writes a `Duration` as `{ secs, nanos }`; use an integer of seconds or milliseconds",
    ),
    unsupported(
        "SystemTime",
        "serde writes a `SystemTime` as `{ secs_since_epoch, nanos_since_epoch }`; use a string with `format`",
    ),
    unsupported("Instant", "an `Instant` cannot be deserialized"),
    unsupported("PathBuf", "a path is platform-specific; use a `String`"),
    unsupported("Path", "a path is platform-specific; use a `String`"),
    unsupported(
        "OsString",
        "an `OsString` is platform-specific; use a `String`",
    ),
    unsupported(
        "IpAddr",
        "use a `String` with `#[schema(format = \"ipv4\")]` or `\"ipv6\"`",
    ),
    unsupported(
        "Ipv4Addr",
        "use a `String` with `#[schema(format = \"ipv4\")]`",
    ),
    unsupported(
        "Ipv6Addr",
        "use a `String` with `#[schema(format = \"ipv6\")]`",
    ),
    unsupported("SocketAddr", "use a `String`"),
    unsupported("Cell", "interior mutability has no place in an input"),
    unsupported("RefCell", "interior mutability has no place in an input"),
    unsupported("Mutex", "interior mutability has no place in an input"),
    unsupported("RwLock", "interior mutability has no place in an input"),
    unsupported(
        "PhantomData",
        "`PhantomData` deserializes from `null` only; skip the field with `#[serde(skip)]`",
    ),
];

/// The entry for a type's name (the last segment of its path).
#[must_use]
pub fn lookup(name: &str) -> Option<&'static Known> {
    TABLE.iter().find(|k| k.name == name)
}

/// Every leaf type with its entry of the table, handed to the macro `$m`: the
/// [`ToolInput`](crate::input::ToolInput) impls of [`input`](crate::input) and the
/// [`ToolOutput`](crate::output::ToolOutput) impls of [`output`](crate::output) are
/// written from this one list. The well-known crates' types (strings with a `format`, or a
/// `pattern` where no draft-07 format matches serde's text) are each behind the feature of
/// the same name; `time::OffsetDateTime` is RFC 3339 only as `time::serde::rfc3339` writes
/// it.
macro_rules! leaf_types {
    ($m:ident) => {
        $m! {
            [] bool => BOOL;
            [] i8 => I8;
            [] i16 => I16;
            [] i32 => I32;
            [] i64 => I64;
            [] isize => ISIZE;
            [] i128 => I128;
            [] u8 => U8;
            [] u16 => U16;
            [] u32 => U32;
            [] u64 => U64;
            [] usize => USIZE;
            [] u128 => U128;
            [] f32 => F32;
            [] f64 => F64;
            [] String => STRING;
            [] str => STR;
            [] char => CHAR;
            [] Value => JSON_VALUE;
            [] Map<String, Value> => JSON_MAP;
            #[cfg(feature = "uuid")] [] uuid::Uuid => UUID;
            #[cfg(feature = "chrono")] [Tz: chrono::TimeZone] chrono::DateTime<Tz> => CHRONO_DATE_TIME;
            #[cfg(feature = "chrono")] [] chrono::NaiveDate => CHRONO_NAIVE_DATE;
            #[cfg(feature = "chrono")] [] chrono::NaiveDateTime => CHRONO_NAIVE_DATE_TIME;
            #[cfg(feature = "chrono")] [] chrono::NaiveTime => CHRONO_NAIVE_TIME;
            #[cfg(feature = "url")] [] url::Url => URL;
            #[cfg(feature = "time")] [] time::OffsetDateTime => TIME_OFFSET_DATE_TIME;
        }
    };
}
pub(crate) use leaf_types;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, k) in TABLE.iter().enumerate() {
            assert!(
                TABLE[i + 1..].iter().all(|o| o.name != k.name),
                "{} twice",
                k.name
            );
        }
    }

    /// A bound read as a double (as JavaScript reads JSON numbers) is never inside the
    /// type's range: it rounds outward, so a client's reading never refuses a value of the
    /// type (`docs/contract.md`, integers beyond 2^53).
    #[test]
    fn bounds_read_as_doubles_round_outward() {
        for known in TABLE {
            let Meaning::Int { min, max } = known.meaning else {
                continue;
            };
            let schema = known.schema().unwrap_or_default();
            let text = serde_json::to_string(&schema).unwrap_or_default();
            // A double-based reader: every number becomes an f64.
            let read: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            let as_double = |key: &str| {
                let raw = read[key].to_string();
                raw.parse::<f64>().unwrap_or(f64::NAN)
            };
            let (lo, hi) = (as_double("minimum"), as_double("maximum"));
            // `as` saturates: a double past the 128-bit range is past the type's bound too.
            assert!(
                (lo as i128) <= min && lo.is_finite(),
                "{}: {lo} > {min}",
                known.name
            );
            assert!(
                (hi as u128) >= max && hi.is_finite(),
                "{}: {hi} < {max}",
                known.name
            );
            assert!(
                (hi as u128) - max <= max >> 52,
                "{}: {hi} is the nearest double, not further",
                known.name
            );
        }
    }

    #[test]
    fn wide_integers_are_written_as_floats() {
        assert_eq!(
            U128.schema().map(|s| s["maximum"].clone()),
            Some(json!(u128::MAX as f64))
        );
        assert_eq!(
            I64.schema().map(|s| s["minimum"].clone()),
            Some(json!(i64::MIN))
        );
    }
}

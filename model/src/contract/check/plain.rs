//! Deciding, without compiling a validator, that a value fits a plain leaf subschema.
//!
//! `default-invalid` compiles a draft-07 validator for every subschema that holds a
//! `default` or `examples`, and a compile costs far more than parsing the file. Most such
//! subschemas are leaves (`type`, `enum`, bounds, lengths, annotations), whose draft-07
//! meaning is small and exact. [`fits`] answers for those, and only when it is certain
//! the value is accepted; anything else (a keyword outside that set, a float, a refusal,
//! whose message the validator words) is `None`, and the caller compiles as before. So
//! the diagnostics are the validator's, always.

use serde_json::{Map, Number, Value};

/// `Some(true)` when `value` certainly validates against `schema` under draft-07; `None`
/// when this module cannot tell (the caller asks the real validator).
pub(super) fn fits(schema: &Map<String, Value>, value: &Value) -> Option<bool> {
    for (key, keyword) in schema {
        let ok = match key.as_str() {
            // Annotations: they assert nothing.
            "description" | "title" | "default" | "examples" | "$comment" | "readOnly"
            | "writeOnly" => true,
            "type" => type_fits(keyword, value)?,
            "enum" => keyword
                .as_array()?
                .iter()
                .map(|item| same(item, value))
                .try_fold(false, |any, eq| Some(any || eq?))?,
            "const" => same(keyword, value)?,
            "minimum" => bound(keyword, value, |v, l| v >= l)?,
            "maximum" => bound(keyword, value, |v, l| v <= l)?,
            "exclusiveMinimum" => bound(keyword, value, |v, l| v > l)?,
            "exclusiveMaximum" => bound(keyword, value, |v, l| v < l)?,
            "minLength" => length(keyword, value, |n, l| n >= l)?,
            "maxLength" => length(keyword, value, |n, l| n <= l)?,
            _ => return None,
        };
        if !ok {
            // A refusal is worded by the validator.
            return None;
        }
    }
    Some(true)
}

/// `type`: one name or an array of names.
fn type_fits(keyword: &Value, value: &Value) -> Option<bool> {
    match keyword {
        Value::String(name) => is_type(name, value),
        Value::Array(names) => names.iter().try_fold(false, |any, name| {
            Some(any || is_type(name.as_str()?, value)?)
        }),
        _ => None,
    }
}

fn is_type(name: &str, value: &Value) -> Option<bool> {
    Some(match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        // A float with no fraction is an integer in draft-07: left to the validator.
        "integer" => match value {
            Value::Number(n) if integer(n).is_some() => true,
            Value::Number(_) => return None,
            _ => false,
        },
        _ => return None,
    })
}

/// JSON equality as draft-07 means it, where plain `Value` equality is the same: strings,
/// booleans, null and integers (a float could equal an integer of another representation).
fn same(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x == y),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Null, Value::Null) => Some(true),
        (Value::Number(x), Value::Number(y)) => Some(integer(x)? == integer(y)?),
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_)) => None,
        // Values of different JSON types are never equal.
        _ => Some(false),
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// A numeric bound: ignored by a non-number, compared exactly between integers.
fn bound(keyword: &Value, value: &Value, ok: impl Fn(i128, i128) -> bool) -> Option<bool> {
    let limit = integer(keyword.as_number()?)?;
    match value {
        Value::Number(n) => Some(ok(integer(n)?, limit)),
        _ => Some(true),
    }
}

/// A length bound: ignored by a non-string, counted in code points.
fn length(keyword: &Value, value: &Value, ok: impl Fn(u64, u64) -> bool) -> Option<bool> {
    let limit = keyword.as_u64()?;
    match value {
        Value::String(s) => Some(ok(u64::try_from(s.chars().count()).ok()?, limit)),
        _ => Some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, value: Value) -> Option<bool> {
        fits(schema.as_object().expect("an object schema"), &value)
    }

    #[test]
    fn plain_leaves_that_accept_are_decided() {
        let e = json!({"type": "string", "enum": ["a", "b"], "description": "x"});
        assert_eq!(check(e, json!("b")), Some(true));
        let n = json!({"type": "integer", "minimum": 0, "maximum": 10});
        assert_eq!(check(n.clone(), json!(10)), Some(true));
        assert_eq!(check(n, json!(0)), Some(true));
        let s = json!({"type": ["string", "null"], "minLength": 2, "maxLength": 2});
        assert_eq!(check(s.clone(), json!("é€")), Some(true));
        assert_eq!(check(s, json!(null)), Some(true));
        assert_eq!(check(json!({"type": "boolean"}), json!(false)), Some(true));
        assert_eq!(check(json!({"const": 3}), json!(3)), Some(true));
        assert_eq!(
            check(json!({"exclusiveMaximum": -1}), json!(-2)),
            Some(true)
        );
    }

    #[test]
    fn refusals_and_the_unknown_go_to_the_validator() {
        assert_eq!(check(json!({"enum": ["a"]}), json!("b")), None);
        assert_eq!(check(json!({"type": "integer"}), json!("1")), None);
        assert_eq!(check(json!({"maximum": 3}), json!(4)), None);
        assert_eq!(check(json!({"maxLength": 1}), json!("ab")), None);
        assert_eq!(check(json!({"type": "integer"}), json!(1.0)), None);
        assert_eq!(check(json!({"enum": [1.0]}), json!(1)), None);
        assert_eq!(check(json!({"minimum": 0.5}), json!(1)), None);
        assert_eq!(check(json!({"pattern": "^a$"}), json!("a")), None);
        assert_eq!(check(json!({"format": "email"}), json!("a@b.c")), None);
        assert_eq!(check(json!({"$ref": "#/definitions/A"}), json!(1)), None);
        assert_eq!(check(json!({"enum": [{"a": 1}]}), json!({"a": 1})), None);
        assert_eq!(check(json!({"type": "strng"}), json!("a")), None);
    }
}

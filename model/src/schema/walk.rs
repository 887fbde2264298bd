//! The positions of a schema that hold schemas, one level down, and what a schema object
//! requires: what every walk over a schema (normalization, the served dialect, the
//! provider dialects, the diff) reads the same way.

use serde_json::{Map, Value};

use crate::contract::meta::{Holds, applicator};

/// Calls `f` with each subschema of `schema`, one level down, and the keyword it sits
/// under, as [`applicator`] says each keyword holds them: the values of `properties`, `patternProperties`, `definitions`, `$defs` and
/// `dependencies` (whose arrays of names `f` gets too: it skips what is not a schema),
/// `items` (one schema or each of a tuple's), `additionalProperties`, `additionalItems`,
/// `contains`, `propertyNames`, `not`, `if`, `then`, `else`, and each branch of `allOf`,
/// `anyOf`, `oneOf`. Values of `default`, `const`, `enum`, `examples` and unknown
/// keywords are never visited.
///
/// ```
/// use neuralis_model::schema::for_each_subschema_mut;
/// use serde_json::json;
///
/// let mut schema = json!({"properties": {"a": {}, "b": {}}, "items": [{}, {}],
///     "not": {}, "default": {"properties": {}}});
/// let mut seen = Vec::new();
/// if let Some(map) = schema.as_object_mut() {
///     for_each_subschema_mut(map, |keyword, _| seen.push(keyword.to_owned()));
/// }
/// assert_eq!(seen, ["properties", "properties", "items", "items", "not"]);
/// ```
pub fn for_each_subschema_mut(
    schema: &mut Map<String, Value>,
    mut f: impl FnMut(&str, &mut Value),
) {
    for (key, child) in schema.iter_mut() {
        // `$defs` too: draft 2019-09's `definitions`, which the dialects write.
        let holds = match key.as_str() {
            "$defs" => Holds::Map,
            other => match applicator(other) {
                Some(a) => a.holds,
                None => continue,
            },
        };
        match (holds, child) {
            (Holds::Map | Holds::Dependencies, Value::Object(map)) => {
                map.values_mut().for_each(|c| f(key, c));
            }
            (Holds::OneOrArray | Holds::Array, Value::Array(items)) => {
                items.iter_mut().for_each(|c| f(key, c));
            }
            (Holds::One | Holds::OneOrArray, other) => f(key, other),
            _ => {}
        }
    }
}

/// The names a schema object's `required` lists, in its order (none without one).
#[must_use]
pub fn required_names(schema: &Map<String, Value>) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

//! Generated JSON for the result property tests (`result_props.rs`, `bound_props.rs`):
//! text with characters outside the BMP, escapes and controls; every kind of leaf, the
//! 64-bit integers at both ends; objects whose keys hold pointer characters (`~`, `/`).

use proptest::prelude::*;
use serde_json::Value;

pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,40}",
        "[😀é\"\\\\\u{1}\n a]{0,60}",
        "(😀|𝄞|x){0,80}",
    ]
}

pub fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        text().prop_map(Value::String),
    ]
}

pub fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 96, 10, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::vec(("[a-z_$😀~/]{0,6}", inner), 0..10)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

//! serde-unsupported near-miss: serialization-only attributes, `alias`,
//! `deny_unknown_fields` and `bound` are accepted.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "a note")]
pub struct Note {
    #[serde(alias = "body", skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(serialize_with = "serde::Serialize::serialize")]
    pub pinned: bool,
}

fn main() {
    assert_eq!(Note::schema()["required"], serde_json::json!(["text", "pinned"]));
}

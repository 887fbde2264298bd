//! Schema normalization (open-bag `propertyNames`) and the canonical writer.

mod canonical;
mod normalize;
mod walk;

pub use canonical::{KEYWORD_ORDER, LINE_WIDTH, to_canonical_string, to_canonical_vec};
pub use normalize::{
    DEFAULT_PROPERTY_NAMES, RESERVED_PROPERTY_NAME_PATTERN, RESERVED_PROPERTY_NAMES,
    default_property_names, default_property_names_accepts, normalize,
};
pub use walk::{for_each_subschema_mut, required_names};

//! Schema normalization (open-bag `propertyNames`) and the canonical writer.

mod canonical;
mod normalize;

pub use canonical::{to_canonical_string, to_canonical_vec};
pub use normalize::{DEFAULT_PROPERTY_NAMES, default_property_names, normalize};

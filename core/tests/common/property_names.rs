//! The keys `docs/contract.md` section 3 names for the default `propertyNames`, shared by the
//! Rust test (`normalize.rs`) and the ECMA-262 test (`property_names_js.rs`), so both
//! engines are held to one list.

/// Keys the default `propertyNames` rejects.
pub const REJECTED: &[&str] = &[
    "__proto__",
    "constructor",
    "prototype",
    "__x",
    "$x",
    "__",
    "$",
];

/// Keys it accepts.
pub const ACCEPTED: &[&str] = &[
    "name",
    "_x",
    "constructorX",
    "x__",
    "a$",
    "_",
    "",
    "Constructor",
    "proto",
];

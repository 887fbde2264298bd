//! The seed's `weather_forecast`, written with the macros. `cargo build` writes
//! `tools/weather_forecast.json` (see `build.rs`).

pub mod tools;

neuralis::package!();

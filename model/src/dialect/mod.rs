//! Provider dialects: how the schema a tool is checked against reaches each model, and
//! how a model's calls are read back.
//!
//! - [`served_schema`]: the `inputSchema` an MCP server serves ([`Served`]).
//! - [`absent_nulls`]: a strict model's `null` for a key it has nothing for, read as the
//!   key not sent.

mod nulls;
mod served;

pub use nulls::absent_nulls;
pub use served::{SAFE_INTEGER, Served, served_schema};

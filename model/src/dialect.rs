//! Provider dialects: how the schema a tool is checked against reaches each model, and
//! how a model's calls are read back.
//!
//! - [`served_schema`]: the `inputSchema` an MCP server serves ([`Served`]).
//! - [`absent_nulls`]: a strict model's `null` for a key it has nothing for, read as the
//!   key not sent.
//! - [`tool_definition`]: each provider's own tool definition ([`Provider`]: OpenAI
//!   strict, Anthropic strict, Gemini), one keyword table per provider, and what it
//!   loses ([`Loss`], `dialect-refused` and `dialect-weakened`).

mod nulls;
mod provider;
mod remote;
mod served;

pub use nulls::absent_nulls;
pub use provider::{
    ANTHROPIC, Definition, Fate, GEMINI, KeywordRule, Loss, OPENAI, Provider, check_provider,
    tool_definition, words,
};
pub use remote::{MCP_REMOTE, enum_strings, mixed_shapes};
pub use served::{SAFE_INTEGER, Served, served_schema};

//! Implementation detail of the `neuralis` crate: `#[derive(ToolInput)]`,
//! `#[derive(ToolOutput)]`, `#[tool]` and `#[tools]`.
//!
//! Use the derive through `neuralis::ToolInput`; this crate's output names paths
//! under `::neuralis::__private`, which only the facade provides.

mod bound;
mod expand;
mod fallback;
mod lower;
mod output;
mod private;
mod testing;
mod tool;
mod tools;

use proc_macro::TokenStream;

/// Derives `neuralis::ToolInput`. See the `neuralis` crate for the reference.
#[proc_macro_derive(ToolInput, attributes(schema))]
pub fn derive_tool_input(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}

/// Derives `neuralis::ToolOutput`. See the `neuralis` crate for the reference.
#[proc_macro_derive(ToolOutput, attributes(schema))]
pub fn derive_tool_output(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    output::derive(&input).into()
}

/// Declares a tool on its handler. See `neuralis::tool` for the reference.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::tool(args.into(), item.into()).into()
}

/// Collects the `#[tool]` methods of an inherent impl: the service they are called on.
/// See `neuralis::tools` for the reference.
#[proc_macro_attribute]
pub fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    tools::tools(args.into(), item.into()).into()
}

/// (Expanded by `neuralis-macros`.)
#[proc_macro]
pub fn testing_descriptor(input: TokenStream) -> TokenStream {
    testing::descriptor(input.into()).into()
}

/// (Expanded by `neuralis-macros`.)
#[proc_macro]
pub fn testing_handlers(input: TokenStream) -> TokenStream {
    testing::handlers(input.into()).into()
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tool_tests;

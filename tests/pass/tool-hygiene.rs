//! Hygiene of `#[tool]`: the expansion names only `::neuralis::__private` and `::core`
//! paths, so it compiles with the prelude's names shadowed and in a
//! `no_implicit_prelude` module.
#![allow(dead_code, non_camel_case_types)]

struct Result;
struct Ok;
struct Err;
struct Option;
struct Some;
struct None;
struct Vec;
struct String;
struct Box;
struct Value;
struct core;

#[derive(neuralis::ToolInput, serde::Deserialize)]
struct Input {
    name: std::string::String,
}

/// Sync.
#[neuralis::tool(annotations(category = "read"), defaults(name = "x"))]
fn sync_tool(input: Input) -> std::result::Result<neuralis::ToolResult, std::string::String> {
    std::result::Result::Ok(neuralis::ToolResult::text(input.name))
}

/// Async.
#[neuralis::tool(annotations(category = "read", cancellable))]
async fn async_tool(input: Input, abort: neuralis::AbortSignal) -> std::vec::Vec<u8> {
    let _ = (input, abort);
    std::vec::Vec::new()
}

struct Service;

#[neuralis::tools]
impl Service {
    /// A method.
    #[neuralis::tool(annotations(category = "read"))]
    fn method_tool(&self, input: Input) -> std::string::String {
        input.name
    }

    /// An async method.
    #[neuralis::tool(annotations(category = "read", cancellable))]
    async fn async_method(&self, input: Input, abort: &neuralis::AbortSignal) -> neuralis::ToolResult {
        let _ = abort;
        neuralis::ToolResult::text(input.name)
    }
}

#[no_implicit_prelude]
mod bare {
    #[derive(::neuralis::ToolInput, ::serde::Deserialize)]
    pub struct Input {
        pub name: ::std::string::String,
    }

    /// Bare.
    #[::neuralis::tool(annotations(destructive, category = "write"), ask_on_keys(name))]
    pub async fn bare_tool(
        input: Input,
        cx: &::neuralis::ToolContext,
    ) -> ::std::result::Result<::std::string::String, ::std::string::String> {
        let _ = cx;
        ::std::result::Result::Ok(input.name)
    }

    pub struct Service;

    #[::neuralis::tools]
    impl Service {
        /// A bare method.
        #[::neuralis::tool(annotations(category = "read"))]
        pub async fn bare_method(
            &self,
            cx: &::neuralis::ToolContext,
            input: Input,
        ) -> ::std::string::String {
            let _ = cx;
            input.name
        }
    }
}

fn main() {}

//! Hygiene: the expansion names only `::neuralis::__private` and `::core` paths, so it
//! compiles with the prelude's names shadowed and in a `no_implicit_prelude` module.
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
struct Map;
struct core;

#[derive(neuralis::ToolInput)]
struct Shadowed {
    name: std::string::String,
    tags: std::vec::Vec<std::string::String>,
    maybe: std::option::Option<u8>,
}

#[derive(neuralis::ToolInput)]
enum Choice {
    A { x: u8 },
    B(Shadowed),
    C,
}

#[no_implicit_prelude]
mod bare {
    #[derive(::neuralis::ToolInput)]
    #[schema(root)]
    pub struct Input {
        /// A name.
        pub name: ::std::string::String,
        pub count: ::std::option::Option<u32>,
        pub list: ::std::vec::Vec<super::Shadowed>,
    }
}

fn main() {}

::core::compile_error! {
    "category-invalid: `reed` is not a category\n= help: did you mean `read`?"
}
/// Broken.
fn broken(input: Input) -> ToolResult {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub(crate) static __neuralis_tool_broken: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "broken",
    x_neuralis: "{}",
    description: &[],
    schema: ::neuralis::__private::no_schema,
    root_keys: &[],
    cancellable: false,
    service: ::core::option::Option::None,
    output: ::neuralis::__private::no_output,
    bound: ::neuralis::__private::ToolBound::NONE,
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: &[],
    handler: ::neuralis::__private::Adapter::Sync(::neuralis::__private::unavailable),
};

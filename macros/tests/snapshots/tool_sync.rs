/// Deletes a note.
pub fn delete_note(input: DeleteNote, cx: &ToolContext) -> ToolResult {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, dead_code)]
pub static __neuralis_tool_delete_note: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "delete_note",
    x_neuralis: "{\"defaults\":{\"force\":false},\"annotations\":{\"destructiveHint\":true,\"category\":\"write\"},\"askOnKeys\":[\"force\"]}",
    description: &[" Deletes a note."],
    schema: ::neuralis::__private::root_schema::<DeleteNote>,
    root_keys: <DeleteNote as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    handler: ::neuralis::__private::Handler::Sync({
        fn __neuralis_call(
            __args: ::neuralis::__private::Value,
            __cx: &::neuralis::__private::ToolContext,
        ) -> ::core::result::Result<
            ::neuralis::__private::ToolResult,
            ::neuralis::__private::CallError,
        > {
            let __input = ::neuralis::__private::deserialize::<DeleteNote>(__args)?;
            let __out = delete_note(__input, __cx);
            ::core::result::Result::Ok(__out)
        }
        __neuralis_call
    }),
};
const _: () = {
    ::core::assert!(
        < DeleteNote as ::neuralis::__private::ToolInput > ::IS_OBJECT,
        "input-not-struct: `DeleteNote` is a tool's input, but its schema is not an object with named fields\n= help: wrap the type in a struct with named fields"
    );
};
const _: () = {
    ::core::assert!(
        ::neuralis::__private::reserved_root_key(< DeleteNote as
        ::neuralis::__private::ToolInput > ::ROOT_KEYS).is_none(),
        "reserved-input-key: a root property of `DeleteNote` uses a reserved session-context name\n= help: rename the property: caller identity comes from the verified session, never from arguments (nested uses are fine)"
    );
};
const _: () = {
    ::core::assert!(
        ::neuralis::__private::has_root_key(< DeleteNote as
        ::neuralis::__private::ToolInput > ::ROOT_KEYS, "force"),
        "askonkeys-undeclared: `ask_on_keys` names `force`, which is not a root property of `DeleteNote`\n= help: name a root property of this tool's input schema"
    );
};
const _: () = {
    ::core::assert!(
        ::neuralis::__private::has_root_key(< DeleteNote as
        ::neuralis::__private::ToolInput > ::ROOT_KEYS, "force"),
        "defaults-undeclared: `defaults` gives `force`, which is not a root property of `DeleteNote`\n= help: default a root property by its serde name (after `rename`/`rename_all`)"
    );
};
const _: () = {
    ::core::assert!(
        ::neuralis::__private::default_fits(< DeleteNote as
        ::neuralis::__private::ToolInput > ::ROOT_SHAPES, "force",
        ::neuralis::__private::Lit::Bool),
        "defaults-undeclared: the default `force = false` does not fit the type of the property\n= help: give a value the property's type accepts (the property's own `#[schema]` bounds are checked when the package loads)"
    );
};

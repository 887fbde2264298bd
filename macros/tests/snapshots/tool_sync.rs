/// Deletes a note.
pub fn delete_note(input: DeleteNote, cx: &ToolContext) -> ToolResult {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub static __neuralis_tool_delete_note: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "delete_note",
    x_neuralis: "{\"defaults\":{\"force\":false},\"annotations\":{\"destructiveHint\":true,\"category\":\"write\"},\"askOnKeys\":[\"force\"]}",
    description: &[" Deletes a note."],
    schema: ::neuralis::__private::root_schema::<DeleteNote>,
    root_keys: <DeleteNote as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    service: ::core::option::Option::None,
    output: {
        fn __neuralis_output() -> ::core::option::Option<::neuralis::__private::Output> {
            #[allow(unused_imports)]
            use ::neuralis::__private::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _,
                ViaResultOutput as _, ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&::neuralis::__private::OutputProbe::<ToolResult>::NEW)
                .__neuralis_output()
        }
        __neuralis_output
    },
    bound: ::neuralis::__private::ToolBound {
        ..::neuralis::__private::ToolBound::NONE
    },
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: <DeleteNote as ::neuralis::__private::ToolInput>::HEADERS,
    handler: ::neuralis::__private::Adapter::Sync({
        fn __neuralis_call(
            __args: ::neuralis::__private::Arguments<'_>,
            __cx: &::neuralis::__private::ToolContext,
        ) -> ::core::result::Result<
            ::neuralis::__private::ToolResult,
            ::neuralis::__private::CallError,
        > {
            let __input = ::neuralis::__private::deserialize::<
                DeleteNote,
            >(__args, __cx)?;
            let __out = delete_note(__input, __cx);
            ::core::result::Result::Ok({
                #[allow(unused_imports)]
                use ::neuralis::__private::{
                    ViaIntoToolResult as _, ViaOutputKind as _, ViaPlain as _,
                    ViaResult as _, ViaSerialize as _,
                };
                match (&&::neuralis::__private::Returned(&__out))
                    .__neuralis_split()
                    .split(__out)
                {
                    ::core::result::Result::Ok(__v) => {
                        (&&::neuralis::__private::Returned(&__v))
                            .__neuralis_kind()
                            .convert(__v, __cx)
                    }
                    ::core::result::Result::Err(__e) => *__e,
                }
            })
        }
        __neuralis_call
    }),
};
const _: () = {
    let __m = ::neuralis::__private::tool_input_message::<DeleteNote>("DeleteNote");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
const _: () = {
    let __m = ::neuralis::__private::root_key_message::<
        DeleteNote,
    >(::neuralis::__private::Given::AskOnKeys, "force", "DeleteNote");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
const _: () = {
    let __m = ::neuralis::__private::root_key_message::<
        DeleteNote,
    >(::neuralis::__private::Given::Defaults, "force", "DeleteNote");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
const _: () = {
    let __m = ::neuralis::__private::default_value_message::<
        DeleteNote,
    >("force", ::neuralis::__private::Lit::Bool, "force = false");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};

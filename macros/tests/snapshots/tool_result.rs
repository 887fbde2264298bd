/// Searches notes.
pub fn search(input: Search) -> Result<Vec<Note>, SearchError> {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub static __neuralis_tool_search: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "notes-search",
    x_neuralis: "{\"annotations\":{\"category\":\"read\"}}",
    description: &[" Searches notes."],
    schema: ::neuralis::__private::root_schema::<Search>,
    root_keys: <Search as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    service: ::core::option::Option::None,
    output: {
        fn __neuralis_output() -> ::core::option::Option<::neuralis::__private::Output> {
            #[allow(unused_imports)]
            use ::neuralis::__private::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _,
                ViaResultOutput as _, ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&::neuralis::__private::OutputProbe::<
                Result<Vec<Note>, SearchError>,
            >::NEW)
                .__neuralis_output()
        }
        __neuralis_output
    },
    bound: ::neuralis::__private::ToolBound {
        ..::neuralis::__private::ToolBound::NONE
    },
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: <Search as ::neuralis::__private::ToolInput>::HEADERS,
    handler: ::neuralis::__private::Adapter::Sync({
        fn __neuralis_call(
            __args: ::neuralis::__private::Arguments<'_>,
            __cx: &::neuralis::__private::ToolContext,
        ) -> ::core::result::Result<
            ::neuralis::__private::ToolResult,
            ::neuralis::__private::CallError,
        > {
            let __input = ::neuralis::__private::deserialize::<Search>(__args, __cx)?;
            let __out = search(__input);
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
    let __m = ::neuralis::__private::tool_input_message::<Search>("Search");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};

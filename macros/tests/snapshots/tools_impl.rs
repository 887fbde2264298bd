impl Notes {
    /// List the notes.
    #[tool(__neuralis_method)]
    pub async fn notes_list(&self, cx: &ToolContext, input: ListNotes) -> Listed {
        todo!()
    }
    /// Rebuild, with a feature.
    #[cfg(feature = "reindex")]
    #[neuralis::tool(__neuralis_method)]
    fn notes_reindex(&self, input: Reindex, abort: AbortSignal) -> u8 {
        todo!()
    }
    fn helper(&self) {}
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub static __neuralis_tool_Notes__notes_list: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "notes_list",
    x_neuralis: "{\"annotations\":{\"readOnlyHint\":true,\"category\":\"read\"}}",
    description: &[" List the notes."],
    schema: ::neuralis::__private::root_schema::<ListNotes>,
    root_keys: <ListNotes as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    service: ::core::option::Option::Some(
        ::neuralis::__private::ServiceType::of::<Notes>("Notes"),
    ),
    output: {
        fn __neuralis_output() -> ::core::option::Option<::neuralis::__private::Output> {
            #[allow(unused_imports)]
            use ::neuralis::__private::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _,
                ViaResultOutput as _, ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&::neuralis::__private::OutputProbe::<Listed>::NEW).__neuralis_output()
        }
        __neuralis_output
    },
    bound: ::neuralis::__private::ToolBound {
        ..::neuralis::__private::ToolBound::NONE
    },
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: <ListNotes as ::neuralis::__private::ToolInput>::HEADERS,
    handler: ::neuralis::__private::Adapter::Async({
        fn __neuralis_call<'a>(
            __args: ::neuralis::__private::Arguments<'_>,
            __cx: &'a ::neuralis::__private::ToolContext,
        ) -> ::core::result::Result<
            ::neuralis::__private::BoxFuture<
                'a,
                ::core::result::Result<
                    ::neuralis::__private::ToolResult,
                    ::neuralis::__private::CallError,
                >,
            >,
            ::neuralis::__private::CallError,
        > {
            let __input = ::neuralis::__private::deserialize::<ListNotes>(__args, __cx)?;
            ::core::result::Result::Ok(
                ::neuralis::__private::boxed(async move {
                    let __svc: &Notes = ::neuralis::__private::service::<
                        Notes,
                    >(__cx, "Notes")?;
                    let __out = __svc.notes_list(__cx, __input).await;
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
                }),
            )
        }
        __neuralis_call
    }),
};
const _: () = {
    let __m = ::neuralis::__private::tool_input_message::<ListNotes>("ListNotes");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
#[cfg(feature = "reindex")]
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub(crate) static __neuralis_tool_Notes__notes_reindex: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "notes_reindex",
    x_neuralis: "{\"annotations\":{\"category\":\"write\",\"cancellable\":true}}",
    description: &[" Rebuild, with a feature."],
    schema: ::neuralis::__private::root_schema::<Reindex>,
    root_keys: <Reindex as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: true,
    service: ::core::option::Option::Some(
        ::neuralis::__private::ServiceType::of::<Notes>("Notes"),
    ),
    output: {
        fn __neuralis_output() -> ::core::option::Option<::neuralis::__private::Output> {
            #[allow(unused_imports)]
            use ::neuralis::__private::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _,
                ViaResultOutput as _, ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&::neuralis::__private::OutputProbe::<u8>::NEW).__neuralis_output()
        }
        __neuralis_output
    },
    bound: ::neuralis::__private::ToolBound {
        ..::neuralis::__private::ToolBound::NONE
    },
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: <Reindex as ::neuralis::__private::ToolInput>::HEADERS,
    handler: ::neuralis::__private::Adapter::Sync({
        fn __neuralis_call(
            __args: ::neuralis::__private::Arguments<'_>,
            __cx: &::neuralis::__private::ToolContext,
        ) -> ::core::result::Result<
            ::neuralis::__private::ToolResult,
            ::neuralis::__private::CallError,
        > {
            let __svc: &Notes = ::neuralis::__private::service::<Notes>(__cx, "Notes")?;
            let __input = ::neuralis::__private::deserialize::<Reindex>(__args, __cx)?;
            let __out = __svc
                .notes_reindex(__input, ::neuralis::__private::abort_signal(__cx));
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
#[cfg(feature = "reindex")]
const _: () = {
    let __m = ::neuralis::__private::tool_input_message::<Reindex>("Reindex");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};

/// Runs a long job.
pub async fn run_job(abort: AbortSignal, input: Job, cx: &ToolContext) -> ToolResult {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub static __neuralis_tool_run_job: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "run_job",
    x_neuralis: "{\"annotations\":{\"category\":\"execute\",\"cancellable\":true}}",
    description: &[" Runs a long job."],
    schema: ::neuralis::__private::root_schema::<Job>,
    root_keys: <Job as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: true,
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
    headers: <Job as ::neuralis::__private::ToolInput>::HEADERS,
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
            let __input = ::neuralis::__private::deserialize::<Job>(__args, __cx)?;
            ::core::result::Result::Ok(
                ::neuralis::__private::boxed(async move {
                    let __out = run_job(
                            ::neuralis::__private::abort_signal(__cx),
                            __input,
                            __cx,
                        )
                        .await;
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
    let __m = ::neuralis::__private::tool_input_message::<Job>("Job");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};

/// Forecast the weather.
async fn weather_forecast(input: WeatherForecast) -> Forecast {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, non_snake_case, dead_code)]
pub(crate) static __neuralis_tool_weather_forecast: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "weather_forecast",
    x_neuralis: "{\"family\":\"weather\",\"defaults\":{\"days\":3},\"annotations\":{\"readOnlyHint\":true,\"category\":\"network\"}}",
    description: &[" Forecast the weather."],
    schema: ::neuralis::__private::root_schema::<WeatherForecast>,
    root_keys: <WeatherForecast as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    service: ::core::option::Option::None,
    output: {
        fn __neuralis_output() -> ::core::option::Option<::neuralis::__private::Output> {
            #[allow(unused_imports)]
            use ::neuralis::__private::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _,
                ViaResultOutput as _, ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&::neuralis::__private::OutputProbe::<Forecast>::NEW)
                .__neuralis_output()
        }
        __neuralis_output
    },
    bound: ::neuralis::__private::ToolBound {
        ..::neuralis::__private::ToolBound::NONE
    },
    task: ::neuralis::__private::TaskMode::FORBIDDEN,
    headers: <WeatherForecast as ::neuralis::__private::ToolInput>::HEADERS,
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
            let __input = ::neuralis::__private::deserialize::<
                WeatherForecast,
            >(__args, __cx)?;
            ::core::result::Result::Ok(
                ::neuralis::__private::boxed(async move {
                    let __out = weather_forecast(__input).await;
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
    let __m = ::neuralis::__private::tool_input_message::<
        WeatherForecast,
    >("WeatherForecast");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
const _: () = {
    let __m = ::neuralis::__private::root_key_message::<
        WeatherForecast,
    >(::neuralis::__private::Given::Defaults, "days", "WeatherForecast");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};
const _: () = {
    let __m = ::neuralis::__private::default_value_message::<
        WeatherForecast,
    >("days", ::neuralis::__private::Lit::Int(3i128), "days = 3");
    if !__m.is_empty() {
        ::core::panic!("{}", __m.as_str());
    }
};

/// Forecast the weather.
async fn weather_forecast(input: WeatherForecast) -> Forecast {
    todo!()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, dead_code)]
pub(crate) static __neuralis_tool_weather_forecast: ::neuralis::__private::ToolDescriptor = ::neuralis::__private::ToolDescriptor {
    name: "weather_forecast",
    x_neuralis: "{\"family\":\"weather\",\"defaults\":{\"days\":3},\"annotations\":{\"readOnlyHint\":true,\"category\":\"network\"}}",
    description: &[" Forecast the weather."],
    schema: ::neuralis::__private::root_schema::<WeatherForecast>,
    root_keys: <WeatherForecast as ::neuralis::__private::ToolInput>::ROOT_KEYS,
    cancellable: false,
    handler: ::neuralis::__private::Handler::Async({
        fn __neuralis_call<'a>(
            __args: ::neuralis::__private::Value,
            __cx: &'a ::neuralis::__private::ToolContext,
        ) -> ::neuralis::__private::BoxFuture<
            'a,
            ::core::result::Result<
                ::neuralis::__private::ToolResult,
                ::neuralis::__private::CallError,
            >,
        > {
            ::neuralis::__private::boxed(async move {
                let __input = ::neuralis::__private::deserialize::<
                    WeatherForecast,
                >(__args)?;
                let __out = weather_forecast(__input).await;
                ::core::result::Result::Ok(
                    ::neuralis::__private::serialize_result(&__out),
                )
            })
        }
        __neuralis_call
    }),
};
const _: () = {
    ::core::assert!(
        ::neuralis::__private::has_root_key(< WeatherForecast as
        ::neuralis::__private::ToolInput > ::ROOT_KEYS, "days"),
        "defaults-undeclared: `defaults` gives `days`, which is not a root property of `WeatherForecast`\n= help: default a root property by its serde name (after `rename`/`rename_all`)"
    );
};

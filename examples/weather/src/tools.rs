//! The weather tools.

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

/// The input of [`weather_forecast`].
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root, title = "Weather Forecast")]
pub struct WeatherForecast {
    /// City name, for example "Lisbon".
    #[schema(min_length = 1, max_length = 120)]
    pub city: String,
    /// Days ahead.
    #[schema(minimum = 1, maximum = 14)]
    pub days: Option<u8>,
}

/// One day of a forecast.
#[derive(Serialize, ToolOutput)]
pub struct Day {
    /// Days from today.
    pub offset: u8,
    /// A one-line summary.
    pub summary: String,
}

/// What [`weather_forecast`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Forecast {
    /// Whether the forecast was found.
    pub ok: bool,
    /// The city.
    pub city: String,
    /// One entry per day.
    pub days: Vec<Day>,
}

/// Forecast the weather for a city over the next few days.
#[tool(
    family = "weather",
    operation = "weather.forecast",
    transport = "embedded",
    defaults(days = 3),
    annotations(
        title = "Weather Forecast",
        read_only,
        destructive = false,
        category = "network",
        estimated_duration_ms = 2000
    ),
    ui(
        presentation = "card",
        card_type = "weather.result",
        icon = "cloud-sun"
    ),
    requires(features("weather.read"))
)]
pub async fn weather_forecast(input: WeatherForecast) -> Forecast {
    let days = (0..input.days.unwrap_or(3))
        .map(|offset| Day {
            offset,
            summary: "sunny".to_owned(),
        })
        .collect();
    Forecast {
        ok: true,
        city: input.city,
        days,
    }
}

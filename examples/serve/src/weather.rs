//! `weather_forecast`: a free-function tool beside the service, gated by the
//! `weather.read` feature.

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

/// The input of [`weather_forecast`].
#[derive(ToolInput, Deserialize)]
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
    /// Days from today, from 1.
    pub day: u32,
    /// The high, in °C.
    pub high: u32,
    /// The low, in °C.
    pub low: u32,
    /// The sky.
    pub sky: &'static str,
}

/// What [`weather_forecast`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Forecast {
    /// Always `true`.
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
pub fn weather_forecast(input: WeatherForecast) -> Forecast {
    const SKIES: [&str; 4] = ["sunny", "cloudy", "rain", "windy"];
    let seed = input.city.bytes().map(u32::from).sum::<u32>();
    let days = (0..u32::from(input.days.unwrap_or(3)))
        .map(|d| {
            let n = seed.wrapping_add(d * 7);
            Day {
                day: d + 1,
                high: 14 + n % 12,
                low: 6 + n % 6,
                sky: SKIES[(n % 4) as usize],
            }
        })
        .collect();
    Forecast {
        ok: true,
        city: input.city,
        days,
    }
}

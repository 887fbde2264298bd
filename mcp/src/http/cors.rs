//! The CORS layer for browser clients of a hosted server (feature `cors`).

use http::header::WWW_AUTHENTICATE;
use http::{HeaderValue, Method};

use crate::reply::{METHOD_HEADER, REQUEST_ID, SESSION_HEADER};

/// A CORS layer for browser clients of a hosted server (feature `cors`; `tower-http`'s
/// [`CorsLayer`](tower_http::cors::CorsLayer)), to wrap the whole router: it answers a
/// preflight (`OPTIONS` with `Access-Control-Request-Method`) itself, before identity
/// (a preflight carries no credentials), and adds the CORS headers to every answer,
/// `401`s included, for the origins `origins` (`https://app.example.com`) only.
///
/// Allowed request headers: `Authorization`, `Content-Type`, `Accept`,
/// `Mcp-Session-Id`, `Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Last-Event-ID`,
/// `X-Request-Id`; exposed response headers: `Mcp-Session-Id`, `Mcp-Protocol-Version`,
/// `WWW-Authenticate`, `Retry-After`, `X-Request-Id`; methods `GET`, `POST`, `DELETE`;
/// preflights cached for 10 minutes; no cookies (`Allow-Credentials` is not sent: the
/// bearer token travels in a header). rmcp's `Origin` check still applies: list the same
/// origins in `StreamableHttpServerConfig::allowed_origins`.
///
/// ```
/// let cors = neuralis_mcp::http::cors(["https://app.example.com"]).unwrap();
/// // axum: Router::new().nest_service("/mcp", service).layer(cors)
/// # let _ = cors;
/// ```
///
/// # Errors
///
/// The first origin that is not a valid header value.
pub fn cors<I, S>(origins: I) -> Result<tower_http::cors::CorsLayer, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    use http::header::{ACCEPT, CONTENT_TYPE as TYPE, HeaderName, RETRY_AFTER};
    let origins = origins
        .into_iter()
        .map(|o| {
            let origin = o.as_ref().trim_end_matches('/');
            HeaderValue::from_str(origin).map_err(|_| format!("`{origin}` is not an origin"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let name = HeaderName::from_static;
    Ok(tower_http::cors::CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([
            http::header::AUTHORIZATION,
            TYPE,
            ACCEPT,
            name(SESSION_HEADER),
            name("mcp-protocol-version"),
            name(METHOD_HEADER),
            name("mcp-name"),
            name("last-event-id"),
            name(REQUEST_ID),
        ])
        .expose_headers([
            name(SESSION_HEADER),
            name("mcp-protocol-version"),
            WWW_AUTHENTICATE,
            RETRY_AFTER,
            name(REQUEST_ID),
        ])
        .max_age(std::time::Duration::from_secs(600)))
}

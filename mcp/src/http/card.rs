//! The Server Card a hosted server publishes beside its endpoint (SEP-2127): what a client
//! reads before it connects, at `GET <endpoint>/server-card`, without credentials.

use http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ALLOW, CACHE_CONTROL, CONTENT_TYPE,
    ETAG, IF_NONE_MATCH,
};
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode};
use serde_json::{Map, Value, json};

use crate::reply::{HttpResponse, full, refusal};

/// The Server Card of a hosted server (SEP-2127, schema
/// [`ServerCard::SCHEMA`]): served by [`HostedService`](super::HostedService) at
/// `GET <endpoint>/server-card` (for a service nested at `/mcp`: `/mcp/server-card`)
/// without credentials, as [`ServerCard::MEDIA_TYPE`], once
/// [`Hosted::with_server_card`](super::Hosted::with_server_card) (or, for one local
/// identity, [`McpServer::with_server_card`](crate::McpServer::with_server_card)) gives it.
///
/// What the card says comes from one place each: its `name` (the reverse-DNS name the
/// MCP Registry knows, `io.github.<owner>/<name>`), `description`, `title`,
/// `websiteUrl`, `repository` and the public URLs of the endpoint from here; its
/// `version` is the one `initialize` reports ([`Hosted::with_server_info`](super::Hosted::with_server_info)),
/// whose `title` and `description` are this card's; each remote's
/// `supportedProtocolVersions` are the versions the service speaks (all of rmcp's in the
/// legacy session mode, 2026-07-28 alone when stateless); and the authorization it
/// requires is the hosted server's own (none for one local identity): an `Authorization`
/// header (`isRequired`, `isSecret`) and SEP-2127's `authentication` object (`required`,
/// `schemes`, and `resourceMetadata`, the RFC 9728 document's URL, when
/// [`Hosted::with_protected_resource`](super::Hosted::with_protected_resource) names
/// one). No tools, resources or prompts: SEP-2127 leaves them to the protocol's lists.
///
/// A server with several endpoints (one per served dialect) gives each its own card.
///
/// ```
/// use neuralis_mcp::http::ServerCard;
///
/// let card = ServerCard::new("io.github.acme/weather", "Forecasts and alerts for any city")
///     .title("Weather")
///     .endpoint("https://tools.acme.example/mcp")
///     .repository("https://github.com/acme/weather", "github");
/// assert_eq!(card.problem(), None);
/// assert_eq!(card.name(), "io.github.acme/weather");
///
/// let unnamed = ServerCard::new("weather", "Forecasts");
/// assert!(unnamed.problem().unwrap().contains("exactly one `/`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCard {
    name: String,
    description: String,
    title: Option<String>,
    website_url: Option<String>,
    repository: Option<(String, String)>,
    endpoints: Vec<String>,
}

/// What the card takes from the service rather than from [`ServerCard`].
pub(crate) struct Facts<'a> {
    /// `initialize`'s version.
    pub version: &'a str,
    /// The protocol versions the service speaks.
    pub protocol_versions: Vec<String>,
    /// `Some` when every request needs a bearer token: the RFC 9728 document's URL, if any.
    pub authorization: Option<Option<String>>,
}

impl ServerCard {
    /// The card's media type, its `Content-Type`.
    pub const MEDIA_TYPE: &'static str = "application/mcp-server-card+json";

    /// The schema every card names in `$schema`.
    pub const SCHEMA: &'static str =
        "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

    /// The card of the server the MCP Registry knows as `name` (reverse DNS, exactly one
    /// `/`: `io.github.acme/weather`), described in at most 100 characters.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            title: None,
            website_url: None,
            repository: None,
            endpoints: Vec::new(),
        }
    }

    /// The human-readable name clients show (at most 100 characters).
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The project's homepage or documentation.
    #[must_use]
    pub fn website_url(mut self, url: impl Into<String>) -> Self {
        self.website_url = Some(url.into());
        self
    }

    /// Where the source is (`url`), on which forge (`source`: `github`, `gitlab`...).
    #[must_use]
    pub fn repository(mut self, url: impl Into<String>, source: impl Into<String>) -> Self {
        self.repository = Some((url.into(), source.into()));
        self
    }

    /// A public URL clients reach this endpoint at (`https://tools.example.com/mcp`);
    /// repeatable (a second hostname). Without one, the card names the protected
    /// resource's URL when there is one, else no remote.
    #[must_use]
    pub fn endpoint(mut self, url: impl Into<String>) -> Self {
        self.endpoints.push(url.into());
        self
    }

    /// The card's reverse-DNS name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What `initialize` reports too: the title, the description and the website.
    pub(crate) fn details(&self) -> (Option<&str>, &str, Option<&str>) {
        (
            self.title.as_deref(),
            &self.description,
            self.website_url.as_deref(),
        )
    }

    /// Why the card's schema would refuse it (a name without exactly one `/`, an empty
    /// description or one over 100 characters, an endpoint that is no `http(s)://` URL),
    /// or `None`.
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        let name_ok = |s: &str, extra: &[char]| {
            !s.is_empty()
                && s.chars().all(|c| {
                    c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c)
                })
        };
        let parts: Vec<&str> = self.name.split('/').collect();
        if parts.len() != 2 || !name_ok(parts[0], &[]) || !name_ok(parts[1], &['_']) {
            return Some(format!(
                "the server card's name `{}` must be a reverse-DNS namespace and a name with exactly one `/` between them (io.github.<owner>/<name>)",
                self.name
            ));
        }
        if let Some(p) = length_problem("description", Some(&self.description)) {
            return Some(p);
        }
        if let Some(p) = length_problem("title", self.title.as_deref()) {
            return Some(p);
        }
        self.endpoints
            .iter()
            .find(|url| {
                !(url.starts_with("https://") || url.starts_with("http://"))
                    || url.chars().any(char::is_whitespace)
            })
            .map(|url| {
                format!("the server card's endpoint `{url}` must be an http:// or https:// URL")
            })
    }

    /// The card's document, for a service whose facts are `facts` and whose protected
    /// resource (if any) is `resource`.
    pub(crate) fn document(&self, facts: &Facts<'_>, resource: Option<&str>) -> Value {
        let mut card = Map::new();
        card.insert("$schema".into(), json!(Self::SCHEMA));
        card.insert("name".into(), json!(self.name));
        card.insert("version".into(), json!(facts.version));
        card.insert("description".into(), json!(self.description));
        if let Some(title) = &self.title {
            card.insert("title".into(), json!(title));
        }
        if let Some(url) = &self.website_url {
            card.insert("websiteUrl".into(), json!(url));
        }
        if let Some((url, source)) = &self.repository {
            card.insert("repository".into(), json!({"url": url, "source": source}));
        }
        let endpoints: Vec<&str> = if self.endpoints.is_empty() {
            resource.into_iter().collect()
        } else {
            self.endpoints.iter().map(String::as_str).collect()
        };
        let remotes: Vec<Value> = endpoints
            .into_iter()
            .map(|url| remote(url, facts))
            .collect();
        if !remotes.is_empty() {
            card.insert("remotes".into(), Value::Array(remotes));
        }
        Value::Object(card)
    }
}

/// Why a text field is refused by the card's schema (1 to 100 characters).
fn length_problem(field: &str, text: Option<&str>) -> Option<String> {
    let n = text?.chars().count();
    (n == 0 || n > 100)
        .then(|| format!("the server card's {field} must be 1 to 100 characters long (it has {n})"))
}

/// One remote of the card: the endpoint at `url`.
fn remote(url: &str, facts: &Facts<'_>) -> Value {
    let mut remote = json!({
        "type": "streamable-http",
        "url": url,
        "supportedProtocolVersions": facts.protocol_versions,
    });
    if let Some(metadata) = &facts.authorization {
        let description = match metadata {
            Some(url) => format!(
                "Bearer token: `Bearer <token>`, from an authorization server this resource's metadata names ({url})"
            ),
            None => "Bearer token: `Bearer <token>`".to_owned(),
        };
        remote["headers"] = json!([{
            "name": "Authorization",
            "description": description,
            "isRequired": true,
            "isSecret": true,
        }]);
        let mut authentication = json!({"required": true, "schemes": ["bearer"]});
        if let Some(url) = metadata {
            authentication["schemes"] = json!(["bearer", "oauth2"]);
            authentication["resourceMetadata"] = json!(url);
        }
        remote["authentication"] = authentication;
    }
    remote
}

/// The card as served: its bytes and their strong entity tag.
#[derive(Debug)]
pub(crate) struct Served {
    body: String,
    etag: HeaderValue,
}

impl Served {
    pub(crate) fn new(document: &Value) -> Self {
        use sha2::Digest as _;
        let body = format!("{document:#}\n");
        let digest = sha2::Sha256::digest(body.as_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        let etag = HeaderValue::from_str(&format!("\"{hex}\""))
            .unwrap_or(HeaderValue::from_static("\"card\""));
        Self { body, etag }
    }

    /// The document served.
    pub(crate) fn document(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The answer to a `method` request for the card with `headers`.
    pub(crate) fn answer(&self, method: &Method, headers: &HeaderMap) -> HttpResponse {
        if method == Method::OPTIONS {
            let mut response = Response::new(full(String::new()));
            *response.status_mut() = StatusCode::NO_CONTENT;
            response
                .headers_mut()
                .insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
            return with_cors(response);
        }
        if method != Method::GET && method != Method::HEAD {
            let mut response = refusal(
                StatusCode::METHOD_NOT_ALLOWED,
                "the server card is read with GET",
                "a server card request with another method than GET, HEAD or OPTIONS",
            );
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD, OPTIONS"));
            return with_cors(response);
        }
        let fresh = headers
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            // If-None-Match compares weakly (RFC 9110 §13.1.2).
            .any(|tag| {
                tag == "*" || tag.trim_start_matches("W/").as_bytes() == self.etag.as_bytes()
            });
        let mut response = if fresh {
            let mut response = Response::new(full(String::new()));
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response
        } else {
            let body = if method == Method::HEAD {
                String::new()
            } else {
                self.body.clone()
            };
            let mut response = Response::new(full(body));
            response.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static(ServerCard::MEDIA_TYPE),
            );
            response
        };
        let headers = response.headers_mut();
        headers.insert(ETAG, self.etag.clone());
        headers.insert(
            CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=3600"),
        );
        with_cors(response)
    }
}

/// The answer for a path that names no card: this service has none.
pub(crate) fn missing() -> HttpResponse {
    with_cors(refusal(
        StatusCode::NOT_FOUND,
        "this server publishes no server card (the host gives one with Hosted::with_server_card or McpServer::with_server_card)",
        "a server card asked of a service that has none",
    ))
}

/// `response` readable by any page (SEP-2127's CORS headers: the card is public).
pub(crate) fn with_cors(mut response: HttpResponse) -> HttpResponse {
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, HEAD, OPTIONS"),
    );
    headers.insert(
        ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("Content-Type, If-None-Match"),
    );
    headers.insert(
        ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag"),
    );
    response
}

/// Whether a request for `path` (as the service sees it: under a nest, the rest of the
/// path) asks for the card: its last segment is `server-card`.
pub(crate) fn is_card_path(path: &str) -> bool {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|last| last == "server-card")
}

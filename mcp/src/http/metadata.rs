//! The OAuth 2.0 protected-resource metadata a hosted server names in its challenges
//! (RFC 9728).

use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response};
use serde_json::{Value, json};

use crate::reply::{HttpResponse, full};

/// The OAuth 2.0 protected-resource metadata of a hosted server (RFC 9728), which the
/// MCP authorization spec points clients to from the `WWW-Authenticate` challenge of a
/// `401`.
///
/// ```
/// use neuralis_mcp::http::ProtectedResource;
///
/// let meta = ProtectedResource::new("https://tools.example.com/mcp")
///     .authorization_server("https://auth.example.com")
///     .scope("weather.read");
/// assert_eq!(meta.well_known_path(), "/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(meta.metadata_url(), "https://tools.example.com/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(meta.document()["authorization_servers"][0], "https://auth.example.com");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
}

impl ProtectedResource {
    /// The metadata of the resource `resource` (the server's URL, `https://host/mcp`).
    #[must_use]
    pub fn new(resource: impl Into<String>) -> Self {
        Self {
            resource: resource.into(),
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
        }
    }

    /// An authorization server that issues tokens for this resource.
    #[must_use]
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// A scope the resource understands (a feature a token may grant).
    #[must_use]
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// The resource's URL (the server's, `https://host/mcp`).
    #[must_use]
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The resource's origin and path, split where RFC 9728 inserts the well-known
    /// segment.
    fn split(&self) -> (&str, &str) {
        let after_scheme = self.resource.find("://").map_or(0, |i| i + 3);
        match self.resource[after_scheme..].find('/') {
            Some(i) => self.resource.split_at(after_scheme + i),
            None => (self.resource.as_str(), ""),
        }
    }

    /// The path the document is served at (RFC 9728 §3.1: the well-known segment
    /// between the host and the resource's path), for the host's router.
    #[must_use]
    pub fn well_known_path(&self) -> String {
        let (_, path) = self.split();
        format!(
            "/.well-known/oauth-protected-resource{}",
            path.trim_end_matches('/')
        )
    }

    /// The document's URL, named in the `WWW-Authenticate` challenge.
    #[must_use]
    pub fn metadata_url(&self) -> String {
        let (origin, _) = self.split();
        format!("{origin}{}", self.well_known_path())
    }

    /// The metadata document.
    #[must_use]
    pub fn document(&self) -> Value {
        let mut doc = json!({
            "resource": self.resource,
            "bearer_methods_supported": ["header"],
        });
        if !self.authorization_servers.is_empty() {
            doc["authorization_servers"] = json!(self.authorization_servers);
        }
        if !self.scopes.is_empty() {
            doc["scopes_supported"] = json!(self.scopes);
        }
        doc
    }

    /// The document as an HTTP response (`200`, JSON), for the host's router.
    #[must_use]
    pub fn response(&self) -> HttpResponse {
        let mut response = Response::new(full(self.document().to_string()));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }
}

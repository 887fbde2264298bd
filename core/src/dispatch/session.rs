//! The verified session: who calls, on whose behalf, with which grants.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// The caller's verified session, as the host established it.
///
/// It carries every field the platform names (the names `reserved-input-key` bans from a
/// tool's root input: `userId`, `projectId`, `agentId`, `conversationId`, `requestId`,
/// `toolUseId`, `delegateRunId`, `delegateMode`, `role`, `priority`, `grantedFeatures`,
/// `spendLimits`, `llmRateLimitRpm`, `agentAccess`, `agentOwnership`, and the bundled
/// `session`).
///
/// **Only the host builds one**, with [`SessionContext::builder`], from its verified
/// session ticket. The type deliberately implements no `Deserialize`: a session that could
/// be read from JSON could be read from a tool's arguments, and caller identity must never
/// come from there. The closed root of every tool schema refuses the same names in
/// arguments before any handler runs. (The JSON entry [`Package::call_json`] reads the
/// `session` member of the *host's* request, the trusted side, through a private wire type.)
///
/// A `SessionContext` is a cheap handle (one `Arc`): cloning it copies no field.
///
/// It cannot be read from JSON:
///
/// ```compile_fail
/// fn from_json<T: serde::de::DeserializeOwned>() {}
/// from_json::<neuralis_core::dispatch::SessionContext>();
/// ```
///
/// ```
/// use neuralis_core::dispatch::SessionContext;
///
/// let session = SessionContext::builder("user-1")
///     .project_id("proj-9")
///     .grant("weather.read")
///     .llm_rate_limit_rpm(60)
///     .build();
/// assert_eq!(session.user_id(), "user-1");
/// assert_eq!(session.project_id(), Some("proj-9"));
/// assert!(session.is_granted("weather.read"));
/// assert!(!session.is_granted("weather.write"));
/// ```
///
/// [`Package::call_json`]: super::Package::call_json
#[derive(Clone)]
pub struct SessionContext {
    inner: Arc<SessionData>,
}

/// One session field's Rust type, accessor, setter and wire type, by its kind in the list.
macro_rules! field {
    (type id) => { String };
    (type text) => { Option<String> };
    (type grants) => { Vec<String> };
    (type json) => { Option<Value> };
    (type count) => { Option<u64> };

    (get id $(#[$doc:meta])* $name:ident $wire:literal) => {
        $(#[$doc])*
        #[doc = concat!("(`", $wire, "`)")]
        #[must_use]
        pub fn $name(&self) -> &str {
            &self.inner.$name
        }
    };
    (get text $(#[$doc:meta])* $name:ident $wire:literal) => {
        $(#[$doc])*
        #[doc = concat!("(`", $wire, "`)")]
        #[must_use]
        pub fn $name(&self) -> Option<&str> {
            self.inner.$name.as_deref()
        }
    };
    (get grants $(#[$doc:meta])* $name:ident $wire:literal) => {
        $(#[$doc])*
        #[doc = concat!("(`", $wire, "`)")]
        #[must_use]
        pub fn $name(&self) -> &[String] {
            &self.inner.$name
        }
    };
    (get json $(#[$doc:meta])* $name:ident $wire:literal) => {
        $(#[$doc])*
        #[doc = concat!("(`", $wire, "`)")]
        #[must_use]
        pub fn $name(&self) -> Option<&Value> {
            self.inner.$name.as_ref()
        }
    };
    (get count $(#[$doc:meta])* $name:ident $wire:literal) => {
        $(#[$doc])*
        #[doc = concat!("(`", $wire, "`)")]
        #[must_use]
        pub fn $name(&self) -> Option<u64> {
            self.inner.$name
        }
    };

    // On the wire every field but the user may be left out.
    (wire grants) => { Option<Vec<String>> };
    (wire $kind:ident) => { field!(type $kind) };
    (read grants $value:expr) => { $value.unwrap_or_default() };
    (read $kind:ident $value:expr) => { $value };

    // The user is given to `builder`, grants by `grant` and `grants`.
    (set id $name:ident $wire:literal) => {};
    (set grants $name:ident $wire:literal) => {};
    (set text $name:ident $wire:literal) => {
        #[doc = concat!("Sets `", $wire, "`.")]
        pub fn $name(mut self, value: impl Into<String>) -> Self {
            self.data.$name = Some(value.into());
            self
        }
    };
    (set json $name:ident $wire:literal) => {
        #[doc = concat!("Sets `", $wire, "`.")]
        pub fn $name(mut self, value: Value) -> Self {
            self.data.$name = Some(value);
            self
        }
    };
    (set count $name:ident $wire:literal) => {
        #[doc = concat!("Sets `", $wire, "`.")]
        pub fn $name(mut self, value: u64) -> Self {
            self.data.$name = Some(value);
            self
        }
    };
}

/// The session's fields, accessors, setters and wire form, from the one list
/// (`neuralis_model::session_fields!`).
macro_rules! session {
    ($($(#[$doc:meta])* $name:ident $wire:literal ($kind:ident);)*) => {
        /// The fields of a session.
        #[derive(Debug, Clone, Default, PartialEq)]
        struct SessionData {
            $($name: field!(type $kind),)*
        }

        impl SessionContext {
            $(field!(get $kind $(#[$doc])* $name $wire);)*
        }

        impl SessionBuilder {
            $(field!(set $kind $name $wire);)*
        }

        /// The host's session, as its shim sends it (`call_json`'s `session`). Private to
        /// the crate: only the trusted side of a request is read into a
        /// [`SessionContext`], never a tool's arguments. Every field but `userId` may be
        /// left out.
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct SessionWire {
            $(
                #[serde(rename = $wire)]
                $name: field!(wire $kind),
            )*
        }

        impl SessionWire {
            pub(crate) fn into_session(self) -> SessionContext {
                SessionContext {
                    inner: Arc::new(SessionData { $($name: field!(read $kind self.$name),)* }),
                }
            }
        }
    };
}

neuralis_model::session_fields!(session);

impl SessionContext {
    /// Starts a session for the verified user `user_id`.
    pub fn builder(user_id: impl Into<String>) -> SessionBuilder {
        SessionBuilder {
            data: SessionData {
                user_id: user_id.into(),
                ..SessionData::default()
            },
        }
    }

    /// Whether `feature` is granted.
    #[must_use]
    pub fn is_granted(&self, feature: &str) -> bool {
        self.inner.granted_features.iter().any(|f| f == feature)
    }
}

impl fmt::Debug for SessionContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

impl PartialEq for SessionContext {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner) || self.inner == other.inner
    }
}

/// Builds a [`SessionContext`]; see [`SessionContext::builder`].
#[derive(Debug, Clone)]
#[must_use]
pub struct SessionBuilder {
    data: SessionData,
}

impl SessionBuilder {
    /// Grants one feature (`grantedFeatures`); granting one twice keeps one.
    pub fn grant(mut self, feature: impl Into<String>) -> Self {
        let feature = feature.into();
        if !self.data.granted_features.contains(&feature) {
            self.data.granted_features.push(feature);
        }
        self
    }

    /// Grants every feature of `features`.
    pub fn grants<I, S>(self, features: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        features.into_iter().fold(self, |b, f| b.grant(f))
    }

    /// The session.
    #[must_use]
    pub fn build(self) -> SessionContext {
        SessionContext {
            inner: Arc::new(self.data),
        }
    }
}

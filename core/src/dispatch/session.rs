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

/// The fields of a session.
#[derive(Debug, Clone, Default, PartialEq)]
struct SessionData {
    user_id: String,
    project_id: Option<String>,
    agent_id: Option<String>,
    conversation_id: Option<String>,
    request_id: Option<String>,
    tool_use_id: Option<String>,
    delegate_run_id: Option<String>,
    delegate_mode: Option<String>,
    role: Option<String>,
    priority: Option<String>,
    granted_features: Vec<String>,
    spend_limits: Option<Value>,
    llm_rate_limit_rpm: Option<u64>,
    agent_access: Option<Value>,
    agent_ownership: Option<Value>,
    session: Option<Value>,
}

macro_rules! str_accessors {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(&self) -> Option<&str> {
                self.inner.$name.as_deref()
            }
        )*
    };
}

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

    /// The verified user (`userId`).
    #[must_use]
    pub fn user_id(&self) -> &str {
        &self.inner.user_id
    }

    str_accessors! {
        /// The project (`projectId`).
        project_id;
        /// The agent running the call (`agentId`).
        agent_id;
        /// The conversation (`conversationId`).
        conversation_id;
        /// The request (`requestId`).
        request_id;
        /// This tool use (`toolUseId`).
        tool_use_id;
        /// The delegate run, when the call comes from a delegated run (`delegateRunId`).
        delegate_run_id;
        /// The delegate mode (`delegateMode`).
        delegate_mode;
        /// The caller's role (`role`).
        role;
        /// The run's priority (`priority`).
        priority;
    }

    /// The features granted to the caller (`grantedFeatures`), in the host's order.
    #[must_use]
    pub fn granted_features(&self) -> &[String] {
        &self.inner.granted_features
    }

    /// Whether `feature` is granted.
    #[must_use]
    pub fn is_granted(&self, feature: &str) -> bool {
        self.inner.granted_features.iter().any(|f| f == feature)
    }

    /// The spend limits (`spendLimits`), as the platform states them.
    #[must_use]
    pub fn spend_limits(&self) -> Option<&Value> {
        self.inner.spend_limits.as_ref()
    }

    /// The model-call rate limit in requests per minute (`llmRateLimitRpm`).
    #[must_use]
    pub fn llm_rate_limit_rpm(&self) -> Option<u64> {
        self.inner.llm_rate_limit_rpm
    }

    /// The agent access grants (`agentAccess`), as the platform states them.
    #[must_use]
    pub fn agent_access(&self) -> Option<&Value> {
        self.inner.agent_access.as_ref()
    }

    /// The agent ownership (`agentOwnership`), as the platform states it.
    #[must_use]
    pub fn agent_ownership(&self) -> Option<&Value> {
        self.inner.agent_ownership.as_ref()
    }

    /// The bundled session ticket (`session`), as the platform states it.
    #[must_use]
    pub fn session(&self) -> Option<&Value> {
        self.inner.session.as_ref()
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

macro_rules! str_setters {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: impl Into<String>) -> Self {
                self.data.$name = Some(value.into());
                self
            }
        )*
    };
}

macro_rules! value_setters {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: Value) -> Self {
                self.data.$name = Some(value);
                self
            }
        )*
    };
}

impl SessionBuilder {
    str_setters! {
        /// Sets `projectId`.
        project_id;
        /// Sets `agentId`.
        agent_id;
        /// Sets `conversationId`.
        conversation_id;
        /// Sets `requestId`.
        request_id;
        /// Sets `toolUseId`.
        tool_use_id;
        /// Sets `delegateRunId`.
        delegate_run_id;
        /// Sets `delegateMode`.
        delegate_mode;
        /// Sets `role`.
        role;
        /// Sets `priority`.
        priority;
    }

    value_setters! {
        /// Sets `spendLimits`.
        spend_limits;
        /// Sets `agentAccess`.
        agent_access;
        /// Sets `agentOwnership`.
        agent_ownership;
        /// Sets the bundled `session` ticket.
        session;
    }

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

    /// Sets `llmRateLimitRpm`.
    pub fn llm_rate_limit_rpm(mut self, rpm: u64) -> Self {
        self.data.llm_rate_limit_rpm = Some(rpm);
        self
    }

    /// The session.
    #[must_use]
    pub fn build(self) -> SessionContext {
        SessionContext {
            inner: Arc::new(self.data),
        }
    }
}

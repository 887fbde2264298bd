//! The asker of a [`TestClient`](super::TestClient)'s call: the approval gate answered as
//! the test says, every other question put to the test's own asker.

use std::sync::{Arc, Mutex};

use neuralis_core::dispatch::{
    Answer, AskError, AskReason, Asker, BoxFuture, Capability, Elicited, Question,
};

use super::lock;

/// The asker of one call: the approval gate's question answered as
/// [`TestClient::approving`] says (a client that cannot confirm without it), the others
/// put to the test's own asker, if any.
pub(super) struct TestAsker {
    pub(super) approving: Option<bool>,
    pub(super) inner: Option<Arc<dyn Asker>>,
    /// Why the gate asked, once it did.
    pub(super) approval: Mutex<Option<AskReason>>,
    /// What the client did not declare ([`TestClient::without`]).
    pub(super) missing: Vec<Capability>,
}

impl Asker for TestAsker {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        if let Question::Approve(request) = &question {
            *lock(&self.approval) = Some(request.reason.clone());
        }
        if let Err(unsupported) = question.supported_by(|c| !self.missing.contains(&c)) {
            return Box::pin(std::future::ready(Err(unsupported)));
        }
        if let Question::Approve(request) = &question {
            *lock(&self.approval) = Some(request.reason.clone());
            if let Some(confirm) = self.approving {
                let answer = if confirm {
                    Elicited::Accept(serde_json::Map::new())
                } else {
                    Elicited::Decline
                };
                return Box::pin(std::future::ready(Ok(Answer::Elicit(answer))));
            }
        }
        match &self.inner {
            Some(inner) => inner.ask(key, question),
            None => {
                let unsupported = AskError::Unsupported(question.capability());
                Box::pin(std::future::ready(Err(unsupported)))
            }
        }
    }

    fn supports(&self, capability: Capability) -> bool {
        !self.missing.contains(&capability)
            && (self.inner.as_ref().is_some_and(|a| a.supports(capability))
                || (capability == Capability::Elicitation && self.approving.is_some()))
    }
}

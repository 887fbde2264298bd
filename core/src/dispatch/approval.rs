//! The approval posture of a call: `askOnKeys` presence and the `unknown` category.

use serde_json::Value;

use super::{Package, Refusal, SessionContext};
use crate::catalog::{Category, ToolMeta};

/// The approval posture of one call (see [`Package::approval`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// The tool's declaration makes this call ask a person first.
    Ask(AskReason),
    /// The declaration adds no ask: the host's floor for this category decides (a
    /// declaration can only make a call ask, never grant one).
    Floor(Category),
}

impl Approval {
    /// Whether the declaration makes this call ask.
    #[must_use]
    pub fn asks(&self) -> bool {
        matches!(self, Approval::Ask(_))
    }
}

/// Why a call asks for approval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskReason {
    /// The tool's category is `unknown`: every call asks.
    UnknownCategory,
    /// The call sends these keys of `askOnKeys` (presence, whatever their values).
    Keys(Vec<String>),
}

impl Package {
    /// The approval posture of calling `name` with `args`: `askOnKeys` presence (a sent
    /// key asks whatever its value, `{"delete": false}` too), and category `unknown`
    /// always asks. Values are never read; defaults do not count as sent, nor does a
    /// `null` for a key the schema does not require and whose schema refuses `null` (a
    /// strict model's "nothing": [`absent_nulls`](crate::dialect::absent_nulls)).
    ///
    /// # Errors
    ///
    /// The generic [`Refusal`] for a tool that is unknown or not granted to `session`,
    /// the same in both cases.
    pub fn approval(
        &self,
        name: &str,
        args: &Value,
        session: &SessionContext,
    ) -> Result<Approval, Refusal> {
        let slot = self.gated(name, session)?;
        if args.is_object() {
            let mut args = args.clone();
            crate::dialect::absent_nulls(&slot.entry.schema, &mut args);
            return Ok(posture(&slot.entry.meta, &args));
        }
        Ok(posture(&slot.entry.meta, args))
    }
}

/// Whether some call of the tool `meta` describes asks (what [`posture`] can answer
/// without the arguments): category `unknown`, or an `askOnKeys` list.
pub(super) fn may_ask(meta: &ToolMeta) -> bool {
    meta.annotations.category == Category::Unknown || !meta.ask_on_keys.is_empty()
}

/// The posture of a call of the tool `meta` describes with `args` as sent (the rule of
/// [`Package::approval`], which the pipeline's gate reads too).
pub(super) fn posture(meta: &ToolMeta, args: &Value) -> Approval {
    if meta.annotations.category == Category::Unknown {
        return Approval::Ask(AskReason::UnknownCategory);
    }
    if meta.ask_on_keys.is_empty() {
        return Approval::Floor(meta.annotations.category);
    }
    let sent: Vec<String> = match args.as_object() {
        Some(map) => meta
            .ask_on_keys
            .iter()
            .filter(|k| map.contains_key(k.as_str()))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    if sent.is_empty() {
        Approval::Floor(meta.annotations.category)
    } else {
        Approval::Ask(AskReason::Keys(sent))
    }
}

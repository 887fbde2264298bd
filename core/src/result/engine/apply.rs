//! Applying a [`Plan`]: a copy of what it keeps of a value, or the value cut in place to
//! it, with the same output (the engine's other half decides the plan).

use serde_json::{Map, Value};

use super::{MAX_DEPTH, Members, Plan, Rules, is_container, release, too_deep};

impl Rules {
    /// A copy of what `plan` keeps of `v` (a value at nesting level `depth`).
    pub(crate) fn materialize(&self, v: &Value, plan: Plan, depth: usize) -> Value {
        match (plan, v) {
            (Plan::Clip(clip), Value::String(s)) => Value::String(clip.apply(s)),
            (Plan::Items { len, edits }, Value::Array(a)) => {
                let mut edits = edits.into_iter().peekable();
                let mut out = Vec::with_capacity(len);
                for (i, e) in a.iter().take(len).enumerate() {
                    if too_deep(e, depth + 1) {
                        continue;
                    }
                    out.push(match edits.next_if(|(j, _)| *j == i) {
                        Some((_, plan)) => self.materialize(e, plan, depth + 1),
                        None => e.clone(),
                    });
                }
                Value::Array(out)
            }
            (plan @ (Plan::Members { .. } | Plan::Pick(_)), Value::Object(m)) => {
                Value::Object(self.materialize_members(Members::Map(m), plan, depth))
            }
            (_, v) => v.clone(),
        }
    }

    /// A copy of what `plan` keeps of an object's members.
    pub(crate) fn materialize_members(
        &self,
        m: Members<'_>,
        plan: Plan,
        depth: usize,
    ) -> Map<String, Value> {
        let (edits, pick) = match plan {
            Plan::Members { edits } => (edits, false),
            Plan::Pick(kept) => (kept, true),
            _ => {
                return match m {
                    Members::Map(map) => map.clone(),
                    Members::List(list) => list
                        .iter()
                        .map(|(k, e)| ((*k).to_owned(), (*e).clone()))
                        .collect(),
                };
            }
        };
        let mut edits = edits.into_iter().peekable();
        let mut out = Map::new();
        for (i, (k, e)) in m.iter().enumerate() {
            let kept = match edits.next_if(|(j, _)| *j == i) {
                Some((_, plan)) => Some(self.materialize(e, plan, depth + 1)),
                None if pick => {
                    if edits.peek().is_none() {
                        break;
                    }
                    None
                }
                None => self.keeps(k, e, depth).then(|| e.clone()),
            };
            if let Some(e) = kept {
                out.insert(k.to_owned(), e);
            }
        }
        out
    }

    /// Cuts `v` (a value at nesting level `depth`) in place to what `plan` keeps.
    pub(crate) fn apply(&self, v: &mut Value, plan: Plan, depth: usize) {
        match (plan, v) {
            (Plan::Clip(clip), Value::String(s)) => clip.apply_in_place(s),
            (Plan::Items { len, edits }, Value::Array(a)) => {
                a.truncate(len);
                for (i, plan) in edits {
                    if let Some(e) = a.get_mut(i) {
                        self.apply(e, plan, depth + 1);
                    }
                }
                if depth + 1 > MAX_DEPTH {
                    a.retain(|e| !is_container(e));
                }
                release(a);
            }
            (plan, Value::Object(m)) => self.apply_map(m, plan, depth),
            _ => {}
        }
    }

    /// Cuts an object's members in place to what `plan` keeps.
    pub(crate) fn apply_map(&self, m: &mut Map<String, Value>, plan: Plan, depth: usize) {
        let (edits, pick) = match plan {
            Plan::Members { edits } => (edits, false),
            Plan::Pick(kept) => (kept, true),
            _ => return,
        };
        let mut edits = edits.into_iter().peekable();
        let mut i = 0;
        m.retain(|k, e| {
            let at = i;
            i += 1;
            match edits.next_if(|(j, _)| *j == at) {
                Some((_, plan)) => {
                    self.apply(e, plan, depth + 1);
                    true
                }
                None => !pick && self.keeps(k, e, depth),
            }
        });
    }
}

//! What bounding cut: the [`Tally`] of counts and listed cuts the engine keeps, its
//! `result-bound` warnings, and its record under `_meta.neuralis.bound`, written and read
//! back.

use serde_json::{Map, Value};

use serde::Serialize;

use super::clip::plan_clip;
use crate::contract::{Diagnostic, RuleId};

/// At most this many cuts are listed with their pointers; the counts cover all of them.
pub(crate) const MAX_LISTED_CUTS: usize = 16;

/// Pointers in the cut list are clipped to this many UTF-16 units.
const MAX_POINTER_CHARS: usize = 256;

/// What a cut removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CutKind {
    /// A string was clipped (counts in UTF-16 units).
    String,
    /// An array lost items from its tail (counts in items).
    Array,
    /// An object lost members (counts in members).
    Object,
    /// A container nested deeper than 127 levels was dropped (counts in its children).
    Depth,
    /// Text content was clipped (counts in UTF-16 units).
    Text,
    /// Content blocks were dropped from the tail (counts in blocks).
    Blocks,
    /// An image, audio or resource blob over the byte cap was dropped (counts in bytes).
    Blob,
}

/// One place where a cap cut real data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// RFC 6901 pointer into the result (clipped to 256 characters).
    pub pointer: String,
    /// What was cut.
    pub kind: CutKind,
    /// The size before the cut.
    pub original: usize,
    /// The size kept.
    pub kept: usize,
}

/// Counts of what the caps cut, with the first few places.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Strings clipped.
    pub strings_clipped: usize,
    /// Arrays shortened.
    pub arrays_shrunk: usize,
    /// Array items dropped from tails.
    pub items_dropped: usize,
    /// Object members dropped.
    pub members_dropped: usize,
    /// Containers dropped for nesting deeper than 127 levels.
    pub depth_dropped: usize,
    /// Text blocks (or string content) clipped.
    pub text_clipped: usize,
    /// Content blocks dropped.
    pub blocks_dropped: usize,
    /// Binary blocks dropped for size.
    pub blobs_dropped: usize,
    /// The first cuts, in the order they were made.
    pub cuts: Vec<Cut>,
    /// Cuts made, listed or not.
    pub total_cuts: usize,
}

impl Tally {
    /// Whether nothing was cut.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total_cuts == 0
    }

    pub(crate) fn record(&mut self, pointer: &str, kind: CutKind, original: usize, kept: usize) {
        self.total_cuts += 1;
        if self.cuts.len() < MAX_LISTED_CUTS {
            let pointer = match plan_clip(pointer, MAX_POINTER_CHARS, usize::MAX) {
                None => pointer.to_owned(),
                Some(clip) => clip.apply(pointer),
            };
            self.cuts.push(Cut {
                pointer,
                kind,
                original,
                kept,
            });
        }
    }

    pub(crate) fn merge(&mut self, other: Tally) {
        self.strings_clipped += other.strings_clipped;
        self.arrays_shrunk += other.arrays_shrunk;
        self.items_dropped += other.items_dropped;
        self.members_dropped += other.members_dropped;
        self.depth_dropped += other.depth_dropped;
        self.text_clipped += other.text_clipped;
        self.blocks_dropped += other.blocks_dropped;
        self.blobs_dropped += other.blobs_dropped;
        self.total_cuts += other.total_cuts;
        for cut in other.cuts {
            if self.cuts.len() < MAX_LISTED_CUTS {
                self.cuts.push(cut);
            }
        }
    }
}

impl Tally {
    /// One `result-bound` warning per listed cut, pointing at it.
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .cuts
            .iter()
            .map(|c| {
                let what = match c.kind {
                    CutKind::String | CutKind::Text => "characters",
                    CutKind::Array => "items",
                    CutKind::Object => "members",
                    CutKind::Depth => "children nested deeper than 127 levels",
                    CutKind::Blocks => "content blocks",
                    CutKind::Blob => "bytes of base64",
                };
                Diagnostic::new(RuleId::ResultBound, &c.pointer)
                    .with_message(format!("cut from {} to {} {what}", c.original, c.kept))
            })
            .collect();
        if self.total_cuts > self.cuts.len() {
            out.push(
                Diagnostic::new(RuleId::ResultBound, "").with_message(format!(
                    "{} more cuts not listed",
                    self.total_cuts - self.cuts.len()
                )),
            );
        }
        out
    }
}

const COUNTS: [&str; 8] = [
    "stringsClipped",
    "arraysShrunk",
    "itemsDropped",
    "membersDropped",
    "depthDropped",
    "textClipped",
    "blocksDropped",
    "blobsDropped",
];

fn counts_mut(t: &mut Tally) -> [&mut usize; 8] {
    [
        &mut t.strings_clipped,
        &mut t.arrays_shrunk,
        &mut t.items_dropped,
        &mut t.members_dropped,
        &mut t.depth_dropped,
        &mut t.text_clipped,
        &mut t.blocks_dropped,
        &mut t.blobs_dropped,
    ]
}

/// `_meta.neuralis.bound`: non-zero counts, `cuts` (the total) and `at` (the first 16).
pub(super) fn write_tally(t: &Tally) -> Value {
    let mut t2 = t.clone();
    let mut m = Map::new();
    for (name, n) in COUNTS.iter().zip(counts_mut(&mut t2)) {
        if *n > 0 {
            m.insert((*name).into(), Value::from(*n));
        }
    }
    m.insert("cuts".into(), Value::from(t.total_cuts));
    m.insert(
        "at".into(),
        serde_json::to_value(&t.cuts).unwrap_or_else(|_| Value::Array(Vec::new())),
    );
    Value::Object(m)
}

/// Reads a bound record back leniently (it may come from an untrusted server).
pub(super) fn read_tally(v: &Value) -> Tally {
    let mut t = Tally::default();
    let Some(m) = v.as_object() else {
        return t;
    };
    let get = |k: &str| {
        m.get(k)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    };
    let values: Vec<usize> = COUNTS.iter().map(|k| get(k)).collect();
    for (slot, n) in counts_mut(&mut t).into_iter().zip(values) {
        *slot = n;
    }
    if let Some(at) = m.get("at").and_then(Value::as_array) {
        for c in at.iter().take(MAX_LISTED_CUTS) {
            let kind = match c.get("kind").and_then(Value::as_str) {
                Some("string") => CutKind::String,
                Some("array") => CutKind::Array,
                Some("object") => CutKind::Object,
                Some("depth") => CutKind::Depth,
                Some("text") => CutKind::Text,
                Some("blocks") => CutKind::Blocks,
                Some("blob") => CutKind::Blob,
                _ => continue,
            };
            let num = |k: &str| {
                c.get(k)
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok())
                    .unwrap_or(0)
            };
            let pointer = c.get("pointer").and_then(Value::as_str).unwrap_or("");
            t.record(pointer, kind, num("original"), num("kept"));
        }
    }
    t.total_cuts = get("cuts").max(t.cuts.len());
    t
}

//! What bounding keeps of each part of a result (`content` and its blocks,
//! `structuredContent`, `_meta`): each part's plan is decided once, reading it, then
//! applied in place ([`cut_in_place`]) or on a copy of what is kept ([`copy_kept`]), with
//! the same result.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::bound::BoundCaps;
use super::clip::{Clip, plan_clip_of};
use super::engine::{Engine, Members, Plan, Rules};
use super::tally::{CutKind, Tally};
use super::tally::{read_tally, write_tally};
use super::types::{
    BinaryContent, Content, ContentAnnotations, ContentBlock, EmbeddedResource, ResourceContents,
    TextContent, ToolResult,
};
use super::{BOUND_META, NEURALIS_META};

/// What bounding keeps of `result`, copied: each part decided, then copied, in the order
/// its cuts are recorded in `tally`.
pub(super) fn copy_kept(result: &ToolResult, caps: &BoundCaps, tally: &mut Tally) -> ToolResult {
    let (content, structured, meta) = (&result.content, &result.structured_content, &result.meta);
    ToolResult {
        content: plan_content(content, caps, tally).copy(content),
        is_error: result.is_error,
        structured_content: plan_structured(structured, caps, tally).copy(structured),
        meta: meta.as_ref().map(|m| plan_meta(m, caps, tally).copy(m)),
    }
}

/// Cuts `result` to what bounding keeps, in place: each part decided, then cut, in the
/// order its cuts are recorded in `tally`.
pub(super) fn cut_in_place(result: &mut ToolResult, caps: &BoundCaps, tally: &mut Tally) {
    plan_content(&result.content, caps, tally).cut(&mut result.content);
    plan_structured(&result.structured_content, caps, tally).cut(&mut result.structured_content);
    if let Some(meta) = &mut result.meta {
        plan_meta(meta, caps, tally).cut(meta);
    }
}

/// Where in `content` a cut is. The pointer is written out only when a cut is recorded,
/// so bounding a result that fits formats nothing.
#[derive(Debug, Clone, Copy)]
struct Place {
    block: Option<usize>,
    parts: [&'static str; 2],
}

impl Place {
    /// `content` itself (string content, or the list of blocks).
    const CONTENT: Self = Self {
        block: None,
        parts: ["", ""],
    };

    fn block(i: usize) -> Self {
        Self {
            block: Some(i),
            parts: ["", ""],
        }
    }

    /// The place one step further (at most two steps below a block).
    fn at(mut self, part: &'static str) -> Self {
        let slot = usize::from(!self.parts[0].is_empty());
        self.parts[slot] = part;
        self
    }

    fn pointer(self) -> String {
        let mut p = match self.block {
            None => String::from("/content"),
            Some(i) => format!("/content/{i}"),
        };
        p.push_str(self.parts[0]);
        p.push_str(self.parts[1]);
        p
    }
}

/// A cut decided reading a `T` (a plan of what is kept), made either in place or on a
/// copy of what is kept, with the same result. What is kept is decided once, by
/// `plan_content`, `plan_structured` and `plan_meta`; nothing here looks at a cap.
trait Edit<T> {
    /// Cuts `v` in place: what is kept stays where it is, what is cut is freed.
    fn cut(self, v: &mut T);
    /// A copy of what is kept of `v`.
    fn copy(self, v: &T) -> T;
}

/// The edit of a `T`, of an optional one.
macro_rules! optional {
    ($($plan:ty => $t:ty),*) => {$(
        impl Edit<Option<$t>> for $plan {
            fn cut(self, v: &mut Option<$t>) {
                if let Some(v) = v {
                    self.cut(v);
                }
            }

            fn copy(self, v: &Option<$t>) -> Option<$t> {
                v.as_ref().map(|v| self.copy(v))
            }
        }
    )*};
}

optional!(
    Option<Clip> => String,
    MapPlan => Map<String, Value>,
    AnnotationsPlan => ContentAnnotations
);

/// A string clipped, or kept whole.
impl Edit<String> for Option<Clip> {
    fn cut(self, s: &mut String) {
        if let Some(clip) = self {
            clip.apply_in_place(s);
        }
    }

    fn copy(self, s: &String) -> String {
        self.map_or_else(|| s.clone(), |clip| clip.apply(s))
    }
}

/// What bounding keeps of a map (`_meta`, a block's `_meta`): the engine's plan, with
/// the rules it is applied with; `None` keeps the map whole.
type MapPlan = Option<(Plan, Rules)>;

impl Edit<Map<String, Value>> for MapPlan {
    fn cut(self, m: &mut Map<String, Value>) {
        if let Some((plan, rules)) = self {
            rules.apply_map(m, plan, 1);
        }
    }

    fn copy(self, m: &Map<String, Value>) -> Map<String, Value> {
        match self {
            Some((plan, rules)) => rules.materialize_members(Members::Map(m), plan, 1),
            None => m.clone(),
        }
    }
}

/// Adds an engine's cuts to `tally` (an engine counts nothing it did not record as a
/// cut, so an engine without cuts adds nothing).
fn absorb(tally: &mut Tally, engine: Tally) {
    if !engine.is_empty() {
        tally.merge(engine);
    }
}

/// What bounding keeps of `structuredContent`: the engine's plan, with the rules it is
/// applied with; `None` when there is none, or not even an emptied form of it fits.
struct StructuredPlan(Option<(Plan, Rules)>);

/// What bounding keeps of `structuredContent`; dropping it is recorded as a cut.
#[inline]
fn plan_structured(v: &Option<Value>, caps: &BoundCaps, tally: &mut Tally) -> StructuredPlan {
    StructuredPlan(v.as_ref().and_then(|v| fit_structured(v, caps, tally)))
}

fn fit_structured(v: &Value, caps: &BoundCaps, tally: &mut Tally) -> Option<(Plan, Rules)> {
    let mut engine = Engine::new(caps.limits(), "/structuredContent");
    let plan = engine
        .fit(v, 1, caps.structured_bytes)
        .map(|(plan, _)| plan);
    if plan.is_none() {
        engine.tally.members_dropped += 1;
        engine
            .tally
            .record("/structuredContent", CutKind::Object, 1, 0);
    }
    let rules = engine.rules();
    absorb(tally, engine.tally);
    plan.map(|plan| (plan, rules))
}

impl Edit<Option<Value>> for StructuredPlan {
    #[inline]
    fn cut(self, v: &mut Option<Value>) {
        match (self.0, v) {
            (Some((plan, rules)), Some(v)) if !plan.is_whole() => rules.apply(v, plan, 1),
            (None, v @ Some(_)) => *v = None,
            _ => {}
        }
    }

    fn copy(self, v: &Option<Value>) -> Option<Value> {
        let (plan, rules) = self.0?;
        v.as_ref().map(|v| rules.materialize(v, plan, 1))
    }
}

/// What bounding keeps of a map (`_meta`, a block's `_meta`), leaving the top-level key
/// `skip` out; `None` when it keeps the map as it is. The map is measured first, so the
/// pointer `base` is written out only when there is something to cut.
fn plan_map(
    m: &Map<String, Value>,
    caps: &BoundCaps,
    base: impl FnOnce() -> Cow<'static, str>,
    skip: Option<&'static str>,
    tally: &mut Tally,
) -> MapPlan {
    let mut engine = Engine::new(caps.limits(), "");
    if let Some(key) = skip {
        engine = engine.skipping(key);
    }
    let (size, clean) = engine.measure_map(Members::Map(m), caps.structured_bytes);
    if clean && size <= caps.structured_bytes {
        return None;
    }
    engine.name(base());
    let plan = engine.fit_members_measured(Members::Map(m), caps.structured_bytes, (size, clean));
    let rules = engine.rules();
    absorb(tally, engine.tally);
    Some((plan, rules))
}

/// What bounding keeps of `_meta`. The toolkit's own namespace is bounded apart, without
/// its bound record, so that record is never itself cut; the record is read back (it
/// may come from an untrusted server) and written again.
struct MetaPlan {
    /// `_meta`, less `neuralis` when that is an object.
    top: MapPlan,
    /// `_meta.neuralis` less `bound`.
    own: Option<MapPlan>,
}

fn plan_meta(meta: &Map<String, Value>, caps: &BoundCaps, tally: &mut Tally) -> MetaPlan {
    let own = meta.get(NEURALIS_META).and_then(Value::as_object);
    let skip = own.map(|_| NEURALIS_META);
    let top = plan_map(meta, caps, || "/_meta".into(), skip, tally);
    let own = own.map(|own| {
        plan_map(
            own,
            caps,
            || "/_meta/neuralis".into(),
            Some(BOUND_META),
            tally,
        )
    });
    MetaPlan { top, own }
}

/// `_meta.neuralis` with its earlier bound record (read from `previous`) written again.
/// The plan of `_meta` leaves the namespace out, so inserting it appends it last, in
/// place as in the copy.
fn with_record(mut own: Map<String, Value>, previous: Option<Tally>) -> Value {
    if let Some(previous) = previous {
        own.insert(BOUND_META.into(), write_tally(&previous));
    }
    Value::Object(own)
}

impl Edit<Map<String, Value>> for MetaPlan {
    fn cut(self, meta: &mut Map<String, Value>) {
        let own = self
            .own
            .map(|plan| (plan, meta.get_mut(NEURALIS_META).map(Value::take)));
        self.top.cut(meta);
        if let Some((plan, Some(Value::Object(mut own)))) = own {
            let previous = own.get(BOUND_META).map(read_tally);
            plan.cut(&mut own);
            meta.insert(NEURALIS_META.into(), with_record(own, previous));
        }
    }

    fn copy(self, meta: &Map<String, Value>) -> Map<String, Value> {
        let mut out = self.top.copy(meta);
        if let (Some(plan), Some(Value::Object(own))) = (self.own, meta.get(NEURALIS_META)) {
            let previous = own.get(BOUND_META).map(read_tally);
            out.insert(NEURALIS_META.into(), with_record(plan.copy(own), previous));
        }
        out
    }
}

/// What bounding keeps of `content`: string content clipped, or the blocks within the
/// array cap, each kept whole but for the cuts listed (original indices, ascending).
enum ContentPlan {
    Text(Option<Clip>),
    Blocks {
        len: usize,
        cuts: Vec<(usize, BlockCut)>,
    },
}

/// What bounding does to one block.
enum BlockCut {
    /// Keeps it as it is.
    Whole,
    /// Drops it: a blob over `blob_bytes`, or text with nothing left of the budget.
    Drop,
    /// Keeps what the plan keeps (boxed: a block that fits costs no more than a word).
    Edit(Box<BlockPlan>),
}

/// The one walk over content blocks: what bounding keeps of `content`, decided reading
/// it. Text counts against one budget for all blocks together (`text_chars`); blocks past
/// `array_len` go from the tail, after the cuts inside the blocks kept are recorded.
fn plan_content(content: &Content, caps: &BoundCaps, tally: &mut Tally) -> ContentPlan {
    let mut budget = TextBudget {
        remaining: caps.text_chars,
        last: true,
    };
    let blocks = match content {
        Content::Text(s) => {
            return ContentPlan::Text(plan_text(s, &mut budget, Place::CONTENT, tally));
        }
        Content::Blocks(b) => b,
    };
    let len = blocks.len().min(caps.array_len);
    let last = blocks[..len].iter().rposition(|b| match b {
        ContentBlock::Text(_) => true,
        ContentBlock::Resource(r) => r.resource.text.is_some(),
        ContentBlock::Image(_) | ContentBlock::Audio(_) => false,
    });
    let mut cuts = Vec::new();
    for (i, block) in blocks[..len].iter().enumerate() {
        budget.last = last == Some(i);
        match plan_block(block, caps, Place::block(i), &mut budget, tally) {
            BlockCut::Whole => {}
            cut => {
                if cuts.is_empty() {
                    cuts.reserve_exact(len - i);
                }
                cuts.push((i, cut));
            }
        }
    }
    if len < blocks.len() {
        tally.blocks_dropped += blocks.len() - len;
        tally.record("/content", CutKind::Blocks, blocks.len(), len);
    }
    ContentPlan::Blocks { len, cuts }
}

impl Edit<Content> for ContentPlan {
    #[inline]
    fn cut(self, content: &mut Content) {
        match (self, content) {
            (Self::Text(clip), Content::Text(s)) => clip.cut(s),
            (Self::Blocks { len, cuts }, Content::Blocks(blocks)) => {
                blocks.truncate(len);
                if cuts.is_empty() {
                    return;
                }
                let mut cuts = cuts.into_iter().peekable();
                let mut i = 0;
                blocks.retain_mut(|block| {
                    let at = i;
                    i += 1;
                    match cuts.next_if(|(j, _)| *j == at).map(|(_, cut)| cut) {
                        Some(BlockCut::Drop) => false,
                        Some(BlockCut::Edit(plan)) => {
                            plan.cut(block);
                            true
                        }
                        Some(BlockCut::Whole) | None => true,
                    }
                });
            }
            _ => {}
        }
    }

    fn copy(self, content: &Content) -> Content {
        match (self, content) {
            (Self::Text(clip), Content::Text(s)) => Content::Text(clip.copy(s)),
            (Self::Blocks { len, cuts }, Content::Blocks(blocks)) => {
                let mut cuts = cuts.into_iter().peekable();
                let mut out = Vec::with_capacity(len);
                for (i, block) in blocks[..len].iter().enumerate() {
                    match cuts.next_if(|(j, _)| *j == i).map(|(_, cut)| cut) {
                        Some(BlockCut::Drop) => {}
                        Some(BlockCut::Edit(plan)) => out.push(plan.copy(block)),
                        Some(BlockCut::Whole) | None => out.push(block.clone()),
                    }
                }
                Content::Blocks(out)
            }
            (_, content) => content.clone(),
        }
    }
}

/// What bounding does to one block it keeps (image and audio data and resource blobs
/// are kept whole or the block is dropped).
#[derive(Default)]
struct BlockPlan {
    /// A text block's text, or a resource's.
    text: Option<Clip>,
    /// An image's or audio's `mimeType`, or a resource's.
    mime_type: Option<Clip>,
    uri: Option<Clip>,
    resource_meta: MapPlan,
    annotations: AnnotationsPlan,
    meta: MapPlan,
}

/// The plan of a block, made at its first cut.
fn edit(plan: &mut Option<Box<BlockPlan>>) -> &mut BlockPlan {
    plan.get_or_insert_default()
}

/// What bounding does to one block.
fn plan_block(
    block: &ContentBlock,
    caps: &BoundCaps,
    at: Place,
    budget: &mut TextBudget,
    tally: &mut Tally,
) -> BlockCut {
    // The plan is made at the first cut, so a block that fits costs only its reading.
    let mut plan: Option<Box<BlockPlan>> = None;
    // Text clipped against the budget; `None` drops the block when none is left.
    let mut text = |s: &str, place: Place, tally: &mut Tally| {
        let clip = plan_text(s, budget, place, tally);
        if clip.is_some_and(|c| c.kept == 0 && !c.marker) {
            tally.blocks_dropped += 1;
            return None;
        }
        Some(clip)
    };
    let (annotations, meta) = match block {
        ContentBlock::Text(t) => {
            match text(&t.text, at.at("/text"), tally) {
                None => return BlockCut::Drop,
                Some(None) => {}
                clip @ Some(Some(_)) => edit(&mut plan).text = clip.flatten(),
            }
            (&t.annotations, &t.meta)
        }
        ContentBlock::Image(x) | ContentBlock::Audio(x) => {
            if !blob_fits(&x.data, caps, at.at("/data"), tally) {
                return BlockCut::Drop;
            }
            if let clip @ Some(_) = plan_field(&x.mime_type, caps, at.at("/mimeType"), tally) {
                edit(&mut plan).mime_type = clip;
            }
            (&x.annotations, &x.meta)
        }
        ContentBlock::Resource(r) => {
            let res = &r.resource;
            if let Some(blob) = &res.blob
                && !blob_fits(blob, caps, at.at("/resource/blob"), tally)
            {
                return BlockCut::Drop;
            }
            if let Some(t) = &res.text {
                match text(t, at.at("/resource/text"), tally) {
                    None => return BlockCut::Drop,
                    Some(None) => {}
                    clip @ Some(Some(_)) => edit(&mut plan).text = clip.flatten(),
                }
            }
            if let clip @ Some(_) = plan_field(&res.uri, caps, at.at("/resource/uri"), tally) {
                edit(&mut plan).uri = clip;
            }
            if let Some(m) = &res.mime_type
                && let clip @ Some(_) = plan_field(m, caps, at.at("/resource/mimeType"), tally)
            {
                edit(&mut plan).mime_type = clip;
            }
            if let Some(m) = &res.meta
                && let cut @ Some(_) = plan_map(
                    m,
                    caps,
                    || at.at("/resource/_meta").pointer().into(),
                    None,
                    tally,
                )
            {
                edit(&mut plan).resource_meta = cut;
            }
            (&r.annotations, &r.meta)
        }
    };
    if let Some(a) = annotations
        && let Some(cut) = plan_annotations(a, caps, at.at("/annotations"), tally)
    {
        edit(&mut plan).annotations = cut;
    }
    if let Some(m) = meta
        && let cut @ Some(_) = plan_map(m, caps, || at.at("/_meta").pointer().into(), None, tally)
    {
        edit(&mut plan).meta = cut;
    }
    plan.map_or(BlockCut::Whole, BlockCut::Edit)
}

impl BlockPlan {
    fn binary(self, x: &BinaryContent) -> BinaryContent {
        BinaryContent {
            data: x.data.clone(),
            mime_type: self.mime_type.copy(&x.mime_type),
            annotations: self.annotations.copy(&x.annotations),
            meta: self.meta.copy(&x.meta),
        }
    }
}

impl Edit<ContentBlock> for BlockPlan {
    fn cut(self, block: &mut ContentBlock) {
        let (annotations, meta) = match block {
            ContentBlock::Text(t) => {
                self.text.cut(&mut t.text);
                (&mut t.annotations, &mut t.meta)
            }
            ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                self.mime_type.cut(&mut x.mime_type);
                (&mut x.annotations, &mut x.meta)
            }
            ContentBlock::Resource(r) => {
                let res = &mut r.resource;
                self.text.cut(&mut res.text);
                self.uri.cut(&mut res.uri);
                self.mime_type.cut(&mut res.mime_type);
                self.resource_meta.cut(&mut res.meta);
                (&mut r.annotations, &mut r.meta)
            }
        };
        self.annotations.cut(annotations);
        self.meta.cut(meta);
    }

    fn copy(self, block: &ContentBlock) -> ContentBlock {
        match block {
            ContentBlock::Text(t) => ContentBlock::Text(TextContent {
                text: self.text.copy(&t.text),
                annotations: self.annotations.copy(&t.annotations),
                meta: self.meta.copy(&t.meta),
            }),
            ContentBlock::Image(x) => ContentBlock::Image(self.binary(x)),
            ContentBlock::Audio(x) => ContentBlock::Audio(self.binary(x)),
            ContentBlock::Resource(r) => {
                let res = &r.resource;
                ContentBlock::Resource(EmbeddedResource {
                    resource: ResourceContents {
                        uri: self.uri.copy(&res.uri),
                        mime_type: self.mime_type.copy(&res.mime_type),
                        text: self.text.copy(&res.text),
                        blob: res.blob.clone(),
                        meta: self.resource_meta.copy(&res.meta),
                    },
                    annotations: self.annotations.copy(&r.annotations),
                    meta: self.meta.copy(&r.meta),
                })
            }
        }
    }
}

/// What bounding keeps of a block's annotations: the audience list within `array_len`
/// (`len`), its strings and `lastModified` clipped.
#[derive(Default)]
struct AnnotationsPlan {
    len: Option<usize>,
    audience: Vec<(usize, Clip)>,
    last_modified: Option<Clip>,
}

impl AnnotationsPlan {
    fn is_whole(&self) -> bool {
        self.len.is_none() && self.audience.is_empty() && self.last_modified.is_none()
    }
}

/// What bounding keeps of a block's annotations; `None` when it keeps them whole.
fn plan_annotations(
    a: &ContentAnnotations,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) -> Option<AnnotationsPlan> {
    let mut plan = AnnotationsPlan::default();
    if let Some(list) = &a.audience {
        let at = place.at("/audience");
        if list.len() > caps.array_len {
            tally.arrays_shrunk += 1;
            tally.items_dropped += list.len() - caps.array_len;
            tally.record(&at.pointer(), CutKind::Array, list.len(), caps.array_len);
            plan.len = Some(caps.array_len);
        }
        for (i, s) in list.iter().take(caps.array_len).enumerate() {
            if let Some(clip) = plan_field(s, caps, at, tally) {
                plan.audience.push((i, clip));
            }
        }
    }
    plan.last_modified = a
        .last_modified
        .as_ref()
        .and_then(|s| plan_field(s, caps, place.at("/lastModified"), tally));
    (!plan.is_whole()).then_some(plan)
}

impl Edit<ContentAnnotations> for AnnotationsPlan {
    fn cut(self, a: &mut ContentAnnotations) {
        if let Some(list) = &mut a.audience {
            list.truncate(self.len.unwrap_or(usize::MAX));
            for (i, clip) in self.audience {
                clip.apply_in_place(&mut list[i]);
            }
        }
        self.last_modified.cut(&mut a.last_modified);
    }

    fn copy(self, a: &ContentAnnotations) -> ContentAnnotations {
        let mut clips = self.audience.into_iter().peekable();
        ContentAnnotations {
            audience: a.audience.as_ref().map(|list| {
                let len = self.len.unwrap_or(usize::MAX);
                let kept = list.iter().take(len).enumerate();
                kept.map(|(i, s)| clips.next_if(|(j, _)| *j == i).map(|(_, c)| c).copy(s))
                    .collect()
            }),
            priority: a.priority,
            last_modified: self.last_modified.copy(&a.last_modified),
        }
    }
}

/// A string outside text content (a URI, a mime type, an annotation) clipped to
/// `string_chars`. No character takes more UTF-16 units than UTF-8 bytes, so a string
/// with no more bytes than the cap fits without being scanned.
#[inline]
fn plan_field(s: &str, caps: &BoundCaps, place: Place, tally: &mut Tally) -> Option<Clip> {
    if s.len() <= caps.string_chars {
        return None;
    }
    let units = super::utf16_len(s);
    if units <= caps.string_chars {
        return None;
    }
    clip(s, units, caps.string_chars, place, CutKind::String, tally)
}

/// What is left of the text budget, which all blocks share.
struct TextBudget {
    remaining: usize,
    /// Whether the text planned is the last: then no later text reads what is left, and
    /// a text with no more bytes than that fits without being counted (no character takes
    /// more UTF-16 units than UTF-8 bytes).
    last: bool,
}

/// Text clipped against what is left of the text budget; a clip that keeps nothing when
/// nothing is left.
#[inline]
fn plan_text(s: &str, budget: &mut TextBudget, place: Place, tally: &mut Tally) -> Option<Clip> {
    if budget.last && s.len() <= budget.remaining {
        return None;
    }
    let units = super::utf16_len(s);
    if units <= budget.remaining {
        budget.remaining -= units;
        return None;
    }
    let cap = std::mem::take(&mut budget.remaining);
    clip(s, units, cap, place, CutKind::Text, tally)
}

/// Clips `s` (`units` long) to `cap` units, the cut recorded.
fn clip(
    s: &str,
    units: usize,
    cap: usize,
    place: Place,
    kind: CutKind,
    tally: &mut Tally,
) -> Option<Clip> {
    let clip = plan_clip_of(s, units, cap, usize::MAX)?;
    match kind {
        CutKind::Text => tally.text_clipped += 1,
        _ => tally.strings_clipped += 1,
    }
    tally.record(&place.pointer(), kind, clip.original, clip.kept);
    Some(clip)
}

fn blob_fits(data: &str, caps: &BoundCaps, place: Place, tally: &mut Tally) -> bool {
    if data.len() <= caps.blob_bytes {
        return true;
    }
    tally.blobs_dropped += 1;
    tally.blocks_dropped += 1;
    tally.record(&place.pointer(), CutKind::Blob, data.len(), 0);
    false
}

//! Peak memory of a typed result: a `#[tool]` handler returns 200 MB of data (a million
//! audit entries and long notes), and bounding it as it is serialized adds under 16 MB of
//! heap beyond the value itself, through the whole call (the value is bounded where it is
//! returned, never turned into a `Value` whole).
//!
//! A counting global allocator (`peak_alloc`) measures the value by building and dropping
//! it, then the call's peak. One test only: the counters are process-wide.
#![allow(missing_docs, clippy::unwrap_used)]

use neuralis::dispatch::SessionContext;
use neuralis::{ToolInput, ToolOutput, tool};
use peak_alloc::PeakAlloc;
use serde_json::json;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    /// About how many megabytes of entries to return.
    pub megabytes: u32,
}

/// One audit entry.
#[derive(ToolOutput, serde::Serialize)]
pub struct Entry {
    pub id: u64,
    pub actor: String,
    pub action: String,
    pub at: u64,
}

/// The audit log.
#[derive(ToolOutput, serde::Serialize)]
pub struct Audit {
    pub ok: bool,
    pub entries: Vec<Entry>,
    /// A few long texts: scanned for their length, never copied whole.
    pub notes: Vec<String>,
}

/// About `megabytes` MB of heap: three quarters entries, a quarter four long notes. Each
/// allocation made at its final size, so the value's own peak is its size.
fn audit(megabytes: u32) -> Audit {
    let bytes = megabytes as usize * 1_000_000;
    let per_entry = 115; // the struct (64 B) and its two strings (26 B and 25 B)
    let n = bytes * 3 / 4 / per_entry;
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        entries.push(Entry {
            id: i as u64,
            actor: format!("user-{:08}@example.org", i % 100_000),
            action: String::from("document.export.completed"),
            at: 1_764_000_000 + i as u64,
        });
    }
    let note = bytes / 4 / 4;
    let chunk = "é".repeat(512);
    let notes = (0..4)
        .map(|i| {
            let mut s = String::with_capacity(note + 8);
            while s.len() + chunk.len() <= note {
                s.push_str(&chunk);
            }
            s.push_str(&i.to_string());
            s
        })
        .collect();
    Audit {
        ok: true,
        entries,
        notes,
    }
}

/// Exports the audit log.
#[tool(
    annotations(read_only, category = "read"),
    ui(presentation = "explored")
)]
pub fn audit_export(input: Export) -> Audit {
    audit(input.megabytes)
}

/// Extra heap at the peak of `f`, beyond what was in use before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = PEAK.current_usage();
    PEAK.reset_peak_usage();
    let out = f();
    (out, PEAK.peak_usage().saturating_sub(before))
}

#[test]
fn bounding_a_typed_result_adds_little_beyond_the_value() {
    const MB: usize = 1 << 20;
    let package = neuralis::testing::handlers!(audit_export).build().unwrap();
    let session = SessionContext::builder("u").build();

    // The value itself: what it holds once built (each allocation made at its final
    // size, so building it peaks at that too).
    let before = PEAK.current_usage();
    let value = audit(200);
    let heap = PEAK.current_usage() - before;
    let json = serde_json::to_vec(&value).unwrap().len();
    drop(value);
    assert!(heap >= 200_000_000, "the value holds {heap} B");

    let (r, peak) =
        peak_of(|| package.dispatch_blocking("audit_export", json!({"megabytes": 200}), &session));
    let extra = peak.saturating_sub(heap);
    eprintln!(
        "typed result: value {} MB of heap ({} MB of JSON), call peak {} MB, beyond the value {:.2} MB",
        heap / MB,
        json / MB,
        peak / MB,
        extra as f64 / MB as f64
    );
    assert!(!r.is_error, "{r:?}");
    let structured = r.structured_content.as_ref().unwrap();
    assert_eq!(structured["entries"].as_array().unwrap().len(), 200);
    assert!(extra < 16 * MB, "bounding added {extra} B beyond the value");

    // The same value through the untyped path (`Json`, the whole value as a `Value`,
    // then bounded), smaller, for the record.
    let (_, untyped) = peak_of(|| {
        let value = audit(20);
        let r = neuralis::dispatch::IntoToolResult::into_tool_result(neuralis::Json(value));
        neuralis::result::bound_result_owned(r, &neuralis::result::BoundCaps::default())
    });
    let (_, small) = peak_of(|| audit(20));
    eprintln!(
        "untyped (Json) 20 MB: value {} MB, peak {} MB",
        small / MB,
        untyped / MB
    );
}

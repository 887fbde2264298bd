//! Peak memory of bounding: proportional to the output, not the input.
//!
//! A counting global allocator (`peak_alloc`) records the peak heap in use while a 50 MB
//! result (already parsed) is bounded, borrowed (a copy of what is kept) and owned (cut in
//! place). One test only: the counters are process-wide.

use neuralis_core::result::{
    BoundCaps, ToolResult, bound_result, bound_result_owned, iframe_payload,
};
use peak_alloc::PeakAlloc;
use serde_json::{Value, json};

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

fn result_of(bytes: usize) -> ToolResult {
    let item = |i: usize| {
        json!({"id": i, "name": format!("item-{i}"), "tags": ["alpha", "beta"],
               "note": "Lorem ipsum dolor sit amet, \"quoted\" é 😀 consectetur adipiscing elit"})
    };
    let items: Vec<Value> = (0..bytes / 140).map(item).collect();
    ToolResult::text("é😀 lorem ipsum ".repeat(bytes / 40))
        .with_structured(json!({"ok": true, "count": items.len(), "items": items}))
}

/// Extra heap at the peak of `f`, beyond what was in use before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = PEAK.current_usage();
    PEAK.reset_peak_usage();
    let out = f();
    (out, PEAK.peak_usage().saturating_sub(before))
}

#[test]
fn bounding_memory_follows_the_output() {
    let result = result_of(50_000_000);
    let input = serde_json::to_vec(&result).map_or(0, |v| v.len());

    // The yardstick is the heap of the output itself (a `Value` tree takes several times
    // its serialized size), measured by cloning it.
    let caps = BoundCaps::default();
    let ((bounded, _), peak) = peak_of(|| bound_result(&result, &caps));
    let output = serde_json::to_vec(&bounded).map_or(0, |v| v.len());
    let (_, heap) = peak_of(|| bounded.clone());
    eprintln!(
        "default caps: input {input} B, output {output} B ({heap} B of heap), peak extra heap {peak} B"
    );
    assert!(input > 50_000_000);
    assert!(
        peak < 2 * heap,
        "peak {peak} B for an output of {heap} B of heap"
    );

    let half = BoundCaps {
        array_len: usize::MAX,
        structured_bytes: 5_000_000,
        ..BoundCaps::default()
    };
    let ((bounded, _), peak) = peak_of(|| bound_result(&result, &half));
    let output = serde_json::to_vec(&bounded).map_or(0, |v| v.len());
    let (_, heap) = peak_of(|| bounded.clone());
    eprintln!(
        "5 MB cap: input {input} B, output {output} B ({heap} B of heap), peak extra heap {peak} B"
    );
    assert!(
        peak < 2 * heap,
        "peak {peak} B for an output of {heap} B of heap"
    );

    // Owned, the result is cut in place: beyond the input it was given, bounding holds
    // only its plan, its memo and the buffers `shrink_to_fit` moves kept items into.
    for (name, caps) in [("default caps", caps), ("5 MB cap", half)] {
        let copy = result.clone();
        let ((owned, _), peak) = peak_of(move || bound_result_owned(copy, &caps));
        let (_, heap) = peak_of(|| owned.clone());
        eprintln!("owned, {name}: output {heap} B of heap, peak extra heap {peak} B");
        assert!(
            peak < 2 * heap && peak < 1 << 20,
            "peak {peak} B for an output of {heap} B of heap"
        );
        assert_eq!(owned, bound_result(&result, &caps).0);
    }

    let (payload, peak) = peak_of(|| iframe_payload("t", &json!({}), &bounded));
    eprintln!(
        "iframe payload: {} B, peak extra heap {peak} B",
        payload.json.len()
    );
}

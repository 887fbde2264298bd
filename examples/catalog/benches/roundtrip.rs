//! The native half of `benches/wasm_roundtrip.sh`: the call the WASM host makes
//! (`catalog_list {}`), through `Package::dispatch_blocking` (a `Value` in, a `ToolResult`
//! out) and through `Package::call_json` (the request text in, the response text out: the
//! work the module does per call), in nanoseconds per call, as one JSON line.
//!
//! Run by the script, or `cargo bench -p neuralis-example-catalog --bench roundtrip`.
//! Under `cargo test` (no `--bench`) it makes one call and checks it.

use std::hint::black_box;
use std::time::Instant;

use neuralis::dispatch::SessionContext;
use neuralis_example_catalog::neuralis_package;
use serde_json::{Value, json};

/// Median nanoseconds per call of `f` over `batches` batches of `n` calls.
fn per_call(n: u32, batches: usize, mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..n {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(n)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let request = json!({"name": "catalog_list", "arguments": {}, "session": {"userId": "user-1"}})
        .to_string();
    let session = SessionContext::builder("user-1").build();

    let cold = Instant::now();
    let package = neuralis_package::package().expect("the catalog package loads");
    let first = package.call_json(&request);
    let cold_ns = cold.elapsed().as_nanos();
    let first: Value = serde_json::from_str(&first).expect("json");
    assert_eq!(first["ui"]["structuredContent"]["ok"], true, "{first}");
    if !bench {
        return;
    }

    let (n, batches) = (2000, 7);
    let dispatch = per_call(n, batches, || {
        black_box(package.dispatch_blocking("catalog_list", json!({}), &session));
    });
    let call_json = per_call(n, batches, || {
        black_box(package.call_json(black_box(&request)));
    });
    println!(
        "{}",
        json!({
            "side": "native",
            "dispatch_blocking_ns": dispatch.round(),
            "call_json_ns": call_json.round(),
            "cold_ns": cold_ns,
        })
    );
}

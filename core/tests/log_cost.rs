//! What logging costs a handler when nobody listens: no heap at all.
//!
//! A counting global allocator (`peak_alloc`) records the peak heap in use while a context
//! without a log sink, and one whose sink takes errors only, are asked to log formatted
//! messages. One test only: the counters are process-wide.

use neuralis_core::dispatch::{LogLevel, LogSink, SessionContext, ToolContext};
use peak_alloc::PeakAlloc;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

/// Extra heap at the peak of `f`, beyond what was in use before it.
fn peak_of(f: impl FnOnce()) -> usize {
    let before = PEAK.current_usage();
    PEAK.reset_peak_usage();
    f();
    PEAK.peak_usage().saturating_sub(before)
}

#[test]
fn logging_nobody_takes_allocates_nothing() {
    let session = SessionContext::builder("u").build();
    let plain = ToolContext::new("t", session.clone());
    let errors_only =
        ToolContext::new("t", session).with_log(LogSink::new(LogLevel::Error, |_| {}));
    let long = "x".repeat(4096);
    for cx in [&plain, &errors_only] {
        let peak = peak_of(|| {
            for i in 0..1000 {
                cx.debug(format_args!("step {i} of {}: {long}", 1000));
                cx.info(format_args!("{long}{long}"));
                cx.log(LogLevel::Warning, format_args!("{i}"));
                cx.log_data(LogLevel::Notice, &[&long, &long]);
            }
        });
        assert_eq!(peak, 0, "{cx:?}");
    }
    // The near miss: a message that goes somewhere is formatted, on the heap.
    let peak = peak_of(|| errors_only.error(format_args!("{long}")));
    assert!(peak >= long.len(), "{peak}");
}

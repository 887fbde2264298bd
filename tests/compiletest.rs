//! UI tests: every compile-time rule rejected (`ui/`) and its near-miss accepted (`pass/`).
//!
//! The `.stderr` files follow rustc's output, so they are pinned to stable 1.95; on any
//! other toolchain the test fails loudly unless `NEURALIS_SKIP_UI=1`.
//! Regenerate with `TRYBUILD=overwrite cargo test --test compiletest` and review the diff.

#[rustversion::stable(1.95)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui() {
    assert!(
        std::env::var_os("NEURALIS_SKIP_UI").is_some(),
        "the UI tests' .stderr files are pinned to rustc 1.95: run them on stable 1.95, or set NEURALIS_SKIP_UI=1"
    );
}

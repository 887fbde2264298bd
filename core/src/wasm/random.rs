//! Entropy for `getrandom` on `wasm32-unknown-unknown`, from the host.
//!
//! `jsonschema` seeds its `ahash` maps through `getrandom`, which on this target has no
//! source of its own: its default `wasm_js` backend needs wasm-bindgen's JavaScript glue.
//! Built with `--cfg getrandom_backend="custom"` (the workspace's `.cargo/config.toml`,
//! `scripts/wasm.sh`), `getrandom` calls the function below, which asks the host through
//! the module's one import, `neuralis.fill_random(at, len) -> u32`: fill `len` bytes at
//! `at` with cryptographically secure random bytes (`crypto.getRandomValues`), return `0`
//! (anything else is a failure code). Every consumer of `getrandom` in the module gets
//! the host's entropy, never a fixed or home-made seed.
//!
//! This is the workspace's only `unsafe` code (see `ARCHITECTURE.md`).
#![allow(unsafe_code)]

#[link(wasm_import_module = "neuralis")]
unsafe extern "C" {
    /// The host fills `len` bytes at `at`; `0` on success.
    fn fill_random(at: u32, len: u32) -> u32;
}

/// `getrandom`'s custom backend: `dest` is valid for writes of `len` bytes.
// SAFETY: `getrandom` declares this symbol and calls it with its custom backend; the
// name is the one it documents, and nothing else in a module defines it.
#[unsafe(no_mangle)]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    let (Ok(at), Ok(n)) = (u32::try_from(dest.expose_provenance()), u32::try_from(len)) else {
        return Err(getrandom::Error::UNEXPECTED);
    };
    // SAFETY: the import takes two integers and writes only the `len` bytes at `dest`,
    // which `getrandom` guarantees are ours to write; it calls back into no Rust code.
    match unsafe { fill_random(at, n) } {
        0 => Ok(()),
        code => Err(getrandom::Error::new_custom(
            u16::try_from(code).unwrap_or(u16::MAX),
        )),
    }
}

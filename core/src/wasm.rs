//! The single WASM entry of a package: what `neuralis::wasm_entry!()` exports.
//!
//! A package crate built as a `cdylib` for `wasm32-unknown-unknown` becomes one module
//! that a host (Node's or a browser's `WebAssembly`, wasmtime...) instantiates with one
//! import, `neuralis.fill_random(at, len) -> u32` (the host's entropy for `getrandom`,
//! see `random`). The ABI is a handful of `u32` functions over the module's exported
//! `memory` (the full description, with a JavaScript host, is `docs/wasm.md`):
//!
//! | export | what it does |
//! |---|---|
//! | `neuralis_abi_version() -> u32` | [`ABI_VERSION`] |
//! | `neuralis_reserve(len) -> u32` | a buffer of `len` bytes for the next request; its address, or `0` when `len` is over [`MAX_REQUEST_BYTES`] or the memory cannot grow |
//! | `neuralis_call(len) -> u32` | answers the first `len` bytes of that buffer (a request of [`Package::call_json`]); the response's length |
//! | `neuralis_output() -> u32` | the response's address |
//! | `neuralis_output_len() -> u32` | the response's length (also after a trap) |
//!
//! The module never dereferences an address the host gives it: the host writes into a
//! buffer the module allocated and handed out, and reads a buffer the module owns. So
//! [`Entry`] is safe Rust; the exports' `#[unsafe(no_mangle)]` and the entropy import
//! (`random`, wasm32 only) are all the `unsafe` a module has (see `ARCHITECTURE.md`).
//!
//! **Panics.** `wasm32-unknown-unknown` has no unwinding on stable Rust: a panic aborts,
//! which traps the module (`RuntimeError: unreachable` in JavaScript), and `catch_unwind`
//! catches nothing. So before the abort a panic hook writes the call's answer: for a
//! `call`, the same bounded `isError` result the native pipeline gives for a handler panic
//! (the message under `_meta.neuralis.panic`, never in what the model reads); for another
//! request, `{ "error": ... }`. The host catches the trap, reads that answer with
//! `neuralis_output`/`neuralis_output_len`, and instantiates the module again: a trapped
//! instance is never reused (its heap may hold half-done state, and the standard library
//! still counts the panic). A call on it answers `{ "error": ... }` saying so. An abort
//! with no panic (out of memory) leaves `neuralis_output_len() == 0`: no answer.
//!
//! ```
//! use neuralis_core::dispatch::{Package, BuildError, sync_fn};
//! use neuralis_core::wasm::Entry;
//! use serde_json::Value;
//!
//! #[derive(serde::Deserialize)]
//! struct Echo { text: String }
//!
//! fn package() -> Result<Package, BuildError> {
//!     let tool = br#"{"type":"object","additionalProperties":false,"description":"Echo.",
//!       "properties":{"text":{"type":"string"}},"required":["text"],
//!       "x-neuralis":{"annotations":{"category":"read"}}}"#;
//!     Package::builder().tool("echo", &tool[..], sync_fn(|e: Echo| e.text)).build()
//! }
//!
//! static ENTRY: Entry = Entry::new(package);
//!
//! let out = ENTRY.call_bytes(br#"{"name":"echo","arguments":{"text":"hi"},"session":{"userId":"u"}}"#);
//! let out: Value = serde_json::from_str(&out).expect("json");
//! assert_eq!(out["model"]["content"][0]["text"], "hi");
//! ```

use std::any::Any;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock, PoisonError, TryLockError};

use crate::dispatch::call_json::{self, Op};
use crate::dispatch::{BuildError, Package, panic_message, panic_result};
use crate::result::{BoundCaps, bound_result_owned};

#[cfg(all(target_arch = "wasm32", getrandom_backend = "custom"))]
mod random;

/// Not public API: `wasm_entry!()` evaluates [`HostEntropy::CHECK`], so that a module
/// built without the host's entropy fails to compile with the fix, instead of importing
/// wasm-bindgen's glue (an associated const is evaluated only where it is used).
#[doc(hidden)]
#[derive(Debug)]
pub struct HostEntropy;

impl HostEntropy {
    /// Fine: not wasm32, or built with the custom `getrandom` backend.
    #[cfg(any(not(target_arch = "wasm32"), getrandom_backend = "custom"))]
    pub const CHECK: () = ();

    /// A wasm32 build without the custom `getrandom` backend.
    #[cfg(all(target_arch = "wasm32", not(getrandom_backend = "custom")))]
    pub const CHECK: () = panic!(
        "a package's WASM module takes its entropy from the host: build it with \
         `--cfg getrandom_backend=\"custom\"` in RUSTFLAGS (or in the target's rustflags \
         in .cargo/config.toml); see docs/wasm.md"
    );
}

/// The version of the ABI the exports implement (`neuralis_abi_version`).
pub const ABI_VERSION: u32 = 1;

/// The largest request `neuralis_reserve` accepts: 16 MiB.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// No call in flight.
const IDLE: u8 = 0;
/// A call whose request is not read yet.
const READING: u8 = 1;
/// A `call` request in flight: a panic answers with a tool result.
const CALL: u8 = 2;
/// Another request in flight: a panic answers with `{ "error": ... }`.
const OTHER: u8 = 3;

/// The state behind the exports of one module: the package (built on the first call),
/// the request and response buffers, and the panic hook.
///
/// Made by `neuralis::wasm_entry!()` as a `static`; its methods are the exports' bodies.
/// [`call_bytes`](Self::call_bytes) runs the same path in process, for tests and native
/// hosts.
pub struct Entry {
    build: fn() -> Result<Package, BuildError>,
    package: OnceLock<Result<Package, String>>,
    input: Mutex<Vec<u8>>,
    output: Mutex<Vec<u8>>,
    // The response's place, readable without a lock (after a trap too).
    output_at: AtomicUsize,
    output_len: AtomicUsize,
    phase: AtomicU8,
    hook: Once,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("built", &self.package.get().is_some())
            .field("output_len", &self.output_len.load(Ordering::SeqCst))
            .finish_non_exhaustive()
    }
}

/// Sets the phase back to idle when a call returns or unwinds (never on an abort, which
/// is how the next call learns that the instance trapped).
struct Idle<'a>(&'a AtomicU8);

impl Drop for Idle<'_> {
    fn drop(&mut self) {
        self.0.store(IDLE, Ordering::SeqCst);
    }
}

fn lock(buffer: &Mutex<Vec<u8>>) -> MutexGuard<'_, Vec<u8>> {
    // A buffer is plain bytes: consistent even if a panic unwound while it was held.
    buffer.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An address or length as the ABI's `u32` (`0` where it does not fit: not on wasm32).
fn abi(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Entry {
    /// An entry serving the package `build` makes (for a crate with a build script,
    /// `neuralis_package::package`). Nothing runs until the first call.
    #[must_use]
    pub const fn new(build: fn() -> Result<Package, BuildError>) -> Self {
        Self {
            build,
            package: OnceLock::new(),
            input: Mutex::new(Vec::new()),
            output: Mutex::new(Vec::new()),
            output_at: AtomicUsize::new(0),
            output_len: AtomicUsize::new(0),
            phase: AtomicU8::new(IDLE),
            hook: Once::new(),
        }
    }

    /// Replaces the request buffer with `len` zero bytes and gives its address, for the
    /// host to write the request into; `None` when `len` is over [`MAX_REQUEST_BYTES`] or
    /// the memory cannot hold it. The buffer stays put until the next `reserve` or `call`.
    pub fn reserve(&self, len: usize) -> Option<usize> {
        if len > MAX_REQUEST_BYTES {
            return None;
        }
        let mut input = lock(&self.input);
        *input = Vec::new();
        let mut buffer = Vec::new();
        buffer.try_reserve_exact(len).ok()?;
        buffer.resize(len, 0);
        *input = buffer;
        // The host writes through this address between two exports: expose it.
        Some(input.as_mut_ptr().expose_provenance())
    }

    /// Answers the first `len` bytes of the request buffer and gives the response's
    /// length; the response is at [`output`](Self::output) until the next call.
    ///
    /// A request is one of [`Package::call_json`]; a buffer shorter than `len`, bytes that
    /// are not UTF-8, or a call on an instance that trapped in an earlier call are answered
    /// with `{ "error": ... }`.
    pub fn call(&'static self, len: usize) -> usize {
        if self
            .phase
            .compare_exchange(IDLE, READING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // The guard of the last call never ran: that call trapped (or this is a call
            // from inside a call, which the ABI has no way to make).
            self.set_output(call_json::error(
                "this instance trapped during an earlier call (a panic or an abort): \
                 instantiate the module again; a trapped instance is never reused",
            ));
            return self.output_len.load(Ordering::SeqCst);
        }
        let _idle = Idle(&self.phase);
        self.install_hook();
        self.set_output(String::new());
        let input = std::mem::take(&mut *lock(&self.input));
        let response = self.respond(&input, len);
        drop(input);
        self.set_output(response);
        self.output_len.load(Ordering::SeqCst)
    }

    fn respond(&self, input: &[u8], len: usize) -> String {
        let Some(bytes) = input.get(..len) else {
            return call_json::error(format!(
                "the request is {len} bytes but the buffer holds {}: \
                 call `neuralis_reserve` with the request's length, write it, then call",
                input.len()
            ));
        };
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return call_json::error(format!(
                    "malformed request: not UTF-8 at byte {}",
                    e.valid_up_to()
                ));
            }
        };
        let request = match call_json::parse(text) {
            Ok(request) => request,
            Err(error) => return error,
        };
        let package = match self
            .package
            .get_or_init(|| (self.build)().map_err(|e| e.to_string()))
        {
            Ok(package) => package,
            Err(e) => return call_json::error(format!("the package does not load: {e}")),
        };
        let phase = if request.op == Op::Call { CALL } else { OTHER };
        self.phase.store(phase, Ordering::SeqCst);
        package.answer(request)
    }

    /// The response's address.
    #[must_use]
    pub fn output(&self) -> usize {
        self.output_at.load(Ordering::SeqCst)
    }

    /// The response's length; `0` after a trap that left no answer.
    #[must_use]
    pub fn output_len(&self) -> usize {
        self.output_len.load(Ordering::SeqCst)
    }

    /// One request through the same path as the exports, in process: the bytes in, the
    /// response out.
    pub fn call_bytes(&'static self, request: &[u8]) -> String {
        if request.len() > MAX_REQUEST_BYTES {
            return call_json::error(format!(
                "the request is {} bytes, over the {MAX_REQUEST_BYTES}-byte limit",
                request.len()
            ));
        }
        *lock(&self.input) = request.to_vec();
        self.call(request.len());
        String::from_utf8_lossy(&lock(&self.output)).into_owned()
    }

    /// `neuralis_reserve`: [`reserve`](Self::reserve) with `0` for `None`.
    #[must_use]
    pub fn abi_reserve(&self, len: u32) -> u32 {
        usize::try_from(len)
            .ok()
            .and_then(|len| self.reserve(len))
            .map_or(0, abi)
    }

    /// `neuralis_call`: [`call`](Self::call).
    pub fn abi_call(&'static self, len: u32) -> u32 {
        abi(self.call(usize::try_from(len).unwrap_or(usize::MAX)))
    }

    /// `neuralis_output`: [`output`](Self::output).
    #[must_use]
    pub fn abi_output(&self) -> u32 {
        abi(self.output())
    }

    /// `neuralis_output_len`: [`output_len`](Self::output_len).
    #[must_use]
    pub fn abi_output_len(&self) -> u32 {
        abi(self.output_len())
    }

    fn set_output(&self, response: String) {
        self.publish(&mut lock(&self.output), response);
    }

    /// Puts the response in the (held) output buffer and its place in the atomics.
    fn publish(&self, out: &mut Vec<u8>, response: String) {
        *out = response.into_bytes();
        self.output_at
            .store(out.as_ptr().expose_provenance(), Ordering::SeqCst);
        self.output_len.store(out.len(), Ordering::SeqCst);
    }

    /// Without unwinding, a panic aborts: the hook answers the call first.
    #[cfg(panic = "abort")]
    fn install_hook(&'static self) {
        self.hook.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                self.on_panic(info.payload());
                previous(info);
            }));
        });
    }

    /// With unwinding, the pipeline catches a handler's panic itself.
    #[cfg(not(panic = "abort"))]
    fn install_hook(&'static self) {
        let _ = &self.hook;
    }

    /// Writes the answer to the call a panic is about to abort.
    #[cfg_attr(not(panic = "abort"), allow(dead_code))]
    fn on_panic(&self, payload: &(dyn Any + Send)) {
        let response = match self.phase.load(Ordering::SeqCst) {
            IDLE => return,
            CALL => {
                let caps = match self.package.get() {
                    Some(Ok(package)) => *package.caps(),
                    _ => BoundCaps::default(),
                };
                call_json::call_response(bound_result_owned(panic_result(payload), &caps).0)
            }
            _ => call_json::error(format!(
                "the package panicked while answering the request: {}",
                panic_message(payload)
            )),
        };
        // Never wait in a hook: a panic while the response buffer is held leaves no answer.
        let mut out = match self.output.try_lock() {
            Ok(out) => out,
            Err(TryLockError::Poisoned(out)) => out.into_inner(),
            Err(TryLockError::WouldBlock) => return,
        };
        self.publish(&mut out, response);
    }
}

// The entry's internals: where the buffers are, the phase a trap leaves, the panic hook.
// What the entry answers is tested through its public API in `core/tests/wasm_entry.rs`.
#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::dispatch::sync_fn;

    fn package() -> Result<Package, BuildError> {
        #[derive(serde::Deserialize)]
        struct Echo {
            text: String,
        }
        let echo = br#"{"type":"object","additionalProperties":false,"description":"Echo.",
          "properties":{"text":{"type":"string"}},"required":["text"],
          "x-neuralis":{"annotations":{"category":"read"}}}"#;
        Package::builder()
            .tool("echo", &echo[..], sync_fn(|e: Echo| e.text))
            .build()
    }

    fn entry() -> &'static Entry {
        Box::leak(Box::new(Entry::new(package)))
    }

    fn call() -> Vec<u8> {
        br#"{"name": "echo", "arguments": {"text": "hi"}, "session": {"userId": "u"}}"#.to_vec()
    }

    fn output(entry: &Entry) -> String {
        String::from_utf8(lock(&entry.output).clone()).expect("utf-8")
    }

    #[test]
    fn the_buffers_sit_where_the_exports_say() {
        let entry = entry();
        let response = entry.call_bytes(&call());
        assert_eq!(entry.output_len(), response.len());
        assert_eq!(
            entry.output(),
            lock(&entry.output).as_ptr().expose_provenance()
        );
        assert_eq!(output(entry), response);
        assert_eq!(entry.reserve(4).map(|_| lock(&entry.input).len()), Some(4));
    }

    #[test]
    fn a_call_past_the_reserved_buffer_is_an_error() {
        let entry = entry();
        entry.reserve(3);
        let (len, out) = (entry.call(10), output(entry));
        assert_eq!(len, out.len());
        assert!(
            out.contains("the request is 10 bytes but the buffer holds 3"),
            "{out}"
        );
        // The buffer is consumed by the call.
        entry.call(3);
        assert!(output(entry).contains("holds 0"));
    }

    #[test]
    fn a_call_after_a_trap_is_refused() {
        let entry = entry();
        // What an abort leaves: the phase of a call that never returned.
        entry.phase.store(CALL, Ordering::SeqCst);
        let out = entry.call_bytes(&call());
        assert!(out.contains("instantiate the module again"), "{out}");
        assert_eq!(entry.phase.load(Ordering::SeqCst), CALL);
    }

    #[test]
    fn the_panic_hook_answers_a_call_like_the_native_pipeline() {
        let entry = entry();
        entry.call_bytes(&call());
        entry.phase.store(IDLE, Ordering::SeqCst);
        entry.set_output("{}".to_owned());
        entry.on_panic(&"no call in flight");
        assert_eq!(output(entry), "{}");

        entry.phase.store(CALL, Ordering::SeqCst);
        entry.on_panic(&String::from("boom"));
        let out: Value = serde_json::from_str(&output(entry)).expect("json");
        assert_eq!(out["ui"]["isError"], true);
        assert_eq!(out["ui"]["_meta"]["neuralis"]["panic"], "boom");
        assert_eq!(out["ui"]["structuredContent"]["error"], "internal");
        assert!(!out["model"].to_string().contains("boom"), "{out}");
        assert_eq!(entry.output_len(), output(entry).len());

        entry.phase.store(OTHER, Ordering::SeqCst);
        entry.on_panic(&"in the catalog");
        let out: Value = serde_json::from_str(&output(entry)).expect("json");
        let expected = "the package panicked while answering the request: in the catalog";
        assert_eq!(out["error"], expected);

        // Never wait in a hook: with the response buffer held, nothing is written.
        entry.set_output("{}".to_owned());
        entry.phase.store(CALL, Ordering::SeqCst);
        let held = lock(&entry.output);
        entry.on_panic(&"boom");
        drop(held);
        assert_eq!(output(entry), "{}");
    }
}

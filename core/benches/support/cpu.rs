//! A criterion measurement of the benchmark thread's own CPU time, for a shared machine.
//!
//! Wall time on a machine whose cores other builds share counts the time this thread
//! waited for a core; the thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`, user and system
//! time) does not. Caches and a sibling hyperthread are still shared, so runs stay
//! noisy, less so. `NEURALIS_BENCH_WALL=1` measures wall time instead ([`run`]); so does
//! any system other than Linux.

use criterion::Criterion;
use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// Nanoseconds this thread has run on a CPU.
#[cfg(target_os = "linux")]
fn thread_cpu_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(t.tv_nsec).unwrap_or(0)
}

/// Elsewhere: wall time since the first call.
#[cfg(not(target_os = "linux"))]
fn thread_cpu_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    u64::try_from(START.get_or_init(Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// The benchmark thread's CPU time.
pub struct ThreadCpu;

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanos
    }
}

/// Values in nanoseconds, shown as criterion shows wall time.
struct Nanos;

impl ValueFormatter for Nanos {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e-3, "µs")
        } else if typical < 1e9 {
            (1e-6, "ms")
        } else {
            (1e-9, "s")
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let (per_iter, unit) = match *throughput {
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => (b as f64 / 1_048_576.0, "MiB/s"),
            Throughput::Bits(b) => (b as f64 / 1e6, "Mbit/s"),
            Throughput::Elements(e) | Throughput::ElementsAndBytes { elements: e, .. } => {
                (e as f64, "elem/s")
            }
        };
        let _ = typical;
        values.iter_mut().for_each(|ns| *ns = per_iter * 1e9 / *ns);
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// Runs `benches` with thread CPU time, or wall time when `NEURALIS_BENCH_WALL` is set,
/// then criterion's summary (what `criterion_main!` does).
pub fn run(benches: fn(&mut Criterion<ThreadCpu>), wall: fn(&mut Criterion<WallTime>)) {
    if std::env::var_os("NEURALIS_BENCH_WALL").is_some() {
        let mut c = Criterion::default().configure_from_args();
        wall(&mut c);
        c.final_summary();
    } else {
        let mut c = Criterion::default()
            .with_measurement(ThreadCpu)
            .configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
}

//! The count mode of a bench: `NEURALIS_BENCH_COUNT=<size>:<scenario>:<runs>` runs the
//! bench's set-up and then `runs` runs of one scenario, without criterion, for
//! `benches/count.sh` to count the instructions of under valgrind.

/// The size, the scenario and the number of runs `NEURALIS_BENCH_COUNT` asks for, when
/// it is set.
pub fn requested() -> Option<(usize, String, usize)> {
    let spec = std::env::var("NEURALIS_BENCH_COUNT").ok()?;
    let parts: Vec<&str> = spec.split(':').collect();
    let [size, scenario, runs] = parts[..] else {
        panic!("NEURALIS_BENCH_COUNT is <size>:<scenario>:<runs>, not {spec}");
    };
    let number = |s: &str| {
        s.parse::<usize>()
            .expect("a number in NEURALIS_BENCH_COUNT")
    };
    Some((number(size), scenario.to_owned(), number(runs)))
}

//! Writes `tools/` and the package table (`neuralis::package!()`).

fn main() {
    neuralis_build::emit();
}

fn main() {
    neuralis_build::emit().expect("tool schemas");
}

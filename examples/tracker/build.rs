fn main() {
    neuralis_build::emit();
}

// Cargo accepts `links` (see Cargo.toml: one copy of the runtime per process) only in a
// package with a build script. Nothing is linked; nothing needs rebuilding for it.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}

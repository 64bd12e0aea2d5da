//! Shared by the shims' generated `tests/api.rs`: checks that such a file names exactly the
//! item paths of the API list it was generated from (scripts/compat-api.sh writes both).

/// The list's kinds that are members of an item (named through it, not by a `use`).
const MEMBER_KINDS: &[&str] = &["method", "assoc_type", "assoc_const", "impl"];

/// Panics unless `generated` has one `use PATH as _;` line per item path of `list` (lines
/// `KIND PATH`) and no other `use` line, in any order (rustfmt sorts them its own way).
pub fn assert_generated_from(list: &str, generated: &str) {
    let mut expected = Vec::new();
    for line in list.lines() {
        let (kind, path) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("API list line without a kind: {line:?}"));
        if !MEMBER_KINDS.contains(&kind) {
            expected.push(format!("use {path} as _;"));
        }
    }
    let mut found: Vec<&str> = generated
        .lines()
        .filter(|line| line.starts_with("use "))
        .collect();
    expected.sort();
    found.sort();
    assert!(!expected.is_empty(), "the API list names no item");
    assert_eq!(
        found, expected,
        "tests/api.rs does not match the API list: run scripts/compat-api.sh --regenerate"
    );
}

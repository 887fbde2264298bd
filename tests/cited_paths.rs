//! Every file path ARCHITECTURE.md and tests/README.md cite exists: a path in backticks or
//! a link target, with a `/`, whose first part is an entry of the repository's root (or,
//! for tests/README.md, of `tests/`), resolved from there. Patterns (`<name>`, `*`, `...`)
//! and what is not a path of this repository (`OUT_DIR/...`, `tools/` of a package, JSON
//! pointers, URLs) are left out by that rule.

use std::path::Path;

/// The candidate paths cited in `text`: backticked spans and markdown link targets.
fn cited(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push(part);
        }
    }
    for part in text.split("](").skip(1) {
        if let Some(end) = part.find(')') {
            out.push(part[..end].split('#').next().unwrap_or(""));
        }
    }
    out.retain(|p| {
        p.contains('/')
            && !p.starts_with('/')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
            && !p.contains("..")
    });
    out
}

/// The paths of `doc` (relative to the root) that name an entry of `bases` in their first
/// part but do not exist there.
fn missing(root: &Path, doc: &str, bases: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(doc)).expect("the document is readable");
    let mut missing = Vec::new();
    let mut checked = 0;
    for path in cited(&text) {
        let first = path.split('/').next().unwrap_or("");
        let base = bases
            .iter()
            .map(|b| root.join(b))
            .find(|b| b.join(first).exists());
        match base {
            Some(base) => {
                checked += 1;
                if !base.join(path).exists() {
                    missing.push(format!("{doc}: `{path}`"));
                }
            }
            None if first.ends_with(".rs") || first.ends_with(".md") => {
                missing.push(format!("{doc}: `{path}`"));
            }
            None => {}
        }
    }
    assert!(
        checked > 10,
        "{doc}: only {checked} paths read; the reader is broken"
    );
    missing
}

#[test]
fn every_cited_path_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = missing(root, "ARCHITECTURE.md", &[""]);
    missing.extend(self::missing(root, "tests/README.md", &["", "tests"]));
    assert!(
        missing.is_empty(),
        "cited paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_reader_finds_paths_and_leaves_patterns_alone() {
    let text = "see `core/src/lib.rs`, [the docs](docs/tool.md#testing), `tools/<name>.json`, \
                `examples/*/tools`, `/structuredContent/rows`, `OUT_DIR/neuralis_package.rs`, \
                `https://example.com/x`";
    assert_eq!(
        cited(text),
        [
            "core/src/lib.rs",
            "OUT_DIR/neuralis_package.rs",
            "docs/tool.md"
        ]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("cited-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let doc = dir.join("doc.md");
    let refs: String = (0..11).map(|_| "`core/src/lib.rs` ").collect();
    std::fs::write(&doc, format!("{refs} `core/src/gone.rs`")).expect("written");
    let found = missing(root, doc.to_str().expect("utf-8"), &[""]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("`core/src/gone.rs`"), "{found:?}");
}

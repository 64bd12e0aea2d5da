//! Every relative link in the project's Markdown (README.md, ARCHITECTURE.md, CHANGELOG.md
//! and everything under docs/) names a file that exists, and every `#anchor` into a Markdown
//! file names one of its headings, with GitHub's rule for turning a heading into an anchor.
//! A failure lists each broken link as `file:line: target (why)`.
//!
//! No dependencies: the scan is line by line, skips fenced code blocks and inline code
//! spans, and reads inline links (`[text](target)`, images too) and reference definitions
//! (`[label]: target`). Links with a scheme (`https:`, `mailto:`) are not followed.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The workspace root: this crate lives in `crates/splitsteal-cli`.
fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        root.join("README.md").is_file() && root.join("docs").is_dir(),
        "{} is not the repository root (no README.md or docs/)",
        root.display()
    );
    root
}

/// The Markdown files the check covers, relative paths sorted for a stable report.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = fs::read_dir(root.join(&dir))
            .unwrap_or_else(|e| panic!("read {}: {e}", root.join(&dir).display()));
        for entry in entries {
            let entry = entry.expect("a directory entry");
            let rel = dir.join(entry.file_name());
            if entry.file_type().expect("a file type").is_dir() {
                dirs.push(rel);
            } else if rel.extension().is_some_and(|e| e == "md") {
                files.push(rel);
            }
        }
    }
    files.sort();
    files
}

/// GitHub's anchor for a heading's text: lowercase, drop everything but letters, digits,
/// `_`, `-` and spaces, then each space becomes `-`. Markdown inside the heading counts as
/// its rendered text: a link contributes its text, backticks and emphasis marks vanish.
fn github_slug(heading: &str) -> String {
    let text = strip_link_targets(heading);
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|&c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](target)` → `text`, so that a link's target does not enter a heading's slug.
fn strip_link_targets(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i]);
        match rest[i + 2..].find(')') {
            Some(j) => rest = &rest[i + 2 + j + 1..],
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The line with its inline code spans (`` `...` ``, any number of backticks) blanked out.
fn without_code_spans(line: &str) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            let fence = &line[i..i + run];
            if let Some(close) = line[i + run..].find(fence) {
                i += run + close + run;
                out.push(' ');
                continue;
            }
            // An unmatched run is literal text.
            out.push_str(fence);
            i += run;
            continue;
        }
        let c = line[i..].chars().next().expect("a char at a boundary");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Whether a line opens or closes a fenced code block (``` or ~~~, up to 3 spaces in).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    line.len() - t.len() <= 3 && (t.starts_with("```") || t.starts_with("~~~"))
}

/// A link found on a line: its 1-based line number and its raw target.
struct Link {
    line: usize,
    target: String,
}

/// The link targets of a Markdown text, outside code blocks and code spans.
fn links_in(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    let mut in_fence = false;
    for (n, raw) in text.lines().enumerate() {
        if is_fence(raw) {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let line = without_code_spans(raw);
        // Reference definitions: `[label]: target`.
        let t = line.trim_start();
        if line.len() - t.len() <= 3 && t.starts_with('[') && !t.starts_with("[^") {
            if let Some(end) = t.find("]:") {
                if let Some(target) = t[end + 2..].split_whitespace().next() {
                    links.push(Link {
                        line: n + 1,
                        target: target.trim_matches(|c| c == '<' || c == '>').to_string(),
                    });
                }
                continue;
            }
        }
        // Inline links and images: `](target)` or `](target "title")`.
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let mut depth = 0usize;
            let mut end = None;
            for (j, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = Some(j);
                        break;
                    }
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            let inner = after[..end].trim();
            let target = inner
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_matches(|c| c == '<' || c == '>');
            if !target.is_empty() {
                links.push(Link {
                    line: n + 1,
                    target: target.to_string(),
                });
            }
            rest = &after[end + 1..];
        }
    }
    links
}

/// The anchors a Markdown text defines: its headings' GitHub slugs (repeats numbered
/// `-1`, `-2`, ... as GitHub numbers them) and explicit `id="..."` / `name="..."`.
fn anchors_in(text: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if is_fence(line) {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let t = line.trim_start_matches(' ');
        let hashes = t.bytes().take_while(|&b| b == b'#').count();
        if line.len() - t.len() <= 3
            && (1..=6).contains(&hashes)
            && (t.len() == hashes || t.as_bytes()[hashes] == b' ')
        {
            let heading = t[hashes..].trim().trim_end_matches('#').trim();
            let slug = github_slug(heading);
            let mut unique = slug.clone();
            let mut k = 0;
            while !anchors.insert(unique.clone()) {
                k += 1;
                unique = format!("{slug}-{k}");
            }
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(i) = rest.find(key) {
                let after = &rest[i + key.len()..];
                let Some(end) = after.find('"') else { break };
                anchors.insert(after[..end].to_string());
                rest = &after[end..];
            }
        }
    }
    anchors
}

/// Whether a target leaves the repository (`https:`, `mailto:`, `//host`): not checked.
fn is_external(target: &str) -> bool {
    if target.starts_with("//") {
        return true;
    }
    match target.find(':') {
        Some(i) => {
            let scheme = &target[..i];
            !scheme.is_empty()
                && !scheme.contains(['/', '#', '.'])
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-')
        }
        None => false,
    }
}

/// `%20` and friends decoded (GitHub accepts both spellings of a path).
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let b = u8::from_str_radix(&s[i + 1..i + 3], 16).expect("two hex digits");
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `a/b/../c` → `a/c`, so that a report names the file a reader would open.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every broken link of the given files under `root`, as `file:line: target (why)`.
fn broken_links(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut broken = Vec::new();
    for file in files {
        let path = root.join(file);
        let text =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let dir = file.parent().unwrap_or(Path::new(""));
        for link in links_in(&text) {
            if is_external(&link.target) {
                continue;
            }
            let (path_part, anchor) = match link.target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.target.as_str(), None),
            };
            let path_part = percent_decoded(path_part);
            let target_rel = if path_part.is_empty() {
                file.clone()
            } else if let Some(abs) = path_part.strip_prefix('/') {
                PathBuf::from(abs)
            } else {
                dir.join(&path_part)
            };
            let target_rel = lexically_normal(&target_rel);
            let target = root.join(&target_rel);
            let at = format!("{}:{}: {}", file.display(), link.line, link.target);
            if !target.exists() {
                broken.push(format!("{at} (no such file: {})", target_rel.display()));
                continue;
            }
            let Some(anchor) = anchor.filter(|a| !a.is_empty()) else {
                continue;
            };
            if target.extension().is_some_and(|e| e == "md") && target.is_file() {
                let target_text = fs::read_to_string(&target)
                    .unwrap_or_else(|e| panic!("read {}: {e}", target.display()));
                let anchor = percent_decoded(anchor).to_lowercase();
                if !anchors_in(&target_text).contains(&anchor) {
                    broken.push(format!(
                        "{at} (no heading with anchor #{anchor} in {})",
                        target_rel.display()
                    ));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let root = repo_root();
    let files = markdown_files(&root);
    assert!(
        files.iter().any(|f| f.starts_with("docs")),
        "no Markdown found under docs/"
    );
    let broken = broken_links(&root, &files);
    assert!(
        broken.is_empty(),
        "{} broken link(s) in the project's Markdown:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(
        github_slug("2026-11-27 to 28: one join, compiled once per call site"),
        "2026-11-27-to-28-one-join-compiled-once-per-call-site"
    );
    assert_eq!(
        github_slug("The default, `asym`: fence-free joins"),
        "the-default-asym-fence-free-joins"
    );
    assert_eq!(
        github_slug("Switching from [rayon](https://crates.io/crates/rayon)"),
        "switching-from-rayon"
    );
    assert_eq!(github_slug("A — B"), "a--b");
    let anchors = anchors_in("# Title\n## Run times\n## Run times\n```\n# not a heading\n```\n");
    let expected: HashSet<String> = ["title", "run-times", "run-times-1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(anchors, expected);
}

#[test]
fn links_in_code_are_not_links_and_external_ones_are_not_followed() {
    let text = "see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d]: d.md\n\
                [e](https://example.com) [f](#top \"title\")\n";
    let targets: Vec<String> = links_in(text).into_iter().map(|l| l.target).collect();
    assert_eq!(
        targets,
        ["a.md", "d.md", "https://example.com", "#top"].map(String::from)
    );
    assert!(is_external("https://example.com"));
    assert!(is_external("mailto:someone@example.com"));
    assert!(!is_external("docs/results.md#a:b"));
    assert!(!is_external("#top"));
}

/// The checker itself fails on a broken link: a scratch tree with one good link, one to a
/// missing file and one to a missing heading, each named with its file and line.
#[test]
fn a_missing_file_or_heading_is_reported_with_its_line() {
    let root = std::env::temp_dir().join(format!("splitsteal-docs-links-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("docs")).expect("create the scratch tree");
    fs::write(
        root.join("README.md"),
        "# Top\n\n[guide](docs/guide.md#usage)\n[gone](docs/gone.md)\n[bad](docs/guide.md#nowhere)\n[self](#top)\n",
    )
    .expect("write README.md");
    fs::write(root.join("docs/guide.md"), "# Guide\n\n## Usage\n").expect("write guide.md");
    let broken = broken_links(
        &root,
        &[PathBuf::from("README.md"), PathBuf::from("docs/guide.md")],
    );
    let _ = fs::remove_dir_all(&root);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(broken[0].starts_with("README.md:4: docs/gone.md (no such file"));
    assert!(broken[1].starts_with("README.md:5: docs/guide.md#nowhere (no heading"));
}

//! The documentation holds together: every relative link and image in README.md,
//! ARCHITECTURE.md and `docs/*.md` points at a file of the repository, every `#anchor`
//! names a heading of the page it points at (GitHub's slugs), and the README stays a
//! five-minute read that shows the test command CI runs.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The pages checked, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir("docs")
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a page outside fenced code blocks (```` ``` ```` or `~~~`), with their
/// line numbers (1-based).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match fence {
            Some(marker) => {
                if trimmed.starts_with(marker) {
                    fence = None;
                }
            }
            None if trimmed.starts_with("```") => fence = Some("```"),
            None if trimmed.starts_with("~~~") => fence = Some("~~~"),
            None => lines.push((index + 1, line)),
        }
    }
    lines
}

/// `line` without its inline code spans (`` `…` ``), each replaced by spaces so that
/// nothing inside code is taken for a link.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// GitHub's anchor for a heading: lowercase; letters, digits, `-` and `_` kept, spaces
/// turned into `-`, every other character (punctuation, backticks) dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (ATX headings outside code blocks); a repeated
/// heading gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    for (_, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let rest = &trimmed[hashes..];
        if !(rest.is_empty() || rest.starts_with(' ')) {
            continue;
        }
        let base = slug(rest.trim().trim_end_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.insert(anchor);
    }
    anchors
}

/// Every inline link or image target `[text](target)` / `![alt](target)` of a page
/// outside code, with its line number. An optional title (`(target "title")`) is dropped.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            found.push((number, target.to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// What is wrong with one link of `page`, if anything.
fn check_link(page: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("empty link target".to_string());
    }
    let lower = target.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let linked = if file.is_empty() {
        page.to_path_buf()
    } else {
        if file.starts_with('/') {
            return Some("absolute path: links must be relative to the page".to_string());
        }
        page.parent().unwrap_or(Path::new("")).join(file)
    };
    let normalised = normalise(&linked);
    let Some(normalised) = normalised else {
        return Some(format!("{} leads outside the repository", linked.display()));
    };
    if !normalised.exists() {
        return Some(format!("{} does not exist", normalised.display()));
    }
    if let Some(anchor) = anchor
        && normalised.extension().is_some_and(|ext| ext == "md")
    {
        let text = fs::read_to_string(&normalised).unwrap();
        if !anchors(&text).contains(anchor) {
            return Some(format!(
                "{} has no heading whose anchor is #{anchor}",
                normalised.display()
            ));
        }
    }
    None
}

/// `path` with `.` and `..` resolved lexically, or `None` if it climbs above the
/// repository root.
fn normalise(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(part) => parts.push(part),
            _ => return None,
        }
    }
    Some(parts.iter().collect())
}

#[test]
fn slugs_follow_githubs_rule() {
    assert_eq!(slug("The two commands"), "the-two-commands");
    assert_eq!(slug("The web page (`serve`)"), "the-web-page-serve");
    assert_eq!(
        slug("Beyond one machine: MPI (feature `mpi`)"),
        "beyond-one-machine-mpi-feature-mpi"
    );
    assert_eq!(
        slug("Files of a run (`--out DIR`, default `populations/GAME-PRESET-seedSEED`)"),
        "files-of-a-run---out-dir-default-populationsgame-preset-seedseed"
    );
    assert_eq!(slug("Othello TD(λ)"), "othello-tdλ");
    assert_eq!(
        slug("`panel` and the Othello League measure"),
        "panel-and-the-othello-league-measure"
    );
}

#[test]
fn headings_in_code_blocks_are_not_anchors_and_repeats_are_numbered() {
    let text = "# Top\n\n```sh\n# a shell comment\n```\n\n## Notation\n\n## Notation\n";
    let found = anchors(text);
    assert!(found.contains("top"));
    assert!(found.contains("notation"));
    assert!(found.contains("notation-1"));
    assert!(!found.contains("a-shell-comment"));
}

#[test]
fn links_in_code_are_not_links() {
    let text = "See [the guide](docs/guide.md#search) and ![a plot](plots/x.png \"t\").\n\
                `[not](a-link)`\n```\n[nor](this)\n```\n";
    let found: Vec<String> = links(text).into_iter().map(|(_, target)| target).collect();
    assert_eq!(found, ["docs/guide.md#search", "plots/x.png"]);
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(&page)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", page.display()));
        for (line, target) in links(&text) {
            checked += 1;
            if let Some(problem) = check_link(&page, &target) {
                problems.push(format!(
                    "{}:{line}: link ({target}): {problem}",
                    page.display()
                ));
            }
        }
    }
    assert!(
        checked > 0,
        "no links found: is the working directory the repository?"
    );
    assert!(
        problems.is_empty(),
        "{} broken link(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_readme_is_short_and_shows_the_test_command() {
    let readme = fs::read_to_string("README.md").unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: at most 300 (move detail into docs/)"
    );
    assert!(
        readme
            .lines()
            .any(|line| line.trim() == "cargo test --release"),
        "README.md has no line `cargo test --release` (the test command CI runs)"
    );
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let readme = fs::read_to_string("README.md").unwrap();
    let linked: HashSet<String> = links(&readme)
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap().to_string())
        .collect();
    for page in pages().into_iter().filter(|page| page.starts_with("docs")) {
        let name = page.to_string_lossy().replace('\\', "/");
        assert!(
            linked.contains(&name),
            "README.md: no link to {name} (the map of the docs should list every page)"
        );
    }
}

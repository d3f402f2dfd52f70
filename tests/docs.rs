//! The documentation holds together: every relative link and image in README.md,
//! ARCHITECTURE.md, CONTRIBUTING.md, `docs/*.md` and the results' topic pages
//! (`docs/results/*.md`) points at a file of the repository, every `#anchor` names a
//! heading of the page it points at (GitHub's slugs), every `<!-- plan: PATH -->` marker
//! names a plan that exists, every repository path written as code (`` `experiments/…` ``)
//! exists, and the README stays a five-minute read that shows the test command CI runs.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The pages checked, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("ARCHITECTURE.md"),
        PathBuf::from("CONTRIBUTING.md"),
    ];
    pages.extend(markdown_in("docs"));
    pages.extend(markdown_in("docs/results"));
    pages
}

/// The Markdown pages directly in `dir`, sorted.
fn markdown_in(dir: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {dir}: {error}"))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    found.sort();
    found
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

/// The pages `page` links to, by path relative to `page`'s directory, anchors dropped.
fn linked_pages(page: &str) -> HashSet<String> {
    let text = fs::read_to_string(page).unwrap();
    links(&text)
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let linked = linked_pages("README.md");
    for page in markdown_in("docs") {
        let name = page.to_string_lossy().replace('\\', "/");
        assert!(
            linked.contains(&name),
            "README.md: no link to {name} (the map of the docs should list every page)"
        );
    }
}

#[test]
fn every_results_topic_page_is_linked_from_the_results_page() {
    let linked = linked_pages("docs/results.md");
    for page in markdown_in("docs/results") {
        let name = format!("results/{}", page.file_name().unwrap().to_string_lossy());
        assert!(
            linked.contains(&name),
            "docs/results.md: no link to {name} (each area links its topic page)"
        );
    }
}

/// The path a `<!-- plan: PATH -->` line names, if `line` is such a marker.
fn plan_marker(line: &str) -> Option<&str> {
    let inner = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    Some(inner.strip_prefix("plan:")?.trim())
}

/// What is wrong with the plan markers of `text` (page `page`), one line each.
fn plan_marker_problems(page: &str, text: &str) -> Vec<String> {
    prose_lines(text)
        .into_iter()
        .filter_map(|(number, line)| {
            let path = plan_marker(line)?;
            (!Path::new(path).is_file())
                .then(|| format!("{page}:{number}: plan marker names {path}, which does not exist"))
        })
        .collect()
}

#[test]
fn every_plan_marker_names_a_plan_file() {
    let mut problems = Vec::new();
    let mut markers = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        markers += prose_lines(&text)
            .iter()
            .filter(|(_, line)| plan_marker(line).is_some())
            .count();
        problems.extend(plan_marker_problems(&page.display().to_string(), &text));
    }
    assert!(markers > 10, "only {markers} plan markers found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_plan_marker_naming_no_file_is_found() {
    let text = "x\n<!-- plan: experiments/no-such-plan.toml -->\n<!-- plan: experiments/smoke.toml -->\n\
                `<!-- plan: … -->` in prose is no marker\n";
    assert_eq!(
        plan_marker_problems("page.md", text),
        ["page.md:2: plan marker names experiments/no-such-plan.toml, which does not exist"]
    );
}

/// The code spans (`` `…` ``) of a line, outside fenced blocks.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The repository's top-level directories (those a path in the docs may start with):
/// every directory at the root but hidden ones and what `.gitignore` ignores (`target/`).
fn top_level_directories(ignored: &[String]) -> Vec<String> {
    let mut dirs: Vec<String> = fs::read_dir(".")
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.') && !is_ignored(name, ignored))
        .collect();
    dirs.sort();
    dirs
}

/// The patterns of `.gitignore` (comments and blank lines dropped).
fn gitignore_patterns() -> Vec<String> {
    fs::read_to_string(".gitignore")
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Whether `.gitignore`'s `patterns` ignore `path` (or a directory it lies in): what a
/// command writes (`populations/demo/`, `runs/`), not a file of the repository. Patterns
/// as the repository writes them: `/`-anchored or not, `*` within a part.
fn is_ignored(path: &str, patterns: &[String]) -> bool {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    patterns.iter().any(|pattern| {
        let anchored = pattern.starts_with('/');
        let wanted: Vec<&str> = pattern.trim_matches('/').split('/').collect();
        let starts: Vec<usize> = if anchored {
            vec![0]
        } else {
            (0..parts.len()).collect()
        };
        starts.into_iter().any(|start| {
            parts.len() >= start + wanted.len()
                && wanted
                    .iter()
                    .zip(&parts[start..])
                    .all(|(want, part)| wildcard_match(want, part))
        })
    })
}

/// `text` against `pattern`, whose `*` stands for any characters.
fn wildcard_match(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            text.starts_with(head)
                && (head.len()..=text.len())
                    .any(|at| text.is_char_boundary(at) && wildcard_match(tail, &text[at..]))
        }
    }
}

/// Whether a part of a path is a placeholder: a word in capitals (`PLAN`, `seed-S`,
/// `GAME-PRESET`), not a name.
fn is_placeholder(part: &str) -> bool {
    part.split(|c: char| !c.is_ascii_alphabetic())
        .any(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_uppercase()))
}

/// The repository path a code span names, if it names one: a token that starts with a
/// top-level directory, without spaces, globs (`*`, `{`, `[`, `?`), variables (`$`) or
/// placeholders in capitals; an agent's `:DEPTH` after a file is dropped.
fn repository_path<'a>(span: &'a str, top: &[String]) -> Option<&'a str> {
    if span.contains(char::is_whitespace)
        || span.contains(['*', '{', '}', '[', ']', '?', '$', '<', '>', '…', '|'])
    {
        return None;
    }
    let (first, _) = span.split_once('/')?;
    if !top.iter().any(|dir| dir == first) {
        return None;
    }
    let path = span.split(':').next().unwrap();
    (!path.split('/').any(is_placeholder)).then_some(path)
}

/// What is wrong with the repository paths `text` (page `page`) names as code.
fn repository_path_problems(
    page: &str,
    text: &str,
    top: &[String],
    ignored: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (number, line) in prose_lines(text) {
        for span in code_spans(line) {
            let Some(path) = repository_path(span, top) else {
                continue;
            };
            if !is_ignored(path, ignored) && !Path::new(path).exists() {
                problems.push(format!("{page}:{number}: `{path}` does not exist"));
            }
        }
    }
    problems
}

#[test]
fn every_repository_path_written_as_code_exists() {
    let ignored = gitignore_patterns();
    let top = top_level_directories(&ignored);
    assert!(top.contains(&"experiments".to_string()), "{top:?}");
    let mut problems = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        problems.extend(repository_path_problems(
            &page.display().to_string(),
            &text,
            &top,
            &ignored,
        ));
    }
    assert!(
        problems.is_empty(),
        "{} path(s) that do not exist:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn paths_written_as_code_are_told_from_placeholders_and_outputs() {
    let top = ["experiments".to_string(), "populations".to_string()];
    let ignored = ["/populations/*-seed*/".to_string(), "/runs/".to_string()];
    let text = "`experiments/smoke.toml` and `experiments/no-such.toml`\n\
                `experiments/PLAN.toml`, `experiments/results/*/x`, `runs/x`, `cargo run`\n\
                `populations/othello/champion.evo:2`, `populations/othello-seed1/`\n\
                ```\n`experiments/in-a-code-block.toml`\n```\n";
    assert_eq!(
        repository_path_problems("page.md", text, &top, &ignored),
        ["page.md:1: `experiments/no-such.toml` does not exist"]
    );
    assert!(is_ignored(
        "target/release/evoboard",
        &["target/".to_string()]
    ));
    assert!(!is_ignored("populations/othello", &ignored));
}

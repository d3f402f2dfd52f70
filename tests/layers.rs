//! The layers of ARCHITECTURE.md stay true:
//! - the library's layer table lists every module of the library, and no module names one
//!   listed below it (the layers run one way, with no cycle);
//! - the library knows nothing of its front ends: no source of it names the command line,
//!   the server or their crates (argument parsing, progress bars, HTTP, async runtime), and
//!   its manifest does not depend on them;
//! - the command line's modules (`cli/src`, the server's included) name each other without
//!   a cycle.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The crates of the front ends, which the library must not depend on.
const FRONT_END_CRATES: [&str; 7] = [
    "evoboard_cli",
    "clap",
    "indicatif",
    "axum",
    "hyper",
    "hyper_util",
    "tokio",
];

/// The modules of the layer table, top layer first.
fn layer_order() -> Vec<String> {
    let text = fs::read_to_string("ARCHITECTURE.md").unwrap();
    let table = text.split("## Layers").nth(1).unwrap();
    table
        .lines()
        .skip_while(|line| !line.starts_with("| `"))
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.split('`').nth(1).unwrap().to_string())
        .collect()
}

/// Every `.rs` file under `path` (or `path` itself), with its text.
fn sources_under(path: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(
                fs::read_dir(&path)
                    .unwrap()
                    .map(|entry| entry.unwrap().path()),
            );
        } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            files.push((path, text));
        }
    }
    files.sort();
    files
}

/// The text of every source file of library module `name` (`src/name.rs` or `src/name/`).
fn module_sources(name: &str) -> Vec<(PathBuf, String)> {
    let mut files = sources_under(&Path::new("src").join(format!("{name}.rs")));
    files.extend(sources_under(&Path::new("src").join(name)));
    files
}

#[test]
fn the_layer_table_lists_every_module() {
    let order = layer_order();
    let lib = fs::read_to_string("src/lib.rs").unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';'))
        .collect();
    for module in &modules {
        assert!(
            order.iter().any(|m| m == module),
            "{module} is not in the layer table"
        );
    }
    assert_eq!(order.len(), modules.len(), "{order:?} against {modules:?}");
}

/// The identifier `text` starts with (after blanks).
fn identifier(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The path `text` starts with: identifiers joined by `::` (`serve::api::Router`).
fn path(text: &str) -> String {
    let mut parts = vec![identifier(text)];
    let mut rest = &text[text.len() - text.trim_start().len() + parts[0].len()..];
    while let Some(next) = rest.strip_prefix("::") {
        let part = identifier(next);
        if part.is_empty() {
            break;
        }
        parts.push(part);
        rest = &next[part.len()..];
    }
    parts.join("::")
}

/// The names a source text reaches through `prefix` (`crate::`, `super::`): in paths,
/// imports such as `crate::{a, b}`, and doc links.
fn named_after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    paths_after(text, prefix)
        .into_iter()
        .map(|(at, _)| identifier(&text[at..]))
        .collect()
}

/// Where each path a source text reaches through `prefix` starts, with the path (each
/// member of a group such as `crate::{a, b::c}` on its own).
fn paths_after(text: &str, prefix: &str) -> Vec<(usize, String)> {
    let mut names = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let start = at + prefix.len();
        let rest = &text[start..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                let mut offset = start + 1;
                for member in group.split(',') {
                    let skip = member.len() - member.trim_start().len();
                    // What follows a trailing comma is no member.
                    if !member.trim().is_empty() {
                        names.push((offset + skip, path(member)));
                    }
                    offset += member.len() + 1;
                }
            }
            None => names.push((start, path(rest))),
        }
    }
    names
}

#[test]
fn no_module_uses_a_layer_below_it() {
    let order = layer_order();
    for (index, module) in order.iter().enumerate() {
        let sources = module_sources(module);
        assert!(!sources.is_empty(), "no sources for {module}");
        for (path, text) in sources {
            for named in named_after(&text, "crate::") {
                assert!(
                    !order[index + 1..].iter().any(|below| below == named),
                    "{} ({module}) names {named}, a layer below it",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_library_knows_no_front_end() {
    for (path, text) in sources_under(Path::new("src")) {
        for front_end in FRONT_END_CRATES {
            assert!(
                named_after(&text, &format!("{front_end}::")).is_empty()
                    && !text.contains(&format!("extern crate {front_end}")),
                "{} names {front_end}",
                path.display()
            );
        }
        assert!(
            !text.contains("crate::cli") && !text.contains("crate::serve"),
            "{} names the command line or the server",
            path.display()
        );
    }
    // The library's own dependencies (not its dev-dependencies, nor the members').
    let manifest = fs::read_to_string("Cargo.toml").unwrap();
    let mut section = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let depends = section == "[dependencies]"
            || (section.starts_with("[target.") && section.ends_with(".dependencies]"));
        let name = identifier(line).replace('_', "-");
        assert!(
            !depends
                || !FRONT_END_CRATES
                    .iter()
                    .any(|front_end| front_end.replace('_', "-") == name),
            "the library depends on {name} ({section})"
        );
    }
}

/// The command line's modules, by path from the crate root (`evolve`, `serve`,
/// `serve::api`; the library's root itself is `lib`, and the binary over it, a crate of
/// its own that names only the library, is `main`), with their texts.
fn cli_modules() -> BTreeMap<String, String> {
    modules_under(Path::new("cli/src"), Path::new("cli/src"))
}

/// The modules `name`'s text names: `crate::M` for the crate's modules (an item of the
/// root is the root, `lib`), `super::M` and `self::M` for its neighbours and children, and
/// a child declared `mod M;` named as `M::`.
fn cli_edges(name: &str, text: &str, modules: &BTreeMap<String, String>) -> Vec<String> {
    let parent = match name.rsplit_once("::") {
        Some((parent, _)) => parent.to_string(),
        None => String::new(),
    };
    let here = if name == "lib" { "" } else { name };
    // The deepest module a path from `base` leads into (the root's items are `lib`'s).
    let within = |base: &str, item: &str| {
        let mut path = base.to_string();
        let mut found = if base.is_empty() { "lib" } else { base }.to_string();
        for part in item.split("::") {
            path = if path.is_empty() {
                part.to_string()
            } else {
                format!("{path}::{part}")
            };
            if !modules.contains_key(&path) {
                break;
            }
            found.clone_from(&path);
        }
        found
    };
    // Unit tests (`#[cfg(test)] mod tests`, last in a file) see their file as `super`.
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut edges: Vec<String> = paths_after(text, "crate::")
        .into_iter()
        .map(|(_, item)| within("", &item))
        .chain(
            paths_after(text, "super::")
                .into_iter()
                .map(|(_, item)| within(&parent, &item)),
        )
        .chain(
            paths_after(text, "self::")
                .into_iter()
                .map(|(_, item)| within(here, &item)),
        )
        .collect();
    for child in modules.keys() {
        let Some(short) = child
            .strip_prefix(here)
            .map(|rest| rest.trim_start_matches("::"))
            .filter(|short| !short.is_empty() && !short.contains("::"))
        else {
            continue;
        };
        if !text.contains(&format!("mod {short};")) {
            continue;
        }
        let used = text.match_indices(&format!("{short}::")).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        });
        if used {
            edges.push(child.clone());
        }
    }
    edges.retain(|edge| edge != name);
    edges.sort();
    edges.dedup();
    edges
}

/// A cycle among `modules` (by [`cli_edges`]), written `a -> b -> a`, if there is one.
fn find_cycle(modules: &BTreeMap<String, String>) -> Option<String> {
    find_cycle_among(modules, |_| true)
}

/// A cycle among the `modules` that `counted` keeps, if there is one.
fn find_cycle_among(
    modules: &BTreeMap<String, String>,
    counted: impl Fn(&str) -> bool,
) -> Option<String> {
    let graph: BTreeMap<&str, Vec<String>> = modules
        .iter()
        .filter(|(name, _)| counted(name))
        .map(|(name, text)| (name.as_str(), cli_edges(name, text, modules)))
        .collect();
    // Depth-first search; a module met again on the current path closes a cycle.
    fn visit<'a>(
        module: &'a str,
        graph: &'a BTreeMap<&str, Vec<String>>,
        path: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) -> Option<String> {
        // A module outside `graph` (a root left out, whose items its children re-export)
        // closes no cycle.
        if done.contains(&module) || !graph.contains_key(module) {
            return None;
        }
        if let Some(at) = path.iter().position(|m| *m == module) {
            return Some(format!("{} -> {module}", path[at..].join(" -> ")));
        }
        path.push(module);
        for next in &graph[module] {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.push(module);
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|module| visit(module, &graph, &mut Vec::new(), &mut done))
}

/// The modules of a source tree by path from its crate's root (`cli/src`: `evolve`,
/// `serve::api`; `src`: `evolve::config`, `evolve::learner::api`), with their texts; the
/// crate root itself is `lib`.
fn modules_under(root: &Path, tree: &Path) -> BTreeMap<String, String> {
    sources_under(tree)
        .into_iter()
        .map(|(path, text)| {
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|last| last == "mod") {
                parts.pop();
            }
            (parts.join("::"), text)
        })
        .collect()
}

/// No file of `src/evolve` imports one that imports it back (directly or around a circle).
/// Its root, `evolve/mod.rs`, which declares the others and re-exports their items, is left
/// out: a name reached through it is the item's own module's.
#[test]
fn the_evolution_modules_have_no_cycle() {
    let modules = modules_under(Path::new("src"), Path::new("src/evolve"));
    assert!(modules.contains_key("evolve::config") && modules.contains_key("evolve::learner::api"));
    assert_eq!(find_cycle_among(&modules, |name| name != "evolve"), None);
}

#[test]
fn the_command_line_has_no_cycle() {
    let modules = cli_modules();
    assert!(modules.contains_key("lib") && modules.contains_key("serve::api"));
    assert_eq!(find_cycle(&modules), None);
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let modules: BTreeMap<String, String> = [
        ("lib", "mod serve;\npub fn run() { serve::run(); }"),
        // A trailing comma in a group names nothing more (not the root).
        ("serve", "mod api;\nuse crate::{serve::api::Router,\n};"),
        ("serve::api", "use super::Server;"),
    ]
    .into_iter()
    .map(|(name, text)| (name.to_string(), text.to_string()))
    .collect();
    assert_eq!(cli_edges("lib", &modules["lib"], &modules), ["serve"]);
    assert_eq!(
        cli_edges("serve", &modules["serve"], &modules),
        ["serve::api"]
    );
    assert_eq!(
        cli_edges("serve::api", &modules["serve::api"], &modules),
        ["serve"]
    );
    assert_eq!(
        find_cycle(&modules).as_deref(),
        Some("serve -> serve::api -> serve")
    );
}

/// The string literals of a Rust source, up to its test module (`#[cfg(test)]`): their
/// text and the line each starts on. Comments are skipped; raw strings hold no flags here.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut literals = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut previous) = (1, ' ');
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            // A char literal holding a quote, not a string.
            '"' if previous == '\'' => {}
            '"' => {
                let (start, mut literal) = (line, String::new());
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                line += usize::from(escaped == '\n');
                                literal.push(escaped);
                            }
                        }
                        '"' => break,
                        c => {
                            line += usize::from(c == '\n');
                            literal.push(c);
                        }
                    }
                }
                literals.push((start, literal));
            }
            _ => {}
        }
        previous = c;
    }
    literals
}

/// Whether `text` names a command-line flag: `--` then a letter, at the start or after a
/// space, quote or bracket.
fn names_a_flag(text: &str) -> bool {
    text.match_indices("--").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 2..].chars().next();
        before.is_none_or(|c| " `'([".contains(c)) && after.is_some_and(|c| c.is_ascii_lowercase())
    })
}

/// The library's messages are read by plans' and Python's users too: they name settings as
/// `run.json` does (each front end respells them), never a command line's flag.
#[test]
fn no_library_message_names_a_command_line_flag() {
    assert!(names_a_flag("use --td-games") && !names_a_flag("a -- b") && !names_a_flag("x--y"));
    let literals = string_literals("let a = \"--x\"; // \"--y\"\nlet b = '\"'; \"z\"");
    assert_eq!(literals, [(1, "--x".to_string()), (2, "z".to_string())]);
    for (path, text) in sources_under(Path::new("src")) {
        for (line, literal) in string_literals(&text) {
            assert!(
                !names_a_flag(&literal),
                "{}:{line} names a flag: {literal:?}",
                path.display()
            );
        }
    }
}

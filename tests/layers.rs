//! The layer table of ARCHITECTURE.md stays true: it lists every module of the library,
//! and no module names one listed below it (the layers run one way, with no cycle).

use std::fs;
use std::path::Path;

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

/// The text of every source file of module `name` (`src/name.rs` or `src/name/`).
fn module_sources(name: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut pending = vec![
        Path::new("src").join(format!("{name}.rs")),
        Path::new("src").join(name),
    ];
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(
                fs::read_dir(&path)
                    .unwrap()
                    .map(|entry| entry.unwrap().path()),
            );
        } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            files.push((path.display().to_string(), text));
        }
    }
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

/// The top-level modules a source text names through `crate::` (in paths, imports such
/// as `crate::{a, b}`, and doc links).
fn named_modules(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                names.extend(group.split(',').map(identifier));
            }
            None => names.push(identifier(rest)),
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
            for named in named_modules(&text) {
                assert!(
                    !order[index + 1..].iter().any(|below| below == named),
                    "{path} ({module}) names {named}, a layer below it"
                );
            }
        }
    }
}

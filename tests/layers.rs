//! The layers import only downwards: the core (everything but `app`, `render`, `ui` and
//! `cli`) knows nothing of the shell; `render` and `ui` know only the core; only `app`
//! (and the binary) knows `render` and `ui` together; nothing imports `app` or `cli`.
//! Cargo's `window` feature keeps the core free of window and GPU crates; this keeps the
//! shell's own modules in order.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("the source folder is readable") {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The top-level module a source file belongs to (`src/ui/panel.rs` → `ui`, `src/cli.rs`
/// → `cli`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
    let first = relative
        .components()
        .next()
        .expect("a path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_owned()
}

/// The modules `module` may not mention as `crate::NAME`.
fn forbidden(module: &str) -> &'static [&'static str] {
    match module {
        "main" | "lib" => &[],
        "app" => &["cli"],
        "cli" => &["app", "render", "ui"],
        "render" => &["app", "cli", "ui"],
        "ui" => &["app", "cli", "render"],
        // The core.
        _ => &["app", "cli", "render", "ui"],
    }
}

#[test]
fn no_layer_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    let files = rust_files(&src);
    assert!(
        files.len() > 20,
        "found the sources ({} files)",
        files.len()
    );
    for file in files {
        let module = module_of(&src, &file);
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in forbidden(&module) {
                let needle = format!("crate::{name}");
                let mentions = code.match_indices(&needle).any(|(at, _)| {
                    // `crate::ui` but not `crate::uix`.
                    let next = code[at + needle.len()..].chars().next();
                    !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if mentions {
                    violations.push(format!(
                        "{}:{}: {module} uses {needle}",
                        file.display(),
                        number + 1
                    ));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import() {
    assert!(forbidden("live").contains(&"ui"));
    assert!(forbidden("ui").contains(&"app"));
    assert!(forbidden("cli").contains(&"app"));
    assert!(!forbidden("app").contains(&"ui"));
}

//! ARCHITECTURE.md is the map of the code: it names every workspace crate and every
//! top-level module of each, so a crate or module added without a line there fails here.

use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's member folders, as the root manifest lists them.
fn members() -> Vec<PathBuf> {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .expect("the root manifest is readable")
        .parse()
        .expect("the root manifest is TOML");
    manifest["workspace"]["members"]
        .as_array()
        .expect("workspace.members is a list")
        .iter()
        .map(|member| root().join(member.as_str().expect("a member is a path")))
        .collect()
}

/// A crate's package name.
fn package_name(member: &Path) -> String {
    let manifest: toml::Table = std::fs::read_to_string(member.join("Cargo.toml"))
        .expect("a member's manifest is readable")
        .parse()
        .expect("a member's manifest is TOML");
    manifest["package"]["name"]
        .as_str()
        .expect("a package name")
        .to_owned()
}

/// The top-level modules of a crate: `src/NAME.rs` and `src/NAME/` (not `lib`, `main`).
fn top_level_modules(member: &Path) -> Vec<String> {
    let mut modules: Vec<String> = std::fs::read_dir(member.join("src"))
        .expect("a member has src/")
        .map(|entry| entry.expect("a readable entry").path())
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let is_module = path.is_dir() || path.extension().is_some_and(|ext| ext == "rs");
            (is_module && name != "lib" && name != "main").then_some(name)
        })
        .collect();
    modules.sort();
    modules.dedup();
    modules
}

#[test]
fn architecture_md_names_every_crate_and_top_level_module() {
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md is at the root");
    let members = members();
    assert!(
        members.len() >= 3,
        "the core, the bench and the app: {members:?}"
    );
    let mut missing = Vec::new();
    for member in &members {
        let name = package_name(member);
        if !map.contains(&format!("`{name}`")) {
            missing.push(format!("the crate `{name}`"));
        }
        let modules = top_level_modules(member);
        // The benchmarks' crate is its `benches/`: an empty library.
        assert!(
            !modules.is_empty() || name == "timestep-lab-benches",
            "{name} has modules"
        );
        for module in modules {
            if !map.contains(&format!("`{module}`")) {
                missing.push(format!("{name}'s module `{module}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name: {}",
        missing.join(", ")
    );
}

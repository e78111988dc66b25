//! The documentation holds together: the README stays short, every relative link in the
//! Markdown files reaches a file and a heading that exist, and every place the source cites
//! a page of `docs/` names a section that page has.
//!
//! Headings become anchors the way GitHub makes them: lowercase, spaces to `-`, punctuation
//! other than `-` and `_` dropped, and `-1`, `-2`, ... after a repeated one.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines the README may have: what the lab is, the commands, what you see, the keys
/// and links; the manual lives in `docs/`.
const README_MAX_LINES: usize = 250;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose links are checked: those at the root and in `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [root(), root().join("docs")] {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|ext| ext == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A path as the repository names it, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text outside fenced code blocks, line by line (fenced lines are left empty, so line
/// numbers still match the file).
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match fence {
                Some(marker) => {
                    if trimmed.starts_with(marker) {
                        fence = None;
                    }
                    ""
                }
                None if trimmed.starts_with("```") || trimmed.starts_with("~~~") => {
                    fence = Some(&trimmed[..3]);
                    ""
                }
                None => line,
            }
        })
        .collect()
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The ATX headings of a Markdown text, outside code blocks, as written (without the `#`s).
fn headings(text: &str) -> Vec<String> {
    prose_lines(text)
        .into_iter()
        .filter_map(|line| {
            let hashes = line.len() - line.trim_start_matches('#').len();
            let rest = &line[hashes..];
            ((1..=6).contains(&hashes) && rest.starts_with(' '))
                .then(|| rest.trim().trim_end_matches('#').trim().to_owned())
        })
        .collect()
}

/// The anchors of a Markdown text, a repeated heading's numbered as GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for heading in headings(text) {
        let base = slug(&heading);
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// Removes inline code spans (any number of backticks, across lines), which can hold text
/// that only looks like a link.
fn without_code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let opening = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        // The span ends at the next run of exactly as many backticks.
        let mut search = 0;
        let end = loop {
            match after[search..].find(opening) {
                None => break None,
                Some(at) => {
                    let at = search + at;
                    let run = after[at..].len() - after[at..].trim_start_matches('`').len();
                    if run == ticks {
                        break Some(at);
                    }
                    search = at + run;
                }
            }
        };
        match end {
            Some(at) => rest = &after[at + ticks..],
            None => {
                out.push_str(opening);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images (`[text](target)`, `![alt](target)`) in a
/// Markdown text, with the line each is on.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let prose = prose_lines(text).join("\n");
    let prose = without_code_spans(&prose);
    let mut targets = Vec::new();
    let mut offset = 0;
    while let Some(at) = prose[offset..].find("](") {
        let start = offset + at + 2;
        let Some(len) = prose[start..].find(')') else {
            break;
        };
        let target = prose[start..start + len].trim();
        // A title after the target ("path \"title\"") is not part of it.
        let target = target.split_whitespace().next().unwrap_or("");
        let target = target.trim_start_matches('<').trim_end_matches('>');
        let line = prose[..start].matches('\n').count() + 1;
        targets.push((line, target.to_owned()));
        offset = start + len;
    }
    targets
}

/// Why a link from `file` to `target` does not resolve, or `None` when it does. External
/// links (with a scheme) are not followed.
fn broken(file: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty link".to_owned());
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let linked = if path.is_empty() {
        file.to_path_buf()
    } else {
        file.parent().expect("a file has a folder").join(path)
    };
    if !linked.exists() {
        return Some(format!("{} does not exist", shown(&linked)));
    }
    let anchor = anchor?;
    if linked.extension().is_none_or(|ext| ext != "md") {
        return Some(format!(
            "#{anchor} points into {}, not a Markdown file",
            shown(&linked)
        ));
    }
    let known = anchors(&read(&linked));
    (!known.contains(anchor)).then(|| {
        format!(
            "{} has no heading with the anchor #{anchor}",
            shown(&linked)
        )
    })
}

#[test]
fn readme_is_at_most_250_lines() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/"
    );
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let files = markdown_files();
    let names: Vec<String> = files.iter().map(|f| shown(f)).collect();
    for expected in ["README.md", "CONTRIBUTING.md", "docs/README.md"] {
        assert!(
            files.contains(&root().join(expected)),
            "{expected} is missing; found {names:?}"
        );
    }
    let mut problems = Vec::new();
    let mut links = 0;
    for file in &files {
        for (line, target) in link_targets(&read(file)) {
            links += 1;
            if let Some(problem) = broken(file, &target) {
                problems.push(format!("{}:{line}: ({target}): {problem}", shown(file)));
            }
        }
    }
    assert!(
        links > 50,
        "only {links} links found: is the link scanner broken?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

/// Every `.rs` file of the repository outside build output and hidden folders.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && !name.starts_with("target") {
                rust_files(&path, files);
            }
        } else if name.ends_with(".rs") {
            files.push(path);
        }
    }
}

/// The first word of a heading without its trailing punctuation: `7b.5` for
/// "7b.5 Ambiguities", `G1` for "G1: 60 Hz, defaults".
fn heading_label(heading: &str) -> &str {
    heading
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([':', '.', ','])
}

/// What a citation of `page` names right after the page: a section (`§4b`), a worked case
/// (`G1`) or a quoted heading (`: "Reading the table"`), and whether the page has it.
fn citation_problem(page: &str, cited: &str, text: &str) -> Option<String> {
    let cited = cited.trim_start_matches("'s");
    let quoted = cited
        .strip_prefix(": ")
        .or_else(|| cited.strip_prefix(", "))
        .map(|rest| rest.trim_start_matches('\\'))
        .and_then(|rest| rest.strip_prefix('"'))
        .map(|rest| rest.split(['"', '\\']).next().unwrap_or(""));
    if let Some(heading) = quoted {
        let found = headings(text).iter().any(|h| slug(h) == slug(heading));
        return (!found).then(|| format!("{page} has no heading \"{heading}\""));
    }
    let word = cited.split_whitespace().next().unwrap_or("");
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let label = if let Some(section) = word.strip_prefix('§') {
        section
    } else if word.len() >= 2
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word[1..].chars().all(|c| c.is_ascii_digit())
    {
        word
    } else {
        return None;
    };
    let found = headings(text).iter().any(|h| heading_label(h) == label);
    (!found).then(|| format!("{page} has no section or worked case {label}"))
}

#[test]
fn every_citation_of_the_docs_in_the_source_resolves() {
    let mut files = Vec::new();
    rust_files(&root(), &mut files);
    // This file names what it looks for.
    files.retain(|file| !file.ends_with(file!()));
    let mut pages: HashMap<String, String> = HashMap::new();
    let mut problems = Vec::new();
    let mut citations = 0;
    for file in &files {
        let source = read(file);
        for (number, line) in source.lines().enumerate() {
            let at = format!("{}:{}", shown(file), number + 1);
            // engines.md once lived outside the repository; a citation names its path.
            for (i, _) in line.match_indices("engines.md") {
                if !line[..i].ends_with("docs/") {
                    problems.push(format!("{at}: cites engines.md without its path, docs/"));
                }
            }
            for (i, _) in line.match_indices("docs/") {
                let rest = &line[i..];
                let Some(end) = rest.find(".md") else {
                    continue;
                };
                let page = &rest[..end + 3];
                if !page[5..end]
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                {
                    continue;
                }
                citations += 1;
                let path = root().join(page);
                if !path.exists() {
                    problems.push(format!("{at}: {page} does not exist"));
                    continue;
                }
                let text = pages.entry(page.to_owned()).or_insert_with(|| read(&path));
                if let Some(problem) = citation_problem(page, &rest[end + 3..], text) {
                    problems.push(format!("{at}: {problem}"));
                }
            }
        }
    }
    assert!(
        citations > 30,
        "only {citations} citations found: is the scanner broken?"
    );
    assert!(
        problems.is_empty(),
        "citations that do not resolve:\n{}",
        problems.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("Your hands: input"), "your-hands-input");
    assert_eq!(slug("`timestep-lab bench`"), "timestep-lab-bench");
    assert_eq!(
        slug("7b.5 Ambiguities, source against docs"),
        "7b5-ambiguities-source-against-docs"
    );
    assert_eq!(
        slug("3. `bevy_transform_interpolation`"),
        "3-bevy_transform_interpolation"
    );
    let repeated = anchors("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n");
    assert_eq!(
        repeated.into_iter().collect::<Vec<_>>(),
        ["a", "notes", "notes-1"]
    );
}

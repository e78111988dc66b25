//! What the documentation quotes of the binary is what the binary prints: every fenced block
//! line `$ timestep-lab ARGS` in README.md and docs/*.md is run, and the lines under it (up
//! to the next `$ ` line or the block's end) must equal its output. A line `...` stands for
//! lines left out: the quoted pieces must then appear in the output in order, each whole.
//!
//! `UPDATE_DOCS=1 cargo test --test quoted_output` rewrites every quote without `...` from
//! the binary, so the tables stay regenerated from it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The line that stands for lines left out of a quote.
const ELLIPSIS: &str = "...";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page of docs/.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let docs = std::fs::read_dir(root().join("docs")).expect("docs/ is readable");
    let mut pages: Vec<PathBuf> = docs
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// One quoted command: its line in the file (0-based), its arguments, and the lines quoted
/// under it (`first..end` in the file).
struct Quote {
    line: usize,
    args: Vec<String>,
    first: usize,
    end: usize,
}

/// The quotes of `lines`, in order.
fn quotes(lines: &[&str]) -> Vec<Quote> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut open: Option<Quote> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("```") {
            if in_block && let Some(mut quote) = open.take() {
                quote.end = i;
                found.push(quote);
            }
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            if let Some(mut quote) = open.take() {
                quote.end = i;
                found.push(quote);
            }
            if let Some(args) = command.strip_prefix("timestep-lab") {
                open = Some(Quote {
                    line: i,
                    args: args.split_whitespace().map(str::to_owned).collect(),
                    first: i + 1,
                    end: i + 1,
                });
            }
        }
    }
    found
}

/// What the binary prints on stdout for `args`, run from the repository's root.
fn output_of(args: &[String]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(args)
        .current_dir(root())
        .env_remove("TIMESTEP_LAB_PROGRESS_AFTER_MS")
        .output()
        .expect("the binary runs");
    assert!(
        output.status.success(),
        "timestep-lab {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// `text`'s lines without trailing white space, and without trailing empty lines.
fn trimmed_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// Whether `pieces` (the quote split at `...`) appear in `actual` in order, each as a run of
/// whole consecutive lines; the first piece must start the output and the last end it when
/// they are not empty.
fn quoted_in(pieces: &[Vec<String>], actual: &[String]) -> bool {
    let mut at = 0;
    for (k, piece) in pieces.iter().enumerate() {
        if piece.is_empty() {
            continue;
        }
        let found = (at..=actual.len().saturating_sub(piece.len()))
            .find(|&start| actual[start..start + piece.len()] == piece[..]);
        let Some(start) = found else {
            return false;
        };
        if k == 0 && start != 0 {
            return false;
        }
        at = start + piece.len();
    }
    let last_is_open = pieces.last().is_none_or(Vec::is_empty);
    last_is_open || at == actual.len()
}

fn check_document(path: &Path, update: bool) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a readable document");
    let lines: Vec<&str> = text.lines().collect();
    let shown = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut problems = Vec::new();
    let mut rewritten: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    // Rewrites go from the last quote up, so earlier line numbers stay right.
    for quote in quotes(&lines).into_iter().rev() {
        let quoted = trimmed_lines(&lines[quote.first..quote.end].join("\n"));
        let actual = trimmed_lines(&output_of(&quote.args));
        let elided = quoted.iter().any(|l| l == ELLIPSIS);
        let matches = if elided {
            let pieces: Vec<Vec<String>> = quoted
                .split(|l| l == ELLIPSIS)
                .map(|piece| trimmed_lines(&piece.join("\n")))
                .collect();
            quoted_in(&pieces, &actual)
        } else {
            quoted == actual
        };
        if matches {
            continue;
        }
        if update && !elided {
            // Keep one empty line before the next `$ ` command, as the quote had.
            let mut replacement = actual.clone();
            let blank_after = quote.end > quote.first && lines[quote.end - 1].trim().is_empty();
            if blank_after {
                replacement.push(String::new());
            }
            rewritten.splice(quote.first..quote.end, replacement);
        } else {
            problems.push(format!(
                "{shown}:{}: `timestep-lab {}` prints something else{}",
                quote.line + 1,
                quote.args.join(" "),
                if elided {
                    " (the quote has `...`: update it by hand)"
                } else {
                    " (UPDATE_DOCS=1 rewrites it)"
                }
            ));
        }
    }
    if update {
        let mut new_text = rewritten.join("\n");
        if text.ends_with('\n') {
            new_text.push('\n');
        }
        if new_text != text {
            std::fs::write(path, new_text).expect("the document is writable");
        }
    }
    problems
}

#[test]
fn every_quoted_command_prints_what_the_docs_say() {
    let update = std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1");
    let mut count = 0;
    let mut problems = Vec::new();
    for path in documents() {
        let text = std::fs::read_to_string(&path).expect("a readable document");
        count += quotes(&text.lines().collect::<Vec<_>>()).len();
        problems.extend(check_document(&path, update));
    }
    assert!(
        count >= 5,
        "the docs quote the binary ({count} commands found)"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_quote_with_left_out_lines_matches_only_its_pieces_in_order() {
    let actual: Vec<String> = ["a", "b", "c", "d"].map(str::to_owned).to_vec();
    let piece = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    assert!(quoted_in(&[piece(&["a"]), piece(&["c", "d"])], &actual));
    assert!(quoted_in(&[piece(&[]), piece(&["c"]), piece(&[])], &actual));
    assert!(
        !quoted_in(&[piece(&["b"]), piece(&["d"])], &actual),
        "must start the output"
    );
    assert!(
        !quoted_in(&[piece(&["a"]), piece(&["c"])], &actual),
        "must end the output"
    );
    assert!(
        !quoted_in(&[piece(&["c"]), piece(&["a"])], &actual),
        "in order"
    );
    assert!(
        !quoted_in(&[piece(&["a", "c"]), piece(&[])], &actual),
        "whole runs"
    );
}

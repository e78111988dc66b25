//! Text from outside (files, paths, the command line) made safe to print.

/// A path as messages show it: [`escape`]d, so a file name cannot drive the terminal.
pub fn escape_path(path: &std::path::Path) -> String {
    escape(&path.display().to_string())
}

/// `text` with every control character (and every character that reorders text on screen)
/// written as a Rust escape (`\u{1b}`, `\r`, `\t`), so a message quoting a file cannot move
/// the cursor, hide its own `file:line` prefix or send the terminal an escape sequence.
///
/// Every message that shows text from a file or a path goes through this, directly or through
/// the trace layer's own helpers.
pub fn escape(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if needs_escape(ch) {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Control characters (C0, DEL, C1) and the bidirectional formatting characters, which can
/// make a line read differently from what it holds.
fn needs_escape(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_makes_control_characters_visible_and_keeps_the_rest() {
        assert_eq!(escape("Game.exe"), "Game.exe");
        assert_eq!(escape("Gäme ✓"), "Gäme ✓");
        assert_eq!(escape("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(escape("16.7\r"), "16.7\\r");
        assert_eq!(escape("x\ty\n"), "x\\ty\\n");
        assert_eq!(escape("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(escape("abc\u{202e}exe.txt"), "abc\\u{202e}exe.txt");
        assert_eq!(escape("\u{7f}"), "\\u{7f}");
    }

    #[test]
    fn a_path_is_escaped_like_any_text() {
        assert_eq!(
            escape_path(std::path::Path::new("a\u{1b}[31m.png")),
            "a\\u{1b}[31m.png"
        );
    }
}

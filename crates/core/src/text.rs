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

/// A message of several lines, each [`escape`]d, the line breaks kept: whatever it quotes
/// cannot move the cursor or send the terminal a sequence, and it still reads as lines.
pub fn escape_lines(message: &str) -> String {
    message
        .split('\n')
        .map(escape)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` [`escape`]d and cut to `max_chars` characters, `…` marking a cut: a value from a
/// file or the command line quoted in a message (a whole binary file helps no one).
pub fn escape_within(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        escape(text)
    } else {
        let short: String = text.chars().take(max_chars).collect();
        escape(&short) + "…"
    }
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

/// A number as a message shows it: as Rust prints it (`0.0000001`, `5000`, `NaN`), but in
/// exponent form beyond the sizes anyone types (`1e300`, `1e-300`), which Rust would spell
/// out in hundreds of digits.
pub fn number(value: f64) -> String {
    let magnitude = value.abs();
    if value == 0.0 || !value.is_finite() || (1e-9..1e15).contains(&magnitude) {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

#[cfg(test)]
mod number_tests {
    use super::number;

    #[test]
    fn numbers_are_short_at_any_size() {
        assert_eq!(number(5000.0), "5000");
        assert_eq!(number(0.0000001), "0.0000001");
        assert_eq!(number(-3.0), "-3");
        assert_eq!(number(1e300), "1e300");
        assert_eq!(number(-1e-300), "-1e-300");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "inf");
    }
}

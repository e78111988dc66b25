//! Text from outside (files, paths, the command line) made safe to print.

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

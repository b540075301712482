//! User text as an error message echoes it: cut short and with control characters made visible, so that
//! a bad token from a GUI, a FEN or a file comes back as one short line that cannot rewrite the terminal
//! (a carriage return, an escape sequence). The fuzz targets of fuzz/ check every message for this.

/// How many characters of a bad token [`clip`] keeps.
pub const CLIP: usize = 40;

/// `s` cut to [`CLIP`] characters, control characters replaced by U+FFFD.
pub fn clip(s: &str) -> String {
    clip_to(s, CLIP)
}

/// `s` cut to `limit` characters (with `...` when cut), control characters replaced by U+FFFD.
pub fn clip_to(s: &str, limit: usize) -> String {
    let mut t: String = s.chars().take(limit).map(|c| if c.is_control() { '\u{fffd}' } else { c }).collect();
    if s.chars().nth(limit).is_some() {
        t.push_str("...");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_made_visible_and_long_text_is_cut() {
        assert_eq!(clip("h2e2"), "h2e2");
        assert_eq!(clip("a\rb\x1b[2J\u{7f}"), "a\u{fffd}b\u{fffd}[2J\u{fffd}");
        assert_eq!(clip_to("炮二平五", 2), "炮二...");
        assert_eq!(clip(&"x".repeat(41)), format!("{}...", "x".repeat(40)));
    }
}

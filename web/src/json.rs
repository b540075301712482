//! Just enough JSON writing for the referee's answers (strings, lists of strings, numbers, booleans),
//! so that the page can `JSON.parse` them without a serialisation library in the wasm.

use std::fmt::Write;

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// A JSON list of strings.
pub fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| string(i.as_ref())).collect();
    format!("[{}]", items.join(","))
}

/// A JSON object from keys and already-written values, in order.
pub fn object(fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", string(k))).collect();
    format!("{{{}}}", fields.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_requires() {
        assert_eq!(string("a\"b\\c\nd\u{1}炮"), "\"a\\\"b\\\\c\\nd\\u0001炮\"");
        assert_eq!(strings(["x", "y"]), "[\"x\",\"y\"]");
        assert_eq!(
            object(&[("ok", "true".into()), ("n", strings(Vec::<String>::new()))]),
            "{\"ok\":true,\"n\":[]}"
        );
    }
}

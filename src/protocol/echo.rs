//! Input shown back in a report, and the text of an `info string`: control characters escaped
//! and the length bounded, so nothing the GUI sent (or another layer quotes) can upset its
//! reader. A leaf: the option table, the command parser and the output all use it.

/// Most characters of the GUI's input shown back in a report ([`echo`]).
pub const ECHO_CHARS: usize = 80;
/// Most characters of an `info string`'s text: a bound for what other layers' errors quote
/// (a FEN field, a move word) and [`echo`] cannot reach.
pub const INFO_CHARS: usize = 400;

/// Input shown back in a report: control characters escaped (`\x00`, `\x1b`: a raw NUL or
/// escape can upset a GUI's reader or a terminal) and cut to [`ECHO_CHARS`] characters with
/// `...` and the whole length, so a 20 MB line is not sent back whole. Every echo of input
/// goes through here.
pub fn echo(text: &str) -> String {
    shorten(text, ECHO_CHARS)
}

/// The text of an `info string`: one line (control characters, newlines among them, escaped)
/// of at most [`INFO_CHARS`] characters.
pub fn info_text(text: &str) -> String {
    shorten(text, INFO_CHARS)
}

/// `text` with control characters escaped, cut to `max` characters (`... (N characters)`).
fn shorten(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (shown, c) in text.chars().enumerate() {
        if shown == max {
            out.push_str(&format!("... ({} characters)", text.chars().count()));
            break;
        }
        // Unicode's control characters are all below U+0100.
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_short_and_escaped() {
        assert_eq!(echo("frobnicate"), "frobnicate");
        assert_eq!(
            echo("a\u{0}b\u{1b}[2J\u{7f}\r"),
            "a\\x00b\\x1b[2J\\x7f\\x0d"
        );
        assert_eq!(echo("\u{85}车"), "\\x85车");
        let long = "x".repeat(20_000_000);
        let shown = echo(&long);
        assert_eq!(
            shown,
            format!("{}... (20000000 characters)", "x".repeat(80))
        );
        let exact = "y".repeat(ECHO_CHARS);
        assert_eq!(echo(&exact), exact);
        // Cut on characters, never inside one.
        let wide = "炮".repeat(100);
        assert!(echo(&wide).starts_with(&"炮".repeat(80)));
        assert!(info_text(&long).chars().count() < INFO_CHARS + 40);
        assert_eq!(info_text("two\nlines"), "two\\x0alines");
    }
}

//! Lengths as the platform (JavaScript) counts them: UTF-16 code units.

/// The length of `s` in UTF-16 code units.
pub(crate) fn len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The longest prefix of `s` of at most `max` UTF-16 code units that ends on a code point
/// boundary, or `None` when `s` already fits.
///
/// A cut never splits a surrogate pair: a character that would straddle the cap is left
/// out whole, so the prefix may be one unit shorter than `max`.
pub(crate) fn truncate(s: &str, max: usize) -> Option<&str> {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > max {
            return Some(&s[..i]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_code_units() {
        assert_eq!(len(""), 0);
        assert_eq!(len("abc"), 3);
        assert_eq!(len("é"), 1);
        assert_eq!(len("😀"), 2);
    }

    #[test]
    fn cuts_on_code_points() {
        assert_eq!(truncate("abc", 3), None);
        assert_eq!(truncate("abcd", 3), Some("abc"));
        // The emoji would need units 3 and 4 of a 3-unit cap: it goes whole.
        assert_eq!(truncate("ab😀", 3), Some("ab"));
        assert_eq!(truncate("ab😀", 4), None);
        assert_eq!(truncate("éé", 1), Some("é"));
    }
}

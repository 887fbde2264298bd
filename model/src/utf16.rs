//! Lengths and cuts as the platform (JavaScript) counts them: UTF-16 code units. The one
//! count and the one cut: the remote profile's description caps and the result engine's
//! bounds (`neuralis_core::result`) both use them.

/// The length of `s` in UTF-16 code units (`"a😀".length == 3` in JavaScript).
///
/// ```
/// use neuralis_model::utf16::utf16_len;
/// assert_eq!(utf16_len("a😀"), 3);
/// assert_eq!(utf16_len("é"), 1);
/// ```
#[must_use]
pub fn utf16_len(s: &str) -> usize {
    // Every byte that starts a character counts one unit; a four-byte leader (a character
    // outside the BMP, a surrogate pair in UTF-16) counts one more.
    // Counted in chunks with a byte-wide accumulator (at most 2 per byte, so 127 bytes
    // cannot overflow it), which the compiler turns into wide vector code.
    s.as_bytes()
        .chunks(127)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| {
                n + u8::from((b & 0xC0) != 0x80) + u8::from(b >= 0xF0)
            });
            usize::from(n)
        })
        .sum()
}

/// The byte index where the longest prefix of `s` with at most `max_units` UTF-16 units
/// ends. The cut falls on a character boundary, so a surrogate pair is never split.
///
/// ```
/// use neuralis_model::utf16::utf16_prefix_end;
/// let s = "ab😀c";
/// assert_eq!(&s[..utf16_prefix_end(s, 3)], "ab"); // 😀 needs two units
/// assert_eq!(&s[..utf16_prefix_end(s, 4)], "ab😀");
/// ```
#[must_use]
pub fn utf16_prefix_end(s: &str, max_units: usize) -> usize {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > max_units {
            return i;
        }
    }
    s.len()
}

/// The longest prefix of `s` of at most `max` UTF-16 code units, or `None` when `s`
/// already fits ([`utf16_prefix_end`]: a character that would straddle the cap is left
/// out whole, so the prefix may be one unit shorter than `max`).
///
/// ```
/// use neuralis_model::utf16::utf16_truncate;
/// assert_eq!(utf16_truncate("abc", 3), None);
/// assert_eq!(utf16_truncate("ab😀", 3), Some("ab"));
/// ```
#[must_use]
pub fn utf16_truncate(s: &str, max: usize) -> Option<&str> {
    let end = utf16_prefix_end(s, max);
    s.get(..end).filter(|_| end < s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_code_units() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é"), 1);
        assert_eq!(utf16_len("😀"), 2);
        let long = "aé😀".repeat(100);
        assert_eq!(
            utf16_len(&long),
            long.chars().map(char::len_utf16).sum::<usize>()
        );
    }

    #[test]
    fn cuts_on_code_points() {
        assert_eq!(utf16_truncate("abc", 3), None);
        assert_eq!(utf16_truncate("abcd", 3), Some("abc"));
        // The emoji would need units 3 and 4 of a 3-unit cap: it goes whole.
        assert_eq!(utf16_truncate("ab😀", 3), Some("ab"));
        assert_eq!(utf16_truncate("ab😀", 4), None);
        assert_eq!(utf16_truncate("éé", 1), Some("é"));
    }
}

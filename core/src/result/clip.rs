//! A string's clip plans and its JSON-escaped length: where a string over its caps is cut
//! (in UTF-16 code units, as the platform counts them, and in escaped bytes), and what the
//! kept prefix and its marker weigh once written. The count and the cut themselves are
//! `neuralis_model::utf16`'s.

pub use neuralis_model::utf16::{utf16_len, utf16_prefix_end};

/// The byte length of `s` once escaped as a JSON string body (no quotes), exactly as
/// `serde_json` writes it.
#[must_use]
pub(crate) fn escaped_len(s: &str) -> usize {
    s.as_bytes()
        .iter()
        .map(|&b| usize::from(ESCAPED[b as usize]))
        .sum()
}

/// UTF-16 length and escaped byte length of `s` in one pass, branch-free over chunks
/// with byte-wide accumulators (at most 2 units and 5 extra escape bytes per byte, so 51
/// bytes cannot overflow them) so that it vectorizes.
pub(crate) fn scan(s: &str) -> (usize, usize) {
    let mut units = 0;
    let mut extra = 0;
    for chunk in s.as_bytes().chunks(51) {
        let (u, e) = chunk.iter().fold((0u8, 0u8), |(u, e), &b| {
            let short = u8::from(matches!(b, 0x08 | 0x09 | 0x0A | 0x0C | 0x0D));
            let control = u8::from(b < 0x20);
            (
                u + u8::from((b & 0xC0) != 0x80) + u8::from(b >= 0xF0),
                e + u8::from(b == b'"') + u8::from(b == b'\\') + control * 5 - short * 4,
            )
        });
        units += usize::from(u);
        extra += usize::from(e);
    }
    (units, s.len() + extra)
}

/// One character's escaped byte length.
fn escaped_char_len(c: char) -> usize {
    if c.is_ascii() {
        usize::from(ESCAPED[c as usize])
    } else {
        c.len_utf8()
    }
}

/// Escaped byte length of each byte value, as `serde_json` escapes it.
static ESCAPED: [u8; 256] = {
    let mut t = [1u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = 6; // \u00XX
        i += 1;
    }
    t[0x08] = 2; // \b
    t[0x09] = 2; // \t
    t[0x0A] = 2; // \n
    t[0x0C] = 2; // \f
    t[0x0D] = 2; // \r
    t[b'"' as usize] = 2;
    t[b'\\' as usize] = 2;
    t
};

/// The marker appended to clipped text: `… [truncated: 50000 → 8000 characters]`.
///
/// Both counts are UTF-16 code units; `kept` excludes the marker itself.
#[must_use]
pub fn truncation_marker(original: usize, kept: usize) -> String {
    format!("… [truncated: {original} → {kept} characters]")
}

/// How a string is clipped, computed without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clip {
    /// Byte index where the kept prefix ends.
    pub end: usize,
    /// Original length in UTF-16 units.
    pub original: usize,
    /// Kept length in UTF-16 units (without the marker).
    pub kept: usize,
    /// Escaped byte length of the kept prefix.
    pub kept_escaped: usize,
    /// Whether the marker is appended (there was room for it).
    pub marker: bool,
}

impl Clip {
    /// Escaped byte length of the clipped string, without quotes.
    pub fn escaped_len(&self) -> usize {
        self.kept_escaped
            + if self.marker {
                truncation_marker(self.original, self.kept).len()
            } else {
                0
            }
    }

    /// The clipped string.
    pub fn apply(&self, s: &str) -> String {
        let mut out = s[..self.end].to_owned();
        if self.marker {
            out.push_str(&truncation_marker(self.original, self.kept));
        }
        out
    }

    /// Clips `s` (the string this clip was planned for) in place, as [`apply`](Self::apply)
    /// would, releasing the memory the cut freed when it was most of the string.
    pub fn apply_in_place(&self, s: &mut String) {
        s.truncate(self.end);
        if self.marker {
            s.push_str(&truncation_marker(self.original, self.kept));
        }
        if s.capacity() / 2 > s.len() {
            s.shrink_to_fit();
        }
    }
}

/// Plans clipping `s` to at most `max_units` UTF-16 units and at most `max_escaped` bytes
/// of escaped JSON (without quotes), the marker included when there is room for it and at
/// least a cut to state. `None` when `s` already fits.
pub(crate) fn plan_clip(s: &str, max_units: usize, max_escaped: usize) -> Option<Clip> {
    plan_clip_of(s, utf16_len(s), max_units, max_escaped)
}

/// [`plan_clip`] of a string whose length in UTF-16 units (`original`) is known.
pub(crate) fn plan_clip_of(
    s: &str,
    original: usize,
    max_units: usize,
    max_escaped: usize,
) -> Option<Clip> {
    if original <= max_units && (max_escaped == usize::MAX || escaped_len(s) <= max_escaped) {
        return None;
    }
    // Digits of `kept` never exceed those of `original`, so this bounds the real marker.
    let widest = truncation_marker(original, original);
    let marker_units = utf16_len(&widest);
    let marker_bytes = widest.len();
    let marker = max_units > marker_units && max_escaped > marker_bytes;
    let (unit_room, byte_room) = if marker {
        (max_units - marker_units, max_escaped - marker_bytes)
    } else {
        (max_units, max_escaped)
    };
    let mut units = 0;
    let mut bytes = 0;
    let mut end = s.len();
    for (i, c) in s.char_indices() {
        let u = c.len_utf16();
        let b = escaped_char_len(c);
        if units + u > unit_room || bytes + b > byte_room {
            end = i;
            break;
        }
        units += u;
        bytes += b;
    }
    Some(Clip {
        end,
        original,
        kept: units,
        kept_escaped: bytes,
        marker,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_utf16_units() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("€"), 1);
        assert_eq!(utf16_len("😀😀"), 4);
    }

    #[test]
    fn escaped_len_matches_serde_json() {
        for s in [
            "",
            "plain",
            "q\"b\\",
            "\u{0}\u{1f}\n\t\r\u{8}\u{c}",
            "é😀\u{7f}",
        ] {
            let json = serde_json::to_string(s).expect("a string serializes");
            assert_eq!(escaped_len(s) + 2, json.len(), "{s:?}");
            assert_eq!(scan(s), (utf16_len(s), json.len() - 2), "{s:?}");
            let long = s.repeat(40);
            let json = serde_json::to_string(&long).expect("a string serializes");
            assert_eq!(scan(&long), (utf16_len(&long), json.len() - 2), "{s:?}");
            let expected: usize = long.chars().map(char::len_utf16).sum();
            assert_eq!(utf16_len(&long), expected);
        }
    }

    #[test]
    fn clip_keeps_surrogate_pairs_whole_and_states_counts() {
        let s = "😀".repeat(100);
        let clip = plan_clip(&s, 60, usize::MAX).expect("over the cap");
        let out = clip.apply(&s);
        assert!(utf16_len(&out) <= 60);
        assert!(out.ends_with(&truncation_marker(200, clip.kept)));
        assert_eq!(clip.kept % 2, 0);
        assert!(plan_clip(&out, 60, usize::MAX).is_none());
    }

    #[test]
    fn clip_without_room_for_marker_cuts_plainly() {
        let clip = plan_clip("abcdefghij", 4, usize::MAX).expect("over the cap");
        assert_eq!(clip.apply("abcdefghij"), "abcd");
        assert!(plan_clip("abcd", 4, usize::MAX).is_none());
    }
}

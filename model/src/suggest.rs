//! The one suggestion rule of the toolkit ("did you mean"): the checker's messages, the
//! macros' attribute keys and values, the build script's crate names, and the `const`
//! checks `#[tool]` expands to (a key of `ask_on_keys`, `defaults` or `bound(more = ...)`
//! that is no root property) all suggest by [`suggestion_distance`].

/// The known name closest to `key`, when it is close enough to be a likely typo: the
/// same name in another case, or one within a third of its length in edits (at least one;
/// a name under three characters only in case). The one suggestion rule of the toolkit:
/// the checker's messages, the macros' attribute keys and values, the build script's
/// crate names.
///
/// ```
/// use neuralis_model::suggest::did_you_mean;
/// assert_eq!(did_you_mean("minimun", &["minimum", "maximum"]), Some("minimum"));
/// assert_eq!(did_you_mean("ASKONKEYS", &["askOnKeys"]), Some("askOnKeys"));
/// assert_eq!(did_you_mean("ui", &["id"]), None);
/// ```
#[must_use]
pub fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .filter_map(|k| suggestion_distance(key, k).map(|d| (d, *k)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// The longest name, in characters, that a suggestion is computed for by edits (a
/// longer one is suggested only for a case difference).
const LONGEST: usize = 64;

/// How far `candidate` is from `key` when it is close enough to suggest ([`did_you_mean`]'s
/// rule): 0 for the same name in another case, else the Levenshtein distance over
/// characters when within a third of the candidate's length (at least one; a name under
/// three characters only in case). `const`, so the `#[tool]` checks that run when a crate
/// compiles suggest by the same rule (`shape::undeclared_key_message`).
#[must_use]
pub const fn suggestion_distance(key: &str, candidate: &str) -> Option<usize> {
    if eq_ignore_ascii_case(key, candidate) {
        return Some(0);
    }
    let (a, la) = chars(key);
    let (b, lb) = chars(candidate);
    let (Some(la), Some(lb)) = (la, lb) else {
        return None;
    };
    let limit = if lb < 3 {
        0
    } else if lb / 3 > 1 {
        lb / 3
    } else {
        1
    };
    // Levenshtein distance, one row at a time.
    let mut row = [0usize; LONGEST + 1];
    let mut j = 0;
    while j <= lb {
        row[j] = j;
        j += 1;
    }
    let mut i = 0;
    while i < la {
        let mut diag = row[0];
        row[0] = i + 1;
        let mut j = 0;
        while j < lb {
            let up = row[j + 1];
            row[j + 1] = if a[i] == b[j] {
                diag
            } else {
                let mut m = if diag < up { diag } else { up };
                if row[j] < m {
                    m = row[j];
                }
                1 + m
            };
            diag = up;
            j += 1;
        }
        i += 1;
    }
    if row[lb] <= limit {
        Some(row[lb])
    } else {
        None
    }
}

/// Whether `a` and `b` are the same ignoring ASCII case (`str::eq_ignore_ascii_case`,
/// which is `const` only from Rust 1.89).
#[must_use]
pub const fn eq_ignore_ascii_case(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// The characters of `s` (decoded from UTF-8), and how many: `None` past [`LONGEST`].
const fn chars(s: &str) -> ([u32; LONGEST], Option<usize>) {
    let bytes = s.as_bytes();
    let mut out = [0u32; LONGEST];
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        if n == LONGEST {
            return (out, None);
        }
        let b = bytes[i];
        let (mut c, len) = if b < 0x80 {
            (b as u32, 1)
        } else if b >> 5 == 0b110 {
            ((b & 0x1F) as u32, 2)
        } else if b >> 4 == 0b1110 {
            ((b & 0x0F) as u32, 3)
        } else {
            ((b & 0x07) as u32, 4)
        };
        let mut k = 1;
        while k < len && i + k < bytes.len() {
            c = (c << 6) | (bytes[i + k] & 0x3F) as u32;
            k += 1;
        }
        out[n] = c;
        n += 1;
        i += len;
    }
    (out, Some(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_levenshtein_over_characters_within_the_rule() {
        assert_eq!(suggestion_distance("dry_run", "dryRun"), Some(2));
        assert_eq!(suggestion_distance("DRYRUN", "dryRun"), Some(0));
        assert_eq!(suggestion_distance("curser", "cursor"), Some(1));
        assert_eq!(
            suggestion_distance("ab", "ac"),
            None,
            "short names: case only"
        );
        assert_eq!(suggestion_distance("ünïcode", "unicode"), Some(2));
        assert_eq!(suggestion_distance("colour", "minimum"), None);
        let long = "x".repeat(70);
        assert_eq!(suggestion_distance(&long, &long.to_uppercase()), Some(0));
        assert_eq!(suggestion_distance(&long, &"x".repeat(69)), None);
    }
}

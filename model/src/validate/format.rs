//! The `format`s draft-07 validation asserts, as `jsonschema` asserts them by default for
//! draft-07 (its `idna` feature off): `date`, `time`, `date-time`, `email`, `hostname`,
//! `ipv4`, `ipv6`, `uri`, `uri-reference`, `json-pointer`, `relative-json-pointer`,
//! `regex`. `iri`, `iri-reference` and `uri-template` are asserted too but are not in the
//! subset ([`Format::of`] says so); any other name (`uuid`, a draft-2019 format, a name of
//! the author's) is an annotation.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use super::ecma;

/// An asserted format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Date,
    Time,
    DateTime,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
}

/// What a `format` name means here.
pub(crate) enum Known {
    Asserted(Format),
    /// Asserted by draft-07 validators, but not by this one.
    NotInSubset,
    /// An annotation (unknown to draft-07, or not asserted by default).
    Annotation,
}

impl Format {
    pub(crate) fn of(name: &str) -> Known {
        Known::Asserted(match name {
            "date" => Format::Date,
            "time" => Format::Time,
            "date-time" => Format::DateTime,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "json-pointer" => Format::JsonPointer,
            "relative-json-pointer" => Format::RelativeJsonPointer,
            "regex" => Format::Regex,
            "iri" | "iri-reference" | "uri-template" => return Known::NotInSubset,
            _ => return Known::Annotation,
        })
    }

    pub(crate) fn accepts(self, text: &str) -> bool {
        match self {
            Format::Date => date(text),
            Format::Time => time(text),
            Format::DateTime => date_time(text),
            Format::Email => email(text),
            Format::Hostname => hostname(text),
            Format::Ipv4 => Ipv4Addr::from_str(text).is_ok(),
            Format::Ipv6 => Ipv6Addr::from_str(text).is_ok(),
            Format::Uri => uri(text, true),
            Format::UriReference => uri(text, false),
            Format::JsonPointer => json_pointer(text),
            Format::RelativeJsonPointer => relative_json_pointer(text),
            Format::Regex => ecma::is_valid(text),
        }
    }
}

fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
    })
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a day the month has.
fn date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..]))
    else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let last = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=last).contains(&day)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and an offset; a leap second only at 23:59 UTC.
fn time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let (hour, minute) = (i64::from(hour), i64::from(minute));
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len() && (second != 60 || (hour == 23 && minute == 59)),
        Some(&sign @ (b'+' | b'-')) => {
            let rest = &b[i + 1..];
            if rest.len() != 5 || rest[2] != b':' {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(&rest[..2]), digits(&rest[3..])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            if second != 60 {
                return true;
            }
            let offset = i64::from(oh) * 60 + i64::from(om);
            let local = hour * 60 + minute;
            let utc = if sign == b'+' {
                local - offset
            } else {
                local + offset
            };
            utc.rem_euclid(24 * 60) == 23 * 60 + 59
        }
        _ => false,
    }
}

fn date_time(text: &str) -> bool {
    match text.bytes().position(|b| b == b'T' || b == b't') {
        Some(t) => date(&text[..t]) && time(&text[t + 1..]),
        None => false,
    }
}

fn json_pointer(text: &str) -> bool {
    text.is_empty() || text.strip_prefix('/').is_some_and(pointer_tokens)
}

/// After the leading `/`: `~` only as `~0` or `~1`.
fn pointer_tokens(rest: &str) -> bool {
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

fn relative_json_pointer(text: &str) -> bool {
    let end = text
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(text.len());
    if end == 0 || (end > 1 && text.starts_with('0')) {
        return false;
    }
    let rest = &text[end..];
    rest.is_empty() || rest == "#" || rest.strip_prefix('/').is_some_and(pointer_tokens)
}

fn label_ok(label: &[u8]) -> bool {
    !label.is_empty()
        && label.len() <= 63
        && label[0] != b'-'
        && label[label.len() - 1] != b'-'
        && label
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
}

/// RFC 1123 host names; a label with `--` in its third and fourth places must be an
/// A-label (`xn--` and Punycode that decodes).
fn hostname(text: &str) -> bool {
    let b = text.as_bytes();
    if b.is_empty() || b.len() > 253 || b[b.len() - 1] == b'.' {
        return false;
    }
    b.split(|&c| c == b'.').all(|label| {
        if !label_ok(label) {
            return false;
        }
        if label.len() >= 4 && &label[2..4] == b"--" {
            return label[..2].eq_ignore_ascii_case(b"xn") && punycode_decodes(&label[4..]);
        }
        true
    })
}

/// Whether an RFC 3492 Punycode payload decodes to a non-empty label.
fn punycode_decodes(input: &[u8]) -> bool {
    const BASE: u32 = 36;
    let (basic, extended) = match input.iter().rposition(|&b| b == b'-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (&input[..0], input),
    };
    if !basic.is_ascii() {
        return false;
    }
    let mut length = u32::try_from(basic.len()).unwrap_or(u32::MAX);
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut at = 0;
    while at < extended.len() {
        let old = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let Some(&byte) = extended.get(at) else {
                return false;
            };
            at += 1;
            let digit = match byte {
                b'a'..=b'z' => u32::from(byte - b'a'),
                b'A'..=b'Z' => u32::from(byte - b'A'),
                b'0'..=b'9' => u32::from(byte - b'0') + 26,
                _ => return false,
            };
            let Some(next) = digit.checked_mul(w).and_then(|d| i.checked_add(d)) else {
                return false;
            };
            i = next;
            let t = if k <= bias {
                1
            } else if k >= bias + 26 {
                26
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            let Some(next) = w.checked_mul(BASE - t) else {
                return false;
            };
            w = next;
            k += BASE;
        }
        length += 1;
        // adapt
        let mut delta = if old == 0 {
            (i - old) / 700
        } else {
            (i - old) / 2
        };
        delta += delta / length;
        let mut k = 0;
        while delta > ((BASE - 1) * 26) / 2 {
            delta /= BASE - 1;
            k += BASE;
        }
        bias = k + (BASE * delta) / (delta + 38);
        let Some(next) = n.checked_add(i / length) else {
            return false;
        };
        n = next;
        i %= length;
        if char::from_u32(n).is_none() {
            return false;
        }
        i += 1;
    }
    length > 0
}

/// `local@domain` (RFC 5321): a dot-atom or quoted local part of at most 64 octets; a
/// host name or an address literal (`[1.2.3.4]`, `[IPv6:...]`).
fn email(text: &str) -> bool {
    let Some(at) = text.rfind('@') else {
        return false;
    };
    let (local, domain) = (&text[..at], &text[at + 1..]);
    if local.is_empty() || local.len() > 64 || text.len() > 254 {
        return false;
    }
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        let mut chars = quoted.chars();
        let mut ok = true;
        while let Some(c) = chars.next() {
            match c {
                '\\' => ok &= chars.next().is_some_and(|c| (' '..='~').contains(&c)),
                '"' => ok = false,
                c => ok &= (' '..='~').contains(&c),
            }
        }
        ok
    } else {
        local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b))
        })
    };
    if !local_ok {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
                Ipv6Addr::from_str(&literal[5..]).is_ok()
            }
            _ => Ipv4Addr::from_str(literal).is_ok(),
        };
    }
    hostname(domain)
}

const UNRESERVED_SUB: &[u8] = b"-._~!$&'()*+,;=";

fn reg_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || UNRESERVED_SUB.contains(&b)
}

/// The end of the run from `at` of bytes that `ok` takes or percent-encodings; `None` on a
/// broken percent-encoding.
fn scan(b: &[u8], mut at: usize, ok: impl Fn(u8) -> bool) -> Option<usize> {
    while let Some(&c) = b.get(at) {
        if ok(c) {
            at += 1;
        } else if c == b'%' {
            if !b.get(at + 1..at + 3)?.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            at += 3;
        } else {
            break;
        }
    }
    Some(at)
}

/// RFC 3986 `URI` (`absolute`) or `URI-reference`.
fn uri(text: &str, absolute: bool) -> bool {
    let b = text.as_bytes();
    let scheme = b.first().filter(|c| c.is_ascii_alphabetic()).and_then(|_| {
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
        (b[end] == b':').then_some(end)
    });
    if absolute && scheme.is_none() {
        return false;
    }
    let mut at = scheme.map_or(0, |s| s + 1);
    let pchar = |c: u8| reg_char(c) || c == b':' || c == b'@';
    if b[at..].starts_with(b"//") {
        at += 2;
        let authority_end = b[at..]
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b'#'))
            .map_or(b.len(), |p| at + p);
        if !authority(&b[at..authority_end]) {
            return false;
        }
        at = authority_end;
    } else if scheme.is_none() {
        // A relative reference whose first segment has a colon would read as a scheme.
        let first = b
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b'#'))
            .unwrap_or(b.len());
        if b[..first].contains(&b':') {
            return false;
        }
    }
    let Some(end) = scan(b, at, |c| pchar(c) || c == b'/') else {
        return false;
    };
    at = end;
    let query = |c: u8| pchar(c) || c == b'/' || c == b'?';
    if b.get(at) == Some(&b'?') {
        let Some(end) = scan(b, at + 1, query) else {
            return false;
        };
        at = end;
    }
    if b.get(at) == Some(&b'#') {
        let Some(end) = scan(b, at + 1, query) else {
            return false;
        };
        at = end;
    }
    at == b.len()
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn authority(b: &[u8]) -> bool {
    let (userinfo, host_port) = match b.iter().rposition(|&c| c == b'@') {
        Some(i) => (Some(&b[..i]), &b[i + 1..]),
        None => (None, b),
    };
    if let Some(userinfo) = userinfo
        && scan(userinfo, 0, |c| reg_char(c) || c == b':') != Some(userinfo.len())
    {
        return false;
    }
    let (host_len, port) = if host_port.first() == Some(&b'[') {
        let Some(close) = host_port.iter().position(|&c| c == b']') else {
            return false;
        };
        let literal = &host_port[1..close];
        let Ok(literal) = std::str::from_utf8(literal) else {
            return false;
        };
        if !ip_literal(literal) {
            return false;
        }
        (close + 1, &host_port[close + 1..])
    } else {
        let end = host_port
            .iter()
            .position(|&c| c == b':')
            .unwrap_or(host_port.len());
        if scan(host_port, 0, reg_char) != Some(end) {
            return false;
        }
        (end, &host_port[end..])
    };
    let _ = host_len;
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// `IPv6address` or `IPvFuture` inside brackets.
fn ip_literal(text: &str) -> bool {
    if let Some(rest) = text.strip_prefix(['v', 'V']) {
        let Some((version, tail)) = rest.split_once('.') else {
            return false;
        };
        return !version.is_empty()
            && version.bytes().all(|c| c.is_ascii_hexdigit())
            && !tail.is_empty()
            && tail.bytes().all(|c| reg_char(c) || c == b':');
    }
    Ipv6Addr::from_str(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert!(date("2024-02-29") && !date("2023-02-29") && !date("2024-13-01"));
        assert!(time("23:59:60Z") && !time("22:59:60Z") && time("12:00:00.5+01:00"));
        assert!(time("15:59:60-08:00") && !time("12:00:00"));
        assert!(date_time("1985-04-12T23:20:50.52Z") && !date_time("1985-04-12 23:20:50Z"));
    }

    #[test]
    fn names_and_addresses() {
        assert!(hostname("example.com") && !hostname("-a.com") && !hostname("a..b"));
        assert!(hostname("xn--bcher-kva.example") && !hostname("ab--c.example"));
        assert!(email("a.b@example.com") && !email("a..b@example.com") && !email("ab"));
        assert!(email("\"a b\"@example.com") && email("a@[127.0.0.1]"));
        assert!(uri("https://user@example.com:8080/p?q#f", true));
        assert!(!uri("//example.com", true) && uri("//example.com", false));
        assert!(!uri("http://exa mple.com", true) && !uri("a%2", false));
        assert!(uri("http://[::1]/", true) && !uri("http://[::g]/", true));
        assert!(!uri("1a:b", false) && uri("urn:isbn:0451450523", true));
        assert!(json_pointer("/a~0b") && !json_pointer("a") && !json_pointer("/~2"));
        assert!(relative_json_pointer("0#") && !relative_json_pointer("01/a"));
    }
}

//! Reading a tool file's bytes (`contract::json`) through its public API: the depth
//! limit measured before parsing (its word-wise scan against a byte-at-a-time oracle, by
//! the location `read` reports), the size limit, syntax errors with their locations, and
//! `locate`.

use neuralis_model::RuleId;
use neuralis_model::contract::Location;
use neuralis_model::contract::json::{MAX_DEPTH, MAX_FILE_BYTES, locate, read};

fn nested(levels: usize) -> String {
    let mut s = String::new();
    s.push('{');
    for _ in 1..levels {
        s.push_str("\"a\":{");
    }
    for _ in 0..levels {
        s.push('}');
    }
    s
}

/// The depth scan a byte at a time, skipping ahead to the next interesting byte: the
/// oracle of `read`'s word-wise scan.
fn too_deep_at_bytewise(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let step = bytes[i..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'{' | b'[' | b'}' | b']'))?;
        i += step;
        match bytes[i] {
            b'"' => {
                // Skip the string, escapes included.
                i += 1;
                loop {
                    let step = bytes
                        .get(i..)?
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\')?;
                    i += step;
                    if bytes[i] == b'\\' {
                        i += 2;
                    } else {
                        break;
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            _ => depth = depth.saturating_sub(1),
        }
        i += 1;
    }
    None
}

/// Where `read` says the document goes too deep, if it does.
fn depth_error_at(bytes: &[u8]) -> Option<Location> {
    match read(bytes) {
        Err(e) if e.rule == RuleId::DepthLimit => e.location,
        _ => None,
    }
}

/// The line and column of a byte offset: characters counted, as `read` reports them.
fn location_of(bytes: &[u8], offset: usize) -> Location {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    Location { line, column }
}

#[test]
fn depth_is_measured_before_parsing() {
    assert!(read(nested(128).as_bytes()).is_ok());
    let err = read(nested(129).as_bytes()).expect_err("too deep");
    assert_eq!(err.rule, RuleId::DepthLimit);
}

#[test]
fn the_word_scan_agrees_with_the_byte_scan() {
    let alphabet = b"{}[]\"\\ a\n\xc3\xa9";
    let mut state = 0x5eed_u64;
    let mut too_deep = 0;
    for round in 0..4000 {
        // Half the documents open close to `MAX_DEPTH` levels first.
        let mut doc = if round % 2 == 0 {
            b"[{".repeat(MAX_DEPTH / 2 - 8 + round % 16)
        } else {
            Vec::new()
        };
        for _ in 0..round % 200 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pick = (state >> 33) as usize % alphabet.len();
            doc.push(alphabet[pick]);
        }
        let found = too_deep_at_bytewise(&doc);
        assert_eq!(
            depth_error_at(&doc),
            found.map(|o| location_of(&doc, o)),
            "{doc:?}"
        );
        too_deep += usize::from(found.is_some());
    }
    assert!(
        (100..3900).contains(&too_deep),
        "{too_deep} of 4000 documents went past the limit"
    );
    let deep = nested(200);
    let at = too_deep_at_bytewise(deep.as_bytes()).map(|o| location_of(deep.as_bytes(), o));
    assert!(at.is_some());
    assert_eq!(depth_error_at(deep.as_bytes()), at);
}

#[test]
fn brackets_in_strings_do_not_count() {
    let s = format!("{{\"a\": \"{}\\\"[\"}}", "[".repeat(300));
    assert!(read(s.as_bytes()).is_ok());
}

#[test]
fn size_limit_is_inclusive() {
    let mut ok = b"{}".to_vec();
    ok.resize(MAX_FILE_BYTES, b' ');
    assert!(read(&ok).is_ok());
    ok.push(b' ');
    assert_eq!(read(&ok).expect_err("too big").rule, RuleId::DepthLimit);
}

#[test]
fn syntax_errors_have_locations() {
    for (text, line, column) in [
        (&b""[..], 1, 1),
        (b"  \n ", 1, 1),
        (b"[1]", 1, 1),
        (b"\n 3", 2, 2),
        (b"{\"a\": 1,\n \"a\": 2}", 2, 2),
        (b"{} x", 1, 4),
        (b"{\"a\": \xff}", 1, 7),
    ] {
        let err = read(text).expect_err("refused");
        assert_eq!(err.rule, RuleId::JsonSyntax, "{text:?}");
        assert_eq!(
            err.location,
            Some(Location { line, column }),
            "{text:?}: {}",
            err.message
        );
    }
}

#[test]
fn locate_finds_keys_and_elements() {
    let text = "{\n  \"a\": [1, {\"b~\": \"x\"}, [2]],\n  \"é\": {\"k\\\"\": true}\n}";
    let b = text.as_bytes();
    assert_eq!(locate(b, "/a"), Some(Location { line: 2, column: 3 }));
    assert_eq!(locate(b, "/a/0"), Some(Location { line: 2, column: 9 }));
    assert_eq!(
        locate(b, "/a/1/b~0"),
        Some(Location {
            line: 2,
            column: 13
        })
    );
    assert_eq!(
        locate(b, "/a/2"),
        Some(Location {
            line: 2,
            column: 25
        })
    );
    assert_eq!(locate(b, "/a/3"), None);
    assert_eq!(locate(b, "/é/k\""), Some(Location { line: 3, column: 9 }));
    assert_eq!(locate(b, "/a/01"), None);
    assert_eq!(locate(b, "a"), None);
    assert_eq!(locate(b, "/a/1/b~2"), None);
}

//! Reading a tool file at the byte level: size and depth limits, strict parsing, locations.
//!
//! Everything here is linear in the input and free of recursion that the input controls:
//! [`read`] measures the nesting depth with a byte scan before anything builds a tree (as
//! the contract's `depth-limit` says), then parses a well-formed file once (refusing to open
//! level 129 all the same) and reads any other file again for its one diagnostic, and
//! [`locate`] finds the line and column a JSON pointer names by scanning the text again
//! instead of keeping positions in a second tree.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Value};

use super::diag::{Diagnostic, Location};
use super::rules::RuleId;

/// The largest file the checker reads: 4 MiB (a file of exactly this size is fine).
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// The deepest nesting of objects and arrays the checker reads (the top-level object is
/// level 1).
pub const MAX_DEPTH: usize = 128;

/// Reads the bytes of a tool file into a JSON object.
///
/// Refuses with `depth-limit` a file over [`MAX_FILE_BYTES`] or nested deeper than
/// [`MAX_DEPTH`] (measured before parsing), and with `json-syntax` (with its location)
/// invalid UTF-8, invalid JSON, an empty file, a top level that is not an object,
/// trailing content and duplicate keys.
///
/// ```
/// use neuralis_model::contract::{RuleId, json};
/// assert!(json::read(br#"{"type": "object"}"#).is_ok());
/// let err = json::read(br#"{"a": 1, "a": 2}"#).unwrap_err();
/// assert_eq!(err.rule, RuleId::JsonSyntax);
/// assert_eq!(err.location.map(|l| l.line), Some(1));
/// ```
///
/// # Errors
///
/// The one diagnostic that stops the file from being read.
pub fn read(bytes: &[u8]) -> Result<Value, Box<Diagnostic>> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Box::new(
            Diagnostic::new(RuleId::DepthLimit, "").with_message(format!(
                "the file is {} bytes, over the 4 MiB limit ({MAX_FILE_BYTES} bytes)",
                bytes.len()
            )),
        ));
    }
    // The contract refuses a too-deep document before parsing it into a tree: the depth
    // is measured first, by a byte scan that builds nothing.
    if let Some(offset) = too_deep_at(bytes) {
        return Err(Box::new(
            Diagnostic::new(RuleId::DepthLimit, "")
                .with_message(format!(
                    "the document is nested deeper than {MAX_DEPTH} levels of objects and arrays"
                ))
                .at(location_of(bytes, offset)),
        ));
    }
    // A well-formed file is then parsed once, into maps and arrays sized when they close
    // (the parse refusing to open level `MAX_DEPTH + 1` all the same). Any other file is
    // read again, step by step, for its one diagnostic.
    if let Some(value) = read_well_formed(bytes) {
        return Ok(value);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            return Err(syntax(
                format!("the file is not valid UTF-8 (byte {at})"),
                location_of(bytes, at),
            ));
        }
    };
    let Some(first) = text.bytes().position(|b| !b.is_ascii_whitespace()) else {
        return Err(syntax(
            "the file is empty: a tool file is one JSON object".to_owned(),
            Location { line: 1, column: 1 },
        ));
    };
    if text.as_bytes()[first] != b'{' {
        return Err(syntax(
            describe_start(&text[first..]),
            location_of(bytes, first),
        ));
    }
    parse(text, StrictValue).map_err(|e| syntax_from_serde(text, &e))
}

/// The document, when `bytes` are UTF-8 text holding one JSON object with no key repeated
/// within an object, nested at most [`MAX_DEPTH`] levels deep.
fn read_well_formed(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    let first = text.bytes().find(|b| !b.is_ascii_whitespace())?;
    if first != b'{' {
        return None;
    }
    parse(text, Stacked::default()).ok()
}

/// Parses a tool call's arguments, JSON text, into a tree the way `serde_json` parses a
/// [`Value`] (a repeated key keeps its last value; at most [`MAX_DEPTH`] levels), faster:
/// a top-level object is allocated for `capacity` members (a closed root's property count:
/// the defaults a call adds fit without growing it), every other object and array at its
/// final size when it closes.
///
/// ```
/// use neuralis_model::contract::json;
/// use serde_json::json;
/// let args = json::parse_arguments(r#"{"city": "Porto", "city": "Lisbon"}"#, 1).expect("JSON");
/// assert_eq!(args, json!({"city": "Lisbon"}));
/// assert!(json::parse_arguments("{", 0).is_err());
/// ```
///
/// # Errors
///
/// `serde_json`'s error for text that is not one JSON value, or is nested deeper.
pub fn parse_arguments(text: &str, capacity: usize) -> Result<Value, serde_json::Error> {
    parse(
        text,
        Stacked {
            arguments: Some(capacity),
            ..Stacked::default()
        },
    )
}

/// Parses `text` with the seed `S` (one of the two strict builders).
fn parse<'de, S: DeserializeSeed<'de, Value = Value>>(
    text: &'de str,
    seed: S,
) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    // The depth is bounded by the seed ([`Stacked`]) or was measured before
    // ([`StrictValue`]), so the parser's own limit (127 levels) must not cut in first: a
    // document of exactly 128 levels is fine.
    de.disable_recursion_limit();
    seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v))
}

fn syntax(message: String, location: Location) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(RuleId::JsonSyntax, "")
            .with_message(message)
            .at(location),
    )
}

fn syntax_from_serde(text: &str, e: &serde_json::Error) -> Box<Diagnostic> {
    let message = e.to_string();
    // serde_json appends " at line L column C"; the location is carried separately.
    let message = message
        .rfind(" at line ")
        .map_or(message.as_str(), |i| &message[..i]);
    let mut offset = byte_offset(text, e.line(), e.column());
    if message.starts_with(DUPLICATE) {
        // serde_json stops on the key's closing quote: point at its opening one instead.
        offset = key_start(text.as_bytes(), offset);
    }
    syntax(
        format!("invalid JSON: {message}"),
        location_of(text.as_bytes(), offset),
    )
}

const DUPLICATE: &str = "duplicate key";

/// The byte offset of serde_json's position (line from 1, column in bytes from 1).
fn byte_offset(text: &str, line: usize, byte_column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    (start + byte_column.saturating_sub(1)).min(text.len())
}

/// The offset of the opening quote of the key whose closing quote is at `end`.
fn key_start(bytes: &[u8], end: usize) -> usize {
    let mut i = end.min(bytes.len());
    while i > 0 {
        i -= 1;
        if bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            return i;
        }
    }
    end
}

/// Why a text that does not start with `{` is not a tool file.
fn describe_start(text: &str) -> String {
    let what = match text.as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "`null`",
        Some(b'-' | b'0'..=b'9') => "a number",
        _ if text.starts_with('\u{feff}') => {
            return "the file starts with a byte order mark: save it as UTF-8 without one"
                .to_owned();
        }
        _ => return "invalid JSON: the file does not start with a JSON object".to_owned(),
    };
    format!("the top level is {what}, not a JSON object")
}

/// The offset of the first bracket that opens level `MAX_DEPTH + 1`, if any.
///
/// Inside a string only `"` and `\\` matter, outside only `"` and brackets, so each state
/// skips ahead to its next interesting byte, eight bytes at a time ([`Interesting`]).
fn too_deep_at(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    loop {
        i = Interesting::next(bytes, i, in_string)?;
        match bytes[i] {
            b'\\' => i += 1,
            b'"' => in_string = !in_string,
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
}

/// Finding the next byte the depth scan looks at, a 64-bit word at a time: the classic
/// "has a zero byte" test on the word XORed with each wanted byte. The test can flag a
/// byte above a real match (a borrow), never below one, so the lowest flag is exact.
struct Interesting;

impl Interesting {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    fn zero_bytes(w: u64) -> u64 {
        w.wrapping_sub(Self::ONES) & !w & Self::HIGHS
    }

    fn of(byte: u8) -> u64 {
        Self::ONES * u64::from(byte)
    }

    /// Flags in `w`: `"` and `\\` inside a string; `"`, `{`, `[`, `}`, `]` outside (a
    /// bracket is `{` or `}` once bit 5 is set: `[` is 0x5B, `{` 0x7B).
    fn flags(w: u64, in_string: bool) -> u64 {
        let quote = Self::zero_bytes(w ^ Self::of(b'"'));
        if in_string {
            return quote | Self::zero_bytes(w ^ Self::of(b'\\'));
        }
        let folded = w | Self::of(0x20);
        quote
            | Self::zero_bytes(folded ^ Self::of(b'{'))
            | Self::zero_bytes(folded ^ Self::of(b'}'))
    }

    fn wanted(b: u8, in_string: bool) -> bool {
        if in_string {
            matches!(b, b'"' | b'\\')
        } else {
            matches!(b, b'"' | b'{' | b'[' | b'}' | b']')
        }
    }

    /// The offset of the first wanted byte at or after `from`.
    fn next(bytes: &[u8], mut from: usize, in_string: bool) -> Option<usize> {
        while let Some(word) = bytes.get(from..from + 8) {
            let mut le = [0u8; 8];
            le.copy_from_slice(word);
            let flags = Self::flags(u64::from_le_bytes(le), in_string);
            if flags != 0 {
                return Some(from + (flags.trailing_zeros() / 8) as usize);
            }
            from += 8;
        }
        let tail = bytes.get(from..)?;
        tail.iter()
            .position(|&b| Self::wanted(b, in_string))
            .map(|at| from + at)
    }
}

/// Builds a [`Value`] like serde_json does, but refuses a key repeated within one object.
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// The arms of a `Value` visitor that every one of this module's has alike: its
/// expectation and the scalars (a JSON number is finite, and `serde_json` refuses an
/// out-of-range one itself).
macro_rules! scalar_visits {
    () => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
        }

        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_owned()))
        }

        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }

        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
    };
}

impl<'de> Visitor<'de> for StrictValue {
    type Value = Value;

    scalar_visits!();

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(StrictValue)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match out.entry(key) {
                Entry::Vacant(slot) => {
                    slot.insert(map.next_value_seed(StrictValue)?);
                }
                Entry::Occupied(slot) => {
                    return Err(de::Error::custom(format_args!(
                        "{DUPLICATE} `{}` in one object",
                        slot.key()
                    )));
                }
            }
        }
        Ok(Value::Object(out))
    }
}

/// Builds the same [`Value`] as [`StrictValue`], faster: the members of the objects and
/// the items of the arrays being read wait on one shared stack, and each object or array
/// is allocated at its final size when it closes (instead of growing, and rehashing, as
/// its members arrive). A repeated key is refused when its object closes, so the error's
/// position is not the key's: [`read`] then parses again with [`StrictValue`].
#[derive(Default)]
struct Stacked {
    members: Vec<(String, Value)>,
    items: Vec<Value>,
    /// How many objects and arrays are open.
    depth: usize,
    /// Reading a call's arguments, with the capacity of their top-level object: that
    /// object's members are inserted as they arrive (no stack between), and in every
    /// object a repeated key replaces the earlier value (`serde_json`'s rule for a
    /// `Value`) instead of being refused.
    arguments: Option<usize>,
}

impl Stacked {
    /// Opens one more object or array, refusing level `MAX_DEPTH + 1`.
    fn open<E: de::Error>(&mut self) -> Result<(), E> {
        if self.depth == MAX_DEPTH {
            return Err(E::custom("too deep"));
        }
        self.depth += 1;
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Stacked {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(mut self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StackedSeed(&mut self))
    }
}

/// [`Stacked`]'s seed for one value, borrowing the shared stacks.
struct StackedSeed<'s>(&'s mut Stacked);

impl<'de> DeserializeSeed<'de> for StackedSeed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StackedSeed<'_> {
    type Value = Value;

    scalar_visits!();

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let stacks = self.0;
        stacks.open()?;
        let base = stacks.items.len();
        while let Some(v) = seq.next_element_seed(StackedSeed(&mut *stacks))? {
            stacks.items.push(v);
        }
        stacks.depth -= 1;
        Ok(Value::Array(stacks.items.drain(base..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let stacks = self.0;
        stacks.open()?;
        if stacks.depth == 1
            && let Some(capacity) = stacks.arguments
        {
            // The top level of a call's arguments.
            let mut out = Map::with_capacity(capacity);
            while let Some(key) = map.next_key::<String>()? {
                let value = map.next_value_seed(StackedSeed(&mut *stacks))?;
                out.insert(key, value);
            }
            stacks.depth -= 1;
            return Ok(Value::Object(out));
        }
        let base = stacks.members.len();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(StackedSeed(&mut *stacks))?;
            stacks.members.push((key, value));
        }
        stacks.depth -= 1;
        let mut out = Map::with_capacity(stacks.members.len() - base);
        for (key, value) in stacks.members.drain(base..) {
            if out.insert(key, value).is_some() && stacks.arguments.is_none() {
                return Err(de::Error::custom(DUPLICATE));
            }
        }
        Ok(Value::Object(out))
    }
}

/// The line and column (from 1, columns in characters) of byte `offset` in `bytes`.
fn location_of(bytes: &[u8], offset: usize) -> Location {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    // Count characters: every byte that does not continue a UTF-8 sequence starts one.
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    Location { line, column }
}

/// The line and column of what `pointer` names in the JSON text `bytes`: the key, for an
/// object member, or the value, for an array element or the whole document (`""`).
///
/// Works on the text alone, without building a tree, and never panics: it returns `None`
/// when the pointer is malformed or names nothing, or the text is not JSON.
///
/// ```
/// use neuralis_model::contract::{Location, json::locate};
/// let text = b"{\n  \"properties\": {\n    \"a/b\": {}\n  }\n}";
/// assert_eq!(locate(text, "/properties/a~1b"), Some(Location { line: 3, column: 5 }));
/// assert_eq!(locate(text, ""), Some(Location { line: 1, column: 1 }));
/// assert_eq!(locate(text, "/nope"), None);
/// ```
#[must_use]
pub fn locate(bytes: &[u8], pointer: &str) -> Option<Location> {
    let tokens = parse_pointer(pointer)?;
    let mut s = Scanner { bytes, pos: 0 };
    s.skip_ws();
    let mut at = s.pos;
    for token in &tokens {
        s.skip_ws();
        match s.peek()? {
            b'{' => {
                s.pos += 1;
                at = s.find_member(token)?;
            }
            b'[' => {
                s.pos += 1;
                let index = parse_index(token)?;
                s.find_element(index)?;
                at = s.pos;
            }
            _ => return None,
        }
    }
    if at >= bytes.len() {
        return None;
    }
    Some(location_of(bytes, at))
}

/// Splits an RFC 6901 pointer into its unescaped reference tokens.
fn parse_pointer(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut out = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next()? {
                        '0' => out.push('~'),
                        '1' => out.push('/'),
                        _ => return None,
                    }
                } else {
                    out.push(c);
                }
            }
            Some(out)
        })
        .collect()
}

fn parse_index(token: &str) -> Option<usize> {
    if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        self.skip_ws();
        (self.peek()? == b).then(|| self.pos += 1)
    }

    /// After `{`: finds the member named `key`; returns the key's offset and leaves the
    /// scanner at its value.
    fn find_member(&mut self, key: &str) -> Option<usize> {
        loop {
            self.skip_ws();
            match self.peek()? {
                b'}' => return None,
                b',' => {
                    self.pos += 1;
                    continue;
                }
                b'"' => {}
                _ => return None,
            }
            let key_at = self.pos;
            let name = self.string()?;
            self.expect(b':')?;
            self.skip_ws();
            if name == key {
                return Some(key_at);
            }
            self.skip_value()?;
        }
    }

    /// After `[`: moves to element `index`.
    fn find_element(&mut self, index: usize) -> Option<()> {
        for _ in 0..index {
            self.skip_ws();
            if matches!(self.peek()?, b']') {
                return None;
            }
            self.skip_value()?;
            self.expect(b',')?;
        }
        self.skip_ws();
        (!matches!(self.peek()?, b']')).then_some(())
    }

    /// Reads a string token at the cursor, unescaped.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        self.skip_string()?;
        let raw = self.bytes.get(start..self.pos)?;
        if raw.contains(&b'\\') {
            serde_json::from_slice(raw).ok()
        } else {
            std::str::from_utf8(raw.get(1..raw.len() - 1)?)
                .ok()
                .map(str::to_owned)
        }
    }

    /// Skips a string token at the cursor (which is on its opening quote).
    fn skip_string(&mut self) -> Option<()> {
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => self.pos += 1,
            }
        }
    }

    /// Skips one value at the cursor, nested ones included, without recursion.
    fn skip_value(&mut self) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => self.skip_string()?,
                        b'{' | b'[' => {
                            depth += 1;
                            self.pos += 1;
                        }
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            self.pos += 1;
                            if depth == 0 {
                                return Some(());
                            }
                        }
                        _ => self.pos += 1,
                    }
                }
            }
            _ => {
                while let Some(b) = self.peek() {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.pos += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn both_builders_build_the_same_tree() {
        let texts = [
            "{}",
            r#"{"a": [], "b": {}, "c": [[], [{}], {"x": []}]}"#,
            r#"{"z": 1, "a": -2, "m": 1.5, "k": 1e300, "s": "\u00e9\"", "t": true, "n": null}"#,
            r#"{"p": {"q": {"r": [1, {"s": [2, 3, {"t": "u"}]}, 4]}, "v": [5]}, "w": "x"}"#,
        ];
        for text in texts {
            let stacked = parse(text, Stacked::default()).expect("parses");
            let strict = parse(text, StrictValue).expect("parses");
            assert_eq!(stacked, strict, "{text}");
            let keys: Vec<_> = stacked.as_object().expect("object").keys().collect();
            let order: Vec<_> = strict.as_object().expect("object").keys().collect();
            assert_eq!(keys, order, "{text}: document order");
        }
        // The stacked parse never opens level `MAX_DEPTH + 1` (the strict one relies on the
        // byte scan that runs before it).
        assert!(parse(&nested(MAX_DEPTH), Stacked::default()).is_ok());
        assert!(parse(&nested(MAX_DEPTH + 1), Stacked::default()).is_err());
        let arrays = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert!(parse(&arrays, Stacked::default()).is_err());
        // A key repeated deep inside is refused by both, and located by the strict one.
        let text = "{\"a\": [{\"b\": {\"c\": 1,\n \"c\": 2}}]}";
        assert!(parse(text, Stacked::default()).is_err());
        let err = read(text.as_bytes()).expect_err("refused");
        assert_eq!(err.location, Some(Location { line: 2, column: 2 }));
        assert!(err.message.contains("duplicate key `c`"), "{}", err.message);
    }
}

//! Arguments read from JSON text straight into the input type, checked against the
//! tool's schema as they are read: no tree is built for a call that passes.
//!
//! The reader is allowed to give up, never to differ. Whenever it is not sure that the
//! tree path (parse, defaults, `Validator::is_valid`, the tree read by [`Args`]) would
//! accept the text and give the same input, it stops ([`read_text`] gives `None`) and the
//! pipeline takes the tree path, which writes any refusal with its pointers and messages.
//! So it gives up on: text `serde_json` might read otherwise (a repeated key, a lone
//! surrogate, an integer beyond 64 bits, `-0`, nesting deeper than [`NEST`]); any value
//! that does not pass; anything the input type refuses; a visitor that stops before an
//! object's end. Each scalar is checked by the validator's own walk
//! ([`Validator::accepts`] on the scalar as a `Value`) and then read by the tree's rules
//! (the source gives [`Args`] the value, its methods read it); objects and arrays are
//! checked member by member ([`ObjectPlan`], [`ArrayPlan`]), the top-level object's
//! defaults given after its members; a subschema that cannot be ([`Piece::Whole`]:
//! `oneOf`, `anyOf`...) gets its value built from its text as the tree path builds it,
//! checked whole, and read by the tree's rules.
//!
//! Nothing here is generic over a visitor or a seed: [`At`], [`Members`] and [`Items`]
//! hand [`Args`] a value, an opened object or array, a key or a member, and `Args` (one
//! generic function a method and visitor, as before the text came) reads it.
//!
//! `tests/arguments_text.rs` holds the two paths to one outcome on drawn schemas' values
//! written as texts.

use std::borrow::Cow;

use serde::de::{self, DeserializeOwned};
use serde_json::{Map, Number, Value};

use neuralis_model::contract::json;
use neuralis_model::validate::{ArrayPlan, Member, ObjectPlan, Piece, Spot, Validator};

use super::{Args, Entries, Error, Read, Seq, Src};

/// Objects and arrays nested deeper than this are read as a tree (which takes 128).
const NEST: usize = 64;

/// The most an escaped string's scratch reserves ahead (it grows past it as a `String`
/// does).
const SCRATCH: usize = 64 * 1024;

/// The keys a reader remembers to refuse a repeat beyond the declared properties; an
/// object with more is read as a tree.
const OTHER_KEYS: usize = 256;

/// What a call's text is checked against: the tool's validator and the defaults its
/// top-level object takes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields<'t> {
    pub(crate) validator: &'t Validator,
    pub(crate) defaults: &'t Map<String, Value>,
}

/// Reads `text` (a JSON object) into `T`, checked as it is read, the defaults of
/// `fields` added for the keys it does not send; `None` whenever the tree path must
/// decide (see the [module docs](self)).
pub(crate) fn read_text<T: DeserializeOwned>(text: &str, fields: Fields<'_>) -> Option<T> {
    let validator = fields.validator;
    let root = validator.root();
    let mut reader = Reader {
        text,
        pos: 0,
        validator,
        defaults: Some(fields.defaults),
        nest: 0,
        scratch: String::new(),
    };
    if reader.peek() != Some(b'{') {
        return None;
    }
    let at = At {
        r: &mut reader,
        spot: root,
    };
    let input = T::deserialize(Args(Src::Text(at))).ok()?;
    reader.at_end().then_some(input)
}

/// Whether every default passes at the top-level member it fills, which the reader
/// takes as given (decided once, when the tool is built): when one does not, every call
/// is read as a tree, which refuses the calls that leave it out.
pub(crate) fn defaults_pass(validator: &Validator, defaults: &Map<String, Value>) -> bool {
    let (piece, root) = validator.piece(validator.root());
    if defaults.is_empty() || piece == Piece::Any {
        return true;
    }
    let Some(plan) = validator
        .object_plan(root)
        .filter(|_| piece == Piece::Checked)
    else {
        return false;
    };
    defaults.iter().all(|(key, value)| {
        plan.member(key)
            .is_some_and(|m| validator.accepts(m.spot, value))
    })
}

/// The failure of a text read: the tree path decides.
#[cold]
pub(super) fn unread() -> Error {
    de::Error::custom("read again as a tree")
}

/// The text and where the reading is.
pub(crate) struct Reader<'t> {
    text: &'t str,
    pos: usize,
    validator: &'t Validator,
    /// The defaults, until the top-level object takes them.
    defaults: Option<&'t Map<String, Value>>,
    nest: usize,
    /// Where an escaped string is decoded.
    scratch: String,
}

impl<'t> Reader<'t> {
    /// The next byte that is not JSON whitespace (skipped).
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    #[inline]
    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Steps into an object or an array (at its opening byte).
    fn open(&mut self) -> Option<()> {
        if self.nest >= NEST {
            return None;
        }
        self.nest += 1;
        self.pos += 1;
        Some(())
    }

    /// A string (at its opening quote): borrowed when it has no escape, else decoded
    /// into the reader's scratch (one pass) and copied out at its size.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let bytes = self.text.as_bytes();
        let start = self.pos + 1;
        let i = plain_run(bytes, start);
        if bytes.get(i) == Some(&b'"') {
            self.pos = i + 1;
            return Some(Cow::Borrowed(&self.text[start..i]));
        }
        self.escaped(start, i)
    }

    /// The rest of a string from `i`, the end of its plain start (at `start`): an escape
    /// decoded, or `None` for a control character or the text's end.
    #[inline(never)]
    fn escaped(&mut self, start: usize, mut i: usize) -> Option<Cow<'t, str>> {
        let bytes = self.text.as_bytes();
        if bytes.get(i) != Some(&b'\\') {
            return None;
        }
        let out = &mut self.scratch;
        out.clear();
        // Room for the rest of the text (the string is no longer), up to a bound: one
        // allocation a call for most texts, not one a doubling.
        out.reserve((self.text.len() - start).min(SCRATCH));
        out.push_str(&self.text[start..i]);
        loop {
            match *bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    let (c, next) = escape(bytes, i + 1)?;
                    out.push(c);
                    i = next;
                }
                _ => return None,
            }
            let run = plain_run(bytes, i);
            out.push_str(&self.text[i..run]);
            i = run;
        }
        self.pos = i + 1;
        Some(Cow::Owned(out.as_str().to_owned()))
    }

    /// A number (at its first byte), as the tree's parse makes it; `None` for one it
    /// would make otherwise than this reads it (`-0`, beyond 64 bits).
    fn number(&mut self) -> Option<Number> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        let negative = bytes[i] == b'-';
        if negative {
            i += 1;
        }
        match bytes.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => i = digits(bytes, i),
            _ => return None,
        }
        let int_end = i;
        let mut float = false;
        if bytes.get(i) == Some(&b'.') {
            if !bytes.get(i + 1)?.is_ascii_digit() {
                return None;
            }
            i = digits(bytes, i + 1);
            float = true;
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !bytes.get(i)?.is_ascii_digit() {
                return None;
            }
            i = digits(bytes, i);
            float = true;
        }
        self.pos = i;
        if float {
            return serde_json::from_str(&self.text[start..i]).ok();
        }
        if negative {
            let magnitude: u64 = self.text[start + 1..int_end].parse().ok()?;
            if magnitude == 0 || magnitude > i64::MIN.unsigned_abs() {
                return None;
            }
            return Some(Number::from(0_i64.wrapping_sub_unsigned(magnitude)));
        }
        self.text[start..int_end]
            .parse::<u64>()
            .ok()
            .map(Number::from)
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Some(())
        } else {
            None
        }
    }

    /// A scalar (not an object or array), as the tree holds it.
    #[inline]
    fn scalar(&mut self) -> Option<Value> {
        Some(match self.peek()? {
            b'"' => Value::String(self.string()?.into_owned()),
            b't' => self.literal("true").map(|()| Value::Bool(true))?,
            b'f' => self.literal("false").map(|()| Value::Bool(false))?,
            b'n' => self.literal("null").map(|()| Value::Null)?,
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => return None,
        })
    }

    /// Steps over one value, checking only that it is JSON.
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' => {
                self.open()?;
                if !self.eat(b'}') {
                    loop {
                        if self.peek()? != b'"' {
                            return None;
                        }
                        self.string()?;
                        if !self.eat(b':') {
                            return None;
                        }
                        self.skip()?;
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                self.nest -= 1;
            }
            b'[' => {
                self.open()?;
                if !self.eat(b']') {
                    loop {
                        self.skip()?;
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                self.nest -= 1;
            }
            b'"' => {
                self.string()?;
            }
            _ => {
                self.scalar()?;
            }
        }
        Some(())
    }

    /// One value built as the tree's parse builds it, valid at `spot`.
    fn whole(&mut self, spot: Spot) -> Option<Value> {
        self.peek()?;
        let start = self.pos;
        self.skip()?;
        let value = json::parse_arguments(&self.text[start..self.pos], 0).ok()?;
        self.validator.accepts(spot, &value).then_some(value)
    }
}

/// Where the plain run of a string's text from `i` ends: the first quote, backslash or
/// control character (eight bytes at a time, as `serde_json` scans).
fn plain_run(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(i..i + 8) {
        // (A short chunk cannot be: `get` gave eight bytes. Zeros would stop the run.)
        let v = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let quote = v ^ (ONES * u64::from(b'"'));
        let backslash = v ^ (ONES * u64::from(b'\\'));
        // A zero byte in `quote` or `backslash`, or a byte under 0x20 in `v`: the lowest
        // flagged byte is the first such (a borrow only flags bytes above it).
        let found = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (v.wrapping_sub(ONES * 0x20) & !v))
            & HIGH;
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes
        .get(i)
        .is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20)
    {
        i += 1;
    }
    i
}

fn digits(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The escape after a backslash at `i`: the character and where the string goes on.
fn escape(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let c = match bytes.get(i)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(bytes, i + 1)?;
            if (0xDC00..0xE000).contains(&high) {
                return None;
            }
            if !(0xD800..0xDC00).contains(&high) {
                return Some((char::from_u32(high)?, i + 5));
            }
            if bytes.get(i + 5..i + 7)? != b"\\u" {
                return None;
            }
            let low = hex4(bytes, i + 7)?;
            if !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            let c = 0x1_0000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            return Some((char::from_u32(c)?, i + 11));
        }
        _ => return None,
    };
    Some((c, i + 1))
}

fn hex4(bytes: &[u8], i: usize) -> Option<u32> {
    let mut n = 0;
    for &b in bytes.get(i..i + 4)? {
        n = n * 16 + char::from(b).to_digit(16)?;
    }
    Some(n)
}

/// A value in the text and where it is checked: the text source of [`Args`].
pub(crate) struct At<'a, 't> {
    r: &'a mut Reader<'t>,
    spot: Spot,
}

/// What is at the reader, decided against its spot.
enum Here<'t> {
    /// A scalar that passed, or a value checked whole: read as the tree reads it.
    Value(Value),
    /// An object, read member by member (`None`: anything goes).
    Object(Option<ObjectPlan<'t>>),
    /// An array, read element by element.
    Array(Option<ArrayPlan>),
}

impl<'a, 't> At<'a, 't> {
    #[inline]
    fn here(&mut self) -> Result<Here<'t>, Error> {
        let r = &mut *self.r;
        let (piece, spot) = r.validator.piece(self.spot);
        // The top-level object takes the defaults as it is read: member by member.
        let top = r.nest == 0;
        let checked = match piece {
            Piece::Never => return Err(unread()),
            Piece::Whole if top => return Err(unread()),
            Piece::Whole => return r.whole(spot).map(Here::Value).ok_or_else(unread),
            Piece::Any => false,
            Piece::Checked => true,
        };
        match r.peek() {
            Some(b'{') if !checked => Ok(Here::Object(None)),
            Some(b'{') => Ok(match r.validator.object_plan(spot) {
                Some(plan) => Here::Object(Some(plan)),
                None if top => return Err(unread()),
                None => Here::Value(r.whole(spot).ok_or_else(unread)?),
            }),
            Some(b'[') if !checked => Ok(Here::Array(None)),
            Some(b'[') => Ok(match r.validator.array_plan(spot) {
                Some(plan) => Here::Array(Some(plan)),
                None => Here::Value(r.whole(spot).ok_or_else(unread)?),
            }),
            _ => {
                let value = r.scalar().ok_or_else(unread)?;
                if checked && !r.validator.accepts(spot, &value) {
                    return Err(unread());
                }
                Ok(Here::Value(value))
            }
        }
    }

    /// The value here, for a scalar's method: a scalar, or a value checked whole.
    #[inline]
    pub(super) fn value(mut self) -> Result<Value, Error> {
        match self.here()? {
            Here::Value(value) => Ok(value),
            Here::Object(_) | Here::Array(_) => Err(unread()),
        }
    }

    /// What a container's method reads here: a value, or an object or array opened.
    pub(super) fn read(mut self) -> Result<Read<'a, 't>, Error> {
        Ok(match self.here()? {
            Here::Value(value) => Read::Tree(value, None),
            Here::Object(plan) => {
                let r = self.r;
                r.open().ok_or_else(unread)?;
                let defaults = if r.nest == 1 { r.defaults.take() } else { None };
                Read::Entries(Entries::Text(Members {
                    r,
                    plan,
                    seen: 0,
                    others: Vec::new(),
                    first: true,
                    closed: false,
                    ended: false,
                    pending: Pending::None,
                    defaults: defaults.map(|d| d.iter()),
                }))
            }
            Here::Array(plan) => {
                let r = self.r;
                r.open().ok_or_else(unread)?;
                Read::Items(Seq::Text(Items {
                    r,
                    plan,
                    count: 0,
                    first: true,
                    closed: false,
                }))
            }
        })
    }

    /// Whether the value here is a `null` that passes (an `Option`'s `None`).
    pub(super) fn null(&mut self) -> Result<bool, Error> {
        if self.r.peek() != Some(b'n') {
            return Ok(false);
        }
        match self.here()? {
            Here::Value(Value::Null) => Ok(true),
            _ => Err(unread()),
        }
    }
}

/// The value the last key read is waiting for.
enum Pending<'t> {
    None,
    Text(Spot),
    Default(&'t Value),
}

/// The members of an object in the text, then the defaults it did not send.
pub(crate) struct Members<'a, 't> {
    r: &'a mut Reader<'t>,
    plan: Option<ObjectPlan<'t>>,
    /// The declared properties read (bits by index, the first 64).
    seen: u64,
    /// The other keys read.
    others: Vec<String>,
    first: bool,
    /// The text's object is read to its end.
    closed: bool,
    /// The visitor was told there is no more (the defaults given, the object complete).
    ended: bool,
    pending: Pending<'t>,
    defaults: Option<serde_json::map::Iter<'t>>,
}

impl<'t> Members<'_, 't> {
    /// After the visitor: it was told the object ended (so the object was complete).
    pub(super) fn finish(&self) -> Result<(), Error> {
        if self.ended { Ok(()) } else { Err(unread()) }
    }

    /// The member `key` is: `None` for a key the schema refuses.
    #[inline]
    fn member(&self, key: &str) -> Option<Member> {
        match &self.plan {
            Some(plan) => plan.member(key),
            None => Some(Member {
                index: None,
                spot: Spot::any(),
            }),
        }
    }

    /// Notes the member `key` as read; `false` for a repeat (or one key too many).
    #[inline(always)]
    fn note(&mut self, member: Member, key: &str) -> bool {
        match member.index {
            Some(i) if i < 64 => {
                let first = self.seen & (1 << i) == 0;
                self.seen |= 1 << i;
                first
            }
            _ => {
                if self.others.len() >= OTHER_KEYS || self.others.iter().any(|k| k == key) {
                    return false;
                }
                self.others.push(key.to_owned());
                true
            }
        }
    }

    /// The next key of the text: `None` at the end of the object.
    #[inline]
    fn next_text_key(&mut self) -> Result<Option<Cow<'t, str>>, Error> {
        let more = if self.first {
            self.first = false;
            !self.r.eat(b'}')
        } else if self.r.eat(b',') {
            true
        } else if self.r.eat(b'}') {
            false
        } else {
            return Err(unread());
        };
        if !more {
            self.closed = true;
            self.r.nest -= 1;
            return Ok(None);
        }
        if self.r.peek() != Some(b'"') {
            return Err(unread());
        }
        let key = self.r.string().ok_or_else(unread)?;
        if !self.r.eat(b':') {
            return Err(unread());
        }
        Ok(Some(key))
    }

    /// The next key: of the text, then of the defaults it did not send; `None` at the
    /// end of a complete object.
    pub(super) fn next_key(&mut self) -> Result<Option<Cow<'t, str>>, Error> {
        if !matches!(self.pending, Pending::None) {
            return Err(unread());
        }
        if !self.closed
            && let Some(key) = self.next_text_key()?
        {
            match self.member(&key) {
                Some(member) if self.note(member, &key) => {
                    self.pending = Pending::Text(member.spot);
                    return Ok(Some(key));
                }
                _ => return Err(unread()),
            }
        }
        // The defaults pass where they go ([`defaults_pass`], when the tool was built).
        while let Some((key, value)) = self.defaults.as_mut().and_then(Iterator::next) {
            let Some(member) = self.member(key) else {
                return Err(unread());
            };
            if !self.note(member, key) {
                // Sent, or (a key beyond the declared ones) no room left to tell.
                if self.others.len() >= OTHER_KEYS {
                    return Err(unread());
                }
                continue;
            }
            self.pending = Pending::Default(value);
            return Ok(Some(Cow::Borrowed(key)));
        }
        if self.plan.as_ref().is_some_and(|p| !p.complete(self.seen)) {
            return Err(unread());
        }
        self.ended = true;
        Ok(None)
    }

    /// The value of the key read last, to be read.
    pub(super) fn value(&mut self) -> Result<Args<'_, 't>, Error> {
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::Text(spot) => Ok(Args(Src::Text(At {
                r: &mut *self.r,
                spot,
            }))),
            Pending::Default(value) => Ok(Args::new(value.clone())),
            Pending::None => Err(unread()),
        }
    }
}

/// The elements of an array in the text.
pub(crate) struct Items<'a, 't> {
    r: &'a mut Reader<'t>,
    plan: Option<ArrayPlan>,
    count: usize,
    first: bool,
    closed: bool,
}

impl<'t> Items<'_, 't> {
    /// After the visitor: the array's end read (a visitor that takes a known number of
    /// elements does not ask for it).
    pub(super) fn finish(&mut self) -> Result<(), Error> {
        if self.closed || self.close()? {
            Ok(())
        } else {
            Err(unread())
        }
    }

    /// Reads the array's end if it is next: whether it was, its length allowed.
    fn close(&mut self) -> Result<bool, Error> {
        if !self.r.eat(b']') {
            return Ok(false);
        }
        self.closed = true;
        self.r.nest -= 1;
        if self.plan.is_some_and(|p| !p.count_ok(self.count)) {
            return Err(unread());
        }
        Ok(true)
    }

    /// The next element, to be read; `None` at the end of the array.
    pub(super) fn next(&mut self) -> Result<Option<Args<'_, 't>>, Error> {
        if self.closed {
            return Ok(None);
        }
        if self.first {
            self.first = false;
            if self.close()? {
                return Ok(None);
            }
        } else if self.close()? {
            return Ok(None);
        } else if !self.r.eat(b',') {
            return Err(unread());
        }
        self.count += 1;
        let spot = self.plan.map_or_else(Spot::any, |p| p.items());
        Ok(Some(Args(Src::Text(At {
            r: &mut *self.r,
            spot,
        }))))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Validator, defaults_pass};

    fn passes(schema: &Value, defaults: &Value) -> bool {
        let validator = Validator::compile(schema).expect("in the subset");
        let defaults = defaults.as_object().expect("an object");
        defaults_pass(&validator, defaults)
    }

    #[test]
    fn defaults_are_checked_where_they_go() {
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"days": {"type": "integer", "minimum": 1}}
        });
        assert!(passes(&schema, &json!({})));
        assert!(passes(&schema, &json!({"days": 3})));
        assert!(!passes(&schema, &json!({"days": 0})), "below its minimum");
        assert!(
            !passes(&schema, &json!({"weeks": 1})),
            "a key the root refuses"
        );
        assert!(passes(&json!(true), &json!({"days": 0})), "anything goes");
        let whole = json!({"oneOf": [{"type": "object"}, {"type": "array"}]});
        assert!(!passes(&whole, &json!({"days": 3})), "a root read whole");
    }
}

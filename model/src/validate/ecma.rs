//! `pattern` as ECMA-262 reads it, matched by `regex-lite`.
//!
//! JSON Schema patterns are ECMA-262 regular expressions (the platform runs JavaScript).
//! [`parse`] reads the `u`-flag grammar (`Pattern[+UnicodeMode, +NamedCaptureGroups]`),
//! widened as `jsonschema` widens it with the identity escapes of patterns without the
//! flag (a backslash before any character that is not alphanumeric), and writes the
//! same language for `regex-lite`: ECMA `\d` and `\w` are ASCII, as `regex-lite`'s are; `\s`
//! is ECMA's white space and line terminators, `.` anything but a line terminator, `\b`
//! the ASCII word boundary. `regex-lite` matches in time linear in the text (no
//! backtracking), has no Unicode tables and compiles fast; what it cannot run is reported
//! as [`Translation::Unsupported`]: lookaround, backreferences, `\p{...}` property
//! escapes, pattern modifiers (`(?i:...)`) and lone surrogates.

use std::fmt::Write as _;

/// What a pattern reads as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Translation {
    /// The same language, as `regex-lite` syntax.
    Runs(String),
    /// A valid ECMA-262 pattern using a construct `regex-lite` cannot run (named).
    Unsupported(&'static str),
}

/// Not an ECMA-262 pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invalid;

/// Whether `pattern` is a valid ECMA-262 regular expression (the `regex` format).
///
/// The same reading as [`parse`], without writing the translation (the checker asks this
/// of every `pattern` of every tool file it loads).
pub(crate) fn is_valid(pattern: &str) -> bool {
    read(pattern, false).is_ok()
}

/// Reads `pattern` (see the module docs).
pub(crate) fn parse(pattern: &str) -> Result<Translation, Invalid> {
    read(pattern, true)
}

/// Reads `pattern`, writing the translation when `emit`.
fn read(pattern: &str, emit: bool) -> Result<Translation, Invalid> {
    // Sized once: `collect` would grow from a quarter of the length.
    let mut chars = Vec::with_capacity(pattern.len());
    chars.extend(pattern.chars());
    let mut p = Parser {
        chars,
        at: 0,
        emit,
        out: String::with_capacity(if emit { pattern.len() + 8 } else { 0 }),
        unsupported: None,
        groups: 0,
        names: Vec::new(),
        referenced_names: Vec::new(),
        largest_backreference: 0,
    };
    p.disjunction()?;
    if p.at != p.chars.len() {
        return Err(Invalid);
    }
    if p.largest_backreference > p.groups {
        return Err(Invalid);
    }
    if p.referenced_names.iter().any(|n| !p.names.contains(n)) {
        return Err(Invalid);
    }
    Ok(match p.unsupported {
        Some(what) => Translation::Unsupported(what),
        None => Translation::Runs(p.out),
    })
}

/// ECMA-262 `\s`: white space (TAB, VT, FF, SP, NBSP, ZWNBSP, every `Zs`) and line
/// terminators.
const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// Line terminators, which `.` does not match.
const NOT_DOT: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];
const MAX: u32 = 0x10_FFFF;

/// Ranges not in `set` (sorted, disjoint).
fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0;
    for &(lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi + 1;
    }
    if next <= MAX {
        out.push((next, MAX));
    }
    out
}

fn push_char(out: &mut String, c: u32) {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => out.push(ch),
        _ => {
            let _ = write!(out, "\\x{{{c:X}}}");
        }
    }
}

fn push_ranges(out: &mut String, ranges: &[(u32, u32)]) {
    for &(lo, hi) in ranges {
        // Surrogates are no characters: ranges over them are split around them.
        for (lo, hi) in split_surrogates(lo, hi) {
            push_char(out, lo);
            if hi != lo {
                out.push('-');
                push_char(out, hi);
            }
        }
    }
}

fn split_surrogates(lo: u32, hi: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    if lo < 0xD800 {
        out.push((lo, hi.min(0xD7FF)));
    }
    if hi > 0xDFFF {
        out.push((lo.max(0xE000), hi));
    }
    out
}

/// One class item as it is written in a class: ranges, or a (negated) class escape.
enum ClassAtom {
    Char(u32),
    Set(Vec<(u32, u32)>),
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// Whether the translation is written (`out`), or the pattern only checked.
    emit: bool,
    out: String,
    unsupported: Option<&'static str>,
    groups: u32,
    names: Vec<String>,
    referenced_names: Vec<String>,
    largest_backreference: u32,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Result<char, Invalid> {
        let c = self.peek().ok_or(Invalid)?;
        self.at += 1;
        Ok(c)
    }

    fn unsupported(&mut self, what: &'static str) {
        self.unsupported.get_or_insert(what);
    }

    fn disjunction(&mut self) -> Result<(), Invalid> {
        self.alternative()?;
        while self.eat('|') {
            self.out.push('|');
            self.alternative()?;
        }
        Ok(())
    }

    fn alternative(&mut self) -> Result<(), Invalid> {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            self.term()?;
        }
        Ok(())
    }

    fn term(&mut self) -> Result<(), Invalid> {
        let c = self.next()?;
        // Assertions: not quantifiable under the `u` flag.
        match c {
            '^' => {
                self.out.push('^');
                return self.no_quantifier();
            }
            '$' => {
                self.out.push('$');
                return self.no_quantifier();
            }
            '\\' if matches!(self.peek(), Some('b' | 'B')) => {
                let b = self.next()?;
                self.out.push('\\');
                self.out.push(b);
                return self.no_quantifier();
            }
            '(' if self.peek() == Some('?')
                && (matches!(self.peek_at(1), Some('=' | '!'))
                    || (self.peek_at(1) == Some('<')
                        && matches!(self.peek_at(2), Some('=' | '!')))) =>
            {
                self.at += if self.peek_at(1) == Some('<') { 3 } else { 2 };
                self.unsupported("lookaround");
                self.out.push_str("(?:");
                self.disjunction()?;
                if !self.eat(')') {
                    return Err(Invalid);
                }
                self.out.push(')');
                return self.no_quantifier();
            }
            _ => {}
        }
        self.atom(c)?;
        self.quantifier()
    }

    fn no_quantifier(&self) -> Result<(), Invalid> {
        match self.peek() {
            Some('*' | '+' | '?') => Err(Invalid),
            Some('{') if self.braced_ahead() => Err(Invalid),
            _ => Ok(()),
        }
    }

    /// Whether a `{n}`, `{n,}` or `{n,m}` starts here.
    fn braced_ahead(&self) -> bool {
        let mut i = self.at + 1;
        let digits = |i: &mut usize| {
            let start = *i;
            while self.chars.get(*i).is_some_and(char::is_ascii_digit) {
                *i += 1;
            }
            *i > start
        };
        if !digits(&mut i) {
            return false;
        }
        if self.chars.get(i) == Some(&',') {
            i += 1;
            digits(&mut i);
        }
        self.chars.get(i) == Some(&'}')
    }

    fn number(&mut self) -> Result<u64, Invalid> {
        let mut n: u64 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.at += 1;
            any = true;
            n = n.saturating_mul(10).saturating_add(u64::from(d));
        }
        if any { Ok(n) } else { Err(Invalid) }
    }

    fn quantifier(&mut self) -> Result<(), Invalid> {
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.at += 1;
                self.out.push(c);
            }
            Some('{') => {
                if !self.braced_ahead() {
                    // A lone `{` is a syntax error under the `u` flag.
                    return Err(Invalid);
                }
                self.at += 1;
                let lo = self.number()?;
                let hi = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.number()?)
                    }
                } else {
                    Some(lo)
                };
                if !self.eat('}') {
                    return Err(Invalid);
                }
                if hi.is_some_and(|hi| hi < lo) {
                    return Err(Invalid);
                }
                if lo > 1000 || hi.is_some_and(|hi| hi > 1000) {
                    self.unsupported("a repetition count above 1000");
                }
                if self.emit {
                    let _ = match hi {
                        Some(hi) if hi == lo => write!(self.out, "{{{lo}}}"),
                        Some(hi) => write!(self.out, "{{{lo},{hi}}}"),
                        None => write!(self.out, "{{{lo},}}"),
                    };
                }
            }
            _ => return Ok(()),
        }
        if self.eat('?') {
            self.out.push('?');
        }
        // `a**`, `a{2}{3}`: nothing to repeat.
        match self.peek() {
            Some('*' | '+' | '?') => Err(Invalid),
            Some('{') if self.braced_ahead() => Err(Invalid),
            _ => Ok(()),
        }
    }

    fn atom(&mut self, c: char) -> Result<(), Invalid> {
        match c {
            '.' => {
                if self.emit {
                    self.out.push_str("[^");
                    push_ranges(&mut self.out, NOT_DOT);
                    self.out.push(']');
                }
            }
            '(' => self.group()?,
            '[' => self.class()?,
            '\\' => self.atom_escape()?,
            ')' | '*' | '+' | '?' | '{' | '}' | ']' | '|' => return Err(Invalid),
            other => push_char(&mut self.out, u32::from(other)),
        }
        Ok(())
    }

    fn group(&mut self) -> Result<(), Invalid> {
        if self.eat('?') {
            match self.next()? {
                ':' => {}
                '<' => {
                    let name = self.group_name()?;
                    if self.names.contains(&name) {
                        return Err(Invalid);
                    }
                    self.names.push(name);
                    self.groups += 1;
                }
                c @ ('i' | 'm' | 's' | '-') => {
                    self.modifiers(c)?;
                    self.unsupported("a pattern modifier");
                }
                _ => return Err(Invalid),
            }
        } else {
            self.groups += 1;
        }
        self.out.push_str("(?:");
        self.disjunction()?;
        if !self.eat(')') {
            return Err(Invalid);
        }
        self.out.push(')');
        Ok(())
    }

    /// `(?ims-ims:`: flags, each at most once, at least one, then `:`.
    fn modifiers(&mut self, first: char) -> Result<(), Invalid> {
        let mut seen = String::new();
        let mut c = first;
        let mut removing = false;
        let mut any = false;
        loop {
            match c {
                'i' | 'm' | 's' => {
                    if seen.contains(c) {
                        return Err(Invalid);
                    }
                    seen.push(c);
                    any = true;
                }
                '-' if !removing => removing = true,
                ':' if any => return Ok(()),
                _ => return Err(Invalid),
            }
            c = self.next()?;
        }
    }

    fn group_name(&mut self) -> Result<String, Invalid> {
        let mut name = String::new();
        loop {
            let c = match self.next()? {
                '>' => break,
                '\\' => {
                    if !self.eat('u') {
                        return Err(Invalid);
                    }
                    char::from_u32(self.unicode_escape()?).ok_or(Invalid)?
                }
                c => c,
            };
            let ok = if name.is_empty() {
                c == '$' || c == '_' || c.is_alphabetic()
            } else {
                c == '$' || c == '_' || c == '\u{200C}' || c == '\u{200D}' || c.is_alphanumeric()
            };
            if !ok {
                return Err(Invalid);
            }
            name.push(c);
        }
        if name.is_empty() {
            Err(Invalid)
        } else {
            Ok(name)
        }
    }

    fn atom_escape(&mut self) -> Result<(), Invalid> {
        let c = self.next()?;
        match c {
            '1'..='9' => {
                self.at -= 1;
                let n = self.number()?;
                self.largest_backreference = self
                    .largest_backreference
                    .max(u32::try_from(n).unwrap_or(u32::MAX));
                self.unsupported("a backreference");
                self.out.push_str("(?:)");
            }
            'k' => {
                if !self.eat('<') {
                    return Err(Invalid);
                }
                let name = self.group_name()?;
                self.referenced_names.push(name);
                self.unsupported("a backreference");
                self.out.push_str("(?:)");
            }
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P' => {
                let set = self.class_escape(c)?;
                if self.emit {
                    self.out.push('[');
                    push_ranges(&mut self.out, &set);
                    self.out.push(']');
                }
            }
            other => {
                let ch = self.character_escape(other)?;
                self.literal(ch);
            }
        }
        Ok(())
    }

    fn literal(&mut self, c: u32) {
        if (0xD800..=0xDFFF).contains(&c) {
            self.unsupported("a lone surrogate");
            self.out.push_str("(?:)");
        } else {
            push_char(&mut self.out, c);
        }
    }

    /// `\d`, `\s`, `\w`, their negations, and `\p{...}` (read, not run).
    fn class_escape(&mut self, c: char) -> Result<Vec<(u32, u32)>, Invalid> {
        Ok(match c {
            'd' => DIGIT.to_vec(),
            'D' => complement(DIGIT),
            's' => SPACE.to_vec(),
            'S' => complement(SPACE),
            'w' => WORD.to_vec(),
            'W' => complement(WORD),
            _ => {
                // `\p{Name}` or `\p{Name=Value}`: checked for shape only.
                if !self.eat('{') {
                    return Err(Invalid);
                }
                let mut any = false;
                let mut equals = false;
                loop {
                    match self.next()? {
                        '}' if any => break,
                        '=' if any && !equals => {
                            equals = true;
                            any = false;
                        }
                        ch if ch.is_ascii_alphanumeric() || ch == '_' => any = true,
                        _ => return Err(Invalid),
                    }
                }
                self.unsupported("a Unicode property escape");
                Vec::new()
            }
        })
    }

    /// The character a `CharacterEscape` (after the backslash) stands for.
    fn character_escape(&mut self, c: char) -> Result<u32, Invalid> {
        Ok(match c {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'c' => {
                let letter = self.next()?;
                if !letter.is_ascii_alphabetic() {
                    return Err(Invalid);
                }
                u32::from(letter) % 32
            }
            '0' => {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    return Err(Invalid);
                }
                0
            }
            'x' => {
                let hi = self.hex()?;
                let lo = self.hex()?;
                hi * 16 + lo
            }
            'u' => self.unicode_escape()?,
            other if !other.is_ascii_alphanumeric() && other != '_' => u32::from(other),
            _ => return Err(Invalid),
        })
    }

    fn hex(&mut self) -> Result<u32, Invalid> {
        self.next()?.to_digit(16).ok_or(Invalid)
    }

    fn hex4(&mut self) -> Result<u32, Invalid> {
        let mut n = 0;
        for _ in 0..4 {
            n = n * 16 + self.hex()?;
        }
        Ok(n)
    }

    /// After `\u`: `XXXX` (a surrogate pair written as two escapes is one character) or
    /// `{X...}`.
    fn unicode_escape(&mut self) -> Result<u32, Invalid> {
        if self.eat('{') {
            let mut n: u32 = 0;
            let mut any = false;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                self.at += 1;
                any = true;
                n = n.saturating_mul(16).saturating_add(d);
            }
            if !any || !self.eat('}') || n > MAX {
                return Err(Invalid);
            }
            return Ok(n);
        }
        let first = self.hex4()?;
        if (0xD800..=0xDBFF).contains(&first)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.at;
            self.at += 2;
            if let Ok(second) = self.hex4()
                && (0xDC00..=0xDFFF).contains(&second)
            {
                return Ok(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00));
            }
            self.at = save;
        }
        Ok(first)
    }

    fn class(&mut self) -> Result<(), Invalid> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(Invalid);
            };
            if c == ']' {
                self.at += 1;
                break;
            }
            let first = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let second = self.class_atom()?;
                match (first, second) {
                    (ClassAtom::Char(lo), ClassAtom::Char(hi)) if lo <= hi => {
                        ranges.push((lo, hi));
                    }
                    // A class escape in a range, or a range out of order.
                    _ => return Err(Invalid),
                }
                continue;
            }
            match first {
                ClassAtom::Char(ch) => ranges.push((ch, ch)),
                ClassAtom::Set(set) => ranges.extend(set),
            }
        }
        if ranges
            .iter()
            .any(|&(lo, hi)| lo <= 0xDFFF && hi >= 0xD800 && (lo >= 0xD800 && hi <= 0xDFFF))
        {
            self.unsupported("a lone surrogate");
        }
        if !self.emit {
            return Ok(());
        }
        crate::sort::sort(&mut ranges);
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        let set = if negated { complement(&merged) } else { merged };
        let set: Vec<(u32, u32)> = set
            .into_iter()
            .flat_map(|(lo, hi)| split_surrogates(lo, hi))
            .collect();
        if set.is_empty() {
            // Matches nothing: a class no character is in.
            self.out.push_str("[^\\x{0}-\\x{10FFFF}]");
        } else {
            self.out.push('[');
            push_ranges(&mut self.out, &set);
            self.out.push(']');
        }
        Ok(())
    }

    fn class_atom(&mut self) -> Result<ClassAtom, Invalid> {
        let c = self.next()?;
        if c != '\\' {
            return Ok(ClassAtom::Char(u32::from(c)));
        }
        let e = self.next()?;
        Ok(match e {
            'b' => ClassAtom::Char(0x08),
            '-' => ClassAtom::Char(u32::from('-')),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P' => ClassAtom::Set(self.class_escape(e)?),
            other => ClassAtom::Char(self.character_escape(other)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(pattern: &str) -> String {
        match parse(pattern) {
            Ok(Translation::Runs(s)) => s,
            other => panic!("{pattern}: {other:?}"),
        }
    }

    fn matches(pattern: &str, text: &str) -> bool {
        regex_lite::Regex::new(&runs(pattern))
            .expect("compiles")
            .is_match(text)
    }

    #[test]
    fn ecma_classes_and_dot() {
        assert!(matches(r"^\d+$", "123"));
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(matches(r"^\w+$", "a_1"));
        assert!(!matches(r"^\w$", "é"));
        assert!(matches(r"^\s$", "\u{00a0}"));
        assert!(matches(r"^\s$", "\u{feff}"));
        assert!(!matches(r"^.$", "\n"));
        assert!(!matches(r"^.$", "\u{2028}"));
        assert!(matches(r"^.$", "😀"));
        assert!(matches(r"^[^]$", "\n"));
        assert!(!matches(r"[]", "a"));
        assert!(matches(r"^[\D]$", "a"));
        assert!(matches(r"^\u{1F600}$", "😀"));
        assert!(matches(r"^\uD83D\uDE00$", "😀"));
        assert!(matches(r"^\cJ$", "\n"));
        assert!(matches(r"^[\-a]+$", "-a"));
        assert!(matches(r"^(?:__|\$)", "$x"));
        assert!(matches(r"a{2}", "xaax"));
        assert!(matches(r"^\/$", "/"));
        assert!(matches(r"\bword\b", "a word."));
    }

    #[test]
    fn what_is_invalid() {
        for p in [
            "(",
            ")",
            "[",
            "a**",
            "a{2}{3}",
            "{",
            "a{",
            "}",
            "]",
            r"\",
            r"\c1",
            r"\00",
            r"\x1",
            r"\u{110000}",
            "^*",
            "(?<a>x)(?<a>y)",
            r"\2(a)",
            r"\k<b>(?<a>x)",
            "[b-a]",
            r"[\d-z]",
            "(?z)",
            "a{3,2}",
            r"\a",
            r"\_",
        ] {
            assert_eq!(parse(p), Err(Invalid), "{p}");
        }
    }

    #[test]
    fn what_cannot_run() {
        for (p, what) in [
            ("(?=a)", "lookaround"),
            ("(?<!a)b", "lookaround"),
            (r"(a)\1", "a backreference"),
            (r"(?<n>a)\k<n>", "a backreference"),
            (r"\p{L}", "a Unicode property escape"),
            ("(?i:a)", "a pattern modifier"),
        ] {
            assert_eq!(parse(p), Ok(Translation::Unsupported(what)), "{p}");
        }
    }
}

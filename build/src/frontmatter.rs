//! The YAML frontmatter of an Agent Skill's `SKILL.md` (MCP SEP-2640), read as JSON
//! without a YAML crate (the build script compiles on every author's machine).
//!
//! The reader takes the block between the `---` fence lines and reads a strict subset
//! of YAML 1.2: block mappings (top level at column 0, arbitrarily nested), block
//! sequences (indented under their key or at its indentation, of any node, `- key: value`
//! and `- - item` included), plain scalars (on the key's line or the next, continued on
//! more-indented lines, `# comments` after them), single- and double-quoted scalars on
//! one line (every YAML escape), and block scalars (`|`, `>` with `-` or `+`), with
//! comment and blank lines between entries. What it accepts it reads exactly as
//! `yaml_serde` (a YAML 1.2 parser) reads it into a `serde_json::Value`; the tests prove
//! that against `yaml_serde` itself.
//!
//! Everything else is refused with a line, a column and what to write instead, never
//! read differently: flow collections, anchors, aliases, tags, directives, `?` keys,
//! document markers, tabs where YAML indents or separates, multi-line quoted scalars,
//! block scalars with an indentation digit or (`>`) more-indented lines, duplicate keys,
//! and characters YAML forbids or reads as line breaks. So are the plain values whose
//! meaning differs between YAML parsers, since other tools read `SKILL.md` with YAML 1.1
//! parsers: `yes`/`no`/`on`/`off`/`y`/`n`, numbers other than plain decimals (`012`,
//! `0x1F`, `+1`, `1e3`, `.5`, `1_000`, `.inf`, ...), integers beyond 64 bits, dates,
//! `1:30`, `=` and `<<`; and keys that are not text (`true:`, `1:`, `null:`); quoting
//! them always works.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

/// The frontmatter of a `SKILL.md`: its top-level mapping as JSON, and where each top-level key is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frontmatter {
    pub(crate) map: Map<String, Value>,
    /// 1-based line (in the whole SKILL.md text) of each top-level key.
    pub(crate) lines: BTreeMap<String, usize>,
}

/// Why a SKILL.md's frontmatter cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FrontmatterError {
    /// 1-based line and 0-based column (in characters) in the whole SKILL.md text.
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// One sentence, lowercase start, says what is wrong and what to write instead.
    pub(crate) message: String,
}

type Result<T> = std::result::Result<T, FrontmatterError>;

fn error(line: usize, column: usize, message: impl Into<String>) -> FrontmatterError {
    FrontmatterError {
        line,
        column,
        message: message.into(),
    }
}

/// Reads the frontmatter of a whole SKILL.md text: the first line is `---`, the block
/// ends at the next line that is `---` (trailing spaces and `\r` allowed on both fence lines).
pub(crate) fn read(text: &str) -> Result<Frontmatter> {
    let raw: Vec<&str> = text.split('\n').collect();
    let first = raw.first().copied().unwrap_or("");
    if first.starts_with('\u{feff}') {
        return Err(error(
            1,
            0,
            "SKILL.md starts with a byte order mark; save it as UTF-8 without one, \
             so that its first line is the `---` opening its YAML frontmatter",
        ));
    }
    if !is_fence(first) {
        return Err(error(
            1,
            0,
            "SKILL.md starts with a `---` line opening its YAML frontmatter; \
             add one as the first line (and another `---` line after the frontmatter)",
        ));
    }
    let Some(close) = (1..raw.len()).find(|&i| raw.get(i).is_some_and(|l| is_fence(l))) else {
        return Err(error(
            text.lines().count().max(1),
            0,
            "the YAML frontmatter opened by the `---` on line 1 is never closed; \
             end it with a line that is `---`",
        ));
    };
    let lines: Vec<Line> = raw
        .get(1..close)
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, l)| Line {
            chars: l.strip_suffix('\r').unwrap_or(l).chars().collect(),
            number: i + 2,
        })
        .collect();
    for line in &lines {
        check_line(line)?;
    }
    let parser = Parser { lines };
    parser.document(close + 1)
}

/// `---`, then spaces, then maybe `\r`.
fn is_fence(line: &str) -> bool {
    line.strip_suffix('\r')
        .unwrap_or(line)
        .trim_end_matches(' ')
        == "---"
}

/// One line of the frontmatter block, its line break (`\n` or `\r\n`) removed.
#[derive(Debug)]
struct Line {
    chars: Vec<char>,
    /// 1-based, in the whole SKILL.md.
    number: usize,
}

static NO_LINE: Line = Line {
    chars: Vec::new(),
    number: 0,
};

impl Line {
    fn at(&self, i: usize) -> Option<char> {
        self.chars.get(i).copied()
    }

    fn text(&self, from: usize, to: usize) -> String {
        self.chars
            .get(from..to)
            .map_or_else(String::new, |s| s.iter().collect())
    }

    /// The first column at or after `from` that is not a space.
    fn skip_spaces(&self, from: usize) -> usize {
        let mut i = from;
        while self.at(i) == Some(' ') {
            i += 1;
        }
        i
    }

    fn is_blank(&self) -> bool {
        self.chars.iter().all(|c| *c == ' ')
    }

    /// `-` at `col` followed by a space or the end of the line: a block sequence entry.
    fn is_entry(&self, col: usize) -> bool {
        self.at(col) == Some('-') && matches!(self.at(col + 1), None | Some(' '))
    }

    /// A `:` at `col` that YAML reads as a mapping value indicator.
    fn is_colon(&self, col: usize) -> bool {
        self.at(col) == Some(':') && matches!(self.at(col + 1), None | Some(' ' | '\t'))
    }
}

/// Characters YAML refuses or reads as line breaks, and document markers and
/// directives, anywhere in the block.
fn check_line(line: &Line) -> Result<()> {
    for (col, &c) in line.chars.iter().enumerate() {
        let message = match c {
            '\r' => "a carriage return inside a line; end lines with `\\n` or `\\r\\n` only",
            '\u{85}' | '\u{2028}' | '\u{2029}' => {
                "this Unicode line or paragraph separator reads as a line break in YAML; \
                 remove it, or write it as an escape (like `\\u2028`) in a double-quoted string"
            }
            '\u{feff}' => "a byte order mark (U+FEFF) inside the frontmatter; remove it",
            '\u{fffe}' | '\u{ffff}' => "a Unicode noncharacter, which YAML refuses; remove it",
            c if (c < ' ' && c != '\t') || ('\u{7f}'..='\u{9f}').contains(&c) => {
                "a control character, which YAML refuses; remove it, or write it as an \
                 escape (like `\\u0007`) in a double-quoted string"
            }
            _ => continue,
        };
        return Err(error(line.number, col, message));
    }
    let marker = |m: &str| {
        line.chars.starts_with(&m.chars().collect::<Vec<_>>())
            && matches!(line.at(3), None | Some(' ' | '\t'))
    };
    if marker("---") || marker("...") {
        return Err(error(
            line.number,
            0,
            "a YAML document marker inside the frontmatter; the frontmatter is one \
             document ending at the first `---` line, so remove this line or indent its text",
        ));
    }
    if line.at(0) == Some('%') {
        return Err(error(
            line.number,
            0,
            "directives (`%YAML`, `%TAG`) are not read in a frontmatter; remove the line",
        ));
    }
    Ok(())
}

/// What a line is, outside block scalars.
enum Kind {
    /// Spaces only.
    Blank,
    /// Spaces, then `#`.
    Comment,
    /// Spaces (as many as its indentation), then content.
    Content(usize),
}

fn kind(line: &Line) -> Result<Kind> {
    let indent = line.skip_spaces(0);
    match line.at(indent) {
        None => Ok(Kind::Blank),
        Some('\t') => Err(tab_in_indentation(line.number, indent)),
        Some('#') => Ok(Kind::Comment),
        Some(_) => Ok(Kind::Content(indent)),
    }
}

fn tab_in_indentation(line: usize, column: usize) -> FrontmatterError {
    error(
        line,
        column,
        "a tab character where YAML expects indentation; YAML indents with spaces only, \
         so replace it with spaces",
    )
}

/// Where a nested value is: a mapping's value or a sequence's item.
#[derive(Clone, Copy, PartialEq, Eq)]
enum In {
    Mapping,
    Sequence,
}

/// A key read from a line: its text and the column of its `:`.
struct Key {
    name: String,
    colon: usize,
}

/// A block mapping read: its entries, the line of each key, and the first line after it.
struct Mapping {
    map: Map<String, Value>,
    keys: Vec<(String, usize)>,
    next: usize,
}

/// Every function takes the index of the line where its node starts and returns the
/// node and the index of the first line it did not read.
struct Parser {
    lines: Vec<Line>,
}

impl Parser {
    fn line(&self, i: usize) -> &Line {
        self.lines.get(i).unwrap_or(&NO_LINE)
    }

    /// `close` is the line number of the closing fence.
    fn document(&self, close: usize) -> Result<Frontmatter> {
        let Some((i, indent)) = self.next_content(0)? else {
            return Err(error(
                close,
                0,
                "the frontmatter is empty; write its `name:` and `description:` lines \
                 between the `---` lines",
            ));
        };
        let line = self.line(i);
        if indent != 0 {
            return Err(error(
                line.number,
                indent,
                "the first key of the frontmatter is indented; top-level keys start at \
                 the beginning of their line",
            ));
        }
        if line.is_entry(0) {
            return Err(error(
                line.number,
                0,
                "the frontmatter is a sequence (`- ` items) but must be a mapping; \
                 write `key: value` lines",
            ));
        }
        let mapping = self.mapping(i, 0, 0)?;
        Ok(Frontmatter {
            map: mapping.map,
            lines: mapping.keys.into_iter().collect(),
        })
    }

    /// The first line at or after `from` that is neither blank nor a comment, and its
    /// indentation.
    fn next_content(&self, from: usize) -> Result<Option<(usize, usize)>> {
        for i in from..self.lines.len() {
            if let Kind::Content(indent) = kind(self.line(i))? {
                return Ok(Some((i, indent)));
            }
        }
        Ok(None)
    }

    /// A block mapping whose first key is at (`first`, `col`) and whose other keys
    /// start lines indented by `col`.
    fn mapping(&self, first: usize, col: usize, depth: usize) -> Result<Mapping> {
        too_deep(self.line(first), col, depth)?;
        let mut map = Map::new();
        let mut keys = Vec::new();
        let mut li = first;
        loop {
            let line = self.line(li);
            let Some(key) = key_at(line, col)? else {
                return Err(not_a_key(line, col));
            };
            if map.contains_key(&key.name) {
                return Err(error(
                    line.number,
                    col,
                    format!(
                        "the key `{}` is written twice in this mapping; keep one of them",
                        key.name
                    ),
                ));
            }
            let (value, next) = self.value(li, key.colon + 1, col, In::Mapping, depth)?;
            keys.push((key.name.clone(), line.number));
            map.insert(key.name, value);
            match self.next_content(next)? {
                Some((i, indent)) if indent == col => {
                    if self.line(i).is_entry(col) {
                        return Err(error(
                            self.line(i).number,
                            col,
                            "a `- ` item where a key of this mapping is expected; put the \
                             items right under their key, or start the line with a key",
                        ));
                    }
                    li = i;
                }
                Some((i, indent)) if indent > col => {
                    return Err(over_indented(self.line(i), indent));
                }
                _ => return Ok(Mapping { map, keys, next }),
            }
        }
    }

    /// A block sequence whose first `-` is at (`first`, `col`) and whose other items
    /// start lines indented by `col`.
    fn sequence(&self, first: usize, col: usize, depth: usize) -> Result<(Value, usize)> {
        too_deep(self.line(first), col, depth)?;
        let mut items = Vec::new();
        let mut li = first;
        loop {
            let (value, next) = self.value(li, col + 1, col, In::Sequence, depth)?;
            items.push(value);
            match self.next_content(next)? {
                Some((i, indent)) if indent == col && self.line(i).is_entry(col) => li = i,
                Some((i, indent)) if indent > col => {
                    return Err(over_indented(self.line(i), indent));
                }
                _ => return Ok((Value::Array(items), next)),
            }
        }
    }

    /// The value after a key's `:` or an item's `-` at column `from - 1` of line `li`;
    /// `parent` is the indentation of the collection holding it, `depth` its nesting.
    fn value(
        &self,
        li: usize,
        from: usize,
        parent: usize,
        within: In,
        depth: usize,
    ) -> Result<(Value, usize)> {
        let line = self.line(li);
        let p = line.skip_spaces(from);
        match line.at(p) {
            None | Some('#') => return self.nested(li + 1, parent, within, depth),
            Some('\t') => {
                return Err(error(
                    line.number,
                    p,
                    "a tab after `:` or `-`; separate the value with spaces",
                ));
            }
            Some(_) => {}
        }
        if line.is_entry(p) {
            return match within {
                In::Sequence => self.sequence(li, p, depth + 1),
                In::Mapping => Err(error(
                    line.number,
                    p,
                    "a sequence cannot start on the line of its key; put each `- item` on \
                     its own line below the key",
                )),
            };
        }
        if within == In::Sequence && key_at(line, p)?.is_some() {
            let mapping = self.mapping(li, p, depth + 1)?;
            return Ok((Value::Object(mapping.map), mapping.next));
        }
        self.scalar(li, p, parent, true)
    }

    /// A value starting on the lines after its key or `-`: a nested collection, a
    /// scalar more indented than `parent`, an indentless sequence, or nothing (`null`).
    fn nested(
        &self,
        start: usize,
        parent: usize,
        within: In,
        depth: usize,
    ) -> Result<(Value, usize)> {
        match self.next_content(start)? {
            Some((i, indent)) if indent > parent => {
                let line = self.line(i);
                if line.is_entry(indent) {
                    self.sequence(i, indent, depth + 1)
                } else if key_at(line, indent)?.is_some() {
                    let mapping = self.mapping(i, indent, depth + 1)?;
                    Ok((Value::Object(mapping.map), mapping.next))
                } else {
                    self.scalar(i, indent, parent, false)
                }
            }
            Some((i, indent))
                if indent == parent && within == In::Mapping && self.line(i).is_entry(indent) =>
            {
                self.sequence(i, indent, depth + 1)
            }
            _ => Ok((Value::Null, start)),
        }
    }

    /// A scalar starting at (`li`, `p`); `same_line`: on the line of its key or `-`.
    fn scalar(
        &self,
        li: usize,
        p: usize,
        parent: usize,
        same_line: bool,
    ) -> Result<(Value, usize)> {
        let line = self.line(li);
        match line.at(p) {
            Some('"' | '\'') => {
                let (text, end) = quoted(line, p)?;
                after_quoted(line, end)?;
                Ok((Value::String(text), li + 1))
            }
            Some('|' | '>') if same_line => self.block_scalar(li, p, parent),
            Some('|' | '>') => Err(error(
                line.number,
                p,
                "a block scalar indicator (`|` or `>`) on a line of its own is not read here; \
                 put it right after the key's `:` or the item's `-`",
            )),
            Some(c) => match indicator_message(c) {
                Some(message) => Err(error(line.number, p, message)),
                None => self.plain(li, p, parent),
            },
            None => Ok((Value::Null, li + 1)),
        }
    }

    /// A plain scalar starting at (`li`, `p`), continued on the following lines
    /// indented more than `parent` (folded: one line break is a space, each blank line
    /// a `\n`), up to a comment.
    fn plain(&self, li: usize, p: usize, parent: usize) -> Result<(Value, usize)> {
        let line = self.line(li);
        let (mut text, mut ended) = plain_line(line, p)?;
        let mut end = li + 1;
        let mut blanks = 0;
        let mut j = li + 1;
        while !ended && j < self.lines.len() {
            let next = self.line(j);
            match kind(next)? {
                Kind::Blank => blanks += 1,
                Kind::Comment => break,
                Kind::Content(indent) if indent <= parent => break,
                Kind::Content(indent) => {
                    if next.is_entry(indent) || matches!(next.at(indent), Some('?' | ':')) {
                        return Err(error(
                            next.number,
                            indent,
                            "this line continues the plain value above but starts like a \
                             YAML indicator; quote the whole value, or write it as a block \
                             scalar (`>`)",
                        ));
                    }
                    let (more, comment) = plain_line(next, indent)?;
                    if blanks == 0 {
                        text.push(' ');
                    } else {
                        text.push_str(&"\n".repeat(blanks));
                    }
                    text.push_str(&more);
                    blanks = 0;
                    ended = comment;
                    end = j + 1;
                }
            }
            j += 1;
        }
        let value = resolve_plain(&text).map_err(|message| error(line.number, p, message))?;
        Ok((value, end))
    }

    /// A block scalar whose header (`|`, `>`, then maybe `-` or `+`) is at (`li`, `p`).
    fn block_scalar(&self, li: usize, p: usize, parent: usize) -> Result<(Value, usize)> {
        let line = self.line(li);
        let literal = line.at(p) == Some('|');
        let mut k = p + 1;
        let chomp = match line.at(k) {
            Some('-') => Chomp::Strip,
            Some('+') => Chomp::Keep,
            _ => Chomp::Clip,
        };
        if chomp != Chomp::Clip {
            k += 1;
        }
        if line.at(k).is_some_and(|c| c.is_ascii_digit()) {
            return Err(error(
                line.number,
                k,
                "a block scalar's indentation indicator (like `|2`) is not read here; remove \
                 the digit and indent the text by the same spaces on every line",
            ));
        }
        let j = line.skip_spaces(k);
        match line.at(j) {
            None => {}
            Some('#') if j > k => {}
            Some(_) => {
                return Err(error(
                    line.number,
                    j,
                    "unexpected text after a block scalar indicator; the text starts on the \
                     next line, and only `-` or `+` or a ` # comment` may follow `|` or `>`",
                ));
            }
        }
        let (text, next) = self.block_body(li, parent, literal, chomp)?;
        Ok((Value::String(text), next))
    }

    /// The lines of a block scalar after its header on line `header`: its indentation
    /// is the first non-blank line's, which must be more than `parent`.
    fn block_body(
        &self,
        header: usize,
        parent: usize,
        literal: bool,
        chomp: Chomp,
    ) -> Result<(String, usize)> {
        let start = header + 1;
        let mut j = start;
        let mut leading = 0;
        let mut widest = 0;
        while j < self.lines.len() && self.line(j).is_blank() {
            leading += 1;
            widest = widest.max(self.line(j).chars.len());
            j += 1;
        }
        let first = self.line(j);
        let m = first.skip_spaces(0);
        if j >= self.lines.len() || m <= parent {
            return empty_block(self.line(header), parent, widest, chomp).map(|t| (t, j));
        }
        if first.at(m) == Some('\t') {
            return Err(tab_in_indentation(first.number, m));
        }
        if widest > m {
            return Err(error(
                self.line(start).number,
                m,
                "a blank line before the text of this block scalar has more spaces than \
                 the text is indented; remove its spaces",
            ));
        }
        let mut text = "\n".repeat(leading);
        let mut pending = 0;
        let mut started = false;
        while j < self.lines.len() {
            let line = self.line(j);
            if line.is_blank() {
                if line.chars.len() > m {
                    return Err(error(
                        line.number,
                        m,
                        "this blank line inside a block scalar has more spaces than the text \
                         is indented, which YAML reads as text; remove its trailing spaces",
                    ));
                }
                pending += 1;
                j += 1;
                continue;
            }
            let indent = line.skip_spaces(0);
            if indent < m {
                if line.at(indent) == Some('\t') {
                    return Err(tab_in_indentation(line.number, indent));
                }
                break;
            }
            let content = line.text(m, line.chars.len());
            if !literal && matches!(line.at(m), Some(' ' | '\t')) {
                return Err(error(
                    line.number,
                    m,
                    "a more-indented line in a folded (`>`) block scalar is not read here; \
                     indent every line the same, or use `|`",
                ));
            }
            if started {
                text.push_str(&join_lines(literal, pending));
            }
            text.push_str(&content);
            started = true;
            pending = 0;
            j += 1;
        }
        match chomp {
            Chomp::Strip => {}
            Chomp::Clip => text.push('\n'),
            Chomp::Keep => text.push_str(&"\n".repeat(pending + 1)),
        }
        Ok((text, j))
    }
}

/// A block scalar's chomping indicator: none, `-` or `+`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

/// What goes between two text lines of a block scalar with `blanks` blank lines
/// between them.
fn join_lines(literal: bool, blanks: usize) -> String {
    if literal {
        "\n".repeat(blanks + 1)
    } else if blanks == 0 {
        " ".to_owned()
    } else {
        "\n".repeat(blanks)
    }
}

/// A block scalar with no text: `""`, unless `+` keeps line breaks or blank lines
/// have more spaces than its parent (both refused).
fn empty_block(header: &Line, parent: usize, widest: usize, chomp: Chomp) -> Result<String> {
    if chomp == Chomp::Keep || widest > parent {
        return Err(error(
            header.number,
            header.chars.len(),
            "this block scalar has no text; write `\"\"` for an empty text, or indent the \
             text under its key",
        ));
    }
    Ok(String::new())
}

/// The message refusing a scalar that starts with `c`, if YAML does not read it as the
/// start of a plain scalar or this reader does not read it.
fn indicator_message(c: char) -> Option<&'static str> {
    Some(match c {
        '[' | '{' | ']' | '}' | ',' => {
            "flow collections (`[...]`, `{...}`) are not read in a frontmatter; write a \
             block sequence (`- item` lines) or mapping, or quote the text"
        }
        '&' => {
            "anchors (`&name`) are not read in a frontmatter; write the value out, or quote the text"
        }
        '*' => {
            "aliases (`*name`) are not read in a frontmatter; write the value out, or quote the text"
        }
        '!' => "tags (`!tag`) are not read in a frontmatter; remove the tag, or quote the text",
        '?' => "`?` (a complex key) is not read in a frontmatter; quote the text",
        ':' | '%' | '@' | '`' | '#' | '|' | '>' => {
            "this character cannot start a plain YAML value; quote the text"
        }
        _ => return None,
    })
}

/// The error for a line at a mapping's indentation that holds no `key: value`.
fn not_a_key(line: &Line, col: usize) -> FrontmatterError {
    let message = match line.at(col) {
        Some('?') => "complex keys (`? key`) are not read in a frontmatter; write `key: value`",
        Some(c @ ('[' | '{' | '&' | '*' | '!')) => indicator_message(c).unwrap_or_default(),
        _ => {
            "expected a `key: value` line here (a key is followed by `:` and a space); a \
             value that goes on over several lines must indent them more than its key"
        }
    };
    error(line.number, col, message)
}

/// Collections nested deeper than `yaml_serde` reads (128) and a build script's stack
/// can hold are refused.
fn too_deep(line: &Line, col: usize, depth: usize) -> Result<()> {
    if depth > 64 {
        return Err(error(
            line.number,
            col,
            "mappings and sequences are nested more than 64 deep here; flatten them",
        ));
    }
    Ok(())
}

fn over_indented(line: &Line, indent: usize) -> FrontmatterError {
    error(
        line.number,
        indent,
        "this line is indented more than the entries above it but nothing above can hold \
         it; align it with its sibling keys or items, and write a value that goes on over \
         several lines as a block scalar (`|` or `>`) or without a comment at its end",
    )
}

/// The key at (`line`, `col`) followed by `:` and a space or the end of the line, if
/// the line has one there: a quoted scalar, or a plain scalar that is text.
fn key_at(line: &Line, col: usize) -> Result<Option<Key>> {
    let (name, end, quoted_key) = match line.at(col) {
        Some('"' | '\'') => {
            let (name, end) = quoted(line, col)?;
            let colon = line.skip_spaces(end);
            if !line.is_colon(colon) {
                return Ok(None);
            }
            (name, colon, true)
        }
        _ => {
            let mut k = col;
            loop {
                match line.at(k) {
                    None => return Ok(None),
                    Some('\t') => return Err(tab_in_plain(line.number, k)),
                    Some(' ') if line.at(k + 1) == Some('#') => return Ok(None),
                    Some(':') if matches!(line.at(k + 1), None | Some(' ')) => break,
                    Some(_) => k += 1,
                }
            }
            (line.text(col, k).trim_end_matches(' ').to_owned(), k, false)
        }
    };
    if line.text(col, end).len() > 512 {
        return Err(error(
            line.number,
            col,
            "this key is too long for YAML (over 512 bytes); shorten it",
        ));
    }
    if !quoted_key {
        check_plain_key(line, col, &name)?;
    }
    Ok(Some(Key { name, colon: end }))
}

fn check_plain_key(line: &Line, col: usize, name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(error(
            line.number,
            col,
            "a key is missing before this `:`; write the key, or quote a `:` that is text",
        ));
    }
    let first = name.chars().next();
    if first.is_some_and(|c| "-?:,[]{}#&*!|>'\"%@`".contains(c)) {
        let message = match first.and_then(indicator_message) {
            Some(message) => message.to_owned(),
            None => format!(
                "a key cannot start with `{}` here; quote the key",
                name.chars().take(1).collect::<String>()
            ),
        };
        return Err(error(line.number, col, message));
    }
    match resolve_plain(name) {
        Ok(Value::String(_)) => Ok(()),
        _ => Err(error(
            line.number,
            col,
            format!(
                "the key `{name}` is not plain text in YAML (or not in every YAML \
                 version); quote it (`\"{name}\":`)"
            ),
        )),
    }
}

fn tab_in_plain(line: usize, column: usize) -> FrontmatterError {
    error(
        line,
        column,
        "a tab character in a plain (unquoted) value or key is not read here; use spaces, \
         or quote the text",
    )
}

/// One line of a plain scalar from `p`: its text (trailing spaces removed) and whether
/// a comment ends it.
fn plain_line(line: &Line, p: usize) -> Result<(String, bool)> {
    let mut text = String::new();
    let mut k = p;
    let comment = loop {
        match line.at(k) {
            None => break false,
            Some('\t') => return Err(tab_in_plain(line.number, k)),
            Some(':') if line.is_colon(k) => {
                return Err(error(
                    line.number,
                    k,
                    "`: ` inside a plain value reads as a nested key in YAML; quote the \
                     value (`\"...\"`), or write it as a block scalar (`>`)",
                ));
            }
            Some(' ') if line.at(k + 1) == Some('#') => break true,
            Some(c) => text.push(c),
        }
        k += 1;
    };
    Ok((text.trim_end_matches(' ').to_owned(), comment))
}

/// A quoted scalar whose opening quote is at `p`: its text and the column after its
/// closing quote.
fn quoted(line: &Line, p: usize) -> Result<(String, usize)> {
    let double = line.at(p) == Some('"');
    let mut text = String::new();
    let mut k = p + 1;
    loop {
        match line.at(k) {
            None => {
                return Err(error(
                    line.number,
                    p,
                    "this quoted string does not end on its line; close it on the same \
                     line, or write a text of several lines as a block scalar (`|` or `>`)",
                ));
            }
            Some('\'') if !double && line.at(k + 1) == Some('\'') => {
                text.push('\'');
                k += 2;
            }
            Some('\'') if !double => return Ok((text, k + 1)),
            Some('"') if double => return Ok((text, k + 1)),
            Some('\\') if double => {
                let (c, next) = escape(line, k)?;
                text.push(c);
                k = next;
            }
            Some(c) => {
                text.push(c);
                k += 1;
            }
        }
    }
}

/// The escape sequence whose `\` is at `k` in a double-quoted scalar: its character
/// and the column after it.
fn escape(line: &Line, k: usize) -> Result<(char, usize)> {
    let simple = match line.at(k + 1) {
        Some('0') => '\0',
        Some('a') => '\u{7}',
        Some('b') => '\u{8}',
        Some('t' | '\t') => '\t',
        Some('n') => '\n',
        Some('v') => '\u{b}',
        Some('f') => '\u{c}',
        Some('r') => '\r',
        Some('e') => '\u{1b}',
        Some(' ') => ' ',
        Some('"') => '"',
        Some('/') => '/',
        Some('\\') => '\\',
        Some('N') => '\u{85}',
        Some('_') => '\u{a0}',
        Some('L') => '\u{2028}',
        Some('P') => '\u{2029}',
        Some(c @ ('x' | 'u' | 'U')) => {
            let width = match c {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex = line.text(k + 2, k + 2 + width);
            let code = (hex.chars().count() == width && hex.chars().all(|h| h.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(&hex, 16).ok())
                .flatten()
                .and_then(char::from_u32);
            return match code {
                Some(c) => Ok((c, k + 2 + width)),
                None => Err(error(
                    line.number,
                    k,
                    format!(
                        "`\\{c}` must be followed by {width} hexadecimal digits naming a \
                         Unicode character; fix the escape, or write `\\\\` for a backslash"
                    ),
                )),
            };
        }
        _ => {
            return Err(error(
                line.number,
                k,
                "an escape YAML does not define in a double-quoted string; write `\\\\` for \
                 a backslash, or use single quotes, where `\\` is an ordinary character",
            ));
        }
    };
    Ok((simple, k + 2))
}

/// After a quoted scalar: spaces, then the end of the line or a comment.
fn after_quoted(line: &Line, end: usize) -> Result<()> {
    let j = line.skip_spaces(end);
    match line.at(j) {
        None => Ok(()),
        Some('#') if j > end => Ok(()),
        Some(_) => Err(error(
            line.number,
            j,
            "unexpected text after the quoted string; quote the whole value, and put a \
             space before a `#` comment",
        )),
    }
}

/// A plain scalar's value, as `yaml_serde` reads it into JSON: `null`, a boolean, an
/// integer, a float, or text; or why it is refused (its meaning differs between YAML
/// parsers, or no JSON number holds it exactly).
fn resolve_plain(text: &str) -> std::result::Result<Value, String> {
    match text {
        "" | "null" | "Null" | "NULL" | "~" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON"
        | "off" | "Off" | "OFF" => {
            return Err(format!(
                "`{text}` is text to YAML 1.2 parsers but a boolean to YAML 1.1 ones; write \
                 `true` or `false`, or quote it (`\"{text}\"`) if you mean the text"
            ));
        }
        _ => {}
    }
    if let Some(number) = decimal(text) {
        return number.ok_or_else(|| {
            format!(
                "`{text}` is too large for an exact JSON number; quote it (`\"{text}\"`) if \
                 you mean the text"
            )
        });
    }
    if numeric(text) || is_date(text) || is_sexagesimal(text) || text == "=" || text == "<<" {
        return Err(format!(
            "`{text}` is read differently by different YAML parsers (as a number, a date \
             or a special value); quote it (`\"{text}\"`) if you mean the text, or write a \
             number as plain digits (like `12` or `1.5`)"
        ));
    }
    Ok(Value::String(text.to_owned()))
}

/// A plain decimal integer (`0`, `-12`) or float (`1.5`, `-0.25`): `Some(None)` when no
/// JSON number holds it as `yaml_serde` reads it.
fn decimal(text: &str) -> Option<Option<Value>> {
    let negative = text.starts_with('-');
    let body = text.strip_prefix('-').unwrap_or(text);
    let (int, frac) = match body.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || (int.len() > 1 && int.starts_with('0')) || !frac.is_none_or(digits) {
        return None;
    }
    Some(match (frac, negative) {
        (None, false) => text.parse::<u64>().ok().map(Value::from),
        (None, true) => text.parse::<i64>().ok().map(Value::from),
        (Some(_), _) => text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number),
    })
}

/// Whether some YAML parser reads `text` as a number or special float: all Rust
/// reads as a finite `f64` (with one sign, exponents, `.5`, `1.`, leading zeros), `0x`,
/// `0o`, `0b`, `.inf` and `.nan` in any case, and any of these with `_` in it.
fn numeric(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let lower = unsigned.to_ascii_lowercase();
    if ["0x", "0o", "0b"].iter().any(|p| lower.starts_with(p)) || lower == ".inf" || lower == ".nan"
    {
        return true;
    }
    if text
        .parse::<f64>()
        .is_ok_and(|x| x.is_finite() || text.bytes().any(|b| b.is_ascii_digit()))
    {
        return true;
    }
    text.contains('_') && {
        let plain: String = text.chars().filter(|c| *c != '_').collect();
        !plain.is_empty() && plain != text && numeric(&plain)
    }
}

/// `2024-01-01`, maybe followed by a time: YAML 1.1 parsers read a timestamp.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if !(0..4).all(digit) || b.get(4) != Some(&b'-') || !digit(5) {
        return false;
    }
    let day = if b.get(6) == Some(&b'-') {
        7
    } else if digit(6) && b.get(7) == Some(&b'-') {
        8
    } else {
        return false;
    };
    if !digit(day) {
        return false;
    }
    let end = if digit(day + 1) { day + 2 } else { day + 1 };
    matches!(b.get(end), None | Some(b'T' | b't' | b' ' | b'\t'))
}

/// `1:30`, `-1:30:15.5` (digits and `_`, `:`-separated, maybe a fraction): YAML 1.1
/// parsers read a base-60 number.
fn is_sexagesimal(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (whole, _) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let fraction = unsigned.split_once('.').map_or("", |(_, f)| f);
    let parts: Vec<&str> = whole.split(':').collect();
    parts.len() >= 2
        && unsigned.starts_with(|c: char| c.is_ascii_digit())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
        && fraction.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;
    use proptest::strategy::ValueTree;

    /// A SKILL.md whose frontmatter block is `body` (every line ending in `\n`).
    fn doc(body: &str) -> String {
        format!("---\n{body}---\n\n# The skill\n\nSome text.\n")
    }

    /// The block between the fences of `text`, as `read` takes it.
    fn block(text: &str) -> Option<&str> {
        let start = text.find('\n')? + 1;
        let mut at = start;
        for line in text.get(start..)?.split_inclusive('\n') {
            if is_fence(line.strip_suffix('\n').unwrap_or(line)) {
                return text.get(start..at);
            }
            at += line.len();
        }
        None
    }

    /// `read`, and what it accepts checked against `yaml_serde`: the same JSON.
    fn differential(text: &str) -> Result<Frontmatter> {
        let ours = read(text);
        if let Ok(frontmatter) = &ours {
            let block = block(text).expect("a block between fences");
            match yaml_serde::from_str::<Value>(block) {
                Ok(theirs) => assert_eq!(
                    Value::Object(frontmatter.map.clone()),
                    theirs,
                    "read and yaml_serde differ on {block:?}"
                ),
                Err(e) => panic!("read accepted what yaml_serde refuses ({e}): {block:?}"),
            }
        }
        ours
    }

    fn accept(body: &str) -> Value {
        match differential(&doc(body)) {
            Ok(frontmatter) => Value::Object(frontmatter.map),
            Err(e) => panic!("refused {body:?}: {e:?}"),
        }
    }

    /// The error for `body`: its line, column and message.
    fn refuse(body: &str) -> FrontmatterError {
        match differential(&doc(body)) {
            Ok(frontmatter) => panic!("accepted {body:?}: {:?}", frontmatter.map),
            Err(e) => e,
        }
    }

    fn at(e: &FrontmatterError) -> (usize, usize) {
        (e.line, e.column)
    }

    #[test]
    fn fences() {
        let e = read("name: x\n---\n").expect_err("no opening fence");
        assert_eq!(at(&e), (1, 0));
        assert!(
            e.message.starts_with("SKILL.md starts with a `---` line"),
            "{}",
            e.message
        );
        assert_eq!(at(&read("").expect_err("empty")), (1, 0));
        assert_eq!(
            at(&read("\u{feff}---\nname: x\n---\n").expect_err("bom")),
            (1, 0)
        );
        assert_eq!(
            at(&read("--- x\nname: x\n---\n").expect_err("text on the fence")),
            (1, 0)
        );
        let e = read("---\nname: x\ndescription: y\n").expect_err("no closing fence");
        assert_eq!(at(&e), (3, 0));
        assert!(e.message.contains("never closed"), "{}", e.message);
        assert_eq!(
            at(&read("---\nname: x").expect_err("no closing fence")),
            (2, 0)
        );
        let read = read("---  \r\nname: x\r\ndescription: z  \r\n---   \r\n# Body\n---\n")
            .expect("fences with trailing spaces and CRLF");
        assert_eq!(
            Value::Object(read.map),
            serde_json::json!({"name": "x", "description": "z"})
        );
        assert_eq!(
            read.lines,
            BTreeMap::from([("name".to_owned(), 2), ("description".to_owned(), 3)])
        );
        let e = refuse("");
        assert_eq!(at(&e), (2, 0));
        assert!(e.message.contains("empty"), "{}", e.message);
        assert_eq!(at(&refuse("# only a comment\n\n")), (4, 0));
    }

    #[test]
    fn key_lines() {
        let read = differential(&doc(
            "# c\nname: x\nmetadata:\n  a: b\n\n  c: d\ndescription: |\n  t\n",
        ))
        .expect("read");
        let lines: Vec<(&str, usize)> = read.lines.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(lines, [("description", 8), ("metadata", 4), ("name", 3)]);
    }

    /// Each refusal, at its line (the fence is line 1) and column.
    #[test]
    fn refusals_point_at_the_problem() {
        let cases: &[(&str, (usize, usize), &str)] = &[
            ("name: x\n  description: y\n", (3, 13), "nested key"),
            ("  name: x\n", (2, 2), "indented"),
            ("- a\n- b\n", (2, 0), "sequence"),
            ("just text\n", (2, 0), "key: value"),
            ("name: x\ndescription: [a, b]\n", (3, 13), "flow"),
            ("name: {a: b}\n", (2, 6), "flow"),
            ("name: &a x\n", (2, 6), "anchors"),
            ("name: *a\n", (2, 6), "aliases"),
            ("name: !!str x\n", (2, 6), "tags"),
            ("%YAML 1.2\nname: x\n", (2, 0), "directives"),
            ("? name\n: x\n", (2, 0), "complex keys"),
            ("name: @x\n", (2, 6), "quote"),
            ("name: `x`\n", (2, 6), "quote"),
            ("name:\n\ta: b\n", (3, 0), "tab"),
            ("name: a\tb\n", (2, 7), "tab"),
            ("name:\tb\n", (2, 5), "tab"),
            ("name: x\n...\n", (3, 0), "document marker"),
            ("name: x\n--- y\n", (3, 0), "document marker"),
            ("name: a: b\n", (2, 7), "nested key"),
            ("name: a:\n", (2, 7), "nested key"),
            ("name: a\ndescription: b\nname: c\n", (4, 0), "twice"),
            ("name: 'a\n  b'\n", (2, 6), "does not end on its line"),
            ("name: \"a\n  b\"\n", (2, 6), "does not end on its line"),
            ("name: \"a\\qb\"\n", (2, 8), "escape"),
            ("name: \"\\ud800\"\n", (2, 7), "hexadecimal"),
            ("name: \"\\x4\"\n", (2, 7), "hexadecimal"),
            ("name: 'a' b\n", (2, 10), "after the quoted"),
            ("name: \"a\"# c\n", (2, 9), "after the quoted"),
            ("d: |2\n   a\n", (2, 4), "indentation indicator"),
            ("d: | x\n  a\n", (2, 5), "after a block scalar"),
            ("d: >\n  a\n    b\n", (4, 2), "more-indented"),
            ("d: |\n      \n  a\n", (3, 2), "blank line before"),
            ("d: |\n  a\n      \n", (4, 2), "blank line inside"),
            ("d: |+\n\nn: x\n", (2, 5), "no text"),
            ("d:\n  |\n    a\n", (3, 2), "own"),
            ("d: - a\n", (2, 3), "sequence cannot start"),
            ("d:\n- a\n  b: c\n", (4, 3), "nested key"),
            ("d:\n  - a\n  b: c\n", (4, 2), "indented more"),
            ("d: a # c\n  b\n", (3, 2), "indented more"),
            ("d: a\n  # c\n  b\n", (4, 2), "indented more"),
            ("d: a\n  - b\n", (3, 2), "indicator"),
            ("true: x\n", (2, 0), "quote it"),
            ("1: x\n", (2, 0), "quote it"),
            ("on: x\n", (2, 0), "quote it"),
            ("-k: x\n", (2, 0), "key cannot start"),
            (": x\n", (2, 0), "key is missing"),
            ("d: yes\n", (2, 3), "boolean"),
            ("d: 012\n", (2, 3), "quote it"),
            ("d: 2024-01-01\n", (2, 3), "quote it"),
            ("d: 18446744073709551616\n", (2, 3), "too large"),
            ("d:\n  a: 1\n  a: 2\n", (4, 2), "twice"),
            ("d: x\u{2028}y\n", (2, 4), "line break"),
            ("d: x\u{7}y\n", (2, 4), "control"),
            ("d: x\ry\n", (2, 4), "carriage return"),
            ("d: x\u{feff}\n", (2, 4), "byte order mark"),
            ("d: x\n  \t\n", (3, 2), "tab"),
        ];
        let e = refuse(&format!("d:\n{}x\n", "- ".repeat(70)));
        assert_eq!(at(&e), (3, 128), "{}", e.message);
        accept(&format!("d:\n{}x\n", "- ".repeat(64)));
        for (body, (line, column), words) in cases {
            let e = refuse(body);
            assert_eq!(at(&e), (*line, *column), "{body:?}: {}", e.message);
            assert!(e.message.contains(words), "{body:?}: {}", e.message);
            assert!(
                e.message.starts_with(|c: char| !c.is_uppercase()),
                "{}",
                e.message
            );
        }
    }

    /// What `yaml_serde` reads for `k: TOKEN` (`None`: an error), and whether `read`
    /// accepts it (then with the same JSON).
    const SCALARS: &[(&str, Option<&str>, bool)] = &[
        ("", Some("null"), true),
        ("null", Some("null"), true),
        ("Null", Some("null"), true),
        ("NULL", Some("null"), true),
        ("~", Some("null"), true),
        ("nULL", Some("\"nULL\""), true),
        ("true", Some("true"), true),
        ("True", Some("true"), true),
        ("TRUE", Some("true"), true),
        ("tRUE", Some("\"tRUE\""), true),
        ("false", Some("false"), true),
        ("False", Some("false"), true),
        ("FALSE", Some("false"), true),
        ("yes", Some("\"yes\""), false),
        ("No", Some("\"No\""), false),
        ("on", Some("\"on\""), false),
        ("OFF", Some("\"OFF\""), false),
        ("y", Some("\"y\""), false),
        ("n", Some("\"n\""), false),
        ("0", Some("0"), true),
        ("-0", Some("0"), true),
        ("+0", Some("0"), false),
        ("12", Some("12"), true),
        ("-12", Some("-12"), true),
        ("+1", Some("1"), false),
        ("012", Some("\"012\""), false),
        ("-012", Some("\"-012\""), false),
        ("08", Some("\"08\""), false),
        ("0x1F", Some("31"), false),
        ("0X1F", Some("\"0X1F\""), false),
        ("-0x1F", Some("-31"), false),
        ("0o17", Some("15"), false),
        ("0b101", Some("5"), false),
        ("0x", Some("\"0x\""), false),
        ("1_000", Some("\"1_000\""), false),
        ("1e3", Some("1000.0"), false),
        ("1E3", Some("1000.0"), false),
        ("1.5e3", Some("1500.0"), false),
        ("1.", Some("1.0"), false),
        (".5", Some("0.5"), false),
        ("-.5", Some("-0.5"), false),
        ("00.5", Some("0.5"), false),
        ("1.5", Some("1.5"), true),
        ("-1.5", Some("-1.5"), true),
        ("1.0", Some("1.0"), true),
        ("0.1", Some("0.1"), true),
        ("-0.0", Some("-0.0"), true),
        (
            "3.14159265358979323846264338327950288",
            Some("3.141592653589793"),
            true,
        ),
        (".inf", Some("null"), false),
        ("-.inf", Some("null"), false),
        ("+.inf", Some("null"), false),
        (".Inf", Some("null"), false),
        (".iNf", Some("\".iNf\""), false),
        (".nan", Some("null"), false),
        (".NaN", Some("null"), false),
        ("inf", Some("\"inf\""), true),
        ("-inf", Some("\"-inf\""), true),
        ("nan", Some("\"nan\""), true),
        ("NaN", Some("\"NaN\""), true),
        ("infinity", Some("\"infinity\""), true),
        ("Infinity", Some("\"Infinity\""), true),
        ("1e999", Some("\"1e999\""), false),
        ("18446744073709551615", Some("18446744073709551615"), true),
        ("18446744073709551616", None, false),
        ("-9223372036854775808", Some("-9223372036854775808"), true),
        ("-9223372036854775809", None, false),
        (
            "340282366920938463463374607431768211456",
            Some("3.402823669209385e38"),
            false,
        ),
        ("2024-01-01", Some("\"2024-01-01\""), false),
        ("2024-1-1", Some("\"2024-1-1\""), false),
        (
            "2024-01-01T10:00:00Z",
            Some("\"2024-01-01T10:00:00Z\""),
            false,
        ),
        (
            "2024-01-01 10:00:00",
            Some("\"2024-01-01 10:00:00\""),
            false,
        ),
        ("10:30", Some("\"10:30\""), false),
        ("1:2:3", Some("\"1:2:3\""), false),
        ("=", Some("\"=\""), false),
        ("<<", Some("\"<<\""), false),
        ("1.2.3", Some("\"1.2.3\""), true),
        ("1,000", Some("\"1,000\""), true),
        ("v1", Some("\"v1\""), true),
        ("2024", Some("2024"), true),
        ("20240101", Some("20240101"), true),
        ("1-2", Some("\"1-2\""), true),
        ("a_b", Some("\"a_b\""), true),
        ("_", Some("\"_\""), true),
        ("+", Some("\"+\""), true),
        ("-a", Some("\"-a\""), true),
        ("--flag", Some("\"--flag\""), true),
        ("a:b", Some("\"a:b\""), true),
        ("a#b", Some("\"a#b\""), true),
        (
            "http://example.com/a?b=c#d",
            Some("\"http://example.com/a?b=c#d\""),
            true,
        ),
        ("?a", Some("\"?a\""), false),
        (":a", Some("\":a\""), false),
    ];

    #[test]
    fn tricky_scalars_as_yaml_serde_reads_them() {
        for (token, theirs, accepted) in SCALARS {
            let text = doc(&format!("k: {token}\n"));
            let yaml = yaml_serde::from_str::<Value>(block(&text).expect("a block"));
            let expected = theirs.map(|json| {
                let value: Value = serde_json::from_str(json).expect("json");
                serde_json::json!({ "k": value })
            });
            assert_eq!(yaml.ok(), expected, "yaml_serde on {token:?}");
            let ours = differential(&text);
            assert_eq!(ours.is_ok(), *accepted, "read on {token:?}: {ours:?}");
            if let Err(e) = ours {
                assert_eq!(at(&e), (2, 3), "{token:?}");
                assert!(e.message.contains("quote"), "{token:?}: {}", e.message);
            }
        }
    }

    /// `true` for what `read` must accept (the forms skill authors write), `false` for
    /// what it must refuse; either way what it accepts is what `yaml_serde` reads.
    const CORPUS: &[(&str, bool)] = &[
        ("name: pdf\ndescription: Reads PDF files.\n", true),
        (
            "name: pdf-tools\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\n",
            true,
        ),
        ("name: 'pdf'\ndescription: \"Reads PDF files.\"\n", true),
        (
            "name: x\ndescription: 'It''s a \"quoted\" text: with # and : inside'\n",
            true,
        ),
        (
            "name: x\ndescription: \"Tab\\there, newline\\nhere, \\\"quotes\\\", \\\\ and \\u00e9\\x41\\/\"\n",
            true,
        ),
        (
            "name: x\ndescription: \"\\U0001F600 \\N\\_\\L\\P\\e\\0\\a\\b\\v\\f\\r\\ \\\t\"\n",
            true,
        ),
        ("name: x\ndescription: \"\"\n", true),
        ("name: x\ndescription: ''\n", true),
        ("name: x\ndescription: \"a\tb\"\n", true),
        ("name: x\ndescription: 'a\tb  '\n", true),
        (
            "name: x # the name\ndescription: z   # trailing comment\n",
            true,
        ),
        (
            "# leading comment\n\nname: x\n\n# between\ndescription: z\n\n",
            true,
        ),
        ("name: x\ndescription: a # b # c\n", true),
        ("name: x\ndescription: a#b c#d\n", true),
        (
            "name: x\ndescription: Use when the user asks about PDFs,\n  forms, or document extraction.\n",
            true,
        ),
        (
            "name: x\ndescription: first line\n   second line\n  third line\n",
            true,
        ),
        (
            "name: x\ndescription: first\n\n  second\n\n\n  third\n",
            true,
        ),
        ("name: x\ndescription: first   \n    \n  second  \n", true),
        (
            "name: x\ndescription: first\n  second # comment\nlicense: MIT\n",
            true,
        ),
        (
            "name: x\ndescription:\n  on the next line\n  and the one after\n",
            true,
        ),
        (
            "name: x\ndescription:\n    deep first\n  shallower second\n",
            true,
        ),
        ("name: x\ndescription:\n  'quoted on the next line'\n", true),
        ("name: x\ndescription: |\n  Line one.\n  Line two.\n", true),
        (
            "name: x\ndescription: |-\n  Line one.\n  Line two.\n\n",
            true,
        ),
        (
            "name: x\ndescription: |+\n  Line one.\n  Line two.\n\n\nlicense: MIT\n",
            true,
        ),
        (
            "name: x\ndescription: |\n\n  after a blank\n\n  and\n\n\n    indented more\n  back\n\n",
            true,
        ),
        (
            "name: x\ndescription: |\n  # not a comment\n    - not a list\n  key: not a key\n # a comment\nlicense: MIT\n",
            true,
        ),
        ("name: x\ndescription: | # comment\n  text\n", true),
        (
            "name: x\ndescription: |\n  trailing spaces  \n  and\ttabs\t\n",
            true,
        ),
        (
            "name: x\ndescription: >\n  Folded\n  into one line.\n\n  New paragraph.\n",
            true,
        ),
        (
            "name: x\ndescription: >-\n  Folded\n  stripped.\n\n\n",
            true,
        ),
        ("name: x\ndescription: >+\n  Folded\n  kept.\n\n\n", true),
        ("name: x\ndescription: >\n\n\n  leading blanks\n", true),
        ("name: x\ndescription: >\n  trailing space \n  next\n", true),
        ("name: x\ndescription: |+\n  kept at the end\n\n\n", true),
        ("name: x\ndescription: |\nlicense: MIT\n", true),
        ("name: x\ndescription: >-\n\nlicense: MIT\n", true),
        (
            "name: x\nmetadata:\n  author: someone\n  version: \"1.0\"\n",
            true,
        ),
        (
            "name: x\nmetadata:\n    author: someone\n    team: docs\nlicense: MIT\n",
            true,
        ),
        (
            "name: x\nmetadata:\n  nested:\n    deeper:\n      deepest: yes-ish\n  back: 1\n",
            true,
        ),
        (
            "name: x\nmetadata:\n # comment\n  a: b\n\n  # another\n  c: d\n",
            true,
        ),
        ("name: x\nmetadata:\n  a:\n  b: ~\n  c: null\n", true),
        (
            "name: x\nallowed-tools:\n  - Read\n  - Write\n  - Bash(git:*)\n",
            true,
        ),
        (
            "name: x\nallowed-tools:\n- Read\n- Write\nlicense: MIT\n",
            true,
        ),
        (
            "name: x\ntags:\n  - 'quoted'\n  - \"double\"\n  - plain # comment\n  -\n  - 12\n  - 1.5\n  - true\n",
            true,
        ),
        (
            "name: x\nitems:\n  - name: a\n    value: 1\n  - name: b\n    value: 2\n",
            true,
        ),
        ("name: x\nitems:\n- name: a\n  value: 1\n- name: b\n", true),
        ("name: x\nitems:\n  - - a\n    - b\n  - - c\n", true),
        (
            "name: x\nitems:\n  -\n    a: 1\n  -\n    - b\n  -\n    text\n",
            true,
        ),
        (
            "name: x\nitems:\n  - |\n    block in a list\n  - >-\n    folded\n    item\n",
            true,
        ),
        (
            "name: x\nitems:\n  - a: |\n      block in a map in a list\n    b: c\n",
            true,
        ),
        (
            "name: x\nitems:\n  - a:\n    - indentless under a compact key\n    b: c\n",
            true,
        ),
        (
            "name: x\nitems:\n  - a long item\n    continued\n  - next\n",
            true,
        ),
        ("name: x\nitems:\n  -   spaced: 1\n      more: 2\n", true),
        (
            "name: x\nkey with spaces: v\na.b: c\na/b: c\ncafé: ü\n日本: 語\n",
            true,
        ),
        (
            "name: x\n\"quoted key\": v\n'single key': w\n\"a b\" : c\n",
            true,
        ),
        ("name : x\ndescription  :   z\n", true),
        (
            "name: x\nurl: http://example.com:8080/path\ntime: a:b:c\n",
            true,
        ),
        (
            "name: x\na: -1\nb: 0\nc: 2.5\nd: -0.125\ne: 18446744073709551615\n",
            true,
        ),
        (
            "name: x\na: a [b] {c} d, e\nb: it's\nc: say \"hi\"\nd: 100%\ne: a & b * c ! d | e > f\n",
            true,
        ),
        ("name: x\na: ~\nb:\nc: null # comment\n", true),
        ("name: x\na: inf\nb: nan\nc: 1.2.3\n", true),
        (
            "name: x\ndescription: first\n  \"quoted\" continuation\n  'single' too\n",
            true,
        ),
        (
            "name: x\ndescription: first\n  [bracket] {brace} &amp *star !bang |pipe >gt %pct @at `tick\n",
            true,
        ),
        ("name: x\ndescription: a\n\n", true),
        (
            "name: x\ndescription: last line without comment\n# final comment\n",
            true,
        ),
        ("name: x\nlist:\n  - a\n\n  # comment\n  - b\n", true),
        ("name: x\nlist:\n- a\n# comment at 0\n- b\n", true),
        ("name: x\nmeta:\n  list:\n  - a\n  - b\n  other: c\n", true),
        (
            "name: x\ndescription: \"\\u00e9\\u4e2d\\U0001f600\"\n",
            true,
        ),
        ("name: x\ndescription: \"\\x00\\x7f\"\n", true),
        (
            "name: x\n\"a\\tb \\u00e9\": x\na:: b\na:b: c\n'it''s': d\n",
            true,
        ),
        ("name: x\nlist:\n  -   \n  - a   \n  -  # c\n", true),
        ("name: x\ndescription: a\n  ---\n  ...\n  b\n", true),
        ("name: x\ndescription: |\n  ---\n  ...\n  %x\n", true),
        ("name: [x]\n", false),
        ("name: x\nlist: [a, b]\n", false),
        ("name: x\nmeta: {a: b}\n", false),
        ("base: &b x\nother: *b\n", false),
        ("name: !!str x\n", false),
        ("name: x\n? complex\n: key\n", false),
        ("name: x\n---\ndescription: z\n", true),
        ("name: x\ndescription: z\n...\n", false),
        ("name: \"multi\n  line\"\n", false),
        ("name: 'multi\n  line'\n", false),
        ("name: x\nname: y\n", false),
        ("name: x\n\"name\": y\n", false),
        ("name: x\ndescription: |1\n  a\n", false),
        ("name: x\ndescription: >\n  a\n   b\n", false),
        ("name: x\ndescription: yes\n", false),
        ("name: x\nversion: 1.10.0\n", true),
        ("name: x\nversion: 1.10\n", true),
        ("name: x\nversion: 01\n", false),
        ("name: x\ndate: 2025-01-31\n", false),
        ("name: x\n  description: y\n", false),
        ("name: x\ndescription: z\n  w: v\n", false),
        ("\tname: x\n", false),
        ("name:\n\t- x\n", false),
        ("- a\n", false),
        ("just a scalar\n", false),
        ("name: x\ndescription: a\n  - b\n", false),
        ("name: x\nlist:\n  - a\n   - b\n", false),
        ("name: x\nlist:\n  - a\n - b\n", false),
        ("name: x\nmeta:\n  a: 1\n b: 2\n", false),
        ("name: x\nmeta:\n  a: 1\n   b: 2\n", false),
        ("name: x\ndescription: >\n  a\n\t b\n", false),
        ("name: x\ndescription: |\n   \n  a\n", false),
    ];

    #[test]
    fn corpus_matches_yaml_serde() {
        for (body, accepted) in CORPUS {
            let ours = differential(&doc(body));
            assert_eq!(ours.is_ok(), *accepted, "{body:?}: {ours:?}");
            let crlf = differential(&doc(body).replace('\n', "\r\n"));
            assert_eq!(crlf.map(|f| f.map), ours.map(|f| f.map), "CRLF {body:?}");
        }
        assert!(CORPUS.len() >= 80, "{}", CORPUS.len());
    }

    #[test]
    fn long_keys() {
        let key = "k".repeat(500);
        assert_eq!(accept(&format!("{key}: x\n"))[&key], "x");
        let e = refuse(&format!("{}: x\n", "k".repeat(600)));
        assert_eq!(at(&e), (2, 0));
        assert!(e.message.contains("too long"), "{}", e.message);
    }

    #[test]
    fn common_forms_read_as_written() {
        let read = accept(
            "name: pdf\n\
             description: >\n  Reads PDF files\n  and forms.\n\
             license: 'Apache-2.0'\n\
             metadata:\n  author: \"someone\"\n  version: 1.0\n\
             allowed-tools:\n  - Read\n  - Bash(pdftotext:*)\n\
             notes: |\n  one\n  two\n\
             summary: several lines\n  of plain text\n",
        );
        assert_eq!(
            read,
            serde_json::json!({
                "name": "pdf",
                "description": "Reads PDF files and forms.\n",
                "license": "Apache-2.0",
                "metadata": {"author": "someone", "version": 1.0},
                "allowed-tools": ["Read", "Bash(pdftotext:*)"],
                "notes": "one\ntwo\n",
                "summary": "several lines of plain text",
            })
        );
    }

    /// Plain tokens authors write.
    const WORDS: &[&str] = &[
        "hello",
        "Hello world",
        "Reads PDF files and fills forms.",
        "v1",
        "MIT",
        "Apache-2.0",
        "x",
        "it's",
        "say \"hi\"",
        "a, b",
        "a [b] {c}",
        "http://x.y/z",
        "a:b",
        "a#b",
        "-a",
        "--flag",
        "café",
        "日本語",
        "1.2.3",
        "a - b",
        "C++",
        "100%",
        "a&b *c !d",
        "12",
        "1.5",
        "true",
        "null",
    ];

    /// Tokens YAML reads in surprising ways, or refuses.
    const TRICKY: &[&str] = &[
        "null",
        "Null",
        "~",
        "true",
        "False",
        "TRUE",
        "tRUE",
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "n",
        "0",
        "-0",
        "+1",
        "12",
        "-7",
        "012",
        "0x1F",
        "0o17",
        "0b1",
        "1_000",
        "1e3",
        "1.5",
        "-1.5",
        "1.",
        ".5",
        "-.5",
        ".inf",
        ".NaN",
        "inf",
        "nan",
        "2024-01-01",
        "10:30",
        "18446744073709551616",
        "-9223372036854775809",
        "=",
        "<<",
        "a: b",
        "a:",
        "- a",
        "-",
        "? a",
        "?a",
        ":a",
        "[a]",
        "{a: b}",
        "&x",
        "*x",
        "!x",
        "%x",
        "@x",
        "`x",
        "| x",
        "> x",
        "#x",
        "a #b",
        "'q'",
        "\"q\"",
        "'open",
        "\"bad \\q\"",
        "\"\\x41\\u00e9\\/\"",
        "a\tb",
        " lead",
        "trail ",
        "---",
        "...",
        "\\n",
        "é",
        "a''b",
        "\"",
        "'",
        "a'",
        "#",
        "a ",
        " # c",
        ": x",
        "x:y:z",
        "- - a",
        "|",
        ">-",
        "|+",
    ];

    const KEYS: &[&str] = &[
        "name",
        "description",
        "license",
        "allowed-tools",
        "metadata",
        "version",
        "author",
        "a",
        "b",
        "key with spaces",
        "a.b",
        "a/b",
        "café",
        "a#b",
        "a:b",
        "a[b]",
        "x_y",
        "\"quoted\"",
        "'single'",
        "\"a b\"",
        "1",
        "true",
        "null",
        "yes",
        "on",
        "-k",
        "~",
        "1.5",
        "2024-01-01",
        "<<",
        "k ",
        "? k",
        "&a k",
        "[k]",
        "\"\"",
        "a #b",
    ];

    fn token() -> impl Strategy<Value = String> {
        prop_oneof![4 => select(WORDS), 1 => select(TRICKY)].prop_map(str::to_owned)
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![6 => select(&KEYS[..8]), 1 => select(KEYS)].prop_map(str::to_owned)
    }

    #[derive(Debug, Clone)]
    enum Scalar {
        Plain(String),
        Single(String),
        /// Escaping every character that is not alphanumeric.
        Double(String, bool),
        /// `|` or `>`, its chomping, its indentation step, and its lines: each an extra
        /// indentation and a text (blank lines: the spaces on them).
        Block(bool, &'static str, usize, Vec<(usize, String)>),
        /// A multi-line plain scalar: its lines (empty: blank), continued this much more
        /// indented than its parent.
        Lines(Vec<String>, usize),
        Empty,
    }

    #[derive(Debug, Clone)]
    enum Node {
        Scalar(Scalar),
        /// Entries, indentation step.
        Map(Vec<(String, Node, Deco)>, usize),
        /// Items (each maybe compact: on the `-` line), indentation step, indentless
        /// under a key.
        Seq(Vec<(Node, bool, Deco)>, usize, bool),
    }

    /// A comment line before, a comment after, a blank line after.
    #[derive(Debug, Clone, Copy)]
    struct Deco(bool, bool, bool);

    fn deco() -> impl Strategy<Value = Deco> {
        let b = || prop::bool::weighted(0.15);
        (b(), b(), b()).prop_map(|(a, b, c)| Deco(a, b, c))
    }

    fn scalar() -> impl Strategy<Value = Scalar> {
        let line = prop_oneof![
            8 => (Just(0usize), token()),
            1 => (1usize..3, token()),
            2 => ((0usize..5), Just(String::new())),
        ];
        prop_oneof![
            6 => token().prop_map(Scalar::Plain),
            2 => token().prop_map(Scalar::Single),
            2 => (token(), any::<bool>()).prop_map(|(t, all)| Scalar::Double(t, all)),
            3 => (any::<bool>(), select(&["", "-", "+"][..]), 1usize..4, prop::collection::vec(line, 1..5))
                .prop_map(|(literal, chomp, step, lines)| Scalar::Block(literal, chomp, step, lines)),
            2 => (prop::collection::vec(prop_oneof![4 => token(), 1 => Just(String::new())], 1..4), 1usize..4)
                .prop_map(|(lines, extra)| Scalar::Lines(lines, extra)),
            1 => Just(Scalar::Empty),
        ]
    }

    fn node() -> impl Strategy<Value = Node> {
        scalar()
            .prop_map(Node::Scalar)
            .prop_recursive(3, 24, 4, |inner| {
                prop_oneof![
                    (
                        prop::collection::vec((key(), inner.clone(), deco()), 1..4),
                        1usize..5
                    )
                        .prop_map(|(entries, step)| Node::Map(unique(entries), step)),
                    (
                        prop::collection::vec((inner, prop::bool::weighted(0.3), deco()), 1..4),
                        1usize..5,
                        any::<bool>()
                    )
                        .prop_map(|(items, step, indentless)| Node::Seq(items, step, indentless)),
                ]
            })
    }

    /// A whole SKILL.md: a top-level mapping, maybe with CRLF line breaks.
    fn skill() -> impl Strategy<Value = String> {
        (
            prop::collection::vec((key(), node(), deco()), 1..6),
            prop::bool::weighted(0.2),
        )
            .prop_map(|(entries, crlf)| {
                let mut out = String::new();
                render_entries(&unique(entries), 0, false, &mut out);
                let text = doc(&out);
                if crlf {
                    text.replace('\n', "\r\n")
                } else {
                    text
                }
            })
    }

    /// The entries with a key not used before them: duplicate keys are refused (see the
    /// corpus), and would be too often.
    fn unique(mut entries: Vec<(String, Node, Deco)>) -> Vec<(String, Node, Deco)> {
        let mut seen = std::collections::HashSet::new();
        entries.retain(|(key, _, _)| seen.insert(key.trim_matches(['"', '\'', ' ']).to_owned()));
        entries
    }

    fn pad(out: &mut String, n: usize) {
        out.push_str(&" ".repeat(n));
    }

    fn render_entries(
        entries: &[(String, Node, Deco)],
        col: usize,
        inline: bool,
        out: &mut String,
    ) {
        for (i, (key, node, deco)) in entries.iter().enumerate() {
            if !(inline && i == 0) {
                if deco.0 {
                    pad(out, col);
                    out.push_str("# note\n");
                }
                pad(out, col);
            }
            out.push_str(key);
            out.push(':');
            render_value(node, col, true, deco.1, out);
            if deco.2 {
                out.push('\n');
            }
        }
    }

    fn render_items(items: &[(Node, bool, Deco)], col: usize, inline: bool, out: &mut String) {
        for (i, (node, compact, deco)) in items.iter().enumerate() {
            if !(inline && i == 0) {
                if deco.0 {
                    pad(out, col);
                    out.push_str("# note\n");
                }
                pad(out, col);
            }
            out.push('-');
            match (node, compact) {
                (Node::Map(entries, _), true) => {
                    out.push(' ');
                    render_entries(entries, col + 2, true, out);
                }
                (Node::Seq(items, _, _), true) => {
                    out.push(' ');
                    render_items(items, col + 2, true, out);
                }
                _ => render_value(node, col, false, deco.1, out),
            }
            if deco.2 {
                out.push('\n');
            }
        }
    }

    /// `node` after its key's `:` or its item's `-` in a collection at `col`.
    fn render_value(node: &Node, col: usize, in_map: bool, comment: bool, out: &mut String) {
        let comment = if comment { " # c" } else { "" };
        match node {
            Node::Scalar(scalar) => render_scalar(scalar, col, comment, out),
            Node::Map(entries, step) => {
                out.push_str(comment);
                out.push('\n');
                render_entries(entries, col + step, false, out);
            }
            Node::Seq(items, step, indentless) => {
                out.push_str(comment);
                out.push('\n');
                render_items(
                    items,
                    if *indentless && in_map {
                        col
                    } else {
                        col + step
                    },
                    false,
                    out,
                );
            }
        }
    }

    fn render_scalar(scalar: &Scalar, col: usize, comment: &str, out: &mut String) {
        match scalar {
            Scalar::Plain(t) => out.push_str(&format!(" {t}{comment}\n")),
            Scalar::Single(t) => out.push_str(&format!(" '{}'{comment}\n", t.replace('\'', "''"))),
            Scalar::Double(t, all) => {
                out.push_str(&format!(" \"{}\"{comment}\n", escaped(t, *all)))
            }
            Scalar::Empty => out.push_str(&format!("{comment}\n")),
            Scalar::Block(literal, chomp, step, lines) => {
                out.push_str(&format!(
                    " {}{chomp}{comment}\n",
                    if *literal { '|' } else { '>' }
                ));
                for (extra, t) in lines {
                    if t.is_empty() {
                        pad(out, *extra);
                    } else {
                        pad(out, col + step + extra);
                        out.push_str(t);
                    }
                    out.push('\n');
                }
            }
            Scalar::Lines(lines, extra) => {
                for (i, t) in lines.iter().enumerate() {
                    if i == 0 {
                        out.push(' ');
                    } else if !t.is_empty() {
                        pad(out, col + extra);
                    }
                    out.push_str(t);
                    if i + 1 == lines.len() {
                        out.push_str(comment);
                    }
                    out.push('\n');
                }
            }
        }
    }

    fn escaped(t: &str, all: bool) -> String {
        t.chars()
            .map(|c| match c {
                '"' => "\\\"".to_owned(),
                '\\' => "\\\\".to_owned(),
                c if all && c == '\t' => "\\t".to_owned(),
                c if all && !c.is_ascii_alphanumeric() && u32::from(c) > 0xffff => {
                    format!("\\U{:08x}", u32::from(c))
                }
                c if all && !c.is_ascii_alphanumeric() && u32::from(c) > 0xff => {
                    format!("\\u{:04X}", u32::from(c))
                }
                c if all && !c.is_ascii_alphanumeric() => format!("\\x{:02x}", u32::from(c)),
                c => c.to_string(),
            })
            .collect()
    }

    /// Lines of any indentation drawn from templates: mostly invalid structures.
    fn soup() -> impl Strategy<Value = String> {
        let line = (0usize..6, 0u8..12, key(), token());
        prop::collection::vec(line, 1..10).prop_map(|lines| {
            let mut out = String::new();
            for (indent, template, key, token) in lines {
                pad(&mut out, indent);
                out.push_str(&match template {
                    0 | 1 => format!("{key}: {token}"),
                    2 => format!("{key}:"),
                    3 => format!("- {token}"),
                    4 => "-".to_owned(),
                    5 => format!("- {key}: {token}"),
                    6 => token,
                    7 => "# c".to_owned(),
                    8 => String::new(),
                    9 => format!("{key}: |"),
                    10 => format!("{key}: >-"),
                    _ => format!("- - {token}"),
                });
                out.push('\n');
            }
            doc(&out)
        })
    }

    /// A corpus entry with characters inserted and removed.
    fn mutant() -> impl Strategy<Value = String> {
        let edit = (
            any::<prop::sample::Index>(),
            any::<bool>(),
            select(
                &[
                    ' ', '\n', '-', ':', '#', '\'', '"', '|', '>', '\t', 'a', '1', '[', '&', '.',
                    '\\',
                ][..],
            ),
        );
        (select(CORPUS), prop::collection::vec(edit, 1..4)).prop_map(|((body, _), edits)| {
            let mut chars: Vec<char> = body.chars().collect();
            for (index, insert, c) in edits {
                let i = index.index(chars.len() + 1);
                if insert {
                    chars.insert(i, c);
                } else if i < chars.len() {
                    chars.remove(i);
                }
            }
            let mut body: String = chars.into_iter().collect();
            if !body.ends_with('\n') {
                body.push('\n');
            }
            doc(&body)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn generated_frontmatters_match_yaml_serde(text in skill()) {
            let _ = differential(&text);
        }

        #[test]
        fn line_soups_match_yaml_serde(text in soup()) {
            let _ = differential(&text);
        }

        #[test]
        fn random_text_matches_yaml_serde(body in r#"(k: |- |[ ab:#'"|>\\1.~+-]|\n  |\n|\t){0,40}"#) {
            let _ = differential(&doc(&format!("{body}\n")));
        }

        #[test]
        fn mutated_corpus_matches_yaml_serde(text in mutant()) {
            let _ = differential(&text);
        }
    }

    /// The generator is worth something only if `read` accepts much of what it makes.
    #[test]
    fn generated_frontmatters_are_mostly_read() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = skill();
        let total = 500;
        let mut accepted = 0;
        for _ in 0..total {
            let text = strategy.new_tree(&mut runner).expect("a value").current();
            accepted += usize::from(differential(&text).is_ok());
        }
        assert!(accepted * 100 >= total * 30, "{accepted} of {total} read");
    }
}

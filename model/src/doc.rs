//! Doc comments as the model reads them: joined as rustdoc joins them, and plain text
//! where rustdoc would make a link.
//!
//! Authors write doc comments for rustdoc (``[`Sku`]``, ``[the store](crate::Store)``),
//! and the same comments become the `description` of tools, fields, variants and outputs.
//! A link's target means nothing to a model, so [`plain_text`] keeps each link's text and
//! drops the rest; [`join_doc`] applies it to every doc comment the toolkit reads, at
//! compile time, in the build script and at run time alike.

use std::borrow::Cow;

/// Joins doc-comment lines as rustdoc does (common indentation removed, blank lines at
/// both ends dropped, lines joined with `\n`), then makes the links plain text
/// ([`plain_text`]).
///
/// ```
/// use neuralis_model::doc::join_doc;
/// assert_eq!(join_doc(&[" City name.", "", "   Indented."]), "City name.\n\n  Indented.");
/// assert_eq!(join_doc(&["a\r\nb\n"]), "a\nb");
/// assert_eq!(join_doc(&[" What [`Notes::list`] returns."]), "What `Notes::list` returns.");
/// ```
#[must_use]
pub fn join_doc(parts: &[&str]) -> String {
    let lines: Vec<&str> = parts.iter().flat_map(|p| p.split('\n')).collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    plain_text(body.join("\n").trim_matches('\n'))
}

/// The meanings of an enum's documented values, as the one paragraph a model reads beside
/// the portable `enum` (which stays a plain list of strings, the one construct every
/// provider keeps): each documented value in declaration order as `` `value`: meaning ``,
/// joined with `; `, ending with a period. A meaning is the first paragraph of the
/// variant's doc comment (as [`join_doc`] gives it) on one line, without its closing
/// period; a variant with no doc comment is left out, and `None` means none had one.
///
/// ```
/// use neuralis_model::doc::variant_meanings;
/// assert_eq!(
///     variant_meanings([("page", "Paging the on-call engineer."), ("log", ""),
///                       ("notify", "A message in the\nteam channel.\n\nNever at night.")]),
///     Some("`page`: Paging the on-call engineer; `notify`: A message in the team channel.".into())
/// );
/// assert_eq!(variant_meanings([("a", "")]), None);
/// ```
#[must_use]
pub fn variant_meanings<'a>(
    variants: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<String> {
    let mut out = String::new();
    for (value, doc) in variants {
        let first = doc.split("\n\n").next().unwrap_or_default();
        let line = first.split_whitespace().collect::<Vec<_>>().join(" ");
        let meaning = line.strip_suffix('.').unwrap_or(&line);
        if meaning.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push('`');
        out.push_str(value);
        out.push_str("`: ");
        out.push_str(meaning);
    }
    if out.is_empty() {
        return None;
    }
    out.push('.');
    Some(out)
}

/// `description` with `meanings` ([`variant_meanings`]) as its last paragraph; `meanings`
/// alone when there is no description.
///
/// ```
/// use neuralis_model::doc::with_meanings;
/// assert_eq!(with_meanings(Some("How to alert."), "`page`: Paging."), "How to alert.\n\n`page`: Paging.");
/// assert_eq!(with_meanings(None, "`page`: Paging."), "`page`: Paging.");
/// ```
#[must_use]
pub fn with_meanings(description: Option<&str>, meanings: &str) -> String {
    match description.filter(|d| !d.is_empty()) {
        Some(d) => format!("{d}\n\n{meanings}"),
        None => meanings.to_owned(),
    }
}

/// The meanings paragraph ([`variant_meanings`]) that ends `description`, for a schema
/// whose `enum` is `values`: its last paragraph when it opens with one of the values as
/// `` `value`: ``. A description set over the schema (a field's own doc comment) keeps it,
/// so the values' meanings reach the model whichever description it reads.
///
/// ```
/// use neuralis_model::doc::meanings_in;
/// use serde_json::json;
/// let values = [json!("page"), json!("notify")];
/// assert_eq!(meanings_in("Alerts.\n\n`notify`: A message.", &values), Some("`notify`: A message."));
/// assert_eq!(meanings_in("`page`: Paging.", &values), Some("`page`: Paging."));
/// assert_eq!(meanings_in("Alerts.\n\n`other`: x.", &values), None);
/// ```
#[must_use]
pub fn meanings_in<'a>(description: &'a str, values: &[serde_json::Value]) -> Option<&'a str> {
    let last = description.rsplit("\n\n").next().unwrap_or(description);
    let rest = last.strip_prefix('`')?;
    values
        .iter()
        .filter_map(serde_json::Value::as_str)
        .any(|v| rest.strip_prefix(v).is_some_and(|r| r.starts_with("`: ")))
        .then_some(last)
}

/// Markdown links as their text, the way a reader of the rendered docs sees them:
///
/// - an inline link `[text](target)` and a reference link `[text][label]` or
///   `[text][]` become `text`;
/// - an intra-doc link written as a shortcut, ``[`Sku`]``, `[Sku]`,
///   `[Warehouse::stock_search]`, `[fn@search]`, `[vec!]`, becomes its text (``
///   `Sku` ``, `Sku`, ...; a disambiguator such as `fn@` is dropped, as rustdoc shows it);
///   brackets that are no path (`[0, 1]`, `[x]` in prose with spaces) stay as written;
/// - a line that only defines a reference (`[label]: target`) is dropped.
///
/// Code spans and fenced code blocks are left alone, and so is anything that does not
/// parse as a link. Blank lines left at either end are trimmed.
///
/// ```
/// use neuralis_model::doc::plain_text;
/// assert_eq!(plain_text("Get one [`Sku`]; see [`Warehouse::stock_search`]."),
///            "Get one `Sku`; see `Warehouse::stock_search`.");
/// assert_eq!(plain_text("Read [the guide](https://example.com) or [the store][s].\n\n[s]: crate::Store"),
///            "Read the guide or the store.");
/// assert_eq!(plain_text("A ratio in [0, 1]; `a[i]` as is."), "A ratio in [0, 1]; `a[i]` as is.");
/// ```
#[must_use]
pub fn plain_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    let mut first = true;
    for line in text.split('\n') {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            if trimmed.starts_with(marker) {
                fence = None;
            }
            push_line(&mut out, &mut first, line);
            continue;
        }
        if let Some(marker) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = Some(marker);
            push_line(&mut out, &mut first, line);
            continue;
        }
        if is_reference_definition(trimmed) {
            continue;
        }
        let plain = plain_line(line);
        push_line(&mut out, &mut first, &plain);
    }
    out.trim_matches('\n').to_owned()
}

fn push_line(out: &mut String, first: &mut bool, line: &str) {
    if !*first {
        out.push('\n');
    }
    *first = false;
    out.push_str(line);
}

/// `[label]: target` (up to three spaces of indentation, as CommonMark allows).
fn is_reference_definition(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('[') else {
        return false;
    };
    let Some(close) = rest.find("]:") else {
        return false;
    };
    let label = &rest[..close];
    !label.is_empty()
        && !label.contains(['[', ']'])
        && !rest[close + 2..].trim().is_empty()
        && !rest[close + 2..].trim().contains(char::is_whitespace)
}

/// One line with its links made plain; code spans copied as they are.
fn plain_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(['`', '[']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('`') {
            let span = code_span(rest);
            out.push_str(&rest[..span]);
            rest = &rest[span..];
            continue;
        }
        match link(rest) {
            Some((text, len)) => {
                out.push_str(&plain_line(&text));
                rest = &rest[len..];
            }
            None => {
                out.push('[');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length of the code span that opens `s` (a run of backticks up to the same run),
/// or of the backtick run alone when nothing closes it.
fn code_span(s: &str) -> usize {
    let run = s.len() - s.trim_start_matches('`').len();
    let ticks = &s[..run];
    let mut from = run;
    while let Some(at) = s[from..].find(ticks) {
        let start = from + at;
        let end = start + s[start..].len() - s[start..].trim_start_matches('`').len();
        if end - start == run {
            return end;
        }
        from = end;
    }
    run
}

/// The text of the link that opens `s` (at its `[`) and the link's length in `s`.
fn link(s: &str) -> Option<(Cow<'_, str>, usize)> {
    let close = closing_bracket(s)?;
    let text = &s[1..close];
    let after = &s[close + 1..];
    if after.starts_with('(') {
        let end = closing_paren(after)?;
        return Some((Cow::Borrowed(text), close + 1 + end + 1));
    }
    if let Some(label) = after.strip_prefix('[') {
        let end = label.find(']')?;
        if label[..end].contains('[') {
            return None;
        }
        return Some((Cow::Borrowed(text), close + 1 + end + 2));
    }
    path_text(text).map(|shown| (shown, close + 1))
}

/// The `]` that closes the `[` at the start of `s`, skipping code spans and nested pairs.
fn closing_bracket(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                i += code_span(&s[i..]);
                continue;
            }
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The `)` that closes the `(` at the start of `s` (nested pairs allowed, as in URLs).
fn closing_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            // `[text](target "title")` has a space before the title; a bare space
            // elsewhere means this is prose, not a link target.
            c if c.is_whitespace()
                && depth == 1
                && !s[..i].contains('"')
                && !s[i..].trim_start().starts_with(['"', '\'']) =>
            {
                return None;
            }
            _ => {}
        }
    }
    None
}

/// What rustdoc shows for a shortcut intra-doc link `[text]`, when `text` is a path
/// (optionally in backticks, with a disambiguator, generics, `()` or `!`); `None` for
/// brackets that are no link.
fn path_text(text: &str) -> Option<Cow<'_, str>> {
    let (inner, ticked) = match text.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        Some(inner) => (inner, true),
        None => (text, false),
    };
    let path = match inner.split_once('@') {
        Some((kind, path)) if DISAMBIGUATORS.contains(&kind) => path,
        Some(_) => return None,
        None => inner,
    };
    let first = path.chars().next()?;
    let is_path = (first.is_alphabetic() || first == '_')
        && path
            .chars()
            .all(|c| c.is_alphanumeric() || "_:<>,!()&*".contains(c))
        && !path.ends_with(':');
    if !is_path {
        return None;
    }
    Some(match (ticked, inner.len() == path.len()) {
        (_, true) => Cow::Borrowed(text),
        (true, false) => Cow::Owned(format!("`{path}`")),
        (false, false) => Cow::Borrowed(path),
    })
}

/// rustdoc's disambiguators (`struct@Foo`, `fn@foo`...).
const DISAMBIGUATORS: &[&str] = &[
    "struct",
    "enum",
    "trait",
    "union",
    "mod",
    "module",
    "const",
    "constant",
    "static",
    "function",
    "fn",
    "method",
    "derive",
    "type",
    "value",
    "macro",
    "prim",
    "primitive",
    "field",
    "variant",
    "tyalias",
];

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn each_form() {
        let cases = [
            ("[`Sku`]", "`Sku`"),
            ("[Sku]", "Sku"),
            (
                "see [`Warehouse::stock_search`].",
                "see `Warehouse::stock_search`.",
            ),
            ("[`Vec<T>`] and [vec!]", "`Vec<T>` and vec!"),
            ("[fn@search] and [struct@Sku]", "search and Sku"),
            ("[`fn@search`]", "`search`"),
            ("[the store](crate::Store)", "the store"),
            ("[docs](https://e.com/a_(b)) end", "docs end"),
            ("[docs](https://e.com \"Title\")", "docs"),
            ("[the store][store] and [`Sku`][]", "the store and `Sku`"),
            ("[**bold** link](x)", "**bold** link"),
            ("nested [[`A`]](x)", "nested `A`"),
            ("a ratio in [0, 1]", "a ratio in [0, 1]"),
            ("[x] done", "x done"),
            ("[not a link] here", "[not a link] here"),
            ("`a[i]` stays, `[Sku]` too", "`a[i]` stays, `[Sku]` too"),
            ("unclosed [bracket", "unclosed [bracket"),
            ("[text] (spaced)", "text (spaced)"),
            (
                "an email [me]: not a definition mid-line",
                "an email me: not a definition mid-line",
            ),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(plain_text(input), want, "{input:?}");
        }
    }

    #[test]
    fn definitions_and_fences() {
        let text = "Uses [the store][s].\n\n```\nlet a = [x][0];\n[s]: kept\n```\n\n[s]: crate::Store\n  [Sku]: crate::Sku";
        assert_eq!(
            plain_text(text),
            "Uses the store.\n\n```\nlet a = [x][0];\n[s]: kept\n```"
        );
    }
}

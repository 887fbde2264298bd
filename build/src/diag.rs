//! Build diagnostics, shown as rustc shows its own: the rule id leading the message, the
//! file (an absolute path, which a terminal or an editor opens from wherever cargo was
//! started) with line and column, the source line with a caret under the token, and the
//! help and notes under it, one block per diagnostic, rendered by `annotate-snippets`
//! (rustc's renderer). Locations come from proc-macro2's `span-locations`, as in
//! cxx-build.
//!
//! A run collects every diagnostic, then sorts them by file, line and column and drops
//! repeats (one type used by two tools is one message). How they reach the author
//! depends on cargo, which shows a build script's output only through `cargo::warning=`
//! and `cargo::error=` lines (one line each: a message of several lines would be as many
//! warnings or errors) and, when the script fails, its stderr as one piece:
//! - when something stops the build, the whole report (errors and warnings, in order) is
//!   for stderr, and the script ends with a failure ([`crate::Builder::emit`]);
//! - otherwise each warning is one `cargo:warning=` line, `rule-id: message --> path:line:col`,
//!   and what the compiler reports anyway (a handler the macros reject, a file it cannot
//!   read) is left to the compiler: cargo repeats a build script's warnings when the crate
//!   then fails to compile, so each would show twice beside the compiler's own error.

use std::sync::Arc;

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::collections::BTreeMap;

use neuralis_model::RuleId;
use neuralis_model::checker::{CheckOptions, check_value_using};
use neuralis_model::dialect::Provider;
use proc_macro2::Span;
use serde_json::Value;

use crate::compose::FieldBounds;
use crate::discover::Crate;
use crate::{Error, Summary};

/// A span in one of the crate's source files.
#[derive(Debug, Clone)]
pub struct Loc {
    /// Index into [`Crate::sources`].
    pub file: usize,
    /// The span.
    pub span: Span,
}

impl Loc {
    /// `/path/to/pkg/src/tools.rs:12:5` (line and column from 1).
    #[must_use]
    pub fn display(&self, krate: &Crate) -> String {
        let start = self.span.start();
        let path = krate
            .sources
            .get(self.file)
            .map_or("?", |s| s.display.as_str());
        format!("{path}:{}:{}", start.line, start.column + 1)
    }

    /// The place a message points to.
    pub(crate) fn place(&self, krate: &Crate) -> Place {
        let (start, end) = (self.span.start(), self.span.end());
        match krate.sources.get(self.file) {
            Some(source) => Place::Span {
                path: source.display.clone(),
                text: Arc::clone(&source.text),
                start: (start.line, start.column),
                end: (end.line, end.column),
            },
            None => Place::File("?".into()),
        }
    }
}

/// Where a diagnostic points.
#[derive(Debug, Clone)]
pub(crate) enum Place {
    /// A span of a source file: lines from 1, columns in characters from 0.
    Span {
        path: String,
        text: Arc<str>,
        start: (usize, usize),
        end: (usize, usize),
    },
    /// A whole file.
    File(String),
}

impl Place {
    /// File, line, column: the order of the report.
    fn key(&self) -> (&str, usize, usize) {
        match self {
            Place::Span { path, start, .. } => (path, start.0, start.1),
            Place::File(path) => (path, 0, 0),
        }
    }

    /// `path:line:col`, as rustc writes it after `-->`.
    fn display(&self) -> String {
        match self {
            // Line 0: a span made by the build script, not read from the file.
            Place::Span { path, start, .. } if start.0 == 0 => path.clone(),
            Place::Span { path, start, .. } => format!("{path}:{}:{}", start.0, start.1 + 1),
            Place::File(path) => path.clone(),
        }
    }
}

/// Whether a diagnostic stops the build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
    Warning,
}

/// One diagnostic of a run.
#[derive(Debug, Clone)]
pub(crate) struct Diag {
    pub(crate) severity: Severity,
    /// Leads the message.
    pub(crate) rule: Option<RuleId>,
    /// One line.
    pub(crate) message: String,
    pub(crate) place: Option<Place>,
    pub(crate) notes: Vec<String>,
    pub(crate) help: Option<String>,
    /// The compiler reports it too: not shown unless the build script stops the build
    /// (the compiler then never runs).
    pub(crate) compiler_reports: bool,
    /// Diagnostics with one key are one: the first in the report's order is kept.
    pub(crate) once: Option<String>,
}

impl Diag {
    /// A diagnostic with no notes, help or place.
    pub(crate) fn new(severity: Severity, rule: Option<RuleId>, message: &str) -> Self {
        Self {
            severity,
            rule,
            message: one_line(message),
            place: None,
            notes: Vec::new(),
            help: None,
            compiler_reports: false,
            once: None,
        }
    }

    pub(crate) fn at(mut self, place: Place) -> Self {
        self.place = Some(place);
        self
    }

    pub(crate) fn help(mut self, help: &str) -> Self {
        let help = one_line(help);
        if !help.is_empty() {
            self.help = Some(help);
        }
        self
    }

    pub(crate) fn note(mut self, note: String) -> Self {
        self.notes.push(note);
        self
    }

    /// `rule-id: message`.
    fn title(&self) -> String {
        match self.rule {
            Some(rule) => format!("{rule}: {}", self.message),
            None => self.message.clone(),
        }
    }

    /// One line, for `cargo:warning=`: `rule-id: message --> path:line:col`, then the
    /// notes and the help in parentheses.
    pub(crate) fn line(&self) -> String {
        let mut line = self.title();
        if let Some(place) = &self.place {
            line.push_str(" --> ");
            line.push_str(&place.display());
        }
        let after: Vec<String> = self
            .notes
            .iter()
            .cloned()
            .chain(self.help.iter().map(|h| format!("help: {h}")))
            .collect();
        if !after.is_empty() {
            line.push_str(" (");
            line.push_str(&after.join("; "));
            line.push(')');
        }
        // One cargo directive: a line break in a path would end it.
        line.replace(['\n', '\r'], " ")
    }

    /// The block rustc would print: title, `-->` location, the source lines with the
    /// span underlined, then `= note:` and `= help:`.
    pub(crate) fn block(&self) -> String {
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let title = level.primary_title(self.title());
        let mut group: Group<'_> = match &self.place {
            Some(Place::Span {
                path,
                text,
                start,
                end,
            }) if start.0 > 0 => {
                let range = byte_offset(text, *start)..byte_offset(text, *end);
                title.element(
                    Snippet::source(&**text)
                        .path(path.as_str())
                        .annotation(AnnotationKind::Primary.span(range)),
                )
            }
            Some(place) => title.element(Origin::path(place.display())),
            None => Group::with_title(title),
        };
        for note in &self.notes {
            group = group.element(Level::NOTE.message(note.as_str()));
        }
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        let mut out = Renderer::plain().render(&[group]);
        out.push('\n');
        out
    }

    /// The same message at the same place.
    fn repeats(&self, other: &Diag) -> bool {
        self.severity == other.severity
            && self.rule == other.rule
            && self.message == other.message
            && self.place.as_ref().map(Place::key) == other.place.as_ref().map(Place::key)
    }
}

/// The byte offset of (line from 1, column in characters from 0) in `text`, clamped to
/// the text.
fn byte_offset(text: &str, (line, column): (usize, usize)) -> usize {
    let mut offset = 0;
    for _ in 1..line {
        match text[offset..].find('\n') {
            Some(i) => offset += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[offset..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    offset
        + rest[..line_end]
            .char_indices()
            .nth(column)
            .map_or(line_end, |(i, _)| i)
}

/// Sorts by file, line and column (what has no place first, as context), and drops
/// repeats: the same message at the same place, and all but the first of one `once` key.
/// A repeat's notes join the one kept.
pub(crate) fn arrange(mut diags: Vec<Diag>) -> Vec<Diag> {
    diags.sort_by(|a, b| {
        let key = |d: &Diag| {
            d.place
                .as_ref()
                .map(|p| p.key())
                .map(|(path, line, col)| (path.to_owned(), line, col))
        };
        key(a).cmp(&key(b))
    });
    let mut kept: Vec<Diag> = Vec::with_capacity(diags.len());
    for d in diags {
        let same = kept.iter_mut().find(|k| {
            k.repeats(&d) || (d.once.is_some() && k.once == d.once && k.severity == d.severity)
        });
        match same {
            Some(k) => {
                for note in d.notes {
                    if !k.notes.contains(&note) {
                        k.notes.push(note);
                    }
                }
            }
            None => kept.push(d),
        }
    }
    kept
}

/// What a run prints and what stops the build.
#[derive(Default)]
pub(crate) struct Run {
    /// `cargo:` lines other than diagnostics.
    pub(crate) lines: Vec<String>,
    pub(crate) diags: Vec<Diag>,
    pub(crate) summary: Summary,
    /// The dialects whose `dialect-weakened` the package allows as a whole
    /// (`[package.metadata.neuralis] allow_weakened`).
    pub(crate) allow_weakened: Vec<Provider>,
    /// The dialects the package names (each gets a summary line when any of them said
    /// something in words or refused something).
    pub(crate) dialects: Vec<Provider>,
    /// Per dialect: the constraints said in words and the constructs refused, over every
    /// tool of the run (its summary line).
    dialect_counts: BTreeMap<&'static str, DialectCount>,
}

/// What one dialect did to a run's tools.
#[derive(Default, Clone, Copy)]
struct DialectCount {
    weakened: usize,
    refused: usize,
}

/// Where a tool's diagnostics go: the source location of each pointer (most specific
/// wins), the pointers under which `dialect-weakened` is silenced, which bounds each
/// field's author wrote, and the place of the rest.
#[derive(Clone, Copy)]
pub(crate) struct Sites<'a> {
    pub(crate) locations: &'a [(String, Loc)],
    pub(crate) quiet: &'a [String],
    pub(crate) bounds: &'a [FieldBounds],
    pub(crate) fallback: &'a Loc,
}

/// Whether `pointer` is `prefix` or below it.
fn under(pointer: &str, prefix: &str) -> bool {
    pointer == prefix || (pointer.starts_with(prefix) && pointer[prefix.len()..].starts_with('/'))
}

/// The provider a dialect diagnostic is of: its message's first word.
fn provider_of(message: &str) -> Option<Provider> {
    Provider::from_name(message.split_whitespace().next()?)
}

/// One `dialect-weakened` kept for the report: the pointer of its field (what it is
/// grouped by), its own pointer, the keyword, its message.
struct Weakened {
    provider: Provider,
    field: String,
    pointer: String,
    keyword: String,
    message: String,
}

impl Sites<'_> {
    /// The source location of `pointer`: the most specific one known, else the fallback.
    fn locate(&self, pointer: &str) -> (String, Loc) {
        self.locations
            .iter()
            .filter(|(p, _)| under(pointer, p))
            .max_by_key(|(p, _)| p.len())
            .map_or_else(|| (String::new(), self.fallback.clone()), Clone::clone)
    }

    /// Whether a `dialect-weakened` at `pointer` says nothing worth reading: the field
    /// is marked `#[schema(allow_weakened)]`, or the keyword is a bound its author did not
    /// write (the type's own, `u32`'s `minimum: 0`).
    fn silenced(&self, pointer: &str) -> bool {
        if self.quiet.iter().any(|q| under(pointer, q)) {
            return true;
        }
        let keyword = pointer.rsplit('/').next().unwrap_or_default();
        let field = self
            .bounds
            .iter()
            .filter(|b| under(pointer, &b.pointer))
            .max_by_key(|b| b.pointer.len());
        match (keyword, field) {
            ("minimum", Some(b)) => !b.minimum,
            ("maximum", Some(b)) => !b.maximum,
            _ => false,
        }
    }
}

impl Run {
    pub(crate) fn check(
        &mut self,
        krate: &Crate,
        name: &str,
        doc: &Value,
        sites: &Sites<'_>,
        options: &CheckOptions,
    ) -> Result<(), ()> {
        let mut failed = false;
        let mut weakened: Vec<Weakened> = Vec::new();
        for x in check_value_using(name, doc, options, Some(&neuralis_model::validate::Subset)) {
            let provider = provider_of(&x.message);
            if let Some(p) = provider.filter(|_| x.rule == RuleId::DialectRefused) {
                self.dialect_counts.entry(p.as_str()).or_default().refused += 1;
            }
            if x.rule == RuleId::DialectWeakened {
                if let Some(p) = provider {
                    self.dialect_counts.entry(p.as_str()).or_default().weakened += 1;
                }
                if sites.silenced(&x.pointer) {
                    continue;
                }
                if let Some(provider) = provider {
                    if self.allow_weakened.contains(&provider) {
                        continue;
                    }
                    weakened.push(Weakened {
                        provider,
                        field: sites.locate(&x.pointer).0,
                        keyword: x.pointer.rsplit('/').next().unwrap_or_default().to_owned(),
                        pointer: x.pointer,
                        message: x.message,
                    });
                    continue;
                }
            }
            let severity = if x.is_error() {
                failed = true;
                Severity::Error
            } else {
                Severity::Warning
            };
            let mut d = Diag::new(severity, Some(x.rule), &x.message)
                .at(sites.locate(&x.pointer).1.place(krate))
                .help(&x.hint);
            if !x.pointer.is_empty() {
                d = d.note(format!("at `{}` of tool `{name}`", x.pointer));
            }
            self.diags.push(d);
        }
        self.weakened(krate, name, sites, weakened);
        if failed { Err(()) } else { Ok(()) }
    }

    /// One `dialect-weakened` per field and dialect: the keywords the dialect says in
    /// words there (a field with one keeps the checker's own message).
    fn weakened(&mut self, krate: &Crate, name: &str, sites: &Sites<'_>, all: Vec<Weakened>) {
        let mut groups: BTreeMap<(String, &'static str), Vec<Weakened>> = BTreeMap::new();
        for w in all {
            groups
                .entry((w.field.clone(), w.provider.as_str()))
                .or_default()
                .push(w);
        }
        for ((field, provider), group) in groups {
            let message = match group.as_slice() {
                [one] => one.message.clone(),
                more => {
                    let mut keywords: Vec<String> = Vec::new();
                    for w in more {
                        let k = format!("`{}`", w.keyword);
                        if !keywords.contains(&k) {
                            keywords.push(k);
                        }
                    }
                    format!(
                        "{provider} does not enforce {}: the model reads them in the description, and the server still validates them",
                        keywords.join(", ")
                    )
                }
            };
            let pointers: Vec<&str> = group.iter().map(|w| w.pointer.as_str()).collect();
            let d = Diag::new(Severity::Warning, Some(RuleId::DialectWeakened), &message)
                .at(sites.locate(&field).1.place(krate))
                .help(&format!(
                    "fine as words? mark the field `#[schema(allow_weakened)]`, or the package: `allow_weakened = [\"{provider}\"]` (or `true`) beside `dialects` in `[package.metadata.neuralis]`"
                ))
                .note(format!("at `{}` of tool `{name}`", pointers.join("`, `")));
            self.diags.push(d);
        }
    }

    /// A line per dialect the package names, when any of them said something of the
    /// run's tools in words or refused something: `openai: 12 constraints said in words,
    /// 0 refused`.
    fn dialect_summary(&mut self) {
        let counts = std::mem::take(&mut self.dialect_counts);
        if counts.is_empty() {
            return;
        }
        for provider in std::mem::take(&mut self.dialects) {
            let c = counts.get(provider.as_str()).copied().unwrap_or_default();
            let constraints = if c.weakened == 1 {
                "constraint"
            } else {
                "constraints"
            };
            self.warn(&format!(
                "{provider}: {} {constraints} said in words, {} refused",
                c.weakened, c.refused
            ));
        }
    }

    /// A handler this build's `cfg` leaves out (`cfg`, as written): its file is kept.
    pub(crate) fn compiled_out(&mut self, name: &str, cfg: &str, place: Place) {
        self.diags.push(
            Diag::new(
                Severity::Warning,
                None,
                &format!(
                    "`{name}` is compiled out in this build ({cfg}): `tools/{name}.json` is kept as the build with it wrote it, and not served"
                ),
            )
            .at(place)
            .help("`tools/` holds the tools of every feature set built; commit it from `cargo build --all-features` and check it in CI the same way (docs/tool.md, \"Tools behind cargo features\")"),
        );
    }

    /// A warning about the run itself, with no place in the source.
    pub(crate) fn warn(&mut self, text: &str) {
        self.diags.push(Diag::new(Severity::Warning, None, text));
    }

    /// A handler left out because the compiler rejects it: `reason` is the compiler's
    /// message (`rule-id: message`, then `= help: ...`).
    pub(crate) fn skip(&mut self, name: &str, reason: &str, place: Option<Place>) {
        let mut lines = reason.lines();
        let first = lines.next().unwrap_or_default();
        let help = lines
            .filter_map(|l| l.trim().strip_prefix("= help:"))
            .map(str::trim)
            .next();
        let (rule, message) = match first.split_once(": ") {
            Some((id, rest)) => match RuleId::from_id(id) {
                Some(rule) => (Some(rule), rest),
                None => (None, first),
            },
            None => (None, first),
        };
        let mut d = Diag::new(Severity::Warning, rule, message).note(format!(
            "tool `{name}` is not written: the compiler reports this error"
        ));
        d.place = place;
        d.compiler_reports = true;
        if let Some(help) = help {
            d = d.help(help);
        }
        self.summary
            .skipped
            .push(format!("skipped {name}: {}", d.line()));
        self.diags.push(d);
    }

    pub(crate) fn error(
        &mut self,
        krate: &Crate,
        loc: &Loc,
        rule: RuleId,
        message: &str,
        help: &str,
    ) {
        self.diags.push(
            Diag::new(Severity::Error, Some(rule), message)
                .at(loc.place(krate))
                .help(help),
        );
    }

    /// An error about a file the run writes.
    pub(crate) fn file_error(&mut self, path: &std::path::Path, message: &str) {
        self.diags.push(
            Diag::new(Severity::Error, None, message)
                .at(Place::File(crate::discover::display_path(path))),
        );
    }

    pub(crate) fn finish(mut self) -> Result<Summary, Error> {
        self.dialect_summary();
        let diags = arrange(std::mem::take(&mut self.diags));
        self.summary.cargo_lines = diags
            .iter()
            .filter(|d| !d.compiler_reports)
            .map(|d| format!("cargo:warning={}", d.line()))
            .chain(self.lines)
            .collect();
        if diags.iter().all(|d| d.severity == Severity::Warning) {
            return Ok(self.summary);
        }
        let blocks: Vec<(Severity, String)> =
            diags.iter().map(|d| (d.severity, d.block())).collect();
        let report = blocks
            .iter()
            .map(|(_, b)| b.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        Err(Error {
            messages: blocks
                .into_iter()
                .filter(|(s, _)| *s == Severity::Error)
                .map(|(_, b)| b)
                .collect(),
            report,
            summary: Box::new(self.summary),
        })
    }
}

pub(crate) fn one_line(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(path: &str, text: &str, start: (usize, usize), end: (usize, usize)) -> Place {
        Place::Span {
            path: path.into(),
            text: Arc::from(text),
            start,
            end,
        }
    }

    const SOURCE: &str = "use x;\n\n/// Création.\n#[tool(defaults(n = \"é\"), ui(presentation = \"inline\"))]\nfn f() {}\n";

    #[test]
    fn a_block_is_rustc_s_layout_with_the_rule_leading() {
        // `"é"` on line 4: characters 20..23, after a multi-byte character on line 3.
        let d = Diag::new(
            Severity::Error,
            Some(RuleId::DefaultsUndeclared),
            "bad\n default",
        )
        .at(place("/pkg/src/lib.rs", SOURCE, (4, 20), (4, 23)))
        .note("at `/x-neuralis/defaults/n` of tool `f`".into())
        .help("give a default the property's schema accepts");
        assert_eq!(
            d.block(),
            "error: defaults-undeclared: bad; default\n \
             --> /pkg/src/lib.rs:4:21\n  \
             |\n\
             4 | #[tool(defaults(n = \"é\"), ui(presentation = \"inline\"))]\n  \
             |                     ^^^\n  \
             |\n  \
             = note: at `/x-neuralis/defaults/n` of tool `f`\n  \
             = help: give a default the property's schema accepts\n"
        );
        assert_eq!(
            d.line(),
            "defaults-undeclared: bad; default --> /pkg/src/lib.rs:4:21 (at `/x-neuralis/defaults/n` of tool `f`; help: give a default the property's schema accepts)"
        );
    }

    #[test]
    fn byte_offsets_count_characters_and_stay_in_the_text() {
        assert_eq!(
            byte_offset(SOURCE, (3, 4)),
            SOURCE.find("Création").unwrap_or(0)
        );
        assert_eq!(
            byte_offset(SOURCE, (3, 9)),
            SOURCE.find("ion.").unwrap_or(0)
        );
        assert_eq!(byte_offset(SOURCE, (1, 99)), 6, "past the line: its end");
        assert_eq!(
            byte_offset(SOURCE, (99, 0)),
            SOURCE.len(),
            "past the text: its end"
        );
    }

    #[test]
    fn a_file_or_nothing_is_a_place_too() {
        let d = Diag::new(Severity::Warning, Some(RuleId::StaleToolFile), "stale")
            .at(Place::File("/pkg/tools/old.json".into()));
        // No source line: no margin for line numbers, as in rustc.
        assert_eq!(
            d.block(),
            "warning: stale-tool-file: stale\n--> /pkg/tools/old.json\n"
        );
        assert_eq!(d.line(), "stale-tool-file: stale --> /pkg/tools/old.json");
        let d = Diag::new(Severity::Warning, None, "neuralis-build: no manifest");
        assert_eq!(d.block(), "warning: neuralis-build: no manifest\n");
    }

    #[test]
    fn the_report_is_in_file_and_line_order_each_once() {
        let at = |path: &str, line| place(path, SOURCE, (line, 0), (line, 1));
        let e = |msg: &str, p| Diag::new(Severity::Error, Some(RuleId::UnsupportedType), msg).at(p);
        let once = |p, note: &str| {
            let mut d = Diag::new(Severity::Warning, None, "`x` is not a dependency").at(p);
            d.once = Some("unlinked x".into());
            d.note(note.into())
        };
        let diags = vec![
            e("late", at("/pkg/src/b.rs", 2)),
            e("early", at("/pkg/src/b.rs", 1)),
            e("first file", at("/pkg/src/a.rs", 5)),
            e("early", at("/pkg/src/b.rs", 1)).note("for tool `two`".into()),
            once(at("/pkg/src/b.rs", 3), "tool `one`"),
            once(at("/pkg/src/a.rs", 1), "tool `two`"),
            Diag::new(Severity::Warning, None, "no place"),
        ];
        let kept = arrange(diags);
        let shown: Vec<String> = kept.iter().map(Diag::line).collect();
        assert_eq!(
            shown,
            [
                "no place",
                "`x` is not a dependency --> /pkg/src/a.rs:1:1 (tool `two`; tool `one`)",
                "unsupported-type: first file --> /pkg/src/a.rs:5:1",
                "unsupported-type: early --> /pkg/src/b.rs:1:1 (for tool `two`)",
                "unsupported-type: late --> /pkg/src/b.rs:2:1",
            ]
        );
        assert_eq!(
            kept[1].notes,
            ["tool `two`", "tool `one`"],
            "the repeat's notes join"
        );
        assert_eq!(kept[3].notes, ["for tool `two`"]);
    }
}

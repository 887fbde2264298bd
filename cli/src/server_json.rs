//! `neuralis server-json`: a package's MCP Registry entry (`server.json`, schema
//! [`SCHEMA`]) from its `Cargo.toml`, and `--check FILE`, the drift check for CI.
//!
//! From `[package]`: `name` (the `cargo` package's identifier), `version` (the entry's and
//! the package's), `description`, `homepage` (`websiteUrl`) and `repository` (GitHub or
//! GitLab, the forges the registry takes). From `[package.metadata.neuralis.registry]`,
//! what `Cargo.toml` cannot say, with server.json's own key names: `name` (the reverse-DNS
//! name, `io.github.<owner>/<name>`), `title`, `subfolder` (the package's folder in its
//! repository), `packageArguments` and `environmentVariables` (the `cargo` package's, as
//! server.json writes them), `remotes` (hosted endpoints: `url`, `headers`, `variables`;
//! `type` is `streamable-http` unless given).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Map, Value, json};

use crate::EXIT_USAGE;
use crate::manifest::{self, Manifest};

/// The schema of the entries written.
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The table of `Cargo.toml` this command reads, as errors name its keys.
const TABLE: &str = "package.metadata.neuralis.registry";

/// The keys of [`TABLE`].
const KEYS: &[&str] = &[
    "name",
    "title",
    "subfolder",
    "packageArguments",
    "environmentVariables",
    "remotes",
];

/// `neuralis server-json [PACKAGE_DIR] [--check FILE]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The package's directory (its Cargo.toml and README).
    #[arg(value_name = "PACKAGE_DIR", default_value = ".")]
    dir: PathBuf,
    /// Print nothing; exit 1 when FILE differs from what would be printed (each
    /// difference on stderr) or the README lacks the `mcp-name:` line.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: &Args) -> ExitCode {
    let manifest = match manifest::read(&args.dir) {
        Ok(manifest) => manifest,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let entry = match compose(&manifest) {
        Ok(entry) => entry,
        Err(problems) => {
            for problem in problems {
                eprintln!("error: {problem}");
            }
            return ExitCode::from(1);
        }
    };
    for note in &entry.notes {
        eprintln!("note: {note}");
    }
    let text = match serde_json::to_string_pretty(&entry.json) {
        Ok(text) => text + "\n",
        Err(e) => {
            eprintln!("error: the entry cannot be written: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let readme = readme_problem(&manifest, &entry.name);
    match &args.check {
        None => {
            print!("{text}");
            if let Some(problem) = readme {
                eprintln!("warning: {problem}");
            }
            ExitCode::SUCCESS
        }
        Some(file) => check(file, &args.dir, &text, readme),
    }
}

/// An entry and what the author should know of it.
struct Entry {
    json: Value,
    /// The reverse-DNS name.
    name: String,
    notes: Vec<String>,
}

/// `key` of the package's `Cargo.toml`, for messages.
fn key(manifest: &Manifest, key: &str) -> String {
    format!("`{key}` in {}", manifest.path.display())
}

/// The entry of `manifest`, or every refusal the registry would make of it.
fn compose(manifest: &Manifest) -> Result<Entry, Vec<String>> {
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let empty = toml::Table::new();
    let table = manifest.registry.as_ref().unwrap_or_else(|| {
        problems.push(format!(
            "`{}` has no `[{TABLE}]`: add it with the name the MCP Registry knows the server by (`name = \"io.github.<owner>/{}\"`)",
            manifest.path.display(),
            manifest.name
        ));
        &empty
    });
    for unknown in table.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        problems.push(format!(
            "{} is no key `neuralis server-json` reads: write {}",
            key(manifest, &format!("{TABLE}.{unknown}")),
            KEYS.join(", ")
        ));
    }
    let text = |k: &str| {
        table
            .get(k)
            .and_then(toml::Value::as_str)
            .map(str::to_owned)
    };
    let name = text("name").unwrap_or_default();
    if manifest.registry.is_some()
        && let Some(problem) = name_problem(&name)
    {
        problems.push(format!(
            "{} {problem}",
            key(manifest, &format!("{TABLE}.name"))
        ));
    }
    let description = manifest.description.clone().unwrap_or_default();
    let length = description.chars().count();
    if length == 0 || length > 100 {
        problems.push(format!(
            "{} has {length} characters; the MCP Registry takes 1 to 100: write what the server does in at most 100",
            key(manifest, "package.description")
        ));
    }
    let version = manifest.version.clone().unwrap_or_default();
    if version.is_empty() || is_version_range(&version) {
        problems.push(format!(
            "{} is `{version}`; the MCP Registry takes one exact version (not a range, not `latest`)",
            key(manifest, "package.version")
        ));
    }
    let remotes = remotes(manifest, table, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut entry = Map::new();
    entry.insert("$schema".into(), json!(SCHEMA));
    entry.insert("name".into(), json!(name));
    if let Some(title) = text("title") {
        entry.insert("title".into(), json!(title));
    }
    entry.insert("description".into(), json!(description));
    entry.insert("version".into(), json!(version));
    if let Some(url) = &manifest.homepage {
        entry.insert("websiteUrl".into(), json!(url));
    }
    if let Some(repository) = repository(manifest, text("subfolder"), &mut notes) {
        entry.insert("repository".into(), repository);
    }
    entry.insert(
        "packages".into(),
        json!([package(manifest, table, &version)]),
    );
    if !remotes.is_empty() {
        entry.insert("remotes".into(), Value::Array(remotes));
    }
    if !manifest.publish {
        notes.push(format!(
            "{} is `false`: the registry checks the crate on crates.io, so publish it before `mcp-publisher publish`",
            key(manifest, "package.publish")
        ));
    }
    Ok(Entry {
        json: Value::Object(entry),
        name,
        notes,
    })
}

/// The `cargo` package: the crate at its version, over stdio.
fn package(manifest: &Manifest, table: &toml::Table, version: &str) -> Value {
    let mut package = json!({
        "registryType": "cargo",
        "registryBaseUrl": "https://crates.io",
        "identifier": manifest.name,
        "version": version,
        "transport": {"type": "stdio"},
    });
    for k in ["packageArguments", "environmentVariables"] {
        if let Some(value) = table.get(k) {
            package[k] = as_json(value);
        }
    }
    package
}

/// The hosted endpoints of `[TABLE] remotes`, each refused as the registry refuses it
/// (no `url`, one that is not `https://`, a loopback host) into `problems`.
fn remotes(manifest: &Manifest, table: &toml::Table, problems: &mut Vec<String>) -> Vec<Value> {
    let Some(entries) = table.get("remotes") else {
        return Vec::new();
    };
    let Some(entries) = entries.as_array() else {
        problems.push(format!(
            "{} is an array of tables: `[[{TABLE}.remotes]]` with `url = \"https://...\"`",
            key(manifest, &format!("{TABLE}.remotes"))
        ));
        return Vec::new();
    };
    let mut remotes = Vec::new();
    for (i, remote) in entries.iter().enumerate() {
        let mut remote = as_json(remote);
        let at = key(manifest, &format!("{TABLE}.remotes[{i}].url"));
        let Some(object) = remote.as_object_mut() else {
            problems.push(format!("{at}: each remote is a table with a `url`"));
            continue;
        };
        match object.get("url").and_then(Value::as_str) {
            None => problems.push(format!("{at} is missing: name the endpoint's public URL")),
            Some(url) if !is_public_https(url) => problems.push(format!(
                "{at} is `{url}`; the MCP Registry takes an https:// URL on a host that is not loopback"
            )),
            Some(_) => {}
        }
        if !object.contains_key("type") {
            let mut typed = Map::new();
            typed.insert("type".into(), json!("streamable-http"));
            typed.extend(std::mem::take(object));
            *object = typed;
        }
        remotes.push(remote);
    }
    remotes
}

/// Whether `url` is what the registry takes for a remote: `https://`, not loopback.
fn is_public_https(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(h, _)| h)
        .to_ascii_lowercase();
    !(host.is_empty()
        || host == "localhost"
        || host == "127.0.0.1"
        || host == "[::1]"
        || host.ends_with(".localhost"))
}

/// `package.repository` as the registry takes it (GitHub or GitLab), or `None` with a
/// note saying why it is left out.
fn repository(
    manifest: &Manifest,
    subfolder: Option<String>,
    notes: &mut Vec<String>,
) -> Option<Value> {
    let url = manifest.repository.as_deref()?;
    let source = if url.starts_with("https://github.com/") {
        "github"
    } else if url.starts_with("https://gitlab.com/") {
        "gitlab"
    } else {
        notes.push(format!(
            "{} (`{url}`) is left out: the MCP Registry takes GitHub and GitLab repositories only",
            key(manifest, "package.repository")
        ));
        return None;
    };
    let mut repository = json!({"url": url.trim_end_matches('/'), "source": source});
    if let Some(subfolder) = subfolder {
        repository["subfolder"] = json!(subfolder);
    }
    Some(repository)
}

/// A TOML value as JSON (server.json's objects are written in `Cargo.toml` as tables).
fn as_json(value: &toml::Value) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Why the registry would refuse `name`, or `None`: a reverse-DNS namespace and a name,
/// exactly one `/` between them, each starting and ending with a letter or digit.
fn name_problem(name: &str) -> Option<String> {
    let slashes = name.matches('/').count();
    if slashes != 1 {
        return Some(format!(
            "is `{name}`, with {slashes} `/`; the MCP Registry takes a reverse-DNS namespace and a name with exactly one `/` between them: `io.github.<owner>/<name>`"
        ));
    }
    let (namespace, server) = name.split_once('/').unwrap_or_default();
    let part = |s: &str, extra: &[char]| {
        let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        edge(s.chars().next())
            && edge(s.chars().last())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c))
    };
    if !part(namespace, &[]) || !part(server, &['_']) {
        return Some(format!(
            "is `{name}`; the namespace takes letters, digits, `.` and `-`, the name also `_`, each starting and ending with a letter or digit"
        ));
    }
    (name.len() > 200).then(|| {
        format!(
            "is {} characters long; the MCP Registry takes at most 200",
            name.len()
        )
    })
}

/// Whether `version` reads as a range, as the registry judges it: a comparator (`^`,
/// `~`, `>=`...), `a - b`, `a || b`, a wildcard part (`1.x`, `1.*`), or `latest`.
fn is_version_range(version: &str) -> bool {
    let v = version.trim();
    v == "latest"
        || v.starts_with(['^', '~', '>', '<', '='])
        || v.contains("||")
        || v.contains(" - ")
        || v.split('.').any(|part| matches!(part, "x" | "X" | "*"))
}

/// Why the registry would not find `mcp-name: <name>` in the crate's README (crates.io
/// renders it and strips HTML comments), or `None`.
fn readme_problem(manifest: &Manifest, name: &str) -> Option<String> {
    let line = format!("mcp-name: {name}");
    let Some(path) = &manifest.readme else {
        return Some(format!(
            "the crate has no README (`package.readme` in {}); the MCP Registry looks for the line `{line}` in it: add a README.md with that line",
            manifest.path.display()
        ));
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return Some(format!("cannot read the README `{}`: {e}", path.display())),
    };
    if has_token(&without_comments(&text), &line) {
        return None;
    }
    let hidden = has_token(&text, &line);
    Some(format!(
        "the README `{}` {} the line `{line}` the MCP Registry looks for to know the crate is this server's: {}",
        path.display(),
        if hidden {
            "hides in an HTML comment"
        } else {
            "lacks"
        },
        if hidden {
            "crates.io strips comments, so write it as visible text"
        } else {
            "add it as visible text (a bullet: `- MCP Registry name: `mcp-name: ...``)"
        }
    ))
}

/// `text` without its HTML comments.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// Whether `text` holds `token` not followed by a character of a longer name.
fn has_token(text: &str, token: &str) -> bool {
    text.match_indices(token).any(|(at, _)| {
        let next = text[at + token.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
            || text[at + token.len()..].starts_with("-->")
    })
}

/// `--check FILE`: 0 when FILE is `expected` and the README has its line, else 1 with
/// each difference.
fn check(file: &Path, dir: &Path, expected: &str, readme: Option<String>) -> ExitCode {
    let written = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", file.display());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut failed = false;
    if written != expected {
        failed = true;
        let now: Value = serde_json::from_str(expected).unwrap_or(Value::Null);
        let mut found = Vec::new();
        match serde_json::from_str::<Value>(&written) {
            Ok(was) => differences(&was, &now, "", &mut found),
            Err(e) => found.push(format!("it is not JSON ({e})")),
        }
        if found.is_empty() {
            found.push("the same entry, written differently".into());
        }
        eprintln!(
            "error: `{}` is not what `neuralis server-json {}` writes from Cargo.toml:",
            file.display(),
            dir.display()
        );
        for difference in found {
            eprintln!("  {difference}");
        }
        eprintln!(
            "  write it again: neuralis server-json {} > {}",
            dir.display(),
            file.display()
        );
    }
    if let Some(problem) = readme {
        failed = true;
        eprintln!("error: {problem}");
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Each place `was` (the file) and `now` (from Cargo.toml) differ, by JSON pointer.
fn differences(was: &Value, now: &Value, at: &str, out: &mut Vec<String>) {
    match (was, now) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                let here = format!("{at}/{k}");
                match a.get(k) {
                    Some(old) => differences(old, v, &here, out),
                    None => out.push(format!(
                        "`{here}`: missing in the file, {v} from Cargo.toml"
                    )),
                }
            }
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                out.push(format!("`{at}/{k}`: in the file, not from Cargo.toml"));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (old, new)) in a.iter().zip(b).enumerate() {
                differences(old, new, &format!("{at}/{i}"), out);
            }
        }
        _ if was != now => out.push(format!(
            "`{}`: {was} in the file, {now} from Cargo.toml",
            if at.is_empty() { "/" } else { at }
        )),
        _ => {}
    }
}

//! The skills a package ships (MCP's skills extension, SEP-2640): each folder of
//! `skills/` (beside `tools/`) is one, `SKILL.md` at its top. The run checks each (the
//! `skill-*` rules, at the file and line) and hands the ones that pass to the package
//! table, which embeds their files for `neuralis-mcp` to serve.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use neuralis_model::RuleId;
use neuralis_model::skill::{DESCRIPTION_MAX_LEN, MAX_BYTES, MAX_FILES, SKILL_MD, is_skill_name};
use serde_json::Value;

use crate::diag::{Diag, Place, Run, Severity};
use crate::discover::display_path;
use crate::frontmatter;

/// One skill that passed every check.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// Its name: its folder's and its frontmatter's.
    pub(crate) name: String,
    /// Its frontmatter as a JSON object.
    pub(crate) frontmatter: String,
    /// Its files: the path below its folder (`/`-separated) and where it is, in path order.
    pub(crate) files: Vec<(String, PathBuf)>,
}

/// A file of a skill as the walk found it.
struct Walked {
    path: String,
    at: PathBuf,
    size: u64,
}

/// Every skill of `dir` that passes, each refusal a diagnostic; nothing when `dir` does
/// not exist.
pub(crate) fn read(run: &mut Run, dir: &Path) -> Vec<Checked> {
    let Some(entries) = sorted_entries(run, dir) else {
        return Vec::new();
    };
    let mut checked = Vec::new();
    for (name, path) in entries {
        let Some(kind) = kind_of(run, &path, name.as_deref()) else {
            continue;
        };
        if kind == Kind::File {
            layout(
                run,
                &path,
                "this file belongs to no skill: a skill is a folder `skills/<name>/` with a `SKILL.md`",
            );
            continue;
        }
        let folder = name.unwrap_or_default();
        if let Some(skill) = read_skill(run, &folder, &path) {
            checked.push(skill);
        }
    }
    checked
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
}

/// The entries of `dir` by name, hidden ones left out; `None` when it cannot be read
/// (which is an error only when it exists).
fn sorted_entries(run: &mut Run, dir: &Path) -> Option<Vec<(Option<String>, PathBuf)>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            run.file_error(dir, &format!("cannot read the skills' folder: {e}"));
            return None;
        }
    };
    let mut found: Vec<(Option<String>, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| (e.file_name().into_string().ok(), e.path()))
        .filter(|(name, _)| !name.as_deref().is_some_and(|n| n.starts_with('.')))
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    Some(found)
}

/// A regular file or a folder with a UTF-8 name; anything else is refused.
fn kind_of(run: &mut Run, path: &Path, name: Option<&str>) -> Option<Kind> {
    if name.is_none() {
        layout(run, path, "this name is not UTF-8, so no URI names it");
        return None;
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => Some(Kind::File),
        Ok(m) if m.is_dir() => Some(Kind::Folder),
        Ok(m) if m.file_type().is_symlink() => {
            layout(
                run,
                path,
                "this is a symbolic link: copy the file into the skill's folder",
            );
            None
        }
        Ok(_) => {
            layout(run, path, "this is not a regular file nor a folder");
            None
        }
        Err(e) => {
            run.file_error(path, &format!("cannot read: {e}"));
            None
        }
    }
}

fn layout(run: &mut Run, path: &Path, message: &str) {
    refuse(
        run,
        RuleId::SkillLayout,
        Place::File(display_path(path)),
        message,
    );
}

fn refuse(run: &mut Run, rule: RuleId, place: Place, message: &str) {
    run.diags.push(
        Diag::new(Severity::Error, Some(rule), message)
            .at(place)
            .help(rule.rule().hint),
    );
}

/// One skill's folder: its files walked and counted, then its `SKILL.md` read.
fn read_skill(run: &mut Run, folder: &str, dir: &Path) -> Option<Checked> {
    let mut files = Vec::new();
    let clean = walk(run, dir, "", &mut files);
    if !files.iter().any(|f| f.path == SKILL_MD) {
        layout(
            run,
            dir,
            &format!("the skill `{folder}` has no `{SKILL_MD}` at the top of its folder"),
        );
        return None;
    }
    let bytes: u64 = files.iter().map(|f| f.size).sum();
    if files.len() > MAX_FILES || bytes > MAX_BYTES {
        let message = format!(
            "the skill `{folder}` holds {} files of {bytes} bytes, over {MAX_FILES} files or {MAX_BYTES} bytes",
            files.len()
        );
        refuse(
            run,
            RuleId::SkillSize,
            Place::File(display_path(dir)),
            &message,
        );
        return None;
    }
    let manifest = dir.join(SKILL_MD);
    let frontmatter = read_manifest(run, folder, &manifest)?;
    clean.then(|| Checked {
        name: folder.to_owned(),
        frontmatter,
        files: files.into_iter().map(|f| (f.path, f.at)).collect(),
    })
}

/// Every file below `dir` (`prefix` its path in the skill), in path order; `false` when
/// an entry was refused.
fn walk(run: &mut Run, dir: &Path, prefix: &str, files: &mut Vec<Walked>) -> bool {
    let Some(entries) = sorted_entries(run, dir) else {
        return false;
    };
    let mut clean = true;
    for (name, at) in entries {
        let Some(kind) = kind_of(run, &at, name.as_deref()) else {
            clean = false;
            continue;
        };
        let name = name.unwrap_or_default();
        let path = format!("{prefix}{name}");
        match kind {
            Kind::Folder => clean &= walk(run, &at, &format!("{path}/"), files),
            Kind::File if name == SKILL_MD && !prefix.is_empty() => {
                layout(
                    run,
                    &at,
                    "a second `SKILL.md` below a skill's top: a skill is one folder of `skills/`, and skills do not nest",
                );
                clean = false;
            }
            Kind::File => {
                let size = std::fs::metadata(&at).map_or(0, |m| m.len());
                files.push(Walked { path, at, size });
            }
        }
    }
    clean
}

/// The frontmatter of `SKILL.md` as a JSON object, its `name` and `description` checked.
fn read_manifest(run: &mut Run, folder: &str, path: &Path) -> Option<String> {
    let display = display_path(path);
    let text: Arc<str> = match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(text)) => Arc::from(text),
        Ok(Err(_)) => {
            let place = Place::File(display);
            refuse(
                run,
                RuleId::SkillFrontmatter,
                place,
                "`SKILL.md` is not UTF-8",
            );
            return None;
        }
        Err(e) => {
            run.file_error(path, &format!("cannot read: {e}"));
            return None;
        }
    };
    let at = |line: usize, column: usize| line_place(&display, &text, line, column);
    let read = match frontmatter::read(&text) {
        Ok(read) => read,
        Err(e) => {
            refuse(
                run,
                RuleId::SkillFrontmatter,
                at(e.line, e.column),
                &e.message,
            );
            return None;
        }
    };
    let line_of = |key: &str| read.lines.get(key).copied().unwrap_or(1);
    let name = read.map.get("name").and_then(Value::as_str);
    let name_problem = match name {
        None if read.map.contains_key("name") => {
            Some("the skill's `name` is not a text".to_owned())
        }
        None => Some("the frontmatter has no `name`".to_owned()),
        Some(name) if !is_skill_name(name) => Some(format!(
            "`{name}` is not a skill name: 1 to 64 lowercase letters, digits and single hyphens, not at either end"
        )),
        Some(name) if name != folder => Some(format!(
            "the skill's `name` is `{name}`, its folder's is `{folder}`: they are one name"
        )),
        Some(_) => None,
    };
    if let Some(message) = &name_problem {
        refuse(run, RuleId::SkillName, at(line_of("name"), 0), message);
    }
    let description_problem = match read.map.get("description") {
        None => Some("the frontmatter has no `description`".to_owned()),
        Some(Value::String(d)) if d.trim().is_empty() => {
            Some("the skill's `description` is empty".to_owned())
        }
        Some(Value::String(d)) if d.chars().count() > DESCRIPTION_MAX_LEN => Some(format!(
            "the skill's `description` has {} characters, over {DESCRIPTION_MAX_LEN}",
            d.chars().count()
        )),
        Some(Value::String(_)) => None,
        Some(_) => Some("the skill's `description` is not a text".to_owned()),
    };
    if let Some(message) = &description_problem {
        refuse(
            run,
            RuleId::SkillDescription,
            at(line_of("description"), 0),
            message,
        );
    }
    if name_problem.is_some() || description_problem.is_some() {
        return None;
    }
    serde_json::to_string(&Value::Object(read.map)).ok()
}

/// Line `line` (from 1) of `text` from `column` (in characters, from 0) to its end.
fn line_place(path: &str, text: &Arc<str>, line: usize, column: usize) -> Place {
    let width = text
        .lines()
        .nth(line.saturating_sub(1))
        .map_or(0, |l| l.trim_end().chars().count());
    Place::Span {
        path: path.to_owned(),
        text: Arc::clone(text),
        start: (line, column),
        end: (line, width.max(column + 1)),
    }
}

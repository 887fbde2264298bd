//! Agent Skills a package ships (MCP's skills extension, SEP-2640): the facts the build
//! script checks and the package table embeds, read by the MCP server.
//!
//! A skill is a folder `skills/<name>/` beside `tools/`, holding `SKILL.md` (YAML
//! frontmatter with at least `name` and `description`, then Markdown) and the files the
//! skill refers to. The build script checks each one (`skill-*` rules) and embeds the
//! folder's files in the package table as a [`Skill`]; `neuralis-mcp` serves them as
//! `skill://<name>/<path>` resources, with `skills/list`, `skills/get` and
//! `resources/directory/read`.

/// The file every skill has at its root.
pub const SKILL_MD: &str = "SKILL.md";

/// The most files a skill may hold: a host need not load a larger one (SEP-2640).
pub const MAX_FILES: usize = 512;

/// The most bytes a skill's files may hold together: a host need not load a larger one
/// (SEP-2640).
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The longest skill name, in characters.
pub const NAME_MAX_LEN: usize = 64;

/// The longest description, in characters (the Agent Skills specification's limit).
pub const DESCRIPTION_MAX_LEN: usize = 1024;

/// Whether `name` is a skill name: 1 to 64 lowercase ASCII letters, digits and hyphens,
/// neither starting nor ending with a hyphen, with no two hyphens in a row
/// (`^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`).
///
/// ```
/// use neuralis_model::skill::is_skill_name;
/// assert!(is_skill_name("incident-triage"));
/// assert!(is_skill_name("a"));
/// assert!(!is_skill_name("Incident"));
/// assert!(!is_skill_name("-triage"));
/// assert!(!is_skill_name("triage-"));
/// assert!(!is_skill_name("incident--triage"));
/// assert!(!is_skill_name(&"a".repeat(65)));
/// ```
#[must_use]
pub const fn is_skill_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > NAME_MAX_LEN {
        return false;
    }
    if bytes[0] == b'-' || bytes[bytes.len() - 1] == b'-' {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            return false;
        }
        if b == b'-' && i > 0 && bytes[i - 1] == b'-' {
            return false;
        }
        i += 1;
    }
    true
}

/// One skill as the package table embeds it: checked by the build script, so its name
/// is a skill name equal to its folder's, its frontmatter has a `name` and a
/// `description`, and its files are within [`MAX_FILES`] and [`MAX_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill {
    /// The skill's name: its folder under `skills/` and its frontmatter's `name`.
    pub name: &'static str,
    /// The frontmatter of its `SKILL.md`, as a JSON object (the build script reads the
    /// YAML).
    pub frontmatter: &'static str,
    /// Its files, `SKILL.md` among them, in path order.
    pub files: &'static [SkillFile],
}

/// One file of a [`Skill`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillFile {
    /// The path below the skill's folder, `/`-separated (`SKILL.md`,
    /// `references/FORMS.md`).
    pub path: &'static str,
    /// Its bytes, as the build script read them.
    pub bytes: &'static [u8],
}

impl Skill {
    /// Why the skill cannot be served (a hand-registered one: the build script checks the
    /// ones it embeds, with a rule id and a line each), `None` when it can: a skill name,
    /// a frontmatter that is a JSON object whose `name` is the skill's and whose
    /// `description` is a text of 1 to [`DESCRIPTION_MAX_LEN`] characters, a `SKILL.md`
    /// among files named once each by a relative `/`-separated path, within [`MAX_FILES`]
    /// and [`MAX_BYTES`].
    ///
    /// ```
    /// use neuralis_model::skill::{Skill, SkillFile};
    /// let skill = Skill {
    ///     name: "triage",
    ///     frontmatter: r#"{"name": "triage", "description": "Sort incidents."}"#,
    ///     files: &[SkillFile { path: "SKILL.md", bytes: b"---\nname: triage\n---\n" }],
    /// };
    /// assert_eq!(skill.problem(), None);
    /// let unnamed = Skill { name: "Triage", ..skill };
    /// assert!(unnamed.problem().is_some());
    /// ```
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        if !is_skill_name(self.name) {
            return Some(format!(
                "`{}` is not a skill name: 1 to {NAME_MAX_LEN} lowercase letters, digits and single hyphens, not at either end",
                self.name
            ));
        }
        if let Some(problem) = frontmatter_problem(self.name, self.frontmatter) {
            return Some(problem);
        }
        files_problem(self.files)
    }
}

/// What a package's tests and hosts read of a skill (`neuralis_package::SKILLS`), without
/// going through its fields or `Debug`.
///
/// ```
/// use neuralis_model::skill::{Skill, SkillFile};
///
/// let skill = Skill {
///     name: "triage",
///     frontmatter: r#"{"name": "triage", "description": "Sort incidents by severity."}"#,
///     files: &[
///         SkillFile { path: "SKILL.md", bytes: b"---\nname: triage\n---\nSort them.\n" },
///         SkillFile { path: "references/levels.md", bytes: b"# Levels\n" },
///     ],
/// };
/// assert_eq!(skill.name(), "triage");
/// assert_eq!(skill.description().as_deref(), Some("Sort incidents by severity."));
/// assert_eq!(skill.paths().collect::<Vec<_>>(), ["SKILL.md", "references/levels.md"]);
/// assert_eq!(skill.file("references/levels.md"), Some(&b"# Levels\n"[..]));
/// assert_eq!(skill.file("missing.md"), None);
/// ```
impl Skill {
    /// The skill's name (its folder under `skills/`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The frontmatter's `description`: what a host shows a model to decide whether to
    /// load the skill (`None` for a hand-registered skill without one).
    #[must_use]
    pub fn description(&self) -> Option<String> {
        let serde_json::Value::Object(map) = serde_json::from_str(self.frontmatter).ok()? else {
            return None;
        };
        map.get("description")?.as_str().map(str::to_owned)
    }

    /// The paths of its files, `SKILL.md` among them, in the order embedded (path order).
    pub fn paths(&self) -> impl Iterator<Item = &'static str> {
        self.files.iter().map(|f| f.path)
    }

    /// The bytes of the file at `path` (below the skill's folder, `/`-separated).
    #[must_use]
    pub fn file(&self, path: &str) -> Option<&'static [u8]> {
        self.files.iter().find(|f| f.path == path).map(|f| f.bytes)
    }
}

fn frontmatter_problem(name: &str, frontmatter: &str) -> Option<String> {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str(frontmatter) else {
        return Some("its frontmatter is not a JSON object".to_owned());
    };
    if map.get("name").and_then(serde_json::Value::as_str) != Some(name) {
        return Some(format!("its frontmatter's `name` is not `{name}`"));
    }
    match map.get("description").and_then(serde_json::Value::as_str) {
        Some(d) if !d.trim().is_empty() && d.chars().count() <= DESCRIPTION_MAX_LEN => None,
        _ => Some(format!(
            "its frontmatter's `description` is not a text of 1 to {DESCRIPTION_MAX_LEN} characters"
        )),
    }
}

fn files_problem(files: &[SkillFile]) -> Option<String> {
    let mut paths: Vec<&str> = files.iter().map(|f| f.path).collect();
    crate::sort::sort(&mut paths);
    if let Some(pair) = paths.windows(2).find(|pair| pair[0] == pair[1]) {
        return Some(format!("the file `{}` is given twice", pair[0]));
    }
    if let Some(path) = paths.iter().find(|p| {
        p.split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
    }) {
        return Some(format!(
            "`{path}` is not a relative path of `/`-separated names"
        ));
    }
    if !paths.contains(&SKILL_MD) {
        return Some(format!("it has no `{SKILL_MD}`"));
    }
    let bytes: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    if files.len() > MAX_FILES || bytes > MAX_BYTES {
        return Some(format!(
            "its {} files of {bytes} bytes are over {MAX_FILES} files or {MAX_BYTES} bytes, which a host need not load",
            files.len()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::is_skill_name;

    #[test]
    fn the_name_rule_is_the_seps_pattern() {
        let pattern = regex_lite::Regex::new("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$")
            .expect("the pattern compiles");
        for name in [
            "a", "a1", "1a", "ab-cd", "a--b", "-a", "a-", "A", "ab_cd", "", "é", "a-b-c",
        ]
        .into_iter()
        .map(String::from)
        .chain([
            (0..64).map(|_| 'x').collect(),
            (0..65).map(|_| 'x').collect(),
        ]) {
            let expected = pattern.is_match(&name) && !name.contains("--");
            assert_eq!(is_skill_name(&name), expected, "{name:?}");
        }
    }
}

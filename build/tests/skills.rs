//! The skills a package ships (`skills/<name>/SKILL.md`, MCP's SEP-2640), checked by the
//! build script: one error per mistake, led by its `skill-*` rule id, at the file (and the
//! line, for what a `SKILL.md` says); the skills that pass embedded in the package table.

mod common;
use common::Pkg;

const SKILL: &str = "---\nname: release-notes\ndescription: >-\n  Write the release notes\n  of a version.\nmetadata:\n  author: us # who\n---\n\n# Release notes\n";

/// A crate with no tool and the skill files `files`.
fn skills(files: &[(&str, &str)]) -> Pkg {
    let pkg = Pkg::new(files);
    pkg.write("src/lib.rs", "");
    pkg
}

/// The one error of a run.
#[track_caller]
fn error(pkg: &Pkg) -> String {
    let error = pkg.fail();
    assert_eq!(error.messages.len(), 1, "one error: {error}");
    error.messages[0].clone()
}

/// `--> /path/to/rel` (`:line:col` when given), as a message points.
fn at(pkg: &Pkg, rel: &str, line_col: Option<(usize, usize)>) -> String {
    match line_col {
        Some((line, col)) => pkg.at(rel, line, col).trim_start().to_owned(),
        None => format!("--> {}", pkg.shown(rel)),
    }
}

/// The error leads with `rule`, points at `at` on its second line.
#[track_caller]
fn assert_error(message: &str, rule: &str, at: &str, says: &str) {
    assert!(
        message.starts_with(&format!("error: {rule}: ")),
        "{message}"
    );
    assert_eq!(
        message.lines().nth(1).map(str::trim_start),
        Some(at),
        "{message}"
    );
    assert!(message.contains(says), "{says:?} in {message}");
    assert!(message.contains("= help: "), "{message}");
}

fn table(pkg: &Pkg) -> String {
    std::fs::read_to_string(pkg.path().join("out/neuralis_package.rs"))
        .expect("table")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

#[test]
fn a_skill_is_checked_and_embedded() {
    let pkg = skills(&[
        ("skills/release-notes/SKILL.md", SKILL),
        ("skills/release-notes/references/KINDS.md", "# Kinds\n"),
        ("skills/release-notes/.draft.md", "hidden: left out"),
        ("skills/.cache/x", "hidden: left out"),
    ]);
    let summary = pkg.run();
    assert_eq!(summary.skills, ["release-notes"]);
    let table = table(&pkg);
    let frontmatter = serde_json::to_string(
        &serde_json::to_string(&serde_json::json!({
            "name": "release-notes",
            "description": "Write the release notes of a version.",
            "metadata": {"author": "us"}
        }))
        .expect("json"),
    )
    .expect("json");
    assert!(
        table.contains(&format!(
            "::neuralis::__private::Skill{{name:\"release-notes\",frontmatter:{}",
            frontmatter.replace(' ', "")
        )),
        "{table}"
    );
    for (path, file) in [
        ("SKILL.md", "SKILL.md"),
        ("references/KINDS.md", "references/KINDS.md"),
    ] {
        let at = pkg.path().join("skills/release-notes").join(file);
        assert!(
            table.contains(&format!(
                "SkillFile{{path:\"{path}\",bytes:include_bytes!(\"{}\")}}",
                at.display()
            )),
            "{path}: {table}"
        );
    }
    assert!(!table.contains(".draft.md"), "{table}");
    assert!(
        table.contains("Package::builder().skills(SKILLS)"),
        "{table}"
    );
    let skills_dir = pkg.path().join("skills");
    assert!(
        summary
            .cargo_lines
            .contains(&format!("cargo:rerun-if-changed={}", skills_dir.display())),
        "{:?}",
        summary.cargo_lines
    );
}

#[test]
fn no_skills_dir_is_no_skill() {
    let pkg = skills(&[]);
    let summary = pkg.run();
    assert!(summary.skills.is_empty());
    assert!(table(&pkg).contains("SKILLS:&[::neuralis::__private::Skill]=&[]"));
    assert!(!summary.cargo_lines.iter().any(|l| l.ends_with("/skills")));
}

#[test]
fn skill_layout_a_file_beside_the_skills() {
    let pkg = skills(&[("skills/README.md", "# Skills\n")]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-layout",
        &at(&pkg, "skills/README.md", None),
        "belongs to no skill",
    );
}

#[test]
fn skill_layout_a_folder_without_skill_md() {
    let pkg = skills(&[("skills/notes/README.md", "# Notes\n")]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-layout",
        &at(&pkg, "skills/notes", None),
        "has no `SKILL.md`",
    );
}

#[test]
fn skill_layout_a_nested_skill_md() {
    let pkg = skills(&[
        ("skills/release-notes/SKILL.md", SKILL),
        ("skills/release-notes/inner/SKILL.md", SKILL),
    ]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-layout",
        &at(&pkg, "skills/release-notes/inner/SKILL.md", None),
        "a second `SKILL.md`",
    );
}

#[cfg(unix)]
#[test]
fn skill_layout_a_symbolic_link() {
    let pkg = skills(&[
        ("skills/release-notes/SKILL.md", SKILL),
        ("outside.md", "x"),
    ]);
    std::os::unix::fs::symlink(
        pkg.path().join("outside.md"),
        pkg.path().join("skills/release-notes/linked.md"),
    )
    .expect("symlink");
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-layout",
        &at(&pkg, "skills/release-notes/linked.md", None),
        "symbolic link",
    );
}

#[test]
fn skill_frontmatter_without_fences() {
    let pkg = skills(&[("skills/release-notes/SKILL.md", "# Release notes\n")]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-frontmatter",
        &at(&pkg, "skills/release-notes/SKILL.md", Some((1, 1))),
        "---",
    );
}

#[test]
fn skill_frontmatter_a_flow_collection_at_its_line() {
    let text = "---\nname: release-notes\ndescription: Notes.\nallowed-tools: [Read, Write]\n---\n";
    let pkg = skills(&[("skills/release-notes/SKILL.md", text)]);
    let message = error(&pkg);
    assert!(
        message.starts_with("error: skill-frontmatter: "),
        "{message}"
    );
    let at = at(&pkg, "skills/release-notes/SKILL.md", Some((4, 1)));
    let second = message.lines().nth(1).unwrap_or_default().trim_start();
    assert!(second.starts_with(&at[..at.len() - 2]), "line 4: {message}");
}

#[test]
fn skill_name_unlike_its_folder() {
    let text = SKILL.replace("name: release-notes", "name: release_notes");
    let pkg = skills(&[("skills/release-notes/SKILL.md", &text)]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-name",
        &at(&pkg, "skills/release-notes/SKILL.md", Some((2, 1))),
        "`release_notes` is not a skill name",
    );
}

#[test]
fn skill_name_of_another_folder() {
    let pkg = skills(&[("skills/notes/SKILL.md", SKILL)]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-name",
        &at(&pkg, "skills/notes/SKILL.md", Some((2, 1))),
        "its folder's is `notes`",
    );
}

#[test]
fn skill_name_missing() {
    let pkg = skills(&[("skills/notes/SKILL.md", "---\ndescription: Notes.\n---\n")]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-name",
        &at(&pkg, "skills/notes/SKILL.md", Some((1, 1))),
        "has no `name`",
    );
}

#[test]
fn skill_description_too_long() {
    let text = format!("---\nname: notes\ndescription: {}\n---\n", "a".repeat(1025));
    let pkg = skills(&[("skills/notes/SKILL.md", &text)]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-description",
        &at(&pkg, "skills/notes/SKILL.md", Some((3, 1))),
        "1025 characters, over 1024",
    );
}

#[test]
fn skill_description_missing() {
    let pkg = skills(&[("skills/notes/SKILL.md", "---\nname: notes\n---\n")]);
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-description",
        &at(&pkg, "skills/notes/SKILL.md", Some((1, 1))),
        "has no `description`",
    );
}

#[test]
fn skill_size_over_512_files() {
    let pkg = skills(&[(
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Notes.\n---\n",
    )]);
    for i in 0..512 {
        pkg.write(&format!("skills/notes/refs/{i}.md"), "x");
    }
    let message = error(&pkg);
    assert_error(
        &message,
        "skill-size",
        &at(&pkg, "skills/notes", None),
        "513 files",
    );
    // The near-miss: 512 files are a skill.
    std::fs::remove_file(pkg.path().join("skills/notes/refs/0.md")).expect("remove");
    assert_eq!(pkg.run().skills, ["notes"]);
}

#[test]
fn each_skill_is_checked_alone() {
    let pkg = skills(&[
        ("skills/release-notes/SKILL.md", SKILL),
        ("skills/notes/SKILL.md", "---\nname: notes\n---\n"),
    ]);
    let error = pkg.builder().run().expect_err("an error");
    assert_eq!(error.messages.len(), 1, "{error}");
    assert!(error.messages[0].starts_with("error: skill-description: "));
}

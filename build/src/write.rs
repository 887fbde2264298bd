//! Writing: `tools/<name>.json` only when the bytes change, stale files flagged or pruned.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use neuralis_model::RuleId;

use crate::diag::{Diag, Place, Run, Severity};
use crate::discover::display_path;
use crate::run::Produced;

impl Run {
    pub(crate) fn write_if_changed(&mut self, path: &Path, bytes: &[u8], record: bool) {
        if std::fs::read(path).is_ok_and(|old| old == bytes) {
            return;
        }
        if let Some(dir) = path.parent()
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            self.file_error(dir, &format!("cannot create the directory: {e}"));
            return;
        }
        match std::fs::write(path, bytes) {
            Ok(()) => {
                if record {
                    self.summary.written.push(path.to_path_buf());
                }
            }
            Err(e) => self.file_error(path, &format!("cannot write: {e}")),
        }
    }

    pub(crate) fn write_tools(
        &mut self,
        dir: &Path,
        produced: &BTreeMap<String, Produced>,
        claimed: &BTreeSet<String>,
        prune: bool,
        stamp: Option<SystemTime>,
    ) {
        let before = self.summary.written.len();
        for (name, p) in produced {
            self.write_if_changed(&dir.join(format!("{name}.json")), p.text.as_bytes(), true);
        }
        if let Some(stamp) = stamp {
            for path in &self.summary.written[before..] {
                set_mtime(path, stamp);
            }
        }
        // A skipped handler produced nothing this run, and its last good file may have
        // another name than the one it now claims (an invalid `name = ...`): nothing is
        // stale until every handler is read.
        if !self.summary.skipped.is_empty() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut stale: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| !neuralis_model::name::is_outputs_path(p))
            .filter(|p| {
                p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_none_or(|s| !produced.contains_key(s) && !claimed.contains(s))
            })
            .collect();
        stale.sort();
        for path in stale {
            if prune {
                match std::fs::remove_file(&path) {
                    Ok(()) => self.summary.removed.push(path),
                    Err(e) => self.file_error(&path, &format!("cannot remove a stale file: {e}")),
                }
            } else {
                self.diags.push(
                    Diag::new(
                        Severity::Warning,
                        Some(RuleId::StaleToolFile),
                        RuleId::StaleToolFile.rule().message,
                    )
                    .at(Place::File(display_path(&path)))
                    .help("delete it, or call `.prune(true)` on `neuralis_build::Builder`"),
                );
                self.summary.stale.push(path);
            }
        }
        if let Some(stamp) = stamp
            && (self.summary.written.len() > before || !self.summary.removed.is_empty())
        {
            set_mtime(dir, stamp);
        }
    }
}

/// Best effort: a file system that refuses only costs one more build-script run.
fn set_mtime(path: &Path, time: SystemTime) {
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.set_modified(time);
    }
}

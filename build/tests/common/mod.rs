//! What the emitter's tests share: a small crate written to a temporary directory, and
//! the emitter run over it.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use neuralis_build::{Builder, Cfg, Error, Summary};
use serde_json::Value;

/// A crate in a temporary directory.
pub struct Pkg {
    dir: tempfile::TempDir,
}

impl Pkg {
    pub fn new(files: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let pkg = Self { dir };
        for (rel, text) in files {
            pkg.write(rel, text);
        }
        pkg
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
        std::fs::write(p, text).expect("write");
    }

    pub fn builder(&self) -> Builder {
        Builder::new()
            .manifest_dir(self.path())
            .out_dir(self.path().join("out"))
            .cfg(Cfg::default())
    }

    pub fn run(&self) -> Summary {
        self.builder().run().expect("no errors")
    }

    pub fn fail(&self) -> Error {
        self.builder().run().expect_err("an error")
    }

    pub fn tool(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.tool_path(name)).expect("the tool file");
        serde_json::from_str(&text).expect("json")
    }

    pub fn tool_path(&self, name: &str) -> PathBuf {
        self.path().join("tools").join(format!("{name}.json"))
    }

    /// `rel` as the messages show it: absolute.
    pub fn shown(&self, rel: &str) -> String {
        self.path().join(rel).display().to_string()
    }

    /// ` --> /path/to/rel:line:col`, as a message points.
    pub fn at(&self, rel: &str, line: usize, col: usize) -> String {
        format!(" --> {}:{line}:{col}", self.shown(rel))
    }
}

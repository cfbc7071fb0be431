//! What more than one integration test needs. Each test crate uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Phrases XBoard takes for a failed engine start wherever they appear in an engine's line
/// (`HandleMachineMove` in its backend.c), and the system's own error suffix.
pub const START_FAILURE: [&str; 7] = [
    "no such file",
    "not found",
    "permission denied",
    "unknown host",
    "no remote directory",
    "can't alloc",
    "os error",
];

/// Run the `chuhan` binary with `args`: exit code, stdout, stderr.
pub fn run_chuhan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("run chuhan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The path of the fake engine (`examples/fake_engine.rs`), a test double for the match runner.
/// An example rather than a binary so that `cargo install` leaves it out; examples have no
/// `CARGO_BIN_EXE_…` variable, so it is found where Cargo puts them: `examples/` beside the
/// `deps/` folder holding this test's executable (same target folder, same profile). A plain
/// `cargo test` builds every example; before a run naming only some tests, build it with
/// `cargo build --example fake_engine` (`--release` for a release run).
pub fn fake_engine() -> String {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from <target>/<profile>/deps/");
    let path = profile
        .join("examples")
        .join(format!("fake_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: a plain `cargo test` builds it, or `cargo build --example fake_engine` \
         (with `--release` for a release run)",
        path.display()
    );
    path.to_str().expect("a UTF-8 target path").to_string()
}

/// A fresh, empty scratch directory of this test process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as an argument.
pub fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

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

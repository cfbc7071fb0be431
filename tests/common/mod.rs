//! What more than one integration test needs.

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

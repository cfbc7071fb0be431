//! Words for a file that cannot be read, shared by everything that reports on files (book
//! files, the protocol's options).

/// Why a file cannot be read, in our own words. The system's message ("No such file or
/// directory (os error 2)") must never reach the GUI: XBoard takes any engine line containing
/// "No such file", "not found" or "Permission denied" for a failed engine start. Every file
/// error the protocol reports goes through here.
pub fn file_problem(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "does not exist".into(),
        K::PermissionDenied => "cannot be read (no permission)".into(),
        K::IsADirectory => "is a directory".into(),
        K::OutOfMemory => "is too large to read".into(),
        _ => match e.raw_os_error() {
            Some(code) => format!("cannot be read (system error {code})"),
            None => "cannot be read".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_problems_never_use_the_system_words() {
        use std::io::{Error, ErrorKind};
        let errors = [
            Error::from_raw_os_error(2),
            Error::from_raw_os_error(13),
            Error::from_raw_os_error(21),
            Error::from_raw_os_error(5),
            Error::other("No such file or directory"),
            Error::new(ErrorKind::NotFound, "not found"),
        ];
        for e in errors {
            let text = file_problem(&e);
            for phrase in ["no such file", "not found", "permission denied", "os error"] {
                assert!(!text.to_lowercase().contains(phrase), "{e}: {text}");
            }
        }
        assert_eq!(file_problem(&Error::from_raw_os_error(2)), "does not exist");
    }
}

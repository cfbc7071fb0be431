//! Words for a file that cannot be read, shared by everything that reports on files (book
//! files, the protocol's options), a bounded reader for files loaded whole, and the reader of
//! network files.

use crate::eval::nnue::network::FILE_LEN;
use crate::eval::nnue::Network;
use crate::eval::Params;
use crate::search::params::SearchParams;
use std::fs::File;
use std::io::Read;
use std::path::Path;

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

/// The bytes of the regular file at `path`, at most `limit` of them (a longer file is cut
/// there: a caller that expects fewer tells a file too long by its length), or why it cannot
/// be read. Directories and special files (a FIFO would block) are refused unread.
pub fn read_at_most(path: &Path, limit: usize) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| file_problem(&e))?;
    if meta.is_dir() {
        return Err("is a directory".into());
    }
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    let file = File::open(path).map_err(|e| file_problem(&e))?;
    let mut bytes = Vec::with_capacity(limit.min(meta.len() as usize));
    file.take(limit as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| file_problem(&e))?;
    Ok(bytes)
}

/// The network in the file at `path`, or why there is none: the words complete "network file
/// 'x' …" (it does not exist, is truncated, is another architecture, …).
pub fn read_network(path: &Path) -> Result<Network, String> {
    // One byte more than a network, so that a longer file shows.
    let bytes = read_at_most(path, FILE_LEN + 1)?;
    Network::from_bytes(&bytes).map_err(|e| e.to_string())
}

/// The classical evaluation's numbers in the parameter file at `path` (the text format of
/// [`Params`]), or why there are none: the words complete "parameter file 'x' …".
pub fn read_eval_params(path: &Path) -> Result<Params, String> {
    Params::from_text(&read_param_text(path)?).map_err(|e| format!("is not a parameter file ({e})"))
}

/// The search's numbers in the parameter file at `path` (the text format of
/// [`SearchParams`]), or why there are none, in the words of [`read_eval_params`].
pub fn read_search_params(path: &Path) -> Result<SearchParams, String> {
    SearchParams::from_text(&read_param_text(path)?)
        .map_err(|e| format!("is not a search parameter file ({e})"))
}

/// The text of a parameter file, or why it cannot be one.
fn read_param_text(path: &Path) -> Result<String, String> {
    // A parameter file is a few kilobytes: one byte over the limit tells a longer file.
    const LIMIT: usize = 1 << 20;
    let bytes = read_at_most(path, LIMIT + 1)?;
    if bytes.len() > LIMIT {
        return Err("is too long for a parameter file".into());
    }
    String::from_utf8(bytes).map_err(|_| "is not text (not UTF-8)".to_string())
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

    #[test]
    fn reading_is_bounded_and_refuses_what_is_no_regular_file() {
        let path = std::env::temp_dir().join(format!("chuhan-{}-bounded", std::process::id()));
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_at_most(&path, 4).unwrap(), b"0123");
        assert_eq!(read_at_most(&path, 100).unwrap(), b"0123456789");
        let _ = std::fs::remove_file(&path);
        assert_eq!(read_at_most(&path, 4).unwrap_err(), "does not exist");
        assert_eq!(
            read_at_most(&std::env::temp_dir(), 4).unwrap_err(),
            "is a directory"
        );
        if Path::new("/dev/null").exists() {
            assert_eq!(
                read_at_most(Path::new("/dev/null"), 4).unwrap_err(),
                "is not a regular file"
            );
        }
    }

    #[test]
    fn a_parameter_file_is_short_text_in_the_format() {
        let path = std::env::temp_dir().join(format!("chuhan-{}-params", std::process::id()));
        std::fs::write(&path, "# a comment\nmaterial.rook.mg = 900\n").unwrap();
        let params = read_eval_params(&path).unwrap();
        assert_eq!(
            params.material[crate::board::types::PieceKind::Rook.index()].0,
            900
        );
        std::fs::write(&path, vec![b'#'; (1 << 20) + 1]).unwrap();
        assert_eq!(
            read_eval_params(&path).unwrap_err(),
            "is too long for a parameter file"
        );
        std::fs::write(&path, [b'#', 0xff, b'\n']).unwrap();
        assert_eq!(
            read_eval_params(&path).unwrap_err(),
            "is not text (not UTF-8)"
        );
        std::fs::write(&path, "material.rook.mg 900\n").unwrap();
        assert!(read_eval_params(&path)
            .unwrap_err()
            .starts_with("is not a parameter file (line 1: expected 'name = value'"));
        std::fs::write(&path, "rfp_margin = 120\n").unwrap();
        assert_eq!(read_search_params(&path).unwrap().rfp_margin, 120);
        assert!(
            read_eval_params(&path).is_err(),
            "search numbers are no eval numbers"
        );
        std::fs::write(&path, "rfp_margin = 0\n").unwrap();
        assert!(read_search_params(&path)
            .unwrap_err()
            .starts_with("is not a search parameter file ('rfp_margin' = 0 is out of its range"));
        let _ = std::fs::remove_file(&path);
    }
}

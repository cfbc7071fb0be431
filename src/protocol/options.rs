//! The option table: every option name either dialect may send, its type and range, and which
//! names are announced in which handshake. Names match case-insensitively, ignoring spaces,
//! `_` and `-`, so `Hash`, `hashsize`, `Clear Hash` and `clearhash` all resolve. Options that
//! other engines offered and GUIs still send are known here too, as [`Opt::Accepted`]: they
//! are taken quietly. An option is only announced when it does something.

use super::output::echo;
use std::fmt;

/// What an option controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Hash size in MB (`Hash`, `hashsize`).
    Hash,
    /// Search threads.
    Threads,
    /// Empty the hash table (`Clear Hash`).
    ClearHash,
    /// The GUI may send `go ponder` (nothing to do on our side).
    Ponder,
    /// Number of principal variations.
    MultiPv,
    /// Time kept per move for communication delays, ms.
    MoveOverhead,
    /// Add `wdl W D L` to UCI info lines.
    ShowWdl,
    /// UCCI `go time …` in milliseconds (true) or seconds (false).
    UseMillisec,
    /// A new game (`setoption newgame`).
    NewGame,
    /// May the engine resign a lost game (UCCI `bestmove … resign`).
    Resign,
    /// Use the opening book (`usebook`, `OwnBook`).
    UseBook,
    /// Book file(s) (`bookfiles`, `BookFile`).
    BookFiles,
    /// The repetition rule set (`Repetition Rule`: ChineseRule, AsianRule, …).
    RepetitionRule,
    /// `UCI_LimitStrength`.
    LimitStrength,
    /// `UCI_Elo`.
    Elo,
    /// `Skill Level`.
    SkillLevel,
    /// Known from other engines; accepted without effect.
    Accepted,
}

/// The type of an option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// true / false.
    Check(bool),
    /// No value: pressing it acts.
    Button,
    /// Free text, with its default.
    Text(&'static str),
    /// One of a few named values (parsed further by whoever applies it).
    Combo {
        /// Default value.
        default: &'static str,
        /// The values announced.
        vars: &'static [&'static str],
    },
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// What it controls.
    pub opt: Opt,
    /// Name announced to UCI GUIs (None: not announced in UCI).
    pub uci: Option<&'static str>,
    /// Name announced to UCCI GUIs (None: not announced in UCCI).
    pub ucci: Option<&'static str>,
    /// Further accepted spellings.
    pub aliases: &'static [&'static str],
    /// Type, default and range.
    pub kind: Kind,
}

/// Default and range of `Hash`.
pub const HASH: Kind = Kind::Spin {
    default: crate::engine::Engine::DEFAULT_HASH_MB as i64,
    min: 1,
    max: crate::engine::MAX_HASH_MB as i64,
};

/// The whole table: every option either dialect may send, and what each one announces.
pub const TABLE: &[Spec] = &[
    Spec {
        opt: Opt::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        aliases: &[],
        kind: Kind::Check(true),
    },
    Spec {
        opt: Opt::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        aliases: &[],
        kind: HASH,
    },
    Spec {
        opt: Opt::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: crate::engine::MAX_THREADS as i64,
        },
    },
    Spec {
        opt: Opt::ClearHash,
        uci: Some("Clear Hash"),
        ucci: None,
        aliases: &[],
        kind: Kind::Button,
    },
    Spec {
        opt: Opt::Ponder,
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        aliases: &[],
        kind: Kind::Check(false),
    },
    Spec {
        opt: Opt::MultiPv,
        uci: Some("MultiPV"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 128,
        },
    },
    Spec {
        opt: Opt::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    },
    Spec {
        opt: Opt::ShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        aliases: &[],
        kind: Kind::Check(false),
    },
    Spec {
        opt: Opt::NewGame,
        uci: None,
        ucci: Some("newgame"),
        aliases: &[],
        kind: Kind::Button,
    },
    Spec {
        opt: Opt::Resign,
        uci: None,
        ucci: Some("resign"),
        aliases: &[],
        kind: Kind::Check(false),
    },
    Spec {
        opt: Opt::UseBook,
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        aliases: &[],
        kind: Kind::Check(true),
    },
    Spec {
        opt: Opt::BookFiles,
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        aliases: &["book"],
        kind: Kind::Text(""),
    },
    Spec {
        opt: Opt::RepetitionRule,
        uci: Some("Repetition Rule"),
        ucci: Some("repetitionrule"),
        aliases: &["rule", "rules"],
        kind: Kind::Combo {
            default: "ChineseRule",
            vars: &["ChineseRule", "AsianRule", "DrawRule"],
        },
    },
    Spec {
        opt: Opt::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        aliases: &["ucilimitstrength"],
        kind: Kind::Check(false),
    },
    Spec {
        opt: Opt::Elo,
        uci: Some("UCI_Elo"),
        ucci: None,
        aliases: &["elo"],
        kind: Kind::Spin {
            default: crate::search::strength::MAX_ELO as i64,
            min: crate::search::strength::MIN_ELO as i64,
            max: crate::search::strength::MAX_ELO as i64,
        },
    },
    Spec {
        opt: Opt::SkillLevel,
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        aliases: &["skill"],
        kind: Kind::Spin {
            default: 20,
            min: 0,
            max: 20,
        },
    },
    Spec {
        opt: Opt::Accepted,
        uci: None,
        ucci: None,
        aliases: &[
            // Other engines' UCI options.
            "sixtymoverule",
            "ucivariant",
            "scoretype",
            "evalfile",
            "ucianalysemode",
            "ucichess960",
            "uciwdlcentipawn",
            "contempt",
            "analysiscontempt",
            "slowmover",
            "nodestime",
            "minimumthinkingtime",
            "syzygypath",
            "debuglogfile",
            "drawrule",
            "mate threat depth",
            // ElephantEye's UCCI options.
            "batch",
            "debug",
            "randomness",
            "style",
            "promotion",
            "idle",
            "pruning",
            "knowledge",
            "selectivity",
            "loadbook",
            "dualtime",
        ],
        kind: Kind::Text(""),
    },
];

/// Fold a name for comparison: lower case, without spaces, `_` and `-`.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The row for an option name, in any dialect's spelling.
pub fn lookup(name: &str) -> Option<&'static Spec> {
    let key = fold(name);
    TABLE.iter().find(|s| {
        s.uci.is_some_and(|n| fold(n) == key)
            || s.ucci.is_some_and(|n| fold(n) == key)
            || s.aliases.iter().any(|a| fold(a) == key)
    })
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// For spins.
    Int(i64),
    /// For checks.
    Bool(bool),
    /// For text options.
    Text(String),
    /// For buttons.
    Press,
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No value where one is needed.
    Missing,
    /// Not a number.
    NotANumber(String),
    /// A number outside the range.
    OutOfRange {
        /// The value given.
        value: i64,
        /// Smallest accepted.
        min: i64,
        /// Largest accepted.
        max: i64,
    },
    /// Not true or false.
    NotABool(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Missing => write!(f, "missing value"),
            OptionError::NotANumber(v) => write!(f, "'{}' is not a number", echo(v)),
            OptionError::OutOfRange { value, min, max } => {
                write!(f, "{value} is out of range {min}..{max}")
            }
            OptionError::NotABool(v) => write!(f, "'{}' is not true or false", echo(v)),
        }
    }
}

impl std::error::Error for OptionError {}

/// How a string option's empty value is written: `<empty>`, the UCI convention, which the
/// handshake announces as the default of an empty string option. UCI-to-WinBoard adapters
/// (uci2wb) send every string option back as announced, so `<empty>`, an empty value and no
/// value at all mean "nothing" (for `BookFile`: no file, the built-in book).
pub const EMPTY: &str = "<empty>";

/// A string option's value, with every spelling of "nothing" as `""`.
fn text_value(value: Option<&str>) -> &str {
    match value.map(str::trim) {
        Some(v) if !v.eq_ignore_ascii_case(EMPTY) => v,
        _ => "",
    }
}

impl Spec {
    /// Check a value against this option's type.
    pub fn parse(&self, value: Option<&str>) -> Result<Value, OptionError> {
        match self.kind {
            Kind::Button => Ok(Value::Press),
            Kind::Text(_) => Ok(Value::Text(text_value(value).to_string())),
            Kind::Combo { .. } => Ok(Value::Text(value.unwrap_or("").to_string())),
            Kind::Check(_) => {
                let v = value.ok_or(OptionError::Missing)?;
                match v.to_ascii_lowercase().as_str() {
                    "true" | "on" | "yes" | "1" => Ok(Value::Bool(true)),
                    "false" | "off" | "no" | "0" => Ok(Value::Bool(false)),
                    _ => Err(OptionError::NotABool(v.to_string())),
                }
            }
            Kind::Spin { min, max, .. } => {
                let v = value.ok_or(OptionError::Missing)?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| OptionError::NotANumber(v.to_string()))?;
                if (min..=max).contains(&n) {
                    Ok(Value::Int(n))
                } else {
                    Err(OptionError::OutOfRange { value: n, min, max })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_both_dialects_resolve() {
        assert_eq!(lookup("Hash").unwrap().opt, Opt::Hash);
        assert_eq!(lookup("hashsize").unwrap().opt, Opt::Hash);
        assert_eq!(lookup("HASHSIZE").unwrap().opt, Opt::Hash);
        assert_eq!(lookup("threads").unwrap().opt, Opt::Threads);
        assert_eq!(lookup("Clear Hash").unwrap().opt, Opt::ClearHash);
        assert_eq!(lookup("clear_hash").unwrap().opt, Opt::ClearHash);
        assert_eq!(lookup("Move Overhead").unwrap().opt, Opt::MoveOverhead);
        assert_eq!(lookup("uci_showwdl").unwrap().opt, Opt::ShowWdl);
        assert_eq!(lookup("OwnBook").unwrap().opt, Opt::UseBook);
        assert_eq!(lookup("BookFile").unwrap().opt, Opt::BookFiles);
        assert_eq!(lookup("Repetition Rule").unwrap().opt, Opt::RepetitionRule);
        assert_eq!(lookup("UCI_Elo").unwrap().opt, Opt::Elo);
        assert_eq!(lookup("Skill Level").unwrap().opt, Opt::SkillLevel);
        for quiet in [
            "Sixty Move Rule",
            "UCI_Variant",
            "ScoreType",
            "EvalFile",
            "batch",
        ] {
            assert_eq!(lookup(quiet).unwrap().opt, Opt::Accepted, "{quiet}");
        }
        assert!(lookup("Frobnicate").is_none());
    }

    #[test]
    fn values_are_checked() {
        let hash = lookup("Hash").unwrap();
        assert_eq!(hash.parse(Some("16")), Ok(Value::Int(16)));
        assert_eq!(
            hash.parse(Some("0")),
            Err(OptionError::OutOfRange {
                value: 0,
                min: 1,
                max: crate::engine::MAX_HASH_MB as i64
            })
        );
        assert!(matches!(
            hash.parse(Some("lots")),
            Err(OptionError::NotANumber(_))
        ));
        assert_eq!(hash.parse(None), Err(OptionError::Missing));
        let ms = lookup("usemillisec").unwrap();
        assert_eq!(ms.parse(Some("False")), Ok(Value::Bool(false)));
        assert!(matches!(
            ms.parse(Some("maybe")),
            Err(OptionError::NotABool(_))
        ));
        assert_eq!(lookup("newgame").unwrap().parse(None), Ok(Value::Press));
    }

    #[test]
    fn every_spelling_of_nothing_is_an_empty_string() {
        let book = lookup("BookFile").unwrap();
        for nothing in [None, Some(""), Some("<empty>"), Some("<EMPTY>"), Some(" ")] {
            assert_eq!(
                book.parse(nothing),
                Ok(Value::Text(String::new())),
                "{nothing:?}"
            );
        }
        assert_eq!(
            book.parse(Some("books/main.txt")),
            Ok(Value::Text("books/main.txt".into()))
        );
    }

    #[test]
    fn every_announced_name_resolves_to_its_row() {
        for spec in TABLE {
            for name in [spec.uci, spec.ucci].into_iter().flatten() {
                assert_eq!(lookup(name).unwrap().opt, spec.opt, "{name}");
            }
        }
    }
}

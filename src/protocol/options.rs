//! The option table: every option either dialect may send, declared once with its names (UCI,
//! UCCI, further spellings), its type, default and range, and what it changes. Names match
//! case-insensitively, ignoring spaces, `_` and `-`, so `Hash`, `hashsize`, `Clear Hash` and
//! `clearhash` all resolve. Options that other engines offered and GUIs still send are known
//! here too, as [`OptionChange::Accepted`]: they are taken quietly. An option is only announced
//! when it does something.
//!
//! A value is checked against its row and turned into an [`OptionChange`], a typed value the
//! loop applies with one exhaustive `match`: each row's type carries the function that builds
//! its change, so a type mismatch cannot compile. Defaults come from the typed settings they
//! set ([`EngineOptions::FOR_GUI`], [`ProtocolSettings::DEFAULT`]), never written twice.

use super::echo::echo;
use super::ProtocolSettings;
use crate::board::types::Value;
use crate::engine::book::BookPolicy;
use crate::engine::{Engine, EngineOptions, MAX_HASH_MB, MAX_THREADS};
use crate::rules::RuleSet;
use crate::search::strength::{MAX_ELO, MAX_SKILL, MIN_ELO};
use crate::search::MAX_CONTEMPT;
use std::fmt;
use std::time::Duration;

/// What setting an option changes, with its checked value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// Hash size in MB (`Hash`, `hashsize`).
    Hash(usize),
    /// Search threads.
    Threads(usize),
    /// Empty the hash table (`Clear Hash`).
    ClearHash,
    /// The GUI may send `go ponder` (nothing to do on our side).
    Ponder(bool),
    /// Number of principal variations.
    MultiPv(usize),
    /// The draw score's offset against the engine's own side (`Contempt`).
    Contempt(Value),
    /// Time kept per move for communication delays.
    MoveOverhead(Duration),
    /// Add `wdl W D L` to UCI info lines.
    ShowWdl(bool),
    /// UCCI `go time …` in milliseconds (true) or seconds (false).
    UseMillisec(bool),
    /// A new game (`setoption newgame`).
    NewGame,
    /// May the engine resign a lost game (UCCI `bestmove … resign`).
    Resign(bool),
    /// Use the opening book (`usebook`, `OwnBook`).
    UseBook(bool),
    /// Book file (`bookfiles`, `BookFile`); empty: the built-in book.
    BookFile(String),
    /// How varied the book's choices are (`BookVariety`), 0..=100.
    BookVariety(u32),
    /// Seed of the book's choices (`BookSeed`); 0: from the clock.
    BookSeed(u64),
    /// Evaluate with a network (`Use NNUE`, `usennue`) or the classical tables.
    UseNetwork(bool),
    /// Network file (`EvalFile`, `evalfile`); empty: the built-in network.
    EvalFile(String),
    /// Parameter file of the classical evaluation (`EvalParams`, `evalparams`); empty: the
    /// built-in numbers.
    EvalParams(String),
    /// Parameter file of the search's margins and reductions (`SearchParams`, `searchparams`);
    /// empty: the built-in numbers.
    SearchParams(String),
    /// The repetition rule set (`Repetition Rule`: ChineseRule, AsianRule, …).
    Rules(RuleSet),
    /// `UCI_LimitStrength`.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(u32),
    /// `Skill Level`.
    SkillLevel(u32),
    /// Known from other engines; accepted without effect.
    Accepted,
}

/// The type of an option, with its default, its range, and how a checked value becomes a
/// change.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
        /// The change, from a value in range.
        set: fn(i64) -> OptionChange,
    },
    /// true / false.
    Check {
        /// Default value.
        default: bool,
        /// The change.
        set: fn(bool) -> OptionChange,
    },
    /// No value: pressing it acts.
    Button {
        /// The change.
        press: fn() -> OptionChange,
    },
    /// Free text, with its default.
    Text {
        /// Default value.
        default: &'static str,
        /// The change, from the text (every spelling of "nothing" as `""`).
        set: fn(String) -> OptionChange,
    },
    /// One of a few named values.
    Combo {
        /// Default value.
        default: &'static str,
        /// The values announced.
        vars: &'static [&'static str],
        /// The change, or why the value is refused.
        set: fn(&str) -> Result<OptionChange, String>,
    },
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Name announced to UCI GUIs (None: not announced in UCI).
    pub uci: Option<&'static str>,
    /// Name announced to UCCI GUIs (None: not announced in UCCI).
    pub ucci: Option<&'static str>,
    /// Further accepted spellings.
    pub aliases: &'static [&'static str],
    /// Type, default, range and change.
    pub kind: Kind,
}

/// The defaults GUIs see.
const GUI: EngineOptions = EngineOptions::FOR_GUI;
const PROTOCOL: ProtocolSettings = ProtocolSettings::DEFAULT;

/// The whole table: every option either dialect may send, in the order announced.
pub static TABLE: &[Spec] = &[
    Spec {
        uci: None,
        ucci: Some("usemillisec"),
        aliases: &[],
        kind: Kind::Check {
            default: PROTOCOL.use_millisec,
            set: OptionChange::UseMillisec,
        },
    },
    Spec {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        aliases: &[],
        kind: Kind::Spin {
            default: Engine::DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
            set: |n| OptionChange::Hash(n as usize),
        },
    },
    Spec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        aliases: &[],
        kind: Kind::Spin {
            default: GUI.search.threads as i64,
            min: 1,
            max: MAX_THREADS as i64,
            set: |n| OptionChange::Threads(n as usize),
        },
    },
    Spec {
        uci: Some("Clear Hash"),
        ucci: None,
        aliases: &[],
        kind: Kind::Button {
            press: || OptionChange::ClearHash,
        },
    },
    Spec {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        aliases: &[],
        kind: Kind::Check {
            default: false,
            set: OptionChange::Ponder,
        },
    },
    Spec {
        uci: Some("MultiPV"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            default: GUI.search.multipv as i64,
            min: 1,
            max: 128,
            set: |n| OptionChange::MultiPv(n as usize),
        },
    },
    Spec {
        uci: Some("Contempt"),
        ucci: Some("contempt"),
        aliases: &[],
        kind: Kind::Spin {
            default: GUI.search.contempt as i64,
            min: -MAX_CONTEMPT as i64,
            max: MAX_CONTEMPT as i64,
            set: |n| OptionChange::Contempt(n as Value),
        },
    },
    Spec {
        uci: Some("Move Overhead"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            default: GUI.move_overhead.as_millis() as i64,
            min: 0,
            max: 5000,
            set: |n| OptionChange::MoveOverhead(Duration::from_millis(n as u64)),
        },
    },
    Spec {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        aliases: &[],
        kind: Kind::Check {
            default: PROTOCOL.show_wdl,
            set: OptionChange::ShowWdl,
        },
    },
    Spec {
        uci: None,
        ucci: Some("newgame"),
        aliases: &[],
        kind: Kind::Button {
            press: || OptionChange::NewGame,
        },
    },
    Spec {
        uci: None,
        ucci: Some("resign"),
        aliases: &[],
        kind: Kind::Check {
            default: PROTOCOL.may_resign,
            set: OptionChange::Resign,
        },
    },
    Spec {
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        aliases: &[],
        kind: Kind::Check {
            default: GUI.use_book,
            set: OptionChange::UseBook,
        },
    },
    Spec {
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        aliases: &["book"],
        kind: Kind::Text {
            default: "",
            set: OptionChange::BookFile,
        },
    },
    Spec {
        uci: Some("BookVariety"),
        ucci: Some("bookvariety"),
        aliases: &[],
        kind: Kind::Spin {
            default: GUI.book_policy.variety as i64,
            min: 0,
            max: BookPolicy::MAX_VARIETY as i64,
            set: |n| OptionChange::BookVariety(n as u32),
        },
    },
    Spec {
        uci: Some("BookSeed"),
        ucci: Some("bookseed"),
        aliases: &[],
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: i32::MAX as i64,
            set: |n| OptionChange::BookSeed(n as u64),
        },
    },
    Spec {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        aliases: &["usenetwork"],
        kind: Kind::Check {
            default: GUI.search.use_network,
            set: OptionChange::UseNetwork,
        },
    },
    Spec {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        aliases: &[],
        kind: Kind::Text {
            default: "",
            set: OptionChange::EvalFile,
        },
    },
    Spec {
        uci: Some("EvalParams"),
        ucci: Some("evalparams"),
        aliases: &[],
        kind: Kind::Text {
            default: "",
            set: OptionChange::EvalParams,
        },
    },
    Spec {
        uci: Some("SearchParams"),
        ucci: Some("searchparams"),
        aliases: &[],
        kind: Kind::Text {
            default: "",
            set: OptionChange::SearchParams,
        },
    },
    Spec {
        uci: Some("Repetition Rule"),
        ucci: Some("repetitionrule"),
        aliases: &["rule", "rules"],
        kind: Kind::Combo {
            // The GUI spelling of `GUI.search.rules` (a test holds them together).
            default: "ChineseRule",
            vars: &["ChineseRule", "AsianRule", "DrawRule"],
            set: |v| {
                v.parse::<RuleSet>()
                    .map(OptionChange::Rules)
                    .map_err(|e| e.to_string())
            },
        },
    },
    Spec {
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        aliases: &["ucilimitstrength"],
        kind: Kind::Check {
            default: GUI.strength.limit,
            set: OptionChange::LimitStrength,
        },
    },
    Spec {
        uci: Some("UCI_Elo"),
        ucci: None,
        aliases: &["elo"],
        kind: Kind::Spin {
            default: GUI.strength.elo as i64,
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
            set: |n| OptionChange::Elo(n as u32),
        },
    },
    Spec {
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        aliases: &["skill"],
        kind: Kind::Spin {
            default: GUI.strength.skill_level as i64,
            min: 0,
            max: MAX_SKILL as i64,
            set: |n| OptionChange::SkillLevel(n as u32),
        },
    },
    Spec {
        uci: None,
        ucci: None,
        aliases: &[
            // Other engines' UCI options.
            "sixtymoverule",
            "ucivariant",
            "scoretype",
            "ucianalysemode",
            "ucichess960",
            "uciwdlcentipawn",
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
        kind: Kind::Text {
            default: "",
            set: |_| OptionChange::Accepted,
        },
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
    /// Refused by the option itself (a combo value it does not know), saying why.
    Rejected(String),
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
            OptionError::Rejected(why) => f.write_str(why),
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
    /// Check a value against this option's type and range: the change it asks for.
    pub fn parse(&self, value: Option<&str>) -> Result<OptionChange, OptionError> {
        match self.kind {
            Kind::Button { press } => Ok(press()),
            Kind::Text { set, .. } => Ok(set(text_value(value).to_string())),
            Kind::Combo { set, .. } => set(value.unwrap_or("")).map_err(OptionError::Rejected),
            Kind::Check { set, .. } => {
                let v = value.ok_or(OptionError::Missing)?;
                match v.to_ascii_lowercase().as_str() {
                    "true" | "on" | "yes" | "1" => Ok(set(true)),
                    "false" | "off" | "no" | "0" => Ok(set(false)),
                    _ => Err(OptionError::NotABool(v.to_string())),
                }
            }
            Kind::Spin { min, max, set, .. } => {
                let v = value.ok_or(OptionError::Missing)?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| OptionError::NotANumber(v.to_string()))?;
                if (min..=max).contains(&n) {
                    Ok(set(n))
                } else {
                    Err(OptionError::OutOfRange { value: n, min, max })
                }
            }
        }
    }

    /// The name shown for this row: its UCI name, else its UCCI name, else its first alias.
    pub fn name(&self) -> &'static str {
        self.uci.or(self.ucci).unwrap_or_else(|| self.aliases[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
        lookup(name).unwrap().parse(value)
    }

    #[test]
    fn names_in_both_dialects_resolve() {
        for (spelling, row) in [
            ("Hash", "Hash"),
            ("hashsize", "Hash"),
            ("HASHSIZE", "Hash"),
            ("threads", "Threads"),
            ("Clear Hash", "Clear Hash"),
            ("clear_hash", "Clear Hash"),
            ("Move Overhead", "Move Overhead"),
            ("uci_showwdl", "UCI_ShowWDL"),
            ("OwnBook", "OwnBook"),
            ("usebook", "OwnBook"),
            ("bookfiles", "BookFile"),
            ("evalfile", "EvalFile"),
            ("Eval File", "EvalFile"),
            ("eval_params", "EvalParams"),
            ("searchparams", "SearchParams"),
            ("search_params", "SearchParams"),
            ("rules", "Repetition Rule"),
            ("UCI_Elo", "UCI_Elo"),
            ("skill", "Skill Level"),
        ] {
            assert_eq!(lookup(spelling).unwrap().name(), row, "{spelling}");
        }
        for quiet in ["Sixty Move Rule", "UCI_Variant", "ScoreType", "batch"] {
            assert_eq!(
                change(quiet, Some("x")),
                Ok(OptionChange::Accepted),
                "{quiet}"
            );
        }
        assert!(lookup("Frobnicate").is_none());
    }

    #[test]
    fn values_become_typed_changes() {
        assert_eq!(change("hashsize", Some("16")), Ok(OptionChange::Hash(16)));
        assert_eq!(change("Threads", Some("3")), Ok(OptionChange::Threads(3)));
        assert_eq!(change("MultiPV", Some("4")), Ok(OptionChange::MultiPv(4)));
        assert_eq!(
            change("contempt", Some("-20")),
            Ok(OptionChange::Contempt(-20))
        );
        assert!(change("Contempt", Some("501")).is_err());
        assert_eq!(
            change("Move Overhead", Some("120")),
            Ok(OptionChange::MoveOverhead(Duration::from_millis(120)))
        );
        assert_eq!(change("UCI_Elo", Some("2000")), Ok(OptionChange::Elo(2000)));
        assert_eq!(
            change("Skill Level", Some("3")),
            Ok(OptionChange::SkillLevel(3))
        );
        assert_eq!(
            change("OwnBook", Some("off")),
            Ok(OptionChange::UseBook(false))
        );
        assert_eq!(change("resign", Some("on")), Ok(OptionChange::Resign(true)));
        assert_eq!(
            change("Ponder", Some("true")),
            Ok(OptionChange::Ponder(true))
        );
        assert_eq!(change("Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(change("newgame", Some("x")), Ok(OptionChange::NewGame));
        assert_eq!(
            change("Repetition Rule", Some("AsianRule")),
            Ok(OptionChange::Rules(RuleSet::Asian))
        );
        assert_eq!(
            change("Repetition Rule", Some("MoonRule")),
            Err(OptionError::Rejected(
                "MoonRule".parse::<RuleSet>().unwrap_err().to_string()
            ))
        );
    }

    #[test]
    fn values_are_checked() {
        let hash = lookup("Hash").unwrap();
        assert_eq!(
            hash.parse(Some("0")),
            Err(OptionError::OutOfRange {
                value: 0,
                min: 1,
                max: MAX_HASH_MB as i64
            })
        );
        assert!(matches!(
            hash.parse(Some("lots")),
            Err(OptionError::NotANumber(_))
        ));
        assert_eq!(hash.parse(None), Err(OptionError::Missing));
        let ms = lookup("usemillisec").unwrap();
        assert_eq!(
            ms.parse(Some("False")),
            Ok(OptionChange::UseMillisec(false))
        );
        assert!(matches!(
            ms.parse(Some("maybe")),
            Err(OptionError::NotABool(_))
        ));
    }

    #[test]
    fn every_spelling_of_nothing_is_an_empty_string() {
        let book = lookup("BookFile").unwrap();
        for nothing in [None, Some(""), Some("<empty>"), Some("<EMPTY>"), Some(" ")] {
            assert_eq!(
                book.parse(nothing),
                Ok(OptionChange::BookFile(String::new())),
                "{nothing:?}"
            );
        }
        assert_eq!(
            book.parse(Some("books/main.txt")),
            Ok(OptionChange::BookFile("books/main.txt".into()))
        );
        let network = lookup("evalfile").unwrap();
        for nothing in [None, Some(""), Some("<empty>")] {
            assert_eq!(
                network.parse(nothing),
                Ok(OptionChange::EvalFile(String::new())),
                "{nothing:?}"
            );
        }
        assert_eq!(
            network.parse(Some("nets/a b.nnue")),
            Ok(OptionChange::EvalFile("nets/a b.nnue".into()))
        );
        assert_eq!(
            change("evalparams", Some("<empty>")),
            Ok(OptionChange::EvalParams(String::new()))
        );
        assert_eq!(
            change("EvalParams", Some("scripts/eval-params/handmade.txt")),
            Ok(OptionChange::EvalParams(
                "scripts/eval-params/handmade.txt".into()
            ))
        );
    }

    #[test]
    fn every_announced_name_resolves_to_its_row() {
        for spec in TABLE {
            for name in [spec.uci, spec.ucci].into_iter().flatten() {
                assert!(std::ptr::eq(lookup(name).unwrap(), spec), "{name}");
            }
            for alias in spec.aliases {
                assert!(std::ptr::eq(lookup(alias).unwrap(), spec), "{alias}");
            }
        }
    }

    #[test]
    fn combo_values_are_rule_sets_and_the_default_is_the_engines() {
        let Kind::Combo { default, vars, .. } = lookup("Repetition Rule").unwrap().kind else {
            panic!("Repetition Rule is a combo");
        };
        assert_eq!(
            change("Repetition Rule", Some(default)),
            Ok(OptionChange::Rules(EngineOptions::FOR_GUI.search.rules))
        );
        for v in vars {
            assert!(
                matches!(change("rule", Some(v)), Ok(OptionChange::Rules(_))),
                "{v}"
            );
        }
    }
}

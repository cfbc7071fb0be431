//! Text → [`Command`]: one parser for both dialects and the variants GUIs really send.
//!
//! Tolerance is the rule: command words are matched case-insensitively, `\r` and repeated
//! spaces are ignored (but an option's value is kept as written: a file path may hold two
//! spaces in a row), a position may come with or without the `position` keyword, `setoption`
//! may use the UCCI form (`setoption hashsize 64`) or the UCI form (`setoption name Hash value
//! 64`), and `go` takes the union of both dialects' words in any order. What cannot be
//! understood in a `go` is collected in [`GoParams::problems`] (the search still runs, since the
//! GUI waits for its `bestmove`); anything else that cannot be understood is a typed
//! [`CommandError`]. Moves, FENs and option values are checked later, against the position and
//! the option table: this layer only splits text.

use super::echo::echo;
use std::fmt;
use std::str::FromStr;

pub use crate::board::position_line::PositionSpec;
use crate::board::position_line::{opens_position, SpecError};

/// Everything a `go` may say, in both dialects. Clock fields keep the GUI's units: UCI
/// `wtime`/`btime`/`winc`/`binc`/`movetime` are milliseconds; UCCI `time`/`opptime`/
/// `increment`/`oppincrement` are milliseconds or seconds depending on `usemillisec`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime N` (ms).
    pub movetime: Option<u64>,
    /// `mate N` (moves).
    pub mate: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `draw`: the opponent offers a draw (UCCI).
    pub draw: bool,
    /// `perft N`: count moves instead of searching.
    pub perft: Option<u32>,
    /// `searchmoves m1 m2 …`.
    pub search_moves: Vec<String>,
    /// `wtime` (Red's clock, ms; negative values from lagging GUIs become 0).
    pub wtime: Option<u64>,
    /// `btime` (Black's clock, ms).
    pub btime: Option<u64>,
    /// `winc` (ms).
    pub winc: Option<u64>,
    /// `binc` (ms).
    pub binc: Option<u64>,
    /// `movestogo` (side to move).
    pub movestogo: Option<u32>,
    /// UCCI `time`: the side to move's clock.
    pub time: Option<f64>,
    /// UCCI `opptime`: the opponent's clock.
    pub opptime: Option<f64>,
    /// UCCI `increment`.
    pub increment: Option<f64>,
    /// UCCI `oppincrement`.
    pub oppincrement: Option<f64>,
    /// UCCI `oppmovestogo`.
    pub oppmovestogo: Option<u32>,
    /// Words that could not be understood, each described for an `info string`.
    pub problems: Vec<String>,
}

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: answer in UCI from now on.
    Uci,
    /// `ucci`: answer in UCCI from now on.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption`, either form. The name keeps the GUI's spelling (inner spaces single).
    SetOption {
        /// Option name.
        name: String,
        /// Value, if any (buttons have none): the line's text as written, inner spaces kept
        /// (a file path may hold two in a row), `\r` and the spaces around it dropped.
        value: Option<String>,
    },
    /// `position …`, or the same without the `position` keyword.
    Position(PositionSpec),
    /// `banmoves m1 m2 …`.
    BanMoves(Vec<String>),
    /// `ucinewgame`, `uccinewgame` or bare `newgame`.
    NewGame,
    /// `go …`.
    Go(Box<GoParams>),
    /// `stop`.
    Stop,
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent's move came with a draw offer.
        draw: bool,
    },
    /// `probe [position]` (UCCI): what the hash table knows; None = the current position.
    Probe(Option<PositionSpec>),
    /// `d`: show the board and the FEN.
    Display,
    /// `debug …`, `register …`: accepted and ignored.
    Ignored,
    /// `quit`.
    Quit,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Nothing but blanks (not worth reporting).
    Empty,
    /// The first word is no command we know.
    Unknown(String),
    /// A command lacks a required part.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A part of a command is not what it should be.
    Bad {
        /// The command.
        command: &'static str,
        /// The offending text.
        text: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty line"),
            CommandError::Unknown(w) => write!(f, "unknown command '{}'", echo(w)),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::Bad { command, text } => {
                write!(f, "{command}: cannot understand '{}'", echo(text))
            }
        }
    }
}

impl std::error::Error for CommandError {}

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Err(CommandError::Empty);
        };
        let cmd = first.to_ascii_lowercase();
        Ok(match cmd.as_str() {
            "uci" => Command::Uci,
            "ucci" => Command::Ucci,
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(line)?,
            "position" => Command::Position(parse_position("position", rest)?),
            // UCI-cyclone and some UCCI GUIs leave out the `position` keyword.
            "fen" | "startpos" => Command::Position(parse_position("position", &words)?),
            "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
            "ucinewgame" | "uccinewgame" | "newgame" => Command::NewGame,
            "go" => Command::Go(Box::new(parse_go(rest))),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit {
                draw: rest.iter().any(|w| w.eq_ignore_ascii_case("draw")),
            },
            "probe" => Command::Probe(if rest.is_empty() {
                None
            } else {
                Some(parse_position("probe", rest)?)
            }),
            "d" => Command::Display,
            "debug" | "register" => Command::Ignored,
            "quit" | "exit" => Command::Quit,
            _ => return Err(CommandError::Unknown(first.to_string())),
        })
    }
}

/// `setoption name <Name …> [value <v …>]` or `setoption <name> [<v …>]`, from the whole line
/// (its first word is `setoption`).
fn parse_setoption(line: &str) -> Result<Command, CommandError> {
    let missing = CommandError::Missing {
        command: "setoption",
        what: "an option name",
    };
    let spans = word_spans(line);
    let words: Vec<&str> = spans.iter().skip(1).map(|&(a, b)| &line[a..b]).collect();
    // The value is the text from its first word to the end of the line, as the GUI wrote it.
    let value_from = |i: usize| spans.get(i + 1).map(|&(a, _)| line[a..].trim().to_string());
    let (name, value) = if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("name"))
    {
        let rest = &words[1..];
        let split = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
        match split {
            Some(i) => (rest[..i].join(" "), value_from(i + 2)),
            None => (rest.join(" "), None),
        }
    } else {
        let Some(name) = words.first() else {
            return Err(missing);
        };
        // A few GUIs write `setoption hashsize value 64`.
        let first = match words.get(1) {
            Some(w) if w.eq_ignore_ascii_case("value") => 2,
            _ => 1,
        };
        (name.to_string(), value_from(first))
    };
    if name.is_empty() {
        return Err(missing);
    }
    Ok(Command::SetOption {
        name,
        value: value.filter(|v| !v.is_empty()),
    })
}

/// The byte ranges of `line`'s words (runs of non-whitespace), in order.
fn word_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(a)) => {
                spans.push((a, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(a) = start {
        spans.push((a, line.len()));
    }
    spans
}

/// `startpos [moves …]`, `fen <fields…> [moves …]`, or a bare FEN (a word with `/`), split by
/// the one position-line parser.
fn parse_position(command: &'static str, words: &[&str]) -> Result<PositionSpec, CommandError> {
    // Any other first word is no position at all, rather than a FEN to reject later.
    if let Some(first) = words.first() {
        if !opens_position(first) {
            return Err(CommandError::Bad {
                command,
                text: first.to_string(),
            });
        }
    }
    PositionSpec::from_words(words).map_err(|e| match e {
        SpecError::Empty => CommandError::Missing {
            command,
            what: "startpos or fen",
        },
        SpecError::MissingFen => CommandError::Missing {
            command,
            what: "the FEN",
        },
        SpecError::Unexpected(text) => CommandError::Bad { command, text },
    })
}

/// Every word `go` knows.
const GO_WORDS: [&str; 20] = [
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "draw",
    "perft",
    "searchmoves",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "time",
    "opptime",
    "increment",
    "oppincrement",
    "oppmovestogo",
    "byoyomi",
];

fn is_go_word(w: &str) -> bool {
    GO_WORDS.iter().any(|k| k.eq_ignore_ascii_case(w))
}

fn is_move_text(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && matches!(b[0], b'a'..=b'i')
        && b[1].is_ascii_digit()
        && matches!(b[2], b'a'..=b'i')
        && b[3].is_ascii_digit()
}

/// Parse the words after `go`. Never fails: what is not understood lands in `problems`.
pub fn parse_go(words: &[&str]) -> GoParams {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].to_ascii_lowercase();
        i += 1;
        // The value of a keyword: taken unless it is itself a keyword.
        let value = |i: &mut usize| -> Option<String> {
            let v = words.get(*i).filter(|w| !is_go_word(w))?;
            *i += 1;
            Some(v.to_string())
        };
        macro_rules! number {
            ($field:expr, $parse:expr) => {{
                match value(&mut i) {
                    None => g.problems.push(format!("go {word}: missing number")),
                    Some(v) => match $parse(v.as_str()) {
                        Some(n) => $field = Some(n),
                        None => g
                            .problems
                            .push(format!("go {word}: bad number '{}'", echo(&v))),
                    },
                }
            }};
        }
        match word.as_str() {
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "draw" => g.draw = true,
            "depth" => number!(g.depth, |v: &str| saturating::<u32>(v)),
            "nodes" => number!(g.nodes, |v: &str| saturating::<u64>(v)),
            "mate" => number!(g.mate, |v: &str| saturating::<u32>(v)),
            "perft" => number!(g.perft, |v: &str| v.parse::<u32>().ok()),
            "movestogo" => number!(g.movestogo, |v: &str| saturating::<u32>(v)),
            "oppmovestogo" => number!(g.oppmovestogo, |v: &str| saturating::<u32>(v)),
            "movetime" => number!(g.movetime, parse_ms),
            "wtime" => number!(g.wtime, parse_ms),
            "btime" => number!(g.btime, parse_ms),
            "winc" => number!(g.winc, parse_ms),
            "binc" => number!(g.binc, parse_ms),
            "time" => number!(g.time, parse_clock),
            "opptime" => number!(g.opptime, parse_clock),
            "increment" => number!(g.increment, parse_clock),
            "oppincrement" => number!(g.oppincrement, parse_clock),
            // Shogi-style byoyomi: accepted as an increment of the side to move.
            "byoyomi" => number!(g.increment, parse_clock),
            "searchmoves" => {
                while let Some(w) = words.get(i).filter(|w| is_move_text(w)) {
                    g.search_moves.push(w.to_string());
                    i += 1;
                }
            }
            _ => g
                .problems
                .push(format!("go: unknown word '{}'", echo(words[i - 1]))),
        }
    }
    g
}

/// A clock value in the GUI's unit; negative (lag) becomes 0.
fn parse_clock(v: &str) -> Option<f64> {
    let x: f64 = v.parse().ok()?;
    x.is_finite().then_some(x.max(0.0))
}

/// Milliseconds as an integer (a fraction or a negative value is tolerated).
fn parse_ms(v: &str) -> Option<u64> {
    parse_clock(v).map(|x| x as u64)
}

/// A whole-number limit, forgiving at the edges: a value below 1 counts as 1 and one too big
/// for the type as its maximum (a GUI's garbage must still end in a `bestmove`, never in an
/// endless search). Anything that is not a whole number is refused.
fn saturating<T: TryFrom<u128> + From<u8> + Bounded>(v: &str) -> Option<T> {
    let (negative, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(T::from(1));
    }
    let n: u128 = digits.parse().unwrap_or(u128::MAX);
    Some(T::try_from(n.max(1)).unwrap_or(T::MAX))
}

/// The largest value of a limit type.
trait Bounded {
    const MAX: Self;
}
impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}
impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Command {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn go(s: &str) -> GoParams {
        match parse(s) {
            Command::Go(g) => *g,
            c => panic!("{s}: {c:?}"),
        }
    }

    #[test]
    fn limits_saturate_instead_of_vanishing() {
        let g = go("go depth -5 nodes 99999999999999999999999 movestogo 0");
        assert_eq!(
            (g.depth, g.nodes, g.movestogo),
            (Some(1), Some(u64::MAX), Some(1))
        );
        assert!(g.problems.is_empty(), "{:?}", g.problems);
        let g = go("go depth ten mate 3.5");
        assert_eq!((g.depth, g.mate), (None, None));
        assert_eq!(g.problems.len(), 2);
    }

    #[test]
    fn simple_commands_and_case() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("UCCI\r"), Command::Ucci);
        assert_eq!(parse("  isready  "), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::NewGame);
        assert_eq!(parse("uccinewgame"), Command::NewGame);
        assert_eq!(parse("newgame"), Command::NewGame);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("d"), Command::Display);
        assert_eq!(parse("debug on"), Command::Ignored);
        assert_eq!(parse("ponderhit"), Command::PonderHit { draw: false });
        assert_eq!(parse("ponderhit draw"), Command::PonderHit { draw: true });
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!("".parse::<Command>(), Err(CommandError::Empty));
        assert_eq!(" \r\n".parse::<Command>(), Err(CommandError::Empty));
        assert_eq!(
            "xboard".parse::<Command>(),
            Err(CommandError::Unknown("xboard".into()))
        );
        assert!(matches!(
            "position".parse::<Command>(),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            "position fen".parse::<Command>(),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            "position startfen".parse::<Command>(),
            Err(CommandError::Bad { .. })
        ));
        assert!(matches!(
            "setoption".parse::<Command>(),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            "setoption name value 3".parse::<Command>(),
            Err(CommandError::Missing { .. })
        ));
    }

    #[test]
    fn setoption_both_forms() {
        let opt = |n: &str, v: Option<&str>| Command::SetOption {
            name: n.into(),
            value: v.map(String::from),
        };
        assert_eq!(parse("setoption hashsize 64"), opt("hashsize", Some("64")));
        assert_eq!(parse("setoption newgame"), opt("newgame", None));
        assert_eq!(
            parse("setoption name Hash value 128\r\n"),
            opt("Hash", Some("128"))
        );
        assert_eq!(parse("setoption name Clear Hash"), opt("Clear Hash", None));
        assert_eq!(
            parse("setoption  name  Move   Overhead  value 50"),
            opt("Move Overhead", Some("50"))
        );
        assert_eq!(
            parse("setoption bookfiles /books/a b.obk"),
            opt("bookfiles", Some("/books/a b.obk"))
        );
        assert_eq!(
            parse("setoption name usemillisec value true"),
            opt("usemillisec", Some("true"))
        );
        assert_eq!(
            parse("setoption hashsize value 16"),
            opt("hashsize", Some("16"))
        );
        assert_eq!(parse("setoption name Ponder value"), opt("Ponder", None));
    }

    #[test]
    fn setoption_values_keep_their_spacing() {
        let opt = |n: &str, v: &str| Command::SetOption {
            name: n.into(),
            value: Some(v.into()),
        };
        // A Windows GUI's file dialog: backslashes, two spaces in a row, CRLF.
        assert_eq!(
            parse("setoption name BookFile value C:\\My  Books\\a b.obk \r\n"),
            opt("BookFile", "C:\\My  Books\\a b.obk")
        );
        assert_eq!(
            parse("setoption  bookfiles\tvalue  D:\\x\ty .dat"),
            opt("bookfiles", "D:\\x\ty .dat")
        );
        assert_eq!(
            parse("setoption EvalFile /nets/中 国.nnue"),
            opt("EvalFile", "/nets/中 国.nnue")
        );
        assert_eq!(word_spans(" a\u{3000}bc  d\r\n"), [(1, 2), (5, 7), (9, 10)]);
    }

    #[test]
    fn positions_with_and_without_keyword() {
        let start = |moves: &[&str]| {
            Command::Position(PositionSpec {
                fen: None,
                moves: moves.iter().map(|s| s.to_string()).collect(),
            })
        };
        assert_eq!(parse("position startpos"), start(&[]));
        assert_eq!(parse("startpos moves h2e2 h9g7"), start(&["h2e2", "h9g7"]));
        assert_eq!(parse("position startpos moves"), start(&[]));
        let fen2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        let expected = Command::Position(PositionSpec {
            fen: Some(fen2.into()),
            moves: vec!["h2e2".into()],
        });
        assert_eq!(parse(&format!("position fen {fen2} moves h2e2")), expected);
        assert_eq!(parse(&format!("fen {fen2} moves h2e2")), expected);
        assert_eq!(parse(&format!("position {fen2} moves h2e2")), expected);
        assert_eq!(
            parse(&format!("position fen {fen2} - - 0 1")),
            Command::Position(PositionSpec {
                fen: Some(format!("{fen2} - - 0 1")),
                moves: vec![],
            })
        );
        assert_eq!(
            parse("banmoves h2e2 b2e2"),
            Command::BanMoves(vec!["h2e2".into(), "b2e2".into()])
        );
        assert_eq!(parse("probe"), Command::Probe(None));
        assert!(matches!(
            parse("probe startpos moves h2e2"),
            Command::Probe(Some(_))
        ));
    }

    #[test]
    fn go_takes_both_dialects_in_any_order() {
        assert_eq!(go("go"), GoParams::default());
        let g = go("go movetime 1000 depth 12");
        assert_eq!((g.movetime, g.depth), (Some(1000), Some(12)));
        let g = go("go draw time 60000 increment 2000 opptime 58000 oppincrement 2000");
        assert!(g.draw);
        assert_eq!(g.time, Some(60000.0));
        assert_eq!(g.increment, Some(2000.0));
        assert_eq!(g.opptime, Some(58000.0));
        assert_eq!(g.oppincrement, Some(2000.0));
        let g = go("go ponder wtime 300000 btime -20 winc 0 binc 0 movestogo 40");
        assert!(g.ponder);
        assert_eq!(
            (g.wtime, g.btime, g.movestogo),
            (Some(300000), Some(0), Some(40))
        );
        let g = go("go infinite searchmoves h2e2 b2e2 depth 3");
        assert!(g.infinite);
        assert_eq!(g.search_moves, vec!["h2e2", "b2e2"]);
        assert_eq!(g.depth, Some(3));
        let g = go("go time 60 movestogo 10 oppmovestogo 9 nodes 1000 mate 3");
        assert_eq!(g.time, Some(60.0));
        assert_eq!((g.movestogo, g.oppmovestogo), (Some(10), Some(9)));
        assert_eq!((g.nodes, g.mate), (Some(1000), Some(3)));
        assert_eq!(go("go perft 3").perft, Some(3));
        assert!(go("GO DEPTH 4 PONDER").ponder);
        assert!(go("go depth 2").problems.is_empty());
    }

    #[test]
    fn go_garbage_is_reported_not_fatal() {
        let g = go("go depth abc movetime 100");
        assert_eq!(g.depth, None);
        assert_eq!(g.movetime, Some(100));
        assert_eq!(g.problems.len(), 1);
        let g = go("go depth movetime 100");
        assert_eq!(g.movetime, Some(100));
        assert_eq!(g.problems.len(), 1);
        let g = go("go fast please depth 3");
        assert_eq!(g.depth, Some(3));
        assert_eq!(g.problems.len(), 2);
        // Out-of-range limits saturate rather than vanish (see `saturating`).
        let g = go("go nodes -5 depth 99999999999");
        assert_eq!((g.nodes, g.depth), (Some(1), Some(u32::MAX)));
        let g = go("go wtime");
        assert_eq!(g.problems.len(), 1);
    }
}

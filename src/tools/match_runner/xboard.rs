//! CECP (the XBoard/WinBoard protocol, `proto=xboard`) as a match client reads it: the
//! engine's `feature` lines and which of them we accept, and what each other line it prints
//! means (a move, a resignation, a result claim, thinking output, an error). Pure text in,
//! values out; `engine_process` does the talking.
//!
//! Moves need no translation: CECP's xiangqi board has files a..i and ranks 0..9 with Red at
//! rank 0, the protocol form Chuhan's moves print in (`h2e2`).

use super::clock::TimeControl;
use super::engine_process::Score;
use super::referee::GameResult;

/// What a CECP engine announced in its `feature` lines, with the protocol's defaults for the
/// ones it did not mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `myname="…"`: the engine's own name.
    pub myname: Option<String>,
    /// `ping=1`: it answers `ping N` with `pong N` (our ready check).
    pub ping: bool,
    /// `setboard=1`: it takes a position as `setboard FEN`.
    pub setboard: bool,
    /// `usermove=1`: moves are sent as `usermove MOVE`.
    pub usermove: bool,
    /// `time=0` turns off `time`/`otim` (default on).
    pub time: bool,
    /// `reuse=0`: it wants a fresh process for every game (default reuse).
    pub reuse: bool,
    /// `nps=1`: it takes `nps N` (node counts as time), our only way to a node limit.
    pub nps: bool,
    /// `variants="…"`, as announced (none: the engine did not say).
    pub variants: Option<String>,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            myname: None,
            ping: false,
            setboard: false,
            usermove: false,
            time: true,
            reuse: true,
            nps: false,
            variants: None,
        }
    }
}

/// Features of the protocol we know but have nothing to do for (we never send what they
/// enable, or they only describe the engine): accepted as they come.
const INERT_FEATURES: [&str; 17] = [
    "analyze",
    "colors",
    "debug",
    "draw",
    "egt",
    "exclude",
    "highlight",
    "ics",
    "memory",
    "name",
    "option",
    "pause",
    "playother",
    "setscore",
    "sigint",
    "sigterm",
    "smp",
];

impl Features {
    /// Take one `NAME=VALUE` pair; true when we accept it (`accepted NAME`), false for
    /// `rejected NAME`: a name we do not know, a flag that is not 0 or 1, or `san=1` (we send
    /// and read coordinate moves only; a rejected `san` makes the engine use them too).
    /// `done` is the caller's (it ends the handshake) and accepted here.
    pub fn apply(&mut self, name: &str, value: &str) -> bool {
        let flag = match value {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        let set = |field: &mut bool| flag.map(|f| *field = f).is_some();
        match name {
            "myname" => {
                self.myname = Some(value.to_string());
                true
            }
            "variants" => {
                self.variants = Some(value.to_string());
                true
            }
            "ping" => set(&mut self.ping),
            "setboard" => set(&mut self.setboard),
            "usermove" => set(&mut self.usermove),
            "time" => set(&mut self.time),
            "reuse" => set(&mut self.reuse),
            "nps" => set(&mut self.nps),
            "san" => flag == Some(false),
            "done" => flag.is_some(),
            _ => INERT_FEATURES.contains(&name),
        }
    }

    /// Whether the engine plays xiangqi: it says so in `variants`, or names no variants.
    pub fn plays_xiangqi(&self) -> bool {
        self.variants
            .as_deref()
            .is_none_or(|v| v.split(',').any(|v| v.trim() == "xiangqi"))
    }
}

/// The `NAME=VALUE` pairs of a `feature` line, in order; `None` for any other line. A value is
/// a bare word or a quoted string (which may hold spaces; an unclosed one runs to the end of
/// the line). A word without `=` is skipped.
pub fn parse_features(line: &str) -> Option<Vec<(String, String)>> {
    let rest = line.trim_start().strip_prefix("feature")?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let mut pairs = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        let name_end = s
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(s.len());
        let name = &s[..name_end];
        s = &s[name_end..];
        let Some(after_eq) = s.strip_prefix('=') else {
            s = s.trim_start();
            continue;
        };
        let (value, rest) = match after_eq.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            },
            None => {
                let end = after_eq.find(char::is_whitespace).unwrap_or(after_eq.len());
                (&after_eq[..end], &after_eq[end..])
            }
        };
        if !name.is_empty() {
            pairs.push((name.to_string(), value.to_string()));
        }
        s = rest.trim_start();
    }
    Some(pairs)
}

/// What one line from a CECP engine means to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<'a> {
    /// `move M`.
    Move(&'a str),
    /// `resign`.
    Resign,
    /// `1-0 {…}`, `0-1 {…}`, `1/2-1/2 {…}`: the engine says the game is over.
    Claim(GameResult),
    /// Thinking output `DEPTH SCORE TIME NODES PV…` (score in centipawns from the engine's
    /// side; mates as ±(100000 + N)).
    Thinking {
        /// Search depth (engines print 0 or less for internal checks).
        depth: i32,
        /// The score.
        score: Score,
    },
    /// `pong N`.
    Pong(&'a str),
    /// `Illegal move…`: the engine rejects a move we sent.
    IllegalMove,
    /// `Error …`: the engine cannot handle a command we sent.
    Error,
    /// Anything else: `#` comments, `tellics`/`telluser`…, `offer draw`, feature lines after
    /// the handshake, chatter. Ignored.
    Other,
}

/// Mate scores in thinking output are 100000 + N (mate in N) or -100000 - N.
const MATE_BASE: i64 = 100_000;

/// Classify one line.
pub fn classify(line: &str) -> Reply<'_> {
    let line = line.trim();
    if line.starts_with("Illegal move") {
        return Reply::IllegalMove;
    }
    if line.starts_with("Error") {
        return Reply::Error;
    }
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Reply::Other;
    };
    match first {
        "move" => return words.next().map_or(Reply::Other, Reply::Move),
        "resign" => return Reply::Resign,
        "pong" => return words.next().map_or(Reply::Other, Reply::Pong),
        _ => {}
    }
    if let Some(result) = GameResult::from_pgn(first) {
        return Reply::Claim(result);
    }
    thinking(line).unwrap_or(Reply::Other)
}

/// `DEPTH SCORE TIME NODES …`: four numbers (the depth may carry a trailing mark such as `.`
/// or `&`, as some engines print).
fn thinking(line: &str) -> Option<Reply<'_>> {
    let mut words = line.split_whitespace();
    let depth = words.next()?;
    let depth = depth
        .strip_suffix(|c: char| !c.is_ascii_digit())
        .unwrap_or(depth);
    let depth: i32 = depth.parse().ok()?;
    let score: i64 = words.next()?.parse().ok()?;
    let _time: i64 = words.next()?.parse().ok()?;
    let _nodes: i64 = words.next()?.parse().ok()?;
    let score = if score >= MATE_BASE {
        Score::Mate(i32::try_from(score - MATE_BASE).unwrap_or(i32::MAX))
    } else if score <= -MATE_BASE {
        Score::Mate(-i32::try_from(-MATE_BASE - score).unwrap_or(i32::MAX))
    } else {
        Score::Cp(score as i32) // |score| < 100000 fits
    };
    Some(Reply::Thinking { depth, score })
}

/// Seconds as CECP writes them in `level` and `st`: `2`, `0.02` (ms precision).
pub fn seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `level 0 M:SS INC` for a base time and increment (ms): all moves in the base, the base as
/// minutes and whole seconds (rounded; the engine's real clock comes with `time` before every
/// move), the increment in seconds.
pub fn level_command(base_ms: u64, inc_ms: u64) -> String {
    let secs = (base_ms + 500) / 1000;
    format!("level 0 {}:{:02} {}", secs / 60, secs % 60, seconds(inc_ms))
}

/// The longest a depth-limited move may think by the clock it is given (`st`, seconds): the
/// depth ends its search, the runner's `-timeout` our wait.
const DEPTH_ST_SECONDS: u64 = 3_600;

/// The commands that set a game's time control, sent after `new`: `level 0 M:SS INC` for a
/// base and increment, `st S` for a fixed time per move (whole seconds only: engines read it as
/// an integer), `sd D` for a depth, `nps N` with `st 1` for a node count (N nodes are then one
/// second; only for engines with `nps=1`). Err: why this engine cannot be held to `tc`.
pub fn time_control_commands(tc: TimeControl, features: &Features) -> Result<Vec<String>, String> {
    Ok(match tc {
        TimeControl::Increment { base_ms, inc_ms } => vec![level_command(base_ms, inc_ms)],
        TimeControl::MoveTime(ms) if ms >= 1000 && ms.is_multiple_of(1000) => {
            vec![format!("st {}", ms / 1000)]
        }
        TimeControl::MoveTime(ms) => {
            return Err(format!(
                "cannot think {} s a move: CECP's st takes whole seconds (use st=1, st=2, ... \
                 or base+increment)",
                seconds(ms)
            ))
        }
        TimeControl::Depth(d) => vec![format!("st {DEPTH_ST_SECONDS}"), format!("sd {d}")],
        TimeControl::Nodes(n) if features.nps => vec![format!("nps {n}"), "st 1".to_string()],
        TimeControl::Nodes(_) => {
            return Err(
                "cannot be held to a node count: it did not announce feature nps=1".to_string(),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(line: &str) -> Vec<(String, String)> {
        parse_features(line).unwrap()
    }

    fn owned(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn feature_lines_as_maxqi_sends_them() {
        assert_eq!(
            pairs("feature myname=\"MaxQi 4.8G\""),
            owned(&[("myname", "MaxQi 4.8G")])
        );
        assert_eq!(
            pairs("feature setboard=0 ping=1 done=0"),
            owned(&[("setboard", "0"), ("ping", "1"), ("done", "0")])
        );
        assert_eq!(
            pairs("feature variants=\"xiangqi\" done=1"),
            owned(&[("variants", "xiangqi"), ("done", "1")])
        );
    }

    #[test]
    fn feature_lines_odd_and_broken() {
        // Extra spaces, a word without '=', an empty value, an unclosed quote.
        assert_eq!(
            pairs("  feature   ping=1   junk  usermove=1 option=\"Hash -spin 64 1 1024\""),
            owned(&[
                ("ping", "1"),
                ("usermove", "1"),
                ("option", "Hash -spin 64 1 1024")
            ])
        );
        assert_eq!(
            pairs("feature san= myname=\"Half"),
            owned(&[("san", ""), ("myname", "Half")])
        );
        assert_eq!(pairs("feature"), owned(&[]));
        assert_eq!(pairs("feature =1 a=\"\""), owned(&[("a", "")]));
        // Not feature lines.
        assert_eq!(parse_features("features ping=1"), None);
        assert_eq!(parse_features("# feature ping=1"), None);
        assert_eq!(parse_features("tellics say feature"), None);
    }

    #[test]
    fn features_accepted_and_rejected() {
        let mut f = Features::default();
        assert!(!f.ping && !f.setboard && !f.usermove && f.time && f.reuse && !f.nps);
        assert!(f.plays_xiangqi());
        for (name, value) in [
            ("myname", "MaxQi 4.8G"),
            ("ping", "1"),
            ("setboard", "0"),
            ("usermove", "1"),
            ("reuse", "0"),
            ("nps", "1"),
            ("san", "0"),
            ("memory", "1"),
            ("done", "1"),
            ("variants", "normal,xiangqi,shatranj"),
        ] {
            assert!(f.apply(name, value), "{name}={value}");
        }
        assert_eq!(f.myname.as_deref(), Some("MaxQi 4.8G"));
        assert!(f.ping && !f.setboard && f.usermove && !f.reuse && f.nps);
        assert!(f.plays_xiangqi());
        // SAN moves, unknown names and flags that are not 0/1 are rejected and change nothing.
        assert!(!f.apply("san", "1"));
        assert!(!f.apply("frobnicate", "1"));
        assert!(!f.apply("ping", "yes"));
        assert!(f.ping);
        assert!(f.apply("variants", "normal,shogi"));
        assert!(!f.plays_xiangqi());
    }

    #[test]
    fn engine_lines() {
        assert_eq!(classify("move b2c2"), Reply::Move("b2c2"));
        assert_eq!(classify("move"), Reply::Other);
        assert_eq!(classify("resign"), Reply::Resign);
        assert_eq!(classify("pong 7"), Reply::Pong("7"));
        assert_eq!(
            classify("0-1 {Red resigns}"),
            Reply::Claim(GameResult::BlackWins)
        );
        assert_eq!(classify("1/2-1/2 {Draw}"), Reply::Claim(GameResult::Draw));
        assert_eq!(classify("1-0"), Reply::Claim(GameResult::RedWins));
        assert_eq!(classify("Illegal move:h0h9"), Reply::IllegalMove);
        assert_eq!(
            classify("Illegal move (no piece): h0h9"),
            Reply::IllegalMove
        );
        assert_eq!(classify("Error (unknown command): zzzz"), Reply::Error);
        for other in [
            "# root hit 0 0 0",
            "tellics say     by H.G. Muller",
            "telluser hello",
            "offer draw",
            "feature done=1",
            "",
            "1 2 3",
            "x 2 3 4",
        ] {
            assert_eq!(classify(other), Reply::Other, "{other}");
        }
    }

    #[test]
    fn thinking_output() {
        // MaxQi's lines: depth, score, time (cs), nodes, pv.
        assert_eq!(
            classify(" 5     14        2      41051 b7c7"),
            Reply::Thinking {
                depth: 5,
                score: Score::Cp(14)
            }
        );
        assert_eq!(
            classify("-1    440 125225276        256 h2h9"),
            Reply::Thinking {
                depth: -1,
                score: Score::Cp(440)
            }
        );
        assert_eq!(
            classify("12& -35 120 99999 h2e2 h9g7"),
            Reply::Thinking {
                depth: 12,
                score: Score::Cp(-35)
            }
        );
        assert_eq!(
            classify("9 100003 10 100"),
            Reply::Thinking {
                depth: 9,
                score: Score::Mate(3)
            }
        );
        assert_eq!(
            classify("9 -100002 10 100"),
            Reply::Thinking {
                depth: 9,
                score: Score::Mate(-2)
            }
        );
        // Absurd numbers stay harmless.
        assert!(matches!(
            classify("1 -9223372036854775808 0 0"),
            Reply::Thinking { .. }
        ));
        assert_eq!(classify("1 99999999999999999999 0 0"), Reply::Other);
    }

    #[test]
    fn time_controls_as_commands() {
        let plain = Features::default();
        let nps = Features {
            nps: true,
            ..Features::default()
        };
        let tc = |t: &str| TimeControl::parse(t).unwrap();
        assert_eq!(
            time_control_commands(tc("2+0.02"), &plain),
            Ok(vec!["level 0 0:02 0.02".to_string()])
        );
        assert_eq!(
            time_control_commands(tc("st=3"), &plain),
            Ok(vec!["st 3".to_string()])
        );
        assert_eq!(
            time_control_commands(tc("depth=7"), &plain),
            Ok(vec!["st 3600".to_string(), "sd 7".to_string()])
        );
        assert_eq!(
            time_control_commands(tc("nodes=5000"), &nps),
            Ok(vec!["nps 5000".to_string(), "st 1".to_string()])
        );
        for (bad, why) in [
            ("nodes=5000", "nps=1"),
            ("st=0.5", "whole seconds"),
            ("st=1.5", "whole seconds"),
            ("st=0", "whole seconds"),
        ] {
            let err = time_control_commands(tc(bad), &plain).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn level_and_seconds() {
        assert_eq!(level_command(2_000, 20), "level 0 0:02 0.02");
        assert_eq!(level_command(600_000, 5_000), "level 0 10:00 5");
        assert_eq!(level_command(90_400, 0), "level 0 1:30 0");
        assert_eq!(level_command(1, 100), "level 0 0:00 0.1");
        assert_eq!(seconds(1_500), "1.5");
        assert_eq!(seconds(3_000), "3");
    }
}

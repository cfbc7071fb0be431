//! Time controls and the runner's clocks. The runner keeps the time itself (the engine's own
//! report does not count): each move's time is measured from writing `go` to reading
//! `bestmove`. A move is forfeit when it takes longer than the time left plus the margin.
//! What a move may use is told as `MoveLimits`; `engine_process` writes it in each dialect.

use crate::board::types::Color;
use crate::tools::args::number_in;
use anyhow::{bail, Result};
use std::time::Duration;

/// How long engines think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Base time for the game plus an increment per move (`10+0.1`: 10 s, 0.1 s).
    Increment {
        /// Base, ms.
        base_ms: u64,
        /// Increment, ms.
        inc_ms: u64,
    },
    /// A fixed time per move, ms (`st=1`).
    MoveTime(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

/// The longest time any setting may give, seconds (about 11.6 days): far beyond any real
/// game, and small enough that sums of times in ms never overflow.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// Seconds (`0.5`, `10`) → ms, from 0 to `MAX_SECONDS`.
pub fn seconds_to_ms(text: &str) -> Result<u64> {
    let seconds: f64 = number_in("number of seconds", text, 0.0..=MAX_SECONDS)?;
    Ok((seconds * 1000.0).round() as u64)
}

impl TimeControl {
    /// Parse `base+inc` in seconds (`10+0.1`, `60`), or `movetime=S`/`st=S`, `depth=N`,
    /// `nodes=N`.
    pub fn parse(text: &str) -> Result<TimeControl> {
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "st" | "movetime" => Ok(TimeControl::MoveTime(seconds_to_ms(value)?)),
                "depth" => Ok(TimeControl::Depth(number_in("depth", value, 1..)?)),
                "nodes" => Ok(TimeControl::Nodes(number_in("node count", value, 1..)?)),
                _ => bail!("unknown time control '{text}'"),
            };
        }
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base_ms = seconds_to_ms(base)?;
        if base_ms == 0 {
            bail!("time control '{text}' has no base time");
        }
        Ok(TimeControl::Increment {
            base_ms,
            inc_ms: seconds_to_ms(inc)?,
        })
    }

    /// The PGN `TimeControl` tag: `10+0.1`, `1/move` (fixed time), `-` (depth, nodes).
    pub fn pgn_tag(&self) -> String {
        fn secs(ms: u64) -> String {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        match *self {
            TimeControl::Increment { base_ms, inc_ms } => {
                if inc_ms == 0 {
                    secs(base_ms)
                } else {
                    format!("{}+{}", secs(base_ms), secs(inc_ms))
                }
            }
            TimeControl::MoveTime(ms) => format!("{}/move", secs(ms)),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => "-".to_string(),
        }
    }

    /// A description for the console.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("{n} nodes"),
            _ => self.pgn_tag(),
        }
    }
}

/// What one move may use, as a `go` command tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimits {
    /// Search to this depth.
    Depth(u32),
    /// Search this many nodes.
    Nodes(u64),
    /// Think this long, ms.
    MoveTime(u64),
    /// Both clocks: time left and increment per side (indexed by colour), ms.
    Clocks {
        /// The side to move.
        side: Color,
        /// Time left.
        time_ms: [u64; 2],
        /// Increment per move.
        inc_ms: [u64; 2],
    },
}

/// A move overran its allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeForfeit;

/// The clocks of one game (each side may have its own time control).
#[derive(Clone, Debug)]
pub struct Clock {
    tc: [TimeControl; 2],
    remaining: [u64; 2],
    margin_ms: u64,
    untimed_timeout_ms: u64,
}

impl Clock {
    /// Fresh clocks. `margin_ms` is the grace a move may overrun; `untimed_timeout_ms` bounds a
    /// fixed-depth or fixed-nodes move (past it the engine has not answered).
    pub fn new(tc: TimeControl, margin_ms: u64, untimed_timeout_ms: u64) -> Clock {
        Clock::with_controls([tc, tc], margin_ms, untimed_timeout_ms)
    }

    /// Fresh clocks with a time control per side (indexed by colour).
    pub fn with_controls(tc: [TimeControl; 2], margin_ms: u64, untimed_timeout_ms: u64) -> Clock {
        let base = |t: TimeControl| match t {
            TimeControl::Increment { base_ms, .. } => base_ms,
            _ => 0,
        };
        Clock {
            tc,
            remaining: [base(tc[0]), base(tc[1])],
            margin_ms,
            untimed_timeout_ms,
        }
    }

    fn increment(&self, side: Color) -> u64 {
        match self.tc[side.index()] {
            TimeControl::Increment { inc_ms, .. } => inc_ms,
            _ => 0,
        }
    }

    /// Time left for `side`, ms (base-increment only; 0 otherwise).
    pub fn remaining(&self, side: Color) -> u64 {
        self.remaining[side.index()]
    }

    /// What `side` may use on this move.
    pub fn limits(&self, side: Color) -> MoveLimits {
        match self.tc[side.index()] {
            TimeControl::Depth(d) => MoveLimits::Depth(d),
            TimeControl::Nodes(n) => MoveLimits::Nodes(n),
            TimeControl::MoveTime(ms) => MoveLimits::MoveTime(ms),
            TimeControl::Increment { .. } => MoveLimits::Clocks {
                side,
                time_ms: self.remaining,
                inc_ms: [self.increment(Color::Red), self.increment(Color::Black)],
            },
        }
    }

    /// How long `side` may take on this move before it forfeits.
    pub fn allowance(&self, side: Color) -> Duration {
        let ms = match self.tc[side.index()] {
            TimeControl::Increment { .. } => self.remaining[side.index()] + self.margin_ms,
            TimeControl::MoveTime(ms) => ms + self.margin_ms,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => self.untimed_timeout_ms,
        };
        Duration::from_millis(ms)
    }

    /// Whether `side`'s time control is timed (a late move is a time forfeit rather than "no
    /// answer").
    pub fn is_timed(&self, side: Color) -> bool {
        matches!(
            self.tc[side.index()],
            TimeControl::Increment { .. } | TimeControl::MoveTime(_)
        )
    }

    /// Charge `side` for a move that took `elapsed`. Err when the move overran the allowance.
    pub fn charge(&mut self, side: Color, elapsed: Duration) -> Result<(), TimeForfeit> {
        if elapsed > self.allowance(side) {
            return Err(TimeForfeit);
        }
        if let TimeControl::Increment { inc_ms, .. } = self.tc[side.index()] {
            let left = &mut self.remaining[side.index()];
            // Within the margin the clock stops at 1 ms rather than going negative.
            *left = left.saturating_sub(elapsed.as_millis() as u64).max(1) + inc_ms;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Increment {
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(
            TimeControl::parse("60").unwrap(),
            TimeControl::Increment {
                base_ms: 60_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            TimeControl::parse("st=0.5").unwrap(),
            TimeControl::MoveTime(500)
        );
        assert_eq!(
            TimeControl::parse("depth=7").unwrap(),
            TimeControl::Depth(7)
        );
        assert_eq!(
            TimeControl::parse("nodes=20000").unwrap(),
            TimeControl::Nodes(20_000)
        );
        assert!(TimeControl::parse("0+1").is_err());
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("depth=0").is_err());
        for huge in [
            "st=1e300",
            "1e300+0",
            "1+1e300",
            "1000000.1",
            "st=inf",
            "st=nan",
        ] {
            assert!(TimeControl::parse(huge).is_err(), "{huge}");
        }
        assert!(TimeControl::parse("1000000+1000000").is_ok());
        assert_eq!(TimeControl::parse("10+0.1").unwrap().pgn_tag(), "10+0.1");
        assert_eq!(TimeControl::parse("40").unwrap().pgn_tag(), "40");
        assert_eq!(TimeControl::parse("st=1").unwrap().pgn_tag(), "1/move");
    }

    #[test]
    fn limits_follow_the_clocks() {
        let mut c = Clock::new(TimeControl::parse("10+0.1").unwrap(), 50, 60_000);
        c.charge(Color::Red, Duration::from_millis(1000)).unwrap();
        assert_eq!(c.remaining(Color::Red), 9_100);
        assert_eq!(
            c.limits(Color::Black),
            MoveLimits::Clocks {
                side: Color::Black,
                time_ms: [9_100, 10_000],
                inc_ms: [100, 100]
            }
        );
        let m = Clock::new(TimeControl::MoveTime(300), 50, 60_000);
        assert_eq!(m.limits(Color::Red), MoveLimits::MoveTime(300));
    }

    #[test]
    fn each_side_may_have_its_own_control() {
        let mut c = Clock::with_controls(
            [TimeControl::Depth(4), TimeControl::parse("5+0.05").unwrap()],
            50,
            60_000,
        );
        assert_eq!(c.limits(Color::Red), MoveLimits::Depth(4));
        assert!(!c.is_timed(Color::Red) && c.is_timed(Color::Black));
        c.charge(Color::Black, Duration::from_millis(1000)).unwrap();
        assert_eq!(c.remaining(Color::Black), 4_050);
        assert_eq!(
            c.limits(Color::Black),
            MoveLimits::Clocks {
                side: Color::Black,
                time_ms: [0, 4_050],
                inc_ms: [0, 50]
            }
        );
        assert_eq!(c.allowance(Color::Red), Duration::from_millis(60_000));
    }

    #[test]
    fn forfeits_past_the_margin() {
        let mut c = Clock::new(TimeControl::parse("1+0").unwrap(), 100, 60_000);
        assert_eq!(c.allowance(Color::Red), Duration::from_millis(1100));
        // 1.05 s is within the margin: the clock stops at 1 ms.
        c.charge(Color::Red, Duration::from_millis(1050)).unwrap();
        assert_eq!(c.remaining(Color::Red), 1);
        assert!(c.charge(Color::Red, Duration::from_millis(200)).is_err());
        let mut m = Clock::new(TimeControl::MoveTime(100), 50, 60_000);
        assert!(m.charge(Color::Black, Duration::from_millis(140)).is_ok());
        assert!(m.charge(Color::Black, Duration::from_millis(160)).is_err());
        let d = Clock::new(TimeControl::Depth(5), 50, 2_000);
        assert!(!d.is_timed(Color::Red));
        assert_eq!(d.allowance(Color::Red), Duration::from_millis(2_000));
    }
}

//! Search limits as the protocols give them, and the time manager that turns a clock into a
//! soft deadline (do not start another iteration) and a hard one (abort the search).

use crate::board::types::Move;
use std::time::{Duration, Instant};

/// What a `go` asks for. Times are for the side to move.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Time left on our clock.
    pub time: Option<Duration>,
    /// Our increment per move.
    pub increment: Duration,
    /// Moves until the next time control (None = sudden death or increment).
    pub moves_to_go: Option<u32>,
    /// Exactly this much time for the move.
    pub movetime: Option<Duration>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes (all threads).
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty = all legal moves).
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// Whether nothing but `stop` ends the search.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.time.is_none()
                && self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none()
                && self.mate.is_none())
    }
}

/// Deadlines for one search, measured from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Don't start a new iteration after this (scaled by best-move stability).
    soft: Option<Duration>,
    /// Abort the search at this point.
    hard: Option<Duration>,
}

impl TimeManager {
    /// Plan the search. `overhead` is subtracted for communication delays; `ply` is the game
    /// ply (unused now, kept for move-number-dependent allocation).
    pub fn new(limits: &Limits, overhead: Duration, start: Instant) -> TimeManager {
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(time) = limits.time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        // Keep a reserve so we never flag: at least the overhead per remaining move.
        let mtg = limits.moves_to_go.unwrap_or(30).clamp(1, 50) as u64;
        let time_ms = time.as_millis() as u64;
        let inc_ms = limits.increment.as_millis() as u64;
        let overhead_ms = overhead.as_millis() as u64;
        // Saturating: a GUI may send any number (`winc 99999999999999999999`).
        let usable = time_ms.saturating_sub(overhead_ms.saturating_mul(mtg.min(10)));
        let base = (usable / mtg).saturating_add(inc_ms.saturating_mul(3) / 4);
        // Never plan past what is on the clock (minus the overhead), however big the increment.
        let cap = time_ms.saturating_sub(overhead_ms).saturating_mul(8) / 10;
        let soft = base.min(cap / 3).max(1);
        let hard = base.saturating_mul(4).min(cap).max(soft).max(1);
        let soft = if mtg == 1 { hard } else { soft };
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// No deadlines (infinite, depth or nodes only).
    pub fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            soft: None,
            hard: None,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard deadline has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop iterating; `scale` > 1 extends the soft limit (unstable best move).
    pub fn soft_expired(&self, scale: f64) -> bool {
        match (self.soft, self.hard) {
            (Some(s), Some(h)) => self.elapsed() >= s.mul_f64(scale).min(h),
            (Some(s), None) => self.elapsed() >= s.mul_f64(scale),
            _ => false,
        }
    }

    /// Whether there is any deadline at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(time_ms: u64, inc_ms: u64, mtg: Option<u32>) -> (u128, u128) {
        let limits = Limits {
            time: Some(Duration::from_millis(time_ms)),
            increment: Duration::from_millis(inc_ms),
            moves_to_go: mtg,
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Duration::from_millis(30), Instant::now());
        (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for &(t, inc, mtg) in &[
            (1000, 10, None),
            (50, 10, None),
            (10, 0, None),
            (60_000, 0, Some(1)),
            (100, 5_000, None),
            (3_600_000, 0, None),
            (1000, u64::MAX, None),
            (u64::MAX, u64::MAX, Some(1)),
            (u64::MAX, 0, None),
        ] {
            let (soft, hard) = plan(t, inc, mtg);
            assert!(soft <= hard, "{t} {inc}");
            assert!(
                hard <= (t.saturating_sub(30) as u128).max(1),
                "{t}+{inc}: hard {hard}"
            );
        }
    }

    #[test]
    fn movetime_is_fixed() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Duration::from_millis(10), Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_millis(990)));
    }
}

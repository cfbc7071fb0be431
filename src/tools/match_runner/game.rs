//! One game between two running engines: send the position and `go`, check the answer, charge
//! the clock, play the move, ask the referee; until the rules, a fault, a resignation or the
//! score adjudication ends it.

use super::clock::{Clock, TimeControl};
use super::engine_process::{EngineFault, EngineProcess, GameLine, Score};
use super::referee::{self, GameResult, RuleChoice, Termination, Verdict};
use crate::board::position::{Position, START_FEN};
use crate::board::types::{Color, Move};
use crate::engine::openings::Opening;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Ending games early by agreed engine scores (off unless set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: (move count, centipawns). When for `count` consecutive moves of each side both
    /// engines agree that one side is ahead by at least `cp`, that side wins.
    pub resign: Option<(u32, i32)>,
    /// Draw: (from move number, move count, centipawns). From that full move on, when for
    /// `count` consecutive moves of each side both engines' scores are within ±`cp`, draw.
    pub draw: Option<(u32, u32, i32)>,
}

/// Everything a game needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Time control.
    pub tc: TimeControl,
    /// Overrun allowed on a timed move, ms.
    pub margin_ms: u64,
    /// Longest wait for a fixed-depth/nodes move, ms.
    pub untimed_timeout_ms: u64,
    /// Repetition rules.
    pub rules: RuleChoice,
    /// Score adjudication.
    pub adjudication: Adjudication,
}

/// One move as played, with what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Score from the mover's view, if reported.
    pub score: Option<Score>,
    /// Depth, if reported.
    pub depth: Option<u32>,
    /// Time used, ms.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// FEN of the root (before the opening moves).
    pub root_fen: String,
    /// The opening moves (from the book).
    pub book: Vec<Move>,
    /// The moves the engines played after the book.
    pub moves: Vec<PlayedMove>,
    /// The verdict.
    pub verdict: Verdict,
    /// Red's and Black's time controls (for the PGN tags; they differ at time odds).
    pub tc: [TimeControl; 2],
}

impl GameRecord {
    /// Whether the root is the standard start position.
    pub fn from_start(&self) -> bool {
        self.root_fen == START_FEN
    }

    /// Every move from the root: book then played.
    pub fn all_moves(&self) -> Vec<Move> {
        self.book
            .iter()
            .copied()
            .chain(self.moves.iter().map(|p| p.mv))
            .collect()
    }
}

/// Play one game. `stop` aborts between moves (returns `None`).
pub fn play_game(
    red: &mut EngineProcess,
    black: &mut EngineProcess,
    red_name: &str,
    black_name: &str,
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut record = GameRecord {
        red: red_name.to_string(),
        black: black_name.to_string(),
        root_fen: opening.fen.clone(),
        book: opening.moves.clone(),
        moves: Vec::new(),
        verdict: Verdict {
            result: GameResult::Draw,
            termination: Termination::Rules,
            reason: String::new(),
        },
        tc: [
            red.spec().tc.unwrap_or(settings.tc),
            black.spec().tc.unwrap_or(settings.tc),
        ],
    };
    let controls = record.tc;
    // A failed new-game handshake is that engine's fault.
    for (engine, color) in [(&mut *red, Color::Red), (&mut *black, Color::Black)] {
        if let Err(e) = engine.new_game(controls[color.index()]) {
            record.verdict = fault_verdict(color, &e, false);
            return Some(record);
        }
    }
    let mut pos = Position::from_fen(&opening.fen).expect("opening FEN was checked on load");
    let mut line = GameLine::new(&pos);
    for &m in &opening.moves {
        line.play(&mut pos, m);
    }
    let mut clock = Clock::with_controls(controls, settings.margin_ms, settings.untimed_timeout_ms);
    // Scores from Red's view, per ply played by engines.
    let mut red_view: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some(v) = referee::game_over(&pos, settings.rules) {
            record.verdict = v;
            return Some(record);
        }
        if let Some(v) = adjudicate_scores(&red_view, &pos, &settings.adjudication) {
            record.verdict = v;
            return Some(record);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = pos.side_to_move();
        let engine = if side == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let reply = match engine.go(&line, clock.limits(side), clock.allowance(side)) {
            Ok(r) => r,
            Err(e) => {
                record.verdict = fault_verdict(side, &e, clock.is_timed(side));
                if let Some(claim) = engine.take_claim() {
                    // Why a CECP engine did not move, as it said it (our referee disagreed).
                    record.verdict.reason += &format!(" (it claimed '{claim}')");
                }
                return Some(record);
            }
        };
        if clock.charge(side, reply.elapsed).is_err() {
            record.verdict = referee::fault(
                side,
                Termination::TimeForfeit,
                &format!("loses on time ({} ms)", reply.elapsed.as_millis()),
            );
            return Some(record);
        }
        if reply.resign {
            record.verdict = referee::fault(side, Termination::Resignation, "resigns");
            return Some(record);
        }
        let Some(text) = reply.mv else {
            // The rules said there are legal moves, so "no move" is the engine's fault.
            record.verdict = referee::fault(
                side,
                Termination::IllegalMove,
                "returns no move although legal moves exist",
            );
            return Some(record);
        };
        let mv = match referee::check_move(&pos, &text, side) {
            Ok(m) => m,
            Err(v) => {
                record.verdict = v;
                return Some(record);
            }
        };
        line.play(&mut pos, mv);
        red_view.push(reply.score.map(|s| {
            let cp = s.as_cp();
            if side == Color::Red {
                cp
            } else {
                -cp
            }
        }));
        record.moves.push(PlayedMove {
            mv,
            score: reply.score,
            depth: reply.depth,
            time_ms: reply.elapsed.as_millis() as u64,
        });
    }
}

fn fault_verdict(side: Color, e: &EngineFault, timed: bool) -> Verdict {
    match e {
        EngineFault::Timeout if timed => {
            referee::fault(side, Termination::TimeForfeit, "loses on time (no move)")
        }
        EngineFault::Timeout => referee::fault(side, Termination::NoAnswer, "does not answer"),
        EngineFault::Crashed(why) => {
            referee::fault(side, Termination::Crash, &format!("engine crashed: {why}"))
        }
        EngineFault::Protocol(why) => referee::fault(
            side,
            Termination::ProtocolError,
            &format!("engine breaks the protocol: {why}"),
        ),
    }
}

/// Score adjudication over the engines' last moves (scores from Red's view, one per ply).
fn adjudicate_scores(
    red_view: &[Option<i32>],
    pos: &Position,
    adj: &Adjudication,
) -> Option<Verdict> {
    let last = |n: usize| -> Option<Vec<i32>> {
        if red_view.len() < n {
            return None;
        }
        red_view[red_view.len() - n..].iter().copied().collect()
    };
    if let Some((count, cp)) = adj.resign {
        if let Some(scores) = last(2 * count as usize) {
            for (winner, sign) in [(Color::Red, 1), (Color::Black, -1)] {
                if scores.iter().all(|&s| s * sign >= cp) {
                    return Some(Verdict {
                        result: GameResult::loss_for(winner.flip()),
                        termination: Termination::Adjudication,
                        reason: format!(
                            "adjudicated: both engines score {} at least {cp} cp for {count} moves",
                            referee::color_name(winner)
                        ),
                    });
                }
            }
        }
    }
    if let Some((from_move, count, cp)) = adj.draw {
        if pos.fullmove() >= from_move {
            if let Some(scores) = last(2 * count as usize) {
                if scores.iter().all(|&s| s.abs() <= cp) {
                    return Some(Verdict {
                        result: GameResult::Draw,
                        termination: Termination::Adjudication,
                        reason: format!(
                            "adjudicated draw: both engines within {cp} cp for {count} moves"
                        ),
                    });
                }
            }
        }
    }
    None
}

/// How long to wait at most for an answer when the time control has no clock (default).
pub const DEFAULT_UNTIMED_TIMEOUT: Duration = Duration::from_secs(60);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_adjudication() {
        let pos = Position::startpos();
        let adj = Adjudication {
            resign: Some((2, 500)),
            draw: None,
        };
        // Red ahead by ≥ 500 in the last 4 plies by both engines' account.
        let v = adjudicate_scores(
            &[Some(0), Some(600), Some(520), Some(900), Some(501)],
            &pos,
            &adj,
        )
        .unwrap();
        assert_eq!(v.result, GameResult::RedWins);
        assert_eq!(v.termination, Termination::Adjudication);
        assert!(
            adjudicate_scores(&[Some(600), Some(520), Some(400), Some(900)], &pos, &adj).is_none()
        );
        assert!(adjudicate_scores(&[Some(600), None, Some(600), Some(900)], &pos, &adj).is_none());
        let v = adjudicate_scores(&[Some(-700); 4], &pos, &adj).unwrap();
        assert_eq!(v.result, GameResult::BlackWins);
        let draw = Adjudication {
            resign: None,
            draw: Some((1, 2, 10)),
        };
        let v = adjudicate_scores(&[Some(5), Some(-3), Some(0), Some(10)], &pos, &draw).unwrap();
        assert_eq!(v.result, GameResult::Draw);
        let late = Adjudication {
            resign: None,
            draw: Some((30, 2, 10)),
        };
        assert!(adjudicate_scores(&[Some(0); 4], &pos, &late).is_none());
    }
}

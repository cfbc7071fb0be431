//! One self-play game at a fixed node count: the loop `chuhan tune gen`, `chuhan datagen` and
//! `examples/selfplay.rs` share. One engine plays both sides ([`play_out`]), or two engines one
//! side each ([`play_between`]), from a start (an opening line, random plies included), their
//! hash tables and ordering statistics cleared first, so that a game depends on its start and
//! settings alone (never on the games a thread played before it). Game ends are those of
//! the match runner's referee: `rules::adjudicate` under the Chinese rules (mate, 困毙, the 棋例
//! for repetitions, the 60-move limit, bare material); besides, a game still going at
//! `max_plies` is drawn, and, when asked, one whose searches agree for `plies` plies in a row
//! that the same side is at least `score` ahead is won by that side.

use crate::board::position::Position;
use crate::board::types::{Color, Value};
use crate::engine::openings::Opening;
use crate::engine::Engine;
use crate::rules::{adjudicate, Outcome, RuleSet};
use crate::search::time::Limits;
use crate::search::SearchResult;
use anyhow::{Context, Result};

/// A win called early: the searches of `plies` plies in a row (both sides' own) scored the same
/// side at least `score` ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinAdjudication {
    /// Centipawns.
    pub score: Value,
    /// Consecutive plies.
    pub plies: usize,
}

/// How a self-play game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Nodes searched per move.
    pub nodes: u64,
    /// A game reaching this many plies from its root (opening moves included) is drawn.
    pub max_plies: usize,
    /// Calling a lost game early, if wanted.
    pub win: Option<WinAdjudication>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Who won.
    pub outcome: Outcome,
    /// Why, in words (the rules' reason, `ply limit` or `adjudicated`).
    pub reason: String,
}

/// Play the game from `start` to its end, `engine` for both sides. `on_search` sees each
/// position searched (with its history) and the search's result, before the move is played.
pub fn play_out(
    engine: &mut Engine,
    start: &Opening,
    cfg: &Playout,
    on_search: &mut dyn FnMut(&Position, &SearchResult),
) -> Result<Ending> {
    play(&mut [engine], start, cfg, on_search)
}

/// Play the game from `start` to its end, `red` against `black` (see [`play_out`]).
pub fn play_between(
    red: &mut Engine,
    black: &mut Engine,
    start: &Opening,
    cfg: &Playout,
    on_search: &mut dyn FnMut(&Position, &SearchResult),
) -> Result<Ending> {
    play(&mut [red, black], start, cfg, on_search)
}

/// The game loop: `engines[0]` plays Red, the last one Black.
fn play(
    engines: &mut [&mut Engine],
    start: &Opening,
    cfg: &Playout,
    on_search: &mut dyn FnMut(&Position, &SearchResult),
) -> Result<Ending> {
    for engine in engines.iter_mut() {
        engine.clear_hash();
    }
    let mut pos = start.position();
    let mut moves: Vec<String> = start.moves.iter().map(|m| m.to_string()).collect();
    // Scores from Red's view, one per searched ply.
    let mut red_scores: Vec<Value> = Vec::new();
    loop {
        if let Some(r) = adjudicate(&pos, RuleSet::Chinese) {
            return Ok(Ending {
                outcome: r.outcome,
                reason: r.reason,
            });
        }
        if pos.game_ply() >= cfg.max_plies {
            return Ok(Ending {
                outcome: Outcome::Draw,
                reason: "ply limit".to_string(),
            });
        }
        let engine = match pos.side_to_move() {
            Color::Red => &mut *engines[0],
            Color::Black => &mut *engines[engines.len() - 1],
        };
        engine
            .set_position(Some(&start.fen), &moves)
            .map_err(anyhow::Error::msg)?;
        let result = engine.search_sync(Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        });
        let mv = result
            .best
            .context("the search found no move where the referee saw one")?;
        on_search(&pos, &result);
        if let (Some(win), Some(score)) = (cfg.win, result.score) {
            red_scores.push(match pos.side_to_move() {
                Color::Red => score,
                Color::Black => -score,
            });
            if let Some(outcome) = agreed_win(&red_scores, win) {
                return Ok(Ending {
                    outcome,
                    reason: "adjudicated".to_string(),
                });
            }
        }
        pos.make_move(mv);
        moves.push(mv.to_string());
    }
}

/// The side the last `win.plies` scores (Red's view) all hold at least `win.score` ahead.
fn agreed_win(red_scores: &[Value], win: WinAdjudication) -> Option<Outcome> {
    let n = win.plies.max(1);
    let last = red_scores.get(red_scores.len().checked_sub(n)?..)?;
    if last.iter().all(|&s| s >= win.score) {
        Some(Outcome::RedWins)
    } else if last.iter().all(|&s| s <= -win.score) {
        Some(Outcome::BlackWins)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_are_called_only_when_every_recent_score_agrees() {
        let win = WinAdjudication {
            score: 500,
            plies: 3,
        };
        assert_eq!(agreed_win(&[600, 700], win), None);
        assert_eq!(agreed_win(&[0, 600, 500, 900], win), Some(Outcome::RedWins));
        assert_eq!(agreed_win(&[600, 499, 900], win), None);
        assert_eq!(
            agreed_win(&[-600, -500, -900], win),
            Some(Outcome::BlackWins)
        );
        assert_eq!(agreed_win(&[-600, 500, -900], win), None);
    }

    #[test]
    fn a_lost_position_is_called_early_and_a_long_game_is_drawn() {
        // Red has two rooks against a bare king: won, but no mate or stalemate in one (the
        // red king holds file d, a rook can cover file e or a rank, not both).
        let start = Opening {
            fen: "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1".to_string(),
            moves: Vec::new(),
        };
        let mut engine = Engine::new();
        engine.set_hash_mb(1).unwrap();
        let mut searched = 0;
        let cfg = Playout {
            nodes: 300,
            max_plies: 40,
            win: Some(WinAdjudication {
                score: 800,
                plies: 2,
            }),
        };
        let end = play_out(&mut engine, &start, &cfg, &mut |_, _| searched += 1).unwrap();
        assert_eq!(end.outcome, Outcome::RedWins);
        assert_eq!((end.reason.as_str(), searched), ("adjudicated", 2));
        let cfg = Playout {
            max_plies: 1,
            win: None,
            ..cfg
        };
        let mut searched = 0;
        let end = play_out(&mut engine, &start, &cfg, &mut |_, _| searched += 1).unwrap();
        assert_eq!(
            (end.outcome, end.reason.as_str()),
            (Outcome::Draw, "ply limit")
        );
        assert_eq!(searched, 1);
    }

    #[test]
    fn two_engines_play_one_side_each() {
        // 6 plies from the start: each engine is set only to its own side's positions, so the
        // last one each searched has its side to move.
        let start = Opening::startpos();
        let (mut red, mut black) = (Engine::new(), Engine::new());
        red.set_hash_mb(1).unwrap();
        black.set_hash_mb(1).unwrap();
        let cfg = Playout {
            nodes: 300,
            max_plies: 6,
            win: None,
        };
        let mut sides = Vec::new();
        let end = play_between(&mut red, &mut black, &start, &cfg, &mut |pos, _| {
            sides.push(pos.side_to_move())
        })
        .unwrap();
        assert_eq!(end.reason, "ply limit");
        assert_eq!(sides.len(), 6);
        assert!(sides.windows(2).all(|w| w[0] != w[1]), "{sides:?}");
        assert_eq!(red.position().side_to_move(), Color::Red);
        assert_eq!(black.position().side_to_move(), Color::Black);
        assert_eq!(black.position().game_ply(), 5);
    }
}

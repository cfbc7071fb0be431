//! A book from game records: every position of the games' first plies, with the moves played
//! there weighted by how they scored for the side that played them (a win 2 points, a draw 1,
//! a loss 0; a line with no result counts as a draw). Moves played fewer than `min_count`
//! times are left out; a move that only ever lost is kept with weight 0 (known, never played).

use crate::board::position::Position;
use crate::board::types::{Color, Move};
use crate::engine::book::binary::{Record, NO_SCORE};
use crate::engine::openings;
use crate::tools::book_builder::canonical;
use crate::tools::match_runner::pgn::read_pgn;
use anyhow::{Context, Result};
use std::collections::BTreeMap;

/// One game: where it starts, its moves, and the points Red scored (0, 1 or 2; 1 unknown).
pub struct Game {
    /// The first position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// Red's points: 2 a win, 1 a draw (or no result), 0 a loss.
    pub red_points: u32,
}

/// The games of a file: PGN when it has tags or PGN results, else opening lines.
pub fn read_games(text: &str) -> Result<Vec<Game>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let looks_like_pgn = text.lines().any(|l| l.trim_start().starts_with('['));
    if looks_like_pgn {
        let games = read_pgn(text).map_err(anyhow::Error::msg)?;
        return games
            .into_iter()
            .map(|g| {
                let start = Position::from_fen(&g.fen)
                    .map_err(|e| anyhow::anyhow!("bad FEN '{}': {e}", g.fen))?;
                let red_points = match g.result.as_str() {
                    "1-0" => 2,
                    "0-1" => 0,
                    _ => 1,
                };
                Ok(Game {
                    start,
                    moves: g.moves,
                    red_points,
                })
            })
            .collect();
    }
    let lines = openings::parse_openings(text).map_err(anyhow::Error::msg)?;
    Ok(lines
        .into_iter()
        .map(|o| Game {
            start: Position::from_fen(&o.fen).expect("checked when read"),
            moves: o.moves,
            red_points: 1,
        })
        .collect())
}

/// What the games say of one move of one position.
#[derive(Clone, Copy, Default)]
struct Tally {
    played: u32,
    points: u32,
}

/// The book records of `games`: their positions up to `max_ply`, moves played at least
/// `min_count` times.
pub fn records(games: &[Game], max_ply: usize, min_count: u32) -> Result<Vec<Record>> {
    let mut tallies: BTreeMap<(u64, Move), Tally> = BTreeMap::new();
    for game in games {
        let mut pos = game.start.clone();
        for &m in game.moves.iter().take(max_ply) {
            let points = match pos.side_to_move() {
                Color::Red => game.red_points,
                Color::Black => 2 - game.red_points,
            };
            let t = tallies.entry(canonical(&pos, m)).or_default();
            t.played += 1;
            t.points += points;
            pos.make_move(m);
        }
    }
    let records = tallies
        .into_iter()
        .filter(|(_, t)| t.played >= min_count)
        .map(|((key, mv), t)| Record {
            key,
            mv,
            weight: t.points.min(u32::from(u16::MAX)) as u16,
            score: NO_SCORE,
            learn: 0,
        })
        .collect();
    Ok(records)
}

/// Read every file named and tally its games.
pub fn from_files(paths: &[String], max_ply: usize, min_count: u32) -> Result<Vec<Record>> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading '{path}'"))?;
        let read = read_games(&text).with_context(|| format!("in '{path}'"))?;
        eprintln!("{path}: {} games", read.len());
        games.extend(read);
    }
    records(&games, max_ply, min_count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_the_results_for_the_side_that_moved() {
        let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
                   [Event \"b\"]\n[Result \"0-1\"]\n\n1. h2e2 b9c7 0-1\n\n\
                   [Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. c3c4 1/2-1/2\n";
        let games = read_games(pgn).unwrap();
        assert_eq!(games.len(), 3);
        let records = records(&games, 10, 1).unwrap();
        let start = Position::startpos();
        let weight_of = |pos: &Position, m: &str| {
            let (key, mv) = canonical(pos, pos.parse_move(m).unwrap());
            records
                .iter()
                .find(|r| r.key == key && r.mv == mv)
                .map(|r| r.weight)
        };
        // h2e2: a win and a loss for Red; c3c4 a draw.
        assert_eq!(weight_of(&start, "h2e2"), Some(2));
        assert_eq!(weight_of(&start, "c3c4"), Some(1));
        let mut after = start.clone();
        after.make_move(start.parse_move("h2e2").unwrap());
        // For Black: h9g7 lost, b9c7 won.
        assert_eq!(weight_of(&after, "h9g7"), Some(0));
        assert_eq!(weight_of(&after, "b9c7"), Some(2));
        // At most one ply: the replies are left out; twice at least: only h2e2 is kept.
        assert_eq!(super::records(&games, 1, 1).unwrap().len(), 2);
        assert_eq!(super::records(&games, 10, 2).unwrap().len(), 1);
    }

    #[test]
    fn opening_lines_count_as_draws() {
        let games = read_games("h2e2 h9g7\nb2e2\n").unwrap();
        let records = records(&games, 10, 1).unwrap();
        // h2e2 and b2e2 are one line mirrored: one record of weight 2.
        let start = Position::startpos();
        let at_start: Vec<&Record> = records.iter().filter(|r| r.key == start.key()).collect();
        assert_eq!(at_start.len(), 1);
        assert_eq!(at_start[0].weight, 2);
        assert_eq!(records.len(), 2);
    }
}

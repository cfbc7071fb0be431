//! Book learning: a Chuhan book's weights follow the results of played games, so that the
//! lines that lose in practice fall and the lines that win rise.
//!
//! Each game is replayed from its first position while the book has the move played (looked
//! up as the book stores it: of a position and its mirror, the smaller key; see
//! `book_builder::canonical`); the first move the book does not have ends its part in the
//! game. Each book move passed through is credited with the game's result for the side that
//! played it: +1 a win, 0 a draw, −1 a loss (a move met twice in one game counts once). Games
//! without a result (`*`) teach nothing.
//!
//! After all the games, a move with net result `n` (wins minus losses over this run's games)
//! gets the weight `round(w × 2^(n / scale))`, clamped to 1..65535; `scale` is the net result
//! that doubles (or halves) a weight (default 8). A weight of 0 (a move the book knows and never
//! plays) stays 0. The learning field adds the games and their net result (see
//! `engine::book::binary`). The result depends on the games, not on their order; learning
//! from two sets one after the other gives what learning from both at once gives, up to the
//! rounding of the weights.

use crate::board::position::Position;
use crate::board::types::{Color, Move};
use crate::engine::book::binary::Record;
use crate::engine::book::mirror_move;
use crate::tools::book_builder::canonical;
use std::collections::{BTreeMap, HashMap};

/// A net result of this many games doubles a weight (halves it when negative), by default.
pub const DEFAULT_SCALE: u32 = 8;

/// One played game, as learning needs it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Where it started.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result for Red: 1 a win, 0 a draw, −1 a loss; `None` when the game has none.
    pub red_result: Option<i32>,
}

/// What a learning run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Games that passed through at least one book move.
    pub games: usize,
    /// Games whose first move (from their first position) is not in the book.
    pub out_of_book: usize,
    /// Games without a result.
    pub no_result: usize,
    /// Book moves credited, summed over the games.
    pub plies: usize,
    /// Records whose weight or learning field changed.
    pub records: usize,
}

/// The weight of a move of weight `weight` after a net result `net`.
pub fn new_weight(weight: u16, net: i32, scale: u32) -> u16 {
    if weight == 0 || net == 0 {
        return weight;
    }
    let factor = (f64::from(net) / f64::from(scale.max(1))).exp2();
    (f64::from(weight) * factor)
        .round()
        .clamp(1.0, f64::from(u16::MAX)) as u16
}

/// Learn from `games` into `records` (a whole book's records, in any order).
pub fn learn(records: &mut [Record], games: &[PlayedGame], scale: u32) -> Learned {
    let index: HashMap<(u64, Move), usize> = records
        .iter()
        .enumerate()
        .map(|(i, r)| ((r.key, r.mv), i))
        .collect();
    // The record of a move: as our books store it, else as found (a book of another tool).
    let find = |pos: &Position, m: Move| {
        let mirror = pos.mirrored();
        [
            canonical(pos, m),
            (pos.key(), m),
            (mirror.key(), mirror_move(m)),
        ]
        .iter()
        .find_map(|k| index.get(k).copied())
    };
    let mut report = Learned::default();
    // Per record: games, net result.
    let mut tally: BTreeMap<usize, (u32, i32)> = BTreeMap::new();
    for game in games {
        let Some(red) = game.red_result else {
            report.no_result += 1;
            continue;
        };
        let mut pos = game.start.clone();
        let mut seen: BTreeMap<usize, i32> = BTreeMap::new();
        for &m in &game.moves {
            let Some(i) = find(&pos, m) else { break };
            let result = match pos.side_to_move() {
                Color::Red => red,
                Color::Black => -red,
            };
            seen.entry(i).or_insert(result);
            pos.make_move(m);
        }
        if seen.is_empty() {
            report.out_of_book += 1;
            continue;
        }
        report.games += 1;
        report.plies += seen.len();
        for (i, result) in seen {
            let t = tally.entry(i).or_default();
            t.0 += 1;
            t.1 += result;
        }
    }
    for (i, (played, net)) in tally {
        let r = &mut records[i];
        r.weight = new_weight(r.weight, net, scale);
        r.add_learned(played, net);
        report.records += 1;
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_double_every_scale_net_wins() {
        assert_eq!(new_weight(1000, 8, 8), 2000);
        assert_eq!(new_weight(1000, -8, 8), 500);
        assert_eq!(new_weight(1000, -16, 8), 250);
        assert_eq!(new_weight(1000, 4, 8), 1414);
        assert_eq!(new_weight(1000, 0, 8), 1000);
        assert_eq!(new_weight(0, 50, 8), 0, "weight 0 is never played");
        assert_eq!(new_weight(3, -100, 8), 1, "a move the book has stays in it");
        assert_eq!(new_weight(60_000, 16, 8), u16::MAX);
    }
}

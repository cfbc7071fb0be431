//! Perft: count the leaf nodes of the legal move tree, to verify move generation.
//!
//! The count can be cut short (for `go perft` in the protocol, which `stop` must end): the stop
//! test is a closure checked at every node two or more plies from the leaves, and the plain
//! functions pass `|| false`, which compiles away, so `chuhan perft` pays nothing for it.

use crate::board::movegen::{count_legal, legal_moves};
use crate::board::position::Position;
use crate::board::types::Move;

/// Leaf count at `depth` (bulk-counting the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    count(pos, depth, &|| false)
}

/// Leaf count at `depth`; once `stopped()` says so, a partial count.
fn count(pos: &mut Position, depth: u32, stopped: &impl Fn() -> bool) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            if stopped() {
                return 0;
            }
            let moves = legal_moves(pos);
            let mut nodes = 0;
            for &m in &moves {
                pos.make_move(m);
                nodes += count(pos, depth - 1, stopped);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// Leaf count under each root move ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &|| false)
}

/// [`divide`], ended early once `stopped()` says so: then only the root moves counted in full
/// are listed (fewer rows than legal moves is how a caller tells a stopped count).
pub fn divide_until(
    pos: &mut Position,
    depth: u32,
    stopped: &impl Fn() -> bool,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut rows = Vec::new();
    for &m in legal_moves(pos).as_slice() {
        if stopped() {
            break;
        }
        pos.make_move(m);
        let n = count(pos, depth - 1, stopped);
        pos.unmake_move();
        if stopped() {
            break;
        }
        rows.push((m, n));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_stopped_divide_lists_only_whole_root_moves() {
        let mut pos = Position::startpos();
        let full = divide(&mut pos, 3);
        assert_eq!(full.len(), 44);
        assert_eq!(full.iter().map(|(_, n)| n).sum::<u64>(), 79_666);
        // Stop after a few checks: some root moves are counted, and each one fully.
        let checks = Cell::new(0);
        let rows = divide_until(&mut pos, 3, &|| {
            checks.set(checks.get() + 1);
            checks.get() > 20
        });
        assert!(
            !rows.is_empty() && rows.len() < full.len(),
            "{}",
            rows.len()
        );
        assert_eq!(rows, full[..rows.len()]);
        assert!(divide_until(&mut pos, 3, &|| true).is_empty());
        assert_eq!(pos.key(), Position::startpos().key());
    }
}

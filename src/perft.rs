//! Perft: count the leaf nodes of the legal move tree, to verify move generation.

use crate::movegen::{count_legal, legal_moves};
use crate::position::Position;
use crate::types::Move;

/// Leaf count at `depth` (bulk-counting the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let moves = legal_moves(pos);
            let mut nodes = 0;
            for &m in &moves {
                pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// Leaf count under each root move ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .as_slice()
        .iter()
        .map(|&m| {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

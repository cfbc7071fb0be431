//! Random playouts from the start position: the positions tests check things on (the network
//! against its reference, record round trips, the trainer's gradient). Unit and integration
//! tests alike walk the board through this one function; the engine does not use it.

use super::movegen::legal_moves;
use super::position::Position;
use super::rng::Rng;

/// `n` positions of random playouts from the start position, each one random legal move after
/// the one before. Before each move a game ends with chance `1 / mean_plies` (so games last
/// `mean_plies` plies on average), or when it has no move, and the next starts from the start.
/// The positions keep their history. The same for the same `rng` state.
#[doc(hidden)]
pub fn random_playout(rng: &mut Rng, n: usize, mean_plies: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::startpos();
    while out.len() < n {
        let moves = legal_moves(&pos);
        if moves.is_empty() || rng.below(mean_plies) == 0 {
            pos = Position::startpos();
            continue;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len())]);
        out.push(pos.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_are_games_of_about_the_mean_length_and_repeat() {
        let list = random_playout(&mut Rng::new(1), 3000, 40);
        assert_eq!(list.len(), 3000);
        // Each position is one move after the one before, or after the start.
        let starts = list.iter().filter(|p| p.game_ply() == 1).count();
        assert!((3000 / 80..3000 / 20).contains(&starts), "{starts} games");
        for pair in list.windows(2) {
            let ply = pair[1].game_ply();
            assert!(ply == 1 || ply == pair[0].game_ply() + 1);
        }
        let again = random_playout(&mut Rng::new(1), 3000, 40);
        assert!(list.iter().zip(&again).all(|(a, b)| a.key() == b.key()));
    }
}

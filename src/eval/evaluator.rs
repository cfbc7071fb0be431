//! The static evaluation along the search's line, kept move by move: the network's
//! accumulators, or the classical evaluation's material and piece-square sum. Each make and
//! unmake of the search goes through here, so an evaluation never starts from scratch.

use crate::board::position::Position;
use crate::board::types::Value;
use crate::eval::nnue::{Accumulator, AccumulatorStack, Network};
use crate::eval::{endgame, evaluate_with_psq, Score, Tables};

/// The classical evaluation's [`Tables::psq_sum`] at each ply of the line.
pub struct PsqStack<'a> {
    tables: &'a Tables,
    sums: Vec<Score>,
}

impl<'a> PsqStack<'a> {
    /// A stack whose root is `pos`.
    pub fn new(tables: &'a Tables, pos: &Position) -> PsqStack<'a> {
        let mut sums = Vec::with_capacity(256);
        sums.push(tables.psq_sum(pos));
        PsqStack { tables, sums }
    }

    /// A move was just made on `pos`.
    #[inline(always)]
    pub fn push_move(&mut self, pos: &Position) {
        let top = *self.sums.last().expect("the root is never popped");
        let sum = match self.tables.psq_change(pos) {
            Some(change) => top + change,
            // Not just after a move (the caller's mistake): summed from scratch instead.
            None => self.tables.psq_sum(pos),
        };
        self.sums.push(sum);
    }

    /// A pass: the same pieces, the same sum.
    #[inline(always)]
    pub fn push_null(&mut self) {
        let top = *self.sums.last().expect("the root is never popped");
        self.sums.push(top);
    }

    /// The last move (or pass) was taken back.
    #[inline(always)]
    pub fn pop(&mut self) {
        debug_assert!(self.sums.len() > 1, "pop below the root");
        if self.sums.len() > 1 {
            self.sums.pop();
        }
    }

    /// The classical evaluation of `pos`, the position at the top of the stack.
    #[inline(always)]
    pub fn evaluate(&self, pos: &Position) -> Value {
        let sum = *self.sums.last().expect("the root is never popped");
        debug_assert_eq!(
            sum,
            self.tables.psq_sum(pos),
            "piece-square sum out of step at {}",
            pos.to_fen()
        );
        evaluate_with_psq(pos, self.tables, sum)
    }
}

/// What evaluates in a search: a network or the classical tables.
pub enum Evaluator<'a> {
    Network(AccumulatorStack<'a>),
    Classical(PsqStack<'a>),
}

impl<'a> Evaluator<'a> {
    /// The network's evaluator when there is one, else the classical one, rooted at `pos`.
    pub fn new(network: Option<&'a Network>, tables: &'a Tables, pos: &Position) -> Evaluator<'a> {
        match network {
            Some(net) => Evaluator::Network(AccumulatorStack::new(net, pos)),
            None => Evaluator::Classical(PsqStack::new(tables, pos)),
        }
    }

    /// A move was just made on `pos`.
    #[inline(always)]
    pub fn push_move(&mut self, pos: &Position) {
        match self {
            Evaluator::Network(stack) => stack.push_move(pos),
            Evaluator::Classical(stack) => stack.push_move(pos),
        }
    }

    /// A pass was just made.
    #[inline(always)]
    pub fn push_null(&mut self) {
        match self {
            Evaluator::Network(stack) => stack.push_null(),
            Evaluator::Classical(stack) => stack.push_null(),
        }
    }

    /// The last move or pass was taken back.
    #[inline(always)]
    pub fn pop(&mut self) {
        match self {
            Evaluator::Network(stack) => stack.pop(),
            Evaluator::Classical(stack) => stack.pop(),
        }
    }

    /// The static evaluation of `pos` (the position the pushes and pops led to) for the side
    /// to move. Debug builds check that what was kept move by move is that of `pos`.
    #[inline(always)]
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        match self {
            Evaluator::Network(stack) => {
                debug_assert!(
                    {
                        let net = stack.network();
                        *stack.current() == Accumulator::refresh(net, pos)
                    },
                    "accumulators out of step at {}",
                    pos.to_fen()
                );
                let v = stack.evaluate(pos);
                let strong = if v > 0 {
                    pos.side_to_move()
                } else {
                    pos.side_to_move().flip()
                };
                v * endgame::scale(pos, strong) / endgame::FULL
            }
            Evaluator::Classical(stack) => stack.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::rng::Rng;
    use crate::eval::{default_tables, evaluate};

    #[test]
    fn the_kept_sum_evaluates_as_from_scratch_along_random_games() {
        let mut rng = Rng::new(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut stack = PsqStack::new(default_tables(), &pos);
            let mut made = 0;
            for ply in 0..120 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if ply % 17 == 16 && !pos.in_check() {
                    pos.make_null();
                    stack.push_null();
                } else {
                    pos.make_move(moves.as_slice()[rng.below(moves.len())]);
                    stack.push_move(&pos);
                }
                made += 1;
                assert_eq!(stack.evaluate(&pos), evaluate(&pos), "{}", pos.to_fen());
            }
            // Back to the root, step by step.
            for _ in 0..made {
                if pos.last_move().is_some() {
                    pos.unmake_move();
                } else {
                    pos.unmake_null();
                }
                stack.pop();
                assert_eq!(stack.evaluate(&pos), evaluate(&pos));
            }
        }
    }
}

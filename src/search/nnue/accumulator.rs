//! Accumulators: the feature transformer's output (bias plus the weights of the inputs a
//! position switches on) for both views, kept along the search's line one entry per ply.
//!
//! A move changes at most three inputs per view: the moved piece leaves its point and arrives
//! on another, and a captured piece leaves. So a child's accumulators are its parent's plus one
//! weight row, minus one or two, instead of a sum over every piece. A null move changes none,
//! and taking a move back just drops the child. The root is computed from scratch.
//!
//! Sums wrap (two's complement), so no input can make them panic; `Network::from_parts`
//! bounds every weight so that no real position's sum leaves the i16 range, and then the
//! wrapped sums are exact.

use super::features::index;
use super::network::Network;
use super::HIDDEN;
use crate::board::position::Position;
use crate::board::types::{Color, Value};

/// One position's accumulators, one per view.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Red's view (`[0]`) and Black's (`[1]`), indexed by `Color::index`.
    pub by_color: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulators of `pos` computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            by_color: [net.ft_bias; 2],
        };
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                for view in Color::ALL {
                    let row = &net.ft_weights[index(view, piece, sq)];
                    let sums = &mut acc.by_color[view.index()];
                    for (s, &w) in sums.iter_mut().zip(row) {
                        *s = s.wrapping_add(w);
                    }
                }
            }
        }
        acc
    }
}

/// The accumulators along the current line: entry 0 is the root, each move played pushes one,
/// each move taken back pops one.
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    entries: Vec<Accumulator>,
    top: usize,
}

/// Entries made at once: more than the search's deepest line, so it never grows in a search.
const DEPTH: usize = 256;

impl<'a> AccumulatorStack<'a> {
    /// A stack holding `pos`'s accumulators, computed from scratch.
    pub fn new(net: &'a Network, pos: &Position) -> AccumulatorStack<'a> {
        let root = Accumulator::refresh(net, pos);
        AccumulatorStack {
            net,
            entries: vec![root; DEPTH],
            top: 0,
        }
    }

    /// The network the accumulators belong to.
    pub fn network(&self) -> &'a Network {
        self.net
    }

    /// The accumulators of the current position.
    pub fn current(&self) -> &Accumulator {
        &self.entries[self.top]
    }

    /// Recompute the current position's accumulators from scratch.
    pub fn refresh(&mut self, pos: &Position) {
        self.entries[self.top] = Accumulator::refresh(self.net, pos);
    }

    /// The score of `pos` (whose accumulators are the current ones) for its side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> Value {
        self.net.evaluate(self.current(), pos.side_to_move())
    }

    /// A new entry above the current one; returns (parent, child).
    #[inline(always)]
    fn push(&mut self) -> (&Accumulator, &mut Accumulator) {
        if self.top + 1 == self.entries.len() {
            self.entries.push(self.entries[self.top].clone());
        }
        self.top += 1;
        let (below, above) = self.entries.split_at_mut(self.top);
        (&below[self.top - 1], &mut above[0])
    }

    /// `pos` has just played a move (`Position::make_move`): push the new position's
    /// accumulators, updated from the previous ones by the move's changes.
    #[inline]
    pub fn push_move(&mut self, pos: &Position) {
        let net = self.net;
        let st = pos.history().last().filter(|s| s.mv.is_ok());
        let (Some(st), Some(piece)) = (st, st.and_then(|s| pos.piece_on(s.mv.to()))) else {
            // Not just after a move (the caller's mistake): computed from scratch instead.
            self.push();
            self.refresh(pos);
            return;
        };
        let (from, to, captured) = (st.mv.from(), st.mv.to(), st.captured);
        let (parent, child) = self.push();
        for view in Color::ALL {
            let v = view.index();
            let add = &net.ft_weights[index(view, piece, to)];
            let sub = &net.ft_weights[index(view, piece, from)];
            match captured {
                None => add_sub(&mut child.by_color[v], &parent.by_color[v], add, sub),
                Some(c) => {
                    let sub2 = &net.ft_weights[index(view, c, to)];
                    add_sub_sub(&mut child.by_color[v], &parent.by_color[v], add, sub, sub2)
                }
            }
        }
    }

    /// A null move was played: the same pieces, so the same accumulators.
    #[inline]
    pub fn push_null(&mut self) {
        let (parent, child) = self.push();
        child.clone_from(parent);
    }

    /// The last move (or null move) was taken back.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }
}

/// `child = parent + add - sub`, element by element (wrapping; vectorised by the compiler).
#[inline(always)]
fn add_sub(
    child: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        child[i] = parent[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `child = parent + add - sub - sub2`, element by element.
#[inline(always)]
fn add_sub_sub(
    child: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
    sub2: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        child[i] = parent[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub[i])
            .wrapping_sub(sub2[i]);
    }
}

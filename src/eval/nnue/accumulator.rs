//! Accumulators: the feature transformer's output (bias plus the weights of the inputs a
//! position switches on) for both views, kept along the search's line one entry per ply. One
//! position's, from scratch, is `network::Accumulator`.
//!
//! A move changes at most three inputs per view: the moved piece leaves its point and arrives
//! on another, and a captured piece leaves. So a child's accumulators are its parent's plus one
//! weight row, minus one or two, instead of a sum over every piece. A null move changes none,
//! and taking a move back just drops the child. The root is computed from scratch, and a
//! child only when it is evaluated (`AccumulatorStack`).
//!
//! Sums wrap (two's complement), so no input can make them panic; `Network::from_parts`
//! bounds every weight so that no real position's sum leaves the i16 range, and then the
//! wrapped sums are exact.

use super::features::index;
use super::network::{Accumulator, Network};
use super::HIDDEN;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, Square, Value};

/// What a ply changed on the board, kept until its accumulators are needed.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// A null move: the parent's sums.
    Null,
    /// `piece` went from `from` to `to`, taking `captured` if any.
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
}

/// The accumulators along the current line: entry 0 is the root, each move played pushes one,
/// each move taken back pops one.
///
/// Lazily: a push records only what the move changed, and an entry's sums are computed when
/// they are asked for (`current`, `evaluate`), from its nearest computed ancestor. The search
/// makes many moves it never evaluates after (pruned right after the make, or cut off before
/// the child evaluates), and those cost nothing here.
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    entries: Vec<Accumulator>,
    /// What each entry's ply changed (entry 0's is unused).
    changes: Vec<Change>,
    /// Whether each entry's sums are up to date; entry 0 always is.
    computed: Vec<bool>,
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
            changes: vec![Change::Null; DEPTH],
            computed: vec![true; DEPTH],
            top: 0,
        }
    }

    /// The network the accumulators belong to.
    pub fn network(&self) -> &'a Network {
        self.net
    }

    /// The accumulators of the current position (computed now if they were put off).
    pub fn current(&mut self) -> &Accumulator {
        self.compute();
        &self.entries[self.top]
    }

    /// Recompute the current position's accumulators from scratch.
    pub fn refresh(&mut self, pos: &Position) {
        self.entries[self.top] = Accumulator::refresh(self.net, pos);
        self.computed[self.top] = true;
    }

    /// The score of `pos` (whose accumulators are the current ones) for its side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        self.compute();
        self.net
            .evaluate(&self.entries[self.top], pos.side_to_move())
    }

    /// A new entry above the current one, its sums not yet computed.
    #[inline(always)]
    fn push(&mut self, change: Change) {
        if self.top + 1 == self.entries.len() {
            self.entries.push(self.entries[self.top].clone());
            self.changes.push(Change::Null);
            self.computed.push(false);
        }
        self.top += 1;
        self.changes[self.top] = change;
        self.computed[self.top] = false;
    }

    /// `pos` has just played a move (`Position::make_move`): push the new position, whose
    /// accumulators are the previous ones changed by the move.
    #[inline]
    pub fn push_move(&mut self, pos: &Position) {
        let Some((piece, mv, captured)) = pos.last_move() else {
            // Not just after a move (the caller's mistake): computed from scratch instead.
            self.push(Change::Null);
            self.refresh(pos);
            return;
        };
        self.push(Change::Move {
            piece,
            from: mv.from(),
            to: mv.to(),
            captured,
        });
    }

    /// A null move was played: the same pieces, so the same accumulators.
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Change::Null);
    }

    /// The last move (or null move) was taken back.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// Bring the current entry up to date: from the nearest computed entry below it, apply
    /// each ply's change in turn.
    #[inline]
    fn compute(&mut self) {
        if self.computed[self.top] {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `compute_avx2` requires only that the CPU has AVX2, checked just above.
            unsafe { self.compute_avx2() };
            return;
        }
        self.compute_any_cpu();
    }

    /// [`Self::compute`] compiled for AVX2: the compiler vectorises the element loops twice as
    /// wide as the baseline x86-64 (SSE2) build can.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn compute_avx2(&mut self) {
        self.compute_any_cpu();
    }

    #[inline(always)]
    fn compute_any_cpu(&mut self) {
        // Entry 0 is always computed, so this finds one.
        let mut first = self.top;
        while !self.computed[first - 1] {
            first -= 1;
        }
        let net = self.net;
        for i in first..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let (parent, child) = (&below[i - 1], &mut above[0]);
            match self.changes[i] {
                Change::Null => child.clone_from(parent),
                Change::Move {
                    piece,
                    from,
                    to,
                    captured,
                } => {
                    for view in Color::ALL {
                        let v = view.index();
                        let add = &net.ft_weights[index(view, piece, to)];
                        let sub = &net.ft_weights[index(view, piece, from)];
                        match captured {
                            None => add_sub(&mut child.by_color[v], &parent.by_color[v], add, sub),
                            Some(c) => {
                                let sub2 = &net.ft_weights[index(view, c, to)];
                                add_sub_sub(
                                    &mut child.by_color[v],
                                    &parent.by_color[v],
                                    add,
                                    sub,
                                    sub2,
                                )
                            }
                        }
                    }
                }
            }
            self.computed[i] = true;
        }
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

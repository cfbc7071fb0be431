//! A small counting filter over position keys, so the search walks back for a repetition only
//! when the current key may have occurred before.
//!
//! The search pushes each key after `make_move` and pops it before `unmake_move` (null moves
//! need not be pushed: a repetition never reaches across one). [`RepetitionFilter::may_repeat`]
//! is false when the current key certainly has not occurred before; true means "walk back and
//! see" ([`crate::rules::repetition_verdict`]). Counts saturate, so a full slot stays "maybe".

use crate::board::position::Position;

const SLOTS: usize = 1 << 12;

/// Counting filter: how many keys in the current line fall in each of 4096 slots.
#[derive(Clone)]
pub struct RepetitionFilter {
    counts: Box<[u8; SLOTS]>,
}

impl Default for RepetitionFilter {
    fn default() -> Self {
        RepetitionFilter {
            counts: Box::new([0; SLOTS]),
        }
    }
}

impl RepetitionFilter {
    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key >> 52) as usize & (SLOTS - 1)
    }

    /// A filter holding every key of `pos`'s history, the current one included.
    pub fn from_position(pos: &Position) -> RepetitionFilter {
        let mut f = RepetitionFilter::default();
        for st in pos.history() {
            f.push(st.key);
        }
        f
    }

    /// Add a key (after making a move).
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_add(1);
    }

    /// Remove a key pushed before (before unmaking the move).
    #[inline(always)]
    pub fn pop(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        if *c != u8::MAX {
            *c -= 1;
        }
    }

    /// Whether `key`, already pushed as the current position, may have occurred before.
    #[inline(always)]
    pub fn may_repeat(&self, key: u64) -> bool {
        self.counts[Self::slot(key)] > 1
    }
}

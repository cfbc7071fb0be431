//! The gravity update every statistic of the search learns by (the move-ordering histories and
//! the correction history): a leaf, so `history` and `correction` share it without importing
//! each other.

/// The gravity update: `bonus` moves `e` toward ±`max` the less the closer it is, so `e` stays
/// within the bounds.
#[inline(always)]
pub(crate) fn gravity(e: &mut i32, bonus: i32, max: i32) {
    let bonus = bonus.clamp(-max, max);
    *e += bonus - *e * bonus.abs() / max;
}

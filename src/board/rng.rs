//! The one seeded random generator: SplitMix64 (Steele, Lea and Flood; the seeding generator
//! of `java.util.SplittableRandom`). Small, fast, and every 64-bit seed gives a full-period
//! stream, so a seed repeats a run exactly: Zobrist keys (built at compile time through the
//! `const fn` step), self-play openings and random plies, opening shuffles, test data.
//! Not for anything secret.

/// The SplitMix64 increment: 2^64 divided by the golden ratio, odd.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// One SplitMix64 step: the next state and the output drawn from it. A `const fn`, so tables
/// such as the Zobrist keys can be generated at compile time with the same generator.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(GOLDEN_GAMMA);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

/// A seeded SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream starting from `seed` (any value, zero included).
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A stream seeded from the clock and `salt`: differs from run to run.
    pub fn from_clock(salt: u64) -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng(nanos ^ salt.rotate_left(17))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number in `0..n` (`n` > 0). The modulo bias is below 2^-40 for the small `n` used
    /// here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in [0, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Shuffle `items` in place (Fisher-Yates): the same seed gives the same order.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_splitmix64() {
        // First outputs for seed 1234567 of the reference C implementation (Vigna,
        // splitmix64.c).
        let mut rng = Rng::new(1_234_567);
        let want: [u64; 5] = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for w in want {
            assert_eq!(rng.next_u64(), w);
        }
    }

    #[test]
    fn draws_stay_in_range_and_shuffles_repeat() {
        let mut rng = Rng::new(7);
        for n in 1..50 {
            assert!(rng.below(n) < n);
            let x = rng.unit();
            assert!((0.0..1.0).contains(&x));
        }
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        Rng::new(9).shuffle(&mut a);
        Rng::new(9).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..20).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..20).collect::<Vec<_>>());
    }
}

//! Match statistics: Elo from a score, 95 % error bars (trinomial per game, pentanomial per
//! game pair), likelihood of superiority, and the SPRT with its log-likelihood ratio.
//!
//! The formulas are the ones fishtest, cutechess-cli and fastchess use, so our numbers can be
//! compared with theirs:
//! - logistic Elo `E(s) = -400 log10(1/s - 1)`; the error bar maps `mean ± 1.96 σ/√N` through
//!   `E` and halves the width (cutechess's "Elo difference: x +/- y");
//! - the pentanomial model counts game pairs (same opening, colours swapped) by their pair score
//!   0, ½, 1, 1½, 2; it measures the variance better than the trinomial model, which ignores
//!   the correlation between the two games of a pair;
//! - the SPRT is the generalised SPRT of M. Van den Bergh ("support_MLE_multinomial"): the
//!   log-likelihood ratio of the two maximum-likelihood distributions of the observed outcome
//!   frequencies, one constrained to the expected score of `elo0`, one to that of `elo1`
//!   (logistic model), or constrained to the normalised t-value (normalised-Elo model).
//!   Frequencies are regularised by 1e-3 as in fishtest, so empty cells do not give log 0.

/// z for a two-sided 95 % interval (Φ⁻¹(0.975)).
pub const Z95: f64 = 1.959_963_984_540_054;

/// 800 / ln 10: normalised Elo per unit of t-value per game (fishtest's `nelo_divided_by_nt`).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Expected score for an Elo difference (logistic).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score in (0, 1); ±infinity at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, to about 1e-15 (series near 0, continued fraction for erfc beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = e^(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))) (Lentz would do; 60 terms
        // from the bottom are ample for x ≥ 2.5).
        let mut frac = x;
        for k in (1..60).rev() {
            frac = x + (k as f64 / 2.0) / frac;
        }
        1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / frac
    }
}

/// Standard normal distribution function Φ.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// An Elo estimate with its 95 % half-width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference.
    pub elo: f64,
    /// Half-width of the 95 % interval (in Elo).
    pub error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// Mean and variance of a discrete distribution given as (value, probability) pairs.
fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var = pdf.iter().map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// Elo, error and LOS from counts of outcomes valued `0, 1/(k-1), …, 1` (k = 3: L, D, W;
/// k = 5: pentanomial pair scores). None when there are no results. When every result is the
/// same (one game, one pair, or a sweep) the sample has no spread to measure, and the error is
/// infinite rather than a misleading 0.
fn estimate(counts: &[u64]) -> Option<EloEstimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let k = counts.len();
    let pdf: Vec<(f64, f64)> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / (k - 1) as f64, c as f64 / n as f64))
        .collect();
    let (mu, var) = mean_var(&pdf);
    let sd = (var / n as f64).sqrt();
    let dev = Z95 * sd;
    let error = if sd > 0.0 {
        (elo_from_score(mu + dev) - elo_from_score(mu - dev)) / 2.0
    } else {
        f64::INFINITY
    };
    let los = if sd > 0.0 {
        normal_cdf((mu - 0.5) / sd)
    } else if mu > 0.5 {
        1.0
    } else if mu < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        elo: elo_from_score(mu),
        error,
        los,
    })
}

/// Win/draw/loss counts from one player's view, and the pentanomial pair counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Completed pairs by pair score: `[0, ½, 1, 1½, 2]` points out of 2.
    pub penta: [u64; 5],
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Score fraction (0.5 when no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// Add one game: `points` is 0, 0.5 or 1 for the player this tally is about.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Add one finished pair with `pair_points` in {0, 0.5, 1, 1.5, 2}.
    pub fn add_pair(&mut self, pair_points: f64) {
        let i = (pair_points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.penta[i] += 1;
    }

    /// Completed pairs.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Trinomial estimate (each game independent), cutechess's "Elo difference".
    pub fn elo_trinomial(&self) -> Option<EloEstimate> {
        estimate(&[self.losses, self.draws, self.wins])
    }

    /// Pentanomial estimate over completed pairs (fastchess's "Elo" with `Ptnml`).
    pub fn elo_pentanomial(&self) -> Option<EloEstimate> {
        estimate(&self.penta)
    }
}

/// Likelihood of superiority from wins and losses alone (draws carry no information):
/// `½ (1 + erf((W - L) / √(2 (W + L))))`, cutechess's LOS.
pub fn los_wl(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (cutechess, classic fishtest).
    Logistic,
    /// Normalised Elo (fishtest and fastchess default): Elo scaled by the draw-adjusted spread.
    Normalized,
}

impl std::str::FromStr for EloModel {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" | "normalised" => Ok(EloModel::Normalized),
            _ => Err(anyhow::anyhow!(
                "unknown Elo model '{s}' (logistic or normalized)"
            )),
        }
    }
}

/// The SPRT's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error (accepting H1 when H0 holds).
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// How elo0/elo1 are meant.
    pub model: EloModel,
}

/// What the SPRT says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// LLR at or below the lower bound: H0 accepted.
    H0,
    /// LLR at or above the upper bound: H1 accepted.
    H1,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Lower bound `ln(β / (1 - α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound `ln((1 - β) / α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        if llr >= self.upper_bound() {
            SprtVerdict::H1
        } else if llr <= self.lower_bound() {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// LLR from pentanomial pair counts `[0, ½, 1, 1½, 2]`.
    pub fn llr_pentanomial(&self, penta: &[u64; 5]) -> f64 {
        self.llr(penta)
    }

    /// LLR from trinomial counts `[losses, draws, wins]` (when games are not paired).
    pub fn llr_trinomial(&self, ldw: &[u64; 3]) -> f64 {
        self.llr(ldw)
    }

    fn llr(&self, counts: &[u64]) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let (n, pdf) = regularized_pdf(counts);
        let (p0, p1) = match self.model {
            EloModel::Logistic => (
                mle_expected(&pdf, score_from_elo(self.elo0)),
                mle_expected(&pdf, score_from_elo(self.elo1)),
            ),
            EloModel::Normalized => {
                // A pair's t-value is √2 times a game's.
                let k = if counts.len() == 5 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                (
                    mle_t_value(&pdf, 0.5, self.elo0 / NELO_PER_T * k),
                    mle_t_value(&pdf, 0.5, self.elo1 / NELO_PER_T * k),
                )
            }
        };
        n * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|((_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
    }
}

/// Counts → (N, [(value, frequency)]), each count raised to at least 1e-3 (fishtest).
fn regularized_pdf(counts: &[u64]) -> (f64, Vec<(f64, f64)>) {
    let c: Vec<f64> = counts.iter().map(|&x| (x as f64).max(1e-3)).collect();
    let n: f64 = c.iter().sum();
    let k = c.len();
    let pdf = c
        .iter()
        .enumerate()
        .map(|(i, &x)| (i as f64 / (k - 1) as f64, x / n))
        .collect();
    (n, pdf)
}

/// Solve `Σ pᵢ aᵢ / (1 + x aᵢ) = 0` for x where every `1 + x aᵢ > 0` (needs some aᵢ < 0 < some
/// aⱼ). The left side falls strictly in x there, from +∞ to -∞, so bisection converges.
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let amin = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let amax = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if amin >= 0.0 || amax <= 0.0 {
        return 0.0; // degenerate: no interior solution; leave the distribution as it is
    }
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / amax, -1.0 / amin);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution on the same values with expected score `s`.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted);
    shifted.iter().map(|(a, p)| p / (1.0 + x * a)).collect()
}

/// The maximum-likelihood distribution with t-value `(μ - reference) / σ = t`, by the fixed-point
/// iteration of fishtest's `MLE_t_value`.
fn mle_t_value(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let n = pdf.len();
    let mut cur: Vec<f64> = vec![1.0 / n as f64; n];
    for _ in 0..100 {
        let dist: Vec<(f64, f64)> = pdf.iter().zip(&cur).map(|(&(a, _), &p)| (a, p)).collect();
        let (mu, var) = mean_var(&dist);
        let sigma = var.sqrt();
        let shifted: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| {
                let z = (mu - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted);
        let next: Vec<f64> = shifted.iter().map(|(a, p)| p / (1.0 + x * a)).collect();
        let change = next
            .iter()
            .zip(&cur)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        cur = next;
        if change < 1e-12 {
            break;
        }
    }
    cur
}

/// Normalised Elo (per game) from pentanomial counts: `(μ - ½) / √(2 var) · 800 / ln 10`,
/// with its 95 % half-width `1.96 · 800 / ln 10 / √(2 N)` (fastchess's "nElo").
pub fn normalized_elo(penta: &[u64; 5]) -> Option<(f64, f64)> {
    let n: u64 = penta.iter().sum();
    if n == 0 {
        return None;
    }
    let pdf: Vec<(f64, f64)> = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c as f64 / n as f64))
        .collect();
    let (mu, var) = mean_var(&pdf);
    if var <= 0.0 {
        return None;
    }
    let nt = (mu - 0.5) / (2.0 * var).sqrt();
    Some((nt * NELO_PER_T, Z95 * NELO_PER_T / (2.0 * n as f64).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // 0.75 → 400 log10 3 = 190.848…; 0.5 → 0; 0.64 → 99.951 (Elo tables give 100 for 64 %).
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9));
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.64), 99.950_989, 1e-5));
        for e in [-300.0, -10.0, 0.0, 5.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn erf_matches_tables() {
        // Abramowitz & Stegun table 7.1 values.
        assert!(close(erf(0.5), 0.520_499_877_813_047, 1e-14));
        assert!(close(erf(1.0), 0.842_700_792_949_715, 1e-14));
        assert!(close(erf(2.0), 0.995_322_265_018_953, 1e-14));
        assert!(close(erf(3.0), 0.999_977_909_503_001, 1e-14));
        assert!(close(erf(-1.0), -0.842_700_792_949_715, 1e-14));
        assert!(close(normal_cdf(Z95), 0.975, 1e-12));
    }

    // Reference numbers below are fastchess's published output for three matches (a match
    // log quoted in the eschec engine's docs/dev_log.md), each with SPRT [0, 10] normalised:
    //   W67 L23 D110, Ptnml(0-2) [1, 11, 47, 25, 16]: Elo 77.71 +/- 33.03, nElo 117.50 +/- 48.15,
    //     LOS 100.00 %, LLR 1.71
    //   W45 L30 D125, Ptnml [1, 24, 42, 25, 8]: Elo 26.11 +/- 31.23, nElo 40.51, LOS 95.04 %, LLR 0.60
    //   W63 L39 D98,  Ptnml [2, 23, 32, 35, 8]: Elo 41.89 +/- 33.28, nElo 61.39, LOS 99.38 %, LLR 0.92
    // An independent Python implementation (plain bisection, written apart from this file)
    // reproduced all of these and gave the logistic-model LLRs [0, 10]: 2.403574, 0.866097,
    // 1.274757, and the trinomial error bars 32.171343, 29.501945, 34.511140.
    fn tally(w: u64, l: u64, d: u64, penta: [u64; 5]) -> Tally {
        Tally {
            wins: w,
            draws: d,
            losses: l,
            penta,
        }
    }

    #[test]
    fn pentanomial_elo_matches_fastchess() {
        let cases = [
            (
                tally(67, 23, 110, [1, 11, 47, 25, 16]),
                77.71,
                33.03,
                1.0000,
                117.50,
            ),
            (
                tally(45, 30, 125, [1, 24, 42, 25, 8]),
                26.11,
                31.23,
                0.9504,
                40.51,
            ),
            (
                tally(63, 39, 98, [2, 23, 32, 35, 8]),
                41.89,
                33.28,
                0.9938,
                61.39,
            ),
        ];
        for (t, elo, err, los, nelo) in cases {
            let e = t.elo_pentanomial().unwrap();
            assert!(close(e.elo, elo, 0.005), "{e:?}");
            assert!(close(e.error, err, 0.005), "{e:?}");
            assert!(close(e.los, los, 0.00005), "{e:?}");
            let (ne, ne_err) = normalized_elo(&t.penta).unwrap();
            assert!(close(ne, nelo, 0.005), "{ne}");
            assert!(close(ne_err, 48.15, 0.005), "{ne_err}");
            // Trinomial: same Elo, the error from each game on its own.
            let tri = t.elo_trinomial().unwrap();
            assert!(close(tri.elo, elo, 0.005));
        }
        let tri: Vec<f64> = [
            tally(67, 23, 110, [0; 5]),
            tally(45, 30, 125, [0; 5]),
            tally(63, 39, 98, [0; 5]),
        ]
        .iter()
        .map(|t| t.elo_trinomial().unwrap().error)
        .collect();
        for (got, want) in tri.iter().zip([32.171_343, 29.501_945, 34.511_140]) {
            assert!(close(*got, want, 1e-5), "{got}");
        }
    }

    #[test]
    fn sprt_llr_matches_fastchess_and_reference() {
        let normalized = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        };
        let logistic = Sprt {
            model: EloModel::Logistic,
            ..normalized
        };
        let cases = [
            ([1, 11, 47, 25, 16], 1.71, 2.403_574),
            ([1, 24, 42, 25, 8], 0.60, 0.866_097),
            ([2, 23, 32, 35, 8], 0.92, 1.274_757),
        ];
        for (penta, llr_norm, llr_logi) in cases {
            let n = normalized.llr_pentanomial(&penta);
            assert!(close(n, llr_norm, 0.005), "normalized {n}");
            let l = logistic.llr_pentanomial(&penta);
            assert!(close(l, llr_logi, 1e-5), "logistic {l}");
        }
        // Bounds for α = β = 0.05: ±ln 19 = ±2.944439.
        assert!(close(logistic.upper_bound(), 2.944_438_979, 1e-9));
        assert!(close(logistic.lower_bound(), -2.944_438_979, 1e-9));
        assert_eq!(logistic.verdict(3.0), SprtVerdict::H1);
        assert_eq!(logistic.verdict(-3.0), SprtVerdict::H0);
        assert_eq!(logistic.verdict(0.0), SprtVerdict::Continue);
        assert_eq!(logistic.llr_pentanomial(&[0; 5]), 0.0);
    }

    #[test]
    fn llr_sign_follows_the_evidence() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        // Dead even results favour H0; a strong plus favours H1; trinomial agrees in sign.
        assert!(s.llr_pentanomial(&[10, 50, 100, 50, 10]) < 0.0);
        assert!(s.llr_pentanomial(&[5, 30, 100, 70, 20]) > 0.0);
        assert!(s.llr_trinomial(&[100, 200, 100]) < 0.0);
        assert!(s.llr_trinomial(&[100, 200, 160]) > 0.0);
    }

    #[test]
    fn los_from_wins_and_losses() {
        // cutechess: W 60 L 40 → ½(1 + erf(20/√200)) = Φ(2) = 0.977250.
        assert!(close(los_wl(60, 40), 0.977_249_868, 1e-8));
        assert_eq!(los_wl(0, 0), 0.5);
        assert!(close(los_wl(40, 60), 1.0 - 0.977_249_868, 1e-8));
    }

    #[test]
    fn a_sample_without_spread_has_no_finite_error() {
        let one_pair = tally(1, 1, 0, [0, 0, 1, 0, 0]);
        let e = one_pair.elo_pentanomial().unwrap();
        assert_eq!((e.elo, e.error), (0.0, f64::INFINITY));
        let all_draws = tally(0, 0, 40, [0, 0, 20, 0, 0]);
        assert_eq!(all_draws.elo_trinomial().unwrap().error, f64::INFINITY);
        let mixed = tally(10, 10, 5, [0, 0, 0, 0, 0]);
        assert!(mixed.elo_trinomial().unwrap().error.is_finite());
    }

    #[test]
    fn tally_counts() {
        let mut t = Tally::default();
        for p in [1.0, 0.5, 0.0, 1.0] {
            t.add_game(p);
        }
        t.add_pair(1.5);
        t.add_pair(1.0);
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 0, 1, 1, 0]);
        assert_eq!(t.points(), 2.5);
        assert_eq!(t.pairs(), 2);
    }
}

//! Rating lists: maximum-likelihood ratings of many players at once from the games they played
//! against each other, as Ordo computes them, and `chuhan match rate FILE.pgn…`.
//!
//! The model is the logistic Elo model: a player rated `d` above its opponent is expected to score
//! `E(d) = 1 / (1 + 10^(-d/400))` ([`score_from_elo`]), a draw counting as half a point. The
//! ratings `r` maximise the log-likelihood `Σ [S ln E(rᵢ - rⱼ) + (N - S) ln E(rⱼ - rᵢ)]` over every
//! pairing (`N` games, `S` points of `i`); at the maximum each player's expected score against the
//! opponents it met equals its real score. Only differences are determined: the list is shifted so
//! that the mean is 0, or so that one named player (the anchor) has a given rating.
//!
//! - Solved by Newton's method with step halving on the log-likelihood, which is concave.
//! - Error bars: 95 % (1.96 standard errors) from the Fisher information of the model, the
//!   negative Hessian of the log-likelihood at the maximum; relative to the mean, or to the
//!   anchor (whose own error is then 0). The model counts a game as a coin worth 0 or 1, so where
//!   many games are drawn the bars are a little wider than the true spread.
//! - The prior, applied only when needed: the maximum does not exist when a player, or a group of
//!   players, won or lost every game against the rest (the ratings would run off to ±infinity).
//!   Then every pairing that played gets [`PRIOR_DRAWS`] virtual draws added (as BayesElo's prior
//!   of virtual draws), which pulls each pair's gap in from infinity to a finite, stated number,
//!   and the list says so. Players in groups that never met at all cannot be rated together and
//!   are an error.

use super::pgn;
use super::referee::GameResult;
use super::stats::{score_from_elo, Tally, Z95};
use crate::tools::args::{Arg, Args};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::{BTreeMap, HashMap};
use std::f64::consts::LN_10;

/// Virtual draws added to every pairing that played when the games alone give no finite ratings.
pub const PRIOR_DRAWS: u64 = 2;

/// Largest |rating| an anchor may pin.
pub const MAX_ANCHOR: f64 = 100_000.0;

/// ln 10 / 400: the logistic slope per Elo, `E(d) = 1 / (1 + e^(-K d))`.
const K: f64 = LN_10 / 400.0;

/// The results of named players against each other, pairing by pairing.
#[derive(Clone, Debug, Default)]
pub struct Crosstable {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// `(i, j)` with `i < j` → the results from `i`'s view.
    results: BTreeMap<(usize, usize), Tally>,
}

impl Crosstable {
    /// The players, in order of first appearance.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A player's index, added if new.
    pub fn player(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Add `t`, the results of player `a` against player `b` (indices from [`Self::player`]).
    pub fn add(&mut self, a: usize, b: usize, t: &Tally) {
        assert!(a != b && a < self.names.len() && b < self.names.len());
        let (key, t) = if a < b {
            ((a, b), *t)
        } else {
            let flipped = Tally {
                wins: t.losses,
                draws: t.draws,
                losses: t.wins,
                penta: [0; 5],
            };
            ((b, a), flipped)
        };
        let entry = self.results.entry(key).or_default();
        entry.wins += t.wins;
        entry.draws += t.draws;
        entry.losses += t.losses;
    }

    /// Add one game between named players: `first_points` is 0, ½ or 1 for `first`.
    pub fn add_game(&mut self, first: &str, second: &str, first_points: f64) -> Result<()> {
        if first == second {
            bail!("'{first}' is named as both players");
        }
        let (a, b) = (self.player(first), self.player(second));
        let mut t = Tally::default();
        t.add_game(first_points);
        self.add(a, b, &t);
        Ok(())
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.results.values().map(Tally::games).sum()
    }
}

/// One player's line of a rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The player's name.
    pub name: String,
    /// Rating (Elo).
    pub elo: f64,
    /// Half-width of the 95 % interval (Elo).
    pub error: f64,
    /// The player's results against everyone.
    pub tally: Tally,
}

/// Where the scale is pinned.
#[derive(Clone, Debug, PartialEq)]
pub enum Anchor {
    /// The mean rating is 0.
    Mean,
    /// This player has this rating.
    Player(String, f64),
}

impl Anchor {
    /// Parse `NAME=RATING`.
    pub fn parse(text: &str) -> Result<Anchor> {
        let bad = || anyhow!("bad -anchor '{text}' (expected NAME=RATING, e.g. ElephantEye=2000)");
        let (name, rating) = text.rsplit_once('=').ok_or_else(bad)?;
        let rating: f64 = rating.trim().parse().map_err(|_| bad())?;
        if name.is_empty() || !rating.is_finite() || rating.abs() > MAX_ANCHOR {
            return Err(bad());
        }
        Ok(Anchor::Player(name.to_string(), rating))
    }
}

/// A rating list: players by rating, best first.
#[derive(Clone, Debug)]
pub struct RatingList {
    /// The players, best first.
    pub players: Vec<PlayerRating>,
    /// Every pairing that played: (first, second, results from the first's view), by name.
    pub pairings: Vec<(String, String, Tally)>,
    /// Where the scale is pinned.
    pub anchor: Anchor,
    /// Whether the prior of [`PRIOR_DRAWS`] virtual draws per pairing was needed, and why.
    pub prior: Option<String>,
}

/// (i, j, games, points of i) per pairing, with `extra_draws` virtual draws each.
type Edges = Vec<(usize, usize, f64, f64)>;

fn edges(ct: &Crosstable, extra_draws: u64) -> Edges {
    ct.results
        .iter()
        .filter(|(_, t)| t.games() > 0)
        .map(|(&(i, j), t)| {
            let n = (t.games() + extra_draws) as f64;
            (i, j, n, t.points() + extra_draws as f64 / 2.0)
        })
        .collect()
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

fn log_likelihood(e: &Edges, r: &[f64]) -> f64 {
    // ln E(d) = -softplus(-K d), ln(1 - E(d)) = -softplus(K d).
    e.iter()
        .map(|&(i, j, n, s)| {
            let x = K * (r[i] - r[j]);
            -s * softplus(-x) - (n - s) * softplus(x)
        })
        .sum()
}

/// Gradient and Fisher information (the negative Hessian) of the log-likelihood, in Elo.
fn gradient_information(e: &Edges, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = r.len();
    let mut g = vec![0.0; m];
    let mut info = vec![vec![0.0; m]; m];
    for &(i, j, n, s) in e {
        let p = score_from_elo(r[i] - r[j]);
        let d = K * (s - n * p);
        g[i] += d;
        g[j] -= d;
        let w = K * K * n * p * (1.0 - p);
        info[i][i] += w;
        info[j][j] += w;
        info[i][j] -= w;
        info[j][i] -= w;
    }
    (g, info)
}

/// `a` without row and column `k`.
fn without(a: &[Vec<f64>], k: usize) -> Vec<Vec<f64>> {
    a.iter()
        .enumerate()
        .filter(|&(i, _)| i != k)
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, &x)| x)
                .collect()
        })
        .collect()
}

/// The inverse of a symmetric positive definite matrix (Gauss-Jordan with partial pivoting);
/// None when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut w: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..m).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |acc, x| acc.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for c in 0..m {
        let p = (c..m).max_by(|&x, &y| w[x][c].abs().total_cmp(&w[y][c].abs()))?;
        if w[p][c].abs() <= 1e-13 * scale {
            return None;
        }
        w.swap(c, p);
        let pivot = w[c][c];
        for x in w[c].iter_mut() {
            *x /= pivot;
        }
        for r in 0..m {
            if r != c && w[r][c] != 0.0 {
                let f = w[r][c];
                let pivot_row = w[c].clone();
                for (x, y) in w[r].iter_mut().zip(pivot_row) {
                    *x -= f * y;
                }
            }
        }
    }
    Some(w.into_iter().map(|r| r[m..].to_vec()).collect())
}

/// The maximum-likelihood ratings with player 0 at 0, or None when they do not converge.
fn maximise(e: &Edges, players: usize) -> Option<Vec<f64>> {
    let mut r = vec![0.0; players];
    for _ in 0..500 {
        let (g, info) = gradient_information(e, &r);
        let inv = invert(&without(&info, 0))?;
        // Newton step on players 1.. (player 0 stays at 0).
        let step: Vec<f64> = (0..players)
            .map(|i| match i {
                0 => 0.0,
                _ => (1..players).map(|j| inv[i - 1][j - 1] * g[j]).sum(),
            })
            .collect();
        let before = log_likelihood(e, &r);
        let mut t = 1.0;
        let mut next: Vec<f64> = r.iter().zip(&step).map(|(a, s)| a + s).collect();
        while log_likelihood(e, &next) < before - 1e-12 * before.abs() && t > 1e-6 {
            t /= 2.0;
            next = r.iter().zip(&step).map(|(a, s)| a + t * s).collect();
        }
        let moved = r
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        r = next;
        if moved < 1e-9 {
            return r.iter().all(|x| x.is_finite()).then_some(r);
        }
    }
    None
}

/// How many players can be reached from player 0 along the arcs `i → j` where `arc(i, j)`.
fn reachable(players: usize, arc: impl Fn(usize, usize) -> bool) -> usize {
    let mut seen = vec![false; players];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(p) = stack.pop() {
        for (q, seen_q) in seen.iter_mut().enumerate() {
            if !*seen_q && arc(p, q) {
                *seen_q = true;
                stack.push(q);
            }
        }
    }
    seen.iter().filter(|&&x| x).count()
}

/// `[i][j]`: games of `i` against `j`, and the points `i` scored in them.
fn matrix(players: usize, e: &Edges) -> Vec<Vec<(f64, f64)>> {
    let mut m = vec![vec![(0.0, 0.0); players]; players];
    for &(i, j, n, s) in e {
        m[i][j] = (n, s);
        m[j][i] = (n, n - s);
    }
    m
}

/// Whether the games alone have a finite maximum: every player reaches every other along
/// "scored something against" (the graph is strongly connected: all reached from player 0, and
/// player 0 reached from all).
fn finite_without_prior(m: &[Vec<(f64, f64)>]) -> bool {
    let n = m.len();
    reachable(n, |i, j| m[i][j].1 > 0.0) == n && reachable(n, |i, j| m[j][i].1 > 0.0) == n
}

impl RatingList {
    /// The maximum-likelihood ratings of every player in `ct`.
    pub fn compute(ct: &Crosstable, anchor: Anchor) -> Result<RatingList> {
        let players = ct.names.len();
        if ct.games() == 0 || players < 2 {
            bail!("no finished games to rate");
        }
        let pin = match &anchor {
            Anchor::Mean => None,
            Anchor::Player(name, rating) => match ct.index.get(name) {
                Some(&i) => Some((i, *rating)),
                None => {
                    bail!(
                        "the anchor '{name}' played no game here (players: {})",
                        ct.names.join(", ")
                    )
                }
            },
        };
        let plain = edges(ct, 0);
        let m = matrix(players, &plain);
        if reachable(players, |i, j| m[i][j].0 > 0.0) < players {
            bail!(
                "the players fall into groups that never met, which cannot be rated on one \
                 scale; rate each group on its own"
            );
        }
        let mut tallies = vec![Tally::default(); players];
        for (&(i, j), t) in &ct.results {
            for (p, w, l) in [(i, t.wins, t.losses), (j, t.losses, t.wins)] {
                tallies[p].wins += w;
                tallies[p].losses += l;
                tallies[p].draws += t.draws;
            }
        }
        let (e, prior) = if finite_without_prior(&m) {
            (plain, None)
        } else {
            let sweeps: Vec<&str> = (0..players)
                .filter(|&p| {
                    tallies[p].wins == tallies[p].games() || tallies[p].losses == tallies[p].games()
                })
                .map(|p| ct.names[p].as_str())
                .collect();
            let who = if sweeps.is_empty() {
                "a group of players won or lost every game against the rest".to_string()
            } else {
                format!("{} won or lost every game", sweeps.join(", "))
            };
            let why = format!(
                "{who}, so the games alone give no finite ratings: every pairing that played \
                 got {PRIOR_DRAWS} virtual draws"
            );
            (edges(ct, PRIOR_DRAWS), Some(why))
        };
        let mut r = maximise(&e, players)
            .context("the ratings did not converge (please report the PGN)")?;
        let (_, info) = gradient_information(&e, &r);
        let pin_index = pin.map_or(0, |(i, _)| i);
        let reduced = invert(&without(&info, pin_index)).context("the ratings are undetermined")?;
        // The covariance with the pinned player fixed, padded with its zero row and column.
        let g = |a: usize, b: usize| -> f64 {
            if a == pin_index || b == pin_index {
                0.0
            } else {
                let skip = |x: usize| if x > pin_index { x - 1 } else { x };
                reduced[skip(a)][skip(b)]
            }
        };
        let variance: Vec<f64> = match pin {
            Some(_) => (0..players).map(|a| g(a, a)).collect(),
            None => {
                // Ratings measured from their mean: P G P with P = I - 11ᵀ/n.
                let n = players as f64;
                let row_means: Vec<f64> = (0..players)
                    .map(|a| (0..players).map(|b| g(a, b)).sum::<f64>() / n)
                    .collect();
                let total_mean = row_means.iter().sum::<f64>() / n;
                (0..players)
                    .map(|a| g(a, a) - 2.0 * row_means[a] + total_mean)
                    .collect()
            }
        };
        let shift = match pin {
            Some((i, rating)) => rating - r[i],
            None => -r.iter().sum::<f64>() / players as f64,
        };
        for x in &mut r {
            *x += shift;
        }
        let mut list: Vec<PlayerRating> = (0..players)
            .map(|p| PlayerRating {
                name: ct.names[p].clone(),
                elo: r[p],
                error: Z95 * variance[p].max(0.0).sqrt(),
                tally: tallies[p],
            })
            .collect();
        // Equal ratings (to a millionth of a point: the solver's last digits depend on the order
        // the players came in) are listed by name, so the same games give the same list.
        let key = |p: &PlayerRating| (p.elo * 1e6).round();
        list.sort_by(|a, b| key(b).total_cmp(&key(a)).then_with(|| a.name.cmp(&b.name)));
        let rank: HashMap<&str, usize> = list
            .iter()
            .enumerate()
            .map(|(k, p)| (p.name.as_str(), k))
            .collect();
        let mut pairings: Vec<(String, String, Tally)> = ct
            .results
            .iter()
            .filter(|(_, t)| t.games() > 0)
            .map(|(&(i, j), t)| {
                let (a, b) = (&ct.names[i], &ct.names[j]);
                if rank[a.as_str()] <= rank[b.as_str()] {
                    (a.clone(), b.clone(), *t)
                } else {
                    let flipped = Tally {
                        wins: t.losses,
                        draws: t.draws,
                        losses: t.wins,
                        penta: [0; 5],
                    };
                    (b.clone(), a.clone(), flipped)
                }
            })
            .collect();
        pairings.sort_by_key(|(a, b, _)| (rank[a.as_str()], rank[b.as_str()]));
        Ok(RatingList {
            players: list,
            pairings,
            anchor,
            prior,
        })
    }

    /// A player's rating.
    pub fn elo(&self, name: &str) -> Option<f64> {
        self.players.iter().find(|p| p.name == name).map(|p| p.elo)
    }

    /// The list as text: a header, one line per player, how the error bars and the prior are
    /// meant, and the pairwise table.
    pub fn text(&self) -> String {
        let games: u64 = self.pairings.iter().map(|p| p.2.games()).sum();
        let w = self
            .players
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let pinned = match &self.anchor {
            Anchor::Mean => "mean 0".to_string(),
            Anchor::Player(name, r) => format!("{name} pinned at {r}"),
        };
        let mut out = format!(
            "Ratings: {} players, {games} games; maximum likelihood, logistic Elo, a draw half a \
             point; {pinned}\n",
            self.players.len()
        );
        out.push_str(&format!(
            "{:>4}  {:<w$} {:>8} {:>7} {:>7} {:>7} {:>7}\n",
            "#", "player", "Elo", "±95%", "games", "score", "draws"
        ));
        for (k, p) in self.players.iter().enumerate() {
            let t = &p.tally;
            out.push_str(&format!(
                "{:>4}  {:<w$} {:>+8.1} {:>7.1} {:>7} {:>6.1}% {:>6.1}%\n",
                k + 1,
                p.name,
                p.elo + 0.0, // no "-0.0"
                p.error,
                t.games(),
                100.0 * t.score(),
                100.0 * t.draws as f64 / t.games().max(1) as f64
            ));
        }
        let from = match &self.anchor {
            Anchor::Mean => "the mean",
            Anchor::Player(name, _) => name.as_str(),
        };
        out.push_str(&format!(
            "±95%: 1.96 standard errors from the Fisher information (the inverse Hessian of the \
             log-likelihood), measured from {from}\n"
        ));
        if let Some(why) = &self.prior {
            out.push_str(&format!("Prior: {why}\n"));
        }
        out.push_str("Pairwise (the first player's view):\n");
        let elo: HashMap<&str, f64> = self
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.elo))
            .collect();
        for (a, b, t) in &self.pairings {
            out.push_str(&format!(
                "  {a:<w$} {b:<w$} {:>6} games  +{} ={} -{}  {:>5.1}%  gap {:+.1}\n",
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                elo[a.as_str()] - elo[b.as_str()] + 0.0
            ));
        }
        out
    }
}

/// Usage of `chuhan match rate`.
pub const RATE_USAGE: &str = "\
usage: chuhan match rate [-anchor NAME=RATING] FILE.pgn...
  Rates every player in the PGN files (ours, cutechess-cli's, XBoard's; any move notation: only
  the Red/White, Black and Result tags are read; unfinished games, Result \"*\", are left out).
  -anchor NAME=RATING    pin one player's rating (default: the mean rating is 0)";

/// Rate the games of PGN `files` (the arguments of `chuhan match rate`); returns the list's text.
pub fn rate_command(words: &[String]) -> Result<String> {
    let mut anchor = Anchor::Mean;
    let mut files = Vec::new();
    let mut args = Args::new(words, RATE_USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("anchor") => anchor = Anchor::parse(args.value()?)?,
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(file) => files.push(file),
        }
    }
    if files.is_empty() {
        return Err(args.fail("no PGN files given"));
    }
    let mut ct = Crosstable::default();
    let mut unfinished = 0;
    for f in &files {
        let bytes = std::fs::read(f).with_context(|| format!("cannot read '{f}'"))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow!("'{f}' is not UTF-8 text (convert it first, e.g. iconv -f GBK -t UTF-8)")
        })?;
        unfinished += add_pgn(&mut ct, &text).map_err(|e| anyhow!("{f}: {e:#}"))?;
    }
    let list = RatingList::compute(&ct, anchor)?;
    let mut out = String::new();
    if unfinished > 0 {
        out.push_str(&format!(
            "{unfinished} unfinished game(s) (Result \"*\") left out\n"
        ));
    }
    out.push_str(&list.text());
    Ok(out)
}

/// Add every finished game of a PGN text to `ct`; returns the number of unfinished ones.
pub fn add_pgn(ct: &mut Crosstable, text: &str) -> Result<usize> {
    let mut unfinished = 0;
    for g in pgn::read_tags(text).map_err(anyhow::Error::msg)? {
        let at = format!("the game at line {}", g.line);
        let result = g
            .tag("Result")
            .with_context(|| format!("{at} has no Result tag"))?;
        let red = g
            .tag("Red")
            .or_else(|| g.tag("White"))
            .with_context(|| format!("{at} has no Red (or White) tag"))?;
        let black = g
            .tag("Black")
            .with_context(|| format!("{at} has no Black tag"))?;
        let points = match GameResult::from_pgn(result.trim()) {
            Some(GameResult::RedWins) => 1.0,
            Some(GameResult::BlackWins) => 0.0,
            Some(GameResult::Draw) => 0.5,
            None if result.trim() == "*" => {
                unfinished += 1;
                continue;
            }
            None => bail!("{at} has the unknown Result '{result}'"),
        };
        ct.add_game(red, black, points)
            .map_err(|e| anyhow!("{at}: {e}"))?;
    }
    Ok(unfinished)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            penta: [0; 5],
        }
    }

    fn table(results: &[(&str, &str, Tally)]) -> Crosstable {
        let mut ct = Crosstable::default();
        for (a, b, t) in results {
            let (i, j) = (ct.player(a), ct.player(b));
            ct.add(i, j, t);
        }
        ct
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn two_players_by_hand() {
        // 7 wins, 3 losses: the gap is 400 log10(7/3) = 147.19…; the mean is 0, so ±73.6.
        let ct = table(&[("a", "b", tally(7, 0, 3))]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        let gap = 400.0 * (7.0f64 / 3.0).log10();
        assert!(close(gap, 147.19, 0.01));
        assert!(close(list.elo("a").unwrap(), gap / 2.0, 1e-6));
        assert!(close(list.elo("b").unwrap(), -gap / 2.0, 1e-6));
        assert!(list.prior.is_none());
        // Fisher information of the gap: N K² E(1-E) = 10 K² 0.21; its standard error is
        // 1/√that, and each rating, half the gap from the mean, has half of it.
        let sd_gap = 1.0 / (10.0 * K * K * 0.21f64).sqrt();
        assert!(close(sd_gap, 119.87, 0.01), "{sd_gap}");
        assert!(close(list.players[0].error, Z95 * sd_gap / 2.0, 1e-6));
        assert!(close(list.players[1].error, Z95 * sd_gap / 2.0, 1e-6));
        // Pinned: b at 1500 (error 0), a at 1500 + gap with the gap's whole error.
        let list = RatingList::compute(&ct, Anchor::parse("b=1500").unwrap()).unwrap();
        assert!(close(list.elo("a").unwrap(), 1500.0 + gap, 1e-6));
        assert_eq!(list.elo("b"), Some(1500.0));
        assert!(close(list.players[0].error, Z95 * sd_gap, 1e-6));
        assert_eq!(list.players[1].error, 0.0);
        // Draws are half points: +3 =4 -1 scores 5/8, gap 400 log10(5/3).
        let ct = table(&[("b", "a", tally(1, 4, 3))]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        let gap = 400.0 * (5.0f64 / 3.0).log10();
        assert!(close(
            list.elo("a").unwrap() - list.elo("b").unwrap(),
            gap,
            1e-6
        ));
        assert_eq!(list.players[0].name, "a");
        assert_eq!(list.players[0].tally, tally(3, 4, 1));
    }

    #[test]
    fn three_players_with_known_answers() {
        // Each pairing's score fits gaps of 400 log10 2 = 120.41 exactly: a 2-1 b, b 2-1 c,
        // a 4-1 c (4:1 = 2·2). The maximum is there: a +120.41, b 0, c -120.41.
        let ct = table(&[
            ("a", "b", tally(2, 0, 1)),
            ("c", "b", tally(1, 0, 2)),
            ("a", "c", tally(4, 0, 1)),
        ]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        let step = 400.0 * 2f64.log10();
        assert!(close(list.elo("a").unwrap(), step, 1e-6));
        assert!(close(list.elo("b").unwrap(), 0.0, 1e-6));
        assert!(close(list.elo("c").unwrap(), -step, 1e-6));
        // A cycle (a beats b, b beats c, c beats a, each 3-1) is three equals.
        let ct = table(&[
            ("a", "b", tally(3, 0, 1)),
            ("b", "c", tally(3, 0, 1)),
            ("c", "a", tally(3, 0, 1)),
        ]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        for p in &list.players {
            assert!(close(p.elo, 0.0, 1e-6), "{p:?}");
        }
        // Uneven: the maximum is where every player's expected score equals its real one.
        let ct = table(&[
            ("a", "b", tally(5, 10, 1)),
            ("b", "c", tally(2, 3, 1)),
            ("a", "c", tally(1, 1, 4)),
        ]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        let r = |n: &str| list.elo(n).unwrap();
        let e = |x: &str, y: &str| score_from_elo(r(x) - r(y));
        assert!(close(
            16.0 * e("a", "b") + 6.0 * e("a", "c"),
            10.0 + 1.5,
            1e-6
        ));
        assert!(close(
            16.0 * e("b", "a") + 6.0 * e("b", "c"),
            6.0 + 3.5,
            1e-6
        ));
        assert!(close(r("a") + r("b") + r("c"), 0.0, 1e-6));
    }

    #[test]
    fn a_clean_sweep_gets_the_stated_prior() {
        // 10-0: no finite maximum; with 2 virtual draws it is 11 points of 12, a gap of
        // 400 log10 11 = 416.55.
        let ct = table(&[("a", "b", tally(10, 0, 0))]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        let gap = list.elo("a").unwrap() - list.elo("b").unwrap();
        assert!(close(gap, 400.0 * 11f64.log10(), 1e-6), "{gap}");
        assert!(list
            .prior
            .as_deref()
            .unwrap()
            .contains("a, b won or lost every game"));
        let text = list.text();
        assert!(text.contains("Prior: "), "{text}");
        let numbers = text
            .split_whitespace()
            .filter_map(|t| t.trim_end_matches('%').parse::<f64>().ok());
        assert!(numbers.clone().count() > 10);
        assert!(numbers.clone().all(f64::is_finite), "{text}");
        // Three players, one of whom lost every game: the prior goes on every pairing.
        // a-b 1-1 (+2 draws: 2 of 4), a-c 2-0 (3 of 4), b-c 2-0 (3 of 4): a and b are equal by
        // symmetry, and c is 400 log10 3 = 190.85 below them.
        let ct = table(&[
            ("a", "b", tally(1, 0, 1)),
            ("a", "c", tally(2, 0, 0)),
            ("c", "b", tally(0, 0, 2)),
        ]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        assert!(list.prior.as_deref().unwrap().starts_with("c won or lost"));
        assert!(close(list.elo("a").unwrap(), list.elo("b").unwrap(), 1e-6));
        let gap = list.elo("a").unwrap() - list.elo("c").unwrap();
        assert!(close(gap, 400.0 * 3f64.log10(), 1e-6), "{gap}");
        for p in &list.players {
            assert!(p.elo.is_finite() && p.error.is_finite() && p.error > 0.0);
        }
        // A group that swept another group: nobody swept everyone, still a prior.
        let ct = table(&[
            ("a", "b", tally(1, 0, 1)),
            ("c", "d", tally(1, 0, 1)),
            ("a", "c", tally(1, 0, 0)),
            ("b", "d", tally(1, 0, 0)),
        ]);
        let list = RatingList::compute(&ct, Anchor::Mean).unwrap();
        assert!(list.prior.as_deref().unwrap().starts_with("a group"));
        assert!(list.elo("a").unwrap() > list.elo("c").unwrap());
    }

    #[test]
    fn unrateable_input_is_an_error() {
        let two_groups = table(&[("a", "b", tally(1, 0, 1)), ("c", "d", tally(1, 1, 0))]);
        let e = RatingList::compute(&two_groups, Anchor::Mean)
            .unwrap_err()
            .to_string();
        assert!(e.contains("never met"), "{e}");
        let ct = table(&[("a", "b", tally(1, 0, 1))]);
        let e = RatingList::compute(&ct, Anchor::parse("z=0").unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("'z'"), "{e}");
        assert!(RatingList::compute(&Crosstable::default(), Anchor::Mean).is_err());
        for bad in ["", "a", "=5", "a=", "a=x", "a=inf", "a=NaN", "a=1e9"] {
            assert!(Anchor::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Anchor::parse("Elephant Eye=2000.5").unwrap(),
            Anchor::Player("Elephant Eye".into(), 2000.5)
        );
        let mut ct = Crosstable::default();
        assert!(ct.add_game("a", "a", 1.0).is_err());
    }

    #[test]
    fn pgn_results_in_any_notation() {
        // Ours (Red/Black, ICCS), cutechess-cli's (White/Black, its own move text) and XBoard's
        // (WXF): only the tags count.
        let text = "\
[Event \"chuhan match\"]\n[Red \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. H2-E2 {x} H9-G7 1-0\n\n\
[White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1. Che2 Hg7 2. Rh1 1/2-1/2\n\n\
[White \"a\"]\n[Black \"c\"]\n[Result \"0-1\"]\n[Variant \"xiangqi\"]\n\n1. C2.5 H8+7 0-1\n\n\
[White \"c\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. C2.5 *\n";
        let mut ct = Crosstable::default();
        assert_eq!(add_pgn(&mut ct, text).unwrap(), 1);
        assert_eq!(ct.games(), 3);
        assert_eq!(ct.names(), ["a", "b", "c"]);
        let a_b = ct.results[&(0, 1)];
        assert_eq!((a_b.wins, a_b.draws, a_b.losses), (1, 1, 0));
        let a_c = ct.results[&(0, 2)];
        assert_eq!((a_c.wins, a_c.draws, a_c.losses), (0, 0, 1));
        for (bad, why) in [
            (
                "[Red \"a\"]\n[Black \"b\"]\n\n1. H2-E2 1-0\n",
                "no Result tag",
            ),
            ("[Red \"a\"]\n[Result \"1-0\"]\n\n1-0\n", "no Black tag"),
            ("[Black \"a\"]\n[Result \"1-0\"]\n\n1-0\n", "no Red"),
            (
                "[Red \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n",
                "unknown Result",
            ),
            (
                "[Red \"a\"]\n[Black \"a\"]\n[Result \"1-0\"]\n\n",
                "both players",
            ),
            ("[Red a]\n\n", "bad tag line"),
        ] {
            let e = add_pgn(&mut Crosstable::default(), bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{e}");
            assert!(e.contains("line 1"), "{e}");
        }
    }
}

//! `chuhan datagen wdl`: fits the win/draw/loss model of `UCI_ShowWDL` ([`WdlModel`]) to
//! training records, whose scores and game results are exactly what the model relates.
//!
//! The records are tabulated by material count and score (rounded to [`SCORE_STEP`]). The fit
//! then runs in two stages, as Stockfish's WDL tool does: for each material count with at
//! least [`MIN_POSITIONS`] records, the `(a, b)` of greatest likelihood; then cubics in
//! `m / ANCHOR` through those points (least squares, weighted by the counts), refined by
//! maximising the likelihood of all records at once. The report gives the log-loss (nats per
//! position) of the fixed curve the engine used before, of the fitted model, and of the
//! per-count fits (the best any model of this shape can do), and a calibration table:
//! observed against predicted W/D/L by score and material.

use super::files::Records;
use super::record::{self, Wdl};
use crate::protocol::wdl::{material, WdlModel, ANCHOR};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Scores are tabulated to the nearest multiple of this.
pub const SCORE_STEP: i32 = 10;

/// A material count needs this many records to be fitted alone and to set the model's range.
pub const MIN_POSITIONS: u64 = 2000;

/// The curve `UCI_ShowWDL` used before the fit (`a` = 200, `b` = 70 at every count).
pub const FIXED_CURVE: WdlModel = WdlModel {
    a: [0.0, 0.0, 0.0, 200.0],
    b: [0.0, 0.0, 0.0, 70.0],
    material: (0, 110),
};

/// Win, draw, loss counts per (material count, rounded score).
#[derive(Default)]
pub struct Table {
    cells: BTreeMap<(u32, i32), [u64; 3]>,
    positions: u64,
}

impl Table {
    /// Counts one record: its score, result (the side to move's view) and material count.
    pub fn add(&mut self, material: u32, score: i32, result: Wdl) {
        let bucket = (score as f64 / f64::from(SCORE_STEP)).round() as i32 * SCORE_STEP;
        let cell = self.cells.entry((material, bucket)).or_default();
        cell[match result {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
        self.positions += 1;
    }

    /// Tabulates the records of files.
    pub fn read(paths: &[impl AsRef<Path>]) -> Result<Table> {
        let mut table = Table::default();
        for path in paths {
            let path = path.as_ref();
            let mut records = Records::open(path)?;
            while let Some(r) = records.next_record()? {
                let s = record::decode(&r)
                    .with_context(|| format!("{}: a damaged record", path.display()))?;
                table.add(material(&s.pos), i32::from(s.score), s.result);
            }
        }
        Ok(table)
    }

    /// Records counted.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The cells of one material count: (rounded score, counts).
    fn at(&self, material: u32) -> impl Iterator<Item = (i32, &[u64; 3])> {
        self.cells
            .range((material, i32::MIN)..=(material, i32::MAX))
            .map(|(&(_, s), c)| (s, c))
    }

    /// Records per material count.
    fn per_material(&self) -> BTreeMap<u32, u64> {
        let mut n = BTreeMap::new();
        for (&(m, _), c) in &self.cells {
            *n.entry(m).or_default() += c.iter().sum::<u64>();
        }
        n
    }
}

/// The negative log-likelihood of counts under win and loss probabilities.
fn nll_cell(counts: &[u64; 3], pw: f64, pl: f64) -> f64 {
    let pd = 1.0 - pw - pl;
    let mut sum = 0.0;
    for (n, p) in counts.iter().zip([pw, pd, pl]) {
        if *n > 0 {
            if p <= 0.0 {
                return f64::INFINITY;
            }
            sum -= *n as f64 * p.ln();
        }
    }
    sum
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The negative log-likelihood of one cell, at score `s`, under `(a, b)`.
fn nll_at(counts: &[u64; 3], s: i32, a: f64, b: f64) -> f64 {
    if a <= 0.0 || b <= 0.0 {
        return f64::INFINITY;
    }
    let s = f64::from(s);
    nll_cell(counts, sigmoid((s - a) / b), sigmoid((-s - a) / b))
}

/// The negative log-likelihood of one material count's records under a fixed `(a, b)`.
fn nll_ab(table: &Table, material: u32, a: f64, b: f64) -> f64 {
    table.at(material).map(|(s, c)| nll_at(c, s, a, b)).sum()
}

/// The negative log-likelihood of the records whose material count `keep` accepts.
fn nll_where(table: &Table, model: &WdlModel, keep: impl Fn(u32) -> bool) -> f64 {
    table
        .cells
        .iter()
        .filter(|((m, _), _)| keep(*m))
        .map(|(&(m, s), c)| {
            let (a, b) = model.params(m);
            nll_at(c, s, a, b)
        })
        .sum()
}

/// The negative log-likelihood of the whole table under a model.
pub fn nll(table: &Table, model: &WdlModel) -> f64 {
    nll_where(table, model, |_| true)
}

/// Minimises `f` from `start` by the Nelder–Mead simplex; `scale` sets the first simplex.
fn nelder_mead(f: &dyn Fn(&[f64]) -> f64, start: &[f64], scale: &[f64], rounds: usize) -> Vec<f64> {
    let n = start.len();
    let mut simplex: Vec<(Vec<f64>, f64)> = (0..=n)
        .map(|i| {
            let mut x = start.to_vec();
            if i > 0 {
                x[i - 1] += scale[i - 1];
            }
            let v = f(&x);
            (x, v)
        })
        .collect();
    for _ in 0..rounds {
        simplex.sort_by(|p, q| p.1.total_cmp(&q.1));
        let centroid: Vec<f64> = (0..n)
            .map(|j| simplex[..n].iter().map(|p| p.0[j]).sum::<f64>() / n as f64)
            .collect();
        let toward = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|j| centroid[j] + t * (simplex[n].0[j] - centroid[j]))
                .collect()
        };
        let reflected = toward(-1.0);
        let fr = f(&reflected);
        if fr < simplex[0].1 {
            let expanded = toward(-2.0);
            let fe = f(&expanded);
            simplex[n] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[n - 1].1 {
            simplex[n] = (reflected, fr);
        } else {
            let contracted = toward(0.5);
            let fc = f(&contracted);
            if fc < simplex[n].1 {
                simplex[n] = (contracted, fc);
            } else {
                let best = simplex[0].0.clone();
                for p in simplex.iter_mut().skip(1) {
                    p.0 = (0..n).map(|j| (best[j] + p.0[j]) / 2.0).collect();
                    p.1 = f(&p.0);
                }
            }
        }
    }
    simplex.sort_by(|p, q| p.1.total_cmp(&q.1));
    simplex.swap_remove(0).0
}

/// The cubic through weighted points by least squares, highest power first.
fn weighted_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // Normal equations for y = c3 + c2 x + c1 x² + c0 x³, solved by Gaussian elimination.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y, w) in points {
        let powers = [1.0, x, x * x, x * x * x];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * powers[i] * powers[j];
            }
            m[i][4] += w * powers[i] * y;
        }
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&p, &q| m[p][col].abs().total_cmp(&m[q][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-12 {
            continue;
        }
        let pivot_row = m[col];
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let k = r[col] / pivot_row[col];
                for (x, p) in r.iter_mut().zip(pivot_row).skip(col) {
                    *x -= k * p;
                }
            }
        }
    }
    let c: Vec<f64> = (0..4)
        .map(|i| {
            if m[i][i].abs() < 1e-12 {
                0.0
            } else {
                m[i][4] / m[i][i]
            }
        })
        .collect();
    [c[3], c[2], c[1], c[0]]
}

/// One material count's own fit.
pub struct CountFit {
    /// The material count.
    pub material: u32,
    /// Its records.
    pub positions: u64,
    /// Its `a` and `b`.
    pub a: f64,
    /// See `a`.
    pub b: f64,
}

/// A finished fit.
pub struct Fit {
    /// The model.
    pub model: WdlModel,
    /// The per-count fits it was started from.
    pub counts: Vec<CountFit>,
}

/// Fits the model to a table.
pub fn fit(table: &Table) -> Result<Fit> {
    let per_material = table.per_material();
    let mut counts = Vec::new();
    for (&m, &n) in &per_material {
        if n < MIN_POSITIONS {
            continue;
        }
        let f = |x: &[f64]| nll_ab(table, m, x[0], x[1]);
        let best = nelder_mead(&f, &[150.0, 80.0], &[50.0, 30.0], 200);
        counts.push(CountFit {
            material: m,
            positions: n,
            a: best[0],
            b: best[1],
        });
    }
    if counts.len() < 4 {
        bail!(
            "too few records to fit: {} material counts have {MIN_POSITIONS} records or more, \
             4 are needed ({} records in all)",
            counts.len(),
            table.positions
        );
    }
    let range = (counts[0].material, counts[counts.len() - 1].material);
    let points = |value: fn(&CountFit) -> f64| -> Vec<(f64, f64, f64)> {
        counts
            .iter()
            .map(|c| (f64::from(c.material) / ANCHOR, value(c), c.positions as f64))
            .collect()
    };
    let start = WdlModel {
        a: weighted_cubic(&points(|c| c.a)),
        b: weighted_cubic(&points(|c| c.b)),
        material: range,
    };
    let model_of = |x: &[f64]| WdlModel {
        a: [x[0], x[1], x[2], x[3]],
        b: [x[4], x[5], x[6], x[7]],
        material: range,
    };
    let f = |x: &[f64]| {
        let model = model_of(x);
        let b_positive = counts.iter().all(|c| model.params(c.material).1 > 1.0);
        if b_positive {
            nll(table, &model)
        } else {
            f64::INFINITY
        }
    };
    let mut x: Vec<f64> = start.a.iter().chain(start.b.iter()).copied().collect();
    let mut best = f(&x);
    // Restarts shake the simplex loose; stop when a round gains almost nothing.
    for _ in 0..8 {
        let scale: Vec<f64> = x.iter().map(|v| 0.1 * v.abs().max(1.0)).collect();
        let next = nelder_mead(&f, &x, &scale, 600);
        let value = f(&next);
        let gained = best - value;
        if value < best {
            x = next;
            best = value;
        }
        if gained < 1e-6 * best.abs() {
            break;
        }
    }
    let model = if best.is_finite() {
        model_of(&x)
    } else {
        start
    };
    Ok(Fit { model, counts })
}

/// The report of a fit: data, log-losses, the per-count fits and the calibration table.
pub fn report(table: &Table, fit: &Fit) -> String {
    let n = table.positions as f64;
    let per_count: f64 = fit
        .counts
        .iter()
        .map(|c| nll_ab(table, c.material, c.a, c.b))
        .sum();
    let fitted_counts: u64 = fit.counts.iter().map(|c| c.positions).sum();
    let fitted = |m: u32| fit.counts.iter().any(|c| c.material == m);
    let mut s = String::new();
    let (lo, hi) = fit.model.material;
    let _ = writeln!(
        s,
        "records: {} ({} at the {} material counts with {MIN_POSITIONS}+ records, {lo}..{hi})",
        table.positions,
        fitted_counts,
        fit.counts.len()
    );
    let _ = writeln!(s, "log-loss, nats per record (lower is better):");
    let _ = writeln!(
        s,
        "  fixed curve (a 200, b 70)   {:.5}",
        nll(table, &FIXED_CURVE) / n
    );
    let _ = writeln!(
        s,
        "  fitted model                {:.5}",
        nll(table, &fit.model) / n
    );
    let _ = writeln!(
        s,
        "  each count fitted alone     {:.5}   (fitted model on those records: {:.5})",
        per_count / fitted_counts as f64,
        nll_where(table, &fit.model, fitted) / fitted_counts as f64
    );
    let _ = writeln!(
        s,
        "model: a(x) = {:?}, b(x) = {:?}",
        fit.model.a, fit.model.b
    );
    let _ = writeln!(s, "  with x = clamp(m, {lo}, {hi}) / {ANCHOR}");
    let _ = writeln!(
        s,
        "\nper material count: m, records, a, b (alone) | a, b (model)"
    );
    for c in &fit.counts {
        let (a, b) = fit.model.params(c.material);
        let _ = writeln!(
            s,
            "  {:3} {:8} {:7.1} {:6.1} | {:7.1} {:6.1}",
            c.material, c.positions, c.a, c.b, a, b
        );
    }
    s.push_str(&calibration(table, &fit.model));
    s
}

/// Observed against predicted W/D/L (per cent) by score band and material band.
fn calibration(table: &Table, model: &WdlModel) -> String {
    const SCORES: [(i32, i32); 7] = [
        (i32::MIN, -301),
        (-300, -151),
        (-150, -51),
        (-50, 50),
        (51, 150),
        (151, 300),
        (301, i32::MAX),
    ];
    const MATERIAL: [(u32, u32); 3] = [(0, 40), (41, 80), (81, 110)];
    let mut s = String::from(
        "\ncalibration: material, score band, records, observed W/D/L %, predicted W/D/L %\n",
    );
    for &(m0, m1) in &MATERIAL {
        for &(s0, s1) in &SCORES {
            let mut observed = [0u64; 3];
            let mut predicted = [0.0f64; 3];
            for (&(m, score), c) in &table.cells {
                if m < m0 || m > m1 || score < s0 || score > s1 {
                    continue;
                }
                let k: u64 = c.iter().sum();
                let (w, d, l) = model.wdl(score, m);
                for i in 0..3 {
                    observed[i] += c[i];
                }
                for (p, v) in predicted.iter_mut().zip([w, d, l]) {
                    *p += k as f64 * f64::from(v) / 10.0;
                }
            }
            let k: u64 = observed.iter().sum();
            if k == 0 {
                continue;
            }
            let band = match (s0, s1) {
                (i32::MIN, hi) => format!("<= {hi}"),
                (lo, i32::MAX) => format!(">= {lo}"),
                (lo, hi) => format!("{lo}..{hi}"),
            };
            let pct = |x: u64| 100.0 * x as f64 / k as f64;
            let _ = writeln!(
                s,
                "  {m0:3}..{m1:3} {band:>11} {k:8}   {:5.1} {:5.1} {:5.1}   {:5.1} {:5.1} {:5.1}",
                pct(observed[0]),
                pct(observed[1]),
                pct(observed[2]),
                predicted[0] / k as f64,
                predicted[1] / k as f64,
                predicted[2] / k as f64
            );
        }
    }
    s
}

/// The Rust source of `src/protocol/wdl_fit.rs` for a fitted model.
pub fn rust_source(model: &WdlModel, source: &str) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|v| format!("{v:.6}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut header = String::new();
    let mut line = String::from("//!");
    let text = format!(
        "The WDL model fitted to the shipped network's games. Generated by `scripts/fit-wdl.sh` \
         (`chuhan datagen wdl`), not written by hand. Data: {source}"
    );
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 96 {
            header.push_str(&line);
            header.push('\n');
            line = String::from("//!");
        }
        line.push(' ');
        line.push_str(word);
    }
    header.push_str(&line);
    format!(
        "{header}\n\n\
         use super::wdl::WdlModel;\n\n\
         /// The fitted model (see [`super::wdl`]).\n\
         pub const MODEL: WdlModel = WdlModel {{\n    \
         a: [{}],\n    \
         b: [{}],\n    \
         material: ({}, {}),\n\
         }};\n",
        list(&model.a),
        list(&model.b),
        model.material.0,
        model.material.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table drawn from a known model: at each count and score, counts proportional to the
    /// model's probabilities.
    fn table_from(model: &WdlModel, per_cell: f64) -> Table {
        let mut t = Table::default();
        for m in (10..=110).step_by(4) {
            for s in (-800..=800).step_by(20) {
                let (w, d, l) = model.wdl(s, m);
                let counts = [w, d, l].map(|p| (f64::from(p) * per_cell).round() as u64);
                let cell = t.cells.entry((m, s)).or_default();
                for i in 0..3 {
                    cell[i] += counts[i];
                }
                t.positions += counts.iter().sum::<u64>();
            }
        }
        t
    }

    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WdlModel {
            a: [30.0, -60.0, 80.0, 120.0],
            b: [-10.0, 20.0, 15.0, 40.0],
            material: (10, 110),
        };
        let table = table_from(&truth, 1.0);
        let fit = fit(&table).unwrap();
        for m in [10, 30, 60, 90, 110] {
            let (a0, b0) = truth.params(m);
            let (a1, b1) = fit.model.params(m);
            assert!((a0 - a1).abs() < 3.0, "m {m}: a {a1} against {a0}");
            assert!((b0 - b1).abs() < 2.0, "m {m}: b {b1} against {b0}");
        }
        assert!(nll(&table, &fit.model) < nll(&table, &FIXED_CURVE));
        let text = report(&table, &fit);
        assert!(
            text.contains("fitted model") && text.contains("calibration"),
            "{text}"
        );
    }

    #[test]
    fn too_little_data_is_an_error() {
        let mut t = Table::default();
        for s in [-100, 0, 100] {
            t.add(60, s, Wdl::Draw);
        }
        let e = fit(&t).err().unwrap().to_string();
        assert!(e.contains("too few records"), "{e}");
    }

    #[test]
    fn the_generated_source_holds_the_numbers() {
        let source = rust_source(&FIXED_CURVE, "a test");
        assert!(source.contains("200.000000"), "{source}");
        assert!(source.contains("material: (0, 110)"), "{source}");
    }
}

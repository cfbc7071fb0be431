//! `chuhan spsa`: tune the search's parameters (`search::params`) by self-play, with
//! simultaneous perturbation stochastic approximation (SPSA) as fishtest runs it.
//!
//! Each iteration moves every tuned parameter at once by ±c (signs at random) into two sets,
//! plays a pair of games (or several) between them, the same opening with colours swapped, and
//! steps the parameters toward the set that scored better: θ += a / c × (wins − losses) × sign.
//! The gains shrink over the planned iterations N: c_k = c / k^0.101, a_k = a / (A + k)^0.602
//! with A = N / 10, where c is chosen so that c_N is the parameter's declared step and a so
//! that a_N / c_N² is `r_end` (0.002 by default).
//!
//! The run is resumable: the state (iteration count, the fractional values) is rewritten after
//! every iteration, so an interrupted run loses one iteration at most and the same command goes
//! on from there. Beside it go the rounded values as a `SearchParams` file (`STATE.params`, for
//! the engine's option) and the two perturbed sets of the iteration in play.

use crate::board::rng::Rng;
use crate::search::params::{ParamSpec, SearchParams};
use crate::tools::args::{Arg, Args};
use crate::tools::match_runner::clock::TimeControl;
use crate::tools::match_runner::engine_process::{EngineSpec, Protocol};
use crate::tools::match_runner::{run_match, MatchConfig};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `chuhan spsa` usage.
pub const USAGE: &str = "usage: chuhan spsa <state-file> [--iterations N] [--pairs N] [--tc TC]
         [--concurrency N] [--params name,name,…] [--option name=value]… [--r-end R]
         [--seed N] [--engine PATH]
  Tunes the search's parameters (src/search/params.rs) by self-play; resumes from
  <state-file> when it exists, else starts from the built-in values. Defaults: 1000
  iterations (the length the gains are planned for) of 1 game pair, --tc nodes=20000,
  2 games at once, every parameter, r-end 0.002, seed 1, this program as the engine with
  usebook false and hashsize 16 (--option adds or overrides engine options, e.g.
  usennue=false). Writes <state-file> and <state-file>.params (the rounded values, for the
  SearchParams option) after every iteration.";

/// How a run is set up (the command line).
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// Indices into `SearchParams::SPECS` of the parameters tuned.
    pub tuned: Vec<usize>,
    /// Iterations the gains are planned for (and the run stops at).
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// Time control of the games.
    pub tc: TimeControl,
    /// Games at once.
    pub concurrency: usize,
    /// UCCI options of both engines, after the defaults.
    pub options: Vec<(String, String)>,
    /// Learning rate at the end: a_N / c_N².
    pub r_end: f64,
    /// Seed of the perturbations and the openings.
    pub seed: u64,
    /// The engine program.
    pub engine: PathBuf,
}

/// Where a run stands: iterations done and the tuned parameters' values, fractional.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Iterations completed.
    pub iteration: u64,
    /// `(index into SPECS, value)` of each tuned parameter.
    pub values: Vec<(usize, f64)>,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// The perturbation c_k and gain a_k of iteration `k` (1-based) of `n` for a parameter.
pub fn gains(spec: &ParamSpec, k: u64, n: u64, r_end: f64) -> (f64, f64) {
    let n = n.max(1) as f64;
    let big_a = n / 10.0;
    let c_end = f64::from(spec.step);
    let c = c_end * n.powf(GAMMA);
    let a = r_end * c_end * c_end * (big_a + n).powf(ALPHA);
    let k = k.max(1) as f64;
    (c / k.powf(GAMMA), a / (big_a + k).powf(ALPHA))
}

impl SpsaState {
    /// The start: no iteration done, the built-in values.
    pub fn start(tuned: &[usize]) -> SpsaState {
        SpsaState {
            iteration: 0,
            values: tuned
                .iter()
                .map(|&i| (i, f64::from(SearchParams::SPECS[i].default)))
                .collect(),
        }
    }

    /// The state file: `iteration N`, then `name value` per tuned parameter.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "# chuhan spsa state: iterations done, then each tuned parameter's value\n\
             iteration {}\n",
            self.iteration
        );
        for &(i, v) in &self.values {
            text.push_str(&format!("{} {v:.4}\n", SearchParams::SPECS[i].name));
        }
        text
    }

    /// Read a state file; errors name the line.
    pub fn from_text(text: &str) -> Result<SpsaState> {
        let mut iteration = None;
        let mut values = Vec::new();
        for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, value) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| anyhow!("line {n}: expected 'name value', got '{line}'"))?;
            let value = value.trim();
            if name == "iteration" {
                let k = value
                    .parse()
                    .map_err(|_| anyhow!("line {n}: bad iteration count '{value}'"))?;
                iteration = Some(k);
                continue;
            }
            let (i, spec) = SearchParams::spec(name)
                .ok_or_else(|| anyhow!("line {n}: unknown parameter '{name}'"))?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| (f64::from(spec.min)..=f64::from(spec.max)).contains(v))
                .ok_or_else(|| anyhow!("line {n}: bad value '{value}' for '{name}'"))?;
            if values.iter().any(|&(j, _)| j == i) {
                bail!("line {n}: '{name}' given twice");
            }
            values.push((i, v));
        }
        let iteration = iteration.context("no 'iteration' line")?;
        Ok(SpsaState { iteration, values })
    }

    /// The search parameters these values give, rounded (the untuned ones built in).
    pub fn params(&self) -> SearchParams {
        params_at(&self.values)
    }
}

/// Search parameters with `values` (index, fractional value) rounded into their ranges.
fn params_at(values: &[(usize, f64)]) -> SearchParams {
    let mut all = SearchParams::DEFAULT.values();
    for &(i, v) in values {
        let spec = &SearchParams::SPECS[i];
        all[i] = (v.round() as i32).clamp(spec.min, spec.max);
    }
    SearchParams::from_values(&all).expect("values clamped into their ranges")
}

/// Iteration `k`'s perturbation signs (±1 per tuned parameter): from the seed and `k` alone,
/// so a resumed run draws what an unbroken one would.
fn signs(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut rng = Rng::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..count)
        .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
        .collect()
}

/// The two sets iteration `k` plays: the values moved by +c_k × sign and −c_k × sign.
fn perturbed(
    state: &SpsaState,
    cfg: &SpsaConfig,
    k: u64,
    signs: &[f64],
) -> (SearchParams, SearchParams) {
    let moved = |dir: f64| -> Vec<(usize, f64)> {
        state
            .values
            .iter()
            .zip(signs)
            .map(|(&(i, v), s)| {
                let (c, _) = gains(&SearchParams::SPECS[i], k, cfg.iterations, cfg.r_end);
                (i, v + dir * c * s)
            })
            .collect()
    };
    (params_at(&moved(1.0)), params_at(&moved(-1.0)))
}

/// Step the values after iteration `k`: `result` is the plus set's wins minus losses.
fn step(state: &mut SpsaState, cfg: &SpsaConfig, k: u64, signs: &[f64], result: f64) {
    for ((i, v), s) in state.values.iter_mut().zip(signs) {
        let spec = &SearchParams::SPECS[*i];
        let (c, a) = gains(spec, k, cfg.iterations, cfg.r_end);
        *v = (*v + a / c * result * s).clamp(f64::from(spec.min), f64::from(spec.max));
    }
    state.iteration = k;
}

/// Write `text` to `path` whole or not at all (a temporary file renamed over it).
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = beside(path, ".tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write '{}'", path.display()))
}

/// `path` with `suffix` appended to its name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Run (or resume) the tuning described by `cfg` with its state in `state_path`, a line of
/// progress per iteration to `out`.
pub fn run(cfg: &SpsaConfig, state_path: &Path, out: &mut dyn Write) -> Result<SpsaState> {
    let mut state = if state_path.exists() {
        let text = std::fs::read_to_string(state_path)
            .with_context(|| format!("cannot read '{}'", state_path.display()))?;
        let state = SpsaState::from_text(&text)
            .with_context(|| format!("'{}' is no spsa state", state_path.display()))?;
        let names = |ids: &mut dyn Iterator<Item = usize>| -> Vec<&str> {
            ids.map(|i| SearchParams::SPECS[i].name).collect()
        };
        let (had, want) = (
            names(&mut state.values.iter().map(|&(i, _)| i)),
            names(&mut cfg.tuned.iter().copied()),
        );
        if had != want {
            bail!(
                "'{}' tunes {} but --params asks for {}",
                state_path.display(),
                had.join(","),
                want.join(",")
            );
        }
        state
    } else {
        SpsaState::start(&cfg.tuned)
    };
    let plus_path = beside(state_path, ".plus");
    let minus_path = beside(state_path, ".minus");
    while state.iteration < cfg.iterations {
        let k = state.iteration + 1;
        let signs = signs(cfg.seed, k, state.values.len());
        let (plus, minus) = perturbed(&state, cfg, k, &signs);
        write_atomically(&plus_path, &plus.to_text())?;
        write_atomically(&minus_path, &minus.to_text())?;
        let engine = |name: &str, params: &Path| {
            let mut options = vec![
                ("usebook".to_string(), "false".to_string()),
                ("hashsize".to_string(), "16".to_string()),
            ];
            options.extend(cfg.options.iter().cloned());
            options.push(("searchparams".to_string(), params.display().to_string()));
            EngineSpec {
                name: name.to_string(),
                cmd: cfg.engine.display().to_string(),
                args: Vec::new(),
                dir: None,
                proto: Protocol::Ucci,
                options,
                tc: None,
            }
        };
        let mut match_cfg = MatchConfig {
            engines: vec![engine("plus", &plus_path), engine("minus", &minus_path)],
            shuffle: Some(cfg.seed.wrapping_add(k)),
            games: Some(2 * cfg.pairs),
            concurrency: cfg.concurrency,
            event: format!("chuhan spsa iteration {k}"),
            ..MatchConfig::default()
        };
        match_cfg.settings.tc = cfg.tc;
        let summary = run_match(&match_cfg, &mut std::io::sink())?;
        let tally = &summary.pairings[0].tally;
        let result = tally.wins as f64 - tally.losses as f64;
        step(&mut state, cfg, k, &signs, result);
        write_atomically(state_path, &state.to_text())?;
        write_atomically(&beside(state_path, ".params"), &state.params().to_text())?;
        let shown: Vec<String> = state
            .values
            .iter()
            .map(|&(i, v)| format!("{} {v:.1}", SearchParams::SPECS[i].name))
            .collect();
        writeln!(
            out,
            "iteration {k}/{}: plus W {} D {} L {} | {}",
            cfg.iterations,
            tally.wins,
            tally.draws,
            tally.losses,
            shown.join(", ")
        )?;
    }
    Ok(state)
}

/// Read the command line (after `spsa`) into the state file's path and the set-up.
pub fn parse_args(words: &[String]) -> Result<(PathBuf, SpsaConfig)> {
    let engine = std::env::current_exe().context("cannot tell where this program is")?;
    let mut cfg = SpsaConfig {
        tuned: (0..SearchParams::SPECS.len()).collect(),
        iterations: 1000,
        pairs: 1,
        tc: TimeControl::Nodes(20_000),
        concurrency: 2,
        options: Vec::new(),
        r_end: 0.002,
        seed: 1,
        engine,
    };
    let mut state = None;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Word(w) if state.is_none() => state = Some(PathBuf::from(w)),
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
            Arg::Flag("iterations") => cfg.iterations = args.number_in(1..)?,
            Arg::Flag("pairs") => cfg.pairs = args.number_in(1usize..)?.min(1000),
            Arg::Flag("concurrency") => cfg.concurrency = args.number_in(1usize..)?.min(256),
            Arg::Flag("seed") => cfg.seed = args.number_in(1..)?,
            Arg::Flag("tc") => cfg.tc = TimeControl::parse(args.value()?)?,
            Arg::Flag("engine") => cfg.engine = PathBuf::from(args.value()?),
            Arg::Flag("r-end") => {
                let in_unit = |r: &f64| r.is_finite() && *r > 0.0 && *r <= 1.0;
                cfg.r_end = args.number_where("more than 0, at most 1", in_unit)?
            }
            Arg::Flag("params") => {
                cfg.tuned = args
                    .value()?
                    .split(',')
                    .map(|name| {
                        SearchParams::spec(name.trim())
                            .map(|(i, _)| i)
                            .with_context(|| format!("unknown parameter '{name}'"))
                    })
                    .collect::<Result<_>>()?;
                let mut unique = cfg.tuned.clone();
                unique.sort_unstable();
                unique.dedup();
                if unique.len() != cfg.tuned.len() {
                    bail!("--params names a parameter twice");
                }
            }
            Arg::Flag("option") => {
                let value = args.value()?;
                let (name, v) = value
                    .split_once('=')
                    .with_context(|| format!("bad --option '{value}' (expected name=value)"))?;
                cfg.options.push((name.to_string(), v.to_string()));
            }
            Arg::Flag(_) => return Err(args.unknown()),
        }
    }
    let state = state.ok_or_else(|| args.fail("spsa needs a state file"))?;
    Ok((state, cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(tuned: &[&str]) -> SpsaConfig {
        let args: Vec<String> = ["state", "--params", &tuned.join(",")]
            .iter()
            .map(|s| s.to_string())
            .collect();
        parse_args(&args).unwrap().1
    }

    #[test]
    fn gains_end_at_the_declared_step_and_rate_and_shrink() {
        let (_, spec) = SearchParams::spec("rfp_margin").unwrap();
        let (c_end, a_end) = gains(spec, 500, 500, 0.002);
        assert!((c_end - f64::from(spec.step)).abs() < 1e-9);
        assert!((a_end / (c_end * c_end) - 0.002).abs() < 1e-12);
        let (c1, a1) = gains(spec, 1, 500, 0.002);
        assert!(c1 > c_end && a1 > a_end);
    }

    #[test]
    fn a_won_iteration_steps_toward_the_plus_side_within_the_range() {
        let cfg = config(&["rfp_margin", "lmr_base"]);
        let mut state = SpsaState::start(&cfg.tuned);
        let signs = [1.0, -1.0];
        let d = SearchParams::DEFAULT;
        let (plus, minus) = perturbed(&state, &cfg, 1, &signs);
        assert!(plus.rfp_margin > d.rfp_margin && minus.rfp_margin < d.rfp_margin);
        assert!(plus.lmr_base < d.lmr_base && minus.lmr_base > d.lmr_base);
        assert_eq!(plus.null_base, d.null_base, "untuned parameters stay");
        step(&mut state, &cfg, 1, &signs, 2.0);
        assert_eq!(state.iteration, 1);
        assert!(
            state.values[0].1 > f64::from(d.rfp_margin)
                && state.values[1].1 < f64::from(d.lmr_base)
        );
        // A draw moves nothing; a huge result stops at the range.
        let before = state.clone();
        step(&mut state, &cfg, 2, &signs, 0.0);
        assert_eq!(state.values, before.values);
        step(&mut state, &cfg, 3, &signs, 1e9);
        let (_, spec) = SearchParams::spec("rfp_margin").unwrap();
        assert_eq!(state.values[0].1, f64::from(spec.max));
        assert_eq!(state.params().rfp_margin, spec.max);
    }

    #[test]
    fn signs_are_balanced_and_repeatable() {
        let a = signs(7, 3, 1000);
        assert_eq!(a, signs(7, 3, 1000));
        assert_ne!(a, signs(7, 4, 1000));
        let plus = a.iter().filter(|&&s| s > 0.0).count();
        assert!((400..600).contains(&plus), "{plus}");
    }

    #[test]
    fn the_state_round_trips_and_bad_state_is_an_error() {
        let cfg = config(&["aspiration_delta", "qsearch_delta"]);
        let mut state = SpsaState::start(&cfg.tuned);
        state.iteration = 17;
        state.values[0].1 = 22.5;
        assert_eq!(SpsaState::from_text(&state.to_text()).unwrap(), state);
        assert_eq!(state.params().aspiration_delta, 23);
        for (text, says) in [
            ("rfp_margin 90\n", "no 'iteration' line"),
            ("iteration x\n", "line 1: bad iteration count"),
            ("iteration 1\nfoo 3\n", "line 2: unknown parameter 'foo'"),
            ("iteration 1\nrfp_margin 0\n", "line 2: bad value '0'"),
            ("iteration 1\nrfp_margin\n", "line 2: expected 'name value'"),
            (
                "iteration 1\nrfp_margin 90\nrfp_margin 91\n",
                "line 3: 'rfp_margin' given twice",
            ),
        ] {
            let err = SpsaState::from_text(text).unwrap_err().to_string();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_command_line_is_checked() {
        let parse = |s: &str| {
            let args: Vec<String> = s.split_whitespace().map(String::from).collect();
            parse_args(&args).map(|(_, c)| c)
        };
        let cfg = parse("s --iterations 50 --tc nodes=3000 --option usennue=false").unwrap();
        assert_eq!(cfg.iterations, 50);
        assert_eq!(cfg.tc, TimeControl::Nodes(3000));
        assert_eq!(cfg.tuned.len(), SearchParams::SPECS.len());
        assert_eq!(cfg.options, [("usennue".to_string(), "false".to_string())]);
        for bad in [
            "",
            "--iterations 5",
            "s --iterations",
            "s --iterations 0",
            "s --pairs -1",
            "s --params rfp_margin,nope",
            "s --params rfp_margin,rfp_margin",
            "s --tc fast",
            "s --r-end 2",
            "s --option usennue",
            "s --frobnicate 1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}

//! `chuhan train`: the NNUE trainer. It reads record files from `chuhan datagen`, trains the
//! float network of `nnue::float` on them with Adam on all threads, and after each epoch writes
//! the engine's quantised network and a float checkpoint to continue from.
//!
//! - `data`: the positions in memory (feature lists), the validation split, the target.
//! - `weights`: the starting weights and the ranges that keep the network quantisable.
//! - `gradient`: the output and the loss's gradient of one position, over its inputs only.
//! - `trainer`: batches cut into fixed slices over the threads (weights independent of the
//!   thread count); the validation loss.
//! - `adam`: the optimiser.
//! - `checkpoint`: the float checkpoint file.
//!
//! The loss is the mean of `(sigmoid(out) - target)²` with `target = wdl · result + (1 - wdl)
//! · sigmoid(score / 400)`, result 0, ½, 1 and score in centipawns, both from the side to move's
//! view, as bullet and nnue-pytorch do: `sigmoid(out)` is then the side to move's expected
//! result and `out · 400` the engine's score in centipawns.

pub mod adam;
pub mod checkpoint;
pub mod data;
pub mod gradient;
pub mod trainer;
pub mod weights;

use crate::board::rng::{splitmix64, Rng};
use crate::eval::nnue::float::FloatNetwork;
use crate::eval::nnue::Network;
use crate::tools::args::{number, number_in, number_where, Arg, Args};
use crate::tools::datagen::files::Output;
use anyhow::{bail, Context, Result};
use checkpoint::{Checkpoint, DataId, Recipe};
use std::io::Write;
use std::ops::Bound::{Excluded, Included};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use trainer::{Trainer, SLICES};

/// `chuhan train …` usage.
pub const USAGE: &str = "usage: chuhan train --out DIR [options] FILE...
  trains the network on record files from chuhan datagen; after each epoch N writes
  DIR/epoch-N.nnue (the engine's network, for EvalFile) and DIR/epoch-N.ckpt (float weights
  and Adam state, for --resume). Loss: mean of (sigmoid(out) - target)^2 with
  target = wdl * result + (1 - wdl) * sigmoid(score / 400), from the side to move's view.
  --out DIR          where to write (created if missing; existing files are never overwritten)
  --epochs N         epochs in all, resumed ones included (default 10)
  --batch N          positions per Adam step (default 16384)
  --lr X             learning rate of Adam (default 0.001)
  --lr-drop-epoch N  multiply the rate by --lr-gamma after every N epochs (default 8; 0 never)
  --lr-gamma X       (default 0.3)
  --wdl X            weight of the game result in the target, 0..1 (default 0.3)
  --val-fraction X   share of the positions held out for validation, chosen by position,
                     0 to under 1 (default 0.01)
  --seed S           seed of the starting weights and of each epoch's order (default 1)
  --threads N        1..32 (default: all cores); the weights do not depend on it
  --init NET         start from the weights of a network file (e.g. the shipped one, to
                     fine-tune it on new data) instead of random ones; not with --resume
  --resume FILE      continue from a checkpoint, on the same files: the run ends with the
                     weights an uninterrupted one has; the settings are the checkpoint's";

/// Seconds between two progress lines within an epoch.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The defaults of the settings a checkpoint records.
const DEFAULT_RECIPE: Recipe = Recipe {
    seed: 1,
    batch: 16_384,
    lr: 0.001,
    lr_drop_epoch: 8,
    lr_gamma: 0.3,
    wdl: 0.3,
    validation_fraction: 0.01,
};

/// What the command line asked.
#[derive(Debug, PartialEq)]
struct Request {
    out: PathBuf,
    files: Vec<PathBuf>,
    epochs: u32,
    threads: usize,
    resume: Option<PathBuf>,
    /// A network file whose weights start the run (`--init`).
    init: Option<PathBuf>,
    /// The recipe options given, each with its text, on top of the defaults or the checkpoint.
    given: Vec<(&'static str, String)>,
}

/// The recipe options, by name.
const RECIPE_OPTIONS: [&str; 7] = [
    "--seed",
    "--batch",
    "--lr",
    "--lr-drop-epoch",
    "--lr-gamma",
    "--wdl",
    "--val-fraction",
];

/// Set a recipe option in `r`, checking its value.
fn set_recipe(r: &mut Recipe, name: &str, text: &str) -> Result<()> {
    match name {
        "--seed" => r.seed = number(name, text)?,
        "--batch" => r.batch = number_in(name, text, 1..)?,
        "--lr" => {
            let positive = |v: &f32| *v > 0.0 && v.is_finite();
            r.lr = number_where(name, text, "a positive number", positive)?
        }
        "--lr-drop-epoch" => r.lr_drop_epoch = number(name, text)?,
        "--lr-gamma" => r.lr_gamma = number_in(name, text, (Excluded(0.0), Included(1.0)))?,
        "--wdl" => r.wdl = number_in(name, text, 0.0..=1.0)?,
        "--val-fraction" => r.validation_fraction = number_in(name, text, 0.0..1.0)?,
        _ => bail!("unknown train option '{name}'\n{USAGE}"),
    }
    Ok(())
}

fn parse(words: &[String]) -> Result<Request> {
    let mut r = Request {
        out: PathBuf::new(),
        files: Vec::new(),
        epochs: 10,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(SLICES)),
        resume: None,
        init: None,
        given: Vec::new(),
    };
    let mut out = None;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Word(file) => r.files.push(PathBuf::from(file)),
            Arg::Flag("out") => out = Some(PathBuf::from(args.value()?)),
            Arg::Flag("epochs") => r.epochs = args.number_in(1..)?,
            Arg::Flag("threads") => r.threads = args.number_in(1..=SLICES)?,
            Arg::Flag("resume") => r.resume = Some(PathBuf::from(args.value()?)),
            Arg::Flag("init") => r.init = Some(PathBuf::from(args.value()?)),
            Arg::Flag(flag) => {
                let name = RECIPE_OPTIONS
                    .into_iter()
                    .find(|o| o[2..] == *flag)
                    .ok_or_else(|| args.unknown())?;
                let value = args.value()?;
                // Checked now, so a bad value is refused before anything is loaded.
                let mut scratch = DEFAULT_RECIPE;
                set_recipe(&mut scratch, name, value)?;
                r.given.push((name, value.to_string()));
            }
        }
    }
    r.out = out.with_context(|| format!("train needs --out DIR\n{USAGE}"))?;
    if r.files.is_empty() {
        bail!("train needs at least one record file\n{USAGE}");
    }
    if r.init.is_some() && r.resume.is_some() {
        bail!("--init starts a run and --resume continues one: give one of them\n{USAGE}");
    }
    Ok(r)
}

/// The recipe of a run: the defaults or the checkpoint's, with the options given. A resumed run
/// must keep its checkpoint's settings.
fn recipe(request: &Request, resumed: Option<&Checkpoint>) -> Result<Recipe> {
    let base = resumed.map_or(DEFAULT_RECIPE, |c| c.recipe);
    let mut r = base;
    for (name, text) in &request.given {
        set_recipe(&mut r, name, text)?;
        if resumed.is_some() && r != base {
            bail!(
                "{name} {text} differs from the checkpoint's setting: a resumed run keeps the \
                 settings it was started with"
            );
        }
    }
    Ok(r)
}

/// The files epoch `epoch` writes: the network and the checkpoint.
fn epoch_files(dir: &Path, epoch: u32) -> [PathBuf; 2] {
    [
        dir.join(format!("epoch-{epoch}.nnue")),
        dir.join(format!("epoch-{epoch}.ckpt")),
    ]
}

/// The order of the training positions in epoch `epoch`: a shuffle drawn from the seed and the
/// epoch alone.
fn epoch_order(len: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    Rng::new(splitmix64(seed ^ u64::from(epoch).rotate_left(32)).1).shuffle(&mut order);
    order
}

/// A loss for a progress line ("-" when there is none).
fn loss_text(loss: Option<f64>) -> String {
    loss.map_or_else(|| "-".to_string(), |l| format!("{l:.6}"))
}

/// Run `chuhan train` with its arguments (after `train`).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<()> {
    if args.first().is_some_and(|a| a == "help") {
        writeln!(out, "{USAGE}")?;
        return Ok(());
    }
    let request = parse(args)?;
    let resumed = match &request.resume {
        Some(path) => Some(Checkpoint::read(path)?),
        None => None,
    };
    let recipe = recipe(&request, resumed.as_ref())?;
    let init = match &request.init {
        Some(path) => {
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read network file '{}'", path.display()))?;
            let net = Network::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("network file '{}' {e}", path.display()))?;
            Some(FloatNetwork::from_quantised(&net))
        }
        None => None,
    };
    let done = resumed.as_ref().map_or(0, |c| c.epochs);
    if request.epochs <= done {
        bail!(
            "the checkpoint has {done} epochs done; ask for more with --epochs (now {})",
            request.epochs
        );
    }
    std::fs::create_dir_all(&request.out)
        .with_context(|| format!("cannot create '{}'", request.out.display()))?;
    for epoch in done + 1..=request.epochs {
        for path in epoch_files(&request.out, epoch) {
            if path.exists() {
                bail!("'{}' exists; not overwriting it", path.display());
            }
        }
    }

    let start = Instant::now();
    let loaded = data::load(&request.files, recipe.validation_fraction, request.threads)?;
    let (train, validation) = (&loaded.train, &loaded.validation);
    let data_id = DataId {
        records: (train.len() + validation.len()) as u64,
        fingerprint: loaded.fingerprint,
    };
    if let Some(c) = &resumed {
        if c.data != data_id {
            bail!(
                "the files are not the checkpoint's data ({} records here, {} there, or other \
                 records): a resumed run needs the same files in the same order",
                data_id.records,
                c.data.records
            );
        }
    }
    if train.is_empty() {
        bail!(
            "no positions left to train on ({} held out for validation)",
            validation.len()
        );
    }
    writeln!(
        out,
        "train: {} positions from {} files ({} to train on, {} held out), loaded in {:.1} s; \
         network {}; batch {}, {} threads, seed {}, wdl {}",
        data_id.records,
        request.files.len(),
        train.len(),
        validation.len(),
        start.elapsed().as_secs_f64(),
        crate::eval::nnue::architecture(),
        recipe.batch,
        request.threads,
        recipe.seed,
        recipe.wdl
    )?;

    let mut trainer = match resumed {
        Some(c) => Trainer::new(c.net, c.adam, request.threads),
        None => Trainer::new(
            init.unwrap_or_else(|| weights::initial(recipe.seed)),
            adam::Adam::default(),
            request.threads,
        ),
    };
    if done == 0 {
        let val = trainer.mean_loss(validation, recipe.wdl);
        writeln!(out, "epoch 0: val loss {}", loss_text(val))?;
    }
    for epoch in done + 1..=request.epochs {
        let began = Instant::now();
        let (train_loss, speed) = train_epoch(&mut trainer, train, &recipe, epoch, request.epochs)?;
        let val = trainer.mean_loss(validation, recipe.wdl);
        let nnue = write_epoch(&trainer, recipe, data_id, epoch, &request.out)?;
        writeln!(
            out,
            "epoch {epoch}/{}: train loss {train_loss:.6}, val loss {}, lr {}, {speed:.0} \
             positions/s, {:.1} s; wrote {}",
            request.epochs,
            loss_text(val),
            recipe.lr_at(epoch),
            began.elapsed().as_secs_f64(),
            nnue.display()
        )?;
        out.flush()?;
    }
    Ok(())
}

/// Train epoch `epoch` (of `epochs`) over `train`, with a progress line on stderr every
/// `PROGRESS_EVERY`. Returns the mean training loss and the positions per second.
fn train_epoch(
    trainer: &mut Trainer,
    train: &data::Dataset,
    recipe: &Recipe,
    epoch: u32,
    epochs: u32,
) -> Result<(f64, f64)> {
    let lr = recipe.lr_at(epoch);
    let order = epoch_order(train.len(), recipe.seed, epoch);
    let began = Instant::now();
    let mut last = began;
    let (mut loss_sum, mut seen) = (0.0f64, 0usize);
    for (b, batch) in order.chunks(recipe.batch as usize).enumerate() {
        let loss = trainer.step(train, batch, recipe.wdl, lr);
        // A guard: clipped weights keep the loss finite unless something is badly wrong.
        if !loss.is_finite() {
            bail!(
                "training diverged in epoch {epoch}, step {} (the loss is {loss})",
                b + 1
            );
        }
        loss_sum += loss;
        seen += batch.len();
        if last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            eprintln!(
                "epoch {epoch}/{epochs}: {:.0}% ({seen} positions), {:.0} positions/s, \
                 train loss {:.6}",
                100.0 * seen as f64 / train.len() as f64,
                seen as f64 / began.elapsed().as_secs_f64(),
                loss_sum / seen as f64
            );
        }
    }
    let speed = seen as f64 / began.elapsed().as_secs_f64().max(1e-9);
    Ok((loss_sum / seen.max(1) as f64, speed))
}

/// Write epoch `epoch`'s network and checkpoint into `dir`; returns the network's path.
fn write_epoch(
    trainer: &Trainer,
    recipe: Recipe,
    data: DataId,
    epoch: u32,
    dir: &Path,
) -> Result<PathBuf> {
    let [nnue, ckpt] = epoch_files(dir, epoch);
    let network = trainer
        .net
        .quantise()
        .map_err(|e| anyhow::anyhow!("the trained network cannot be quantised: it {e}"))?;
    let mut file = Output::create(&nnue)?;
    file.write(&network.to_bytes())?;
    file.finish()?;
    Checkpoint {
        recipe,
        data,
        epochs: epoch,
        net: trainer.net.clone(),
        adam: trainer.adam.clone(),
    }
    .write(&ckpt)?;
    Ok(nnue)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options_are_parsed() {
        let r = parse(&args(
            "a.bin --out nets --epochs 3 --batch 512 --lr 0.01 --lr-drop-epoch 2 --lr-gamma 0.5 \
             --wdl 0.4 --val-fraction 0.05 --seed 9 --threads 2 b.bin",
        ))
        .unwrap();
        assert_eq!(r.out, PathBuf::from("nets"));
        assert_eq!(r.files, [PathBuf::from("a.bin"), PathBuf::from("b.bin")]);
        assert_eq!((r.epochs, r.threads, &r.resume), (3, 2, &None));
        let got = recipe(&r, None).unwrap();
        let want = Recipe {
            seed: 9,
            batch: 512,
            lr: 0.01,
            lr_drop_epoch: 2,
            lr_gamma: 0.5,
            wdl: 0.4,
            validation_fraction: 0.05,
        };
        assert_eq!(got, want);
        let d = parse(&args("--out x f")).unwrap();
        assert_eq!(recipe(&d, None).unwrap(), DEFAULT_RECIPE);
        assert_eq!(d.epochs, 10);
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            "",
            "f.bin",
            "--out x",
            "--out x f --epochs 0",
            "--out x f --batch 0",
            "--out x f --batch many",
            "--out x f --lr 0",
            "--out x f --lr -1",
            "--out x f --lr inf",
            "--out x f --wdl 1.5",
            "--out x f --lr-gamma 0",
            "--out x f --val-fraction 1",
            "--out x f --threads 0",
            "--out x f --threads 33",
            "--out x f --frobnicate 1",
            "--out x f --seed",
        ] {
            assert!(parse(&args(bad)).is_err(), "'{bad}'");
        }
    }

    #[test]
    fn a_resumed_run_keeps_the_checkpoints_settings() {
        let c = Checkpoint {
            recipe: Recipe {
                lr: 0.01,
                ..DEFAULT_RECIPE
            },
            data: DataId {
                records: 1,
                fingerprint: 2,
            },
            epochs: 1,
            net: weights::initial(1),
            adam: adam::Adam::default(),
        };
        let same = parse(&args("--out x f --resume c --lr 0.01 --seed 1")).unwrap();
        assert_eq!(recipe(&same, Some(&c)).unwrap().lr, 0.01);
        let other = parse(&args("--out x f --resume c --wdl 0.9")).unwrap();
        let err = recipe(&other, Some(&c)).unwrap_err().to_string();
        assert!(err.contains("--wdl 0.9 differs"), "{err}");
    }

    #[test]
    fn each_epoch_has_its_own_order() {
        let a = epoch_order(1000, 1, 1);
        assert_eq!(a, epoch_order(1000, 1, 1));
        assert_ne!(a, epoch_order(1000, 1, 2));
        assert_ne!(a, epoch_order(1000, 2, 1));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
    }
}

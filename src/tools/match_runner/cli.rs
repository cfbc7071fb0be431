//! `chuhan match` arguments → `MatchConfig`. Options follow cutechess-cli's style (`-engine
//! key=value …`), which its users know, read by `tools::args` like every other subcommand's
//! (so with one dash or two).

use super::clock::TimeControl;
use super::engine_process::{EngineSpec, Protocol};
use super::game::{Adjudication, GameSettings, DEFAULT_UNTIMED_TIMEOUT};
use super::referee::RuleChoice;
use super::stats::{EloModel, Sprt};
use super::{MatchConfig, Shard};
use crate::board::notation::Notation;
use crate::tools::args::{number, number_in, Arg, Args};
use anyhow::{anyhow, bail, Result};
use std::path::PathBuf;

/// Usage text.
pub const USAGE: &str = "\
usage: chuhan match -engine cmd=PATH [name=N] [proto=ucci|uci|xboard] [arg=A]... [dir=D] [option.NAME=V]... [tc=TC]
                    -engine ... [-engine ...] [options]
  proto=xboard           CECP (WinBoard/XBoard) engines such as MaxQi: no node limit unless the
                         engine announces nps=1, st in whole seconds, FEN openings only with
                         setboard=1
  arg=A                  one argument for cmd, repeatable, passed in order (-each's first):
                         cmd=wine arg=chuhan.exe runs a Windows engine under Wine
  -each KEY=V ...        applied to every engine (an engine's own keys win)
  -tc 10+0.1 | st=1 | depth=8 | nodes=20000
                         base+increment in seconds; fixed seconds per move; fixed depth; nodes
                         (default 10+0.1)
  -margin MS             overrun allowed on a timed move before it is forfeit (default 100,
                         at most 3600000)
  -timeout S             longest wait for a depth/nodes move (default 60)
  -openings FILE         FENs/EPD or move lines, one a line (default: the built-in set)
  -shuffle SEED          shuffle the openings
  -games N               games per pairing, rounded up to pairs, at most 1000000 (default:
                         2 x openings; with -sprt: until the SPRT decides, at most 100000)
  -rules chinese|asian|draw   repetition rules of the referee (default chinese)
  -concurrency N         games at once, 1 to 1024 (default: cores - 1)
  -gauntlet              the first engine plays each of the others only (default: round robin)
  -shard K/N             play only part K of N of the schedule: the game pairs p with
                         p mod N = K-1; N runs, anywhere, play the whole tournament once
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]
                         stop early when the test decides (two engines only)
  -resign movecount=N score=CP            adjudicate a win both engines agree on (off)
  -draw movenumber=N movecount=N score=CP adjudicate a draw both engines agree on (off)
  -pgnout FILE           write every game as PGN (appends)
  -notation iccs|wxf     move notation in the PGN (default iccs)
  -event NAME            PGN Event tag (default \"chuhan match\")
Engines are started once per worker and reused across games; faulty ones are restarted.
chuhan match rate [-anchor NAME=RATING] FILE.pgn...   a rating list from PGN files";

/// `key=value` words (`cmd=PATH`, `elo0=5`) as pairs; a word without `=` has an empty value.
fn key_values(words: Vec<&str>) -> impl Iterator<Item = (&str, &str)> {
    words
        .into_iter()
        .map(|w| w.split_once('=').unwrap_or((w, "")))
}

/// Most games per pairing.
pub const MAX_GAMES: usize = 1_000_000;

/// Most games at once.
pub const MAX_CONCURRENCY: usize = 1024;

/// Largest overrun margin, ms (an hour).
pub const MAX_MARGIN_MS: u64 = 3_600_000;

/// Largest |elo0|, |elo1| of an SPRT.
pub const MAX_SPRT_ELO: f64 = 1000.0;

#[derive(Default)]
struct EngineDraft {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    proto: Option<Protocol>,
    options: Vec<(String, String)>,
    tc: Option<TimeControl>,
}

impl EngineDraft {
    fn apply(&mut self, key: &str, val: &str) -> Result<()> {
        match key {
            "name" => self.name = Some(val.to_string()),
            "cmd" => self.cmd = Some(val.to_string()),
            "arg" => self.args.push(val.to_string()),
            "dir" => self.dir = Some(PathBuf::from(val)),
            "proto" => self.proto = Some(val.parse()?),
            "tc" => self.tc = Some(TimeControl::parse(val)?),
            k if k.starts_with("option.") => self
                .options
                .push((k["option.".len()..].to_string(), val.to_string())),
            _ => bail!("unknown engine key '{key}'"),
        }
        Ok(())
    }
}

/// Parse the arguments after `match`.
pub fn parse_args(words: &[String]) -> Result<MatchConfig> {
    let mut drafts: Vec<EngineDraft> = Vec::new();
    let mut each = EngineDraft::default();
    let mut tc = TimeControl::Increment {
        base_ms: 10_000,
        inc_ms: 100,
    };
    let mut margin_ms = 100;
    let mut untimed_timeout_ms = DEFAULT_UNTIMED_TIMEOUT.as_millis() as u64;
    let mut rules = RuleChoice::Chinese;
    let mut adjudication = Adjudication::default();
    let mut cfg = MatchConfig::default();
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        let flag = match arg {
            Arg::Flag(flag) => flag,
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
        };
        match flag {
            "engine" => {
                let mut d = EngineDraft::default();
                for (k, v) in key_values(args.group()) {
                    d.apply(k, v)?;
                }
                drafts.push(d);
            }
            "each" => {
                for (k, v) in key_values(args.group()) {
                    each.apply(k, v)?;
                }
            }
            "tc" => tc = TimeControl::parse(args.value()?)?,
            "margin" => margin_ms = args.number_in(0..=MAX_MARGIN_MS)?,
            "timeout" => {
                untimed_timeout_ms = super::clock::seconds_to_ms(args.value()?)?;
                if untimed_timeout_ms == 0 {
                    bail!("-timeout must be more than 0 seconds");
                }
            }
            "openings" => cfg.openings = Some(PathBuf::from(args.value()?)),
            "shuffle" => cfg.shuffle = Some(args.number()?),
            "games" => cfg.games = Some(args.number_in(1..=MAX_GAMES)?),
            "rules" => rules = args.value()?.parse()?,
            "gauntlet" => cfg.gauntlet = true,
            "shard" => cfg.shard = Shard::parse(args.value()?)?,
            "concurrency" => cfg.concurrency = args.number_in(1..=MAX_CONCURRENCY)?,
            "sprt" => {
                let mut s = Sprt {
                    elo0: 0.0,
                    elo1: 5.0,
                    alpha: 0.05,
                    beta: 0.05,
                    model: EloModel::Logistic,
                };
                for (k, v) in key_values(args.group()) {
                    match k {
                        "elo0" => s.elo0 = number(k, v)?,
                        "elo1" => s.elo1 = number(k, v)?,
                        "alpha" => s.alpha = number(k, v)?,
                        "beta" => s.beta = number(k, v)?,
                        "model" => s.model = v.parse()?,
                        _ => bail!("unknown -sprt key '{k}'"),
                    }
                }
                let ok = |p: f64| p > 0.0 && p < 0.5;
                let elo_ok = |e: f64| e.abs() <= MAX_SPRT_ELO;
                let elos_ok = s.elo1 > s.elo0 && elo_ok(s.elo0) && elo_ok(s.elo1);
                if !(elos_ok && ok(s.alpha) && ok(s.beta)) {
                    bail!(
                        "-sprt needs elo0 < elo1 within ±{MAX_SPRT_ELO} and 0 < alpha, beta < 0.5"
                    );
                }
                cfg.sprt = Some(s);
            }
            "resign" => {
                let (mut count, mut score) = (None, None);
                for (k, v) in key_values(args.group()) {
                    match k {
                        "movecount" => count = Some(number_in(k, v, 1..)?),
                        "score" => score = Some(number(k, v)?),
                        _ => bail!("unknown -resign key '{k}'"),
                    }
                }
                match (count, score) {
                    (Some(c), Some(s)) => adjudication.resign = Some((c, s)),
                    _ => bail!("-resign needs movecount=N score=CP"),
                }
            }
            "draw" => {
                let (mut from, mut count, mut score) = (0, None, None);
                for (k, v) in key_values(args.group()) {
                    match k {
                        "movenumber" => from = number(k, v)?,
                        "movecount" => count = Some(number_in(k, v, 1..)?),
                        "score" => score = Some(number(k, v)?),
                        _ => bail!("unknown -draw key '{k}'"),
                    }
                }
                match (count, score) {
                    (Some(c), Some(s)) => adjudication.draw = Some((from, c, s)),
                    _ => bail!("-draw needs movenumber=N movecount=N score=CP"),
                }
            }
            "pgnout" => cfg.pgn_out = Some(PathBuf::from(args.value()?)),
            "notation" => {
                cfg.notation = args
                    .value()?
                    .parse::<Notation>()
                    .map_err(anyhow::Error::msg)?
            }
            "event" => cfg.event = args.value()?.to_string(),
            _ => return Err(args.unknown()),
        }
    }
    if drafts.len() < 2 {
        return Err(args.fail("need at least two -engine"));
    }
    let mut names: Vec<String> = Vec::new();
    for d in drafts {
        let cmd = d
            .cmd
            .or_else(|| each.cmd.clone())
            .ok_or_else(|| anyhow!("every -engine needs cmd=PATH"))?;
        let base = d.name.unwrap_or_else(|| {
            std::path::Path::new(&cmd)
                .file_name()
                .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
        });
        let mut name = base.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{base}#{k}");
            k += 1;
        }
        names.push(name.clone());
        let mut options = each.options.clone();
        options.retain(|(n, _)| !d.options.iter().any(|(m, _)| m.eq_ignore_ascii_case(n)));
        options.extend(d.options);
        let mut engine_args = each.args.clone();
        engine_args.extend(d.args);
        cfg.engines.push(EngineSpec {
            name,
            cmd,
            args: engine_args,
            dir: d.dir.or_else(|| each.dir.clone()),
            proto: d.proto.or(each.proto).unwrap_or(Protocol::Ucci),
            options,
            tc: d.tc.or(each.tc),
        });
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        bail!("-sprt needs exactly two engines");
    }
    if cfg.sprt.is_some() && cfg.shard != Shard::WHOLE {
        bail!("-sprt cannot be sharded (each shard would stop on its own part)");
    }
    cfg.settings = GameSettings {
        tc,
        margin_ms,
        untimed_timeout_ms,
        rules,
        adjudication,
    };
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_a_full_command_line() {
        let xb = parse_args(&args(
            "-engine cmd=a proto=xboard -engine cmd=b proto=XBoard",
        ))
        .unwrap();
        assert!(xb.engines.iter().all(|e| e.proto == Protocol::Xboard));
        assert!(parse_args(&args("-engine cmd=a proto=cecp2 -engine cmd=b")).is_err());
        let cfg = parse_args(&args(
            "-engine cmd=/bin/new name=new option.Hash=64 -engine cmd=/x/old proto=uci \
             -each option.Threads=1 option.Hash=16 -tc 5+0.05 -games 10 -concurrency 3 \
             -sprt elo0=0 elo1=10 model=normalized -rules asian -resign movecount=3 score=800 \
             -draw movenumber=30 movecount=6 score=5 --pgnout out.pgn -notation wxf",
        ))
        .unwrap();
        assert_eq!(cfg.engines.len(), 2);
        let (a, b) = (&cfg.engines[0], &cfg.engines[1]);
        assert_eq!((a.name.as_str(), a.proto), ("new", Protocol::Ucci));
        assert_eq!((b.name.as_str(), b.proto), ("old", Protocol::Uci));
        assert_eq!(
            a.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(b.options.len(), 2);
        assert_eq!(cfg.games, Some(10));
        assert_eq!(cfg.concurrency, 3);
        assert_eq!(cfg.sprt.unwrap().model, EloModel::Normalized);
        assert_eq!(cfg.settings.rules, RuleChoice::Asian);
        assert_eq!(cfg.settings.adjudication.resign, Some((3, 800)));
        assert_eq!(cfg.settings.adjudication.draw, Some((30, 6, 5)));
        assert_eq!(cfg.notation, Notation::Wxf);
        assert_eq!(cfg.pgn_out, Some(PathBuf::from("out.pgn")));
        assert!(!cfg.gauntlet);
        assert_eq!(cfg.shard, Shard::WHOLE);
        let cfg = parse_args(&args(
            "-engine cmd=a -engine cmd=b -engine cmd=c -gauntlet -shard 2/5",
        ))
        .unwrap();
        assert!(cfg.gauntlet);
        assert_eq!(cfg.shard, Shard { k: 2, n: 5 });
    }

    #[test]
    fn engine_arguments_are_kept_in_order() {
        // One argument per `arg=`, whole (spaces and `=` included), -each's before the engine's.
        let line = [
            "-engine",
            "cmd=wine",
            "arg=C:\\Program Files\\chuhan.exe",
            "arg=--x=1",
            "-engine",
            "cmd=/bin/chuhan",
            "-each",
            "arg=-v",
        ];
        let cfg = parse_args(&line.map(str::to_string)).unwrap();
        let (a, b) = (&cfg.engines[0], &cfg.engines[1]);
        assert_eq!((a.cmd.as_str(), a.name.as_str()), ("wine", "wine"));
        assert_eq!(a.args, ["-v", "C:\\Program Files\\chuhan.exe", "--x=1"]);
        assert_eq!(
            (b.cmd.as_str(), b.args.as_slice()),
            ("/bin/chuhan", &["-v".to_string()][..])
        );
    }

    #[test]
    fn rejects_bad_lines() {
        assert!(parse_args(&args("-engine cmd=a")).is_err());
        assert!(parse_args(&args("-engine cmd=a -engine name=b")).is_err());
        assert!(parse_args(&args("-engine cmd=a -engine cmd=b -tc fast")).is_err());
        let per_engine = parse_args(&args(
            "-engine cmd=a tc=depth=4 -engine cmd=b -tc nodes=900",
        ))
        .unwrap();
        assert_eq!(per_engine.engines[0].tc, Some(TimeControl::Depth(4)));
        assert_eq!(per_engine.engines[1].tc, None);
        assert!(parse_args(&args("-engine cmd=a tc=depth=0 -engine cmd=b")).is_err());
        assert!(parse_args(&args("-engine cmd=a -engine cmd=b -sprt elo0=5 elo1=0")).is_err());
        assert!(parse_args(&args(
            "-engine cmd=a -engine cmd=b -engine cmd=c -sprt elo1=5"
        ))
        .is_err());
        assert!(parse_args(&args("-engine cmd=a bogus=1 -engine cmd=b")).is_err());
        // Numbers out of range, each once a panic (overflow) or silently replaced.
        for bad in [
            "-games 0",
            "-games 18446744073709551615",
            "-concurrency 0",
            "-concurrency 1025",
            "-margin 3600001",
            "-timeout 0",
            "-timeout -1",
            "-timeout inf",
            "-sprt elo0=0 elo1=inf",
            "-sprt elo0=-1001 elo1=0",
            "-shard 0/2",
            "-shard 3/2",
            "-shard 1/0",
            "-shard two",
            "-shard",
            "-shard 1/2 -sprt elo1=5",
        ] {
            let line = format!("-engine cmd=a -engine cmd=b {bad}");
            assert!(parse_args(&args(&line)).is_err(), "{bad}");
        }
        let most = parse_args(&args(
            "-engine cmd=a -engine cmd=b -games 1000000 -concurrency 1024 -margin 3600000 \
             -timeout 1000000",
        ))
        .unwrap();
        assert_eq!(most.games, Some(MAX_GAMES));
        assert_eq!(most.settings.untimed_timeout_ms, 1_000_000_000);
        // Same command twice: distinct names.
        let cfg = parse_args(&args("-engine cmd=/p/eng -engine cmd=/p/eng")).unwrap();
        assert_eq!(cfg.engines[0].name, "eng");
        assert_eq!(cfg.engines[1].name, "eng#2");
    }
}

//! Engine processes, client side: spawn a command, speak UCCI or UCI to it over pipes, wait for
//! answers with deadlines, and always reap it.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so every wait
//! has a deadline (`recv_timeout`) and the end of the pipe shows as a closed channel (crash).
//! An engine may print without end (`info` lines and never `bestmove`; `yes`), so the reader is
//! bounded: lines are cut at `MAX_LINE_BYTES`, the channel holds `LINE_QUEUE` lines (a full
//! queue stalls the reader and so the engine's pipe, not our memory), and a line stamped after
//! the deadline counts as no answer, so a deadline fires however much the engine prints.
//! Every live child is also kept in a process-wide registry so a Ctrl-C handler can kill them
//! all (`kill_all`); `Drop` sends `quit`, waits briefly, then kills and reaps.

use super::clock::{MoveLimits, TimeControl};
use crate::board::types::Color;
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError};
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI (xqbase / ElephantEye).
    Ucci,
    /// UCI (Pikafish style).
    Uci,
}

impl std::str::FromStr for Protocol {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "ucci" => Ok(Protocol::Ucci),
            "uci" => Ok(Protocol::Uci),
            _ => Err(anyhow::anyhow!("unknown protocol '{s}' (ucci or uci)")),
        }
    }
}

/// How to run one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (PGN `Red`/`Black`).
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not ours.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub proto: Protocol,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its own time control, overriding the match's `-tc` (e.g. two depths of one engine).
    pub tc: Option<TimeControl>,
}

/// Why an engine let us down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// Could not be started, or its pipes closed (exited).
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
}

impl std::fmt::Display for EngineFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFault::Crashed(why) => write!(f, "crashed ({why})"),
            EngineFault::Timeout => write!(f, "did not answer in time"),
        }
    }
}

impl Protocol {
    /// The `go` command for `limits`. UCI: `go wtime W btime B winc I binc I`. UCCI:
    /// `go time T increment I opptime O oppincrement I` (ms: the handshake sets `usemillisec`),
    /// and a fixed move time as `go time T movestogo 1` (UCCI has no `movetime`).
    pub fn go_command(self, limits: MoveLimits) -> String {
        match (limits, self) {
            (MoveLimits::Depth(d), _) => format!("go depth {d}"),
            (MoveLimits::Nodes(n), _) => format!("go nodes {n}"),
            (MoveLimits::MoveTime(ms), Protocol::Uci) => format!("go movetime {ms}"),
            (MoveLimits::MoveTime(ms), Protocol::Ucci) => format!("go time {ms} movestogo 1"),
            (
                MoveLimits::Clocks {
                    time_ms, inc_ms, ..
                },
                Protocol::Uci,
            ) => {
                let (red, black) = (Color::Red.index(), Color::Black.index());
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    time_ms[red], time_ms[black], inc_ms[red], inc_ms[black]
                )
            }
            (
                MoveLimits::Clocks {
                    side,
                    time_ms,
                    inc_ms,
                },
                Protocol::Ucci,
            ) => {
                let (own, opp) = (side.index(), side.flip().index());
                format!(
                    "go time {} increment {} opptime {} oppincrement {}",
                    time_ms[own], inc_ms[own], time_ms[opp], inc_ms[opp]
                )
            }
        }
    }
}

/// A score as an engine reported it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCCI's bare score is read as centipawns too).
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

/// A mate score in centipawns (`Score::as_cp`).
pub const MATE_CP: i32 = 30_000;

/// Mates further than this are counted as this far.
const MAX_MATE_MOVES: i32 = 1_000;

impl Score {
    /// As centipawns, mate scores as ±(30000 - |N|), always within ±30000 whatever the engine
    /// reported (so negating or comparing it cannot overflow).
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c.clamp(-MATE_CP, MATE_CP),
            Score::Mate(n) if n > 0 => MATE_CP - n.min(MAX_MATE_MOVES),
            Score::Mate(n) => -MATE_CP - n.max(-MAX_MATE_MOVES),
        }
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The move text (`None`: `nobestmove` or `bestmove (none)`).
    pub mv: Option<String>,
    /// The last score reported.
    pub score: Option<Score>,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// The engine resigned (UCCI `bestmove m resign`).
    pub resign: bool,
    /// How long it took, measured by us.
    pub elapsed: Duration,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static REGISTRY: Lazy<Mutex<HashMap<u64, Arc<Mutex<Child>>>>> =
    Lazy::new(|| Mutex::new(HashMap::new()));

/// Kill every engine process still alive (the Ctrl-C handler calls this). Returns how many.
pub fn kill_all() -> usize {
    let children: Vec<Arc<Mutex<Child>>> = REGISTRY.lock().drain().map(|(_, c)| c).collect();
    for c in &children {
        let mut child = c.lock();
        let _ = child.kill();
        let _ = child.wait();
    }
    children.len()
}

/// Number of engine processes alive (registered and not yet reaped).
pub fn live_count() -> usize {
    REGISTRY.lock().len()
}

/// A running engine.
pub struct EngineProcess {
    spec: EngineSpec,
    id: u64,
    child: Arc<Mutex<Child>>,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// The name the engine gave in `id name`.
    id_name: Option<String>,
    /// False after a fault that may leave it out of step (a timeout it did not recover from).
    healthy: bool,
}

/// How long the handshake and `isready` may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line kept from an engine; the rest of a longer line is discarded.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines queued between the reader thread and the game.
const LINE_QUEUE: usize = 256;

/// Read one line into `line` (without its `\n` or `\r\n`), keeping at most `cap` bytes of it
/// and discarding the rest, so an endless line costs no memory. False at the end of input.
fn read_capped_line<R: BufRead>(r: &mut R, cap: usize, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut read_any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let text = &buf[..newline.unwrap_or(buf.len())];
        let room = cap.saturating_sub(line.len());
        line.extend_from_slice(&text[..text.len().min(room)]);
        let used = newline.map_or(buf.len(), |i| i + 1);
        r.consume(used);
        if newline.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(true);
        }
    }
}

/// The reader thread's loop: engine output → timestamped lines (bytes that are not UTF-8
/// replaced), until the pipe closes or the game side hangs up.
fn read_lines<R: BufRead>(mut from: R, to: &crossbeam_channel::Sender<(Instant, String)>) {
    let mut line = Vec::new();
    while let Ok(true) = read_capped_line(&mut from, MAX_LINE_BYTES, &mut line) {
        let text = String::from_utf8_lossy(&line).into_owned();
        if to.send((Instant::now(), text)).is_err() {
            break;
        }
    }
}

impl EngineProcess {
    /// Spawn the engine and complete the handshake (`ucci`/`uci` … `ucciok`/`uciok`, options,
    /// `isready` … `readyok`).
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineFault> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // A terminal's Ctrl-C and `timeout` signal the whole process group: engines of their
        // own group are stopped by the runner's handler only, so no game in flight ends as an
        // engine "crash" that gets scored and written before the runner exits.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| EngineFault::Crashed(format!("cannot start '{}': {e}", spec.cmd)))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = bounded(LINE_QUEUE);
        let reader = thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || read_lines(BufReader::new(stdout), &tx));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineFault::Crashed(format!(
                "cannot start a reader thread: {e}"
            )));
        }
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let child = Arc::new(Mutex::new(child));
        REGISTRY.lock().insert(id, Arc::clone(&child));
        let mut engine = EngineProcess {
            spec: spec.clone(),
            id,
            child,
            stdin,
            lines: rx,
            id_name: None,
            healthy: true,
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), EngineFault> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let (hello, ok) = match self.spec.proto {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello)?;
        loop {
            let line = self.recv_until(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            }
            if line.trim() == ok {
                break;
            }
        }
        if self.spec.proto == Protocol::Ucci {
            // UCCI times are in seconds unless the engine is told otherwise; we send ms.
            self.send("setoption usemillisec true")?;
        }
        for (name, value) in self.spec.options.clone() {
            let line = match self.spec.proto {
                Protocol::Ucci => format!("setoption {name} {value}"),
                Protocol::Uci => format!("setoption name {name} value {value}"),
            };
            self.send(line.trim_end())?;
        }
        self.sync(HANDSHAKE_TIMEOUT)
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        let deadline = Instant::now() + timeout;
        self.send("isready")?;
        while self.recv_until(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// Tell the engine a new game starts, and wait until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineFault> {
        match self.spec.proto {
            Protocol::Uci => self.send("ucinewgame")?,
            // UCCI has no new-game command of its own; engines offer a `newgame` button option.
            Protocol::Ucci => self.send("setoption newgame")?,
        }
        self.sync(HANDSHAKE_TIMEOUT)
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.child.lock().id()
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The engine's own name (`id name`), if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Whether it can be reused for another game.
    pub fn is_healthy(&self) -> bool {
        self.healthy
    }

    /// Write one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let result = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        result.map_err(|e| {
            self.healthy = false;
            // A write fails when the engine has gone: say how it went, if it has.
            EngineFault::Crashed(
                self.exit_status()
                    .unwrap_or_else(|| format!("write failed: {e}")),
            )
        })
    }

    /// The next line, if it was read before `deadline`.
    fn recv_until(&mut self, deadline: Instant) -> Result<String, EngineFault> {
        match self.recv_timed(deadline)? {
            (at, _) if at > deadline => Err(EngineFault::Timeout),
            (_, line) => Ok(line),
        }
    }

    /// The next line and when it was read, waiting until `deadline` at most. A line read after
    /// the deadline is still returned (the caller decides; `go` charges a late `bestmove`).
    fn recv_timed(&mut self, deadline: Instant) -> Result<(Instant, String), EngineFault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(x) => Ok(x),
            Err(RecvTimeoutError::Timeout) => Err(EngineFault::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.healthy = false;
                Err(EngineFault::Crashed(self.exit_text()))
            }
        }
    }

    fn exit_text(&self) -> String {
        self.exit_status()
            .unwrap_or_else(|| "closed its output".to_string())
    }

    /// "exited with …" once the process has exited (the status may take a moment to appear
    /// after its pipes close).
    fn exit_status(&self) -> Option<String> {
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.lock().try_wait() {
                return Some(format!("exited with {status}"));
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Send the position and `go` with `limits`, and wait for `bestmove` (or `nobestmove`)
    /// until `allowance` has passed since `go` was written. Past it, `stop` is sent; the engine
    /// stays usable only if it then answers within a second (the late move is still a forfeit).
    pub fn go(
        &mut self,
        position: &str,
        limits: MoveLimits,
        allowance: Duration,
    ) -> Result<SearchReply, EngineFault> {
        self.send(position)?;
        self.send(&self.spec.proto.go_command(limits))?;
        let start = Instant::now();
        let deadline = start + allowance;
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, line) = match self.recv_timed(deadline) {
                Ok(x) => x,
                Err(EngineFault::Timeout) => {
                    self.recover_after_timeout();
                    return Err(EngineFault::Timeout);
                }
                Err(e) => return Err(e),
            };
            let mut words = line.split_whitespace();
            let first = words.next();
            if at > deadline && !matches!(first, Some("bestmove" | "nobestmove")) {
                // Past the deadline only the answer itself still counts (as a late move):
                // whatever else the engine prints cannot keep the game waiting.
                self.recover_after_timeout();
                return Err(EngineFault::Timeout);
            }
            match first {
                Some("info") => parse_info(&line, &mut score, &mut depth),
                Some("bestmove") => {
                    let mv = words.next().filter(|m| *m != "(none)" && *m != "0000");
                    let rest: Vec<&str> = words.collect();
                    return Ok(SearchReply {
                        mv: mv.map(str::to_string),
                        score,
                        depth,
                        resign: rest.contains(&"resign"),
                        elapsed: at.duration_since(start),
                    });
                }
                Some("nobestmove") => {
                    return Ok(SearchReply {
                        mv: None,
                        score,
                        depth,
                        resign: false,
                        elapsed: at.duration_since(start),
                    })
                }
                _ => {}
            }
        }
    }

    fn recover_after_timeout(&mut self) {
        if self.send("stop").is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self.recv_until(deadline) {
                Ok(l) if l.starts_with("bestmove") || l.starts_with("nobestmove") => return,
                Ok(_) => {}
                Err(_) => {
                    self.healthy = false;
                    return;
                }
            }
        }
    }
}

/// Read `score cp X`, `score mate N` (UCI) or a bare `score X` (UCCI), and `depth D`.
fn parse_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    *depth = Some(d);
                }
                i += 2;
            }
            "score" => match (words.get(i + 1), words.get(i + 2)) {
                (Some(&"cp"), Some(v)) => {
                    if let Ok(v) = v.parse() {
                        *score = Some(Score::Cp(v));
                    }
                    i += 3;
                }
                (Some(&"mate"), Some(v)) => {
                    if let Ok(v) = v.parse() {
                        *score = Some(Score::Mate(v));
                    }
                    i += 3;
                }
                (Some(v), _) => {
                    if let Ok(v) = v.parse() {
                        *score = Some(Score::Cp(v));
                    }
                    i += 2;
                }
                _ => i += 1,
            },
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_millis(300);
        loop {
            if let Ok(Some(_)) = self.child.lock().try_wait() {
                break;
            }
            if Instant::now() >= deadline {
                let mut child = self.child.lock();
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        REGISTRY.lock().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_of_both_dialects() {
        let (mut s, mut d) = (None, None);
        parse_info(
            "info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv h2e2 h9g7",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Cp(-35)), Some(12)));
        parse_info("info depth 9 score 120 pv h2e2", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Cp(120)), Some(9)));
        parse_info("info depth 3 score mate -2", &mut s, &mut d);
        assert_eq!(s, Some(Score::Mate(-2)));
        assert_eq!(Score::Mate(-2).as_cp(), -29_998);
        assert_eq!(Score::Mate(3).as_cp(), 29_997);
        parse_info("info string score cp 999", &mut s, &mut d);
        assert_eq!(s, Some(Score::Mate(-2)));
        // Whatever an engine reports stays within the mate scores.
        assert_eq!(Score::Mate(i32::MIN).as_cp(), -MATE_CP + 1_000);
        assert_eq!(Score::Mate(0).as_cp(), -MATE_CP);
        assert_eq!(Score::Mate(i32::MAX).as_cp(), MATE_CP - 1_000);
        assert_eq!(Score::Cp(i32::MIN).as_cp(), -MATE_CP);
        assert_eq!(Score::Cp(i32::MAX).as_cp(), MATE_CP);
    }

    #[test]
    fn go_commands_per_dialect() {
        let clocks = MoveLimits::Clocks {
            side: Color::Black,
            time_ms: [9_100, 10_000],
            inc_ms: [100, 50],
        };
        assert_eq!(
            Protocol::Uci.go_command(clocks),
            "go wtime 9100 btime 10000 winc 100 binc 50"
        );
        assert_eq!(
            Protocol::Ucci.go_command(clocks),
            "go time 10000 increment 50 opptime 9100 oppincrement 100"
        );
        let fixed = MoveLimits::MoveTime(300);
        assert_eq!(Protocol::Ucci.go_command(fixed), "go time 300 movestogo 1");
        assert_eq!(Protocol::Uci.go_command(fixed), "go movetime 300");
        assert_eq!(
            Protocol::Ucci.go_command(MoveLimits::Depth(4)),
            "go depth 4"
        );
        assert_eq!(
            Protocol::Uci.go_command(MoveLimits::Nodes(900)),
            "go nodes 900"
        );
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_discarded() {
        let long = "x".repeat(100);
        let text = format!("{long}\r\nshort\n{long}");
        // A small buffer, so lines span several reads.
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut line = Vec::new();
        let mut lines = Vec::new();
        while read_capped_line(&mut input, 10, &mut line).unwrap() {
            lines.push(String::from_utf8(line.clone()).unwrap());
        }
        assert_eq!(lines, ["x".repeat(10), "short".to_string(), "x".repeat(10)]);
    }

    #[test]
    fn the_reader_replaces_bytes_that_are_not_utf8() {
        let (tx, rx) = crossbeam_channel::unbounded();
        read_lines(&b"id name \xff\xfe\nuciok\n"[..], &tx);
        let lines: Vec<String> = rx.try_iter().map(|(_, l)| l).collect();
        assert_eq!(lines, ["id name \u{fffd}\u{fffd}", "uciok"]);
    }

    #[test]
    fn a_missing_program_is_a_crash() {
        let spec = EngineSpec {
            name: "none".into(),
            cmd: "/nonexistent/engine".into(),
            args: vec![],
            dir: None,
            proto: Protocol::Uci,
            options: vec![],
            tc: None,
        };
        assert!(matches!(
            EngineProcess::start(&spec),
            Err(EngineFault::Crashed(_))
        ));
    }
}

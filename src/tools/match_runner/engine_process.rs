//! Engine processes, client side: spawn a command, speak UCCI, UCI or CECP (`xboard`) to it over
//! pipes, wait for answers with deadlines, and always reap it. Every difference between the
//! protocols is here (what `xboard` lines mean is read by `xboard`); the game loop above speaks
//! to all engines alike (`new_game`, `go`).
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
use super::referee::GameResult;
use super::xboard::{self, Features, Reply};
use crate::board::position::{Position, START_FEN};
use crate::board::types::{Color, Move};
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
    /// CECP, the XBoard/WinBoard protocol (MaxQi, HaQiKi D, Fairy-Stockfish in xboard mode).
    Xboard,
}

impl std::str::FromStr for Protocol {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "ucci" => Ok(Protocol::Ucci),
            "uci" => Ok(Protocol::Uci),
            "xboard" => Ok(Protocol::Xboard),
            _ => Err(anyhow::anyhow!(
                "unknown protocol '{s}' (ucci, uci or xboard)"
            )),
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
    /// It broke the protocol (rejected a legal move, answered `Error`), or cannot do what the
    /// game needs (a FEN for an engine without `setboard`): the reason, in words.
    Protocol(String),
}

impl std::fmt::Display for EngineFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFault::Crashed(why) => write!(f, "crashed ({why})"),
            EngineFault::Timeout => write!(f, "did not answer in time"),
            EngineFault::Protocol(why) => write!(f, "{why}"),
        }
    }
}

impl Protocol {
    /// The line setting option `name` to `value`: `setoption NAME VALUE` (UCCI),
    /// `setoption name NAME value VALUE` (UCI), `option NAME=VALUE` (CECP).
    pub fn option_command(self, name: &str, value: &str) -> String {
        match self {
            Protocol::Ucci => format!("setoption {name} {value}"),
            Protocol::Uci => format!("setoption name {name} value {value}"),
            Protocol::Xboard => format!("option {name}={value}"),
        }
    }

    /// The `go` command for `limits`. UCI: `go wtime W btime B winc I binc I`. UCCI:
    /// `go time T increment I opptime O oppincrement I` (ms: the handshake sets `usemillisec`),
    /// and a fixed move time as `go time T movestogo 1` (UCCI has no `movetime`). CECP: a bare
    /// `go` (its limits are set at the game's start, its clocks by `time`/`otim` before it).
    pub fn go_command(self, limits: MoveLimits) -> String {
        match (limits, self) {
            (_, Protocol::Xboard) => "go".to_string(),
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

/// A game as engines are told it: the root and every move since. UCI engines get every move
/// from the root. UCCI engines get the position after the last capture and the moves since, as
/// the UCCI spec asks (no repetition reaches back past a capture, and the command stays short
/// in long games). CECP engines get the root once and then only the moves they have not seen.
pub struct GameLine {
    root_fen: String,
    root_side: Color,
    moves: Vec<Move>,
    /// The FEN after the last capture, and how many of `moves` lead up to it.
    after_capture: Option<(String, usize)>,
}

impl GameLine {
    /// A game from `root`.
    pub fn new(root: &Position) -> GameLine {
        GameLine {
            root_fen: root.to_fen(),
            root_side: root.side_to_move(),
            moves: Vec::new(),
            after_capture: None,
        }
    }

    /// Play `mv` on `pos` (the position the line has reached) and record it.
    pub fn play(&mut self, pos: &mut Position, mv: Move) {
        let capture = pos.is_capture(mv);
        pos.make_move(mv);
        self.moves.push(mv);
        if capture {
            self.after_capture = Some((pos.to_fen(), self.moves.len()));
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            self.root_side
        } else {
            self.root_side.flip()
        }
    }

    /// The `position` command for a UCCI or UCI engine.
    fn position_command(&self, proto: Protocol) -> String {
        let (fen, moves) = match (&self.after_capture, proto) {
            (Some((fen, done)), Protocol::Ucci) => (fen.as_str(), &self.moves[*done..]),
            _ => (self.root_fen.as_str(), &self.moves[..]),
        };
        let mut s = if fen == START_FEN {
            "position startpos".to_string()
        } else {
            format!("position fen {fen}")
        };
        if !moves.is_empty() {
            s.push_str(" moves");
            for m in moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }
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
    /// CECP only: what it announced and how far it follows the current game.
    cecp: Cecp,
}

/// The client's CECP state of one engine.
#[derive(Default)]
struct Cecp {
    /// Its `feature` lines.
    features: Features,
    /// How many moves of the current game it has been told (`None`: the root is not set up
    /// yet; `new_game` resets it).
    told: Option<usize>,
    /// The last `ping` number sent.
    ping: u64,
    /// Games started (an engine with `reuse=0` plays one).
    games: u64,
    /// A result it claimed on its last turn, as it said it.
    claim: Option<String>,
}

/// How long the handshake and `isready` may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a CECP engine has to send its `feature` lines when it never says `done=0` (the
/// protocol's two seconds: an engine of protocol version 1 sends none).
pub const FEATURE_WAIT: Duration = Duration::from_secs(2);

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
            cecp: Cecp::default(),
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), EngineFault> {
        match self.spec.proto {
            Protocol::Ucci => self.hello("ucci", "ucciok")?,
            Protocol::Uci => self.hello("uci", "uciok")?,
            Protocol::Xboard => self.read_features()?,
        }
        if self.spec.proto == Protocol::Ucci {
            // UCCI times are in seconds unless the engine is told otherwise; we send ms.
            self.send("setoption usemillisec true")?;
        }
        for (name, value) in self.spec.options.clone() {
            let line = self.spec.proto.option_command(&name, &value);
            self.send(line.trim_end())?;
        }
        self.sync(HANDSHAKE_TIMEOUT)
    }

    /// UCCI/UCI: `hello`, then `id name` and the rest until `ok`.
    fn hello(&mut self, hello: &str, ok: &str) -> Result<(), EngineFault> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.send(hello)?;
        loop {
            let line = self.recv_until(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            }
            if line.trim() == ok {
                return Ok(());
            }
        }
    }

    /// CECP: `xboard`, `protover 2`, and the engine's `feature` lines, each answered with
    /// `accepted NAME` or `rejected NAME`, until `done=1`. After `done=0` it has the whole
    /// handshake time; an engine that never says `done` has `FEATURE_WAIT` (version 1 engines
    /// send no features at all, and get the protocol's defaults).
    fn read_features(&mut self) -> Result<(), EngineFault> {
        let start = Instant::now();
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut more = false;
        let mut done = false;
        while !done {
            let deadline = start
                + if more {
                    HANDSHAKE_TIMEOUT
                } else {
                    FEATURE_WAIT
                };
            let line = match self.recv_until(deadline) {
                Ok(line) => line,
                Err(EngineFault::Timeout) if !more => break,
                Err(e) => return Err(e),
            };
            for (name, value) in xboard::parse_features(&line).unwrap_or_default() {
                let answer = match self.cecp.features.apply(&name, &value) {
                    true => "accepted",
                    false => "rejected",
                };
                self.send(&format!("{answer} {name}"))?;
                if name == "done" {
                    more = value == "0";
                    done = value == "1";
                }
            }
        }
        let features = &self.cecp.features;
        if !features.plays_xiangqi() {
            return Err(EngineFault::Protocol(format!(
                "does not play xiangqi (feature variants=\"{}\")",
                features.variants.as_deref().unwrap_or_default()
            )));
        }
        if let Some(name) = &features.myname {
            self.id_name = Some(name.clone());
        }
        Ok(())
    }

    /// The ready check: `isready` … `readyok` (UCCI, UCI), `ping N` … `pong N` (CECP; an
    /// engine without `ping=1` cannot be waited for, and is taken as ready).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        let deadline = Instant::now() + timeout;
        if self.spec.proto != Protocol::Xboard {
            self.send("isready")?;
            while self.recv_until(deadline)?.trim() != "readyok" {}
            return Ok(());
        }
        if !self.cecp.features.ping {
            return Ok(());
        }
        self.cecp.ping += 1;
        let n = self.cecp.ping.to_string();
        self.send(&format!("ping {n}"))?;
        while xboard::classify(&self.recv_until(deadline)?) != Reply::Pong(&n) {}
        Ok(())
    }

    /// Tell the engine a new game starts, played under `tc` (its own time control), and wait
    /// until it is ready. UCI: `ucinewgame`. UCCI: `setoption newgame`. CECP: `new`,
    /// `variant xiangqi`, `force` (it moves only when told `go`), `easy` (no pondering),
    /// `post` (thinking output, for the scores), and the time control.
    pub fn new_game(&mut self, tc: TimeControl) -> Result<(), EngineFault> {
        match self.spec.proto {
            Protocol::Uci => self.send("ucinewgame")?,
            // UCCI has no new-game command of its own; engines offer a `newgame` button option.
            Protocol::Ucci => self.send("setoption newgame")?,
            Protocol::Xboard => {
                let limits = xboard::time_control_commands(tc, &self.cecp.features)
                    .map_err(EngineFault::Protocol)?;
                self.cecp.told = None;
                self.cecp.claim = None;
                self.cecp.games += 1;
                for line in ["new", "variant xiangqi", "force", "easy", "post"] {
                    self.send(line)?;
                }
                for line in limits {
                    self.send(&line)?;
                }
            }
        }
        self.sync(HANDSHAKE_TIMEOUT)
    }

    /// Whether the engine can play games under `tc` at all (a CECP engine without `nps`
    /// cannot be held to a node count; CECP's `st` takes whole seconds): the reason if not.
    pub fn check_time_control(&self, tc: TimeControl) -> Result<(), String> {
        match self.spec.proto {
            Protocol::Xboard => xboard::time_control_commands(tc, &self.cecp.features).map(|_| ()),
            Protocol::Ucci | Protocol::Uci => Ok(()),
        }
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.child.lock().id()
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The engine's own name (`id name`; CECP: `feature myname`), if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Whether it can be reused for another game (a CECP engine that announced `reuse=0` is
    /// started afresh for every game).
    pub fn is_healthy(&self) -> bool {
        let reusable =
            self.spec.proto != Protocol::Xboard || self.cecp.features.reuse || self.cecp.games == 0;
        self.healthy && reusable
    }

    /// A result the engine claimed (CECP `1-0 {…}`, `0-1`, `1/2-1/2`) on its last turn without
    /// resigning, as it said it: the referee decides, so this is only for the record.
    pub fn take_claim(&mut self) -> Option<String> {
        self.cecp.claim.take()
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

    /// Tell the engine the game so far and let it move under `limits`, waiting for its answer
    /// until `allowance` has passed since `go` was written. Past it, the engine is told to stop
    /// (`stop`; CECP `?`) and stays usable only if it then answers within a second (the late
    /// move is still a forfeit).
    pub fn go(
        &mut self,
        line: &GameLine,
        limits: MoveLimits,
        allowance: Duration,
    ) -> Result<SearchReply, EngineFault> {
        let proto = self.spec.proto;
        let start = match proto {
            Protocol::Xboard => self.cecp_turn(line, limits)?,
            Protocol::Ucci | Protocol::Uci => {
                self.send(&line.position_command(proto))?;
                self.send(&proto.go_command(limits))?;
                Instant::now()
            }
        };
        let deadline = start + allowance;
        let side = line.side_to_move();
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, text) = match self.recv_timed(deadline) {
                Ok(x) => x,
                Err(EngineFault::Timeout) => {
                    self.recover_after_timeout();
                    return Err(EngineFault::Timeout);
                }
                Err(e) => return Err(e),
            };
            let step = match proto {
                Protocol::Xboard => self.cecp_step(&text, side, &mut score, &mut depth),
                Protocol::Ucci | Protocol::Uci => uci_step(&text, &mut score, &mut depth),
            };
            if at > deadline && !matches!(step, Step::Answer { .. }) {
                // Past the deadline only the answer itself still counts (as a late move):
                // whatever else the engine prints cannot keep the game waiting.
                self.recover_after_timeout();
                return Err(EngineFault::Timeout);
            }
            match step {
                Step::Other => {}
                Step::Answer { mv, resign } => {
                    if proto == Protocol::Xboard {
                        // Back to force mode until its next turn; it has played `mv` on its
                        // board. A failed write shows at the next command.
                        let _ = self.send("force");
                        if mv.is_some() {
                            self.cecp.told = self.cecp.told.map(|n| n + 1);
                        }
                    }
                    return Ok(SearchReply {
                        mv,
                        score,
                        depth,
                        resign,
                        elapsed: at.duration_since(start),
                    });
                }
                Step::Broken(why) => {
                    self.healthy = false;
                    return Err(EngineFault::Protocol(why));
                }
            }
        }
    }

    /// CECP: bring the engine's board up to `line` (the root first, when the game is new),
    /// tell it the clocks, and `go`. Returns when `go` was written.
    fn cecp_turn(&mut self, line: &GameLine, limits: MoveLimits) -> Result<Instant, EngineFault> {
        // What it printed after its last move (a result claim, the thinking of the checks some
        // engines run on every move) belongs to no question of this turn.
        while self.lines.try_recv().is_ok() {}
        self.cecp.claim = None;
        let told = match self.cecp.told {
            Some(n) => n,
            None if line.root_fen == START_FEN => 0,
            None if self.cecp.features.setboard => {
                self.send(&format!("setboard {}", line.root_fen))?;
                0
            }
            None => {
                return Err(EngineFault::Protocol(
                    "cannot be given this opening: it starts from a FEN, and the engine takes \
                     none (feature setboard=0); use openings that are move lines"
                        .to_string(),
                ))
            }
        };
        let Some(unseen) = line.moves.get(told..) else {
            return Err(EngineFault::Protocol(format!(
                "is out of step: told {told} moves of a game of {}",
                line.moves.len()
            )));
        };
        let usermove = self.cecp.features.usermove;
        let moves: Vec<String> = unseen
            .iter()
            .map(|m| match usermove {
                true => format!("usermove {m}"),
                false => m.to_string(),
            })
            .collect();
        for m in &moves {
            self.send(m)?;
        }
        self.cecp.told = Some(line.moves.len());
        if let (MoveLimits::Clocks { side, time_ms, .. }, true) = (limits, self.cecp.features.time)
        {
            // Centiseconds: its own clock, then its opponent's.
            self.send(&format!("time {}", time_ms[side.index()] / 10))?;
            self.send(&format!("otim {}", time_ms[side.flip().index()] / 10))?;
        }
        self.send("go")?;
        Ok(Instant::now())
    }

    /// What one line of a CECP engine on its turn means. A claim that `side` (the engine's)
    /// lost is its resignation; any other claim is kept for the record, and the engine must
    /// still move. A rejected move or an `Error` means it no longer follows the game.
    fn cecp_step(
        &mut self,
        line: &str,
        side: Color,
        score: &mut Option<Score>,
        depth: &mut Option<u32>,
    ) -> Step {
        match xboard::classify(line) {
            Reply::Move(m) => Step::Answer {
                mv: Some(m.to_string()),
                resign: false,
            },
            Reply::Resign => Step::Answer {
                mv: None,
                resign: true,
            },
            Reply::Claim(result) if result == GameResult::loss_for(side) => Step::Answer {
                mv: None,
                resign: true,
            },
            Reply::Claim(_) => {
                self.cecp.claim = Some(line.trim().to_string());
                Step::Other
            }
            Reply::Thinking { depth: d, score: s } => {
                // Depth 0 or less: the checks some engines (MaxQi) run, not this search.
                if let Ok(d) = u32::try_from(d) {
                    if d > 0 {
                        *depth = Some(d);
                        *score = Some(s);
                    }
                }
                Step::Other
            }
            Reply::IllegalMove => Step::Broken(format!(
                "rejects a legal move of the game ('{}')",
                line.trim()
            )),
            Reply::Error => Step::Broken(format!("answers '{}'", line.trim())),
            Reply::Pong(_) | Reply::Other => Step::Other,
        }
    }

    fn recover_after_timeout(&mut self) {
        let proto = self.spec.proto;
        let stop = match proto {
            Protocol::Xboard => "?",
            Protocol::Ucci | Protocol::Uci => "stop",
        };
        if self.send(stop).is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let answered = match self.recv_until(deadline) {
                Ok(l) => match proto {
                    Protocol::Xboard => {
                        matches!(xboard::classify(&l), Reply::Move(_) | Reply::Resign)
                    }
                    Protocol::Ucci | Protocol::Uci => {
                        l.starts_with("bestmove") || l.starts_with("nobestmove")
                    }
                },
                Err(_) => {
                    self.healthy = false;
                    return;
                }
            };
            if answered {
                break;
            }
        }
        if proto == Protocol::Xboard && self.send("force").is_err() {
            self.healthy = false;
        }
    }
}

/// What a line read while an engine is on its turn means.
enum Step {
    /// Nothing final (thinking output, chatter).
    Other,
    /// Its answer: the move text (`None`: no move), and whether it resigns.
    Answer { mv: Option<String>, resign: bool },
    /// It broke the protocol: why.
    Broken(String),
}

/// What one line of a UCCI/UCI engine on its turn means: `info` (score and depth noted),
/// `bestmove M [resign]`, `nobestmove`.
fn uci_step(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) -> Step {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("info") => {
            parse_info(line, score, depth);
            Step::Other
        }
        Some("bestmove") => {
            let mv = words.next().filter(|m| *m != "(none)" && *m != "0000");
            let resign = words.any(|w| w == "resign");
            Step::Answer {
                mv: mv.map(str::to_string),
                resign,
            }
        }
        Some("nobestmove") => Step::Answer {
            mv: None,
            resign: false,
        },
        _ => Step::Other,
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
    fn ucci_engines_get_the_moves_since_the_last_capture() {
        let mut pos = Position::startpos();
        let mut line = GameLine::new(&Position::startpos());
        for m in ["h2e2", "h7e7", "e2e6", "d9e8"] {
            let mv = pos.parse_move(m).unwrap();
            line.play(&mut pos, mv);
        }
        assert_eq!(line.side_to_move(), Color::Red);
        assert_eq!(
            line.position_command(Protocol::Uci),
            "position startpos moves h2e2 h7e7 e2e6 d9e8"
        );
        // The UCCI spec's own example: the cannon took on e6 at the third ply.
        assert_eq!(
            line.position_command(Protocol::Ucci),
            "position fen rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2 \
             moves d9e8"
        );
        // Before any capture both get the root.
        let root = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
        let line = GameLine::new(&Position::from_fen(root).unwrap());
        assert_eq!(line.side_to_move(), Color::Red);
        assert_eq!(
            line.position_command(Protocol::Ucci),
            format!("position fen {root}")
        );
        assert_eq!(
            line.position_command(Protocol::Uci),
            format!("position fen {root}")
        );
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

//! The CPU players: one bounded pool of engine processes shared by every room. A room asks
//! for a move for a side whose player left (the Qdan rule); the ask waits its turn behind
//! the others, none is refused, and no more engines run than the pool holds.

use gogo_protocol::{BestMove, EngineClient, EngineSpec, GoCommand, GuiCommand};
use gogo_rules::{Move, Position};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// A move wanted from the CPU.
pub struct CpuAsk {
    /// The start of the game.
    pub start: Position,
    /// The moves so far.
    pub moves: Vec<Move>,
    /// The rule set's name (the engine's `Rules` option).
    pub rules: &'static str,
    /// The game's move limit (0: none).
    pub max_plies: u32,
    /// The strength level (0: full strength).
    pub level: u8,
    /// How long the engine thinks.
    pub think: Duration,
    /// Where the move goes (`None`: the engine failed or resigned).
    pub reply: oneshot::Sender<Option<Move>>,
}

/// The pool: asks queue until one of its engines is free.
#[derive(Clone)]
pub struct CpuPool {
    asks: std::sync::mpsc::Sender<CpuAsk>,
}

impl std::fmt::Debug for CpuPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CpuPool")
    }
}

impl CpuPool {
    /// `engines` threads, each running `spec` (started when first needed, again after a
    /// failure).
    pub fn new(spec: EngineSpec, engines: usize) -> CpuPool {
        let (asks, queue) = std::sync::mpsc::channel::<CpuAsk>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..engines.max(1) {
            let (spec, queue) = (spec.clone(), Arc::clone(&queue));
            let spawned = std::thread::Builder::new()
                .name(format!("gogo-cpu-{n}"))
                .spawn(move || serve(spec, &queue));
            if let Err(e) = spawned {
                log::error!("no CPU player thread: {e}");
            }
        }
        CpuPool { asks }
    }

    /// Asks for a move; the answer comes on the ask's `reply`.
    pub fn ask(&self, ask: CpuAsk) {
        if let Err(e) = self.asks.send(ask) {
            let _ = e.0.reply.send(None);
        }
    }
}

/// One engine of the pool: asks one after another.
fn serve(spec: EngineSpec, queue: &Mutex<std::sync::mpsc::Receiver<CpuAsk>>) {
    let mut engine: Option<EngineClient> = None;
    loop {
        let ask = match queue.lock().expect("cpu queue").recv() {
            Ok(ask) => ask,
            Err(_) => break,
        };
        // Nobody waits for it any more (the player came back, the game ended).
        if ask.reply.is_closed() {
            continue;
        }
        let answer = play(&spec, &mut engine, &ask);
        if answer.is_none() {
            if let Some(failed) = engine.take() {
                failed.shutdown();
            }
        }
        let _ = ask.reply.send(answer);
    }
    if let Some(engine) = engine {
        engine.shutdown();
    }
}

fn play(spec: &EngineSpec, engine: &mut Option<EngineClient>, ask: &CpuAsk) -> Option<Move> {
    if engine.is_none() {
        match EngineClient::start(spec, Duration::from_secs(10)) {
            Ok(client) => *engine = Some(client),
            Err(e) => {
                log::error!("the CPU player's engine did not start: {e}");
                return None;
            }
        }
    }
    let client = engine.as_mut()?;
    for (name, value) in [
        ("Level", ask.level.to_string()),
        ("Rules", ask.rules.to_string()),
        ("MaxPlies", ask.max_plies.to_string()),
    ] {
        if client.offers(name) {
            client.set_option(name, &value).ok()?;
        }
    }
    client.ready(Duration::from_secs(10)).ok()?;
    client
        .send(&GuiCommand::position(&ask.start, &ask.moves))
        .ok()?;
    let go = GoCommand {
        movetime: Some(ask.think.as_millis() as u64),
        ..GoCommand::default()
    };
    client.send(&GuiCommand::Go(go)).ok()?;
    let deadline = Instant::now() + ask.think + Duration::from_secs(5);
    match client.wait_bestmove(deadline, &mut |_| {}).ok()?.best {
        BestMove::Move(mv) => Some(mv),
        BestMove::Resign | BestMove::Win => None,
    }
}

//! Where the engine's protocol lines go ([`Output`]): one writer, one whole line at a time,
//! flushed; and the `info` line of a search report.

use gogo_protocol::{EngineMessage, Info, InfoScore, ScoreBound, Wdl};
use gogo_search::tt::Bound;
use gogo_search::{Score, SearchInfo};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where protocol lines go: one writer, one line at a time, flushed.
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    /// Answers (`bestmove`, `checkmate`) written so far, counted before each is written: once
    /// the GUI can read a search's answer, the engine knows the search has answered, though
    /// its job may not have ended yet.
    answers: Arc<AtomicU64>,
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Arc::new(Mutex::new(writer)),
            answers: Arc::default(),
        }
    }

    /// Writes one message as a line.
    pub fn send(&self, message: &EngineMessage) {
        if matches!(
            message,
            EngineMessage::BestMove { .. } | EngineMessage::Checkmate(_)
        ) {
            self.answers.fetch_add(1, Ordering::SeqCst);
        }
        self.line(&message.to_string());
    }

    /// How many answers have been written (or are being written).
    pub fn answers(&self) -> u64 {
        self.answers.load(Ordering::SeqCst)
    }

    /// Writes `text` as one line.
    pub fn line(&self, text: &str) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.send(&EngineMessage::Info(Info {
            string: Some(text.to_string()),
            ..Info::default()
        }));
    }
}

/// A [`Write`] that hands [`Output`] whole lines, so that text written in pieces (perft's
/// lines) never interleaves with another thread's line.
pub(crate) struct LineWriter {
    pub(crate) out: Output,
    pub(crate) pending: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.out
                .line(String::from_utf8_lossy(&line[..end]).as_ref());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `info` line for a search report, with `wdl` on `wdl_scale` when it is asked for.
pub fn info_line(info: &SearchInfo, wdl_scale: Option<f64>) -> Info {
    // Within the first millisecond, count it as one.
    let nps = (info.nodes * 1000)
        .checked_div(info.time_ms)
        .unwrap_or(info.nodes * 1000);

    let score = match info.score {
        Score::Centipawns(cp) => InfoScore::Centipawns(cp),
        Score::Mate(n) => InfoScore::Mate(n),
    };
    Info {
        depth: Some(info.depth.max(0) as u32),
        seldepth: Some(info.seldepth as u32),
        multipv: Some(info.multipv as u32),
        score: Some(score),
        wdl: wdl_scale.map(|scale| Wdl::from_score(score, scale)),
        bound: info.bound.and_then(|b| match b {
            Bound::Lower => Some(ScoreBound::Lower),
            Bound::Upper => Some(ScoreBound::Upper),
            Bound::Exact => None,
        }),
        nodes: Some(info.nodes),
        nps: Some(nps),
        time: Some(info.time_ms),
        hashfull: Some(info.hashfull),
        pv: info.pv.clone(),
        string: None,
    }
}

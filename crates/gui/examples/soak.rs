//! A soak of the board's server: N pages at once, each playing engine-against-engine games
//! at a fast clock over its WebSocket for a while, then closing. Prints what each page saw
//! (games, plies, errors, how the games ended) and a total. `scripts/soak-gui.sh` starts the
//! server, runs this, and measures the server before and after.
//!
//!   cargo run --release -p gogo-gui --example soak -- URL SESSIONS SECONDS

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// What one page saw.
#[derive(Default)]
struct PageReport {
    games: u32,
    plies: u64,
    errors: Vec<String>,
    reasons: BTreeMap<String, u32>,
}

fn new_game(game: u32) -> Message {
    // Both rule sets and both clocks, in turn.
    let rules = if game.is_multiple_of(2) {
        "standard"
    } else {
        "kawu"
    };
    let clock = if game.is_multiple_of(3) {
        json!({"kind": "fischer", "main_ms": 2000, "increment_ms": 20})
    } else {
        json!({"kind": "byoyomi", "main_ms": 0, "byoyomi_ms": 30})
    };
    let start = if rules == "kawu" { "kawu" } else { "standard" };
    let request = json!({"type": "new_game", "start": start, "rules": rules,
        "sente": "engine", "gote": "engine", "clock": clock});
    Message::Text(request.to_string().into())
}

async fn page(ws_url: String, seconds: u64) -> PageReport {
    let mut report = PageReport::default();
    let (mut socket, _) = match tokio_tungstenite::connect_async(&ws_url).await {
        Ok(s) => s,
        Err(e) => {
            report.errors.push(format!("connect: {e}"));
            return report;
        }
    };
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut started = false;
    while Instant::now() < end {
        if !started {
            if socket.send(new_game(report.games)).await.is_err() {
                report.errors.push("send failed".into());
                break;
            }
            started = true;
        }
        let message = match tokio::time::timeout_at(end, socket.next()).await {
            Err(_) => break,
            Ok(None) => {
                report.errors.push("the server closed the page".into());
                break;
            }
            Ok(Some(Err(e))) => {
                report.errors.push(format!("socket: {e}"));
                break;
            }
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(update) = serde_json::from_str::<Value>(&text) else {
            report.errors.push(format!("not JSON: {text}"));
            continue;
        };
        match update["type"].as_str() {
            Some("error") => report.errors.push(update["message"].to_string()),
            Some("state") if started && update["result"].is_string() => {
                let plies = update["moves"].as_array().map_or(0, |m| m.len());
                if plies > 0 {
                    report.games += 1;
                    report.plies += plies as u64;
                    // By rule set and result too: a fourfold repetition is a draw under
                    // kawu and a loss (for Sente, as a rule) under the standard rules.
                    let reason = format!(
                        "{} {} {}",
                        update["rules"].as_str().unwrap_or("?"),
                        update["reason"].as_str().unwrap_or("?"),
                        update["result"].as_str().unwrap_or("?")
                    );
                    *report.reasons.entry(reason).or_default() += 1;
                    started = false;
                }
            }
            _ => {}
        }
    }
    let _ = socket.close(None).await;
    report
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(url), Some(sessions), Some(seconds)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
        args.get(2).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: soak URL SESSIONS SECONDS (URL as gogo-gui printed it)");
        std::process::exit(2);
    };
    // http://HOST/?token=T -> ws://HOST/ws?token=T
    let ws_url = url
        .replacen("http://", "ws://", 1)
        .replacen("/?", "/ws?", 1);
    let pages: Vec<_> = (0..sessions)
        .map(|_| tokio::spawn(page(ws_url.clone(), seconds)))
        .collect();
    let mut total = PageReport::default();
    for (i, handle) in pages.into_iter().enumerate() {
        let report = handle.await.unwrap_or_default();
        println!(
            "page {i}: {} games, {} plies, {} errors {:?}",
            report.games,
            report.plies,
            report.errors.len(),
            report.reasons
        );
        for e in report.errors.iter().take(5) {
            println!("  error: {e}");
        }
        total.games += report.games;
        total.plies += report.plies;
        total.errors.extend(report.errors);
        for (reason, n) in report.reasons {
            *total.reasons.entry(reason).or_default() += n;
        }
    }
    println!(
        "all pages: {} games, {} plies, {} errors; endings {:?}",
        total.games,
        total.plies,
        total.errors.len(),
        total.reasons
    );
}

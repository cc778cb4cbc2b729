//! Issue 57: the deployment recipe of docs/online.md. The systemd unit
//! (`deploy/gogo-gui@.service`) is what systemd accepts (`systemd-analyze verify`), and its
//! command, run as systemd would run it, makes processes that share one PostgreSQL; stopped
//! as systemd stops it (SIGTERM), a process drains: it ends at once and the other process
//! takes its game up before the lease would have lapsed, and the game goes on.
#![cfg_attr(not(has_postgres), allow(dead_code, unused_imports))]

mod common;

use common::{call, free_port, player, send_json as send, Schema};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const UNIT: &str = include_str!("../../../deploy/gogo-gui@.service");

/// The unit's command with the test's binary, port, database and address in place of the
/// example's; each replacement must find its text.
fn command(port: u16, db: &str) -> Vec<String> {
    let line = UNIT
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("an ExecStart line");
    let public = format!("http://127.0.0.1:{port}");
    let mut text = line.to_string();
    for (from, to) in [
        ("/usr/local/bin/gogo-gui", env!("CARGO_BIN_EXE_gogo-gui")),
        ("/usr/local/bin/gogo", "/bin/sh"),
        ("%i", &port.to_string()),
        ("${GOGO_DB}", db),
        ("${GOGO_PUBLIC_URL}", &public),
    ] {
        assert!(text.contains(from), "the unit's command has no `{from}`");
        text = text.replace(from, to);
    }
    text.split_whitespace().map(str::to_string).collect()
}

/// A process started with the unit's command, killed at the end whatever happens.
struct Unit(Child);

impl Drop for Unit {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start(port: u16, db: &str) -> Unit {
    let words = command(port, db);
    let child = Command::new(&words[0])
        .args(&words[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            Instant::now() < deadline,
            "the unit's process did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Unit(child)
}

#[test]
fn the_systemd_unit_is_one_systemd_accepts() {
    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        // Said, not passed silently: .ci/run installs systemd.
        eprintln!("no systemd-analyze: the unit is not verified here");
        return;
    };
    assert!(version.status.success());
    let dir = std::env::temp_dir().join(format!("gogo-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Verified as an instance, with the binaries this build made (verify wants them).
    let unit = UNIT
        .replace("/usr/local/bin/gogo-gui", env!("CARGO_BIN_EXE_gogo-gui"))
        .replace("/usr/local/bin/gogo", "/bin/sh");
    let path = dir.join("gogo-gui@8081.service");
    std::fs::write(&path, unit).unwrap();
    let checked = Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(&path)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stderr);
    // Only what the test machine lacks (the user, the environment file) may be said.
    let complaints: Vec<&str> = said
        .lines()
        .filter(|l| !l.contains("gogo.env") && !l.contains("User") && !l.trim().is_empty())
        .collect();
    assert!(checked.status.success() && complaints.is_empty(), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_process_stopped_as_systemd_stops_it_hands_its_games_over_at_once() {
    let schema = Schema::new("drain").await;
    let ports = [free_port(), free_port()];
    let mut one = start(ports[0], &schema.url).await;
    let _two = start(ports[1], &schema.url).await;
    let [one_at, two_at]: [SocketAddr; 2] = ports.map(|p| ([127, 0, 0, 1], p).into());
    // A game held by process 1, both players on process 2.
    let (alice, _) = player(one_at, "alice").await;
    let (bob, _) = player(two_at, "bob").await;
    let settings = json!({"color": "sente",
        "clock": {"kind": "fischer", "main_ms": 60000, "increment_ms": 0}});
    let (status, room) = call(one_at, "POST", "/online/rooms", &alice, Some(settings)).await;
    assert_eq!(status, 200, "{room}");
    let game = room["id"].as_str().unwrap().to_string();
    let (status, joined) = call(
        two_at,
        "POST",
        &format!("/online/rooms/{game}/join"),
        &bob,
        None,
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let seats = [
        room["seat"].as_str().unwrap(),
        joined["seat"].as_str().unwrap(),
    ];
    let url = |seat: &str| format!("ws://{two_at}/online/ws?game={game}&seat={seat}");
    let (mut sente, _) = common::come_back(&url(seats[0])).await;
    send(&mut sente, json!({"type": "move", "ply": 0, "usi": "2e3d"})).await;
    common::expect_update(&mut sente, "event", |v| v["event"]["ply"] == 0).await;
    let sql = format!("SELECT holder FROM game_leases WHERE game = '{game}' AND expires > now()");
    let before = schema.query(&sql).await;
    assert_eq!(before.len(), 1);

    // systemd's stop: SIGTERM; the process ends, and its game is taken up by the other well
    // before its lease would have lapsed.
    let stopped = Instant::now();
    let term = Command::new("kill")
        .args(["-TERM", &one.0.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let exit = loop {
        if let Some(status) = one.0.try_wait().unwrap() {
            break status;
        }
        assert!(stopped.elapsed() < Duration::from_secs(10), "still running");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(exit.success(), "{exit:?}");
    let moved = loop {
        let now = schema.query(&sql).await;
        if !now.is_empty() && now != before {
            break stopped.elapsed();
        }
        assert!(stopped.elapsed() < Duration::from_secs(10), "not taken up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        moved < gogo_gui::online::cluster::LEASE,
        "taken up after {moved:?}: as late as a lapse"
    );
    // The game goes on from where it was.
    drop(sente);
    let (mut sente, _) = common::come_back(&url(seats[0])).await;
    let (mut gote, view) = common::come_back(&url(seats[1])).await;
    assert_eq!(view["moves"], json!(["2e3d"]), "{view}");
    send(&mut gote, json!({"type": "move", "ply": 1, "usi": "4a3b"})).await;
    let seen: Value = common::expect_update(&mut sente, "event", |v| v["event"]["ply"] == 1).await;
    assert_eq!(seen["event"]["usi"], "4a3b");
    eprintln!("drained: the game was taken up {moved:?} after SIGTERM");
}

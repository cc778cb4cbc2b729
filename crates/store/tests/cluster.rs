//! Several processes on one PostgreSQL: a live game's lease is held by one process at a
//! time, taken over only once it lapses, and given up by a process that drains; the bus
//! carries each process's messages in order. PostgreSQL only (`GOGO_TEST_POSTGRES`; SQLite
//! serves one process and refuses leases, which is tested without it).

use gogo_rules::{Position, RuleSet};
use gogo_store::cluster::{Listener, Notifier};
use gogo_store::*;
use std::time::{Duration, Instant};

/// A schema of the test's own, dropped with it.
struct Schema {
    url: String,
    name: String,
}

impl Schema {
    fn new(name: &str) -> Schema {
        let url = std::env::var("GOGO_TEST_POSTGRES").expect("GOGO_TEST_POSTGRES");
        let name = format!("c{}_{name}", std::process::id());
        let schema = Schema { url, name };
        schema
            .client()
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", schema.name))
            .unwrap();
        schema
    }

    fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url, postgres::NoTls).unwrap()
    }

    fn open(&self) -> PostgresStore {
        PostgresStore::connect(&self.url, Some(&self.name)).unwrap()
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let _ = self
            .client()
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
    }
}

/// Player `p1`, whom the games seat.
fn add_player(store: &mut PostgresStore) {
    let player = PlayerRecord {
        id: "p1".into(),
        name: "alice".into(),
        rating: StoredRating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        },
        games: 0,
        bot: false,
    };
    store
        .create_player(&player, Secret::generate().hash(), 1000)
        .unwrap();
}

fn game(id: &str, player: Option<&str>) -> NewGame {
    let seat = |name: &str| SeatRecord {
        player: player.map(String::from),
        name: name.into(),
        seat: Some(Secret::generate().hash()),
    };
    NewGame {
        id: id.into(),
        created_ms: 1000,
        rules: RuleSet::standard(),
        start: Position::startpos(),
        settings: r#"{"clock":"none"}"#.into(),
        seats: [seat("alice"), seat("bob")],
    }
}

const TTL: Duration = Duration::from_millis(400);

#[test]
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
fn a_lease_is_held_by_one_process_until_it_lapses_or_is_let_go() {
    let schema = Schema::new("lease");
    let (mut one, mut two) = (schema.open(), schema.open());
    add_player(&mut one);
    one.create_game(&game("g1", Some("p1"))).unwrap();
    // The local board's games (no player) are no process's to take.
    one.create_game(&game("local", None)).unwrap();

    assert_eq!(one.claim_lapsed_games("one", TTL, 10).unwrap(), ["g1"]);
    assert!(two.claim_lapsed_games("two", TTL, 10).unwrap().is_empty());
    assert!(!two.claim_game("g1", "two", TTL).unwrap(), "held by one");
    assert!(
        one.claim_game("g1", "one", TTL).unwrap(),
        "its holder may claim again"
    );
    assert_eq!(two.lease_holder("g1").unwrap().as_deref(), Some("one"));

    // Renewed, it stays; lapsed, it goes to whoever claims first.
    std::thread::sleep(TTL / 2);
    let g1 = ["g1".to_string()];
    assert_eq!(one.renew_leases("one", &g1, TTL).unwrap(), ["g1"]);
    std::thread::sleep(TTL / 2 + TTL / 4);
    assert!(!two.claim_game("g1", "two", TTL).unwrap(), "renewed");
    std::thread::sleep(TTL);
    assert_eq!(two.lease_holder("g1").unwrap(), None);
    assert_eq!(two.claim_lapsed_games("two", TTL, 10).unwrap(), ["g1"]);
    assert!(
        one.renew_leases("one", &g1, TTL).unwrap().is_empty(),
        "taken over"
    );
    assert_eq!(one.lease_holder("g1").unwrap().as_deref(), Some("two"));

    // A process that drains lets go at once.
    two.release_leases("two").unwrap();
    assert_eq!(one.claim_lapsed_games("one", TTL, 10).unwrap(), ["g1"]);

    // An ended game's room may run on while its pages stay; once its holder lets it go,
    // no one takes it up.
    let result = GameResult {
        winner: None,
        reason: "aborted".into(),
        ended_ms: 2000,
    };
    one.finish("g1", &result).unwrap();
    assert_eq!(one.renew_leases("one", &g1, TTL).unwrap(), ["g1"]);
    assert!(one.renew_leases("one", &[], TTL).unwrap().is_empty());
    std::thread::sleep(TTL * 2);
    assert!(
        one.renew_leases("one", &g1, TTL).unwrap().is_empty(),
        "lapsed"
    );
    assert!(two.claim_lapsed_games("two", TTL, 10).unwrap().is_empty());
    assert!(!two.claim_game("g1", "two", TTL).unwrap());
}

#[test]
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
fn two_processes_claiming_lapsed_games_at_once_never_both_get_one() {
    const GAMES: usize = 60;
    let schema = Schema::new("claims");
    let mut setup = schema.open();
    add_player(&mut setup);
    for n in 0..GAMES {
        setup
            .create_game(&game(&format!("g{n}"), Some("p1")))
            .unwrap();
    }
    let start = std::sync::Barrier::new(2);
    let claimed: Vec<Vec<String>> = std::thread::scope(|scope| {
        let claimers: Vec<_> = ["one", "two"]
            .into_iter()
            .map(|me| {
                let (start, schema) = (&start, &schema);
                scope.spawn(move || {
                    let mut store = schema.open();
                    let mut mine = Vec::new();
                    for _ in 0..GAMES {
                        start.wait();
                        mine.extend(
                            store
                                .claim_lapsed_games(me, Duration::from_secs(30), 1)
                                .unwrap(),
                        );
                    }
                    mine
                })
            })
            .collect();
        claimers.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let mut all: Vec<&String> = claimed.iter().flatten().collect();
    all.sort();
    let count = all.len();
    all.dedup();
    assert_eq!(all.len(), count, "a game claimed by both");
    assert_eq!(count, GAMES, "every game claimed");
}

#[test]
#[cfg_attr(
    not(has_postgres),
    ignore = "no PostgreSQL: set GOGO_TEST_POSTGRES to a database URL (.ci/run does)"
)]
fn the_bus_carries_each_senders_messages_in_order_and_refuses_bad_channels() {
    let url = std::env::var("GOGO_TEST_POSTGRES").unwrap();
    let channel = format!("test_{}", std::process::id());
    let mut listener = Listener::connect(&url, &[&channel]).unwrap();
    let mut notifier = Notifier::connect(&url).unwrap();
    for batch in 0..20 {
        let messages: Vec<(String, String)> = (0..10)
            .map(|i| (channel.clone(), format!("{}", batch * 10 + i)))
            .collect();
        notifier.send(&messages).unwrap();
    }
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while got.len() < 200 && Instant::now() < deadline {
        got.extend(listener.wait(Duration::from_millis(200)).unwrap());
    }
    let expected: Vec<String> = (0..200).map(|n| n.to_string()).collect();
    assert_eq!(got, expected);
    assert!(listener
        .wait(Duration::from_millis(100))
        .unwrap()
        .is_empty());

    for bad in ["", "Upper", "a\"; DROP TABLE games; --", &"x".repeat(64)] {
        assert!(Listener::connect(&url, &[bad]).is_err(), "{bad:?}");
        assert!(
            notifier.send(&[(bad.to_string(), "hi".into())]).is_err(),
            "{bad:?}"
        );
    }
    let too_long = "x".repeat(cluster::MAX_NOTIFICATION + 1);
    assert!(notifier.send(&[(channel.clone(), too_long)]).is_err());
    // Refused before anything was sent: nothing of the batch arrives.
    assert!(notifier
        .send(&[
            (channel.clone(), "first".into()),
            ("Bad".into(), "x".into())
        ])
        .is_err());
    assert!(listener
        .wait(Duration::from_millis(200))
        .unwrap()
        .is_empty());
}

#[test]
fn sqlite_has_no_leases() {
    let mut store = Store::in_memory().unwrap();
    assert!(matches!(store.leases(), Err(StoreError::NeedsPostgres(_))));
}

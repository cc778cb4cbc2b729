//! The page in a real browser: Debian's Chromium, headless, driven through WebDriver
//! (chromedriver). It plays a whole game against gogo by clicking squares and hand pieces,
//! checks every position the page shows against the rules crate, the result, a takeback,
//! loading an SFEN and saving a KIF that the rules crate replays.
//!
//! Skipped (and says so) when /usr/bin/chromium or /usr/bin/chromedriver is missing;
//! `scripts/gui-e2e.sh` installs them and runs it. With `GOGO_SCREENSHOTS=DIR` it saves
//! `gui-game.png` (a game in progress, with the analysis panel) and `gui-finished.png`.

mod common;

use common::gogo;
use gogo_gui::{app, Config};
use gogo_protocol::{EngineSpec, LineProcess};
use gogo_rules::kif::read_kif;
use gogo_rules::{Color, Game, Position, Rng, RuleSet};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The gogo-gui server on a thread of its own; its address.
fn start_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    let engine = EngineSpec::new(gogo().display().to_string());
    let config = Config::new(engine, address);
    let url = config.access.url(address);
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app(config)).await.unwrap();
        });
    });
    url
}

/// A WebDriver session with headless Chromium.
struct Browser {
    base: String,
    _driver: LineProcess,
    _profile: PathBuf,
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let driver =
            LineProcess::spawn(CHROMEDRIVER, [format!("--port={port}")]).expect("chromedriver");
        let root = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{root}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("gogo-chromium-{}", std::process::id()));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display())]}}}});
        let answer: Value = ureq::post(&format!("{root}/session"))
            .send_json(capabilities)
            .expect("a browser session")
            .into_json()
            .unwrap();
        let id = answer["value"]["sessionId"].as_str().unwrap().to_string();
        Browser {
            base: format!("{root}/session/{id}"),
            _driver: driver,
            _profile: profile,
        }
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let answer: Value = ureq::post(&format!("{}{path}", self.base))
            .send_json(body)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .into_json()
            .unwrap();
        answer["value"].clone()
    }

    fn get(&self, path: &str) -> Value {
        let answer: Value = ureq::get(&format!("{}{path}", self.base))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        answer["value"].clone()
    }

    fn open(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    fn script(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": [] }))
    }

    fn element(&self, css: &str) -> String {
        let v = self.post("/element", json!({"using": "css selector", "value": css}));
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_string()
    }

    /// Clicks the element `css` finds. The page redraws the board when the engine's analysis
    /// arrives, which may replace the element between finding and clicking it (the driver
    /// then answers "stale element", and nothing was clicked): then it is found again.
    fn click(&self, css: &str) {
        for attempt in 1.. {
            let id = self.element(css);
            match ureq::post(&format!("{}/element/{id}/click", self.base)).send_json(json!({})) {
                Ok(_) => return,
                Err(ureq::Error::Status(404, _)) if attempt < 5 => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    fn type_text(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.post(&format!("/element/{id}/clear"), json!({}));
        self.post(&format!("/element/{id}/value"), json!({ "text": text }));
    }

    /// Waits until `script` returns true.
    fn wait(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.script(script) != Value::Bool(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn state(&self) -> Value {
        self.script("return window.gogo.state;")
    }

    fn screenshot(&self, path: &Path) {
        use base64::Engine as _;
        let data = self.get("/screenshot");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = ureq::delete(&self.base).call();
    }
}

/// The position the rules crate reaches from the server's start and moves.
fn replay(state: &Value) -> Game {
    let start = Position::from_sfen(state["positions"][0].as_str().unwrap()).unwrap();
    let rules = match state["rules"].as_str().unwrap() {
        "kawu" => RuleSet::kawu(),
        _ => RuleSet::standard(),
    };
    let mut game = Game::from_position(rules, start);
    for m in state["moves"].as_array().unwrap() {
        game.play_usi(m["usi"].as_str().unwrap()).unwrap();
    }
    game
}

/// What the page shows matches the rules crate: the board's SFEN, its pieces, the legal
/// moves offered, the result.
fn check_page(browser: &Browser) -> Value {
    let state = browser.state();
    let game = replay(&state);
    let shown =
        browser.script("return document.getElementById('board').getAttribute('data-sfen');");
    assert_eq!(shown.as_str().unwrap(), game.position().to_sfen());
    let pieces = browser.script("return document.querySelectorAll('#board g.piece').length;");
    let on_board = game
        .position()
        .board()
        .iter()
        .filter(|p| p.is_some())
        .count();
    assert_eq!(pieces.as_u64().unwrap() as usize, on_board);
    let mut legal: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let mut offered: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    if !offered.is_empty() {
        legal.sort();
        offered.sort();
        assert_eq!(offered, legal);
    }
    state
}

/// Makes `usi` by clicking: the piece (or the hand piece), then the square, then the
/// promotion choice if asked.
fn click_move(browser: &Browser, usi: &str, color: &str) {
    let b = usi.as_bytes();
    let to = &usi[2..4];
    if b[1] == b'*' {
        browser.click(&format!(
            ".hand-piece[data-kind='{}'][data-color='{color}']",
            &usi[..1]
        ));
    } else {
        browser.click(&format!("#board g.piece[data-square='{}']", &usi[..2]));
    }
    let target = browser.script(&format!(
        "return document.querySelector(\"#board g.piece[data-square='{to}']\") !== null;"
    ));
    if target == Value::Bool(true) {
        browser.click(&format!("#board g.piece[data-square='{to}']"));
    } else {
        browser.click(&format!("#board rect[data-square='{to}']"));
    }
    let asked = browser.script("return !document.getElementById('promotion').hidden;");
    if asked == Value::Bool(true) {
        let choice = if usi.ends_with('+') {
            "#promote-yes"
        } else {
            "#promote-no"
        };
        browser.click(choice);
    }
}

/// One browser at a time: two at once on two cores make both tests flaky.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The board in a fresh browser, the page loaded, and its address. Holds [`ONE_BROWSER`].
/// The tests that call it are ignored where Chromium or ChromeDriver was missing at build
/// time (`build.rs`; `.ci/run` and `scripts/gui-e2e.sh` install them).
fn open_board() -> Option<(std::sync::MutexGuard<'static, ()>, Browser, String)> {
    let one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "{CHROMIUM} or {CHROMEDRIVER} went missing since the build"
    );
    let url = start_server();
    let browser = Browser::start();
    browser.open(&url);
    browser.wait(
        "return !!(window.gogo && window.gogo.state);",
        "the first state",
    );
    Some((one, browser, url))
}

#[test]
#[cfg_attr(
    not(has_browser),
    ignore = "no /usr/bin/chromium and /usr/bin/chromedriver (scripts/gui-e2e.sh installs them)"
)]
fn a_whole_game_in_a_real_browser() {
    let Some((_one, browser, _)) = open_board() else {
        return;
    };
    let shots = std::env::var_os("GOGO_SCREENSHOTS").map(PathBuf::from);
    check_page(&browser);

    // A new game through the dialog: the person plays Sente, gogo thinks 50 ms a move.
    browser.click("#new-game");
    browser.click("#ng-side option[value='sente']");
    browser.click("#ng-clock option[value='none']");
    browser.type_text("#ng-engine", "0.05");
    browser.click("#ng-start-button");
    browser.wait(
        "return window.gogo.state.moves.length === 0 && window.gogo.state.legal.length > 0;",
        "the new game",
    );

    // A move, the engine's answer, and a takeback of both.
    click_move(&browser, "3e4d", "sente");
    browser.wait(
        "return window.gogo.state.moves.length === 2;",
        "the engine's answer",
    );
    check_page(&browser);
    browser.click("#takeback");
    browser.wait(
        "return window.gogo.state.moves.length === 0;",
        "the takeback",
    );
    check_page(&browser);

    // For the screenshots, a clocked game with the analysis panel on.
    if shots.is_some() {
        browser.click("#new-game");
        browser.click("#ng-clock option[value='fischer']");
        browser.type_text("#ng-main", "20");
        browser.type_text("#ng-extra", "0.2");
        browser.click("#ng-start-button");
        browser.wait(
            "return window.gogo.state.moves.length === 0 && window.gogo.state.clock !== null;",
            "the clocked game",
        );
        browser.click("#analyze");
    }

    // Play on with random legal moves until the game ends.
    let mut rng = Rng::new(5);
    let mut plies = 0;
    loop {
        browser.wait(
            "const s = window.gogo.state; return s.result !== null || (s.legal.length > 0 && s.turn === 'sente');",
            "our turn or the end",
        );
        let state = check_page(&browser);
        if state["result"].is_string() {
            break;
        }
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[rng.below(legal.len())].as_str().unwrap().to_string();
        let before = state["moves"].as_array().unwrap().len();
        click_move(&browser, &mv, "sente");
        browser.wait(
            &format!("return window.gogo.state.moves.length > {before};"),
            "the move to be played",
        );
        let played = browser.state()["moves"][before]["usi"].clone();
        assert_eq!(
            played.as_str().unwrap(),
            mv,
            "the page played what was clicked"
        );
        plies += 1;
        if let (2, Some(dir)) = (plies, &shots) {
            browser.wait(
                &format!("return window.gogo.state.moves.length > {};", before + 1),
                "the engine's move",
            );
            browser.wait(
                "return window.gogo.analysis.length > 0;",
                "an analysis line",
            );
            browser.screenshot(&dir.join("gui-game.png"));
        }
        assert!(plies < 200, "the game goes on for ever");
    }
    let state = check_page(&browser);
    let game = replay(&state);
    let outcome = game.outcome().expect("the rules say the game is over");
    let expected = match outcome.winner() {
        Some(Color::Sente) => "1-0",
        Some(Color::Gote) => "0-1",
        None => "1/2-1/2",
    };
    assert_eq!(state["result"].as_str().unwrap(), expected);
    let shown = browser.script("return document.getElementById('result').textContent;");
    assert!(
        shown.as_str().unwrap().contains(outcome.reason()),
        "{shown}"
    );
    if let Some(dir) = &shots {
        browser.screenshot(&dir.join("gui-finished.png"));
    }

    // Save the game as KIF: the rules crate replays it to the same moves.
    browser.click("#save-kif");
    browser.wait(
        "return document.getElementById('export-text').value.includes('手合割');",
        "the KIF",
    );
    let kif = browser.script("return document.getElementById('export-text').value;");
    let (start, moves) = read_kif(kif.as_str().unwrap()).unwrap();
    assert_eq!(&start, game.start());
    assert_eq!(moves.as_slice(), game.moves());

    // Load an SFEN: the board shows it.
    let sfen = "rbsgk/p4/5/4P/KGSBR b - 1";
    browser.type_text("#load-text", sfen);
    browser.click("#load-button");
    browser.wait(
        &format!("return document.getElementById('board').getAttribute('data-sfen') === '{sfen}';"),
        "the loaded position",
    );
    check_page(&browser);
    // Bad text: a message, the position kept.
    browser.type_text("#load-text", "not a position");
    browser.click("#load-button");
    browser.wait(
        "return !document.getElementById('message').hidden;",
        "the error message",
    );
    let kept = browser.script("return document.getElementById('board').getAttribute('data-sfen');");
    assert_eq!(kept.as_str().unwrap(), sfen);
}

/// A game at level 1 through the dialog: the header names the level, the engine answers
/// far sooner than the five seconds a move it is given (level 1 looks at 60 nodes, where
/// full strength would think the whole time), and the choice is remembered after a reload.
#[test]
#[cfg_attr(
    not(has_browser),
    ignore = "no /usr/bin/chromium and /usr/bin/chromedriver (scripts/gui-e2e.sh installs them)"
)]
fn a_game_at_level_1_answers_quickly() {
    let Some((_one, browser, url)) = open_board() else {
        return;
    };
    browser.click("#new-game");
    browser.click("#ng-side option[value='sente']");
    browser.click("#ng-level option[value='1']");
    browser.click("#ng-clock option[value='none']");
    browser.type_text("#ng-engine", "5");
    browser.click("#ng-start-button");
    browser.wait(
        "return window.gogo.state.level === 1 && window.gogo.state.moves.length === 0;",
        "the level-1 game",
    );
    let header = browser.script("return document.getElementById('engine-name').textContent;");
    assert!(header.as_str().unwrap().ends_with("(level 1)"), "{header}");
    for (ply, usi) in ["3e4d", "4d3c"].iter().enumerate() {
        let state = check_page(&browser);
        let legal: Vec<&str> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        let mv = if legal.contains(usi) { *usi } else { legal[0] };
        let asked = Instant::now();
        click_move(&browser, mv, "sente");
        browser.wait(
            &format!("return window.gogo.state.moves.length === {};", 2 * ply + 2),
            "the engine's answer",
        );
        let took = asked.elapsed();
        assert!(
            took < Duration::from_millis(2500),
            "{took:?} for a level-1 answer"
        );
    }
    browser.open(&url);
    browser.wait(
        "return !!(window.gogo && window.gogo.state);",
        "the reloaded page",
    );
    let remembered = browser.script("return document.getElementById('ng-level').value;");
    assert_eq!(remembered, Value::String("1".into()));
}

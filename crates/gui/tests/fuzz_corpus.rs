//! The `gui_request`, `engine_messages`, `room_messages` and `bus_messages` fuzz corpora replayed through the board's checks
//! (see fuzz/), so that whatever once broke stays fixed.

use gogo_gui::fuzz_checks::{
    check_bus_messages, check_engine_messages, check_gui_request, check_room_messages,
};
use gogo_rules::fuzz_checks::replay_corpus;

#[test]
fn gui_request_corpus() {
    assert!(replay_corpus("gui_request", check_gui_request) >= 5);
}

#[test]
fn engine_messages_corpus_through_a_board_session() {
    assert!(replay_corpus("engine_messages", check_engine_messages) >= 5);
}

#[test]
fn room_messages_corpus() {
    assert!(replay_corpus("room_messages", check_room_messages) >= 5);
}

#[test]
fn bus_messages_corpus() {
    assert!(replay_corpus("bus_messages", check_bus_messages) >= 5);
}

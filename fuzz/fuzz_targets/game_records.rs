#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_tools::fuzz_checks::check_game_records(data));

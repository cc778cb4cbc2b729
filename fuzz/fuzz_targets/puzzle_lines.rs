#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_puzzle::fuzz_checks::check_puzzle_lines(data));

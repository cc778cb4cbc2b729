#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_search::fuzz_checks::check_network(data));

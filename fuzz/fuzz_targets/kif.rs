#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_rules::fuzz_checks::check_kif(data));

#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_book::fuzz_checks::check_book(data));

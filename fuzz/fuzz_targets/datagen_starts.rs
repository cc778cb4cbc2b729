#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_tools::fuzz_checks::check_datagen_starts(data));

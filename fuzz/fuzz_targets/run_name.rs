#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_train::fuzz_checks::check_run_name(data));

#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_protocol::fuzz_checks::check_engine_spec(data));

#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gogo_arena::fuzz_checks::check_match_records(data);
});

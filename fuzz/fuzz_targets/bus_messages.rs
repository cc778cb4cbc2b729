#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gogo_gui::fuzz_checks::check_bus_messages(data));

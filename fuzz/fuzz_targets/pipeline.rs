//! parse → rules → confirmation → every report format, on arbitrary bytes.
//! Nothing may panic, hang or recurse without bound; findings must render.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    warplint::fuzzing::check_and_render(data);
});

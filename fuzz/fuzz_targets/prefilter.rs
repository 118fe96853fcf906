//! The prefilter is sound: whatever it skips, the full pipeline finds
//! nothing in either.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    warplint::fuzzing::prefilter_is_sound(data);
});

//! Deep expressions, long functions and deep `if` chains, shaped by the
//! fuzzer's bytes: the pipeline must finish, and the uniformity analysis
//! must stay within its counted, linear bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = warplint::fuzzing::generate::from_bytes(data);
    warplint::fuzzing::counted_bound(src.as_bytes());
    warplint::fuzzing::check_and_render(src.as_bytes());
});

#!/usr/bin/env bash
# Build and run every hardware case on a CUDA GPU, natively and under
# compute-sanitizer, and collect the raw logs.
#
#   bash run_on_gpu.sh SRC_DIR OUT_DIR
#
# SRC_DIR holds the *.cu cases and summarize.py; OUT_DIR receives
#   env.txt       device, driver and tool versions
#   raw.log       every log of every step, concatenated, in a fixed order
#   logs.tar.gz   the per-step logs and exit codes (input of summarize.py)
#   summary.json  the parsed outcome of each case
# Every step runs under a timeout, so a hanging kernel costs its timeout and
# nothing more; a global deadline marks what is left as not run.
set -u

SRC=$(cd "${1:?usage: run_on_gpu.sh SRC_DIR OUT_DIR}" && pwd)
OUT=$(mkdir -p "${2:?usage: run_on_gpu.sh SRC_DIR OUT_DIR}" && cd "$2" && pwd)
WORK=${WORK:-/tmp/warplint-hw}
FLAGS="-arch=sm_90 -lineinfo"
NATIVE_TIMEOUT=10     # seconds; exit 124 means the kernel hung
SANITIZER_TIMEOUT=60  # seconds per tool run
HUNG_SANITIZER_TIMEOUT=30  # for cases that already hung natively
# Wall-clock deadline (epoch seconds): the xargs children are new shells,
# so $SECONDS would not carry over.
DEADLINE=$(($(date +%s) + ${HW_BUDGET_S:-540}))
JOBS=${HW_JOBS:-8}
NATIVE_REPS=${HW_NATIVE_REPS:-1000}  # launches per native run (each checked)

rm -rf "$WORK"
mkdir -p "$WORK/bin" "$WORK/logs"
cd "$WORK" || exit 2

{
    echo "date: $(date -u +%Y-%m-%d)"
    echo "flags: $FLAGS"
    echo "timeouts: native=${NATIVE_TIMEOUT}s sanitizer=${SANITIZER_TIMEOUT}s (hung cases ${HUNG_SANITIZER_TIMEOUT}s)"
    echo "native_reps: $NATIVE_REPS"
    echo "--- nvidia-smi"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1
    echo "--- nvcc --version"
    nvcc --version 2>&1
    echo "--- compute-sanitizer --version"
    compute-sanitizer --version 2>&1
} >"$OUT/env.txt"
cat "$OUT/env.txt"

cases=()
for f in "$SRC"/*.cu; do
    cases+=("$(basename "$f" .cu)")
done
echo "${#cases[@]} cases"

# 1. Compile, in parallel (CPU only).
compile_one() {
    local c=$1
    nvcc $FLAGS -o "bin/$c" "$SRC/$c.cu" >"logs/$c.compile.log" 2>&1
    echo $? >"logs/$c.compile.rc"
}
export -f compile_one
export SRC FLAGS
printf '%s\n' "${cases[@]}" | xargs -P "$JOBS" -I{} bash -c 'compile_one {}'
echo "compiled: $(grep -lx 0 logs/*.compile.rc | wc -l) of ${#cases[@]}"

# 2. Native runs, one at a time so that timing is the kernel's own.
for c in "${cases[@]}"; do
    if [ "$(cat "logs/$c.compile.rc")" != 0 ]; then continue; fi
    if [ "$(date +%s)" -ge "$DEADLINE" ]; then echo "deadline" >"logs/$c.native.skipped"; continue; fi
    start=$SECONDS
    HW_REPS=$NATIVE_REPS timeout -k 5 "$NATIVE_TIMEOUT" "./bin/$c" >"logs/$c.native.log" 2>&1
    echo $? >"logs/$c.native.rc"
    echo $((SECONDS - start)) >"logs/$c.native.seconds"
    echo "native $c: rc $(cat "logs/$c.native.rc") $(grep -m1 '^RESULT' "logs/$c.native.log")"
done

# 3. compute-sanitizer, one launch per case (HW_REPS=1), several at a time.
# racecheck_info is racecheck at its most sensitive level, for information.
sanitize_one() {
    local c=$1 tool=$2 limit=$SANITIZER_TIMEOUT
    local rc args=(--tool "$tool")
    if [ "$tool" = racecheck_info ]; then args=(--tool racecheck --racecheck-detect-level info); fi
    rc=$(cat "logs/$c.native.rc" 2>/dev/null)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then limit=$HUNG_SANITIZER_TIMEOUT; fi
    if [ "$(date +%s)" -ge "$DEADLINE" ]; then echo deadline >"logs/$c.$tool.skipped"; return; fi
    HW_REPS=1 timeout -k 5 "$limit" compute-sanitizer "${args[@]}" --print-limit 20 "./bin/$c" \
        >"logs/$c.$tool.log" 2>&1
    echo $? >"logs/$c.$tool.rc"
}
export -f sanitize_one
export SANITIZER_TIMEOUT HUNG_SANITIZER_TIMEOUT DEADLINE
for c in "${cases[@]}"; do
    if [ "$(cat "logs/$c.compile.rc")" = 0 ]; then
        for tool in synccheck racecheck memcheck racecheck_info; do echo "$c $tool"; done
    fi
done | xargs -P "$JOBS" -L1 bash -c 'sanitize_one "$0" "$1"'
echo "sanitizers done at ${SECONDS}s"

# 4. Collect.
for c in "${cases[@]}"; do
    for step in compile native synccheck racecheck memcheck racecheck_info; do
        for ext in rc seconds skipped log; do
            f="logs/$c.$step.$ext"
            [ -f "$f" ] || continue
            echo "===== $c $step $ext"
            cat "$f"
        done
    done
done >"$OUT/raw.log"
cp "$OUT/env.txt" logs/env.txt
tar -czf "$OUT/logs.tar.gz" logs
python3 "$SRC/summarize.py" --logs logs --src "$SRC" --json "$OUT/summary.json" \
    || echo "summarize.py failed; the raw logs are in logs.tar.gz"
echo "total ${SECONDS}s"

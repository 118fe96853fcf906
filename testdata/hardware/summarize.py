#!/usr/bin/env python3
"""Turn the logs of run_on_gpu.sh into summary.json and results.toml.

    python3 summarize.py --logs LOGS_DIR --src testdata/hardware \
        [--json summary.json] [--toml results.toml]

LOGS_DIR is the `logs` folder of logs.tar.gz (with env.txt in it). The
expected rule and line of each case come from its `// expect:` marker, read
the same way as tests/testdata.rs reads them. Standard library only, so it
runs on the GPU machine too.
"""

import argparse
import json
import re
import sys
from pathlib import Path

MARKERS = (("// expect-next-line:", 1), ("// expect:", 0))
HANG_CODES = {"124", "137"}


def expectation(cu_path):
    """(rule, line) of the case: its first marker, or ("none", 0)."""
    found = []
    for number, text in enumerate(cu_path.read_text().splitlines(), start=1):
        for marker, shift in MARKERS:
            pos = text.find(marker)
            if pos >= 0:
                for code in text[pos + len(marker):].split(","):
                    code = code.strip().split(" ")[0] if code.strip() else ""
                    if code:
                        found.append((code, number + shift))
                break
    if not found:
        return "none", 0
    rules = {code for code, _ in found}
    if len(rules) != 1:
        sys.exit(f"{cu_path}: one rule per hardware case, found {sorted(rules)}")
    return found[0]


def read(path):
    return path.read_text(errors="replace") if path.exists() else None


def tidy(line):
    """Drop machine-specific paths: the checkout's folder and nvcc's temporaries."""
    line = re.sub(r"/tmp/tmpxft_[0-9a-f]+_[0-9a-f]+-\d+_", "", line)
    line = re.sub(r"(?:/[\w.+-]+)+/([\w.+-]+\.(?:cu|cuh|h|hpp|ptx))", r"\1", line)
    return re.sub(r"\s+", " ", line).strip()


def first_error_line(log):
    for line in log.splitlines():
        if re.search(r"\berror\b", line, re.IGNORECASE):
            return tidy(line)
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "no output"


def compile_outcome(logs, case):
    rc = read(logs / f"{case}.compile.rc")
    if rc is None:
        return "not-run"
    if rc.strip() == "0":
        return "ok"
    return "error: " + first_error_line(read(logs / f"{case}.compile.log") or "")


def native_outcome(logs, case):
    """(native, native_detail)."""
    if (logs / f"{case}.native.skipped").exists():
        return "not-run", "global deadline reached"
    rc = read(logs / f"{case}.native.rc")
    if rc is None:
        return "not-run", "not built"
    rc = rc.strip()
    log = read(logs / f"{case}.native.log") or ""
    result = next((l.strip() for l in log.splitlines() if l.startswith("RESULT ")), None)
    extra = [l.strip() for l in log.splitlines() if l.startswith("sampled ")]
    if rc in HANG_CODES:
        return "hang", f"killed by timeout (exit {rc}), no RESULT line" if result is None else result
    if result is None:
        tail = [l for l in log.splitlines() if l.strip()]
        return "crash", f"exit {rc}" + (f": {tail[-1].strip()}" if tail else "")
    detail = " ".join([result] + extra)
    verdict = result.split()[2] if len(result.split()) > 2 else ""
    if rc == "0" and verdict == "ok":
        return "ok", detail
    if rc == "1" and verdict == "wrong":
        return "wrong", detail
    return "crash", f"exit {rc}: {detail}"


HEADER = re.compile(r"^========= (\S.*)$")
SKIP = ("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "Target application returned")


def sanitizer_outcome(logs, case, tool):
    if (logs / f"{case}.{tool}.skipped").exists():
        return "not-run"
    rc = read(logs / f"{case}.{tool}.rc")
    if rc is None:
        return "not-run"
    rc = rc.strip()
    log = read(logs / f"{case}.{tool}.log") or ""
    if rc in HANG_CODES:
        return "timeout"
    summary = re.search(r"ERROR SUMMARY: (\d+) errors?", log)
    race = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", log)
    # racecheck prints its own summary line instead of ERROR SUMMARY.
    if summary is None and race is None:
        tail = [l for l in log.splitlines() if l.strip()]
        return f"error: sanitizer gave no summary (exit {rc})" + (f": {tail[-1].strip()}" if tail else "")
    errors = int(summary.group(1)) if summary else 0
    race_errors = int(race.group(2)) if race else 0
    race_warnings = int(race.group(3)) if race else 0
    if errors == 0 and race_errors == 0 and race_warnings == 0:
        return "clean"
    first = next(
        (tidy(m.group(1)) for m in map(HEADER.match, log.splitlines()) if m and not m.group(1).startswith(SKIP)),
        "",
    )
    where = re.search(r"([\w.-]+\.cu):(\d+)", log)
    at = f" at {where.group(1)}:{where.group(2)}" if where else ""
    if tool.startswith("racecheck"):
        counts = f"{race_errors} errors, {race_warnings} warnings" if race else f"{errors} errors"
        return f"hazard: {counts}{at}; {first}"
    return f"error: {errors} errors{at}; {first}"


def sanitizer_lines(logs, case):
    """Lines of the case's own file that synccheck, racecheck or memcheck blamed."""
    lines = set()
    for tool in ("synccheck", "racecheck", "memcheck"):
        log = read(logs / f"{case}.{tool}.log") or ""
        lines.update(int(n) for n in re.findall(rf"\b{re.escape(case)}\.cu:(\d+)", log))
    return sorted(lines)


def meta(logs):
    env = read(logs / "env.txt") or ""
    lines = env.splitlines()

    def after(prefix):
        return next((l[len(prefix):].strip() for l in lines if l.startswith(prefix)), "")

    def section(title):
        if f"--- {title}" not in lines:
            return []
        start = lines.index(f"--- {title}") + 1
        out = []
        for l in lines[start:]:
            if l.startswith("--- "):
                break
            out.append(l)
        return out

    smi = [l for l in section("nvidia-smi") if l.strip() and not l.startswith("name")]
    fields = [f.strip() for f in smi[0].split(",")] if smi else ["", "", ""]
    nvcc = next((l.strip() for l in section("nvcc --version") if l.startswith("Cuda compilation tools")), "")
    sanitizer = next((l.strip() for l in section("compute-sanitizer --version") if "Version" in l), "")
    return {
        "date": after("date:"),
        "device": fields[0],
        "driver": fields[1] if len(fields) > 1 else "",
        "compute_cap": fields[2] if len(fields) > 2 else "",
        "nvcc": nvcc,
        "compute_sanitizer": sanitizer,
        "flags": after("flags:"),
        "timeouts": after("timeouts:"),
        "native_runs": f"{after('native_reps:') or '?'} launches per native run, each checked; sanitizers run one launch",
        "sanitizer_flags": "--tool synccheck|racecheck|memcheck --print-limit 20, defaults otherwise; "
        "racecheck_info adds --racecheck-detect-level info (informational, not a symptom)",
    }


def toml_str(value):
    return json.dumps(value, ensure_ascii=False)


def write_toml(path, info, cases):
    out = [
        "# Generated by testdata/hardware/summarize.py from the logs of run_on_gpu.sh.",
        "# Do not edit by hand; see testdata/hardware/README.md to refresh it.",
        "",
        "[meta]",
    ]
    out += [f"{k} = {toml_str(v)}" for k, v in info.items()]
    for case in cases:
        out += ["", "[[case]]"]
        for k, v in case.items():
            # ints and lists of ints are valid TOML as Python prints them
            out.append(f"{k} = {v}" if isinstance(v, (int, list)) else f"{k} = {toml_str(v)}")
    Path(path).write_text("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--toml", type=Path)
    ap.add_argument("--prefix", default="testdata/hardware", help="path of the cases inside the repository")
    args = ap.parse_args()

    cases = []
    for cu in sorted(args.src.glob("*.cu")):
        name = cu.stem
        rule, line = expectation(cu)
        native, detail = native_outcome(args.logs, name)
        cases.append(
            {
                "file": f"{args.prefix}/{cu.name}",
                "rule": rule,
                "line": line,
                "compile": compile_outcome(args.logs, name),
                "native": native,
                "native_detail": detail,
                "synccheck": sanitizer_outcome(args.logs, name, "synccheck"),
                "racecheck": sanitizer_outcome(args.logs, name, "racecheck"),
                "memcheck": sanitizer_outcome(args.logs, name, "memcheck"),
                "racecheck_info": sanitizer_outcome(args.logs, name, "racecheck_info"),
                "sanitizer_lines": sanitizer_lines(args.logs, name),
            }
        )
    info = meta(args.logs)
    if args.json:
        args.json.write_text(json.dumps({"meta": info, "case": cases}, indent=2) + "\n")
    if args.toml:
        write_toml(args.toml, info, cases)
    for c in cases:
        print(f"{c['file']:60} {c['rule']:6} {c['compile'][:5]:5} {c['native']:6} "
              f"sync={c['synccheck'][:6]} race={c['racecheck'][:6]} mem={c['memcheck'][:6]}")


if __name__ == "__main__":
    main()

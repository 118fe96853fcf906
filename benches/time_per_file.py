#!/usr/bin/env python3
"""Time warplint per file: survey.py BIN ROOT OUT [min_size_bytes]. Biggest files first."""
import os, re, subprocess, sys, time
bin_, root, out = sys.argv[1:4]
exts = ('.cu', '.cuh', '.h', '.hpp', '.cuhpp', '.inl', '.cpp', '.cc', '.cxx', '.hxx')
files = []
for d, _, fs in os.walk(root):
    for f in fs:
        p = os.path.join(d, f)
        if f.endswith(exts) and os.path.isfile(p):
            files.append((os.path.getsize(p), p))
files.sort(reverse=True)
stage_re = re.compile(r'^\s+(\w+)\s+([\d.]+)\s*$')
with open(out, 'w') as o:
    o.write('path\tbytes\trc\twall_s\tslowest_stage\tstages_ms\n')
    for size, p in files:
        t = time.monotonic()
        r = subprocess.run(['timeout', '30', bin_, 'check', '-j', '1', '--format', 'json', '--timings', p],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors='replace')
        wall = time.monotonic() - t
        stages = {}
        for line in r.stderr.splitlines():
            m = stage_re.match(line)
            if m:
                stages[m.group(1)] = float(m.group(2))
        slow = max(stages, key=stages.get) if stages else '?'
        o.write(f'{os.path.relpath(p, root)}\t{size}\t{r.returncode}\t{wall:.3f}\t{slow}\t' +
                ','.join(f'{k}={v:.0f}' for k, v in stages.items() if v >= 1) + '\n')
        o.flush()

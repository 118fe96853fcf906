#!/usr/bin/env python3
"""Fetch the cuda-cccl wheel with pip and unpack its .cuh headers.

Usage: python3 benches/fetch_cccl.py [CACHE_DIR]   (default: .bench-cache)

The headers land in CACHE_DIR/cccl/ (about 240 files, 6 MB of CUB); the
wheel stays in CACHE_DIR/wheels/. Both are git-ignored and never committed.
Used by the corpus benchmark and by .ci/run; safe to run again (it does
nothing once CACHE_DIR/cccl/.complete exists).
"""
import glob
import os
import subprocess
import sys
import zipfile

# Pinned so that every run measures the same files. The headers are the same
# in every platform's wheel; this one is picked whatever the local machine.
REQUIREMENT = "cuda-cccl==1.2.1"
PIP_TARGET = ["--python-version", "3.11", "--platform", "manylinux_2_26_x86_64"]


def main() -> int:
    cache = sys.argv[1] if len(sys.argv) > 1 else ".bench-cache"
    dest = os.path.join(cache, "cccl")
    marker = os.path.join(dest, ".complete")
    if os.path.exists(marker):
        print(dest)
        return 0
    wheels = os.path.join(cache, "wheels")
    os.makedirs(wheels, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", *PIP_TARGET, "-d", wheels, REQUIREMENT],
        check=True,
        stdout=sys.stderr,
    )
    found = sorted(glob.glob(os.path.join(wheels, "cuda_cccl-1.2.1-*.whl")))
    if not found:
        print(f"no {REQUIREMENT} wheel in {wheels}", file=sys.stderr)
        return 1
    with zipfile.ZipFile(found[-1]) as z:
        names = [n for n in z.namelist() if n.endswith(".cuh")]
        z.extractall(dest, names)
    with open(marker, "w"):
        pass
    print(f"unpacked {len(names)} headers into {dest}", file=sys.stderr)
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fetch the real-code corpora with pip from PyPI and unpack their sources.

Usage: python3 benches/fetch_corpora.py [--only NAME[,NAME...]] [CACHE_DIR]
       python3 benches/fetch_corpora.py --help
       (default CACHE_DIR: .bench-cache; NAME: cccl, cupy, cutlass, flashinfer,
       or a held-out one: llamacpp, deepspeed, flashattn, xformers, vllm)

Each corpus is one pinned wheel. The held-out corpora (fetched only when
named) are pinned source distributions of other projects, which the
analysis was never tuned on: their findings were judged once, when first
linted (testdata/realcode/judged-heldout.toml), to measure precision on
code the tool had not seen. Its C/C++/CUDA sources (.cu .cuh .h .hpp
.hxx .inl .cpp .cc .cxx .hip) are unpacked into CACHE_DIR/NAME/, keeping the
paths inside the wheel; the wheels stay in CACHE_DIR/wheels/. Both are
git-ignored and never committed. Used by the corpus benchmark, the real-code
tests and .ci/run; safe to run again (a corpus with CACHE_DIR/NAME/.complete
is not fetched again). Prints one unpacked directory per line.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile

# name -> (requirement, wheel file prefix, pip platform flags). Pinned so that
# every run measures the same files. The sources are the same in every
# platform's wheel; the platform is fixed so the download does not depend on
# the local machine.
CORPORA = {
    "cccl": ("cuda-cccl==1.2.1", "cuda_cccl-1.2.1-",
             ["--python-version", "3.11", "--platform", "manylinux_2_26_x86_64"]),
    "cupy": ("cupy-cuda12x==14.2.0", "cupy_cuda12x-14.2.0-",
             ["--python-version", "3.11", "--platform", "manylinux2014_x86_64"]),
    "cutlass": ("nvidia-cutlass==4.2.0.0", "nvidia_cutlass-4.2.0.0-", []),
    "flashinfer": ("flashinfer-python==0.7.2.post1",
                   "flashinfer_python-0.7.2.post1-", []),
}

# name -> (PyPI project, version): source distributions (tar.gz), fetched
# through PyPI's JSON API (pip would build them to read their metadata).
HELD_OUT = {
    "llamacpp": ("llama-cpp-python", "0.3.36"),
    "deepspeed": ("deepspeed", "0.19.8"),
    "flashattn": ("flash-attn", "2.8.3.post2"),
    "xformers": ("xformers", "0.0.35"),
    "vllm": ("vllm", "0.33.0"),
}

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hxx", ".inl", ".cpp", ".cc",
                   ".cxx", ".hip")


def unpacked(cache: str, name: str):
    """The corpus's directory, and whether a complete unpack is there."""
    dest = os.path.join(cache, name)
    return dest, os.path.exists(os.path.join(dest, ".complete"))


def mark_complete(dest: str, name: str, count: int, archive: str) -> None:
    with open(os.path.join(dest, ".complete"), "w"):
        pass
    print(f"{name}: unpacked {count} files from {os.path.basename(archive)}",
          file=sys.stderr)


def fetch(cache: str, name: str) -> str:
    requirement, prefix, platform = CORPORA[name]
    dest, done = unpacked(cache, name)
    if done:
        return dest
    wheels = os.path.join(cache, "wheels")
    os.makedirs(wheels, exist_ok=True)
    if not glob.glob(os.path.join(wheels, prefix + "*.whl")):
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", *platform, "-d", wheels, requirement],
            check=True,
            stdout=sys.stderr,
        )
    found = sorted(glob.glob(os.path.join(wheels, prefix + "*.whl")))
    if not found:
        raise RuntimeError(f"no {requirement} wheel in {wheels}")
    # Unpack into a fresh directory so an interrupted run leaves no half tree
    # behind a marker.
    shutil.rmtree(dest, ignore_errors=True)
    with zipfile.ZipFile(found[-1]) as z:
        names = [n for n in z.namelist()
                 if n.lower().endswith(SOURCE_SUFFIXES) and not n.endswith("/")]
        z.extractall(dest, names)
    mark_complete(dest, name, len(names), found[-1])
    return dest


def fetch_sdist(cache: str, name: str) -> str:
    project, version = HELD_OUT[name]
    dest, done = unpacked(cache, name)
    if done:
        return dest
    sdists = os.path.join(cache, "sdists")
    os.makedirs(sdists, exist_ok=True)
    api = f"https://pypi.org/pypi/{project}/json"
    with urllib.request.urlopen(api, timeout=120) as r:
        releases = json.load(r)["releases"]
    urls = [u for u in releases.get(version, []) if u["packagetype"] == "sdist"]
    if not urls:
        raise RuntimeError(f"no source distribution of {project} {version}")
    archive = os.path.join(sdists, urls[0]["filename"])
    if not os.path.exists(archive):
        # A mirror may give the file's address relative to the API's.
        url = urllib.parse.urljoin(api, urls[0]["url"])
        partial = archive + ".part"
        with urllib.request.urlopen(url, timeout=600) as r, open(partial, "wb") as out:
            shutil.copyfileobj(r, out)
        os.replace(partial, archive)
    shutil.rmtree(dest, ignore_errors=True)
    count = 0
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            if m.isfile() and m.name.lower().endswith(SOURCE_SUFFIXES) \
                    and not m.name.startswith(("/", "..")) and "/../" not in m.name:
                t.extract(m, dest, filter="data")
                count += 1
    mark_complete(dest, name, count, archive)
    return dest


def main() -> int:
    args = sys.argv[1:]
    names = list(CORPORA)
    positional = []
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if arg == "--only" or arg.startswith("--only="):
            value = arg.split("=", 1)[1] if "=" in arg else (args.pop(0) if args else "")
            names = [n for n in value.split(",") if n]
            unknown = [n for n in names if n not in CORPORA and n not in HELD_OUT]
            if unknown or not names:
                print(f"unknown corpus {unknown or value!r}; known: "
                      f"{list(CORPORA) + list(HELD_OUT)}", file=sys.stderr)
                return 2
        elif arg.startswith("-"):
            # Not a cache directory: an option this script does not know.
            print(f"unknown option {arg!r}\n{__doc__.strip().splitlines()[2]}", file=sys.stderr)
            return 2
        else:
            positional.append(arg)
    if len(positional) > 1:
        print(f"one CACHE_DIR at most, got {positional}", file=sys.stderr)
        return 2
    cache = positional[0] if positional else ".bench-cache"
    failed = False
    for name in names:
        try:
            print(fetch_sdist(cache, name) if name in HELD_OUT else fetch(cache, name))
        except (subprocess.CalledProcessError, RuntimeError, OSError, ValueError,
                zipfile.BadZipFile, tarfile.TarError) as err:
            print(f"{name}: could not fetch: {err}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

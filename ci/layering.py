#!/usr/bin/env python3
"""The layering of core/: every dependency points down the declared order.

An edge is a `#include "core/..."` line in a file under core/, or a `//core/...` label in a
core BUILD file (visibility lists aside), from the package holding it to the package it
names (a package is the nearest folder with a BUILD file). Tests count like the code they
sit beside: a test that needs a higher layer belongs to that layer. A package missing
from LAYERS is an error too, so a new package gets its place when it is added.

Usage: python3 ci/layering.py [ROOT]   (default: the repository holding this script)
Prints each upward edge with the files that make it; exit 1 if there is any.
"""
import os
import re
import subprocess
import sys

# Lowest first. Packages on one line form one layer and may use each other.
LAYERS = [
    ["core/base"],
    ["core/process"],
    ["core/io"],
    ["core/sync"],
    ["core/sampler", "core/sampler/internal"],
    ["core/memprof"],
    ["core/sim"],
    ["core/ring"],
    ["core/ring/view"],
    ["core/memtrace"],  # the codec
    ["core/memtrace/view"],
    ["core/memtrace/analysis"],
    ["core/memtrace/report"],
    ["core/export"],
    ["core/tracer"],
    ["core/demo"],  # the end-to-end run: workload, tracer, read-back checks
    ["core/corpus"],
    ["core/corpus/fuzz"],
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"(core/[^"]+)"', re.M)
LABEL = re.compile(r'"//(core(?:/[A-Za-z0-9_.+-]+)*)(?::[^"]*)?"')
VISIBILITY = re.compile(r"visibility\s*=\s*\[[^\]]*\]", re.S)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    files = subprocess.run(["git", "ls-files", "core"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split()
    packages = {os.path.dirname(f) for f in files if os.path.basename(f) == "BUILD"}
    rank = {p: i for i, layer in enumerate(LAYERS) for p in layer}

    def package_of(path):
        d = os.path.dirname(path)
        while d and d not in packages:
            d = os.path.dirname(d)
        return d

    problems = []
    for p in sorted(packages - rank.keys()):
        problems.append(f"{p}: a package not in ci/layering.py's LAYERS")
    edges = {}
    for f in files:
        base = os.path.basename(f)
        if base == "BUILD":
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                text = VISIBILITY.sub("", fh.read())
            targets = [m.group(1) for m in LABEL.finditer(text)]
            source = os.path.dirname(f)
        elif base.endswith((".h", ".cc")):
            with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            targets = [package_of(m.group(1)) for m in INCLUDE.finditer(text)]
            source = package_of(f)
        else:
            continue
        for t in targets:
            if t != source and t in rank and source in rank and rank[t] > rank[source]:
                edges.setdefault((source, t), set()).add(f)
    for (s, t), fs in sorted(edges.items()):
        problems.append(f"upward edge {s} -> {t}: {' '.join(sorted(fs))}")
    for line in problems:
        print(line)
    if problems:
        print(f"layering: {len(problems)} problem(s); the order is LAYERS in ci/layering.py")
        return 1
    print(f"layering: {len(rank)} packages, every edge points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Differences between two raw 8-bit RGB files of the same size, as `MEAN P99 MAX` on one line
(the mean and 99th percentile of the absolute differences of every sample, in levels)."""
import sys

a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
if len(a) != len(b) or not a:
    sys.exit(f"sizes differ: {len(a)} and {len(b)} bytes")
differences = sorted(abs(x - y) for x, y in zip(a, b))
mean = sum(differences) / len(differences)
print(f"{mean:.3f} {differences[int(len(differences) * 0.99)]} {differences[-1]}")

#!/usr/bin/env bash
# Shows that Debian 12's libx264 (0.164) reads memory nobody initialised in its AVX-512 code when its
# macroblock tree (mbtree, on by default) is on: ffmpeg's libx264 alone, on the same 30 pictures, gives
# different streams for different glibc MALLOC_PERTURB_ values; the same stream with mbtree=0 or
# rc-lookahead=0 (which turns the tree off), with asm=0 (no SIMD at all) or with AVX-512 masked out of
# x264's CPU flags (asm=<mask>). Flipbook masks AVX-512 out (Interop/X264Encoder.swift): its h264
# movies are the same every run. Its hevc, av1 and vp9 movies never changed with MALLOC_PERTURB_.
#   scripts/x264-uninitialised-read.sh        prints one line per setting: the stream hash per value
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 30 "$work/f%03d.png"
settings=("" "mbtree=0" "rc-lookahead=0" "asm=0")
# x264's flags from MMX to AVX2 with 64-byte cache lines (x264.h X264_CPU_*), and the same with AVX-512.
if grep -q avx512bw /proc/cpuinfo; then
    settings+=("asm=$((0x4f3ff | 0x40000))" "asm=$((0x5f3ff | 0x40000))")
else
    echo "(this CPU has no AVX-512: every line below should show one hash)"
fi
for params in "${settings[@]}"; do
    line="x264 preset slower, threads 1${params:+, $params}:"
    for perturb in 0 85 170; do
        MALLOC_PERTURB_=$perturb ffmpeg -v error -y -framerate 30 -i "$work/f%03d.png" -pix_fmt yuv420p \
            -c:v libx264 -preset slower -threads 1 ${params:+-x264-params "$params"} -f h264 "$work/out.h264"
        line="$line $(sha256sum "$work/out.h264" | cut -c1-12)"
    done
    echo "$line"
done

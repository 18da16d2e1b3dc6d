#!/usr/bin/env bash
# Shows that Debian 12's libx264 (0.164) reads memory nobody initialised when its macroblock tree
# (mbtree, on by default) is on: ffmpeg's libx264 alone, on the same 30 pictures, gives different
# streams for different glibc MALLOC_PERTURB_ values, and the same stream with mbtree=0 or
# rc-lookahead=0 (which turns the tree off). Flipbook's h264 movies inherit it; its hevc, av1 and
# vp9 movies do not change with MALLOC_PERTURB_.
#   scripts/x264-uninitialised-read.sh        prints one line per setting: the stream hash per value
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 30 "$work/f%03d.png"
for params in "" "mbtree=0" "rc-lookahead=0"; do
    line="x264 preset slower, threads 1${params:+, $params}:"
    for perturb in 0 85 170; do
        MALLOC_PERTURB_=$perturb ffmpeg -v error -y -framerate 30 -i "$work/f%03d.png" -pix_fmt yuv420p \
            -c:v libx264 -preset slower -threads 1 ${params:+-x264-params "$params"} -f h264 "$work/out.h264"
        line="$line $(sha256sum "$work/out.h264" | cut -c1-12)"
    done
    echo "$line"
done

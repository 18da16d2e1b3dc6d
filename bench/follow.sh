#!/usr/bin/env bash
# --follow at scale: a renderer thread inside FlipbookBench writes N 64x64 frames (copied in turn from
# 30 ffmpeg-made PNGs, each under a hidden name and then renamed) while the library follows the folder.
# Prints, for each N, the peak RSS (GNU time -v), the wall time, and how long after each frame appeared
# it was taken (mean and worst), then the ratio of the largest N's peak RSS to the smallest's.
#
#   bench/follow.sh [--counts "1000 10000"] [--fps 1000] [--polling] [--bin DIR]
#
# --fps is the renderer's rate (1000 a second makes 10 000 frames in 10 s; use 30 to measure latency at
# a renderer's pace). --bin is the folder holding FlipbookBench (default: the release build if there is
# one, else the debug build). Needs ffmpeg and GNU time (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."

counts="1000 10000" fps=1000 mode="" bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --counts) counts=$2; shift 2 ;;
        --fps) fps=$2; shift 2 ;;
        --polling) mode=polling; shift ;;
        --bin) bin=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "$bin" ]; then
    bin=.build/release
    [ -x "$bin/FlipbookBench" ] || bin=.build/debug
fi
[ -x "$bin/FlipbookBench" ] || { echo "no FlipbookBench in $bin; run swift build first" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/source"
ffmpeg -v error -f lavfi -i testsrc2=size=64x64:rate=30 -frames:v 30 -start_number 1 "$work/source/f_%04d.png"

first="" last=""
for count in $counts; do
    rm -rf "$work/live" && mkdir -p "$work/live"
    line=$(/usr/bin/time -v -o "$work/time.txt" "$bin/FlipbookBench" follow "$work/source" "$work/live" "$count" "$fps" \
        "$work/movie.mp4" $mode)
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
    frames=$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$work/movie.mp4")
    echo "$count frames at $fps/s ($bin): peak RSS $rss KiB, wall $wall, ffprobe counts $frames frames; $line"
    first=${first:-$rss}
    last=$rss
done
echo "peak RSS, largest count against smallest: $(awk -v a="$last" -v b="$first" 'BEGIN { printf "%.3f", a / b }')"

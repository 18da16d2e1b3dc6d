#!/bin/bash
# One big machine: the movie as SEGMENTS segments, JOBS of them encoded at once with GNU parallel (an
# encoder uses many cores less well than several encoders use a few each), then the join. A segment
# that fails stops the rest (--halt) and the join is not run; run the script again to redo them all.
set -euo pipefail
render=${RENDER:-/render}
segments=${SEGMENTS:-8}
jobs=${JOBS:-4}
flipbook=${FLIPBOOK:-flipbook}
mkdir -p "$render/segments"
seq 1 "$segments" | parallel --halt now,fail=1 --jobs "$jobs" \
    "$flipbook" "$render/frames" --fps 24 --crf 18 --preset slow --threads $((($(nproc) + jobs - 1) / jobs)) \
    --segment "{}/$segments" -o "$render/segments/part-{}.mp4" --overwrite --quiet
"$flipbook" join "$render"/segments/part-*.mp4 -o "$render/movie.mp4" --overwrite

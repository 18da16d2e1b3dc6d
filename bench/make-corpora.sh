#!/usr/bin/env bash
# Benchmark corpora made the way real images are made: libpng-filtered PNGs (RGB, RGBA, 16-bit, 4K),
# camera-like JPEGs (4:2:0, 4:2:2, 24 MP with EXIF), drawn by bench/corpora.py (moving, render-like
# content). Generated, never checked in.
#
#   bench/make-corpora.sh [--frames 240] [--large-frames 60] [--corpora "LIST"] [--jobs N] [DIR]
#
# DIR defaults to bench/.corpora (git-ignored); each corpus goes into DIR/NAME/0001.png ... and is kept
# until --frames changes. --large-frames is the count for the big pictures (jpeg24mp, png4k). After
# making each corpus it prints what the files are made of: the PNG row filter histogram, or the JPEG
# subsampling and EXIF tags. Needs Debian's python3 with Pillow and NumPy (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."

all="png-adaptive png-pillow png-rgba png16 jpeg420 jpeg422 jpeg24mp png4k"
frames=240 large_frames=60 corpora=$all jobs=$(nproc) dir=bench/.corpora
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --large-frames) large_frames=$2; shift 2 ;;
        --corpora) corpora=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) dir=$1; shift ;;
    esac
done

# Debian's interpreter, not whichever python3 is first on PATH (pyenv's has no Pillow or NumPy).
python=/usr/bin/python3
"$python" -c 'import PIL, numpy' 2> /dev/null || { echo "make-corpora needs $python with Pillow and NumPy: make bench-deps" >&2; exit 1; }

for name in $corpora; do
    case " $all " in *" $name "*) ;; *) echo "unknown corpus $name; known: $all" >&2; exit 2 ;; esac
    count=$frames
    case $name in jpeg24mp | png4k) count=$large_frames ;; esac
    folder=$dir/$name
    if [ "$(cat "$folder/.done" 2> /dev/null)" != "$count" ]; then
        rm -rf "$folder"
        "$python" bench/corpora.py make "$name" "$folder" "$count" "$jobs"
        echo "$count" > "$folder/.done"
    fi
    "$python" bench/corpora.py check "$name" "$folder"
done

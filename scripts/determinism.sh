#!/usr/bin/env bash
# The same movie every time: h264, hevc and av1 make RUNS movies (default 32; the others a quarter as
# many) with each of 1 and 3 decode workers and each of three glibc MALLOC_PERTURB_ values (unset, 85,
# 170; a read of memory nobody wrote shows up as a different movie), from the same 30 pictures and
# sound, and all of them must be one file; then every kind of movie of scripts/golden-movies.sh is
# made again with the heap filled and three decode workers, and must be byte for byte the first making.
#   scripts/determinism.sh FLIPBOOK [RUNS]
# Prints one line per codec (movies made, distinct files); exits 1 when any codec made two files.
set -euo pipefail
flipbook=$1
runs=${2:-32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/frames"
ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 30 "$work/frames/f%02d.png"
ffmpeg -v error -f lavfi -i sine=frequency=440:duration=1.5 -ac 2 "$work/tone.wav"
failed=0
matrix() {
    local name=$1 ext=$2
    shift 2
    local made=0
    : >"$work/hashes"
    for perturb in "" 85 170; do
        for workers in 1 3; do
            for run in $(seq "$runs"); do
                MALLOC_PERTURB_=$perturb "$flipbook" "$work/frames" -o "$work/movie.$ext" --overwrite --quiet \
                    --decode-workers "$workers" --threads 2 --audio "$work/tone.wav" "$@"
                sha256sum "$work/movie.$ext" | cut -d' ' -f1 >>"$work/hashes"
                made=$((made + 1))
            done
        done
    done
    local distinct
    distinct=$(sort -u "$work/hashes" | wc -l)
    echo "$name: $made movies, $distinct distinct"
    [ "$distinct" = 1 ] || failed=1
}
matrix "h264 (slower)" mp4 --codec h264 --preset slower
matrix hevc mp4 --codec hevc
matrix "av1 (faster)" mp4 --codec av1 --preset faster
# The others a quarter as often: x264 at another preset, and the codecs whose streams never changed.
runs=$(((runs + 3) / 4))
matrix "h264 (veryfast)" mp4 --codec h264 --preset veryfast
matrix "vp9 (veryfast)" webm --codec vp9 --preset veryfast
matrix prores mov --codec prores
matrix "av1 libaom (ultrafast)" mp4 --codec av1 --encoder libaom --preset ultrafast
# Every kind of movie, made as golden-movies.sh makes it and again with the heap filled and three workers.
golden=$(dirname "$0")/golden-movies.sh
bash "$golden" "$flipbook" "$work/golden" >"$work/golden.txt"
for perturb in 85 170; do
    if MALLOC_PERTURB_=$perturb GOLDEN_DECODE_WORKERS=3 bash "$golden" "$flipbook" "$work/golden" \
        --check "$work/golden.txt" >/dev/null 2>"$work/golden.err"; then
        echo "every kind of movie: the same bytes with MALLOC_PERTURB_=$perturb and 3 decode workers"
    else
        cat "$work/golden.err" >&2
        failed=1
    fi
done
exit $failed

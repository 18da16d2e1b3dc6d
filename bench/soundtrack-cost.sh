#!/usr/bin/env bash
# What adding a 3-minute song costs: a 180 s movie of one image (`--duration 180`, so the pictures
# cost next to nothing) made without sound, with an .m4a and an .mp3 copied, and with a WAV, a FLAC,
# an AIFF and an Ogg Vorbis file decoded and encoded to AAC-LC; each BENCH_RUNS times, alternately.
# Reports the best wall seconds of each and its cost over the movie without sound, with
# `ffmpeg -i song.EXT -c:a aac -f null -` (the same encoder alone, on the same file, in the same runs)
# beside the encoded ones.
#
#   bench/soundtrack-cost.sh [WORK_DIR]       (default: a folder in /tmp)
#
# Environment: FLIPBOOK (default: the debug build's), BENCH_RUNS (default 3). Needs ffmpeg and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
flipbook=${FLIPBOOK:-$(swift build --show-bin-path)/flipbook}
runs=${BENCH_RUNS:-3}
work=${1:-$(mktemp -d /tmp/flipbook-sound-bench.XXXXXX)}
mkdir -p "$work"
tone="sine=frequency=440:duration=180:sample_rate=44100"
ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720 -frames:v 1 "$work/still.png"
ffmpeg -v error -y -f lavfi -i "$tone" -ac 2 -c:a pcm_s16le "$work/song.wav"
ffmpeg -v error -y -i "$work/song.wav" -c:a aac -b:a 192k "$work/song.m4a"
ffmpeg -v error -y -i "$work/song.wav" -c:a libmp3lame "$work/song.mp3"
ffmpeg -v error -y -i "$work/song.wav" -c:a flac "$work/song.flac"
ffmpeg -v error -y -i "$work/song.wav" -c:a pcm_s16be "$work/song.aiff"
ffmpeg -v error -y -i "$work/song.wav" -c:a libvorbis "$work/song.ogg"

declare -A best reference
kinds=(none m4a mp3 wav flac aiff ogg)
encoded=(wav flac aiff ogg)
for _ in $(seq "$runs"); do
    for kind in "${kinds[@]}"; do
        audio=()
        [ "$kind" = none ] || audio=(--audio "$work/song.$kind")
        seconds=$( { /usr/bin/time -f %e "$flipbook" "$work/still.png" --duration 180 -o "$work/out.mp4" \
            --overwrite --quiet "${audio[@]}"; } 2>&1 | tail -1)
        if [ -z "${best[$kind]:-}" ] || [ "$(echo "$seconds < ${best[$kind]}" | bc)" = 1 ]; then best[$kind]=$seconds; fi
    done
    for kind in "${encoded[@]}"; do
        seconds=$( { /usr/bin/time -f %e ffmpeg -v error -i "$work/song.$kind" -c:a aac -b:a 160k -f null -; } 2>&1 \
            | tail -1)
        if [ -z "${reference[$kind]:-}" ] || [ "$(echo "$seconds < ${reference[$kind]}" | bc)" = 1 ]; then
            reference[$kind]=$seconds
        fi
    done
done
printf '%-6s %8s %8s %10s\n' sound best_s cost_s ffmpeg_aac
for kind in "${kinds[@]}"; do
    printf '%-6s %8s %8s %10s\n' "$kind" "${best[$kind]}" "$(echo "${best[$kind]} - ${best[none]}" | bc)" \
        "${reference[$kind]:--}"
done

#!/usr/bin/env bash
# The movies whose bytes a refactoring must not change: one of each kind Flipbook writes (faststart,
# .mov with B-frames at 29.97, fragmented, followed, slideshow, segments and their join, raw stdin, each codec,
# 10-bit, ProRes 422 HQ and 4444 with alpha, copied and encoded sound, a join with sound, WebM and Matroska
# with Opus, AAC, alpha, ProRes and their segments' join, FFV1, AV1 by libaom), made from the same generated inputs, and the
# SHA-256 of each. Run it before and after a change and compare the lists (or pass --check FILE).
#   scripts/golden-movies.sh FLIPBOOK WORKDIR [--check HASHES]
# Prints "NAME SHA256" lines on standard output; with --check, exits 1 naming each movie that differs.
set -euo pipefail
flipbook=$1
work=$2
check=${4:-}
mkdir -p "$work"
in="$work/inputs"
out="$work/movies"
rm -rf "$out" && mkdir -p "$out"
if [ ! -e "$in/.done" ]; then
    rm -rf "$in" && mkdir -p "$in/png" "$in/jpeg"
    ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 48 "$in/png/f%d.png"
    ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 12 -q:v 3 -pix_fmt yuvj420p "$in/jpeg/j%02d.jpg"
    ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 30 -f rawvideo -pix_fmt rgba "$in/raw.rgba"
    ffmpeg -v error -f lavfi -i sine=frequency=440:sample_rate=48000:duration=3 -ac 2 "$in/tone.wav"
    ffmpeg -v error -f lavfi -i sine=frequency=660:sample_rate=44100:duration=3 -c:a aac -b:a 96k "$in/tone.m4a"
    touch "$in/.done"
fi
# One encoder thread and one decode worker (GOLDEN_DECODE_WORKERS, for scripts/determinism.sh): the same
# bytes on every run.
common=(--quiet --decode-workers "${GOLDEN_DECODE_WORKERS:-1}" --threads 1)
run() {
    local name=$1
    shift
    "$flipbook" "$@" "${common[@]}" -o "$out/$name"
}
run faststart.mp4 "$in/png"
run bframes-2997.mov "$in/png" --fps 29.97 --preset slow
run fragmented.mp4 "$in/png" --fragmented --fragment-duration 0.5
run slideshow.mp4 "$in/jpeg" --duration 0.5 --size 320x240
run repeated.m4v "$in/jpeg" --duration 0.2 --repeat-frames
run hevc.mp4 "$in/png" --codec hevc
run hevc10.mov "$in/png" --codec hevc --bit-depth 10
run av1.mp4 "$in/png" --codec av1 --preset faster
run h264-10.mp4 "$in/png" --bit-depth 10
run prores.mov "$in/png" --codec prores
run prores4444-alpha.mov "$in/png" --codec prores --alpha
run copied-sound.mp4 "$in/png" --audio "$in/tone.m4a"
run encoded-sound.mov "$in/png" --audio "$in/tone.wav" --audio-offset 0.25
run fragmented-sound.mp4 "$in/png" --fragmented --audio "$in/tone.wav"
run followed.mp4 "$in/png/f%d.png" --follow --follow-until 48 --follow-timeout 5
run vp9.mp4 "$in/png" --codec vp9 --preset veryfast
run vp9-opus.webm "$in/png" --preset veryfast --audio "$in/tone.wav"
run vp9-alpha-fragmented.webm "$in/png" --preset veryfast --alpha --fragmented --fragment-duration 0.5
run av1-copied-sound.webm "$in/png" --codec av1 --preset faster --audio "$in/tone.m4a"
run h264-bframes.mkv "$in/png" --fps 29.97 --preset slow --audio "$in/tone.m4a" --title "Golden"
run prores.mkv "$in/png" --codec prores --profile lt
run ffv1.mkv "$in/png" --codec ffv1
run ffv1-alpha.mov "$in/png" --codec ffv1 --alpha
run av1-libaom.mp4 "$in/png" --codec av1 --encoder libaom --preset ultrafast
"$flipbook" - --raw-size 320x240 --raw-format rgba "${common[@]}" -o "$out/raw-stdin.mp4" <"$in/raw.rgba"
for k in 1 2 3; do run "part-$k.mp4" "$in/png" --segment "$k/3"; done
for k in 1 2 3; do run "part-$k.webm" "$in/png" --segment "$k/3" --preset veryfast; done
"$flipbook" join "$out"/part-*.webm --quiet -o "$out/joined-webm.webm"
"$flipbook" join "$out"/part-*.mp4 --quiet -o "$out/joined.mp4"
"$flipbook" join "$out"/part-*.mp4 --quiet --audio "$in/tone.wav" -o "$out/joined-sound.mp4"
hashes=$(cd "$out" && sha256sum -- * | awk '{print $2, $1}' | sort)
echo "$hashes"
if [ -n "$check" ]; then
    differ=$(diff <(sort "$check") <(echo "$hashes") | sed -n 's/^> \([^ ]*\) .*/\1/p')
    if [ -n "$differ" ]; then
        echo "golden-movies: these differ from $check:" $differ >&2
        exit 1
    fi
    echo "golden-movies: every movie is byte for byte as in $check" >&2
fi

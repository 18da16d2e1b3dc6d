#!/usr/bin/env bash
# Camera raw files to a 1080p H.264 movie: Flipbook (half size, since the movie is at most half the sensor)
# against developing each file with LibRaw's dcraw_emu to a TIFF and then making the movie with ffmpeg from
# the TIFFs ("dcraw-then-ffmpeg", at full size as dcraw does by default, and at half size with -h); and
# --raw-preview against the same previews given as JPEG files. x264 medium CRF 23 in all, runs alternating,
# best of BENCH_RUNS (default 2). 2 cores.
#
#   bench/raw.sh [--frames 16]
#
# The 24 MP files are DNGs pidng (the tests' venv, .build/heif-venv: make test makes it) writes from a
# moving RGGB mosaic, 6000x4000 at 12 bits, as a camera stores its sensor data; the previews are a real
# Canon EOS D30's (Tests/CameraRaw), each CRW copied. Needs a release build (make release).
set -euo pipefail
cd "$(dirname "$0")/.."
frames=16
while [ $# -gt 0 ]; do
    case $1 in
        --frames) frames=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
runs=${BENCH_RUNS:-2}
flipbook=$(swift build -c release --show-bin-path)/flipbook
python=.build/heif-venv/bin/python
[ -x "$flipbook" ] || { echo "no release build: run make release" >&2; exit 1; }
work=$(mktemp -d /tmp/flipbook-raw-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dng" "$work/tiff" "$work/crw" "$work/jpeg"
"$python" - "$work/dng" "$frames" <<'PY'
import sys
import numpy as np
sys.path.insert(0, "Tests/CameraRaw")
import dng_writer
folder, count, w, h = sys.argv[1], int(sys.argv[2]), 6000, 4000
y, x = np.mgrid[0:h, 0:w].astype(np.float32)
for i in range(count):
    scene = 0.1 + 0.5 * (0.5 + 0.5 * np.sin((x + 40 * i) / 300) * np.cos(y / 210)) * (0.5 + 0.5 * x / w)
    raw = np.empty((h, w), np.float32)
    raw[0::2, 0::2] = scene[0::2, 0::2] * 0.5
    raw[0::2, 1::2] = scene[0::2, 1::2]
    raw[1::2, 0::2] = scene[1::2, 0::2]
    raw[1::2, 1::2] = scene[1::2, 1::2] * 0.7
    raw = (raw * 4000 + 64 + np.random.default_rng(i).random((h, w), np.float32) * 8).astype(np.uint16)
    dng_writer.write(f"{folder}/{i + 1:04d}.dng", raw, model="Bench DNG")
PY
for i in $(seq -f %04g 1 "$frames"); do
    cp Tests/CameraRaw/canon-eos-d30.crw "$work/crw/$i.crw"
done
simple_dcraw -e "$work/crw/0001.crw"
for i in $(seq -f %04g 1 "$frames"); do cp "$work/crw/0001.crw.thumb.jpg" "$work/jpeg/$i.jpg"; done
rm -f "$work/crw/0001.crw.thumb.jpg"

x264="-c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p"
seconds() { /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; cat "$work/time"; }
dcraw_then_ffmpeg() { # half: -h or nothing
    for f in "$work"/dng/*.dng; do dcraw_emu -w -T $1 "$f"; done
    ffmpeg -v error -y -framerate 24 -i "$work/dng/%04d.dng.tiff" -vf scale=1920:1080 $x264 "$work/ff.mp4"
    rm -f "$work"/dng/*.tiff
}
export -f dcraw_then_ffmpeg; export work x264
best() { [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; }
ours="" full="" half="" preview="" jpeg="" rss=""
for _ in $(seq "$runs"); do
    read -r t m < <(seconds "$flipbook" "$work/dng" -o "$work/ours.mp4" --size 1920x1080 --fps 24 --overwrite -q)
    best "$ours" "$t" && ours=$t && rss=$m
    read -r t _ < <(seconds bash -c 'dcraw_then_ffmpeg ""')
    best "$full" "$t" && full=$t
    read -r t _ < <(seconds bash -c 'dcraw_then_ffmpeg -h')
    best "$half" "$t" && half=$t
    read -r t _ < <(seconds "$flipbook" "$work/crw" -o "$work/preview.mp4" --raw-preview --fps 24 --overwrite -q)
    best "$preview" "$t" && preview=$t
    read -r t _ < <(seconds "$flipbook" "$work/jpeg" -o "$work/jpeg.mp4" --fps 24 --overwrite -q)
    best "$jpeg" "$t" && jpeg=$t
done
echo "$frames DNGs of 24 MP (6000x4000, 12-bit RGGB) to 1920x1080 H.264, best of $runs:"
printf '  Flipbook (half size)               %7.2f s  peak RSS %d MB\n' "$ours" $((rss / 1024))
printf '  dcraw_emu (full AHD) then ffmpeg   %7.2f s  %.2fx Flipbook\n' "$full" "$(echo "$full / $ours" | bc -l)"
printf '  dcraw_emu -h then ffmpeg           %7.2f s  %.2fx Flipbook\n' "$half" "$(echo "$half / $ours" | bc -l)"
echo "$frames Canon EOS D30 CRWs' previews (1440x960) against the same JPEGs:"
printf '  --raw-preview %.2f s, JPEG files %.2f s (%.2fx)\n' "$preview" "$jpeg" "$(echo "$preview / $jpeg" | bc -l)"

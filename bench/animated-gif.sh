#!/usr/bin/env bash
# An animated GIF to MP4: Flipbook against ffmpeg on the same GIF, runs alternating.
#
#   bench/animated-gif.sh [--frames 200] [--size 480x270] [--runs 3]
#
# Makes a GIF of --frames frames (ffmpeg's testsrc2, each frame with its own palette from Pillow)
# whose delays cycle through 2, 3, 4, 5, 7 and 10 hundredths, then times, alternating:
#   flipbook in.gif -o out.mp4                    (each frame once, for its own delay; x264 medium, CRF 23)
#   ffmpeg -i in.gif out.mp4                      (as typed: a constant rate, frames repeated, 4:4:4)
#   ffmpeg -i in.gif -pix_fmt yuv420p -fps_mode passthrough out.mp4   (the same work as Flipbook's)
# and prints each one's median wall time, its frame count, and Flipbook's ratio to each. Needs a release
# build (swift build -c release --product flipbook), ffmpeg and Debian's python3 with Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
frames=200 size=480x270 runs=3
while [ $# -gt 0 ]; do
    case $1 in
    --frames) frames=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
flipbook=$(swift build -c release --show-bin-path)/flipbook
[ -x "$flipbook" ] || { echo "build it first: swift build -c release --product flipbook" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=30:duration=$((frames / 30 + 1))" -frames:v "$frames" "$work/f%04d.png"
/usr/bin/python3 - "$work" "$frames" <<'PY'
import sys
from PIL import Image
folder, count = sys.argv[1], int(sys.argv[2])
frames = [Image.open("%s/f%04d.png" % (folder, i + 1)).convert("RGB").quantize(colors=256) for i in range(count)]
delays = [[20, 30, 40, 50, 70, 100][i % 6] for i in range(count)]
frames[0].save(folder + "/in.gif", save_all=True, append_images=frames[1:], duration=delays, loop=0)
PY
echo "GIF: $frames frames of $size, $(stat -c %s "$work/in.gif") bytes"
now() { date +%s.%N; }
declare -A times
for run in $(seq "$runs"); do
    for tool in flipbook ffmpeg ffmpeg-vfr; do
        start=$(now)
        case $tool in
        flipbook) "$flipbook" "$work/in.gif" -o "$work/$tool.mp4" --overwrite -q ;;
        ffmpeg) ffmpeg -v error -y -i "$work/in.gif" "$work/$tool.mp4" ;;
        ffmpeg-vfr) ffmpeg -v error -y -i "$work/in.gif" -pix_fmt yuv420p -fps_mode passthrough "$work/$tool.mp4" ;;
        esac
        times[$tool]="${times[$tool]:-} $(echo "$(now) - $start" | bc)"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
for tool in flipbook ffmpeg ffmpeg-vfr; do
    count=$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$work/$tool.mp4")
    printf '%-11s %6.2f s  %4s frames\n' "$tool" "$(echo "${times[$tool]}" | median)" "$count"
done
flip=$(echo "${times[flipbook]}" | median)
for tool in ffmpeg ffmpeg-vfr; do
    printf 'flipbook / %-11s %.2f\n' "$tool" "$(echo "$flip / $(echo "${times[$tool]}" | median)" | bc -l)"
done

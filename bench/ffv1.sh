#!/usr/bin/env bash
# Flipbook's FFV1 against ffmpeg's on the same frames, runs alternating, with the floor.
#
#   bench/ffv1.sh [--frames 60] [--size 1920x1080] [--runs 2] [--flipbook PATH]
#
# Three kinds of source, each --frames PNGs of --size: ffmpeg's own PNGs (testsrc2, libavcodec's PNG
# encoder), Pillow's RGB PNGs (noise over gradients, zlib), and Pillow's RGBA PNGs (the same with a moving
# alpha; both tools keep it). For each, `flipbook DIR -o out.mkv --codec ffv1` against
#   ffmpeg -i DIR/%04d.png -c:v ffv1 -level 3 -slicecrc 1 -slices 4 -coder 1 -context 1 -g 1 -pix_fmt bgr0|bgra out.mkv
# (what Flipbook writes), and the floor: the same ffmpeg encode from a raw file of the pictures (-f rawvideo,
# made beforehand: no PNG decoding). Prints for each the best wall time of --runs, peak RSS (GNU time) and
# the file's size; then Flipbook / ffmpeg and Flipbook / floor. Every movie is checked lossless first
# (framemd5 of the movie against the sources'). Needs a release build (built here unless --flipbook).
set -euo pipefail
cd "$(dirname "$0")/.."
frames=60 size=1920x1080 runs=2 flipbook=""
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --flipbook) flipbook=$2; shift 2 ;;
        *) echo "bench/ffv1.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "$flipbook" ]; then
    swift build -c release --product flipbook >/dev/null
    flipbook="$(swift build -c release --show-bin-path)/flipbook"
fi
width=${size%x*} height=${size#*x}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/ffmpeg-png" "$work/pillow-rgb" "$work/pillow-rgba"
ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v "$frames" -pix_fmt rgb24 "$work/ffmpeg-png/%04d.png"
for kind in rgb rgba; do
    /usr/bin/python3 - "$work/pillow-$kind" "$frames" "$width" "$height" "$kind" <<'PY'
import sys
from PIL import Image, ImageChops
folder, count, width, height, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ramp0 = Image.linear_gradient("L").resize((width, height))
disc = Image.radial_gradient("L").resize((width, height))
for index in range(count):
    ramp = ImageChops.offset(ramp0, index * 5, index * 3)
    noise = Image.effect_noise((width, height), 20 + index % 7)
    bands = [ImageChops.add(ramp, noise, scale=2), ImageChops.offset(ramp, index * 3, 0),
             ImageChops.difference(noise, ramp.transpose(Image.FLIP_LEFT_RIGHT))]
    if kind == "rgba":
        bands.append(disc.point(lambda v, i=index: (v + i * 9) % 256))
    Image.merge(kind.upper(), bands).save(f"{folder}/{index + 1:04d}.png")
PY
done
timed() {  # prints "wall rss"
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1
    tail -1 "$work/time"
}
best() { sort -n | head -1; }
printf '%-12s %-8s %8s %9s %12s\n' corpus tool wall "RSS MB" bytes
for corpus in ffmpeg-png pillow-rgb pillow-rgba; do
    dir="$work/$corpus"
    if [ "$corpus" = pillow-rgba ]; then format=bgra; alpha=(--alpha); hashes=rgba; else format=bgr0; alpha=(); hashes=rgb24; fi
    ffmpeg -v error -i "$dir/%04d.png" -pix_fmt "$format" -f rawvideo "$work/raw"
    encode=(-c:v ffv1 -level 3 -slicecrc 1 -slices 4 -coder 1 -context 1 -g 1 -pix_fmt "$format")
    : >"$work/f" && : >"$work/m" && : >"$work/r"
    for _ in $(seq "$runs"); do
        timed "$flipbook" "$dir" -o "$work/flipbook.mkv" --codec ffv1 --overwrite --quiet "${alpha[@]}" >>"$work/f"
        timed ffmpeg -y -v error -framerate 30 -i "$dir/%04d.png" "${encode[@]}" "$work/ffmpeg.mkv" >>"$work/m"
        timed ffmpeg -y -v error -f rawvideo -pix_fmt "$format" -s "$size" -framerate 30 -i "$work/raw" "${encode[@]}" \
            "$work/floor.mkv" >>"$work/r"
    done
    source_md5=$(ffmpeg -v error -i "$dir/%04d.png" -pix_fmt $hashes -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' | md5sum)
    movie_md5=$(ffmpeg -v error -i "$work/flipbook.mkv" -pix_fmt $hashes -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' | md5sum)
    [ "$source_md5" = "$movie_md5" ] || { echo "bench/ffv1.sh: $corpus: Flipbook's movie is not the sources" >&2; exit 1; }
    read -r fw frss < <(best <"$work/f")
    read -r mw mrss < <(best <"$work/m")
    read -r rw rrss < <(best <"$work/r")
    printf '%-12s %-8s %8.2f %9d %12d\n' "$corpus" flipbook "$fw" $((frss / 1024)) "$(stat -c %s "$work/flipbook.mkv")"
    printf '%-12s %-8s %8.2f %9d %12d\n' "$corpus" ffmpeg "$mw" $((mrss / 1024)) "$(stat -c %s "$work/ffmpeg.mkv")"
    printf '%-12s %-8s %8.2f %9d %12d\n' "$corpus" floor "$rw" $((rrss / 1024)) "$(stat -c %s "$work/floor.mkv")"
    echo "$corpus: flipbook/ffmpeg wall $(echo "scale=2; $fw / $mw" | bc), flipbook/floor $(echo "scale=2; $fw / $rw" | bc)"
    rm -f "$work/raw"
done

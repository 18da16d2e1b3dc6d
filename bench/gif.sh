#!/usr/bin/env bash
# Flipbook's GIF against ffmpeg's best two-pass GIF recipe, at the same file size (within 5%).
#
#   bench/gif.sh [--source DIR] [--frames 40] [--size 480x270] [--runs 3]
#
# Two small corpora are made from the first --frames images of --source (default bench/.corpora/png-adaptive,
# made by bench/make-corpora.sh): "render", the frames scaled to --size (lanczos), and "pan", a --size window
# panning 6 px right and 2 px down a frame across the first image. On each, ffmpeg makes its GIF in two passes:
#   ffmpeg -framerate 30 -i %04d.png -vf palettegen=stats_mode=diff palette.png
#   ffmpeg -framerate 30 -i %04d.png -i palette.png -lavfi paletteuse=dither=sierra2_4a:diff_mode=rectangle out.gif
# and Flipbook's --quality is searched (bisection, untimed) for the GIF whose size is within 5% of ffmpeg's.
# Then both are timed, best of --runs alternating runs (ffmpeg's wall is its two passes together), and every
# frame of each GIF (decoded by ffmpeg, one frame per stored frame) is compared with its source image:
# bench/gif_psnr.py prints the mean and the lowest PSNR. Needs a release build (built here), ffmpeg, GNU time,
# bc and NumPy (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."

source_dir=bench/.corpora/png-adaptive frames=40 size=480x270 runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --source) source_dir=$2; shift 2 ;;
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in ffmpeg /usr/bin/time bc; do
    command -v "$tool" > /dev/null || { echo "bench needs $tool (make bench-deps)" >&2; exit 1; }
done
[ -e "$source_dir/0001.png" ] || { echo "no $source_dir/0001.png: run bench/make-corpora.sh png-adaptive" >&2; exit 1; }
swift build -c release --product flipbook > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
width=${size%x*} height=${size#*x}

mkdir -p "$work/render" "$work/pan"
ffmpeg -v error -start_number 1 -i "$source_dir/%04d.png" -frames:v "$frames" \
    -vf "scale=$width:$height:flags=lanczos" "$work/render/%04d.png"
ffmpeg -v error -loop 1 -i "$source_dir/0001.png" -frames:v "$frames" \
    -vf "crop=$width:$height:x='6*n':y='2*n'" "$work/pan/%04d.png"

# Seconds of wall time a command takes.
wall() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
size_of() { stat -c %s "$1"; }
ffmpeg_gif() {
    ffmpeg -v error -y -framerate 30 -i "$1/%04d.png" -vf palettegen=stats_mode=diff "$work/palette.png"
    ffmpeg -v error -y -framerate 30 -i "$1/%04d.png" -i "$work/palette.png" \
        -lavfi paletteuse=dither=sierra2_4a:diff_mode=rectangle "$2"
}
flipbook_gif() { "$bin/flipbook" "$1" -o "$2" --fps 30 --quality "$3" --overwrite --quiet; }
best() { printf '%s\n' "$@" | sort -g | head -1; }

echo "source: $source_dir, first $frames frames at $size; $(nproc) cores; best of $runs alternating run(s)"
rows=()
for corpus in render pan; do
    dir=$work/$corpus
    ffmpeg_gif "$dir" "$work/ffmpeg.gif"
    target=$(size_of "$work/ffmpeg.gif")
    # The quality whose GIF is within 5% of ffmpeg's size: bisection on 1-100 (size grows with quality).
    low=1 high=100 quality=90 made=0
    while :; do
        flipbook_gif "$dir" "$work/flipbook.gif" "$quality"
        made=$(size_of "$work/flipbook.gif")
        ratio=$(echo "scale=4; $made / $target" | bc)
        if (($(echo "$ratio >= 0.95 && $ratio <= 1.05" | bc))); then break; fi
        if (($(echo "$ratio < 0.95" | bc))); then low=$((quality + 1)); else high=$((quality - 1)); fi
        if [ "$low" -gt "$high" ]; then break; fi
        quality=$(((low + high) / 2))
    done
    ffmpeg_walls=() flipbook_walls=()
    for _ in $(seq "$runs"); do
        ffmpeg_walls+=("$(wall ffmpeg_gif "$dir" "$work/ffmpeg.gif")")
        flipbook_walls+=("$(wall flipbook_gif "$dir" "$work/flipbook.gif" "$quality")")
    done
    ff_wall=$(best "${ffmpeg_walls[@]}") fb_wall=$(best "${flipbook_walls[@]}")
    ff_psnr=$(/usr/bin/python3 bench/gif_psnr.py "$work/ffmpeg.gif" "$dir/%04d.png" "$width" "$height")
    fb_psnr=$(/usr/bin/python3 bench/gif_psnr.py "$work/flipbook.gif" "$dir/%04d.png" "$width" "$height")
    ff_mean=$(echo "$ff_psnr" | awk '{print $5}') fb_mean=$(echo "$fb_psnr" | awk '{print $5}')
    echo "$corpus ffmpeg:   $(size_of "$work/ffmpeg.gif") bytes, wall ${ff_wall} s, $ff_psnr"
    echo "$corpus flipbook: $(size_of "$work/flipbook.gif") bytes at --quality $quality, wall ${fb_wall} s, $fb_psnr"
    rows+=("| $corpus | $(size_of "$work/ffmpeg.gif") | $(size_of "$work/flipbook.gif") (q $quality) | $ff_mean | $fb_mean | $(echo "$fb_mean - $ff_mean" | bc) | $ff_wall | $fb_wall | $(echo "scale=2; $fb_wall / $ff_wall" | bc) |")
done
echo
echo "| corpus | ffmpeg bytes | Flipbook bytes | ffmpeg PSNR | Flipbook PSNR | gain dB | ffmpeg wall s | Flipbook wall s | wall ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"

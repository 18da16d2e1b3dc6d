#!/usr/bin/env bash
# Flipbook against ffmpeg for each codec at its default settings, on the same frames, runs alternating.
#
#   bench/codecs.sh [--frames 60] [--size 1920x1080] [--corpus DIR] [--codecs "h264 hevc av1 vp9"] [--runs 1]
#                   [--container mp4|webm|mkv] [--floor]
#
# --container writes both tools' movies as that kind of file (WebM takes vp9 and av1). --floor also times
# the encoder alone: ffmpeg's encoder of the codec on the same pictures already converted to Y'CbCr
# (a .y4m made once), writing nothing, which no image-sequence tool can beat.
#
# Flipbook's defaults (--codec C, preset medium, the codec's default CRF) against what ffmpeg does with the
# same settings and Flipbook's colours (BT.709, limited range, tagged, chroma from 2x2 means):
#   h264  -c:v libx264 -crf 23 -preset medium
#   hevc  -c:v libx265 -crf 28 -preset medium -tag:v hvc1
#   av1   -c:v libsvtav1 -crf 35 -preset 7           (Flipbook's medium is SVT-AV1 preset 7)
#   vp9   -c:v libvpx-vp9 -crf 32 -b:v 0 -row-mt 1 -cpu-used 2   (Flipbook's medium is libvpx speed 2)
# Prints, per codec and tool, wall and CPU time, peak RSS (GNU time), output size and PSNR of the decoded
# movie (RGB, through each file's own colour tags) against the source images, then Flipbook / ffmpeg ratios
# and a Markdown table. The corpus is a moving test pattern with film-like grain (ffmpeg's testsrc2 and
# noise), made once under bench/. Needs a release build (built here) and ffmpeg, GNU time and bc
# (make bench-deps). About 5 minutes for 60 1080p frames on 2 cores without vp9, most of it AV1; libvpx at
# speed 2 takes about 3 s a frame of this grain on each side, so vp9 alone adds about 7 minutes a run.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=60 size=1920x1080 corpus="" codecs="h264 hevc av1 vp9" runs=1 container=mp4 floor=0
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --codecs) codecs=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --container) container=$2; shift 2 ;;
        --floor) floor=1; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

for tool in ffmpeg /usr/bin/time bc; do
    command -v "$tool" > /dev/null || { echo "bench needs $tool (make bench-deps)" >&2; exit 1; }
done
swift build -c release --product flipbook > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$corpus" ]; then
    corpus=bench/.corpus-$size-$frames-30fps
    if [ ! -e "$corpus/.done" ]; then
        mkdir -p "$corpus"
        ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=30,noise=alls=8:allf=t" -frames:v "$frames" \
            "$corpus/%04d.png"
        touch "$corpus/.done"
    fi
fi
e=$(ls "$corpus" | grep -m1 -oiE '(png|jpg)$')
count=$(ls "$corpus" | grep -ciE "\\.$e$")
echo "corpus: $corpus ($count PNGs, $(du -sh "$corpus" | cut -f1)); $(nproc) cores; best of $runs alternating run(s)"

measure() {  # COMMAND... -> prints "wall cpu rss-MB"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}

psnr() {  # MOVIE -> average PSNR of the decoded RGB (through the movie's own tags) against the source images,
    # frame by frame in order (a WebM's ticks put a frame's time a little before the image's at 30 fps)
    ffmpeg -nostats -i "$1" -framerate 30 -i "$corpus/%04d.$e" -lavfi \
        "[0:v]settb=1,setpts=N,scale=flags=accurate_rnd+full_chroma_int,format=rgb24[a];[1:v]settb=1,setpts=N,format=rgb24[b];[a][b]psnr" \
        -f null - 2>&1 | grep -oE 'average:[0-9.inf]+' | tail -1 | cut -d: -f2
}

# ffmpeg with Flipbook's colours: the same matrix, range and 2x2 chroma means (swscale's "area"), tagged.
same_colours=(-vf "scale=out_color_matrix=bt709:out_range=tv:flags=area,format=yuv420p"
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)

encoder_options() {  # CODEC -> ffmpeg's options for the codec at Flipbook's defaults
    case $1 in
        h264) echo "-c:v libx264 -crf 23 -preset medium" ;;
        hevc) echo "-c:v libx265 -crf 28 -preset medium -tag:v hvc1 -x265-params log-level=error" ;;
        av1) echo "-c:v libsvtav1 -crf 35 -preset 7" ;;
        vp9) echo "-c:v libvpx-vp9 -crf 32 -b:v 0 -row-mt 1 -cpu-used 2" ;;
    esac
}

encode() {  # TOOL CODEC -> "wall cpu rss" of TOOL writing $work/TOOL-CODEC.$container
    local out=$work/$1-$2.$container
    case $1-$2 in
        flipbook-*) measure "$bin/flipbook" "$corpus" -o "$out" --fps 30 --codec "$2" --overwrite -q ;;
        ffmpeg-h264) measure ffmpeg -y -framerate 30 -i "$corpus/%04d.$e" "${same_colours[@]}" -c:v libx264 \
            -crf 23 -preset medium "$out" ;;
        ffmpeg-hevc) measure ffmpeg -y -framerate 30 -i "$corpus/%04d.$e" "${same_colours[@]}" -c:v libx265 \
            -crf 28 -preset medium -tag:v hvc1 -x265-params log-level=error "$out" ;;
        ffmpeg-av1) measure ffmpeg -y -framerate 30 -i "$corpus/%04d.$e" "${same_colours[@]}" -c:v libsvtav1 \
            -crf 35 -preset 7 "$out" ;;
        ffmpeg-vp9) measure ffmpeg -y -framerate 30 -i "$corpus/%04d.$e" "${same_colours[@]}" -c:v libvpx-vp9 \
            -crf 32 -b:v 0 -row-mt 1 -cpu-used 2 "$out" ;;
        floor-*)
            [ -e "$work/pictures.y4m" ] || ffmpeg -v error -framerate 30 -i "$corpus/%04d.$e" "${same_colours[@]}" \
                "$work/pictures.y4m"
            # shellcheck disable=SC2046
            measure ffmpeg -y -i "$work/pictures.y4m" $(encoder_options "$2") -f null - ;;
    esac
}

faster() {  # BEST-SO-FAR WALL -> whether WALL beats the first figure of BEST-SO-FAR (or there is none)
    [ -z "$1" ] || [ "$(echo "$2 < ${1%% *}" | bc)" = 1 ]
}

rows=()
for codec in $codecs; do
    declare -A best=() figures=()
    for run in $(seq "$runs"); do
        tools="flipbook ffmpeg"
        [ "$floor" = 1 ] && tools="$tools floor"
        for tool in $tools; do
            read -r w c m < <(encode "$tool" "$codec")
            if faster "${best[$tool]:-}" "$w"; then best[$tool]="$w $c $m"; fi
        done
    done
    for tool in ffmpeg flipbook; do
        read -r w c m <<< "${best[$tool]}"
        size=$(stat -c %s "$work/$tool-$codec.$container")
        db=$(psnr "$work/$tool-$codec.$container")
        printf "%-4s | %-8s %7.2f s wall %7.2f s cpu %5d MB %10d B %6.2f dB\n" "$codec" "$tool" "$w" "$c" "$m" "$size" "$db"
        figures[$tool]="$w $c $m $size $db"
    done
    read -r fw fc fm fs fp <<< "${figures[ffmpeg]}"
    read -r bw bcpu bm bs bp <<< "${figures[flipbook]}"
    floor_cell=""
    if [ "$floor" = 1 ]; then
        read -r lw lc lm <<< "${best[floor]}"
        printf "%-4s | encoder alone %7.2f s wall %7.2f s cpu %5d MB: flipbook %5.2fx of it, ffmpeg %5.2fx\n" "$codec" \
            "$lw" "$lc" "$lm" "$(echo "$bw / $lw" | bc -l)" "$(echo "$fw / $lw" | bc -l)"
        floor_cell=$(printf " %.2f s | %.2fx |" "$lw" "$(echo "$bw / $lw" | bc -l)")
    fi
    printf "%-4s | flipbook / ffmpeg %5.2fx wall %5.2fx cpu %5.2fx RSS %6.3fx size %+6.2f dB\n" "$codec" \
        "$(echo "$bw / $fw" | bc -l)" "$(echo "$bcpu / $fc" | bc -l)" "$(echo "$bm / $fm" | bc -l)" \
        "$(echo "$bs / $fs" | bc -l)" "$(echo "$bp - $fp" | bc -l)"
    rows+=("$(printf "| %s | %.2f s | %.2f s | %.2fx | %d / %d MB | %.3fx | %.2f / %.2f dB |%s" "$codec" "$fw" "$bw" \
        "$(echo "$bw / $fw" | bc -l)" "$fm" "$bm" "$(echo "$bs / $fs" | bc -l)" "$fp" "$bp" "$floor_cell")")
    unset best figures
done

echo
if [ "$floor" = 1 ]; then
    echo "| codec | ffmpeg wall | Flipbook wall | wall ratio | peak RSS ffmpeg / Flipbook | size ratio | PSNR ffmpeg / Flipbook | encoder alone | Flipbook / encoder alone |"
    echo "|---|---|---|---|---|---|---|---|---|"
else
    echo "| codec | ffmpeg wall | Flipbook wall | wall ratio | peak RSS ffmpeg / Flipbook | size ratio | PSNR ffmpeg / Flipbook |"
    echo "|---|---|---|---|---|---|---|"
fi
printf "%s\n" "${rows[@]}"

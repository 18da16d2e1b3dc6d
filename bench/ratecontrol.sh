#!/usr/bin/env bash
# Flipbook's rate control against ffmpeg's on the same frames: how close --bitrate (one pass and
# --two-pass) lands to the rate asked for, what two passes cost against one, and where --target-size
# puts the file, for each codec.
#
#   bench/ratecontrol.sh [--frames 300] [--corpora "png-adaptive jpeg420 png16"] [--codecs "h264 hevc av1 vp9"]
#                        [--preset fast] [--rate 2M] [--corpora-dir bench/.corpora] [--only movies|slideshows]
#                        [--summary]
#
# For each of bench/make-corpora.sh's corpora (--frames images at 30 fps, 1920x1080) and a slideshow of the
# corpus's first three images (--duration 3), and each codec:
#   one pass:   flipbook DIR -o out.mp4 --codec C --preset P --bitrate R
#               ffmpeg -framerate 30 -i DIR/%04d.EXT -c:v ENC -preset P -b:v R -pix_fmt yuv420p out.mp4
#   two passes: flipbook ... --bitrate R --two-pass (h264 and hevc; av1 and vp9 have none)
#               ffmpeg ... -pass 1 -f null, then -pass 2 (libx264; libx265 with -x265-params pass=1/2)
#   target:     flipbook ... --target-size S, S the bytes R makes over the corpus's duration
# (ENC: libx264, libx265, libsvtav1, libvpx-vp9; ffmpeg's libsvtav1 preset is the number Flipbook's name
# stands for, and libvpx-vp9 is given the speed it stands for as -cpu-used, with -row-mt 1).
# Prints for each: wall time (GNU time), the video stream's rate from ffprobe's packet sizes over the
# stream's duration as a share of R, for two passes their wall over one pass's, and for the target the
# file's bytes as a share of S and the encodes made. --summary ends with a Markdown table of the rows.
# Needs a release build (built here), ffmpeg, ffprobe, GNU time and bc; the corpora need Debian's python3
# with Pillow and NumPy (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."

frames=300 corpora="png-adaptive jpeg420 png16" codecs="h264 hevc av1 vp9" preset=fast rate=2M
corpora_dir=bench/.corpora summary=0 only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) frames=$2; shift 2 ;;
        --corpora) corpora=$2; shift 2 ;;
        --codecs) codecs=$2; shift 2 ;;
        --preset) preset=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --corpora-dir) corpora_dir=$2; shift 2 ;;
        --summary) summary=1; shift ;;
        --only) only=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in ffmpeg ffprobe /usr/bin/time bc; do
    command -v "$tool" > /dev/null || { echo "ratecontrol.sh needs $tool" >&2; exit 1; }
done

swift build -c release --product flipbook > /dev/null
bin=$(swift build -c release --show-bin-path)
bench/make-corpora.sh --frames "$frames" --corpora "$corpora" "$corpora_dir" > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bits=$(echo "$rate" | sed -e 's/[kK]$/*1000/' -e 's/[mM]$/*1000000/' -e 's/[gG]$/*1000000000/' | bc)
bits=${bits%.*}
rows=()

measure() {  # COMMAND... -> wall seconds
    /usr/bin/time -f "%e" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
}

stream_rate() {  # MOVIE -> the video's bits a second from its packets
    local bytes duration
    bytes=$(ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 "$1" | paste -sd+ | bc)
    duration=$(ffprobe -v error -select_streams v:0 -show_entries stream=duration -of csv=p=0 "$1")
    echo "$bytes * 8 / $duration" | bc -l
}

share() { printf "%.3f" "$(echo "$1 / $2" | bc -l)"; }

encoder() {
    case $1 in h264) echo libx264 ;; hevc) echo libx265 ;; av1) echo libsvtav1 ;; vp9) echo libvpx-vp9 ;; esac
}

ffmpeg_preset() {  # CODEC -> ffmpeg's preset argument for $preset (libvpx-vp9's speed)
    if [ "$1" = vp9 ]; then
        local names=(ultrafast superfast veryfast faster fast medium slow slower veryslow) numbers=(5 5 4 4 3 2 1 1 0)
        for i in "${!names[@]}"; do [ "${names[$i]}" = "$preset" ] && { echo "${numbers[$i]}"; return; }; done
        echo "ratecontrol.sh: no libvpx speed for $preset" >&2; exit 2
    elif [ "$1" = av1 ]; then
        local names=(ultrafast superfast veryfast faster fast medium slow slower veryslow) numbers=(12 11 10 9 8 7 6 5 4)
        for i in "${!names[@]}"; do [ "${names[$i]}" = "$preset" ] && { echo "${numbers[$i]}"; return; }; done
        echo "ratecontrol.sh: no SVT-AV1 preset for $preset" >&2; exit 2
    else
        echo "$preset"
    fi
}

run() {  # NAME DIR EXT CODEC SLIDESHOW(0|1)
    local name=$1 dir=$2 e=$3 codec=$4 slideshow=$5 input=() timing=() fftiming=() count seconds
    if [ "$slideshow" = 1 ]; then
        mkdir -p "$work/stills" && rm -f "$work/stills"/*
        for i in 0001 0002 0003; do cp "$dir/$i.$e" "$work/stills/"; done
        input=("$work/stills") timing=(--duration 3) fftiming=(-framerate 1/3) count=3 seconds=9
    else
        input=("$dir") timing=(--fps 30) fftiming=(-framerate 30) count=$(ls "$dir" | grep -c "\.$e$") seconds=$(echo "$count / 30" | bc -l)
    fi
    local f=("$bin/flipbook" "${input[@]}" "${timing[@]}" --codec "$codec" --preset "$preset" --overwrite -q)
    local speed=(-preset "$(ffmpeg_preset "$codec")")
    [ "$codec" = vp9 ] && speed=(-cpu-used "$(ffmpeg_preset "$codec")" -row-mt 1)
    local g=(ffmpeg -y -v error "${fftiming[@]}" -i "$work/in/%04d.$e" -c:v "$(encoder "$codec")" "${speed[@]}" -pix_fmt yuv420p)
    rm -rf "$work/in" && mkdir "$work/in"
    if [ "$slideshow" = 1 ]; then cp "$work/stills"/* "$work/in/"; else ln -s "$(realpath "$dir")"/* "$work/in/"; fi

    local one ffone two fftwo target bytes passes
    one=$(measure "${f[@]}" -o "$work/one.mp4" --bitrate "$rate")
    ffone=$(measure "${g[@]}" -b:v "$bits" "$work/ffone.mp4")
    local row="| $name | $codec | one pass: $(share "$(stream_rate "$work/one.mp4")" "$bits") of the rate in ${one} s (ffmpeg $(share "$(stream_rate "$work/ffone.mp4")" "$bits") in ${ffone} s, ratio $(share "$one" "$ffone"))"
    if [ "$codec" != av1 ] && [ "$codec" != vp9 ]; then
        two=$(measure "${f[@]}" -o "$work/two.mp4" --bitrate "$rate" --two-pass)
        local passes1=(-pass 1) passes2=(-pass 2)
        [ "$codec" = hevc ] && passes1=(-x265-params "pass=1:stats=$work/x265.log") passes2=(-x265-params "pass=2:stats=$work/x265.log")
        fftwo=$( { /usr/bin/time -f "%e" -o "$work/t1" "${g[@]}" -b:v "$bits" "${passes1[@]}" -passlogfile "$work/ff" -f mp4 /dev/null > /dev/null 2>&1
            /usr/bin/time -f "%e" -o "$work/t2" "${g[@]}" -b:v "$bits" "${passes2[@]}" -passlogfile "$work/ff" "$work/fftwo.mp4" > /dev/null 2>&1
            echo "$(cat "$work/t1") + $(cat "$work/t2")" | bc; } )
        row+=" | two passes: $(share "$(stream_rate "$work/two.mp4")" "$bits") in ${two} s, $(share "$two" "$one")x one pass (ffmpeg $(share "$(stream_rate "$work/fftwo.mp4")" "$bits") in ${fftwo} s, ratio $(share "$two" "$fftwo"))"
    else
        row+=" | two passes: not available for $codec"
    fi
    target=$(printf "%.0f" "$(echo "$bits * $seconds / 8" | bc -l)")
    if "${f[@]}" -o "$work/target.mp4" --target-size "$target" --json > "$work/json" 2> "$work/err"; then
        bytes=$(stat -c %s "$work/target.mp4")
        passes=$(sed -e 's/.*"passes":\([0-9]*\).*/\1/' "$work/json")
        row+=" | target $target bytes: $(share "$bytes" "$target") in $passes encodes |"
    else
        row+=" | target $target bytes: failed ($(tail -1 "$work/err")) |"
    fi
    echo "$row"
    rows+=("$row")
}

for corpus in $corpora; do
    dir=$corpora_dir/$corpus
    e=png
    case $corpus in jpeg*) e=jpg ;; esac
    for codec in $codecs; do
        [ "$only" = slideshows ] || run "$corpus" "$dir" "$e" "$codec" 0
        [ "$only" = movies ] || run "$corpus slideshow" "$dir" "$e" "$codec" 1
    done
done

if [ "$summary" = 1 ]; then
    echo
    echo "| corpus | codec | --bitrate $rate | --two-pass | --target-size |"
    echo "| --- | --- | --- | --- | --- |"
    printf '%s\n' "${rows[@]}"
fi

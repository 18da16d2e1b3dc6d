#!/usr/bin/env bash
# What burn-ins cost: the same frames made into the same H.264 movie without burn-ins and with four
# (the shot and version, the timecode, the file and date, the frame number), alternating, best of
# BENCH_RUNS; and ffmpeg's drawtext drawing the same four on the same frames, against ffmpeg without it,
# for scale. Each kind of material of bench/make-corpora.sh given is measured on its own.
#
#   bench/burnin.sh [--frames 120] [--runs 3] [--corpora "png-adaptive jpeg420"]
#
# Needs a release build (make release), the corpora (bench/make-corpora.sh, which this calls) and ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=120 runs=3 corpora="png-adaptive jpeg420"
while [ $# -gt 0 ]; do
    case $1 in
        --frames) frames=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --corpora) corpora=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
flipbook=$(swift build -c release --show-bin-path)/flipbook
[ -x "$flipbook" ] || { echo "no release build: run make release" >&2; exit 1; }
bash bench/make-corpora.sh --frames "$frames" --corpora "$corpora" >/dev/null
work=$(mktemp -d /tmp/flipbook-burnin-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf

seconds() { # command...: wall seconds
    /usr/bin/time -f %e -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
}
better() { [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; }

printf '%-14s %8s %8s %7s   %8s %8s %7s\n' corpus plain burnt cost ffmpeg drawtext cost
for corpus in $corpora; do
    dir=bench/.corpora/$corpus
    ext=$(ls "$dir" | head -1); ext=${ext##*.}
    plain="" burnt="" ffplain="" ffdraw=""
    # ffmpeg's drawtext, the same four texts at the same size (a thirtieth of 1080 is 36 pixels) in boxes.
    box="fontfile=$font:fontsize=36:fontcolor=white:box=1:boxcolor=black@0.65:boxborderw=8"
    draw="drawtext=$box:text='KESTREL v3':x=18:y=18,drawtext=$box:timecode='00\\:00\\:41\\:17':rate=24:x=w-tw-18:y=18"
    draw="$draw,drawtext=$box:text='%{frame_num}':start_number=1:x=w-tw-18:y=h-th-18"
    draw="$draw,drawtext=$box:text='$corpus 2026-12-07':x=18:y=h-th-18"
    for _ in $(seq "$runs"); do
        t=$(seconds "$flipbook" "$dir" -o "$work/plain.mp4" --fps 24 --overwrite --quiet)
        better "$plain" "$t" && plain=$t
        t=$(seconds "$flipbook" "$dir" -o "$work/burnt.mp4" --fps 24 --overwrite --quiet \
            --burn-in 'TL:{shot} v{version}' --burn-in 'TR:{timecode}' --burn-in 'BL:{file} {date}' \
            --burn-in 'BR:{frame}' --field shot=KESTREL --field version=3)
        better "$burnt" "$t" && burnt=$t
        t=$(seconds ffmpeg -v error -y -framerate 24 -i "$dir/%04d.$ext" -c:v libx264 -pix_fmt yuv420p "$work/ff.mp4")
        better "$ffplain" "$t" && ffplain=$t
        t=$(seconds ffmpeg -v error -y -framerate 24 -i "$dir/%04d.$ext" -vf "$draw" -c:v libx264 -pix_fmt yuv420p \
            "$work/ffdraw.mp4")
        better "$ffdraw" "$t" && ffdraw=$t
    done
    frames_out=$(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 \
        "$work/burnt.mp4")
    printf '%-14s %7.2fs %7.2fs %+6.1f%%   %7.2fs %7.2fs %+6.1f%%   (%s frames)\n' "$corpus" "$plain" "$burnt" \
        "$(echo "($burnt / $plain - 1) * 100" | bc -l)" "$ffplain" "$ffdraw" "$(echo "($ffdraw / $ffplain - 1) * 100" | bc -l)" \
        "$frames_out"
done

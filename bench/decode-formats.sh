#!/usr/bin/env bash
# Decode speed of WebP and TIFF (and HEIC/AVIF) at 1080p, one image at a time on one core: Flipbook's
# decoders as the tool runs them for a movie of the images' size (FlipbookBench decode DIR planes, release build: a lossy
# WebP to its Y'CbCr planes) against ffmpeg's own (`ffmpeg -threads 1 ... -f null`, which also hands out a lossy WebP's planes),
# on the same files, runs alternating. ffmpeg's start-up is taken out by timing a one-image run too.
# Usage: bench/decode-formats.sh [DIR] [IMAGES] [RUNS]   (default /tmp/flipbook-decode-bench 20 2)
# Two pictures per format: a test pattern with film grain (camera-like) and the clean pattern (render-like).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/flipbook-decode-bench}
images=${2:-20}
runs=${3:-2}
swift build -c release --product FlipbookBench >/dev/null
bench=$(swift build -c release --show-bin-path)/FlipbookBench
mkdir -p "$dir"

kinds=(webp-lossy:webp:"-c:v libwebp -quality 85" webp-lossless:webp:"-c:v libwebp -lossless 1"
    tiff-lzw:tif:"-pix_fmt rgb24 -compression_algo lzw" tiff-deflate:tif:"-pix_fmt rgb24 -compression_algo deflate"
    tiff-packbits:tif:"-pix_fmt rgb24 -compression_algo packbits" tiff-none:tif:"-pix_fmt rgb24 -compression_algo raw"
    tiff16-deflate:tif:"-pix_fmt rgb48le -compression_algo deflate")
for picture in grain clean; do
    filter=$([ $picture = grain ] && echo "noise=alls=12:allf=t" || echo "null")
    for entry in "${kinds[@]}"; do
        IFS=: read -r kind ext options <<<"$entry"
        folder="$dir/$picture-$kind"
        [ -f "$folder/f$images.$ext" ] && continue
        mkdir -p "$folder"
        # shellcheck disable=SC2086
        ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -vf "$filter" -frames:v "$images" \
            -start_number 1 $options "$folder/f%d.$ext"
    done
done

seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
printf '| picture | format | MB per image | Flipbook ms/image | ffmpeg ms/image | ratio |\n|---|---|---|---|---|---|\n'
for picture in grain clean; do
    for entry in "${kinds[@]}"; do
        IFS=: read -r kind ext _ <<<"$entry"
        folder="$dir/$picture-$kind"
        size=$(du -sm "$folder" | cut -f1)
        best_f=999999; best_a=999999
        for _ in $(seq "$runs"); do
            f=$("$bench" decode "$folder" planes | grep -o '[0-9.]* ms each' | cut -d' ' -f1)
            all=$(seconds ffmpeg -v error -threads 1 -i "$folder/f%d.$ext" -f null -)
            one=$(seconds ffmpeg -v error -threads 1 -i "$folder/f1.$ext" -f null -)
            a=$(echo "($all - $one) * 1000 / ($images - 1)" | bc -l)
            best_f=$(echo "if ($f < $best_f) $f else $best_f" | bc -l)
            best_a=$(echo "if ($a < $best_a) $a else $best_a" | bc -l)
        done
        printf '| %s | %s | %.1f | %.1f | %.1f | %.2f |\n' "$picture" "$kind" "$(echo "$size / $images" | bc -l)" \
            "$best_f" "$best_a" "$(echo "$best_f / $best_a" | bc -l)"
    done
done

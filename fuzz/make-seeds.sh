#!/bin/sh
# Writes the fuzz seed corpora: tiny valid PNG, JPEG, MP4 and Matroska files (a few hundred bytes each).
# Needs ffmpeg and a built flipbook (FLIPBOOK, default .build/debug/flipbook). The seeds are
# committed; run this again only to change them.
set -eu
cd "$(dirname "$0")"
FLIPBOOK=${FLIPBOOK:-../.build/debug/flipbook}
src="-v error -f lavfi -i testsrc2=size=16x12:rate=1 -frames:v 1 -y"
ffmpeg $src -pix_fmt rgb24 seeds/png/rgb.png
ffmpeg $src -pix_fmt rgba seeds/png/rgba.png
ffmpeg $src -pix_fmt pal8 seeds/png/palette.png
ffmpeg $src -pix_fmt gray seeds/png/gray.png
ffmpeg $src -pix_fmt ya8 seeds/png/gray-alpha.png
ffmpeg $src -pix_fmt rgb48be seeds/png/rgb16.png
ffmpeg $src -pix_fmt monob seeds/png/mono.png
ffmpeg $src -q:v 5 -pix_fmt yuvj420p seeds/jpeg/yuv420.jpg
ffmpeg $src -q:v 5 -pix_fmt yuvj444p seeds/jpeg/yuv444.jpg
ffmpeg $src -q:v 5 -pix_fmt gray seeds/jpeg/gray.jpg
# The same JPEG with an EXIF orientation (6: rotate 90 degrees clockwise), big- and little-endian.
python3 - <<'PY'
import struct
data = open("seeds/jpeg/yuv420.jpg", "rb").read()
for name, tiff in [
    ("exif-mm.jpg", b"MM\x00\x2a" + struct.pack(">IHHHII", 8, 1, 0x0112, 3, 1, 6 << 16) + b"\0\0\0\0"),
    ("exif-ii.jpg", b"II\x2a\x00" + struct.pack("<IHHHII", 8, 1, 0x0112, 3, 1, 6) + b"\0\0\0\0"),
]:
    payload = b"Exif\0\0" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    open("seeds/jpeg/" + name, "wb").write(data[:2] + app1 + data[2:])
PY
tmp=$(mktemp -d)
ffmpeg -v error -f lavfi -i testsrc2=size=16x16:rate=30 -frames:v 3 "$tmp/f%d.png"
"$FLIPBOOK" "$tmp" -o seeds/mp4/plain.mp4 --preset ultrafast --overwrite -q
"$FLIPBOOK" "$tmp" -o seeds/mp4/fragmented.mp4 --preset ultrafast --fragmented --overwrite -q
"$FLIPBOOK" "$tmp" -o seeds/mp4/quicktime.mov --preset ultrafast --fps 29.97 --overwrite -q
"$FLIPBOOK" "$tmp" -o seeds/matroska/bframes.mkv --preset medium --bframes 2 --title seed --overwrite -q
"$FLIPBOOK" "$tmp" -o seeds/matroska/fragmented.webm --codec vp9 --preset ultrafast --fragmented --overwrite -q
rm -rf "$tmp"
# Images back to back, as standard input holds them for --stdin images: whole, cut short, with garbage between.
mkdir -p seeds/stream
cat seeds/png/rgb.png seeds/jpeg/exif-mm.jpg seeds/png/palette.png > seeds/stream/png-jpeg-png.bin
cat "$(ls seeds/webp/* | head -1)" "$(ls seeds/heif/* | head -1)" seeds/png/rgba.png > seeds/stream/webp-heif-png.bin
cat seeds/png/rgb.png > seeds/stream/png-then-half-a-jpeg.bin
head -c 200 seeds/jpeg/yuv420.jpg >> seeds/stream/png-then-half-a-jpeg.bin
{ cat seeds/png/gray.png; printf 'not an image'; cat seeds/png/gray.png; } > seeds/stream/garbage-between.bin
ls -l seeds/*

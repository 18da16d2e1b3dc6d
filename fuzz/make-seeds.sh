#!/bin/sh
# Writes the fuzz seed corpora: tiny valid PNG, APNG, GIF, JPEG, MP4, Matroska and sound files (a few KB at most
# each). Needs ffmpeg, ImageMagick (convert), Debian's python3 with Pillow and a built flipbook (FLIPBOOK, default
# .build/debug/flipbook). The seeds are committed; run this again only to change them.
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
# Sound files as a soundtrack may be (0.1 s of a tone, a few KB each), in the formats libavformat reads for Flipbook.
mkdir -p seeds/sound
tone="-v error -f lavfi -i sine=frequency=440:sample_rate=8000:duration=0.1 -y"
ffmpeg $tone -c:a pcm_s16le seeds/sound/tone.wav
ffmpeg $tone -ac 2 -c:a pcm_s16be seeds/sound/stereo.aiff
ffmpeg $tone -c:a flac seeds/sound/tone.flac
# ffmpeg pads a FLAC file's metadata with 8 KB of zeros for tags written later: the seed goes without.
python3 - <<'PY'
data = open("seeds/sound/tone.flac", "rb").read()
position, blocks = 4, []
while True:
    header, size = data[position], int.from_bytes(data[position + 1:position + 4], "big")
    blocks.append((header & 0x7F, data[position + 4:position + 4 + size]))
    position += 4 + size
    if header & 0x80: break
blocks = [block for block in blocks if block[0] != 1]
out = b"fLaC"
for index, (kind, body) in enumerate(blocks):
    out += bytes([kind | (0x80 if index == len(blocks) - 1 else 0)]) + len(body).to_bytes(3, "big") + body
open("seeds/sound/tone.flac", "wb").write(out + data[position:])
PY
ffmpeg $tone -ar 22050 -c:a libvorbis seeds/sound/tone.ogg
ffmpeg $tone -ar 32000 -c:a ac3 -b:a 32k seeds/sound/tone.ac3
ffmpeg $tone -c:a alac seeds/sound/tone-alac.m4a
ffmpeg $tone -c:a alac seeds/sound/tone-alac.caf
ls -l seeds/sound
# Colour statements: ICC profiles Little CMS builds (Display P3 with sRGB's curve; Adobe RGB's primaries
# with gamma 1.8), the first cut short, and 36 bytes read as cICP (12/13/0/1), gAMA and cHRM.
mkdir -p seeds/colour
/usr/bin/python3 - <<'PY'
import struct, sys
sys.path.insert(0, "../Tests/Colour")
import colour_sources as cs
p3 = cs.built_profile(cs.D65, cs.P3, cs.SRGB_CURVE)
open("seeds/colour/display-p3.icc", "wb").write(p3)
open("seeds/colour/display-p3-cut.icc", "wb").write(p3[:300])
open("seeds/colour/gamma18.icc", "wb").write(cs.built_profile(cs.D65, [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], (1, [1.8])))
values = (45455, 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)
open("seeds/colour/cicp-gama-chrm.bin", "wb").write(bytes([12, 13, 0, 1]) + struct.pack(">9I", *values))
PY
# Animations: GIFs (palettes per frame, transparency, interlace, every disposal method, one cut short),
# APNGs (dispose and blend ops) among the PNG seeds, and an animated WebP among the WebP seeds.
anim="-v error -f lavfi -i testsrc2=size=16x12:rate=10:duration=0.3 -y"
ffmpeg $anim -lavfi "split[a][b];[a]palettegen=stats_mode=diff:max_colors=16[p];[b][p]paletteuse=diff_mode=rectangle" \
    -gifflags +transdiff seeds/gif/ffmpeg.gif
convert -delay 10 -dispose None -size 16x12 gradient:red-blue -dispose Previous \( -size 6x5 xc:red -repage +2+2 \) \
    -dispose Background \( -size 5x5 xc:none -fill yellow -draw "point 2,2" -repage +9+4 \) -loop 0 \
    -interlace GIF seeds/gif/disposal-interlaced.gif
head -c 300 seeds/gif/ffmpeg.gif >seeds/gif/truncated.gif
ffmpeg $anim -f apng -plays 0 seeds/png/animated.png
/usr/bin/python3 - <<'PY'
from PIL import Image, ImageDraw
frames = []
for i in range(3):
    im = Image.new("RGBA", (16, 12), (0, 0, 0, 0))
    ImageDraw.Draw(im).rectangle([i * 3, i * 2, i * 3 + 6, i * 2 + 5], fill=(200, 40 * i, 90, 160 + 40 * i))
    frames.append(im)
frames[0].save("seeds/png/apng-ops.png", save_all=True, append_images=frames[1:], duration=[100, 0, 70],
               disposal=[2, 1, 0], blend=[0, 1, 1], default_image=False)
PY
ls -l seeds/gif
# OpenEXR: tiny files OpenEXR's own library writes (its Python binding, in make test's .build/heif-venv):
# scanline and tiled, several compressions, RGBA, luminance-chroma, three parts, Blender-style layers. FuzzEXR
# also starts from the OpenEXR project's Damaged sample files (Tests/OpenEXR/Damaged).
../.build/heif-venv/bin/python - <<'PY'
import numpy as np, OpenEXR
y, x = np.mgrid[0:12, 0:16].astype(np.float32)
r, g, b, a = x / 15, y / 11, 1 - x / 15, np.clip(1.5 - np.hypot(x - 8, y - 6) / 6, 0, 1)
def header(compression, tiled=False):
    h = {"compression": getattr(OpenEXR, compression), "type": OpenEXR.tiledimage if tiled else OpenEXR.scanlineimage}
    if tiled:
        t = OpenEXR.TileDescription()
        t.xSize, t.ySize, t.mode, t.roundingMode = 8, 8, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
        h["tiles"] = t
    return h
half = lambda v: np.ascontiguousarray(v.astype(np.float16))
for compression in ["NO_COMPRESSION", "ZIP_COMPRESSION", "PIZ_COMPRESSION", "PXR24_COMPRESSION", "B44A_COMPRESSION", "RLE_COMPRESSION",
                    "DWAA_COMPRESSION", "DWAB_COMPRESSION"]:
    name = compression.split("_")[0].lower()
    OpenEXR.File(header(compression), {"R": half(r), "G": half(g), "B": half(b), "A": half(a)}).write(f"seeds/exr/rgba-{name}.exr")
OpenEXR.File(header("ZIPS_COMPRESSION", tiled=True), {"R": half(r), "G": half(g), "B": half(b)}).write("seeds/exr/tiled-zips.exr")
OpenEXR.File(header("PIZ_COMPRESSION"), {"Y": half(0.3 * r + 0.6 * g + 0.1 * b), "RY": OpenEXR.Channel(half(r - 0.5), 2, 2),
    "BY": OpenEXR.Channel(half(b - 0.5), 2, 2)}).write("seeds/exr/luminance-chroma.exr")
OpenEXR.File(header("ZIP_COMPRESSION"), {"ViewLayer.Combined.R": half(r), "ViewLayer.Combined.G": half(g),
    "ViewLayer.Combined.B": half(b), "ViewLayer.Combined.A": half(a), "ViewLayer.Depth.Z": np.ascontiguousarray(10 + y),
    "ViewLayer.Normal.X": half(x), "ViewLayer.Normal.Y": half(y), "ViewLayer.Normal.Z": half(a)}).write("seeds/exr/multilayer.exr")
parts = []
for name in ["rgba_right", "depth_left", "rgba_left"]:
    h = header("ZIP_COMPRESSION")
    h["name"] = name
    channels = {"Z": np.ascontiguousarray(10 + y)} if name.startswith("depth") else {"R": half(r), "G": half(g), "B": half(b), "A": half(a)}
    parts.append(OpenEXR.Part(h, channels, name))
OpenEXR.File(parts).write("seeds/exr/multipart.exr")
PY
# DPX and Cineon: tiny files ffmpeg writes at each depth and byte order, one with its transfer set to
# printing density, and a Cineon file written from the format's layout.
for f in rgb24 rgba gray gbrp10be gbrp10le gbrp12be rgb48le rgba64be; do
    ffmpeg -v error -f lavfi -i testsrc2=size=10x6 -frames:v 1 -pix_fmt $f -y seeds/dpx/$f.dpx
done
python3 - <<'PY'
import struct
data = bytearray(open("seeds/dpx/gbrp10be.dpx", "rb").read())
data[780 + 21] = 1
open("seeds/dpx/printing-density.dpx", "wb").write(data)
w, h = 6, 4
header = bytearray(1024)
struct.pack_into(">IIIIII", header, 0, 0x802A5FD7, 1024, 1024, 0, 0, 1024 + w * h * 4)
header[193] = 3
for c in range(3):
    header[196 + 28 * c + 2] = 10
    struct.pack_into(">II", header, 196 + 28 * c + 4, w, h)
header[681] = 5
words = b"".join(struct.pack(">I", ((x * 90) << 22) | ((y * 200) << 12) | (685 << 2)) for y in range(h) for x in range(w))
open("seeds/dpx/cineon.cin", "wb").write(bytes(header) + words)
PY

# Camera raw: tiny DNGs pidng writes (in make test's .build/heif-venv) from an RGGB mosaic, 12 bits stored
# whole, one turned a quarter; and the first one cut short.
mkdir -p seeds/raw
../.build/heif-venv/bin/python - <<'PY'
import sys
import numpy as np
sys.path.insert(0, "../Tests/CameraRaw")
import dng_writer
# LibRaw takes pictures of 22 pixels a side and more.
for name, width, height, orientation in [("rggb-12bit", 32, 24, 1), ("turned", 24, 22, 6)]:
    y, x = np.mgrid[0:height, 0:width]
    mosaic = (64 + (x * 37 + y * 91) % 4000).astype(np.uint16)
    dng_writer.write(f"seeds/raw/{name}.dng", mosaic, orientation, model="Seed",
        matrix=[10000, 0, 0, 0, 10000, 0, 0, 0, 10000])
data = open("seeds/raw/rggb-12bit.dng", "rb").read()
open("seeds/raw/cut.dng", "wb").write(data[: len(data) // 2])
PY

"""Benchmark corpora made the way real images are made (run through bench/make-corpora.sh).

    /usr/bin/python3 bench/corpora.py make NAME DIR FRAMES [JOBS]
    /usr/bin/python3 bench/corpora.py check NAME DIR

Every frame is a render-like picture drawn with NumPy: a moving gradient sky, value-noise texture
scrolling across it, antialiased shaded discs and a rotating bar on Lissajous paths, a vignette and
film grain, so neighbouring frames differ everywhere as real footage does. Each corpus is written
the way real images are written. PNGs are written as libpng writes them by default (adaptive row
filters, mostly Paeth on such content: see libpng_style_png); Pillow's own default writer chooses
differently (never Average, zlib's default strategy), so it has a corpus of its own:

  png-adaptive  1920x1080 RGB PNG, libpng-style adaptive row filters
  png-pillow    1920x1080 RGB PNG, Pillow's default writer (per-row choice without Average)
  png-rgba      1920x1080 RGBA PNG, libpng-style, alpha varying from 0 to 255 across the picture
  png16         1920x1080 16-bit RGB PNG, libpng-style (Pillow cannot write 16-bit RGB)
  jpeg420       1920x1080 JPEG q92 4:2:0 (Pillow/libjpeg-turbo, as cameras and phones write)
  jpeg422       1920x1080 JPEG q92 4:2:2
  jpeg24mp      6000x4000 JPEG q92 4:2:0 with an EXIF block (camera make and model, orientation 1)
  png4k         3840x2160 RGB PNG, libpng-style (a supersampled render, to be shrunk to 1080p)

Files are named 0001.png, 0002.png, ... as ffmpeg writes them. `check` prints what a corpus is made
of: the histogram of PNG row filter types (read back from the files), or the JPEG chroma
subsampling and EXIF tags.
"""

import io
import multiprocessing
import os
import struct
import sys
import time
import zlib

import numpy as np
from PIL import Image, JpegImagePlugin

CORPORA = {
    # name: (width, height, extension)
    "png-adaptive": (1920, 1080, "png"),
    "png-pillow": (1920, 1080, "png"),
    "png-rgba": (1920, 1080, "png"),
    "png16": (1920, 1080, "png"),
    "jpeg420": (1920, 1080, "jpg"),
    "jpeg422": (1920, 1080, "jpg"),
    "jpeg24mp": (6000, 4000, "jpg"),
    "png4k": (3840, 2160, "png"),
}
FPS = 25.0
STRIP = 540  # rows drawn at a time, so a 24 MP frame needs a few hundred MB, not gigabytes
FILTER_NAMES = ["None", "Sub", "Up", "Average", "Paeth"]

# The scene, the same for every corpus and frame: texture lattice, grain tile, shapes.
_scene = np.random.default_rng(20240611)
LATTICE = _scene.random((256, 256, 3), dtype=np.float32)  # fine octaves use channel 0 only
# Grain correlated over neighbouring pixels, as a sensor's noise is after demosaicing and a path
# tracer's after denoising: a [1 2 1] blur across and down, scaled back to unit deviation. With
# independent noise per pixel libpng picks the Average filter for almost every row; with this it
# picks Paeth for about 90% (as on real renders) and Average for the rest.
GRAIN = _scene.standard_normal((512, 512, 3), dtype=np.float32)
for _axis in (0, 1):
    GRAIN = (np.roll(GRAIN, 1, _axis) + 2 * GRAIN + np.roll(GRAIN, -1, _axis)) / 4
GRAIN /= GRAIN.std()
SHAPES = [
    {
        "centre": _scene.uniform(0.2, 1.6, 2),  # in picture heights, x across a 16:9 picture
        "swing": _scene.uniform(0.1, 0.45, 2),
        "speed": _scene.uniform(0.2, 0.9, 2),
        "phase": _scene.uniform(0, 2 * np.pi, 2),
        "radius": float(_scene.uniform(0.04, 0.22)),
        "colour": _scene.uniform(0.05, 1.0, 3).astype(np.float32),
        "opacity": float(_scene.choice([1.0, 1.0, 0.6])),
    }
    for _ in range(9)
]


def value_noise(x, y, channels=3):
    """Smooth value noise at lattice coordinates x (columns, 1-D) and y (rows, 1-D): (rows, cols, channels).
    Separable: the lattice rows are blended first (small), then the columns are spread out."""
    iy = np.floor(y).astype(np.int64)
    fy = (y - iy).astype(np.float32)
    fy = (fy * fy * (3 - 2 * fy))[:, None, None]
    first = int(np.floor(x[0]))
    ix = np.floor(x).astype(np.int64) - first
    fx = (x - (ix + first)).astype(np.float32)
    fx = (fx * fx * (3 - 2 * fx))[None, :, None]
    columns = (first + np.arange(int(ix[-1]) + 2)) % 256
    lattice = LATTICE[..., :channels]
    top = lattice[(iy % 256)[:, None], columns[None, :]]
    blended = top + (lattice[((iy + 1) % 256)[:, None], columns[None, :]] - top) * fy
    left = blended[:, ix]
    return left + (blended[:, ix + 1] - left) * fx


def render(width, height, frame, row0, row1, want_alpha=False):
    """Rows row0..<row1 of frame `frame`: RGB floats in [0, 1] (and alpha when asked)."""
    seconds = frame / FPS
    u = (np.arange(width, dtype=np.float32) + 0.5) / height  # picture heights, aspect kept
    v = (np.arange(row0, row1, dtype=np.float32) + 0.5) / height
    U, V = u[None, :], v[:, None]
    aspect = width / height

    # Sky: a diagonal gradient whose hue drifts with time.
    g = V + 0.12 * np.sin(2 * np.pi * (0.6 * U + 0.07 * seconds))
    rgb = np.empty((row1 - row0, width, 3), dtype=np.float32)
    rgb[..., 0] = 0.20 + 0.55 * g + 0.10 * np.sin(seconds * 0.9)
    rgb[..., 1] = 0.35 + 0.30 * np.cos(2 * np.pi * (0.4 * U - 0.3 * V) + 0.3 * seconds)
    rgb[..., 2] = 0.85 - 0.50 * g

    # Texture: three octaves of value noise scrolling at different speeds (parallax); the coarse one
    # varies the colour, the fine ones (one channel, to save time) only the brightness.
    texture = 0.55 * value_noise(u * 5 + 0.2 * seconds, v * 5 + 0.06 * seconds)
    for scale, weight, speed in ((21.0, 0.30, 0.09), (83.0, 0.15, 0.15)):
        texture += weight * value_noise(u * scale + speed * scale * seconds, v * scale + 0.3 * speed * seconds, 1)
    rgb = rgb * (0.55 + 0.8 * texture) + 0.08 * (texture - 0.5)

    # Shapes: shaded, antialiased discs (some translucent) on Lissajous paths, and a rotating bar.
    coverage = np.zeros(rgb.shape[:2], dtype=np.float32) if want_alpha else None
    for shape in SHAPES:
        cx, cy = shape["centre"] + shape["swing"] * np.sin(shape["speed"] * seconds + shape["phase"])
        cx *= aspect / 1.78
        r = shape["radius"]
        c0, c1 = max(int((cx - r) * height) - 2, 0), min(int((cx + r) * height) + 3, width)
        r0, r1 = max(int((cy - r) * height) - 2, row0), min(int((cy + r) * height) + 3, row1)
        if c0 >= c1 or r0 >= r1:
            continue
        d = np.sqrt((u[c0:c1][None, :] - cx) ** 2 + (v[r0 - row0 : r1 - row0][:, None] - cy) ** 2)
        cover = np.clip((r - d) * height + 0.5, 0, 1)  # one-pixel antialiased edge
        shade = 1.1 - 0.6 * (d / r)  # lit from the front, darker at the rim
        alpha = (shape["opacity"] * cover)[..., None]
        patch = rgb[r0 - row0 : r1 - row0, c0:c1]
        patch *= 1 - alpha
        patch += alpha * shape["colour"] * shade[..., None]
        if coverage is not None:
            np.maximum(coverage[r0 - row0 : r1 - row0, c0:c1], cover, out=coverage[r0 - row0 : r1 - row0, c0:c1])
    angle = 0.6 * seconds
    along = (U - aspect / 2) * np.cos(angle) + (V - 0.5) * np.sin(angle)
    across = -(U - aspect / 2) * np.sin(angle) + (V - 0.5) * np.cos(angle)
    bar = np.clip((0.018 - np.abs(across)) * height + 0.5, 0, 1) * np.clip((0.42 - np.abs(along)) * height + 0.5, 0, 1)
    rgb += bar[..., None] * (np.array([0.95, 0.92, 0.80], dtype=np.float32) - rgb)
    if coverage is not None:
        np.maximum(coverage, bar, out=coverage)

    # A lens: vignette and film grain (a different patch of the grain tile every frame).
    rgb *= (1 - 0.35 * ((U - aspect / 2) ** 2 / aspect**2 * 4 + (V - 0.5) ** 2))[..., None]
    offset = np.random.default_rng(frame).integers(0, 512, 2)
    grain = GRAIN[((np.arange(row0, row1) + offset[0]) % 512)[:, None], ((np.arange(width) + offset[1]) % 512)[None, :]]
    rgb += grain * (1.5 / 255)
    np.clip(rgb, 0, 1, out=rgb)
    if not want_alpha:
        return rgb, None
    # Alpha: soft bands sweeping across (fully clear to fully opaque), the shapes always opaque.
    wave = np.clip(0.5 + 0.9 * np.sin(2 * np.pi * (0.9 * U - 0.5 * V + 0.08 * seconds)), 0, 1)
    return rgb, np.maximum(wave, coverage)


def picture(width, height, frame, depth=8, want_alpha=False):
    """The whole frame as an integer array (height, width, 3 or 4) of `depth` bits."""
    top = (1 << depth) - 1
    channels = 4 if want_alpha else 3
    out = np.empty((height, width, channels), dtype=np.uint8 if depth == 8 else np.uint16)
    for row0 in range(0, height, STRIP):
        row1 = min(row0 + STRIP, height)
        rgb, alpha = render(width, height, frame, row0, row1, want_alpha)
        out[row0:row1, :, :3] = rgb * top + 0.5
        if want_alpha:
            out[row0:row1, :, 3] = alpha * top + 0.5
    return out


def libpng_style_png(pixels):
    """A PNG written as libpng writes it by default (Blender, ImageMagick, GIMP): for each row the
    filter whose output has the smallest sum of absolute signed bytes, zlib level 6 with the
    Z_FILTERED strategy. Pillow's default writer uses the same measure but never tries Average (only
    with optimize=True, which also forces zlib level 9) nor Z_FILTERED, so its files differ.
    Filtering reads only unfiltered neighbours, so each filter vectorises over the whole picture."""
    height, width, channels = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    bpp = channels * depth // 8
    raw = pixels.astype(">u2" if depth == 16 else np.uint8).view(np.uint8).reshape(height, -1).astype(np.int16)
    padded = np.zeros((height + 1, raw.shape[1] + bpp), dtype=np.int16)
    padded[1:, bpp:] = raw
    left, up, upleft = padded[1:, :-bpp], padded[:-1, bpp:], padded[:-1, :-bpp]
    best = np.full(height, np.iinfo(np.int64).max)
    filtered = np.empty((height, 1 + raw.shape[1]), dtype=np.uint8)
    for kind in range(5):
        if kind == 4:  # Paeth: the neighbour nearest to left + up - upleft
            pa, pb, pc = np.abs(up - upleft), np.abs(left - upleft), np.abs(left + up - 2 * upleft)
            prediction = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
        else:
            prediction = (0, left, up, (left + up) >> 1)[kind]
        out = (raw - prediction) & 0xFF
        cost = np.minimum(out, 256 - out).sum(axis=1)
        better = cost < best
        best[better] = cost[better]
        filtered[better, 0] = kind
        filtered[better, 1:] = out[better]
    squeeze = zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_FILTERED)
    idat = squeeze.compress(filtered.tobytes()) + squeeze.flush()
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    chunks = [(b"IHDR", struct.pack(">2I5B", width, height, depth, colour, 0, 0, 0)), (b"IDAT", idat), (b"IEND", b"")]
    return b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body)) for kind, body in chunks
    )


def camera_exif():
    exif = Image.Exif()
    exif[0x010F] = "Flipbook Optics"  # Make
    exif[0x0110] = "FB-24 Mark II"  # Model
    exif[0x0112] = 1  # Orientation: as stored (ffmpeg ignores EXIF orientation)
    exif[0x0131] = "bench/corpora.py"  # Software
    exif[0x0132] = "2024:06:11 12:00:00"  # DateTime
    return exif.tobytes()


def write_frame(job):
    name, folder, frame = job
    width, height, ext = CORPORA[name]
    path = os.path.join(folder, f"{frame + 1:04d}.{ext}")
    if name in ("png-adaptive", "png-rgba", "png16", "png4k"):
        pixels = picture(width, height, frame, depth=16 if name == "png16" else 8, want_alpha=name == "png-rgba")
        with open(path, "wb") as f:
            f.write(libpng_style_png(pixels))
    elif name == "png-pillow":
        Image.fromarray(picture(width, height, frame)).save(path)  # Pillow's defaults
    elif name in ("jpeg420", "jpeg422"):
        Image.fromarray(picture(width, height, frame)).save(
            path, quality=92, subsampling=2 if name == "jpeg420" else 1
        )
    elif name == "jpeg24mp":
        Image.fromarray(picture(width, height, frame)).save(path, quality=92, subsampling=2, exif=camera_exif())
    return os.path.getsize(path)


def filter_histogram(path):
    """Counts of each row filter type in a PNG, read from its decompressed IDAT data."""
    data = open(path, "rb").read()
    pos, idat = 8, []
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        if kind == b"IHDR":
            width, height = int.from_bytes(data[pos + 8 : pos + 12], "big"), int.from_bytes(data[pos + 12 : pos + 16], "big")
            depth, colour = data[pos + 16], data[pos + 17]
        elif kind == b"IDAT":
            idat.append(data[pos + 8 : pos + 8 + length])
        pos += 12 + length
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    stride = 1 + (width * channels * depth + 7) // 8
    rows = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)[::stride]
    assert len(rows) == height, f"{path}: {len(rows)} rows, expected {height}"
    return np.bincount(rows, minlength=5)[:5], f"{width}x{height} {depth}-bit colour type {colour}"


def check(name, folder):
    ext = CORPORA[name][2]
    files = sorted(f for f in os.listdir(folder) if f.endswith("." + ext))
    sizes = [os.path.getsize(os.path.join(folder, f)) for f in files]
    print(f"  {name}: {len(files)} files, {sum(sizes) / len(files) / 1e6:.2f} MB each on average")
    if ext == "png":
        total, kind = np.zeros(5, dtype=np.int64), ""
        for f in files:
            counts, kind = filter_histogram(os.path.join(folder, f))
            total += counts
        shares = ", ".join(f"{n} {100 * c / total.sum():.1f}%" for n, c in zip(FILTER_NAMES, total))
        print(f"    {kind}; row filters: {shares}")
    else:
        with Image.open(os.path.join(folder, files[0])) as im:
            sampling = {0: "4:4:4", 1: "4:2:2", 2: "4:2:0"}.get(JpegImagePlugin.get_sampling(im), "other")
            exif = im.getexif()
            tags = ", ".join(f"{k} {exif[t]!r}" for k, t in (("make", 0x010F), ("model", 0x0110), ("orientation", 0x0112)) if t in exif)
            print(f"    {im.size[0]}x{im.size[1]} {sampling}; EXIF: {tags or 'none'}")


def make(name, folder, frames, jobs):
    os.makedirs(folder, exist_ok=True)
    start = time.monotonic()
    with multiprocessing.Pool(jobs) as pool:
        sizes = pool.map(write_frame, [(name, folder, i) for i in range(frames)], chunksize=1)
    width, height, ext = CORPORA[name]
    print(f"  {name}: {frames} x {width}x{height} .{ext}, {sum(sizes) / 1e6:.1f} MB, {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    command, name, folder = sys.argv[1:4]
    if name not in CORPORA:
        sys.exit(f"unknown corpus {name}; known: {' '.join(CORPORA)}")
    if command == "make":
        make(name, folder, int(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) > 5 else os.cpu_count())
    elif command == "check":
        check(name, folder)
    else:
        sys.exit(f"unknown command {command}")

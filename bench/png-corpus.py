#!/usr/bin/env python3
"""Render-like 1920x1080 RGB PNGs with adaptive row filters, for timing PNG decoding.

    pip install numpy pillow
    bench/png-corpus.py DIR [COUNT]      # COUNT frames (default 40), DIR/1.png ... DIR/COUNT.png
    .build/release/FlipbookBench decode DIR
    ffmpeg -threads 1 -benchmark -i DIR/%d.png -f null -

Shaded gradients, fine surface texture in both directions, a lit disc, a shadowed box and faint
grain. Pillow's PNG writer picks a filter per row as libpng does; on this content about 89% of the
rows are Paeth and the rest Up (like a Blender render), about 2.2 MB a frame. ffmpeg's own writer
filters nothing unless told `-pred mixed`, and noisier content leads Pillow to Up and Sub and
ffmpeg to Average, so a corpus made otherwise times a different decoder path.
"""
import sys

import numpy as np
from PIL import Image

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
height, width = 1080, 1920
y, x = np.mgrid[0:height, 0:width].astype(np.float32)
rng = np.random.default_rng(1)
for i in range(count):
    t = i / count
    r = 40 + 0.06 * x + 0.09 * y + 30 * np.sin(x / 97 + 6.28 * t) * np.cos(y / 83)
    g = 200 - 0.05 * x + 0.04 * y + 25 * np.cos((x - y) / 120 - 6.28 * t)
    b = 30 + 0.08 * (x + y) * (0.5 + 0.5 * np.sin(6.28 * t))
    image = np.stack([r, g, b], -1)
    d = np.sqrt((x - 600 - 500 * t) ** 2 + (y - 500) ** 2)
    disc = d < 260
    image[disc] = np.stack([235 - 0.6 * d, 200 - 0.5 * d, 90 + 0.2 * d], -1)[disc]
    image[(x > 1300) & (x < 1700) & (y > 650 - 100 * t) & (y < 950)] *= 0.55
    # Surface texture, fine across (wood grain) and down (ribbing), then denoised-render grain.
    image += (12 * np.sin(x / 2.3 + 9 * t) + 10 * np.cos(y / 1.7))[..., None] * np.array([1.0, 0.8, 0.6])
    image += rng.normal(0, 0.35, image.shape)
    Image.fromarray(np.clip(image, 0, 255).astype(np.uint8), "RGB").save(f"{out}/{i + 1}.png")

"""PSNR of every frame of an animated GIF (or anything ffmpeg decodes) against the source images.

    /usr/bin/python3 bench/gif_psnr.py MOVIE SOURCE_PATTERN WIDTH HEIGHT

Both are decoded by ffmpeg to RGB24 (the movie with -fps_mode passthrough, so each stored frame is
one frame, whatever its delay); prints the frame counts, the mean of the frames' PSNR and the lowest.
"""

import math
import subprocess
import sys

import numpy as np


def frames(args, width, height):
    raw = subprocess.run(
        ["ffmpeg", "-v", "error"] + args + ["-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        check=True, stdout=subprocess.PIPE).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, height, width, 3).astype(np.float64)


def main():
    movie, pattern, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    decoded = frames(["-i", movie], width, height)
    sources = frames(["-start_number", "1", "-i", pattern], width, height)
    count = min(len(decoded), len(sources))
    values = []
    for i in range(count):
        mse = np.mean((decoded[i] - sources[i]) ** 2)
        values.append(99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse))
    print("frames %d %d mean %.3f min %.3f" % (len(decoded), len(sources), sum(values) / count, min(values)))


main()

#!/usr/bin/env python3
"""Plays movies made by the flipbook tool in headless Chromium and judges what the browser shows.

For each movie it checks, from the browser's own numbers:
  - duration: `video.duration` against the length the source frames and rate imply;
  - frames: `getVideoPlaybackQuality().totalVideoFrames` once `ended` fires, against the number
    of encoded frames (one per source image);
  - first frame: the centre colour of the first presented frame (drawn into a canvas inside the
    first `requestVideoFrameCallback`, at media time 0) against the first source image's centre;
  - last frame: the centre colour shown after `ended` against the last source image's centre;
  - sound (movies made with --audio): `webkitAudioDecodedByteCount` once `ended` fires is above zero,
    so the browser found the sound track and decoded it;
  - size: `videoWidth` x `videoHeight` against the pictures' size, swapped for a movie made with
    --rotate 90 or 270 (the browser honours the track's display matrix, as for a phone's upright video);
  - colour space (HDR movies, --colour pq): the first frame's `VideoFrame.colorSpace` as WebCodecs reports
    it (primaries, transfer, matrix, range) against what the movie says; their colours are the browser's
    tone mapping, not judged.
And that an <img> of a GIF and of an animated WebP animates: its centre colour on screen (1x1 screenshots
as fast as they come for 3 s) steps through the source frames in their order from the first.

Prints one line per check and a final "N passed, N failed" line; exits 1 when any check fails.
Usage: play_in_chromium.py --flipbook PATH [--chromium PATH] [--chromedriver PATH] [--keep DIR]
"""

import argparse
import base64
import colorsys
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import math
import tempfile
import time
import wave
import zlib
from fractions import Fraction
from pathlib import Path

# Selenium Manager must never try to download a driver or a browser: there is no network for it.
os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WIDTH, HEIGHT = 320, 240
# Per channel, 8-bit RGB. ffmpeg decodes the movies' flat patches within 1 level of the source;
# Chromium 156 draws saturated blues up to 8 levels darker (its own YUV to RGB path), so 12 leaves
# room for that and still tells every source frame from the first and the last (assert_identifiable).
COLOUR_TOLERANCE = 12
PER_MOVIE_TIMEOUT = 30.0

PLAYER_HTML = """<!doctype html>
<meta charset="utf-8">
<title>flipbook player</title>
<video id="v" muted playsinline preload="auto"></video>
<canvas id="c"></canvas>
<script>
"use strict";
const video = document.getElementById("v");
const canvas = document.getElementById("c");
const report = {};
window.flipbookResult = null;

function done(error) {
  if (window.flipbookResult) return;
  report.error = error || null;
  window.flipbookResult = report;
}

// The mean colour of the 9x9 pixels around the centre of what the video shows now.
function centreColour() {
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.drawImage(video, 0, 0);
  const x = Math.floor(canvas.width / 2) - 4, y = Math.floor(canvas.height / 2) - 4;
  const data = context.getImageData(x, y, 9, 9).data;
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) {
    sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2];
  }
  return sum.map((s) => s / (data.length / 4));
}

video.addEventListener("error", () => {
  const e = video.error;
  done("media error " + (e ? e.code + " " + e.message : "unknown"));
});
video.addEventListener("loadedmetadata", () => {
  report.duration = video.duration;
  report.width = video.videoWidth;
  report.height = video.videoHeight;
});
video.addEventListener("ended", () => {
  const quality = video.getVideoPlaybackQuality();
  report.totalVideoFrames = quality.totalVideoFrames;
  report.droppedVideoFrames = quality.droppedVideoFrames;
  report.endedAt = video.currentTime;
  report.durationAtEnd = video.duration;
  report.audioDecodedBytes = video.webkitAudioDecodedByteCount;
  report.lastCentre = centreColour();
  done();
});
// The mean alpha of the 9x9 pixels at (x, y) of the video drawn on a transparent canvas.
function alphaAt(x, y) {
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.drawImage(video, 0, 0);
  const data = context.getImageData(x, y, 9, 9).data;
  let sum = 0;
  for (let i = 3; i < data.length; i += 4) sum += data[i];
  return sum / (data.length / 4);
}

// The first presented frame: drawn while paused, then playback starts.
video.requestVideoFrameCallback((now, metadata) => {
  try {
    const frame = new VideoFrame(video);
    report.colorSpace = frame.colorSpace.toJSON();
    frame.close();
  } catch (e) {
    report.colorSpace = "VideoFrame failed: " + e;
  }
  report.firstCornerAlpha = alphaAt(16, Math.floor(video.videoHeight / 2) - 4);
  report.firstCentreAlpha = alphaAt(Math.floor(video.videoWidth / 2) - 4, Math.floor(video.videoHeight / 2) - 4);
  report.firstCentre = centreColour();
  report.firstMediaTime = metadata.mediaTime;
  video.play().catch((e) => done("play() refused: " + e));
});
video.src = new URLSearchParams(location.search).get("movie");
</script>
"""


def write_png(path, rows, alpha=False):
    """Writes an 8-bit RGB (or, with `alpha`, RGBA) PNG from a list of row byte strings (no filter)."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6 if alpha else 2, 0, 0, 0)
    Path(path).write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    )


def centre_colour(index, count):
    """The flat centre colour of frame `index` of `count`.

    The first and last frames are bright red and bright blue; the frames between are darker, with hues
    a golden angle apart, so no other frame can pass for the first or the last.
    """
    if index == 0:
        hsv = (0.0, 0.8, 0.95)
    elif index == count - 1:
        hsv = (0.62, 0.8, 0.95)
    else:
        hsv = ((index * 0.381966) % 1.0, 0.8, 0.55)
    return tuple(round(c * 255) for c in colorsys.hsv_to_rgb(*hsv))


def assert_identifiable(colours):
    """Fails the run (not a check) if the first or last colour is within twice the tolerance of another."""
    for end in (0, len(colours) - 1):
        for i, other in enumerate(colours):
            distance = max(abs(a - b) for a, b in zip(colours[end], other))
            if i != end and distance <= 2 * COLOUR_TOLERANCE:
                raise AssertionError(f"source frames {end} and {i} are too alike to tell apart: {distance}")


def draw_frame(path, index, colour):
    """A grey frame with a bar that moves with `index` and a flat `colour` patch over its middle half."""
    rows = []
    bar = (index * 7) % WIDTH
    for y in range(HEIGHT):
        row = bytearray(b"\x40\x40\x40" * WIDTH)
        for x in range(bar, min(bar + 8, WIDTH)):
            row[3 * x : 3 * x + 3] = b"\xe0\xe0\xe0"
        if HEIGHT // 4 <= y < 3 * HEIGHT // 4:
            row[3 * (WIDTH // 4) : 3 * (3 * WIDTH // 4)] = bytes(colour) * (WIDTH // 2)
        rows.append(bytes(row))
    write_png(path, rows)


def draw_transparent_frame(path, index, colour):
    """A transparent frame (alpha 0) with an opaque `colour` patch over its middle half and an opaque
    bar that moves with `index` along the top."""
    rows = []
    bar = (index * 7) % WIDTH
    for y in range(HEIGHT):
        row = bytearray(b"\x00\x00\x00\x00" * WIDTH)
        if y < 8:
            for x in range(bar, min(bar + 8, WIDTH)):
                row[4 * x : 4 * x + 4] = b"\xe0\xe0\xe0\xff"
        if HEIGHT // 4 <= y < 3 * HEIGHT // 4:
            row[4 * (WIDTH // 4) : 4 * (3 * WIDTH // 4)] = (bytes(colour) + b"\xff") * (WIDTH // 2)
        rows.append(bytes(row))
    write_png(path, rows, alpha=True)


def write_tone(path, seconds=3, rate=48000):
    """A 16-bit stereo WAV of a 440 Hz tone."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(rate)
        samples = (round(8000 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(seconds * rate))
        out.writeframes(b"".join(struct.pack("<hh", v, v) for v in samples))


class Movie:
    def __init__(
        self,
        name,
        options,
        colours,
        expected_duration,
        duration_tolerance,
        frames,
        sound=False,
        shown=(WIDTH, HEIGHT),
        ext="mp4",
        alpha=False,
        colour_space=None,
    ):
        self.name = name
        self.ext = ext
        self.alpha = alpha
        # What `VideoFrame.colorSpace` must say; an HDR movie's colours are then the browser's to map.
        self.colour_space = colour_space
        self.shown = shown
        self.options = options
        self.colours = colours
        self.expected_duration = expected_duration
        self.duration_tolerance = duration_tolerance
        self.frames = frames
        self.sound = sound


def make_sources(work):
    """Draws a 60-frame sequence and a 3-image slideshow; returns (sequence folder, slideshow files, colours)."""
    sequence = work / "sequence"
    sequence.mkdir()
    sequence_colours = [centre_colour(i, 60) for i in range(60)]
    for i, colour in enumerate(sequence_colours):
        draw_frame(sequence / f"frame{i + 1}.png", i, colour)
    # The same colours on transparent frames, for movies that keep alpha.
    transparent = work / "transparent"
    transparent.mkdir()
    for i, colour in enumerate(sequence_colours):
        draw_transparent_frame(transparent / f"frame{i + 1}.png", i, colour)
    slides = work / "slides"
    slides.mkdir()
    slide_colours = [(200, 40, 50), (40, 180, 70), (50, 60, 200)]
    slide_files = []
    for colours in (sequence_colours, slide_colours):
        assert_identifiable(colours)
    for i, colour in enumerate(slide_colours):
        path = slides / f"slide{i + 1}.png"
        draw_frame(path, i * 10, colour)
        slide_files.append(path)
    tone = work / "tone.wav"
    write_tone(tone)
    sounds = [tone]
    # AAC to copy, made by ffmpeg when it is there (make test-browser installs it with the other deps).
    if shutil.which("ffmpeg"):
        song = work / "tone.m4a"
        subprocess.run(["ffmpeg", "-v", "error", "-i", str(tone), "-c:a", "aac", str(song)], check=True)
        sounds.append(song)
        opus = work / "tone.opus"
        subprocess.run(["ffmpeg", "-v", "error", "-i", str(tone), "-c:a", "libopus", str(opus)], check=True)
        sounds.append(opus)
    return sequence, sequence_colours, slide_files, slide_colours, sounds


# AV1 and VP9 at fast presets, so the browser check stays about a minute.
AV1 = ["--codec", "av1", "--preset", "veryfast"]
VP9 = ["--codec", "vp9", "--preset", "veryfast"]


def movies(sequence, sequence_colours, slide_files, slide_colours, sounds):
    one_ms = Fraction(1, 1000)
    # Chromium does not apply a fragmented movie's sound edit list (ffmpeg's own fragmented movies
    # show the same): its duration then includes the AAC encoder's delay, one 1024-sample packet at
    # 48 kHz, after the pictures end. A progressive movie's sound must end with its pictures.
    priming = Fraction(1024, 48000)
    with_sound = [
        Movie(
            f"audio-{sound.suffix[1:]}{'-fragmented' if fragmented else ''}",
            [str(sequence), "--audio", str(sound)] + (["--fragmented"] if fragmented else []),
            sequence_colours,
            Fraction(60, 30),
            one_ms + (priming if fragmented else 0),
            60,
            sound=True,
        )
        for sound in sounds
        if sound.suffix != ".opus"
        for fragmented in (False, True)
    ]
    # WebM: AV1 pictures, Opus sound (encoded from the WAV, or an .opus copied), exact durations.
    webm = [
        Movie(
            f"webm-{name}",
            [str(sequence), *AV1, *options],
            sequence_colours,
            Fraction(60, 30) if "29.97" not in name else Fraction(60 * 1001, 30000),
            one_ms,
            60,
            sound=sound,
            ext="webm",
        )
        for name, options, sound in [
            ("av1", [], False),
            ("av1-fragmented", ["--fragmented"], False),
            ("av1-fps-29.97", ["--fps", "29.97"], False),
            *[
                (f"av1-audio-{tone.suffix[1:]}{'-fragmented' if fragmented else ''}",
                 ["--audio", str(tone)] + (["--fragmented"] if fragmented else []), True)
                for tone in sounds
                if tone.suffix in (".wav", ".opus")
                for fragmented in (False, True)
            ],
        ]
    ]
    transparent = sequence.parent / "transparent"
    # VP9 in WebM, opaque and with the images' alpha (a second VP9 stream in BlockAdditional).
    webm += [
        Movie(f"webm-{name}", options, sequence_colours, Fraction(60, 30), one_ms, 60, ext="webm", alpha=alpha)
        for name, options, alpha in [
            ("vp9", [str(sequence), *VP9], False),
            ("vp9-10bit", [str(sequence), *VP9, "--bit-depth", "10"], False),
            ("vp9-alpha", [str(transparent), *VP9, "--alpha"], True),
            ("vp9-alpha-fragmented", [str(transparent), *VP9, "--alpha", "--fragmented"], True),
        ]
    ]
    # HDR: PQ movies in WebM, VP9 and AV1, their colour space as WebCodecs reports it.
    pq = {"primaries": "bt2020", "transfer": "pq", "matrix": "bt2020-ncl", "fullRange": False}
    hdr = [
        Movie(
            f"pq-{codec[1]}-webm",
            [*map(str, slide_files), *codec, "--duration", "2", "--colour", "pq", "--mastering-display", "P3-D65"],
            slide_colours,
            Fraction(6),
            one_ms,
            len(slide_files),
            ext="webm",
            colour_space=pq,
        )
        for codec in (AV1, VP9)
    ]
    return with_sound + webm + hdr + [
        Movie("default", [str(sequence)], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie("fragmented", [str(sequence), "--fragmented"], sequence_colours, Fraction(60, 30), one_ms, 60),
        # The display matrix of a phone's upright video: shown a quarter turn clockwise, width and height swapped.
        Movie(
            "rotate-90",
            [str(sequence), "--rotate", "90"],
            sequence_colours,
            Fraction(60, 30),
            one_ms,
            60,
            shown=(HEIGHT, WIDTH),
        ),
        Movie(
            "rotate-270-fragmented",
            [str(sequence), "--rotate", "270", "--fragmented"],
            sequence_colours,
            Fraction(60, 30),
            one_ms,
            60,
            shown=(HEIGHT, WIDTH),
        ),
        Movie("rotate-180", [str(sequence), "--rotate", "180"], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie(
            "fps-29.97", [str(sequence), "--fps", "29.97"], sequence_colours, Fraction(60 * 1001, 30000), one_ms, 60
        ),
        Movie(
            "slideshow",
            [*map(str, slide_files), "--duration", "2"],
            slide_colours,
            Fraction(6),
            one_ms,
            len(slide_files),
        ),
        # AV1 (SVT-AV1); Chromium decodes it with dav1d. HEVC is left out: Linux Chromium plays it only
        # through hardware decoders, which a headless machine does not have.
        Movie("av1", [str(sequence), *AV1], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie("av1-fragmented", [str(sequence), *AV1, "--fragmented"], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie("av1-10bit", [str(sequence), *AV1, "--bit-depth", "10"], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie(
            "av1-fps-29.97",
            [str(sequence), *AV1, "--fps", "29.97"],
            sequence_colours,
            Fraction(60 * 1001, 30000),
            one_ms,
            60,
        ),
        Movie(
            "av1-slideshow",
            [*map(str, slide_files), *AV1, "--duration", "2"],
            slide_colours,
            Fraction(6),
            one_ms,
            len(slide_files),
        ),
        # VP9 (libvpx) in MP4, vp09 with its vpcC; Chromium decodes it with libvpx or its own decoder.
        Movie("vp9", [str(sequence), *VP9], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie("vp9-fragmented", [str(sequence), *VP9, "--fragmented"], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie("vp9-10bit", [str(sequence), *VP9, "--bit-depth", "10"], sequence_colours, Fraction(60, 30), one_ms, 60),
        Movie(
            "vp9-slideshow",
            [*map(str, slide_files), *VP9, "--duration", "2"],
            slide_colours,
            Fraction(6),
            one_ms,
            len(slide_files),
        ),
    ]


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def record(self, name, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)


def colour_close(seen, expected):
    return seen is not None and all(abs(s - e) <= COLOUR_TOLERANCE for s, e in zip(seen, expected))


def fmt_colour(colour):
    return "none" if colour is None else "(" + ", ".join(f"{c:.0f}" for c in colour) + ")"


def judge(checks, movie, result):
    name = movie.name
    if result.get("error"):
        checks.record(f"{name}/plays", False, result["error"])
        return
    duration = result.get("duration")
    expected = movie.expected_duration
    ok = duration is not None and abs(Fraction(duration) - expected) <= movie.duration_tolerance
    checks.record(
        f"{name}/duration",
        ok,
        f"video.duration {duration} s, expected {float(expected):.6f} s within {float(movie.duration_tolerance) * 1000:.1f} ms",
    )
    shown = (result.get("width"), result.get("height"))
    checks.record(
        f"{name}/size",
        shown == movie.shown,
        f"videoWidth x videoHeight {shown[0]}x{shown[1]}, expected {movie.shown[0]}x{movie.shown[1]}",
    )
    total = result.get("totalVideoFrames")
    checks.record(
        f"{name}/frames",
        total == movie.frames,
        f"totalVideoFrames {total} (dropped {result.get('droppedVideoFrames')}), expected {movie.frames}",
    )
    if movie.colour_space is not None:
        seen = result.get("colorSpace")
        checks.record(
            f"{name}/colour-space",
            isinstance(seen, dict) and all(seen.get(key) == value for key, value in movie.colour_space.items()),
            f"VideoFrame.colorSpace {json.dumps(seen)}, expected {json.dumps(movie.colour_space)}",
        )
        return
    first = result.get("firstCentre")
    first_time = result.get("firstMediaTime")
    checks.record(
        f"{name}/first-frame",
        colour_close(first, movie.colours[0]) and first_time == 0,
        f"centre {fmt_colour(first)} at media time {first_time}, expected {fmt_colour(movie.colours[0])} at 0",
    )
    last = result.get("lastCentre")
    checks.record(
        f"{name}/last-frame",
        colour_close(last, movie.colours[-1]),
        f"centre after ended {fmt_colour(last)}, expected {fmt_colour(movie.colours[-1])}",
    )
    corner, centre = result.get("firstCornerAlpha"), result.get("firstCentreAlpha")
    if movie.alpha:
        checks.record(
            f"{name}/alpha",
            corner is not None and centre is not None and corner <= 2 and centre >= 253,
            f"alpha {corner} where the images are transparent, {centre} where opaque; expected 0 and 255",
        )
    else:
        checks.record(
            f"{name}/opaque",
            corner is not None and corner >= 253,
            f"alpha {corner} at the left edge, expected 255",
        )
    if movie.sound:
        decoded = result.get("audioDecodedBytes")
        checks.record(
            f"{name}/sound", (decoded or 0) > 0, f"webkitAudioDecodedByteCount {decoded} after ended, expected above 0"
        )


def start_browser(chromium, chromedriver):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--autoplay-policy=no-user-gesture-required",
        "--allow-file-access-from-files",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--mute-audio",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    driver.set_page_load_timeout(PER_MOVIE_TIMEOUT)
    driver.set_script_timeout(PER_MOVIE_TIMEOUT)
    return driver


def play(driver, page, movie_path):
    driver.get(f"{page.as_uri()}?movie={movie_path.name}")
    try:
        WebDriverWait(driver, PER_MOVIE_TIMEOUT, poll_frequency=0.2).until(
            lambda d: d.execute_script("return window.flipbookResult")
        )
    except TimeoutException:
        partial = driver.execute_script(
            "const v = document.getElementById('v');"
            "return {readyState: v.readyState, currentTime: v.currentTime, paused: v.paused, ended: v.ended};"
        )
        return {"error": f"no result within {PER_MOVIE_TIMEOUT:.0f} s (video state {json.dumps(partial)})"}
    return driver.execute_script("return window.flipbookResult")


def count_clusters(path):
    """The Cluster IDs in a Matroska file's bytes: the clusters begun, the last perhaps unfinished."""
    try:
        return path.read_bytes().count(b"\x1f\x43\xb6\x75")
    except OSError:
        return 0


def play_killed_webm(flipbook, driver, page, work, sequence, colours, checks):
    """A `--fragmented` WebM killed with SIGKILL after three clusters: the hidden file plays, every
    finished cluster's frames shown, the first in its colour."""
    name = "webm-killed"
    frames = work / "long"
    frames.mkdir()
    for index in range(300):
        shutil.copyfile(sequence / f"frame{index % 60 + 1}.png", frames / f"frame{index + 1}.png")
    output = work / f"{name}.webm"
    process = subprocess.Popen(
        [flipbook, str(frames), "-o", str(output), *AV1[:2], "--preset", "slow", "--fragmented",
         "--fragment-duration", "0.5", "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    hidden = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        found = [p for p in work.iterdir() if p.name.startswith(f".{output.name}.flipbook-") and p.suffix == ".tmp"]
        if found and count_clusters(found[0]) >= 4:
            hidden = found[0]
            break
        time.sleep(0.05)
    if hidden is None or process.poll() is not None:
        process.kill()
        checks.record(f"{name}/made", False, "the encode ended or wrote no clusters before it could be killed")
        return
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    begun = count_clusters(hidden)
    partial = work / f"{name}-partial.webm"
    shutil.copyfile(hidden, partial)
    result = play(driver, page, partial)
    print(f"  {name}: {begun} clusters begun: {json.dumps(result)}", flush=True)
    if result.get("error"):
        checks.record(f"{name}/plays", False, result["error"])
        return
    total = result.get("totalVideoFrames") or 0
    # Each finished cluster holds at least half a second (15 frames); the last begun may be cut short.
    checks.record(
        f"{name}/frames", total >= 15 * (begun - 1), f"totalVideoFrames {total} from {begun} clusters begun")
    ended = result.get("endedAt") or 0
    checks.record(
        f"{name}/duration", abs(Fraction(ended) - Fraction(total, 30)) <= Fraction(1, 30) + Fraction(1, 1000),
        f"ended at {ended} s after {total} frames at 30 fps")
    first = result.get("firstCentre")
    checks.record(
        f"{name}/first-frame", colour_close(first, colours[0]),
        f"centre {fmt_colour(first)}, expected {fmt_colour(colours[0])}")


IMAGE_HTML = """<!doctype html>
<meta charset="utf-8">
<title>flipbook animated image</title>
<style>body { margin: 0; }</style>
<img id="i" style="display: block">
<script>
"use strict";
const image = document.getElementById("i");
image.onload = () => { window.flipbookResult = {width: image.naturalWidth, height: image.naturalHeight}; };
image.onerror = () => { window.flipbookResult = {error: "the browser could not load the image"}; };
image.src = new URLSearchParams(location.search).get("image");
</script>
"""


def screen_pixel(driver, x, y):
    """The colour the browser shows at (x, y): a 1x1 screenshot through the DevTools protocol, whose PNG
    holds one pixel (any row filter leaves a lone first pixel as it is)."""
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "clip": {"x": x, "y": y, "width": 1, "height": 1, "scale": 1}}
    )
    data = base64.b64decode(shot["data"])
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        if kind == b"IDAT":
            idat += data[position + 8 : position + 8 + length]
        position += 12 + length
    raw = zlib.decompress(idat)
    return tuple(raw[1:4])


# Animated images: 20 frames of the sequence at 10 fps, a 2 s loop sampled for 3 s.
ANIMATED_FRAMES = 20


def play_animated_images(flipbook, driver, work, sequence, colours, checks):
    """An <img> of a GIF and of an animated WebP animates: the centre colours sampled over time are the
    source frames' own, in their order, and most of the frames are seen."""
    page = work / "image.html"
    page.write_text(IMAGE_HTML)
    frames = [str(sequence / f"frame{i + 1}.png") for i in range(ANIMATED_FRAMES)]
    for ext in ("gif", "webp"):
        output = work / f"animated.{ext}"
        made = subprocess.run(
            [flipbook, *frames, "--fps", "10", "-o", str(output), "--quiet"], capture_output=True, text=True
        )
        if made.returncode != 0:
            checks.record(f"animated-{ext}/made", False, f"flipbook exited {made.returncode}: {made.stderr.strip()}")
            continue
        driver.get(f"{page.as_uri()}?image={output.name}")
        try:
            WebDriverWait(driver, PER_MOVIE_TIMEOUT, poll_frequency=0.05).until(
                lambda d: d.execute_script("return window.flipbookResult")
            )
            result = driver.execute_script("return window.flipbookResult")
        except TimeoutException:
            result = {"error": f"no result within {PER_MOVIE_TIMEOUT:.0f} s"}
        # What the page shows at the image's centre, sampled as fast as screenshots come for 3 s.
        samples, started = [], time.monotonic()
        while "error" not in result and time.monotonic() - started < 3:
            samples.append(screen_pixel(driver, WIDTH // 2, HEIGHT // 2))
        result["samples"] = samples
        if "error" in result:
            checks.record(f"animated-{ext}/animates", False, result["error"])
            continue
        checks.record(
            f"animated-{ext}/size",
            (result["width"], result["height"]) == (WIDTH, HEIGHT),
            f"{result['width']}x{result['height']}",
        )
        # Each sample's source frame (the nearest centre colour within the tolerance), in time order.
        seen = []
        for red, green, blue in result["samples"]:
            matches = [i for i in range(ANIMATED_FRAMES) if colour_close((red, green, blue), colours[i])]
            if matches and (not seen or seen[-1] != matches[0]):
                seen.append(matches[0])
        steps_forward = sum(1 for a, b in zip(seen, seen[1:]) if b == a + 1 or (a == ANIMATED_FRAMES - 1 and b == 0))
        checks.record(
            f"animated-{ext}/animates",
            len(set(seen)) >= ANIMATED_FRAMES // 2 and steps_forward >= len(seen) - 4 and seen[:1] == [0],
            f"{len(result['samples'])} samples showed frames {seen}",
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flipbook", required=True, help="The flipbook tool to make movies with.")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="The browser (default /usr/bin/chromium).")
    parser.add_argument(
        "--chromedriver", default="/usr/bin/chromedriver", help="The driver (default /usr/bin/chromedriver)."
    )
    parser.add_argument("--keep", help="Make the movies in this folder and keep them (default: a temporary folder).")
    args = parser.parse_args()

    for tool in (args.flipbook, args.chromium, args.chromedriver):
        if not os.access(tool, os.X_OK):
            print(f"FAIL setup: {tool} is not an executable file", flush=True)
            print("0 passed, 1 failed")
            return 1

    if args.keep:
        work = Path(args.keep).resolve()
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="flipbook-browser-"))
    checks = Checks()
    driver = None
    try:
        sources = make_sources(work)
        page = work / "player.html"
        page.write_text(PLAYER_HTML)
        driver = start_browser(args.chromium, args.chromedriver)
        print(f"browser: {driver.capabilities.get('browserVersion')}, movies in {work}", flush=True)
        for movie in movies(*sources):
            output = work / f"{movie.name}.{movie.ext}"
            made = subprocess.run(
                [args.flipbook, *movie.options, "-o", str(output), "--quiet"], capture_output=True, text=True
            )
            if made.returncode != 0:
                checks.record(f"{movie.name}/made", False, f"flipbook exited {made.returncode}: {made.stderr.strip()}")
                continue
            started = time.monotonic()
            try:
                result = play(driver, page, output)
            except WebDriverException as error:
                result = {"error": f"browser failed: {error.msg}"}
            print(f"  {movie.name}: {json.dumps(result)} ({time.monotonic() - started:.1f} s)", flush=True)
            judge(checks, movie, result)
        play_killed_webm(args.flipbook, driver, page, work, sources[0], sources[1], checks)
        play_animated_images(args.flipbook, driver, work, sources[0], sources[1], checks)
    finally:
        if driver is not None:
            driver.quit()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

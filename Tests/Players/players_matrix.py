#!/usr/bin/env python3
"""The players matrix: every codec, container and sound the tool writes, played by players nobody here wrote.

Each movie is made by the tool from the same 24 small PNGs (and a second of sound), then:
- GStreamer (gst-launch-1.0: filesrc ! decodebin ! videoconvert ! filesink of raw I420) decodes every picture: the
  pictures in the raw file must be the frames, and the sound decodes in the same pipeline without error;
- mpv (--vo=null --ao=null) plays it to the end with no demuxer or decoder error;
- VLC (cvlc --play-and-exit, run as an unprivileged user: VLC refuses root) plays it with no demuxer or
  decoder error;
- MediaConch (mediaconch -mc) checks every Matroska and WebM file, and reports it valid.

Usage: players_matrix.py --flipbook PATH [--only SUBSTRING]. Exit status 0 only when every check passed;
one line per movie and a closing count.
"""

import argparse
import concurrent.futures
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

FRAMES = 24
# The tool under test (set from --flipbook).
FLIPBOOK = None
# One reference movie is made at a time.
REFERENCES = threading.Lock()
# MediaConch keeps one database per user: two checks at once wait on each other's lock until they time out.
MEDIACONCH = threading.Lock()
WIDTH, HEIGHT = 160, 120
# One I420 picture.
PICTURE_BYTES = WIDTH * HEIGHT * 3 // 2

# Each sound: the kind of file it is made from (None: no sound) and the tool options that make it.
SOUND_CHOICES = {
    "aac": ("wav", ["--audio-codec", "aac"]),
    "alac": ("wav", ["--audio-codec", "alac"]),
    "opus": ("wav", ["--audio-codec", "opus"]),
    "flac": ("flac", ["--audio-codec", "copy"]),
    "vorbis": ("ogg", ["--audio-codec", "copy"]),
    None: (None, []),
}


def combinations():
    """Every combination the tool writes, as (label, extension, options, sound)."""
    rows = []
    video = [
        ("h264", ["mp4", "mov", "mkv"], {"mp4": ["aac", "alac", "opus", None], "mov": ["aac", "alac", None],
                                        "mkv": ["aac", "alac", "opus", "flac", "vorbis", None]}),
        ("hevc", ["mp4", "mov", "mkv"], {"mp4": ["aac", "alac", None], "mov": ["aac", "alac", None],
                                        "mkv": ["aac", "alac", None]}),
        ("av1", ["mp4", "mov", "mkv", "webm"], {"mp4": ["aac", "opus", None], "mov": ["aac", None],
                                                "mkv": ["aac", "opus", None], "webm": ["opus", None]}),
        ("vp9", ["mp4", "mkv", "webm"], {"mp4": ["opus", None], "mkv": ["opus", None],
                                         "webm": ["opus", "vorbis", None]}),
        ("prores", ["mov", "mkv"], {"mov": ["aac", "alac", None], "mkv": ["aac", "alac", None]}),
        ("ffv1", ["mov", "mkv"], {"mov": ["aac", None], "mkv": ["flac", None]}),
    ]
    for codec, extensions, sounds in video:
        for ext in extensions:
            for sound in sounds[ext]:
                label = f"{codec}.{ext}" + (f"+{sound}" if sound else "")
                rows.append((label, ext, ["--codec", codec], sound))
                if sound in ("aac", "opus", None) and codec not in ("prores", "ffv1"):
                    rows.append((label + " fragmented", ext, ["--codec", codec, "--fragmented"], sound))
    rows.append(("vp9 alpha.webm", "webm", ["--codec", "vp9", "--alpha"], None))
    rows.append(("vp9 alpha.webm+opus", "webm", ["--codec", "vp9", "--alpha"], "opus"))
    rows.append(("prores 4444 alpha.mov", "mov", ["--codec", "prores", "--alpha"], None))
    rows.append(("ffv1 alpha.mkv", "mkv", ["--codec", "ffv1", "--alpha"], None))
    # AV1 by its second encoder, libaom, where AV1 goes.
    rows.append(("av1 libaom.mp4+aac", "mp4", ["--codec", "av1", "--encoder", "libaom"], "aac"))
    rows.append(("av1 libaom.webm+opus", "webm", ["--codec", "av1", "--encoder", "libaom"], "opus"))
    rows.append(("av1 libaom.mkv fragmented", "mkv", ["--codec", "av1", "--encoder", "libaom", "--fragmented"], None))
    rows.append(("gif", "gif", ["--loop", "1"], None))
    return rows


class Known:
    """A failure that is the judge's, not the movie's: the same judge fails the same way on the same kind of file
    made by ffmpeg (the reference), or, where no reference can show it, the exact outcome is pinned so a change
    either way is reported."""

    def __init__(self, applies, judge, reason, outcome=None, reference=None):
        self.applies = applies
        self.judge = judge
        self.reason = reason
        self.outcome = outcome
        self.reference = reference
        self.reference_fails = None


def known_failures():
    return [
        Known(lambda label, ext: ext == "mkv" and "+alac" in label, "GStreamer",
              "GStreamer 1.22's matroskademux has no ALAC (ffmpeg's own ALAC .mkv fails the same way)",
              reference=(["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "alac"], "mkv")),
        Known(lambda label, ext: ext == "mkv" and label.startswith("prores"), "MediaConch",
              "MediaConch reads ProRes frames in Matroska as misplaced elements (ffmpeg's own ProRes .mkv fails too)",
              reference=(["-c:v", "prores_ks", "-pix_fmt", "yuv422p10le", "-c:a", "aac"], "mkv")),
        Known(lambda label, ext: ext == "gif", "GStreamer",
              "GStreamer 1.22's avdemux_gif never ends a GIF (ffmpeg's own GIF of the same frames never ends either)",
              outcome=f"GStreamer decoded {FRAMES} pictures and never reached the end", reference=([], "gif")),
        Known(lambda label, ext: ext in ("mp4", "mov") and "fragmented" in label and "+" in label
              and label.split(".")[0] in ("h264", "hevc"), "GStreamer",
              "qtdemux 1.22 ignores the edit list of a fragmented movie: pictures with B-frames start two frames "
              "late and the last is cut at the stated duration when sound sets it",
              outcome=f"GStreamer decoded {FRAMES - 1} pictures, not {FRAMES}"),
        Known(lambda label, ext: ext == "mov" and label.startswith("ffv1"), "GStreamer",
              "GStreamer 1.22's qtdemux hands avdec_ffv1 no configuration record from glbl (ffmpeg's own FFV1 .mov "
              "fails the same way)",
              reference=(["-c:v", "ffv1", "-level", "3", "-pix_fmt", "bgr0", "-c:a", "aac"], "mov")),
        # ffmpeg writes its Tags before the first Cluster, so no reference of its own can show it: pinned.
        Known(lambda label, ext: ext in ("mkv", "webm") and "fragmented" not in label
              and not label.startswith("ffv1"), "mpv",
              "mpv 0.35 reads the Cues when it opens a file whose Tags (here the TIMECODE tag) lie after the "
              "clusters, and drops an index of three cue points or fewer as too sparse (demux_mkv.c); a movie of "
              f"{FRAMES} frames has one keyframe, so one cue point, and mpv indexes it as it plays",
              outcome="mpv: [mkv] Discarding potentially broken or useless index."),
        # ffmpeg 5.1 writes FFV1 in Matroska as V_MS/VFW/FOURCC, so no reference can show it: pinned.
        Known(lambda label, ext: ext == "mkv" and label.startswith("ffv1"), "mpv",
              "mpv 0.35's Matroska demuxer does not know the codec ID V_FFV1 (ffmpeg, GStreamer and VLC read it)",
              outcome=re.compile(r"^mpv exited 2: .*Unknown/unsupported CodecID \(V_FFV1\)", re.DOTALL)),
    ]


def run(command, timeout=120, user=None):
    if user is not None:
        command = ["runuser", "-u", user, "--"] + command
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as stopped:
        out = stopped.stdout or ""
        return -1, out.decode(errors="replace") if isinstance(out, bytes) else out, f"timed out after {timeout} s"


def make_material(folder):
    frames = os.path.join(folder, "frames")
    os.makedirs(frames)
    # RGBA frames (ffmpeg's testsrc2 with a half-transparent band on the left) so alpha outputs have alpha.
    code, _, err = run([
        "ffmpeg", "-v", "error", "-f", "lavfi", "-i",
        f"testsrc2=size={WIDTH}x{HEIGHT}:rate=24,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,40),128,255)'",
        "-frames:v", str(FRAMES), os.path.join(frames, "f%03d.png")])
    if code != 0:
        sys.exit(f"players matrix: ffmpeg could not make the frames: {err}")
    sounds = {}
    for kind, codec in (("wav", "pcm_s16le"), ("flac", "flac"), ("ogg", "libvorbis")):
        path = os.path.join(folder, f"tone.{kind}")
        code, _, err = run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=48000",
                            "-ac", "2", "-c:a", codec, path])
        if code != 0:
            sys.exit(f"players matrix: ffmpeg could not make {path}: {err}")
        sounds[kind] = path
    return frames, sounds


def gstreamer(movie, has_sound):
    """Decodes every picture to raw I420 in a file (its size counts the pictures: property notifications
    from fakesink are coalesced under load) and the sound to a fakesink, in one pipeline."""
    raw = movie + ".i420"
    pipeline = ["filesrc", f"location={movie}", "!", "decodebin", "name=d",
                "d.", "!", "queue", "!", "videoconvert", "!", "video/x-raw,format=I420", "!",
                "filesink", f"location={raw}"]
    if has_sound:
        pipeline += ["d.", "!", "queue", "!", "audioconvert", "!", "fakesink", "name=sound", "silent=false",
                     "sync=false"]
    code, out, err = run(["gst-launch-1.0", "-v"] + pipeline, timeout=30)
    count = 0
    if os.path.exists(raw):
        count = os.path.getsize(raw) // PICTURE_BYTES
        os.remove(raw)
    if code == -1:
        return f"GStreamer decoded {count} pictures and never reached the end"
    if code != 0:
        lines = [line for line in (err + out).splitlines() if "error" in line.lower()]
        return f"GStreamer could not decode it: {(lines or ['exit ' + str(code)])[0].strip()[:200]}"
    if count != FRAMES:
        return f"GStreamer decoded {count} pictures, not {FRAMES}"
    if has_sound and "sound:sink) (" not in out:
        return "GStreamer decoded no sound"
    return None


PLAYER_ERRORS = re.compile(r"(demux|decoder|codec|packetizer).*(error|fail|corrupt|invalid)|error while|"
                           r"Invalid data|moov atom not found|non monoton|broken|truncat", re.IGNORECASE)


def mpv(movie):
    code, out, err = run(["mpv", "--no-config", "--vo=null", "--ao=null", "--untimed", "--msg-level=all=warn",
                          movie], timeout=60)
    text = out + err
    if code != 0:
        return f"mpv exited {code}: {text.strip()[-400:]}"
    problems = [line for line in text.splitlines() if PLAYER_ERRORS.search(line)]
    return f"mpv: {problems[0]}" if problems else None


def vlc(movie, user):
    code, out, err = run(["cvlc", "--play-and-exit", "--intf", "dummy", "--vout", "dummy", "--aout", "dummy",
                          "--no-video-title-show", "--rate", "4", movie], timeout=60, user=user)
    text = out + err
    if code != 0:
        return f"VLC exited {code}: {text.strip()[-200:]}"
    problems = [line for line in text.splitlines()
                if re.search(r"(demux|decoder|packetizer|mkv|mp4|avcodec)\s.*error", line, re.IGNORECASE)
                and "dbus" not in line.lower()]
    return f"VLC: {problems[0]}" if problems else None


def mediaconch(movie):
    with MEDIACONCH:
        code, out, err = run(["mediaconch", "-mc", "-fx", movie], timeout=60)
    if code != 0:
        return f"MediaConch exited {code}: {err.strip()[-200:]}"
    if 'outcome="fail"' in out or "<mmt:error" in out:
        failing = re.findall(r'name="([^"]+)"[^>]*outcome="fail"', out)
        return f"MediaConch: not valid ({', '.join(failing[:3]) or 'see its report'})"
    if 'outcome="pass"' not in out and "<mmt:" not in out and "MediaConch" not in out:
        return "MediaConch: no report"
    return None


def judge_reference(known, folder, frames, sounds):
    """Whether the judge fails on ffmpeg's own file of the same kind (made once per known failure)."""
    if known.reference_fails is None:
        options, ext = known.reference
        path = os.path.join(folder, f"reference-{len(os.listdir(folder))}.{ext}")
        sound = ["-i", sounds["wav"], "-shortest"] if "-c:a" in options else []
        code, _, err = run(["ffmpeg", "-v", "error", "-framerate", "24", "-i", os.path.join(frames, "f%03d.png")]
                           + sound + options + [path])
        if code != 0:
            sys.exit(f"players matrix: ffmpeg could not make the reference {path}: {err}")
        os.chmod(path, 0o644)
        problem = gstreamer(path, bool(sound)) if known.judge == "GStreamer" else mediaconch(path)
        known.reference_fails = problem is not None
    return known.reference_fails


def judge(row, folder, frames, sounds, user, knowns):
    """Makes one movie and has every judge play it: (checked, failed, excused, the line to print)."""
    label, ext, options, sound = row
    kind, sound_options = SOUND_CHOICES[sound]
    movie = os.path.join(folder, re.sub(r"[^a-z0-9+]", "-", label) + f".{ext}")
    command = [FLIPBOOK, frames, "-o", movie, "--fps", "24", "-q"] + options
    if kind:
        command += ["--audio", sounds[kind]] + sound_options
    code, _, err = run(command, timeout=300)
    if code != 0:
        return 0, 1, 0, f"FAIL {label}: the tool refused it: {err.strip()}"
    os.chmod(movie, 0o644)
    has_sound = kind is not None
    outcomes = [("GStreamer", gstreamer(movie, has_sound)), ("mpv", mpv(movie)),
                ("VLC", vlc(movie, user))]
    if ext in ("mkv", "webm"):
        outcomes.append(("MediaConch", mediaconch(movie)))
    os.remove(movie)
    problems, notes = [], []
    for name, problem in outcomes:
        if problem is None:
            continue
        known = next((k for k in knowns if k.judge == name and k.applies(label, ext)), None)
        pinned = known is not None and (
            known.outcome is None or problem == known.outcome
            or (isinstance(known.outcome, re.Pattern) and known.outcome.search(problem) is not None))
        with REFERENCES:
            proven = known is not None and (known.reference is None or judge_reference(known, folder, frames, sounds))
        if pinned and proven:
            notes.append(f"{problem} (known: {known.reason})")
        else:
            problems.append(problem)
    passed = ", ".join(name for name, problem in outcomes if problem is None)
    if problems:
        return 1, 1, 0, f"FAIL {label}: " + "; ".join(problems + notes)
    if notes:
        return 1, 0, 1, f"ok   {label}: played by {passed}; " + "; ".join(notes)
    return 1, 0, 0, f"ok   {label}: {FRAMES} pictures, played by {passed}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flipbook", required=True)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    global FLIPBOOK
    FLIPBOOK = args.flipbook
    for tool in ("gst-launch-1.0", "mpv", "cvlc", "mediaconch", "ffmpeg", "runuser"):
        if shutil.which(tool) is None:
            sys.exit(f"players matrix: {tool} is missing; make test-players installs it")
    user = "nobody"
    pwd.getpwnam(user)
    started = time.monotonic()
    failures = 0
    checked = 0
    excused = 0
    knowns = known_failures()
    with tempfile.TemporaryDirectory(prefix="flipbook-players-") as folder:
        os.chmod(folder, 0o755)
        frames, sounds = make_material(folder)
        rows = [row for row in combinations() if not args.only or args.only in row[0]]
        # Two movies at a time (the judges are mostly waiting on one core each); lines print in order.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            verdicts = pool.map(lambda row: judge(row, folder, frames, sounds, user, knowns), rows)
            for checked_one, failed, noted, line in verdicts:
                print(line, flush=True)
                checked += checked_one
                failures += failed
                excused += noted
    print(f"players matrix: {checked} movies, {failures} failing, {excused} with a judge's known limit, "
          f"{time.monotonic() - started:.0f} s")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# OpenEXR renders to HEVC 10-bit: Flipbook against ffmpeg's `-i %04d.exr` with the same transform, and
# against the floor (ffmpeg's libx265 encoding the same pictures from a .y4m made beforehand: the
# encoder alone), runs alternating, x265 at preset medium and CRF 28 in all three.
#
#   bench/exr.sh [--frames 48] [--size 1920x1080] [--runs 2] [--mode sdr|pq|both]
#
# The frames are half-float ZIP OpenEXRs written by OpenEXR's own library (the tests' venv,
# .build/heif-venv: make test makes it): a render-like picture (light ramps up to 6 times white,
# moving each frame). sdr: the standard view (sRGB curve); ffmpeg is told `-apply_trc iec61966_2_1`.
# pq: `--colour pq`; ffmpeg converts with zscale (linear BT.709 to PQ BT.2020, white at 203 nits).
# Prints wall time, CPU time and peak RSS of each, and the ratios. Needs a release build (make release).
set -euo pipefail
cd "$(dirname "$0")/.."

frames=48 size=1920x1080 runs=2 mode=both
while [ $# -gt 0 ]; do
    case $1 in
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --mode) mode=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
width=${size%x*} height=${size#*x}
flipbook=$(swift build -c release --show-bin-path)/flipbook
python=.build/heif-venv/bin/python
[ -x "$flipbook" ] || { echo "no release build: run make release" >&2; exit 1; }
[ -x "$python" ] || { echo "no tests' venv: run make test first" >&2; exit 1; }
work=$(mktemp -d /tmp/flipbook-exr-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/frames"

"$python" - "$work/frames" "$frames" "$width" "$height" <<'PY'
import sys, numpy as np, OpenEXR
folder, count, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
y, x = np.mgrid[0:h, 0:w].astype(np.float32)
for i in range(count):
    shift = i * 7.0
    light = 0.02 + 6.0 * (y / (h - 1)) ** 2
    r = light * (0.2 + 0.8 * ((x + shift) % w) / (w - 1))
    g = light * (0.5 + 0.4 * np.sin((x + shift) / 37.0))
    b = light * (1.0 - 0.7 * x / (w - 1)) * (0.6 + 0.4 * np.cos(y / 53.0 + i / 5.0))
    channels = {n: np.ascontiguousarray(v.astype(np.float16)) for n, v in (("R", r), ("G", g), ("B", b))}
    OpenEXR.File({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage}, channels).write(
        f"{folder}/{i + 1:04d}.exr")
PY

x265="-c:v libx265 -preset medium -crf 28 -pix_fmt yuv420p10le -x265-params log-level=error"
measure() { # label, command...: prints "wall cpu rss"
    local label=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        echo "$label failed:" >&2; cat "$work/err" >&2; exit 1; }
    read -r wall user sys rss <"$work/time"
    echo "$wall $(echo "$user + $sys" | bc -l) $((rss / 1024))"
}

run_mode() {
    local kind=$1 ours theirs
    if [ "$kind" = sdr ]; then
        ours=(--codec hevc --bit-depth 10)
        theirs=(-apply_trc iec61966_2_1 -i "$work/frames/%04d.exr" -vf "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p10le")
    else
        ours=(--codec hevc --colour pq)
        theirs=(-i "$work/frames/%04d.exr" -vf "format=gbrpf32le,zscale=tin=linear:min=gbr:pin=709:rin=full:t=smpte2084:p=2020:npl=203:m=2020_ncl:r=limited,format=yuv420p10le")
    fi
    # The floor's pictures: ffmpeg's own conversion of the frames, made once, outside the timing.
    ffmpeg -v error -y "${theirs[@]}" -f yuv4mpegpipe -strict -1 "$work/pictures.y4m"
    local fw=() fc=() fr=() mw=() mc=() mr=() bw=() bc=() br=()
    for run in $(seq "$runs"); do
        read -r w c r < <(measure flipbook "$flipbook" "$work/frames" -o "$work/ours.mp4" --overwrite -q "${ours[@]}")
        fw+=("$w") fc+=("$c") fr+=("$r")
        read -r w c r < <(measure ffmpeg ffmpeg -v error -y "${theirs[@]}" $x265 "$work/theirs.mp4")
        mw+=("$w") mc+=("$c") mr+=("$r")
        read -r w c r < <(measure floor ffmpeg -v error -y -i "$work/pictures.y4m" $x265 "$work/floor.mp4")
        bw+=("$w") bc+=("$c") br+=("$r")
    done
    best() { printf "%s\n" "$@" | sort -g | head -1; }
    local f m b
    f=$(best "${fw[@]}") m=$(best "${mw[@]}") b=$(best "${bw[@]}")
    printf "%-4s %d frames %s | flipbook %6.2f s (cpu %6.2f, %5d MB) | ffmpeg %6.2f s (cpu %6.2f, %5d MB) | encoder alone %6.2f s | flipbook/ffmpeg %.2fx, flipbook/floor %.2fx, ffmpeg/floor %.2fx\n" \
        "$kind" "$frames" "$size" "$f" "$(best "${fc[@]}")" "$(best "${fr[@]}")" "$m" "$(best "${mc[@]}")" \
        "$(best "${mr[@]}")" "$b" "$(echo "$f / $m" | bc -l)" "$(echo "$f / $b" | bc -l)" "$(echo "$m / $b" | bc -l)"
}

if [ "$mode" = both ]; then run_mode sdr; run_mode pq; else run_mode "$mode"; fi

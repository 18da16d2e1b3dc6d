#!/usr/bin/env bash
# What colour management costs: the same 1080p JPEGs (bench/corpora.py's jpeg420 pictures, q92 4:2:0)
# written twice, once with an sRGB ICC profile (icc-profiles-free) and once with a Display P3 profile
# built by Little CMS (Tests/Colour/colour_sources.py), made into movies by one build in alternating
# runs, best of N: Display P3 (converted) against sRGB (kept, the fast path), and sRGB with colour
# management on against off (the cost of looking at the profile).
#
#   bench/colour.sh FLIPBOOK [FRAMES] [RUNS] [DIR] [-- FLIPBOOK OPTIONS...]
#
# Prints each case's best wall and CPU seconds, and the ratios. Needs GNU time, bc and Debian's python3
# with Pillow and NumPy (make bench-deps).
set -euo pipefail
cd "$(dirname "$0")/.."
flipbook=$(realpath "$1") frames=${2:-60} runs=${3:-3} dir=${4:-bench/.corpora/colour}
shift $(($# >= 4 ? 4 : $#))
[ "${1:-}" = "--" ] && shift
if [ ! -e "$dir/.done-$frames" ]; then
    rm -rf "$dir" && mkdir -p "$dir/srgb" "$dir/p3"
    /usr/bin/python3 - "$dir" "$frames" <<'PY'
import io, os, sys
sys.path[:0] = ["bench", "Tests/Colour"]
from PIL import Image
import corpora, colour_sources as cs
out, frames = sys.argv[1], int(sys.argv[2])
p3 = cs.built_profile(cs.D65, cs.P3, cs.SRGB_CURVE)
srgb = open("/usr/share/color/icc/sRGB.icc", "rb").read()
for frame in range(frames):
    image = Image.fromarray(corpora.picture(1920, 1080, frame))
    for name, profile in (("srgb", srgb), ("p3", p3)):
        image.save(os.path.join(out, name, f"{frame + 1:04d}.jpg"), quality=92, subsampling=2, icc_profile=profile)
PY
    touch "$dir/.done-$frames"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases="srgb-on p3-on srgb-off"
declare -A wall cpu
for name in $cases; do wall[$name]=999999 cpu[$name]=0; done
for run in $(seq "$runs"); do
    for name in $cases; do
        /usr/bin/time -f "%e %U %S" -o "$work/time" "$flipbook" "$dir/${name%-*}" -o "$work/$name.mp4" --overwrite \
            --quiet --colour-management "${name#*-}" "$@"
        read -r elapsed user system < "$work/time"
        if [ "$(echo "$elapsed < ${wall[$name]}" | bc)" = 1 ]; then
            wall[$name]=$elapsed cpu[$name]=$(echo "$user + $system" | bc)
        fi
    done
done
for name in $cases; do
    printf '%-9s %6.2f s wall %6.2f s cpu  %s\n' "$name" "${wall[$name]}" "${cpu[$name]}" \
        "$(sha256sum < "$work/$name.mp4" | cut -c1-16)"
done
printf 'Display P3 / sRGB: %.3f wall, %.3f cpu\n' "$(echo "${wall[p3-on]} / ${wall[srgb-on]}" | bc -l)" \
    "$(echo "${cpu[p3-on]} / ${cpu[srgb-on]}" | bc -l)"
printf 'sRGB on / off:     %.3f wall, %.3f cpu\n' "$(echo "${wall[srgb-on]} / ${wall[srgb-off]}" | bc -l)" \
    "$(echo "${cpu[srgb-on]} / ${cpu[srgb-off]}" | bc -l)"

#!/usr/bin/env bash
# Two builds of flipbook on the same images, runs alternating, best of N: whether a change made the
# tool slower or faster, within one run (this machine's speed drifts over minutes).
#
#   bench/ab.sh OLD_FLIPBOOK NEW_FLIPBOOK IMAGE_DIR [RUNS] [-- FLIPBOOK OPTIONS...]
#
# Prints each build's best wall and CPU seconds and peak RSS, and new/old ratios. Needs GNU time.
set -euo pipefail
old=$1 new=$2 images=$3 runs=${4:-3}
shift $(($# >= 4 ? 4 : 3))
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A wall cpu rss
for name in old new; do wall[$name]=999999 cpu[$name]=0 rss[$name]=0; done
for run in $(seq "$runs"); do
    for name in old new; do
        bin=$old
        [ $name = new ] && bin=$new
        /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" "$images" -o "$work/$name.mp4" --overwrite --quiet "$@"
        read -r elapsed user system kb < "$work/time"
        if [ "$(echo "$elapsed < ${wall[$name]}" | bc)" = 1 ]; then
            wall[$name]=$elapsed cpu[$name]=$(echo "$user + $system" | bc) rss[$name]=$((kb / 1024))
        fi
    done
done
for name in old new; do
    printf '%s: %6.2f s wall %6.2f s cpu %5d MB  %s\n' "$name" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" \
        "$(sha256sum < "$work/$name.mp4" | cut -c1-16)"
done
printf 'new/old: %.2fx wall %.2fx cpu %.2fx RSS\n' "$(echo "${wall[new]} / ${wall[old]}" | bc -l)" \
    "$(echo "${cpu[new]} / ${cpu[old]}" | bc -l)" "$(echo "${rss[new]} / ${rss[old]}" | bc -l)"

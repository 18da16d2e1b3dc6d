#!/usr/bin/env bash
# How fast `flipbook join` is next to `cp` of the same segment files on the same disk: 8 segments of
# about 4 GB in all (large frames of noise, lossless, so nothing compresses), joined and copied twice
# each, alternately, with nothing dropped from the page cache in between. Reports wall seconds, and
# the ratio of join to `cp` and to `cp` followed by `sync` of the copies (join flushes its movie to
# the disk before it is renamed into place; a plain cp leaves the copies in the page cache).
#
#   bench/join-vs-cp.sh [WORK_DIR]          WORK_DIR on the disk to measure (default: a folder in /tmp)
#
# Environment: FLIPBOOK (default: the debug build's), OLD_FLIPBOOK (a second binary to time the same
# way, for a before/after), BENCH_SIZE (frame size, default 3840x2160), BENCH_FRAMES (default 272),
# BENCH_CONTAINER (mp4, webm or mkv: the segments' and the joined movie's kind, default mp4),
# BENCH_CODEC (the segments' codec options, default "--crf 0 --preset ultrafast": lossless H.264;
# for a WebM, for example "--codec av1 --crf 1 --preset ultrafast"),
# BENCH_RUNS (rounds of all the steps, default 2). On a disk shared with other work the times drift
# a lot between runs: compare within one run, and look at the best as well as the mean.
# Needs ffmpeg and GNU time; about 9 GB free on WORK_DIR's disk (the segments, a join and a copy).
set -euo pipefail
cd "$(dirname "$0")/.."
flipbook=${FLIPBOOK:-$(swift build --show-bin-path)/flipbook}
size=${BENCH_SIZE:-3840x2160}
frames=${BENCH_FRAMES:-272}
work=${1:-$(mktemp -d /tmp/flipbook-join-bench.XXXXXX)}
mkdir -p "$work/noise" "$work/frames" "$work/segments"
ext=${BENCH_CONTAINER:-mp4}
read -r -a codec_options <<< "${BENCH_CODEC:---crf 0 --preset ultrafast}"

# 16 different frames of noise, repeated: each frame differs from the one before, so every
# frame is as large as a lossless picture of noise is (x264's ultrafast preset predicts from one
# reference frame).
if [ ! -f "$work/segments/.done" ]; then
    ffmpeg -v error -y -f lavfi -i "color=c=gray:s=$size:r=24" -vf "noise=alls=100:allf=t+u" -frames:v 16 \
        "$work/noise/n%02d.png"
    for i in $(seq 1 "$frames"); do
        ln -sf "../noise/n$(printf %02d $(((i - 1) % 16 + 1))).png" "$work/frames/frame$(printf %04d "$i").png"
    done
    for k in 1 2 3 4 5 6 7 8; do
        "$flipbook" "$work/frames" "${codec_options[@]}" --segment "$k/8" -o "$work/segments/part-$k.$ext" \
            --overwrite --quiet &
        if [ $((k % 2)) = 0 ]; then wait; fi
    done
    wait
    touch "$work/segments/.done"
fi
bytes=$(cat "$work"/segments/part-*.$ext | wc -c)
echo "segments: 8 files, $bytes bytes, in $work/segments ($(df -T "$work" | awk 'NR==2 {print $2}'))"

# Wall seconds of one run of "$@", started with the previous outputs gone and every dirty page
# written (the page cache keeps what it holds: the segments stay cached, as after an encode).
seconds() {
    local start end
    rm -rf "$work/copy" "$work/joined.$ext"
    mkdir "$work/copy"
    sync
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
copy() {
    cp "$work"/segments/part-*.$ext "$work/copy/"
}
copy_sync() {
    copy
    sync "$work"/copy/part-*.$ext
}
join_with() {
    "$1" join "$work"/segments/part-*.$ext -o "$work/joined.$ext" --quiet
}

runs=${BENCH_RUNS:-2}
declare -A total=() best=()
# Adds a run's seconds to the total and the best of step `$1`, and prints it.
record() {
    total[$1]=$(echo "${total[$1]:-0} + $3" | bc)
    if [ -z "${best[$1]:-}" ] || [ "$(echo "$3 < ${best[$1]}" | bc)" = 1 ]; then best[$1]=$3; fi
    printf 'run %d: %-40s %6.2f s\n' "$run" "$2" "$3"
}
binaries=("$flipbook")
[ -n "${OLD_FLIPBOOK:-}" ] && binaries+=("$OLD_FLIPBOOK")
for run in $(seq "$runs"); do
    record cp "cp" "$(seconds copy)"
    record cpsync "cp + sync" "$(seconds copy_sync)"
    for binary in "${binaries[@]}"; do record "$binary" "join ($binary)" "$(seconds join_with "$binary")"; done
done
rm -rf "$work/copy" "$work/joined.$ext"
mean() { echo "${total[$1]} / $runs" | bc -l; }
for binary in "${binaries[@]}"; do
    printf 'join %s: mean %.2f s, %.2fx cp (%.2f s), %.2fx cp + sync (%.2f s)\n' "$binary" "$(mean "$binary")" \
        "$(echo "${total[$binary]} / ${total[cp]}" | bc -l)" "$(mean cp)" \
        "$(echo "${total[$binary]} / ${total[cpsync]}" | bc -l)" "$(mean cpsync)"
    printf 'join %s: best %.2f s, %.2fx cp (%.2f s), %.2fx cp + sync (%.2f s)\n' "$binary" "${best[$binary]}" \
        "$(echo "${best[$binary]} / ${best[cp]}" | bc -l)" "${best[cp]}" \
        "$(echo "${best[$binary]} / ${best[cpsync]}" | bc -l)" "${best[cpsync]}"
done

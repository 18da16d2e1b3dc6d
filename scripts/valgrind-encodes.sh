#!/usr/bin/env bash
# valgrind memcheck over one short encode per codec and container (and a fragmented movie, images
# on standard input, a join and a probe): any error valgrind finds (an invalid read or write, a jump
# on an uninitialised value, a bad free) fails it. FLIPBOOK must carry no DWARF 5 debug information,
# which valgrind 3.19 cannot read: make test-valgrind strips a copy of the debug build (symbols stay),
# or build with -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 for line numbers. Leaks are not errors here:
# the Swift runtime keeps its metadata caches until exit. Translations are kept to 25 instructions a
# block: SVT-AV1's largest functions otherwise exhaust valgrind's translation storage.
#   scripts/valgrind-encodes.sh FLIPBOOK
# Prints one line per run; exits 1 naming the runs with errors, whose reports are printed.
set -uo pipefail
flipbook=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/frames" "$work/alpha"
ffmpeg -v error -f lavfi -i testsrc2=size=128x96:rate=30 -frames:v 8 "$work/frames/f%d.png" || exit 2
ffmpeg -v error -f lavfi -i testsrc2=size=128x96:rate=30 -frames:v 8 -vf format=rgba,colorchannelmixer=aa=0.5 \
    "$work/alpha/a%d.png" || exit 2
ffmpeg -v error -f lavfi -i sine=frequency=440:duration=0.3 -ac 2 "$work/tone.wav" || exit 2
failed=()
memcheck() {
    local name=$1
    shift
    local started=$SECONDS
    if valgrind --error-exitcode=99 --errors-for-leak-kinds=none --track-origins=yes --num-callers=30 \
        --vex-guest-max-insns=25 \
        --log-file="$work/$name.valgrind" "$flipbook" "$@" >"$work/$name.out" 2>&1; then
        echo "$name: no errors ($((SECONDS - started)) s)"
    else
        echo "$name: FAILED ($((SECONDS - started)) s)"
        cat "$work/$name.out" "$work/$name.valgrind"
        failed+=("$name")
    fi
}
# The judge first: a program that branches on memory nobody wrote must fail.
printf '#include <stdlib.h>\nint main(void) { int *p = malloc(sizeof *p); return *p == 7 ? 3 : 0; }\n' >"$work/uninitialised.c"
"${CC:-clang}" -O0 -gdwarf-4 -o "$work/uninitialised" "$work/uninitialised.c" || exit 2
if valgrind --error-exitcode=99 -q "$work/uninitialised" 2>/dev/null; [ $? -ne 99 ]; then
    echo "valgrind did not report a branch on uninitialised memory; it cannot judge" >&2
    exit 2
fi
frames=$work/frames
memcheck h264.mp4 "$frames" -o "$work/h264.mp4" --codec h264 --audio "$work/tone.wav" -q
memcheck hevc.mov "$frames" -o "$work/hevc.mov" --codec hevc --bit-depth 10 -q
memcheck av1.mp4 "$frames" -o "$work/av1.mp4" --codec av1 --preset faster -q
memcheck vp9-opus.webm "$frames" -o "$work/vp9.webm" --preset veryfast --audio "$work/tone.wav" -q
memcheck vp9-alpha.webm "$work/alpha" -o "$work/vp9-alpha.webm" --alpha --preset veryfast -q
memcheck prores-alpha.mov "$work/alpha" -o "$work/prores.mov" --codec prores --alpha -q
memcheck h264.mkv "$frames" -o "$work/h264.mkv" --audio "$work/tone.wav" -q
memcheck fragmented.mp4 "$frames" -o "$work/fragmented.mp4" --fragmented --fragment-duration 0.1 -q
memcheck part-1.mp4 "$frames" -o "$work/part-1.mp4" --segment 1/2 -q
memcheck part-2.mp4 "$frames" -o "$work/part-2.mp4" --segment 2/2 -q
memcheck stdin-images.mp4 - --stdin images -o "$work/stdin.mp4" -q < <(cat "$frames"/f*.png)
memcheck join.mp4 join "$work/part-1.mp4" "$work/part-2.mp4" -o "$work/joined.mp4" -q
memcheck probe probe "$work/vp9.webm"
if [ ${#failed[@]} -gt 0 ]; then
    echo "valgrind found errors in: ${failed[*]}" >&2
    exit 1
fi

#!/bin/sh
# Builds each libFuzzer target with ASan and runs it for FUZZ_SECONDS (default 60), FUZZ_JOBS at a time
# (default 1; each target is one process on one core, so two on 2 cores each still get a whole core).
# Usage: fuzz/run.sh [TARGET...]   (default: FuzzPNG FuzzJPEG FuzzWebP FuzzGIF FuzzTIFF FuzzHEIF FuzzEXR FuzzDPX FuzzRaw FuzzImageStream FuzzMP4 FuzzMatroska FuzzSound FuzzColour)
# Exits non-zero when a target crashes; the input that did it is saved under fuzz/artifacts/ and kept
# as fuzz/seeds/KIND/regression-found-*, which make test replays through the target's entry point.
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
BUILD_PATH=.build/fuzz
targets=${*:-FuzzPNG FuzzJPEG FuzzWebP FuzzGIF FuzzTIFF FuzzHEIF FuzzEXR FuzzDPX FuzzRaw FuzzImageStream FuzzMP4 FuzzMatroska FuzzSound FuzzColour}
mkdir -p fuzz/artifacts
FUZZ_JOBS=${FUZZ_JOBS:-1}

seeds_of() {
    case $1 in
    FuzzPNG) echo fuzz/seeds/png ;;
    FuzzJPEG) echo fuzz/seeds/jpeg ;;
    FuzzWebP) echo fuzz/seeds/webp ;;
    FuzzGIF) echo fuzz/seeds/gif ;;
    FuzzTIFF) echo fuzz/seeds/tiff ;;
    FuzzHEIF) echo fuzz/seeds/heif ;;
    FuzzEXR) echo fuzz/seeds/exr ;;
    FuzzDPX) echo fuzz/seeds/dpx ;;
    FuzzRaw) echo fuzz/seeds/raw ;;
    FuzzImageStream) echo fuzz/seeds/stream ;;
    FuzzMP4) echo fuzz/seeds/mp4 ;;
    FuzzMatroska) echo fuzz/seeds/matroska ;;
    FuzzSound) echo fuzz/seeds/sound ;;
    FuzzColour) echo fuzz/seeds/colour ;;
    *) return 1 ;;
    esac
}

# Runs one built target for FUZZ_SECONDS; its status file says whether it crashed.
fuzz_one() {
    target=$1
    seeds=$(seeds_of "$target")
    corpus=$BUILD_PATH/corpus/$target
    mkdir -p "$corpus"
    log=$BUILD_PATH/$target.log
    echo "fuzzing $target for $FUZZ_SECONDS s (corpus $corpus, log $log)"
    # Swift's backtracer would hang on a crash; libFuzzer reports it instead.
    # FuzzEXR starts from the OpenEXR project's Damaged sample files too (the tests read them there).
    extra=
    [ "$target" = FuzzEXR ] && extra=Tests/OpenEXR/Damaged
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=fuzz/lsan-suppressions.txt "$BUILD_PATH/release/$target" "$corpus" "$seeds" $extra \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target-" >"$log" 2>&1
    result=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    if [ $result -ne 0 ]; then
        echo "$target FAILED (status $result) after ${runs:-?} executions; see $log and fuzz/artifacts/" >&2
        grep -m 5 -E 'ERROR|SUMMARY|Fatal error' "$log" >&2
        # The input that did it becomes a kept seed: make test replays it (FuzzSeedReplayTests) once fixed.
        for found in $(grep -o "fuzz/artifacts/$target-[A-Za-z0-9_-]*" "$log" | sort -u); do
            [ -f "$found" ] || continue
            kept="$seeds/regression-found-$(basename "$found" | sed "s/^$target-//")"
            cp "$found" "$kept"
            echo "kept as $kept: fix the crash, give it a name that says what it holds, and commit it" >&2
        done
        echo 1 >"$BUILD_PATH/$target.status"
    else
        echo "$target: ${runs:-?} executions in $FUZZ_SECONDS s, no crash"
        echo 0 >"$BUILD_PATH/$target.status"
    fi
}

# Every target is built first (the builds share most of their work), then fuzzed FUZZ_JOBS at a time.
for target in $targets; do
    seeds_of "$target" >/dev/null || { echo "unknown fuzz target $target" >&2; exit 2; }
    # SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc in that order, and a later
    # -sanitize=address drops the coverage instrumentation fuzzer asked for (the binary then finds
    # nothing); the combined flag at the end of the command line restores it.
    $SWIFT build -c release --build-path $BUILD_PATH --product "$target" \
        --sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=address,fuzzer \
        -Xswiftc -parse-as-library -Xswiftc -use-ld=lld -Xswiftc -DFUZZING || exit 1
    rm -f "$BUILD_PATH/$target.status"
done
running=0
for target in $targets; do
    fuzz_one "$target" &
    running=$((running + 1))
    if [ $running -ge "$FUZZ_JOBS" ]; then
        wait
        running=0
    fi
done
wait
status=0
for target in $targets; do
    [ "$(cat "$BUILD_PATH/$target.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status

#!/bin/sh
# Builds each libFuzzer target with ASan and runs it for FUZZ_SECONDS (default 60), one at a time.
# Usage: fuzz/run.sh [TARGET...]   (default: FuzzPNG FuzzJPEG FuzzWebP FuzzGIF FuzzTIFF FuzzHEIF FuzzImageStream FuzzMP4 FuzzMatroska FuzzSound FuzzColour)
# Exits non-zero when a target crashes; the input that did it is saved under fuzz/artifacts/ and kept
# as fuzz/seeds/KIND/regression-found-*, which make test replays through the target's entry point.
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
BUILD_PATH=.build/fuzz
targets=${*:-FuzzPNG FuzzJPEG FuzzWebP FuzzGIF FuzzTIFF FuzzHEIF FuzzImageStream FuzzMP4 FuzzMatroska FuzzSound FuzzColour}
mkdir -p fuzz/artifacts
status=0
for target in $targets; do
    case $target in
    FuzzPNG) seeds=fuzz/seeds/png ;;
    FuzzJPEG) seeds=fuzz/seeds/jpeg ;;
    FuzzWebP) seeds=fuzz/seeds/webp ;;
    FuzzGIF) seeds=fuzz/seeds/gif ;;
    FuzzTIFF) seeds=fuzz/seeds/tiff ;;
    FuzzHEIF) seeds=fuzz/seeds/heif ;;
    FuzzImageStream) seeds=fuzz/seeds/stream ;;
    FuzzMP4) seeds=fuzz/seeds/mp4 ;;
    FuzzMatroska) seeds=fuzz/seeds/matroska ;;
    FuzzSound) seeds=fuzz/seeds/sound ;;
    FuzzColour) seeds=fuzz/seeds/colour ;;
    *) echo "unknown fuzz target $target" >&2; exit 2 ;;
    esac
    # SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc in that order, and a later
    # -sanitize=address drops the coverage instrumentation fuzzer asked for (the binary then finds
    # nothing); the combined flag at the end of the command line restores it.
    $SWIFT build -c release --build-path $BUILD_PATH --product "$target" \
        --sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=address,fuzzer \
        -Xswiftc -parse-as-library -Xswiftc -use-ld=lld -Xswiftc -DFUZZING || exit 1
    corpus=$BUILD_PATH/corpus/$target
    mkdir -p "$corpus"
    log=$BUILD_PATH/$target.log
    echo "fuzzing $target for $FUZZ_SECONDS s (corpus $corpus, log $log)"
    # Swift's backtracer would hang on a crash; libFuzzer reports it instead.
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=fuzz/lsan-suppressions.txt "$BUILD_PATH/release/$target" "$corpus" "$seeds" \
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
        status=1
    else
        echo "$target: ${runs:-?} executions in $FUZZ_SECONDS s, no crash"
    fi
done
exit $status

# Step timing for .ci/run: `step NAME COMMAND...` runs COMMAND, prints how long it took, and the run ends
# (passing or not) with a table of every step's time, so growth shows where it went.
#   `step_background NAME COMMAND...` starts one beside the next steps; `step_wait NAME` waits for it.
STEP_NAMES=()
STEP_SECONDS=()
STEP_RESULTS=()
STEP_STARTED=$(date +%s)
declare -A STEP_PIDS=()
declare -A STEP_BEGAN=()

step_record() {
    STEP_NAMES+=("$1")
    STEP_SECONDS+=("$2")
    STEP_RESULTS+=("$3")
    printf '== %s: %s in %d s (%d:%02d)\n' "$1" "$3" "$2" $(($2 / 60)) $(($2 % 60))
}

step() {
    local name=$1 began status
    shift
    echo "== $name: $*"
    began=$(date +%s)
    set +e
    "$@"
    status=$?
    set -e
    step_record "$name" $(($(date +%s) - began)) "$([ $status = 0 ] && echo passed || echo "failed ($status)")"
    return $status
}

step_background() {
    local name=$1 file
    shift
    file=.build/ci-$(echo "$name" | tr -c 'A-Za-z0-9\n' '-')
    echo "== $name (beside the next steps; its output in $file.log): $*"
    mkdir -p .build
    rm -f "$file.end"
    STEP_BEGAN[$name]=$(date +%s)
    # The step's own end is noted when it ends, so its time is its own, not the time until it is waited for.
    ( set +e; "$@" >"$file.log" 2>&1; status=$?; date +%s >"$file.end"; exit $status ) &
    STEP_PIDS[$name]=$!
}

step_wait() {
    local name=$1 status file ended
    file=.build/ci-$(echo "$name" | tr -c 'A-Za-z0-9\n' '-')
    set +e
    wait "${STEP_PIDS[$name]}"
    status=$?
    set -e
    echo "== $name: its output"
    cat "$file.log"
    unset "STEP_PIDS[$name]"
    ended=$(cat "$file.end" 2>/dev/null || date +%s)
    step_record "$name (beside)" $((ended - ${STEP_BEGAN[$name]})) \
        "$([ $status = 0 ] && echo passed || echo "failed ($status)")"
    return $status
}

step_table() {
    local status=$? index total
    for name in "${!STEP_PIDS[@]}"; do
        kill "${STEP_PIDS[$name]}" 2>/dev/null || true
        step_record "$name (beside)" $(($(date +%s) - ${STEP_BEGAN[$name]})) "stopped: the run ended first"
    done
    total=$(($(date +%s) - STEP_STARTED))
    echo
    echo "CI step times"
    printf '%-34s %9s  %s\n' "step" "seconds" "result"
    for index in "${!STEP_NAMES[@]}"; do
        printf '%-34s %9d  %s\n' "${STEP_NAMES[$index]}" "${STEP_SECONDS[$index]}" "${STEP_RESULTS[$index]}"
    done
    printf '%-34s %9d  %d:%02d of the 90-minute limit (target 40:00)\n' "the whole run" "$total" $((total / 60)) \
        $((total % 60))
    return $status
}
trap step_table EXIT

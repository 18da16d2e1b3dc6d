#!/usr/bin/env bash
# The long suites of Tests/long-suites.txt, one TARGET.SUITE a line.
#   scripts/long-suites.sh all          every long suite (`make test-long`)
#   scripts/long-suites.sh unsanitized  those `make test-asan` does not run whole: the suites
#       Tests/sanitizer-suites.txt excuses, and those whose file turns a test off under the sanitizers
#       (FLIPBOOK_SANITIZED). CI runs these with `make test-long` and the others in its ASan pass,
#       which judges every one of their tests with the same outside judges.
set -euo pipefail
cd "$(dirname "$0")/.."
selection=${1:-all}
mapfile -t long < <(awk '!/^#/ && NF {print $1}' Tests/long-suites.txt)
((${#long[@]} > 0)) || { echo "Tests/long-suites.txt names no suite" >&2; exit 1; }
case $selection in
all) printf '%s\n' "${long[@]}" ;;
unsanitized)
    for suite in "${long[@]}"; do
        file="Tests/${suite%%.*}/${suite#*.}.swift"
        excused=$(awk -v s="$suite" '!/^#/ && $1 == s {print (NF > 1 ? "yes" : "no"); found = 1} END {if (!found) print "unlisted"}' \
            Tests/sanitizer-suites.txt)
        if [[ $excused != no ]] || [[ ! -f $file ]] || grep -q FLIPBOOK_SANITIZED "$file"; then echo "$suite"; fi
    done
    ;;
*) echo "usage: scripts/long-suites.sh all|unsanitized" >&2; exit 2 ;;
esac

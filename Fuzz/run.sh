#!/usr/bin/env bash
# Fuzzes one parser: Fuzz/run.sh TARGET SECONDS
# Builds VigilFuzz with AddressSanitizer and coverage instrumentation, links libFuzzer, and runs it from the seed
# corpus in Fuzz/Corpus/TARGET for SECONDS. A crash leaves its input in .build/fuzz-artifacts/TARGET/ and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh TARGET SECONDS}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}

swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
libfuzzer=$(ls "$swift_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)
scratch=.build/fuzz
swift build --product VigilFuzz --scratch-path "$scratch" --sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp -Xlinker "$libfuzzer" >/dev/null
binary="$scratch/debug/VigilFuzz"

work=.build/fuzz-corpus/$target
artifacts=.build/fuzz-artifacts/$target
mkdir -p "$work" "$artifacts"
if [ -d "Fuzz/Corpus/$target" ]; then cp -n Fuzz/Corpus/"$target"/* "$work"/ 2>/dev/null || true; fi

echo "fuzzing $target for ${seconds}s"
"$binary" "$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work" 2>&1 | grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|INFO: Running with)" || true
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ] || ls "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* >/dev/null 2>&1; then
    echo "fuzz target $target FAILED; inputs in $artifacts" >&2
    exit 1
fi
echo "fuzz target $target: clean"

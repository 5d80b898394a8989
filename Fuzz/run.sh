#!/usr/bin/env bash
# Fuzzes one parser: Fuzz/run.sh TARGET SECONDS
# Builds VigilFuzz with AddressSanitizer and libFuzzer's instrumentation, and runs it from the seed
# corpus in Fuzz/Corpus/TARGET for SECONDS. A crash leaves its input in .build/fuzz-artifacts/TARGET/ and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh TARGET SECONDS}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}

scratch=.build/fuzz
# -sanitize=fuzzer instruments the Swift code and links libFuzzer, whose main drives LLVMFuzzerTestOneInput;
# VIGIL_LIBFUZZER drops the replay-only fallback driver; lld, since gold fails on this link.
swift build --product VigilFuzz --scratch-path "$scratch" --sanitize=address -Xcc -DVIGIL_LIBFUZZER \
    -Xswiftc -sanitize=fuzzer -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >"$scratch-build.log" 2>&1 || {
    cat "$scratch-build.log"
    exit 1
}
binary="$scratch/debug/VigilFuzz"

work=.build/fuzz-corpus/$target
artifacts=.build/fuzz-artifacts/$target
mkdir -p "$work" "$artifacts"
if [ -d "Fuzz/Corpus/$target" ]; then cp -n Fuzz/Corpus/"$target"/* "$work"/ 2>/dev/null || true; fi

echo "fuzzing $target for ${seconds}s"
log=.build/fuzz-artifacts/$target.log
status=0
VIGIL_FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work" >"$log" 2>&1 || status=$?
grep -E "^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|artifact_prefix)" "$log" || true
if [ "$status" -ne 0 ] || ls "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* >/dev/null 2>&1; then
    echo "fuzz target $target FAILED; inputs in $artifacts" >&2
    exit 1
fi
echo "fuzz target $target: clean"

#!/usr/bin/env bash
# Builds the libFuzzer targets (release unless told otherwise, with the address sanitizer
# and its leak checker) and runs each for FUZZ_SECONDS over its seed corpus. `make fuzz`
# runs this.
#
#   Fuzz/fuzz.sh [TARGET...]          # every target, or the ones named
#
# Environment:
#   FUZZ_SECONDS     how long each target runs (default 60)
#   FUZZ_TIMEOUT     seconds one input may take before it counts as a hang (default 10)
#   FUZZ_SKIP_BUILD  1: use the targets already built (for runs side by side)
#   FUZZ_CONFIGURATION  release (default) or debug: debug builds in about 290 s instead of
#                    about 510 s and runs about half as many inputs a second (5 k against
#                    10 k on the SSE parser), with Swift's debug assertions on; CI uses it
#
# The build: SwiftPM's `--sanitize=fuzzer --sanitize=address` hands swiftc two
# `-sanitize=` flags in an order that changes from run to run, and swiftc keeps only the
# last, so the Swift code got either the fuzzer's coverage or the address sanitizer, never
# both (and was rebuilt whole every time). So SwiftPM is told about the fuzzer only (it
# links libFuzzer's main and instruments C code) and swiftc gets both sanitizers in one
# flag, which comes after SwiftPM's own. The first build takes about 10 minutes of CPU
# time; FUZZ_SKIP_BUILD=1 reuses what the last run built.
#
# Fails (exit 1) when a target crashes, trips a sanitizer, leaks, runs out of memory or
# takes more than FUZZ_TIMEOUT on one input; the input that did it is saved as
# Fuzz/.build/fuzz/artifacts/TARGET-crash-… (or -leak-, -timeout-, -oom-) and the log as
# Fuzz/.build/fuzz/logs/TARGET.log. New inputs the fuzzer finds go to Fuzz/.build/fuzz/corpus/TARGET,
# never into the committed seeds in Fuzz/Corpus/TARGET.
set -uo pipefail
cd "$(dirname "$0")"

seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
all=(FuzzSSEParser FuzzJSONParser FuzzJSONPointer FuzzJSONPatch FuzzRouter FuzzStateFile FuzzUpstreamDialects FuzzItemShapes)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [ -d "Sources/$target" ] || { echo "fuzz: no target $target (targets: ${all[*]})" >&2; exit 2; }
done
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz: FUZZ_SECONDS must be a positive number of seconds, not '$seconds'" >&2; exit 2; }

configuration=${FUZZ_CONFIGURATION:-release}
case $configuration in
  release | debug) ;;
  *) echo "fuzz: FUZZ_CONFIGURATION must be release or debug, not '$configuration'" >&2; exit 2 ;;
esac
build=(swift build -c "$configuration" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  start=$(date +%s)
  "${build[@]}" || exit 1
  echo "== fuzz: build took $(( $(date +%s) - start )) s"
fi
bin=$("${build[@]}" --show-bin-path) || exit 1
mkdir -p .build/fuzz/artifacts .build/fuzz/logs

failed=()
printf '%-22s %8s %12s %10s %s\n' target seconds executions exec/s result
for target in "${targets[@]}"; do
  mkdir -p ".build/fuzz/corpus/$target"
  log=".build/fuzz/logs/$target.log"
  # The first folder takes what the fuzzer finds; the seeds are read only. A wall-clock
  # bound past the fuzzer's own, in case it hangs where its own timer cannot stop it.
  # SWIFT_BACKTRACE: Swift's own crash handler would read memory the address sanitizer
  # guards and report a second, misleading crash after the real one.
  SWIFT_BACKTRACE=enable=no timeout --kill-after=10 $(( seconds + timeout + 60 )) "$bin/$target" \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 -detect_leaks=1 \
    -print_final_stats=1 -artifact_prefix=".build/fuzz/artifacts/$target-" \
    ".build/fuzz/corpus/$target" "Corpus/$target" </dev/null >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    result=ok
  else
    result="FAILED (exit $rc): $(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|deadly signal|timeout after|out-of-memory|Fatal error|invariant failed' "$log")"
    failed+=("$target")
  fi
  printf '%-22s %8s %12s %10s %s\n' "$target" "$seconds" "${runs:-?}" "${rate:-?}" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
  for target in "${failed[@]}"; do
    echo "== fuzz: $target failed; its log (.build/fuzz/logs/$target.log) ends:" >&2
    tail -40 ".build/fuzz/logs/$target.log" >&2
    ls -1 .build/fuzz/artifacts/"$target"-* 2>/dev/null | sed 's/^/   input: Fuzz\//' >&2
  done
  exit 1
fi
echo "== fuzz: ${#targets[@]} targets, $seconds s each: no crash, leak or timeout"

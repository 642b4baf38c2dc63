#!/usr/bin/env bash
# One DoGet stream against the same IPC stream through a Unix pipe (issue 33's target: DoGet at
# least 60% of the pipe), in fresh processes, alternating the server in the benchmark's process
# and in a forked one. Each line: medians of 5 of both cases from one process of
# flight_throughput_bench, their page faults per iteration, the ratio and the load average.
#
#   bench/flight_vs_pipe.sh [BENCH]     (default build/release/bench/flight_throughput_bench)
#   ALKAID_BENCH_ROWS=500000 (default) RUNS=4 (default: pairs of runs)
# Run it once as is (glibc's default malloc thresholds, which move as a process frees large
# blocks) and once with fixed ones, so that neither side pays page faults for its buffers:
#   GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432
set -euo pipefail
bench=${1:-build/release/bench/flight_throughput_bench}
rows=${ALKAID_BENCH_ROWS:-500000}
runs=${RUNS:-4}
mibs() {  # mibs CASE OUTPUT: the median's bytes_per_second in MiB/s
  grep "$1" <<< "$2" | sed -E 's/.*bytes_per_second=([0-9.]+)([kMG])\/s.*/\1 \2/' |
    awk '{ print $2 == "G" ? $1 * 1024 : ($2 == "k" ? $1 / 1024 : $1) }'
}
faults() { grep "$1" <<< "$2" | sed -E 's/.* faults=([0-9.k]+).*/\1/'; }
for ((i = 1; i <= runs; ++i)); do
  for where in one-process server-apart; do
    out=$(
      if [ "$where" = server-apart ]; then export ALKAID_BENCH_SERVER_PROCESS=1; fi
      ALKAID_BENCH_ROWS=$rows "$bench" --benchmark_filter='Pipe|DoGet/streams:1/' \
        --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2> /dev/null |
        grep median
    )
    pipe=$(mibs BM_Pipe "$out")
    get=$(mibs BM_DoGet "$out")
    printf '%s %-13s pipe %6.0f MiB/s (%s faults)  DoGet %6.0f MiB/s (%s faults)  DoGet/pipe %.2f  load %s\n' \
      "$(date +%H:%M:%S)" "$where" "$pipe" "$(faults BM_Pipe "$out")" "$get" \
      "$(faults BM_DoGet "$out")" "$(awk -v a="$get" -v b="$pipe" 'BEGIN { print a / b }')" \
      "$(cut -d' ' -f1 /proc/loadavg)"
  done
done

#!/usr/bin/env bash
# Counts the instructions of every timed run of the benchmark under valgrind's callgrind, per
# workload and implementation, so that a change shows even on a busy host where seconds are noise.
#
#   Benchmarks/instructions.sh --filter saves              # one workload, full size
#   Benchmarks/instructions.sh --filter saves --filter byid  # any qsdata-bench options
#   CALLGRIND_DIR=/tmp/cg Benchmarks/instructions.sh ...   # keep the dumps (callgrind_annotate them)
#   BENCH_BINARY=/tmp/before/qsdata-bench Benchmarks/instructions.sh ...  # a copy of an earlier build
#
# Each implementation's body between the start and the end of its timer is counted, on every
# thread (QSData's database queue included); setup and checks are not. The table shows the median
# of the timed repetitions (default 1; pass --repetitions N) and the ratio to raw sqlite3.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
[ -f /usr/include/valgrind/callgrind.h ] || { echo "instructions.sh: needs valgrind's headers (/usr/include/valgrind)" >&2; exit 1; }

binary="${BENCH_BINARY:-}"
if [ -z "$binary" ]; then
    swift build -c release --product qsdata-bench >&2
    binary="$(swift build -c release --show-bin-path)/qsdata-bench"
fi
dumps="${CALLGRIND_DIR:-$(mktemp -d)}"
mkdir -p "$dumps"
rm -f "$dumps"/callgrind.out.*

args=("$@")
[[ " ${args[*]-} " == *" --repetitions "* ]] || args+=(--repetitions 1)
# Instructions do not vary from run to run, so no rounds are added for short workloads.
[[ " ${args[*]-} " == *" --minimum-seconds "* ]] || args+=(--minimum-seconds 0)
echo "instructions.sh: callgrind dumps in $dumps" >&2
valgrind --tool=callgrind --instr-atstart=no --dump-instr=no --dump-line=no --log-file="$dumps/valgrind.log" \
    --callgrind-out-file="$dumps/callgrind.out.%p" "$binary" "${args[@]}" > "$dumps/bench-output.txt"

# Each dump names its run in `desc: Trigger: Client Request: WORKLOAD|IMPLEMENTATION|REPETITION`.
python3 - "$dumps" <<'PY'
import glob, re, statistics, sys
counts = {}
for path in glob.glob(sys.argv[1] + "/callgrind.out.*"):
    label = total = None
    with open(path, errors="replace") as dump:
        for line in dump:
            if line.startswith("desc: Trigger: Client Request: "):
                label = line[len("desc: Trigger: Client Request: "):].strip()
            elif line.startswith("totals: "):
                total = int(line.split()[1])
    if not label or total is None or label.count("|") != 2:
        continue
    workload, implementation, repetition = label.split("|")
    if repetition != "warm-up":
        counts.setdefault((workload, implementation), []).append(total)
rows = []
for (workload, implementation), totals in sorted(counts.items()):
    rows.append((workload, implementation, statistics.median(totals), len(totals)))
raw = {w: n for w, i, n, _ in rows if i == "raw sqlite3"}
print("| Workload | Implementation | instructions | × raw | runs |")
print("|:--|:--|--:|--:|--:|")
for workload, implementation, median, runs in rows:
    ratio = f"{median / raw[workload]:.2f}×" if workload in raw else ""
    print(f"| {workload} | {implementation} | {median / 1e6:,.1f} M | {ratio} | {runs} |")
PY

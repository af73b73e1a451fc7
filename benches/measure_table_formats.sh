#!/usr/bin/env bash
# Whole-process times of reading one table in CSV and in Parquet (docs/results/performance.md,
# "Parquet and Arrow IPC input"): `auc info` (survey and read in memory), `auc train --algo opauc`
# (survey, first pass, learning pass, streamed) and `auc predict` (one streamed pass), each
# REPEATS times under GNU time; prints the fastest wall time, its CPU time and the peak resident
# memory of each, and compares the models trained from the two files byte for byte.
#
#   python benches/gen_table_scale.py --rows 1000000 --out target/table-scale/scale
#   bash benches/measure_table_formats.sh target/release/auc target/table-scale/scale 3
set -euo pipefail
auc=${1:-target/release/auc}
base=${2:-target/table-scale/scale}
repeats=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs "$@" REPEATS times; prints "wall cpu rss" of the fastest run.
best() {
  local best_wall="" line
  for _ in $(seq "$repeats"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || {
      cat "$work/err" >&2
      return 1
    }
    read -r wall user sys rss < "$work/t"
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then
      best_wall=$wall
      line="$wall $(awk "BEGIN{print $user + $sys}") $((rss / 1024))"
    fi
  done
  echo "$line"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| command | CSV wall s | CSV CPU s | CSV MB | Parquet wall s | Parquet CPU s | Parquet MB |"
echo "|---|---|---|---|---|---|---|"
row() {
  local what=$1
  shift
  local c p
  c=$(best "$@" "$base.csv" "${extra[@]}")
  p=$(best "$@" "$base.parquet" "${extra_pq[@]}")
  echo "| $what | ${c// / | } | ${p// / | } |"
}
extra=()
extra_pq=()
row "auc info" "$auc" info
extra=(-o "$work/csv.auc")
extra_pq=(-o "$work/pq.auc")
row "auc train --algo opauc" "$auc" train --algo opauc
if cmp -s "$work/csv.auc" "$work/pq.auc"; then
  echo "models: byte-identical ($(stat -c %s "$work/csv.auc") bytes)"
else
  echo "models: DIFFER"
fi
extra=(-o "$work/csv.scores")
extra_pq=(-o "$work/pq.scores")
row "auc predict" "$auc" predict -m "$work/csv.auc"
if cmp -s "$work/csv.scores" "$work/pq.scores"; then
  echo "scores: identical"
else
  echo "scores: DIFFER"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

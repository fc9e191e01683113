#!/bin/sh
# The merge step of a sharded `outlay score` run, run once after every shard has finished (Kubernetes:
# the merge Job after the Indexed Job; AWS Batch: a job depending on the array job). It merges the N
# shards' summaries, scored and rejects files in $OUTLAY_RUN_DIR/shard-1 … shard-N into $OUTLAY_RUN_DIR/merged
# (`outlay merge --rows`: the single run's files), and
# fails with a message naming the first shard without a summary rather than wait for it: a summary
# appears (atomically) only when its shard has finished. Same variables as outlay-run-shard, including
# OUTLAY_MAX_REJECT_RATE, and two optional ones: OUTLAY_REFERENCE, a previous run's summary.json to compare
# the merged run with (in its summary, report and log), and OUTLAY_MAX_PSI, with which the merge exits 5
# (files published) when the index's PSI against that reference is above it, for the scheduler to alert on
# (docs/batch.md).
set -eu

: "${OUTLAY_INPUT:?set OUTLAY_INPUT to the input file the shards scored}"
: "${OUTLAY_RUN_DIR:?set OUTLAY_RUN_DIR to the run directory the shards wrote into}"
: "${OUTLAY_SHARDS:?set OUTLAY_SHARDS to the number of shards N}"

name=$(basename "$OUTLAY_INPUT")
name=${name%.*}
set --
shard=1
while [ "$shard" -le "$OUTLAY_SHARDS" ]; do
  summary="$OUTLAY_RUN_DIR/shard-$shard/$name.summary.json"
  if [ ! -f "$summary" ]; then
    echo "outlay-run-merge: shard $shard of $OUTLAY_SHARDS has not finished: no $summary" >&2
    exit 1
  fi
  set -- "$@" "$summary"
  shard=$((shard + 1))
done
if [ -n "${OUTLAY_REFERENCE:-}" ]; then set -- "$@" --reference "$OUTLAY_REFERENCE"; fi
if [ -n "${OUTLAY_MAX_PSI:-}" ]; then set -- "$@" --max-psi "$OUTLAY_MAX_PSI"; fi
# The merge exits as the single run would: 3 (rejects within OUTLAY_MAX_REJECT_RATE, default 0.05, as
# outlay-run-shard) is success and reaches the scheduler as 0; 4 (more rejected), 5 (PSI) and 1 pass through.
status=0
outlay merge "$@" --rows --out "$OUTLAY_RUN_DIR/merged" --name "$name" \
  --max-reject-rate "${OUTLAY_MAX_REJECT_RATE:-0.05}" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then exit "$status"; fi

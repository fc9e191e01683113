#!/bin/sh
# One shard of a sharded `outlay score` run, for any array scheduler. The shard index comes from
# JOB_COMPLETION_INDEX (Kubernetes Indexed Job), AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job) or
# OUTLAY_SHARD_INDEX, all 0-based; `--shard` is 1-based, so index i scores shard i+1 of OUTLAY_SHARDS.
# Shard 1 then waits for every shard's summary and merges them into $OUTLAY_RUN_DIR/merged, unless
# OUTLAY_MERGE=0 (when the scheduler runs `outlay merge` as a step of its own).
# Extra arguments go to `outlay score` (e.g. --group-by, --engine remote --api-url ...).
set -eu

: "${OUTLAY_INPUT:?set OUTLAY_INPUT to the input file (same path in every shard)}"
: "${OUTLAY_RUN_DIR:?set OUTLAY_RUN_DIR to a directory shared by all shards and unique to this run}"
: "${OUTLAY_SHARDS:?set OUTLAY_SHARDS to the number of shards N}"

index0="${JOB_COMPLETION_INDEX:-${AWS_BATCH_JOB_ARRAY_INDEX:-${OUTLAY_SHARD_INDEX:-}}}"
if [ -z "$index0" ]; then
  echo "outlay-run-shard: no shard index (JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or OUTLAY_SHARD_INDEX)" >&2
  exit 1
fi
shard=$((index0 + 1))

# --resume: a retried pod continues from its checkpoint instead of starting over.
status=0
outlay score "$OUTLAY_INPUT" --out "$OUTLAY_RUN_DIR/shard-$shard" --shard "$shard/$OUTLAY_SHARDS" --resume --no-progress "$@" ||
  status=$?
# Exit code 3 means "finished with rejects": the shard is done, the rejects are in its output and report.
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then exit "$status"; fi
if [ "$shard" -ne 1 ] || [ "${OUTLAY_MERGE:-1}" = 0 ]; then exit 0; fi

# A shard's summary appears (atomically) only when the shard has finished, so counting them is enough.
name=$(basename "$OUTLAY_INPUT")
name=${name%.*}
while [ "$(find "$OUTLAY_RUN_DIR" -path "$OUTLAY_RUN_DIR/shard-*/$name.summary.json" | wc -l)" -lt "$OUTLAY_SHARDS" ]; do
  sleep "${OUTLAY_MERGE_POLL_SECONDS:-15}"
done
exec outlay merge "$OUTLAY_RUN_DIR"/shard-*/"$name.summary.json" --out "$OUTLAY_RUN_DIR/merged" --name "$name"

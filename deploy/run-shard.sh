#!/bin/sh
# One shard of a sharded `outlay score` run, for any array scheduler. The shard index comes from
# JOB_COMPLETION_INDEX (Kubernetes Indexed Job), AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job) or
# OUTLAY_SHARD_INDEX, all 0-based; `--shard` is 1-based, so index i scores shard i+1 of OUTLAY_SHARDS.
# It only scores: the scheduler runs the merge (outlay-run-merge, deploy/run-merge.sh) as a step of its
# own once every shard has finished.
# Extra arguments go to `outlay score` (e.g. --group-by, --engine remote --api-url ...). Exits with the
# job's exit code (docs/batch.md), 3 (finished with rejects within the rate) and 5 (a shard's index PSI
# above --max-psi, its files published) reported as 0: the population check that counts is the merge's,
# over the whole input (OUTLAY_REFERENCE, OUTLAY_MAX_PSI in run-merge.sh), and a retry would change nothing.
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

# --resume: a retried pod continues from its checkpoint instead of starting over. Exit 3 (finished with
# rejects) counts as done only within OUTLAY_MAX_REJECT_RATE (default 0.05); above it the job exits 4.
set -- "$OUTLAY_INPUT" --out "$OUTLAY_RUN_DIR/shard-$shard" --shard "$shard/$OUTLAY_SHARDS" --resume --no-progress \
  --max-reject-rate "${OUTLAY_MAX_REJECT_RATE:-0.05}" "$@"
# The job runs as this shell's child, not exec'd: its exit 3 must reach the scheduler as 0 (a Kubernetes
# Job retries any other code). SIGTERM/SIGINT are passed on to the job,
# which stops cleanly (docs/batch.md); a trapped signal ends `wait` early, so it waits again for the
# job's own exit code, which becomes the script's. The trap is set before the job starts, so no signal
# can end the shell in between and leave the job running; one that comes before the job's pid is known
# is passed on as soon as it is.
job=
signalled=
trap 'signalled=1; if [ -n "$job" ]; then kill -s TERM "$job" 2>/dev/null || true; fi' TERM INT
outlay score "$@" &
job=$!
if [ -n "$signalled" ]; then
  signalled=
  kill -s TERM "$job" 2>/dev/null || true
fi
status=0
wait "$job" || status=$?
while [ -n "$signalled" ]; do
  signalled=
  status=0
  wait "$job" || status=$?
done
trap - TERM INT
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ] && [ "$status" -ne 5 ]; then exit "$status"; fi

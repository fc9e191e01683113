#!/bin/sh
# One sharded run on AWS Batch: the array job (one child per shard; Batch sets AWS_BATCH_JOB_ARRAY_INDEX,
# 0-based, which outlay-run-shard turns into shard index + 1), then the merge job, which Batch starts
# only once every child has succeeded (--depends-on the array job). Register the two job definitions
# once (aws batch register-job-definition --cli-input-json file://score-job-definition.json, and the
# merge's), then run:  deploy/aws-batch/submit.sh <job queue> <run id>
# The array size must equal OUTLAY_SHARDS of both definitions.
set -eu
queue="$1"
run="$2"
overrides="{\"environment\":[{\"name\":\"OUTLAY_RUN_DIR\",\"value\":\"/data/runs/$run\"}]}"
array=$(aws batch submit-job --job-name "outlay-score-$run" --job-queue "$queue" \
  --job-definition outlay-score --array-properties size=4 \
  --container-overrides "$overrides" --query jobId --output text)
aws batch submit-job --job-name "outlay-merge-$run" --job-queue "$queue" \
  --job-definition outlay-merge --depends-on "jobId=$array" \
  --container-overrides "$overrides" --query jobId --output text

#!/usr/bin/env bash
# Predict the Nsight Compute counters of probe cases with tilelab's sm90 model.
# usage: predict_smem.sh TILELAB CASES.tsv > predictions.tsv   (name, conflicts, wavefronts)
set -euo pipefail
tilelab=$1
grep -v '^#' "$2" | while IFS=$'\t' read -r name kernel mask offsets; do
  case $kernel in ld*) inst=LDS.${kernel#ld} ;; *) inst=STS.${kernel#st} ;; esac
  json=$(echo "$offsets" | "$tilelab" lds --arch sm90 --inst "$inst" --addresses - --mask "$mask" --json)
  conflicts=$(echo "$json" | sed 's/.*"conflict_cycles":\([0-9]*\).*/\1/')
  cycles=$(echo "$json" | sed 's/.*"analysis":.*"cycles":\([0-9]*\),"conflict_cycles".*/\1/')
  printf '%s\t%s\t%s\n' "$name" "$conflicts" "$cycles"
done

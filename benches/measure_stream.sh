#!/bin/bash
# Streaming measurements of docs/results/performance.md (issue 16): peak memory, wall and CPU of
# train/predict, streamed (NEW_AUC) against an in-memory build (MAIN_AUC), from a file and a pipe.
# Usage: benches/measure_stream.sh NEW_AUC MAIN_AUC FILE   (FILE from benches/gen_stream_data.py)
B=$1; M=$2; F=$3; D=$(dirname $F)
run() { # label, command...
  local label=$1; shift
  /usr/bin/time -v "$@" > /dev/null 2> $D/t.err
  local rss=$(grep "Maximum resident" $D/t.err | awk '{print $6}')
  local wall=$(grep "Elapsed (wall" $D/t.err | awk '{print $8}')
  local user=$(grep "User time" $D/t.err | awk '{print $4}')
  local sys=$(grep "System time" $D/t.err | awk '{print $4}')
  local rc=$(grep "Exit status" $D/t.err | awk '{print $3}')
  echo "$label | rss_kb=$rss | wall=$wall | user=$user | sys=$sys | exit=$rc"
  if [ "$rc" != "0" ]; then grep "auc:" $D/t.err | tail -3; fi
}
echo "file: $(ls -la $F)"
run "main pa-i scale-none (in memory)" $M train --algo pa-i --scale none $F -o $D/m-pa-main.auc
run "stream pa-i scale-none file (2 passes)" $B train --algo pa-i --scale none $F -o $D/m-pa-file.auc
run "stream pa-i scale-none file --positive 1 --dim 100 (1 pass)" $B train --algo pa-i --scale none --positive 1 --dim 100 $F -o $D/m-pa-file1.auc
run "stream pa-i scale-none pipe" sh -c "cat $F | $B train --algo pa-i --scale none - -o $D/m-pa-pipe.auc"
run "stream pa-i scale-none pipe --one-thread" sh -c "cat $F | $B train --algo pa-i --scale none --one-thread - -o $D/m-pa-pipe1.auc"
run "main oauc-m (in memory, minmax)" $M train --algo oauc-m $F -o $D/m-om-main.auc
run "stream oauc-m file (2 passes, minmax)" $B train --algo oauc-m $F -o $D/m-om-file.auc
run "stream oauc-m pipe --scale-from model" sh -c "cat $F | $B train --algo oauc-m --scale-from $D/m-om-file.auc - -o $D/m-om-pipe.auc"
run "stream oauc-m pipe --scale-from --one-thread" sh -c "cat $F | $B train --algo oauc-m --scale-from $D/m-om-file.auc --one-thread - -o $D/m-om-pipe1.auc"
run "main predict oauc-m" $M predict -m $D/m-om-main.auc $F -o $D/s-main.txt
run "stream predict oauc-m file" $B predict -m $D/m-om-file.auc $F -o $D/s-file.txt
run "stream predict oauc-m file --no-metrics" $B predict -m $D/m-om-file.auc $F --no-metrics -o $D/s-file2.txt
run "stream predict oauc-m pipe --no-metrics" sh -c "cat $F | $B predict -m $D/m-om-file.auc - --no-metrics -o $D/s-pipe.txt"
run "stream predict oauc-m file --one-thread" $B predict -m $D/m-om-file.auc $F --one-thread -o $D/s-file1.txt
cmp $D/s-main.txt $D/s-file.txt && echo "scores main == stream"
cmp $D/m-pa-file.auc $D/m-pa-pipe.auc && echo "pa-i model file == pipe"
cmp $D/m-om-file.auc $D/m-om-pipe.auc && echo "oauc-m model file == pipe"

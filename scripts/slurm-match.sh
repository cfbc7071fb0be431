#!/usr/bin/env bash
# One tournament spread over a Slurm job array: array task K of N plays shard K/N of the same
# `chuhan match` schedule and writes its own PGN; `chuhan match rate` over all of them afterwards
# gives the tournament's rating list. See docs/tournaments.md.
#
# usage: sbatch --array=1-N [--cpus-per-task=C] scripts/slurm-match.sh [chuhan match options...]
#   e.g. sbatch --array=1-8 --cpus-per-task=4 scripts/slurm-match.sh \
#          -engine cmd=$PWD/target/release/chuhan name=chuhan \
#          -engine cmd=/opt/eleeye/ELEEYE.EXE name=eleeye \
#          -tc 10+0.1 -games 400 -shuffle 1
#   then (once every task is done, e.g. sbatch --dependency=afterok:JOBID):
#        target/release/chuhan match rate tournament/shard-*.pgn
#
# Every task must be given the same options (engines in the same order, the same -openings,
# -shuffle, -games, -tc, -gauntlet): the shards are parts of one schedule only if each task
# computes the same one.
#
# Settings (environment, with defaults):
#   CHUHAN=<submit dir>/target/release/chuhan   the runner
#   OUT=<submit dir>/tournament                 shard-K.pgn and shard-K.log go here
# Games at once per task: the task's CPUs minus one (at least 1), unless -concurrency is given.
#SBATCH --job-name=chuhan-match
#SBATCH --cpus-per-task=2
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail

if [ $# -eq 0 ] || [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    echo "(run it with sbatch --array=1-N; SLURM_ARRAY_TASK_ID is not set)" >&2
    exit 2
fi

# Slurm numbers array tasks as --array says; shards run 1..N. With --array=1-N the task id is K.
k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
n=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT not set (Slurm 18.08 or later)}
dir=${SLURM_SUBMIT_DIR:-$PWD}
chuhan=${CHUHAN:-$dir/target/release/chuhan}
out=${OUT:-$dir/tournament}
mkdir -p "$out"

cpus=${SLURM_CPUS_PER_TASK:-2}
concurrency=()
case " $* " in
*" -concurrency "* | *" --concurrency "*) ;;
*) concurrency=(-concurrency $((cpus > 1 ? cpus - 1 : 1))) ;;
esac

# -pgnout appends: a task that is run again (requeued, resubmitted) replays its whole shard into
# a fresh file, so no game is counted twice.
pgn=$out/shard-$k.pgn
rm -f "$pgn"
echo "shard $k/$n on $(hostname): $pgn"
exec "$chuhan" match "$@" "${concurrency[@]}" -shard "$k/$n" -pgnout "$pgn" \
    >"$out/shard-$k.log"

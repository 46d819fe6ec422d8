#!/usr/bin/env bash
# Runs slurm.sbatch on a real one-node Slurm cluster on this machine and checks that sharding
# changes no result: as root, it installs Debian's slurm-wlm and munge when they are missing,
# starts munged, slurmctld and slurmd on localhost (no systemd; configuration, state and logs in
# $TEMPLE_SLURM_DIR, default /tmp/temple-slurm), builds temple, and then
#
#   1. submits slurm.sbatch as a real array job of 3 tasks, waits, merges the shards and compares
#      the bytes with an unsharded run;
#   2. submits it again, cancels one array task mid-run with scancel, checks that the merge
#      refuses the incomplete shards, resubmits that task alone (sbatch --array=K), merges:
#      the same bytes;
#   3. tunes examples/tuning/small.yaml with tune.sbatch, an array job of 2 tasks per stage of
#      successive halving with a merge between the stages, and compares the tuned config, the
#      record of the search and every trial with one machine's `temple tune`.
#
# It stops the daemons it started when it ends, and can be run again on the same machine.
# Usage, from the repository root: bash examples/cluster/test-slurm.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
runs=${1:-6}
base=${TEMPLE_SLURM_DIR:-/tmp/temple-slurm}
cancelled=1 # the array task cancelled in the second part

if [ "$(id -u)" -ne 0 ]; then
	echo "test-slurm.sh: run it as root (it starts the Slurm daemons as root)" >&2
	exit 1
fi
start=$SECONDS

# stop_daemons stops the daemons a run of this script started (it finds them by the pid files in
# $base, so a run that was killed is cleaned up by the next).
stop_daemons() {
	for name in slurmd slurmctld munged; do
		local pidfile=$base/$name.pid
		[ -f "$pidfile" ] || continue
		local pid
		pid=$(cat "$pidfile")
		if kill "$pid" 2>/dev/null; then
			for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			kill -9 "$pid" 2>/dev/null || true
		fi
		rm -f "$pidfile"
	done
}

finish() {
	status=$?
	if [ -n "${SLURM_CONF:-}" ] && command -v scancel >/dev/null; then
		scancel --quiet --user=root 2>/dev/null || true
		for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
	fi
	stop_daemons
	if [ "$status" -ne 0 ]; then
		echo "test-slurm.sh: FAILED; the daemons' logs:" >&2
		tail -n 20 "$base"/*.log "$base"/work/*.log 2>/dev/null >&2 || true
	else
		rm -rf "$base"
	fi
	exit "$status"
}

echo "== Slurm and munge (Debian's slurm-wlm, munge)"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	apt-get -o DPkg::Lock::Timeout=300 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
stop_daemons
rm -rf "$base"
mkdir -p "$base"/munge "$base"/state "$base"/spool "$base"/bin "$base"/work
chmod 700 "$base" "$base"/munge
trap finish EXIT

echo "== a one-node cluster on localhost"
dd if=/dev/urandom of="$base"/munge/munge.key bs=1024 count=1 status=none
chmod 400 "$base"/munge/munge.key
munged --force --key-file="$base"/munge/munge.key --socket="$base"/munge/munge.socket \
	--pid-file="$base"/munged.pid --log-file="$base"/munged.log --seed-file="$base"/munge/munged.seed
host=$(hostname -s)
export SLURM_CONF=$base/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=temple
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$base/munge/munge.socket
CryptoType=crypto/munge
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/slurmctld.log
SlurmdLogFile=$base/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$(slurmd -C | head -n 1) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=temple Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld
slurmd
for _ in $(seq 100); do
	[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
	sleep 0.2
done
sinfo

echo "== temple and the experiment (examples/cluster/experiment.yaml, $runs runs)"
go build -o "$base"/bin/temple ./cmd/temple
export PATH=$base/bin:$PATH
cp examples/cluster/experiment.yaml "$base"/work/
cp examples/tuning/small.yaml "$base"/work/tuning.yaml
cd "$base"/work
temple run experiment.yaml --runs "$runs" --out whole --jobs 2 >/dev/null

# submit submits slurm.sbatch with its arguments and prints the job's id.
submit() {
	sbatch --parsable --cpus-per-task=1 "$@" | cut -d';' -f1
}

# wait_job waits until job $1 has left the queue.
wait_job() {
	for _ in $(seq 600); do
		[ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
		sleep 0.2
	done
	echo "job $1 is still queued or running after 2 minutes" >&2
	return 1
}

# states prints the state of every task of job $1, one a line (for instance 0 COMPLETED).
states() {
	scontrol -o show job "$1" | sed -E 's/.*ArrayTaskId=([0-9]+).*JobState=([A-Z]+).*/\1 \2/' | sort -n
}

# same_bytes compares the merged directory $1 with the unsharded run: every file, but the
# seconds of timings.json and the cell time that report.html states.
same_bytes() {
	diff -r -x timings.json -I 's of cell time, each cell' "$1" whole
	echo "$1: the same bytes as the unsharded run"
}

echo "== 1. an array job of 3 tasks, merged"
job=$(submit "$repo"/examples/cluster/slurm.sbatch --runs "$runs")
wait_job "$job"
states "$job"
[ "$(states "$job" | grep -c COMPLETED)" = 3 ]
temple merge merged runs/tau-cluster-shard-* >/dev/null
same_bytes merged

echo "== 2. task $cancelled cancelled mid-run, resubmitted alone, merged"
export OUT=again/tau-cluster
job=$(submit "$repo"/examples/cluster/slurm.sbatch --runs "$runs")
shard=$OUT-shard-$cancelled
for _ in $(seq 600); do # until the task has finished its first cell
	compgen -G "$shard/*/cells/*.json" >/dev/null && break
	sleep 0.1
done
scancel "${job}_$cancelled"
wait_job "$job"
states "$job"
[ "$(states "$job" | grep -c COMPLETED)" = 2 ] && states "$job" | grep -q "^$cancelled CANCELLED"
echo "task $cancelled left $(compgen -G "$shard/*/cells/*.json" | wc -l) cells"
if temple merge merged-again again/tau-cluster-shard-* >merge.log 2>&1; then
	echo "the shards of a cancelled task were merged" >&2
	exit 1
fi
echo "merge refused: $(tail -n 1 merge.log)"
job=$(submit --array="$cancelled" "$repo"/examples/cluster/slurm.sbatch --runs "$runs")
wait_job "$job"
states "$job"
[ "$(states "$job")" = "$cancelled COMPLETED" ]
temple merge merged-again again/tau-cluster-shard-* >/dev/null
same_bytes merged-again

echo "== 3. temple tune, a stage at a time as an array job of 2 tasks, merged between the stages"
tune_args=(--budget 4 --runs 1)
temple tune tuning.yaml "${tune_args[@]}" --out tuned-whole --jobs 2 2>/dev/null >/dev/null
export OUT=runs/tuning
for stage in 1 2 3 4; do
	job=$(submit "$repo"/examples/cluster/tune.sbatch "${tune_args[@]}")
	wait_job "$job"
	[ "$(states "$job" | grep -c COMPLETED)" = 2 ]
	temple tune tuning.yaml "${tune_args[@]}" --merge --from $OUT-shard-0 --from $OUT-shard-1 --out $OUT 2>/dev/null >/dev/null
	[ -f $OUT/tuned.yaml ] && break
done
[ -f $OUT/tuned.yaml ] || { echo "no tuned.yaml after $stage stages" >&2; exit 1; }
diff -r tuned-whole $OUT
echo "tuned in $stage stages of 2 array tasks: the same tuned config, record and trials as one machine's search"

echo "== 4. a Python learner of one's own (examples/own-learner), an array job of 3 tasks, merged"
# Its cells run in Python workers with temple's Python package and library (make python, which
# .ci/run has run before this script): the job's environment, which sbatch passes on, names them.
if [ -f "$repo"/python/temple/libtemple.so ]; then
	export PYTHONPATH=$repo/python TEMPLE_PYTHON=${TEMPLE_PYTHON:-/usr/bin/python3}
	cp "$repo"/examples/own-learner/optq.py .
	sed -e 's/^runs: 4/runs: 3/' "$repo"/examples/own-learner/judge.yaml > own.yaml
	temple run own.yaml --out own-whole --jobs 2 >/dev/null
	export OUT=runs/own CONFIG=own.yaml
	job=$(submit "$repo"/examples/cluster/slurm.sbatch)
	wait_job "$job"
	[ "$(states "$job" | grep -c COMPLETED)" = 3 ]
	temple merge own-merged runs/own-shard-* >/dev/null
	diff -r -x timings.json -I 's of cell time, each cell' own-merged own-whole
	echo "own-merged: the same bytes as the unsharded run"
else
	echo "skipped: no python/temple/libtemple.so (make python)"
fi

echo "== the Slurm test passed in $((SECONDS - start)) s"

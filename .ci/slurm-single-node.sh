#!/bin/bash
# A one-node Slurm cluster on this machine (controller and node daemon), for `.ci/run`: writes
# /etc/slurm/slurm.conf, starts munge, slurmctld and slurmd, and waits until the node is idle.
# Needs root and Debian's slurm-wlm (and munge, which it brings).
set -euo pipefail
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 - 1024 ))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=oh7ci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/builtin
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# munge: its key comes with the package; its daemon runs as munge.
chown munge:munge /run/munge
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged
fi
pkill -x slurmctld 2>/dev/null || true
pkill -x slurmd 2>/dev/null || true
sleep 1
slurmctld -c   # a clean state: no jobs from an earlier run
slurmd
for _ in $(seq 1 60); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
  if [ "$state" = "idle" ]; then
    echo "slurm: node $host idle ($cpus CPUs)"
    exit 0
  fi
  if [ "$state" = "down" ] || [ "$state" = "drained" ] || [ "$state" = "unknown" ]; then
    scontrol update nodename="$host" state=resume 2>/dev/null || true
  fi
  sleep 1
done
echo "slurm: the node did not come up; state: ${state:-none}" >&2
tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1

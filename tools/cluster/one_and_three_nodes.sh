#!/bin/bash
# castra-load against one node and against three nodes on one private PostgreSQL (docs/performance.md):
# each node driven by its own castra-load, then the three behind HAProxy (haproxy-local.cfg)
# driven by one castra-load through one URL, which follows each redirect to a match's node.
# Run as root (initdb and pg_ctl run as the postgres user) after cmake --build build --target castra-server castra-load.
set -u
cd "$(dirname "$0")/../.."; B=build
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort | tail -1)
D=$(mktemp -d /tmp/pgload.XXXX); chown postgres: $D
runuser -u postgres -- $PGBIN/initdb -D $D/data -U castra --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
runuser -u postgres -- $PGBIN/pg_ctl -D $D/data -o "-p 55432 -k $D -c listen_addresses=127.0.0.1 -c max_connections=200" -l $D/log -w start >/dev/null
FLAGS="--trusted-proxy 127.0.0.1 --argon2-opslimit 1 --argon2-memlimit 8192 --messages-per-second 1000 --message-burst 2000 --max-connections-per-address 5000 --max-open-matches 10 --log-level warn"
run() { # nodes rate matches
  local nodes=$1 rate=$2 matches=$3
  psql -h 127.0.0.1 -p 55432 -U castra -d postgres -qc "DROP DATABASE IF EXISTS c" -c "CREATE DATABASE c" >/dev/null
  local pids=() loads=()
  for i in $(seq 1 $nodes); do
    $B/server/castra-server --port $((8100+i)) --store postgresql://castra@127.0.0.1:55432/c --node-id n$i $FLAGS > /tmp/cl-n$i.log 2>&1 &
    pids+=($!)
  done
  for i in $(seq 1 $nodes); do for t in $(seq 1 100); do curl -fsS 127.0.0.1:$((8100+i))/healthz >/dev/null 2>&1 && break; sleep 0.1; done; done
  for i in $(seq 1 $nodes); do
    $B/tools/load/castra-load matches --url ws://127.0.0.1:$((8100+i))/ws --server-pid ${pids[$((i-1))]} --prefix n$i \
      --matches $((matches / nodes)) --spectators 1 --rate $(python3 -c "print($rate/$nodes)") --seconds 20 --json > /tmp/cl-load-$nodes-$i.txt 2>&1 &
    loads+=($!)
  done
  for p in "${loads[@]}"; do wait $p; done
  for p in "${pids[@]}"; do kill $p; wait $p; done
  for i in $(seq 1 $nodes); do
    echo "nodes=$nodes node=$i rate=$rate:"; grep -E "CommandResult|acknowledged commands/s|server CPU|RSS|missing|unanswered" /tmp/cl-load-$nodes-$i.txt | sed 's/^/   /'
  done
}
# Three nodes behind HAProxy: one castra-load, one URL.
run_lb() { # rate matches
  local rate=$1 matches=$2
  psql -h 127.0.0.1 -p 55432 -U castra -d postgres -qc "DROP DATABASE IF EXISTS c" -c "CREATE DATABASE c" >/dev/null
  local pids=()
  for i in 1 2 3; do
    $B/server/castra-server --port $((8100+i)) --store postgresql://castra@127.0.0.1:55432/c --node-id n$i $FLAGS > /tmp/cl-n$i.log 2>&1 &
    pids+=($!)
  done
  for i in 1 2 3; do for t in $(seq 1 100); do curl -fsS 127.0.0.1:$((8100+i))/healthz >/dev/null 2>&1 && break; sleep 0.1; done; done
  haproxy -f tools/cluster/haproxy-local.cfg > /tmp/cl-haproxy.log 2>&1 &
  local lb=$!
  for t in $(seq 1 100); do curl -fsS 127.0.0.1:8100/healthz >/dev/null 2>&1 && break; sleep 0.1; done
  curl -fsS 127.0.0.1:8100/healthz >/dev/null || { cat /tmp/cl-haproxy.log; return 1; }
  $B/tools/load/castra-load matches --url ws://127.0.0.1:8100/ws --prefix lb --matches $matches \
    --spectators 1 --rate $rate --seconds 20 --json > /tmp/cl-load-lb.txt 2>&1
  kill $lb; wait $lb
  for p in "${pids[@]}"; do echo "node pid $p: $(ps -o rss=,time= -p $p)"; kill $p; wait $p; done
  echo "behind haproxy rate=$rate:"; grep -E "CommandResult|acknowledged commands/s|moved|missing|unanswered|errors" /tmp/cl-load-lb.txt | sed 's/^/   /'
}
case "${1:-all}" in
  lb) run_lb 300 24 ;;
  *)
    run 1 100 24
    run 3 100 24
    run 1 300 24
    run 3 300 24
    run_lb 300 24
    ;;
esac
runuser -u postgres -- $PGBIN/pg_ctl -D $D/data -m fast -w stop >/dev/null

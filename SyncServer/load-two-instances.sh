#!/usr/bin/env bash
# Runs two qsdata-sync-server instances on one PostgreSQL database (127.0.0.1, ports 8091 and
# 8092) and the load test against both: 50 clients, then 200, 20 s each. The instances are
# stopped by PID at the end.
#     POSTGRES_URL=postgres://user@127.0.0.1:5432/db?sslmode=disable bash SyncServer/load-two-instances.sh
set -euo pipefail
cd "$(dirname "$0")"
: "${POSTGRES_URL:?set POSTGRES_URL to a PostgreSQL database for the servers}"
seconds="${SECONDS_PER_RUN:-20}"
swift build -c release --product qsdata-sync-server >/dev/null
swift build -c release --product qsdata-sync-bench >/dev/null
pids=()
stop() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap stop EXIT
for port in 8091 8092; do
    .build/release/qsdata-sync-server --postgres "${POSTGRES_URL}&pool_size=40" --port "$port" --bcrypt-cost 4 --log-level warning &
    pids+=($!)
done
for port in 8091 8092; do
    for _ in $(seq 1 100); do
        if curl -s -o /dev/null "http://127.0.0.1:$port/v1/pull"; then break; fi
        sleep 0.1
    done
done
for clients in 50 200; do
    .build/release/qsdata-sync-bench load --servers http://127.0.0.1:8091,http://127.0.0.1:8092 --clients "$clients" --seconds "$seconds"
done

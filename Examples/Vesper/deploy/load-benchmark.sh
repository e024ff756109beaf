#!/usr/bin/env bash
# The sync server under load, on loopback (a benchmark, not a test): requests/s, p50 and p99
# latency and errors at 50 and 200 concurrent connections for
#   sqlite     one instance on SQLite
#   postgres   one instance on PostgreSQL
#   2x-postgres two instances on one PostgreSQL database behind nginx (nginx-vesper.conf)
# and the time of a first sync of 10,000 notes on each storage. Every request is an
# incremental notes sync (notes.lua). Needs wrk, nginx and PostgreSQL (Debian: apt-get install
# wrk nginx-light postgresql); starts its own throwaway PostgreSQL (../../../.ci/postgres).
#
#   bash Examples/Vesper/deploy/load-benchmark.sh [seconds per run, default 20] [build configuration, default release]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
duration=${1:-20}
build=${2:-release}
accounts=100

swift build -c "$build" --package-path "$root/Examples" --product vesper-server >&2
server="$(swift build -c "$build" --package-path "$root/Examples" --show-bin-path)/vesper-server"
source "$root/.ci/postgres"
work=$(mktemp -d /tmp/vesper-load.XXXXXX)
: >"$work/pids"
# Process IDs go to a file: start_server runs in a command substitution (a subshell), so the
# servers are not this shell's children and `wait` can't wait for them: each is asked to stop
# (SIGTERM: a graceful drain), polled for up to 10 s, then killed.
cleanup() {
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$work/pids"
    for _ in $(seq 1 100); do
        local alive=0
        while read -r pid; do kill -0 "$pid" 2>/dev/null && alive=1; done <"$work/pids"
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    while read -r pid; do
        if kill -0 "$pid" 2>/dev/null; then
            echo "process $pid did not stop; killing it" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
    done <"$work/pids"
    wait 2>/dev/null || true
    rm -rf "$work"
    stop_postgres
}
trap cleanup EXIT
export VESPER_SERVER_SECRET="load benchmark secret"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

wait_for() {
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "http://127.0.0.1:$1/api/notes" && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

# start_server NAME DATABASE → the port
start_server() {
    local port
    port=$(free_port)
    # Every account is made from 127.0.0.1: a throttle budget for the 100 sign-ups in a minute,
    # and every connection comes from there too (wrk's, or nginx's): the whole connection cap.
    "$server" --port "$port" --database "$2" --attachments "$work/$1-attachments" --log-level warning \
        --login-attempts-per-minute 1000 --max-connections-per-address 1000 \
        >"$work/$1.log" 2>&1 &
    echo $! >>"$work/pids"
    wait_for "$port"
    echo "$port"
}

new_schema() {
    psql -q "$VESPER_TEST_POSTGRES_URL" -c "CREATE SCHEMA $1"
    echo "$VESPER_TEST_POSTGRES_URL&schema=$1"
}

# make_tokens PORT FILE: $accounts accounts, one login token each
make_tokens() {
    seq 1 "$accounts" | xargs -P 4 -I{} sh -c '
        auth=$(printf "load{}@example.com:password {}" | base64 -w0)
        curl -s -o /dev/null -X POST -H "Authorization: Basic $auth" "http://127.0.0.1:'"$1"'/api/createAccount"
        curl -s -X POST -H "Authorization: Basic $auth" -d "{}" "http://127.0.0.1:'"$1"'/api/login" |
            python3 -c "import json, sys; print(json.load(sys.stdin)[\"token\"])"' >"$2"
    [ "$(wc -l <"$2")" -eq "$accounts" ] || { echo "could not log in $accounts accounts" >&2; exit 1; }
}

# The 1-minute load average now.
load_now() { cut -d' ' -f1 /proc/loadavg; }

# run_wrk LABEL PORT CONNECTIONS TOKENS → one table row, with the load average before the run
run_wrk() {
    local out="$work/wrk-$1-$3.txt" load
    load=$(load_now)
    VESPER_TOKENS="$4" VESPER_SYNC_TOKEN=$(printf "1:%s000" "$(date +%s)" | base64 -w0) \
        wrk -t 2 -c "$3" -d "${duration}s" --timeout 10s --latency -s "$here/notes.lua" "http://127.0.0.1:$2" >"$out"
    python3 - "$out" "$1" "$3" "$load" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(label):
    m = re.search(r"^\s*" + label + r"\s+([\d.]+)(us|ms|s)\b", text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
total = int(re.search(r"(\d+) requests in", text).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
errors = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sockets.groups())) if sockets else 0)
print(f"| {sys.argv[2]} | {sys.argv[3]} | {rps:,.0f} | {ms('50%'):.1f} | {ms('99%'):.1f} | {total:,} | {errors} | {sys.argv[4]} |")
PY
}

# first_sync LABEL PORT: the median of three first syncs of 10,000 notes, each by a new account
first_sync() {
    local times=() load
    load=$(load_now)
    for attempt in 1 2 3; do
        local auth
        auth=$(printf "first%s-%s@example.com:password" "$1" "$attempt" | base64 -w0)
        curl -s -o /dev/null -X POST -H "Authorization: Basic $auth" "http://127.0.0.1:$2/api/createAccount"
        local token
        token=$(curl -s -X POST -H "Authorization: Basic $auth" -d "{}" "http://127.0.0.1:$2/api/login" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
        times+=("$(curl -s -o "$work/first.json" -w '%{http_code} %{time_total}' -X POST -H "x-zumo-auth: $token" \
            -H "Content-Type: application/json" --data-binary "@$work/notes-10000.json" "http://127.0.0.1:$2/api/notes")")
    done
    printf '%s\n' "${times[@]}" | LOAD="$load" python3 -c '
import os, sys
rows = [line.split() for line in sys.stdin if line.strip()]
assert all(code == "200" for code, _ in rows), rows
seconds = sorted(float(t) for _, t in rows)
load = os.environ["LOAD"]
print(f"| {sys.argv[1]} | {seconds[1]:.2f} s | {seconds[0]:.2f}–{seconds[-1]:.2f} s | {load} |")' "$1"
}

python3 - "$work/notes-10000.json" <<'PY'
import json, sys
notes = [{"noteID": 100000 + i, "text": f"Note {i}: " + "lorem ipsum " * 20, "archived": False,
          "creationDate": "2014-06-12T16:40:00.000Z", "sortDate": "2014-06-12T16:40:00.000Z",
          "textModificationDate": "2014-06-12T16:44:29.099Z", "tags": "Work  Home",
          "tagsModificationDate": "2014-06-12T16:41:10.250Z"} for i in range(10000)]
json.dump(notes, open(sys.argv[1], "w"))
PY

sqlite_port=$(start_server sqlite "$work/vesper.sqlite")
postgres_port=$(start_server postgres "$(new_schema bench_one)")
shared=$(new_schema bench_two)
one=$(start_server two-a "$shared")
two=$(start_server two-b "$shared")
proxy_port=$(free_port)
mkdir -p "$work/nginx"
chmod 755 "$work"  # nginx's workers (nobody, when started as root) spool large bodies under it
sed -e "s/vesper-1.internal:8080/127.0.0.1:$one/" -e "s/vesper-2.internal:8080/127.0.0.1:$two/" \
    -e "s/listen 80;/listen 127.0.0.1:$proxy_port;/" "$here/nginx-vesper.conf" >"$work/nginx/vesper.conf"
cat >"$work/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    include $work/nginx/vesper.conf;
}
NGINX
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" &
echo $! >>"$work/pids"
wait_for "$proxy_port"

for setup in "sqlite $sqlite_port" "postgres $postgres_port" "2x-postgres $proxy_port"; do
    set -- $setup
    make_tokens "$2" "$work/tokens-$1"
done

# The first syncs first, before the load runs raise the load average.
echo "| first sync of 10,000 notes | median of 3 | range | load before |"
echo "| --- | ---: | ---: | ---: |"
first_sync sqlite "$sqlite_port"
first_sync postgres "$postgres_port"
first_sync 2x-postgres "$proxy_port"
echo
echo "Load: ${duration} s per run, $accounts accounts, wrk -t 2, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| storage | connections | requests/s | p50 ms | p99 ms | requests | errors | load before |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for connections in 50 200; do
    for setup in "sqlite $sqlite_port" "postgres $postgres_port" "2x-postgres $proxy_port"; do
        set -- $setup
        run_wrk "$1" "$2" "$connections" "$work/tokens-$1"
    done
done

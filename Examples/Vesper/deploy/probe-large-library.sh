#!/usr/bin/env bash
# A probe, not a test: a library over 100 MB (1,200 notes of 100 KB by default) reaches a fresh
# device. Starts vesper-server on SQLite on a free loopback port, uploads the notes through
# the API in batches the server takes, then runs `vesper account login` and `vesper sync` on a
# new database and checks that every note arrived. Bounded: each step has a timeout, and the
# server is stopped when the script exits.
#
#   bash Examples/Vesper/deploy/probe-large-library.sh [notes, default 1200] [KB per note, default 100] [build, default debug]
#   VESPER_BIN=.build/debug bash Examples/Vesper/deploy/probe-large-library.sh   # binaries already built
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
notes=${1:-1200}
kilobytes=${2:-100}
build=${3:-debug}
scratch="$root/.build-probe"

# VESPER_BIN names a folder with vesper and vesper-server already built; otherwise they are built.
bin=${VESPER_BIN:-}
if [ -z "$bin" ]; then
    swift build -c "$build" --package-path "$root/Examples" --scratch-path "$scratch" --product vesper-server >&2
    swift build -c "$build" --package-path "$root/Examples" --scratch-path "$scratch" --product vesper >&2
    bin="$(swift build -c "$build" --package-path "$root/Examples" --scratch-path "$scratch" --show-bin-path)"
fi
work=$(mktemp -d /tmp/vesper-probe.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
VESPER_SERVER_SECRET="probe secret" "$bin/vesper-server" --port "$port" --database "$work/server.sqlite" \
    --attachments "$work/attachments" --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!
cleanup() {
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    sleep 0.1
done

# 1. The library, uploaded through the API: batches of at most 8 MB, as the client sends them.
timeout 600 python3 - "$port" "$notes" "$kilobytes" <<'PY'
import base64, json, sys, urllib.request
port, count, kilobytes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
base = f"http://127.0.0.1:{port}/api/"
credentials = base64.b64encode(b"probe@example.com:correct horse").decode()
def post(name, body, headers):
    request = urllib.request.Request(base + name, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.read()
post("createAccount", {}, {"Authorization": "Basic " + credentials})
token = json.loads(post("login", {}, {"Authorization": "Basic " + credentials}))["token"]
text = ("a library over a hundred megabytes " * (kilobytes * 1024 // 35 + 1))[: kilobytes * 1024]
per_request = max(1, (8 << 20) // (kilobytes * 1024 + 300))
for start in range(0, count, per_request):
    batch = [{"noteID": 100_000 + i, "text": f"{i} {text}", "creationDate": "2014-06-12T16:40:00.000-07:00",
              "sortDate": "2014-06-12T16:40:00.000-07:00", "textModificationDate": "2014-06-12T16:44:29.099-07:00"}
             for i in range(start, min(start + per_request, count))]
    post("notes", batch, {"x-zumo-auth": token})
print(f"uploaded {count} notes of {kilobytes} KB")
PY

# 2. A fresh device: log in and sync, within one overall timeout.
database="$work/device/vesper.sqlite"
mkdir -p "$work/device"
echo "correct horse" | timeout 60 "$bin/vesper" account login --server "http://127.0.0.1:$port/" \
    --username probe@example.com --database "$database" >/dev/null
started=$SECONDS
timeout 900 "$bin/vesper" sync --timeout 600 --database "$database" --json >"$work/sync.json"
created=$(python3 -c "import json; print(len(json.load(open('$work/sync.json'))['notesCreated']))")
echo "fresh device: $created of $notes notes downloaded in $((SECONDS - started)) s"
[ "$created" -eq "$notes" ]

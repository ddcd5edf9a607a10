#!/usr/bin/env bash
# Run a command with CACHE_URL naming a throwaway Redis server on loopback.
# The server keeps nothing on disk, lives in a temporary folder, and is stopped and
# deleted when the command ends, whatever its outcome.
set -euo pipefail

REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_PORT=${REDIS_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
DATA_DIR=$(mktemp -d /tmp/cronica-redis.XXXXXX)

cleanup() {
  if [ -f "$DATA_DIR/redis.pid" ]; then kill "$(cat "$DATA_DIR/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

# Configured as production's cache; one database per test worker (tests/conftest.py).
"$REDIS_SERVER" "$(dirname "$0")/redis-cache.conf" --bind 127.0.0.1 --port "$REDIS_PORT" \
  --dir "$DATA_DIR" --pidfile "$DATA_DIR/redis.pid" --daemonize yes --databases 64 \
  --logfile "$DATA_DIR/redis.log"
for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT") 2>/dev/null; then break; fi
  sleep 0.1
done

export CACHE_URL="redis://127.0.0.1:$REDIS_PORT/0"
"$@"

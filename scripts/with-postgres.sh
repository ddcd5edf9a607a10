#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL 15 cluster on loopback.
# The cluster lives in a temporary folder (under PG_DATA_PARENT, /tmp by default), runs
# as an unprivileged user, and is stopped and deleted when the command ends, whatever its
# outcome.
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_USER=${PG_USER:-postgres}
PGPORT=${PGPORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
DATA_DIR=$(mktemp -d "${PG_DATA_PARENT:-/tmp}/cronica-pg.XXXXXX")

as_pg() {
  if [ "$(id -u)" = 0 ]; then "${RUNUSER:-/usr/sbin/runuser}" -u "$PG_USER" -- "$@"; else "$@"; fi
}

cleanup() {
  as_pg "$PG_BIN/pg_ctl" -D "$DATA_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

if [ "$(id -u)" = 0 ]; then chown "$PG_USER" "$DATA_DIR"; fi
as_pg "$PG_BIN/initdb" -D "$DATA_DIR/data" -U cronica --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$DATA_DIR/data" -l "$DATA_DIR/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$PGPORT -k $DATA_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null

export DATABASE_URL="postgres://cronica@127.0.0.1:$PGPORT/cronica"
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U cronica cronica
"$@"

#!/usr/bin/env bash
# Runs a command beside a private PostgreSQL server: installs Debian's postgresql when missing,
# makes a cluster in a temporary folder, starts it on a free loopback port (as the postgres user
# when run as root, since PostgreSQL refuses to run as root), runs the command with
# HOMEOSTAT_MEMORY_POSTGRES=postgres://postgres@127.0.0.1:PORT, then stops the server and removes
# the folder, whatever the command's outcome. Its exit status is the command's.
#
#   tools/with-postgres.sh cargo test -p homeostat-memory postgres
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: tools/with-postgres.sh COMMAND [ARGS...]" >&2
    exit 2
fi

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

bin=$(pg_bin)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "with-postgres: installing Debian's postgresql" >&2
    sudo_if_needed apt-get update
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
    bin=$(pg_bin)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/homeostat-postgres.XXXXXX")
as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
    as_owner() { runuser -u postgres -- "$@"; }
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -h 127.0.0.1 -c max_connections=200" start >/dev/null; then
    cat "$dir/server.log" >&2
    exit 1
fi
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port in $dir" >&2

export HOMEOSTAT_MEMORY_POSTGRES="postgres://postgres@127.0.0.1:$port"
export HOMEOSTAT_MEMORY_REQUIRE_POSTGRES=1
status=0
"$@" || status=$?
exit "$status"

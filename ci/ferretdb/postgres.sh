# Sourced by start.sh and stop.sh: where Debian's PostgreSQL is (`pgbin`, empty when it is not installed) and
# how to run its tools (`as_pg`): initdb refuses root, so as root they run as Debian's postgres user.
pgbin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then as_pg=(runuser -u postgres --); fi

#!/usr/bin/env bash
# The PostgreSQL settings a billing run over a million subscriptions wants on
# this machine (24 GiB, 2 cores), applied to the local cluster and the cluster
# restarted: buffers that hold the run's indexes (the default 128 MB makes the
# server copy pages in and out of the kernel's cache, half its CPU at a
# million), and checkpoints far enough apart that one run writes each page once.
# `npm run bench -- billing-run` prints what it ran against. Run as root.
set -euo pipefail
version=$(ls /etc/postgresql)
psql -h 127.0.0.1 -U postgres -d postgres -q \
  -c "ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS:-4GB}'" \
  -c "ALTER SYSTEM SET max_wal_size = '${MAX_WAL_SIZE:-16GB}'" \
  -c "ALTER SYSTEM SET checkpoint_timeout = '30min'"
pg_ctlcluster --skip-systemctl-redirect "$version" main restart
psql -h 127.0.0.1 -U postgres -d postgres -Atc "SELECT 'shared_buffers ' || current_setting('shared_buffers') || ', max_wal_size ' || current_setting('max_wal_size')"

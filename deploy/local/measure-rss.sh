#!/usr/bin/env bash
# The memory of the embedded service, measured the same way every time (docs/benchmarks.md, "Memory of the embedded service").
#
#   deploy/local/measure-rss.sh                       # run.sh's default JVM options
#   JAVA_OPTS='-Xmx256m -XX:+UseSerialGC' deploy/local/measure-rss.sh   # other JVM options (as run.sh takes them)
#   deploy/local/measure-rss.sh --memory.embeddings.model=minilm        # extra arguments go to the application
#
# Starts the service through deploy/local/run.sh (so with its defaults and MALLOC_ARENA_MAX) on a fresh data dir and
# its own ports, writes 10,000 memories over HTTP (16 clients), waits until it is idle (the embedder has caught up)
# and RSS_REST seconds more (the service's own heap release and the JVM's native trimming act within them; the report
# shows the RSS at both moments), stops it (SIGTERM), starts it again on the same data,
# writes 1,000 more and runs 300 /query calls, then prints VmRSS, VmHWM, RssAnon/RssFile, the thread count, the JVM's
# native memory tracking summary and the load average (before, between and after). Native memory tracking is added to
# the JVM options (-XX:NativeMemoryTracking=summary costs 10-30 MiB itself; RSS_NMT=off measures without it).
# Environment: RSS_NMT (summary), RSS_WRITES (10000), RSS_REST (30),
# RSS_MORE_WRITES (1000), RSS_QUERIES (300), RSS_CLIENTS (16), RSS_PORT_BASE (28000: HTTP +80, gRPC +90, broker +92,
# controller +93), RSS_WORK (a new temporary folder: data, logs and the report; kept), MEMORY_JAR (run this jar instead
# of building memory-server when its sources are newer). The jar is copied into RSS_WORK, so both starts run the same code.
set -euo pipefail

# everything in one function: bash reads it whole before running it, so editing this file during a run is safe
main() {
EXTRA=("$@")

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../.mvn/java-home.sh
source "$ROOT/.mvn/java-home.sh"
JDK="$(memory_java_home)"
WRITES="${RSS_WRITES:-10000}"
MORE_WRITES="${RSS_MORE_WRITES:-1000}"
QUERIES="${RSS_QUERIES:-300}"
REST="${RSS_REST:-30}"
CLIENTS="${RSS_CLIENTS:-16}"
BASE="${RSS_PORT_BASE:-28000}"
WORK="${RSS_WORK:-$(mktemp -d /tmp/memory-rss.XXXXXX)}"
OPTS="${JAVA_OPTS:-$(sed -nE 's/^DEFAULT_JAVA_OPTS="(.*)"$/\1/p' "$ROOT/deploy/local/run.sh")}"
NMT="${RSS_NMT:-summary}"
HTTP_PORT=$((BASE + 80))
mkdir -p "$WORK"
REPORT="$WORK/report.txt"
LOAD="$ROOT/deploy/local/rss/RssLoad.java"
PID=""

say() { echo "$*" | tee -a "$REPORT"; }

start() {
  local log="$WORK/service-$1.log"
  MEMORY_DATA_DIR="$WORK/data" MEMORY_HTTP_PORT="$HTTP_PORT" MEMORY_GRPC_PORT=$((BASE + 90)) \
    JAVA_OPTS="$OPTS$([[ "$NMT" == off ]] || echo " -XX:NativeMemoryTracking=$NMT")" \
    "$ROOT/deploy/local/run.sh" --memory.embedded.broker-port=$((BASE + 92)) \
    --memory.embedded.controller-port=$((BASE + 93)) "${EXTRA[@]}" >"$log" 2>&1 &
  PID=$!
  local t0=$SECONDS
  until grep -qs "Memory Chain ready" "$log"; do
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "the service stopped during startup, see $log" >&2
      tail -20 "$log" >&2
      exit 1
    fi
    sleep 1
  done
  say "start $1: ready in $((SECONDS - t0)) s (pid $PID)"
  say "environment: $(tr '\0' '\n' <"/proc/$PID/environ" | grep -E '^(MALLOC_|MEMORY_(STREAMS|EMBEDDINGS|ROCKSDB|SEARCH))' | sort | tr '\n' ' ')"
}

stop() {
  kill -TERM "$PID"
  wait "$PID" || true
  PID=""
}

cleanup() {
  if [[ -n "$PID" ]]; then
    kill -TERM "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

snapshot() {
  say "--- $1"
  say "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -E '^(VmRSS|VmHWM|RssAnon|RssFile|Threads):' "/proc/$PID/status" | tr -s ' \t' ' ' | tee -a "$REPORT"
  # user + system CPU of the service so far (fields 14 and 15 of /proc/PID/stat, in clock ticks): what the load
  # cost it, much less sensitive than wall-clock rates to what else the machine runs
  say "process CPU: $(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f s", ($14 + $15) / hz }' "/proc/$PID/stat")"
}

cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/$PID/stat"
}

# waits until the service is idle (under 5% of a core over 5 s: the embedder has caught up with the writes and
# the background merges are done), at most 5 minutes
settle() {
  local t0=$SECONDS hz before after
  hz="$(getconf CLK_TCK)"
  while (( SECONDS - t0 < 600 )); do
    before="$(cpu_ticks)"
    sleep 5
    after="$(cpu_ticks)"
    (( (after - before) * 100 < hz * 5 * 5 )) && break
  done
  say "idle after $((SECONDS - t0)) s: $(grep VmRSS "/proc/$PID/status" | tr -s ' \t' ' '); at rest $REST s later"
  sleep "$REST"
}

nmt() {
  [[ "$NMT" == off ]] && return
  say "--- native memory tracking (committed, MiB)"
  "$JDK/bin/jcmd" "$PID" VM.native_memory summary scale=MB >"$WORK/nmt-$1.txt"
  grep -E '^(Total|-)' "$WORK/nmt-$1.txt" | sed -E 's/reserved=[0-9]+MB, //' | tee -a "$REPORT"
}

load() {
  "$JDK/bin/java" "$LOAD" "$1" "http://127.0.0.1:$HTTP_PORT/v1/spaces/assistant" "$MEMORY_AGENT_KEY" "$2" "$CLIENTS" "$3" \
    | tee -a "$REPORT"
}

# build if needed, then run a copy of the jar: both starts run the same code even if the sources change meanwhile
JAR="$(MEMORY_BUILD_ONLY=1 "$ROOT/deploy/local/run.sh" | tail -1)"
[[ "$JAR" == /* ]] || JAR="$ROOT/$JAR"
cp "$JAR" "$WORK/service.jar"
export MEMORY_JAR="$WORK/service.jar"
say "measure-rss: JAVA_OPTS='$OPTS' args='${EXTRA[*]}' work=$WORK"
say "jar: $JAR ($(git -C "$ROOT" log -1 --format=%h) $(git -C "$ROOT" status --porcelain | grep -q . && echo '+ uncommitted changes'))"
say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
start first
snapshot "after start"
# shellcheck disable=SC1091
source "$WORK/data/keys/api-keys.env"
load write "$WRITES" 1
snapshot "after $WRITES writes"
settle
snapshot "at rest with $WRITES memories"
nmt first
stop
start second
snapshot "after restart"
load write "$MORE_WRITES" 2
load query "$QUERIES" 3
snapshot "after $MORE_WRITES more writes and $QUERIES queries"
nmt second
stop
say "report: $REPORT"
}

main "$@"; exit $?

#!/usr/bin/env bash
# Memory Chain on one machine: the API with its embedded single-node Kafka broker, data under ./data.
#
#   deploy/local/run.sh                 # build the jar if missing or stale, then run it on :8080
#   MEMORY_HTTP_PORT=8081 MEMORY_GRPC_PORT=9091 deploy/local/run.sh   # HTTP and gRPC ports
#   MEMORY_KAFKA_BOOTSTRAP_SERVERS=host:9092 deploy/local/run.sh   # use an existing cluster instead
#
# Ctrl-C (SIGINT) or SIGTERM stops it cleanly: publisher, Kafka Streams, then the broker. Extra arguments are passed
# to the application (e.g. --memory.write-timeout=20s). JAVA_OPTS replaces the JVM options below: by default a heap
# of at most 512 MiB with the serial collector, which keeps the heap near its live size (the JVM's own default, a
# quarter of the machine's memory with G1, let the process grow to ~2.9 GiB at 10,000 memories; this default stays
# under 1 GiB, README "Memory"); give a large space more (about -Xmx1g per million memories' index and views).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

jar_path() {
  local jars=(memory-api/target/memory-api-*-runner.jar)
  [[ -e "${jars[0]}" ]] && echo "${jars[0]}"
}

stale() {
  local jar="$1"
  [[ -z "$jar" ]] && return 0
  # any source, resource, schema or pom newer than the jar?
  [[ -n "$(find pom.xml schemas memory-* \
            \( -path '*/target' -prune \) -o \( -type f \( -name '*.java' -o -name '*.avsc' -o -name '*.proto' -o -name 'pom.xml' \
            -o -path '*/src/main/resources/*' \) -newer "$jar" -print \) 2>/dev/null | head -1)" ]]
}

JAR="$(jar_path || true)"
if stale "$JAR"; then
  echo "Building memory-api (./mvnw -B -q -DskipTests -DskipITs package -pl memory-api -am) ..." >&2
  ./mvnw -B -q -DskipTests -DskipITs package -pl memory-api -am
  JAR="$(jar_path)"
fi

mkdir -p data
# exec: the JVM receives Ctrl-C/SIGTERM directly; its shutdown hook closes the application context in order.
# MALLOC_ARENA_MAX: fewer glibc malloc arenas for the native parts (ONNX Runtime, RocksDB), less fragmentation
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx512m -XX:+UseSerialGC} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro \
  -Dmemory.data-dir="${MEMORY_DATA_DIR:-./data}" -jar "$JAR" "$@"

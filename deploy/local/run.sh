#!/usr/bin/env bash
# Memory Chain on one machine: the API with its embedded single-node Kafka broker, data under ./data.
#
#   deploy/local/run.sh                 # build the jar if missing or stale, then run it on :8080
#   MEMORY_HTTP_PORT=8081 MEMORY_GRPC_PORT=9091 deploy/local/run.sh   # HTTP and gRPC ports
#   MEMORY_KAFKA_BOOTSTRAP_SERVERS=host:9092 deploy/local/run.sh   # use an existing cluster instead
#
# Ctrl-C (SIGINT) or SIGTERM stops it cleanly: publisher, Kafka Streams, then the broker. Extra arguments are passed
# to the application (e.g. --memory.write-timeout=20s). The defaults below are the embedded service's memory budget
# (docs/benchmarks.md, "Memory of the embedded service": what each one saves and costs, measured with
# deploy/local/measure-rss.sh);
# each can be overridden from the environment, and a cluster deployment (deploy/docker, deploy/k8s) keeps its own.
# JAVA_OPTS replaces the JVM options: the serial collector, a heap that starts small and gives memory back after a
# full collection, all of it at once (MinHeapFreeRatio/MaxHeapFreeRatio, -XX:-ShrinkHeapInSteps; without -Xms the JVM
# starts at a 64th of the machine's memory and never shrinks below it; the service asks for that full collection when
# the old generation grew well past its live data, memory.heap-release.enabled), at most 512 MiB (give a large space
# more: about -Xmx1g per million memories), a young generation of at most 16 MiB (-XX:MaxNewSize: the serial
# collector would give it a third of the heap; ~10% more CPU per write than 32 MiB in the measured runs), the C1
# compiler only (-XX:TieredStopAtLevel=1: ~70 MiB less JIT code and metaspace; searches ~35% slower, still a few ms;
# measured in docs/benchmarks.md), free native memory handed back every 5 s
# (-XX:TrimNativeHeapInterval) and no per-thread cache of the JDK's temporary direct buffers above 256 KiB
# (-Djdk.nio.maxCachedBufferSize: each Kafka client thread kept one as large as the largest fetch it read).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

jar_path() {
  local jars=(memory-server/target/memory-server-*-runner.jar)
  [[ -e "${jars[0]}" ]] && echo "${jars[0]}"
}

stale() {
  local jar="$1"
  [[ -z "$jar" ]] && return 0
  # any source, resource, schema or pom newer than the jar?
  [[ -n "$(find pom.xml schemas memory-* \
            \( -path '*/target' -prune \) -o \( -type f \( -name '*.java' -o -name '*.avsc' -o -name '*.proto' -o -name 'pom.xml' \
            -o -name '*.jte' -o -path '*/src/main/resources/*' \) -newer "$jar" -print \) 2>/dev/null | head -1)" ]]
}

# MEMORY_JAR runs that jar as it is (measure-rss.sh: the same jar for both of its starts, whatever changes meanwhile)
JAR="${MEMORY_JAR:-$(jar_path || true)}"
if [[ -z "${MEMORY_JAR:-}" ]] && stale "$JAR"; then
  echo "Building memory-server (./mvnw -B -q -DskipTests -DskipITs package -pl memory-server -am) ..." >&2
  ./mvnw -B -q -DskipTests -DskipITs package -pl memory-server -am
  JAR="$(jar_path)"
fi
if [[ -n "${MEMORY_BUILD_ONLY:-}" ]]; then
  echo "$JAR"
  exit 0
fi

# shellcheck source=../../.mvn/java-home.sh
source "$ROOT/.mvn/java-home.sh"
JDK="$(memory_java_home)"
JAVA="$JDK/bin/java"

mkdir -p data
# exec: the JVM receives Ctrl-C/SIGTERM directly; its shutdown hook closes the application context in order.
# MALLOC_ARENA_MAX: one glibc malloc arena for the native parts (ONNX Runtime, RocksDB), less fragmentation
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-1}"
# ONNX Runtime without its arena (it keeps the peak of the longest passage embedded), and native buffers of 1 MiB and
# more (a long passage's attention buffers) returned to the system when freed, instead of kept by glibc
export MEMORY_EMBEDDINGS_ARENA_ALLOCATOR="${MEMORY_EMBEDDINGS_ARENA_ALLOCATOR:-false}"
# (MALLOC_MMAP_THRESHOLD_= empty: glibc's own dynamic threshold)
if [[ -z "${MALLOC_MMAP_THRESHOLD_+set}" ]]; then
  export MALLOC_MMAP_THRESHOLD_=1048576
elif [[ -z "$MALLOC_MMAP_THRESHOLD_" ]]; then
  unset MALLOC_MMAP_THRESHOLD_
fi
# the record cache of each of the service's Kafka Streams applications (heap; 16 MiB each in a cluster deployment)
export MEMORY_STREAMS_CACHE_MIB="${MEMORY_STREAMS_CACHE_MIB:-1}"
# new memories a search index holds in the heap before it writes them as a segment (32 MiB in a cluster deployment)
export MEMORY_SEARCH_RAM_BUFFER_MIB="${MEMORY_SEARCH_RAM_BUFFER_MIB:-8}"
# RocksDB's block cache for every store of the process, memtables included (48 and 16 MiB in a cluster deployment;
# what it misses is read through the page cache)
export MEMORY_ROCKSDB_BLOCK_CACHE_MIB="${MEMORY_ROCKSDB_BLOCK_CACHE_MIB:-16}"
export MEMORY_ROCKSDB_MEMTABLE_MIB="${MEMORY_ROCKSDB_MEMTABLE_MIB:-8}"
# -XX:TrimNativeHeapInterval (recent JDK 17 updates, e.g. 17.0.15): every 5 s the JVM hands glibc's free native memory back to the
# system (what RocksDB, ONNX Runtime and the JVM's own parts freed); an older JVM does without it
DEFAULT_JAVA_OPTS="-Xms32m -Xmx512m -XX:MaxNewSize=16m -XX:+UseSerialGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:-ShrinkHeapInSteps -XX:TieredStopAtLevel=1 -XX:TrimNativeHeapInterval=5000 -Djdk.nio.maxCachedBufferSize=262144"
if [[ -z "${JAVA_OPTS:-}" ]] && ! "$JAVA" -XX:TrimNativeHeapInterval=5000 -version >/dev/null 2>&1; then
  DEFAULT_JAVA_OPTS="${DEFAULT_JAVA_OPTS/ -XX:TrimNativeHeapInterval=5000/}"
fi
# Whatever JAVA_OPTS says: on JDK 23+, Kafka's and Netty's use of sun.misc.Unsafe memory access allowed without a
# warning at every start; and with C2 (JAVA_OPTS without -XX:TieredStopAtLevel=1) Java's vector module, which Lucene's
# SIMD code for vector search and graph building uses (the JVM then prints "Using incubator modules"; under C1 alone
# Lucene cannot use it)
RUNTIME_OPTS=""
if [[ $(java_major "$JDK") -ge 23 ]]; then
  RUNTIME_OPTS="--sun-misc-unsafe-memory-access=allow"
fi
if [[ "${JAVA_OPTS:-$DEFAULT_JAVA_OPTS}" != *"TieredStopAtLevel=1"* ]]; then
  RUNTIME_OPTS="$RUNTIME_OPTS --add-modules jdk.incubator.vector"
fi
# shellcheck disable=SC2086
exec "$JAVA" $RUNTIME_OPTS ${JAVA_OPTS:-$DEFAULT_JAVA_OPTS} \
  -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro \
  -Dmemory.data-dir="${MEMORY_DATA_DIR:-./data}" -jar "$JAR" "$@"

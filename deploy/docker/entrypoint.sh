#!/bin/sh
# service [ARGS]            the Memory Chain service (REST, gRPC, MCP, sequencer, projection)
# worker COMMAND [ARGS]     a memory-worker command (tom, consolidate, reflect, lifecycle, link, refine, verify, keygen ...)
# JAVA_OPTS adds JVM options (e.g. -Xmx1g). The service runs with Java's vector module, which Lucene's SIMD code for
# vector search and graph building uses (it logs "Java vector incubator API enabled").
set -eu
what="${1:-service}"
[ "$#" -gt 0 ] && shift
case "$what" in
  service) exec java --add-modules jdk.incubator.vector ${JAVA_OPTS:-} -jar /opt/memory-chain/memory-api.jar "$@" ;;
  worker) exec java ${JAVA_OPTS:-} -jar /opt/memory-chain/memory-worker.jar "$@" ;;
  *) echo "usage: entrypoint.sh service [ARGS] | worker COMMAND [ARGS]" >&2; exit 2 ;;
esac

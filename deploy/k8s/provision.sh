#!/usr/bin/env bash
# Provisions a Kafka cluster for Memory Chain (docs/architecture.md §2, §19): the topics of the catalogue with their
# retention, replication factor 3 and min ISR 2; ACLs that let only the service write the chain; and the one chain
# signing key every service instance signs with, as the Kubernetes Secret memory-chain-signing-key.
#
#   BOOTSTRAP=kafka-0.kafka.kafka.svc:9092 deploy/k8s/provision.sh
#   DRY_RUN=1 BOOTSTRAP=x:9092 deploy/k8s/provision.sh      # print the commands, run nothing
#   deploy/k8s/provision.sh key FILE                         # only write a new signing key to FILE (for any deployment)
#
# Settings (environment):
#   BOOTSTRAP          the cluster (required)
#   KAFKA_BIN          folder of kafka-topics.sh and kafka-acls.sh (default: /opt/kafka/bin)
#   COMMAND_CONFIG     admin client properties (SASL/TLS) passed as --command-config (default: none)
#   PREFIX             memory.topic-prefix (default: none); APP memory.application-id (default: memory-chain)
#   PARTITIONS         partitions of the space-keyed topics (default 12); REPLICATION (default 3); MIN_ISR (default 2)
#   SERVICE_PRINCIPAL  the service instances' principal (default User:memory-api): the only writer of the chain
#   WORKER_PRINCIPAL   the workers' principal (default User:memory-worker): reads the chain, writes requests
#   AGENT_PRINCIPAL    agents publishing with MemoryPublisher (default User:memory-agent): write requests, read outcomes
#   NAMESPACE          Kubernetes namespace of the Secret (default memory-chain); SKIP_SECRET=1 skips it
#   ACLS=0             skip the ACLs (a cluster without an authorizer)
# Every step is idempotent: existing topics, ACLs and the Secret are kept.
set -euo pipefail

# The key file format of ChainKeys (memory-events): the raw 32-byte Ed25519 private key in hex, which is the last 32
# bytes of its PKCS#8 DER encoding.
new_key() {
  openssl genpkey -algorithm ed25519 -outform DER | tail -c 32 | od -An -v -tx1 | tr -d ' \n' > "$1"
  chmod 600 "$1"
}

if [[ "${1:-}" == key ]]; then
  : "${2:?usage: provision.sh key FILE}"
  [[ -e "$2" ]] && { echo "$2 exists: kept" >&2; exit 0; }
  new_key "$2"
  echo "wrote a new chain signing key to $2" >&2
  exit 0
fi

: "${BOOTSTRAP:?set BOOTSTRAP to the Kafka bootstrap servers}"
KAFKA_BIN="${KAFKA_BIN:-/opt/kafka/bin}"
PREFIX="${PREFIX:-}"
APP="${PREFIX}${APP:-memory-chain}"
PARTITIONS="${PARTITIONS:-12}"
REPLICATION="${REPLICATION:-3}"
MIN_ISR="${MIN_ISR:-2}"
SERVICE_PRINCIPAL="${SERVICE_PRINCIPAL:-User:memory-api}"
WORKER_PRINCIPAL="${WORKER_PRINCIPAL:-User:memory-worker}"
AGENT_PRINCIPAL="${AGENT_PRINCIPAL:-User:memory-agent}"
NAMESPACE="${NAMESPACE:-memory-chain}"
FOREVER=-1
WEEK=$((7 * 24 * 3600 * 1000))
DAY=$((24 * 3600 * 1000))

run() {
  if [[ "${DRY_RUN:-0}" == 1 ]]; then
    printf '%s\n' "$*"
  else
    "$@"
  fi
}

admin_args=(--bootstrap-server "$BOOTSTRAP")
[[ -n "${COMMAND_CONFIG:-}" ]] && admin_args+=(--command-config "$COMMAND_CONFIG")

# topic partitions config...
topic() {
  local name="$PREFIX$1" partitions="$2"
  shift 2
  local configs=(--config "min.insync.replicas=$MIN_ISR")
  for c in "$@"; do configs+=(--config "$c"); done
  echo "topic $name" >&2
  run "$KAFKA_BIN/kafka-topics.sh" "${admin_args[@]}" --create --if-not-exists --topic "$name" \
    --partitions "$partitions" --replication-factor "$REPLICATION" "${configs[@]}"
}

# The catalogue (io.memorychain.events.Topics; retention as TopicSetup creates them). requests, events, embeddings,
# access and ops are co-partitioned by space: same partition count.
topic memory.requests.v1 "$PARTITIONS" "retention.ms=$DAY" "segment.ms=3600000"
topic memory.events.v1 "$PARTITIONS" "retention.ms=$FOREVER" "retention.bytes=$FOREVER"
topic memory.outcomes.v1 "$PARTITIONS" "retention.ms=$WEEK"
topic memory.dlq.v1 "$PARTITIONS" "retention.ms=$FOREVER"
topic memory.access.v1 "$PARTITIONS" "retention.ms=$FOREVER"
topic memory.embeddings.v1 "$PARTITIONS" "retention.ms=$FOREVER" "retention.bytes=$FOREVER"
topic memory.ops.v1 "$PARTITIONS" "retention.ms=$FOREVER"
topic memory.api-keys.v1 1 "cleanup.policy=compact"
# content data keys (docs/architecture.md §12, erasure): written only by the sequencer; compaction drops a destroyed
# key's earlier wrapped record
topic memory.keys.v1 1 "cleanup.policy=compact" "min.cleanable.dirty.ratio=0.01" "segment.ms=3600000"
# agents' checkpoints (memory-api/README.md "Agent checkpoints"): written by the API; compaction drops replaced and
# deleted states
topic memory.checkpoints.v1 1 "cleanup.policy=compact" "min.cleanable.dirty.ratio=0.1" "segment.ms=3600000"

acl() {
  run "$KAFKA_BIN/kafka-acls.sh" "${admin_args[@]}" --add --force "$@"
}

if [[ "${ACLS:-1}" != 0 ]]; then
  echo "acls: only $SERVICE_PRINCIPAL writes ${PREFIX}memory.events.v1" >&2
  # the service: the sequencer, the projection, the embedder, the linker, the refinement trigger and the API; its
  # Kafka Streams applications (<app>-sequencer, -projector, ...) create their internal topics
  acl --allow-principal "$SERVICE_PRINCIPAL" --operation All --resource-pattern-type prefixed --topic "${PREFIX}memory."
  acl --allow-principal "$SERVICE_PRINCIPAL" --operation All --resource-pattern-type prefixed --topic "$APP"
  acl --allow-principal "$SERVICE_PRINCIPAL" --operation All --resource-pattern-type prefixed --group "$APP"
  acl --allow-principal "$SERVICE_PRINCIPAL" --operation All --resource-pattern-type prefixed --transactional-id "$APP"
  acl --allow-principal "$SERVICE_PRINCIPAL" --operation IdempotentWrite --cluster
  # the workers: read the chain and its derived topics, write requests and dead letters, never events
  for t in memory.events.v1 memory.embeddings.v1 memory.access.v1 memory.outcomes.v1 memory.ops.v1 memory.keys.v1; do
    acl --allow-principal "$WORKER_PRINCIPAL" --operation Read --operation Describe --topic "$PREFIX$t"
  done
  for t in memory.requests.v1 memory.dlq.v1; do
    acl --allow-principal "$WORKER_PRINCIPAL" --operation Write --operation Describe --topic "$PREFIX$t"
  done
  acl --allow-principal "$WORKER_PRINCIPAL" --operation All --resource-pattern-type prefixed --topic "$APP-lifecycle"
  acl --allow-principal "$WORKER_PRINCIPAL" --operation All --resource-pattern-type prefixed --group "$APP"
  acl --allow-principal "$WORKER_PRINCIPAL" --operation All --resource-pattern-type prefixed --transactional-id "$APP"
  acl --allow-principal "$WORKER_PRINCIPAL" --operation IdempotentWrite --cluster
  # agents with MemoryPublisher: publish requests, read their outcomes
  acl --allow-principal "$AGENT_PRINCIPAL" --operation Write --operation Describe --topic "${PREFIX}memory.requests.v1"
  acl --allow-principal "$AGENT_PRINCIPAL" --operation Read --operation Describe --topic "${PREFIX}memory.outcomes.v1"
fi

if [[ "${SKIP_SECRET:-0}" != 1 ]]; then
  if [[ "${DRY_RUN:-0}" == 1 ]] || ! kubectl -n "$NAMESPACE" get secret memory-chain-signing-key >/dev/null 2>&1; then
    echo "secret memory-chain-signing-key: a new Ed25519 chain signing key" >&2
    dir="$(mktemp -d)"
    trap 'rm -rf "$dir"' EXIT
    run new_key "$dir/chain-signing.key"
    run kubectl -n "$NAMESPACE" create secret generic memory-chain-signing-key --from-file="$dir/chain-signing.key"
  else
    echo "secret memory-chain-signing-key exists: kept" >&2
  fi
  # the content master key (docs/architecture.md §12, erasure): 32 random bytes in hex, the format of MasterKey
  if [[ "${DRY_RUN:-0}" == 1 ]] || ! kubectl -n "$NAMESPACE" get secret memory-chain-content-key >/dev/null 2>&1; then
    echo "secret memory-chain-content-key: a new AES-256 content master key" >&2
    cdir="$(mktemp -d)"
    run sh -c "umask 077; openssl rand -hex 32 > '$cdir/content-master.key'"
    run kubectl -n "$NAMESPACE" create secret generic memory-chain-content-key --from-file="$cdir/content-master.key"
    rm -rf "$cdir"
  else
    echo "secret memory-chain-content-key exists: kept" >&2
  fi
fi

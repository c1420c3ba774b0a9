#!/usr/bin/env bash
# Regenerates the clients' types from the OpenAPI document memory-api serves (built into its target/classes):
# the TypeScript types (openapi-typescript) and the Python dataclasses (tools/gen_models.py, needs PyYAML).
# The TypeScript tool definitions come from docs/openai-tools.json (or a running service: MEMORY_CHAIN_URL=http://localhost:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
spec=memory-api/target/classes/META-INF/swagger/memory-chain-v1.yml
[[ -f "$spec" ]] || ./mvnw -B -q -o -pl memory-api compile
cp "$spec" clients/openapi/memory-chain-v1.yml
(cd clients/python && python3 tools/gen_models.py ../openapi/memory-chain-v1.yml memorychain/models.py)
cp docs/openai-tools.json clients/python/memorychain/tool_definitions.json
(cd clients/typescript && { [[ -d node_modules ]] || npm ci --no-audit --no-fund; } && npm run generate)
echo "regenerated from $spec"

#!/usr/bin/env node
// Memory Chain verifier in a second language (docs/chain-format.md): Node.js >= 18, no dependencies.
//
//   node verifier/verify.mjs EXPORT.jsonl [--keys FILE] [--checkpoint FILE.json]...
//
// EXPORT.jsonl is what `memory-worker export-chain` writes. Every hash, link, seq and signature is recomputed from
// the records' bytes (the `value` of each line: the record as it was on the topic) and the writer schemas of the
// header; the decoded `event` and `seq` of the lines are never trusted. Prints
//   OK <space> <n> events head <seq> <hash hex>
// or the first bad record, with the codes of the Java ChainVerifier:
//   BROKEN <space> seq=<seq> <BROKEN_LINK|BAD_HASH|BAD_SIGNATURE|UNKNOWN_KEY|GAP|DUPLICATE|UNDECODABLE|WRONG_SPACE|
//          BAD_ROTATION|WRONG_KEY> <why>
// A chain may rotate its signing key (docs/architecture.md §4): a SigningKeyRotated event signed by the key it replaces
// introduces the next key, which verifies the later events even when --keys lacks it; after a rotation only that key
// may sign. Events of a key a SigningKeyCompromised marks, after the seq it is trusted up to, are suspect: the chain
// still verifies and each range is printed after the OK line as
//   SUSPECT <space> key=<key id> seqs=<from>..<to> trusted_up_to=<seq> marked_at=<seq>
// Exit status: 0 intact (and every checkpoint confirmed; suspects do not change it), 1 broken or a checkpoint refuted,
// 2 usage or input error.

import crypto from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const FORMAT = 'memorychain-chain-export-v1';
export const CHECKPOINT_PREFIX = 'memorychain-checkpoint-v1';
const GENESIS = Buffer.alloc(32);
// DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING }
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

// ---------------------------------------------------------------------------------------------------------------
// Avro schemas: parsing (names and namespaces), Parsing Canonical Form and its SHA-256 fingerprint (Avro spec,
// "Parsing Canonical Form for Schemas" and "Schema Fingerprints").

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED = new Set(['record', 'error', 'enum', 'fixed']);

/** Parses a schema (JSON text or value) into a tree whose named types are shared objects (recursion allowed). */
export function parseSchema(json) {
  return parseNode(typeof json === 'string' ? JSON.parse(json) : json, '', new Map());
}

function parseNode(json, namespace, names) {
  if (typeof json === 'string') {
    if (PRIMITIVES.has(json)) return { type: json };
    const qualified = json.includes('.') || !namespace ? json : `${namespace}.${json}`;
    const named = names.get(qualified) ?? names.get(json);
    if (!named) throw new Error(`unknown type name '${json}'`);
    return named;
  }
  if (Array.isArray(json)) {
    return { type: 'union', branches: json.map((branch) => parseNode(branch, namespace, names)) };
  }
  if (json === null || typeof json !== 'object') throw new Error(`not a schema: ${JSON.stringify(json)}`);
  const type = json.type;
  if (typeof type === 'string' && PRIMITIVES.has(type)) return { type }; // logical types: their base type
  if (typeof type === 'string' && NAMED.has(type)) {
    let fullname;
    let space;
    if (json.name.includes('.')) {
      fullname = json.name;
      space = json.name.slice(0, json.name.lastIndexOf('.'));
    } else {
      space = json.namespace !== undefined && json.namespace !== null ? json.namespace : namespace;
      fullname = space ? `${space}.${json.name}` : json.name;
    }
    if (names.has(fullname)) throw new Error(`type ${fullname} defined twice`);
    if (type === 'enum') {
      const node = { type: 'enum', name: fullname, symbols: json.symbols.slice() };
      names.set(fullname, node);
      return node;
    }
    if (type === 'fixed') {
      const node = { type: 'fixed', name: fullname, size: Number(json.size) };
      names.set(fullname, node);
      return node;
    }
    const node = { type: 'record', name: fullname, fields: [] };
    names.set(fullname, node); // before the fields: a field may refer to its own record
    for (const field of json.fields) {
      node.fields.push({ name: field.name, type: parseNode(field.type, space, names) });
    }
    return node;
  }
  if (type === 'array') return { type: 'array', items: parseNode(json.items, namespace, names) };
  if (type === 'map') return { type: 'map', values: parseNode(json.values, namespace, names) };
  if (typeof type === 'object' || typeof type === 'string') return parseNode(type, namespace, names);
  throw new Error(`unknown schema type ${JSON.stringify(type)}`);
}

/**
 * The Parsing Canonical Form: primitives as bare names, full names, only name/type/fields/symbols/items/values/size
 * in that order, no whitespace, a named type written in full at its first occurrence (depth first) and by its full
 * name afterwards.
 */
export function canonicalForm(schema, seen = new Set()) {
  switch (schema.type) {
    case 'union':
      return `[${schema.branches.map((b) => canonicalForm(b, seen)).join(',')}]`;
    case 'array':
      return `{"type":"array","items":${canonicalForm(schema.items, seen)}}`;
    case 'map':
      return `{"type":"map","values":${canonicalForm(schema.values, seen)}}`;
    case 'record':
    case 'enum':
    case 'fixed': {
      const name = JSON.stringify(schema.name);
      if (seen.has(schema.name)) return name;
      seen.add(schema.name);
      if (schema.type === 'enum') {
        return `{"name":${name},"type":"enum","symbols":[${schema.symbols.map((s) => JSON.stringify(s)).join(',')}]}`;
      }
      if (schema.type === 'fixed') return `{"name":${name},"type":"fixed","size":${schema.size}}`;
      const fields = schema.fields.map((f) => `{"name":${JSON.stringify(f.name)},"type":${canonicalForm(f.type, seen)}}`);
      return `{"name":${name},"type":"record","fields":[${fields.join(',')}]}`;
    }
    default:
      return JSON.stringify(schema.type);
  }
}

/** SHA-256 of the UTF-8 Parsing Canonical Form: the 32 bytes the canonical bytes of an event start with. */
export function fingerprint(schema) {
  return crypto.createHash('sha256').update(canonicalForm(schema), 'utf8').digest();
}

// ---------------------------------------------------------------------------------------------------------------
// Avro binary encoding. Decoded values keep the bytes that matter for re-encoding: strings, bytes and fixed as
// Buffers, float and double as their raw little-endian bytes, long as BigInt, union as {index, value}, enum as
// {index}, map as [[key Buffer, value], ...] in the order read. Re-encoding writes what Avro's Java writer writes:
// minimal zig-zag varints, and arrays and maps as one block of positive count followed by 0 (an empty one: 0).

export class Reader {
  constructor(buffer, offset = 0) {
    this.buffer = buffer;
    this.pos = offset;
  }

  byte() {
    if (this.pos >= this.buffer.length) throw new Error('truncated record');
    return this.buffer[this.pos++];
  }

  long() {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift > 63n) throw new Error('invalid long encoding (more than 10 bytes)');
      const b = this.byte();
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
    }
    value = BigInt.asUintN(64, value);
    return (value >> 1n) ^ -(value & 1n);
  }

  int() {
    const value = this.long();
    if (value < -2147483648n || value > 2147483647n) throw new Error(`invalid int ${value}`);
    return Number(value);
  }

  take(n) {
    if (n < 0 || this.pos + n > this.buffer.length) throw new Error(`truncated record (need ${n} bytes)`);
    const out = this.buffer.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  sized() {
    const n = this.long();
    if (n < 0n) throw new Error(`negative length ${n}`);
    if (n > BigInt(this.buffer.length - this.pos)) throw new Error(`length ${n} beyond the record`);
    return this.take(Number(n));
  }
}

export function decode(schema, reader) {
  switch (schema.type) {
    case 'null':
      return null;
    case 'boolean':
      return reader.byte() === 1; // as Avro's Java decoder
    case 'int':
      return reader.int();
    case 'long':
      return reader.long();
    case 'float':
      return { raw: Buffer.from(reader.take(4)), float: true };
    case 'double':
      return { raw: Buffer.from(reader.take(8)), double: true };
    case 'bytes':
    case 'string':
      return Buffer.from(reader.sized());
    case 'fixed':
      return Buffer.from(reader.take(schema.size));
    case 'enum': {
      const index = reader.int();
      if (index < 0 || index >= schema.symbols.length) throw new Error(`enum ${schema.name}: no symbol ${index}`);
      return { index };
    }
    case 'union': {
      const index = reader.int();
      if (index < 0 || index >= schema.branches.length) throw new Error(`union: no branch ${index}`);
      return { index, value: decode(schema.branches[index], reader) };
    }
    case 'array':
    case 'map': {
      const items = [];
      for (;;) {
        let count = reader.long();
        if (count === 0n) break;
        if (count < 0n) {
          count = -count;
          reader.long(); // block size in bytes
        }
        for (let i = 0n; i < count; i++) {
          items.push(schema.type === 'array' ? decode(schema.items, reader)
            : [Buffer.from(reader.sized()), decode(schema.values, reader)]);
        }
      }
      return items;
    }
    case 'record': {
      const record = {};
      for (const field of schema.fields) record[field.name] = decode(field.type, reader);
      return record;
    }
    default:
      throw new Error(`cannot decode type ${schema.type}`);
  }
}

function varint(value, out) {
  let n = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n)); // zig-zag
  const bytes = [];
  while (n >= 0x80n) {
    bytes.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  bytes.push(Number(n));
  out.push(Buffer.from(bytes));
}

export function encode(schema, value, out = []) {
  switch (schema.type) {
    case 'null':
      break;
    case 'boolean':
      out.push(Buffer.from([value ? 1 : 0]));
      break;
    case 'int':
      varint(BigInt(value), out);
      break;
    case 'long':
      varint(BigInt(value), out);
      break;
    case 'float':
    case 'double':
      out.push(value.raw);
      break;
    case 'bytes':
    case 'string':
      varint(BigInt(value.length), out);
      out.push(value);
      break;
    case 'fixed':
      out.push(value);
      break;
    case 'enum':
      varint(BigInt(value.index), out);
      break;
    case 'union':
      varint(BigInt(value.index), out);
      encode(schema.branches[value.index], value.value, out);
      break;
    case 'array':
    case 'map':
      if (value.length > 0) {
        varint(BigInt(value.length), out);
        for (const item of value) {
          if (schema.type === 'array') {
            encode(schema.items, item, out);
          } else {
            encode({ type: 'string' }, item[0], out);
            encode(schema.values, item[1], out);
          }
        }
      }
      varint(0n, out);
      break;
    case 'record':
      for (const field of schema.fields) encode(field.type, value[field.name], out);
      break;
    default:
      throw new Error(`cannot encode type ${schema.type}`);
  }
  return out;
}

/** A decoded value as plain JSON for people (bytes as hex, longs as numbers when exact). */
export function toJson(schema, value) {
  switch (schema.type) {
    case 'string':
      return value.toString('utf8');
    case 'bytes':
    case 'fixed':
      return value.toString('hex');
    case 'long':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case 'float':
      return value.raw.readFloatLE(0);
    case 'double':
      return value.raw.readDoubleLE(0);
    case 'enum':
      return schema.symbols[value.index];
    case 'union': {
      const branch = schema.branches[value.index];
      const json = toJson(branch, value.value);
      return branch.type === 'record' ? { [branch.name.slice(branch.name.lastIndexOf('.') + 1)]: json } : json;
    }
    case 'array':
      return value.map((item) => toJson(schema.items, item));
    case 'map':
      return Object.fromEntries(value.map(([k, v]) => [k.toString('utf8'), toJson(schema.values, v)]));
    case 'record':
      return Object.fromEntries(schema.fields.map((f) => [f.name, toJson(f.type, value[f.name])]));
    default:
      return value;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The chain (docs/chain-format.md).

/** Confluent wire format: magic byte 0, 4-byte big-endian schema id, then the Avro binary encoding. */
export function unframe(value) {
  if (value.length < 5) throw new Error(`record of ${value.length} bytes is too short for the wire format`);
  if (value[0] !== 0) throw new Error(`unknown magic byte ${value[0]} (expected 0)`);
  return { schemaId: value.readInt32BE(1), offset: 5 };
}

/** fingerprint(writer schema) || Avro binary of the event with hash and signature empty. */
export function canonicalBytes(schema, event) {
  const blanked = { ...event, hash: Buffer.alloc(0), signature: Buffer.alloc(0) };
  return Buffer.concat([fingerprint(schema), ...encode(schema, blanked)]);
}

export function sha256(data) {
  return crypto.createHash('sha256').update(data).digest();
}

export function keyIdOf(rawPublicKey) {
  return sha256(rawPublicKey).toString('hex').slice(0, 16);
}

export function publicKeyObject(raw) {
  if (raw.length !== 32) throw new Error(`an Ed25519 public key has 32 bytes, not ${raw.length}`);
  return crypto.createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function ed25519Verify(key, message, signature) {
  if (signature.length !== 64) return false;
  try {
    return crypto.verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/** The bytes a checkpoint signature covers: UTF-8 of "memorychain-checkpoint-v1\n<space>\n<seq>\n<hash hex>". */
export function checkpointMessage(space, seq, hashHex) {
  return Buffer.from(`${CHECKPOINT_PREFIX}\n${space}\n${seq}\n${hashHex.toLowerCase()}`, 'utf8');
}

/**
 * Public keys by key id from a list of {key_id?, public_key_hex | public_key_base64}; every key id is recomputed
 * from its key (the first 16 hex digits of SHA-256 of the raw 32 bytes) and a stated id that differs is an error.
 */
export function keyRing(entries) {
  const ring = new Map();
  for (const entry of entries) {
    const raw = entry.public_key_hex !== undefined ? Buffer.from(entry.public_key_hex, 'hex')
      : Buffer.from(entry.public_key_base64, 'base64');
    const id = keyIdOf(raw);
    if (entry.key_id !== undefined && entry.key_id !== id) {
      throw new Error(`key id ${entry.key_id} does not match its key (SHA-256 gives ${id})`);
    }
    ring.set(id, publicKeyObject(raw));
  }
  return ring;
}

/** Reads a key file: public-keys.json ({"keys":[...]}), an export header, or lines '<key id> <hex public key>'. */
export function readKeyFile(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let json;
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = JSON.parse(trimmed.split('\n')[0]); // an export: its header line
    }
    return keyRing(json.keys ?? []);
  }
  return keyRing(trimmed.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const parts = l.split(/\s+/);
      return parts.length > 1 ? { key_id: parts[0], public_key_hex: parts[parts.length - 1] }
        : { public_key_hex: parts[0] };
    }));
}

const ROTATED = 'SigningKeyRotated';
const COMPROMISED = 'SigningKeyCompromised';

/** The short name of the payload's branch and its decoded record, or null. */
function payloadOf(schema, event) {
  const field = schema.fields.find((f) => f.name === 'payload');
  if (!field || field.type.type !== 'union' || !event.payload) return null;
  const branch = field.type.branches[event.payload.index];
  if (!branch || branch.type !== 'record') return null;
  return { type: branch.name.slice(branch.name.lastIndexOf('.') + 1), value: event.payload.value };
}

/**
 * What the verifier learns about signing keys on one chain: the key the last rotation named (null before any), the
 * keys rotations introduced, runs of seqs signed by one key and the compromise marks (the lowest from_seq per key).
 */
class KeyState {
  constructor() {
    this.current = null;
    this.learned = new Map();
    this.runs = [];
    this.marks = new Map();
  }

  signed(keyId, seq) {
    const last = this.runs[this.runs.length - 1];
    if (last && last.keyId === keyId && last.last === seq - 1n) last.last = seq;
    else this.runs.push({ keyId, first: seq, last: seq });
  }

  mark(keyId, trustedUpTo, markedAt) {
    const previous = this.marks.get(keyId);
    if (!previous || trustedUpTo < previous.trustedUpTo) this.marks.set(keyId, { trustedUpTo, markedAt });
  }

  suspects() {
    const out = [];
    for (const run of this.runs) {
      const mark = this.marks.get(run.keyId);
      if (!mark || run.last <= mark.trustedUpTo) continue;
      const from = run.first > mark.trustedUpTo ? run.first : mark.trustedUpTo + 1n;
      out.push({ keyId: run.keyId, fromSeq: String(from), toSeq: String(run.last),
        trustedUpTo: String(mark.trustedUpTo), markedAtSeq: String(mark.markedAt) });
    }
    return out;
  }
}

const CHAIN_FIELDS = { space: 'string', seq: 'long', prev_hash: 'bytes', hash: 'bytes', signature: 'bytes', key_id: 'string' };

function short(buffer) {
  const hex = buffer.toString('hex');
  return hex.length > 16 ? `${hex.slice(0, 16)}...` : hex;
}

/**
 * Verifies an export given as an (async) iterable of its lines. Options: keys (a Map from keyRing; default: the
 * header's keys), checkpoints (parsed checkpoint objects). Returns {ok, space, events, headSeq, headHash, problem,
 * seq, message, keysFrom, checkpoints: [{ok, seq, message}], suspects: [{keyId, fromSeq, toSeq, trustedUpTo,
 * markedAtSeq}]}.
 */
export async function verifyExport(lines, options = {}) {
  let header = null;
  let schemas = null;
  let keys = options.keys ?? null;
  let keysFrom = options.keys ? 'given' : 'export header';
  let space = null;
  let events = 0;
  let lastSeq = 0n;
  let lastHash = GENESIS;
  const fingerprints = new Map();
  const wanted = new Map((options.checkpoints ?? []).map((c) => [BigInt(c.seq), c]));
  const seen = new Map(); // checkpoint seq -> hash hex found there
  let lineNo = 0;
  const keyState = new KeyState();
  const broken = (seq, problem, message) => ({
    ok: false, space, events, seq: String(seq), problem, message, keysFrom, suspects: keyState.suspects(),
  });

  for await (const raw of lines) {
    lineNo++;
    const text = typeof raw === 'string' ? raw.trim() : String(raw).trim();
    if (!text) continue;
    let line;
    try {
      line = JSON.parse(text);
    } catch (e) {
      throw new InputError(`line ${lineNo} is not JSON: ${e.message}`);
    }
    if (header === null) {
      if (line.format !== FORMAT) throw new InputError(`line 1: not a ${FORMAT} header (format ${line.format})`);
      header = line;
      space = line.space;
      schemas = new Map();
      for (const [id, json] of Object.entries(line.schemas ?? {})) {
        try {
          schemas.set(Number(id), parseSchema(json));
        } catch (e) {
          throw new InputError(`header: schema ${id} cannot be parsed: ${e.message}`);
        }
      }
      if (!keys) {
        try {
          keys = keyRing(line.keys ?? []);
        } catch (e) {
          throw new InputError(`header: ${e.message}`);
        }
      }
      continue;
    }
    events++;
    const expected = lastSeq + 1n;
    let schema;
    let event;
    try {
      if (line.value === null || line.value === undefined) throw new Error(line.error ?? 'no value (tombstone)');
      const value = Buffer.from(line.value, 'base64');
      const { schemaId, offset } = unframe(value);
      schema = schemas.get(schemaId);
      if (!schema) throw new Error(`writer schema ${schemaId} is not in the header`);
      if (schema.type !== 'record') throw new Error(`schema ${schemaId} is not a record`);
      for (const [name, type] of Object.entries(CHAIN_FIELDS)) {
        const field = schema.fields.find((f) => f.name === name);
        if (!field || field.type.type !== type) throw new Error(`schema ${schemaId} has no ${type} field ${name}`);
      }
      const reader = new Reader(value, offset);
      event = decode(schema, reader);
      if (reader.pos !== value.length) {
        process.emitWarning(`record at offset ${line.offset} has ${value.length - reader.pos} bytes after the event`);
      }
    } catch (e) {
      return broken(expected, 'UNDECODABLE', `record after seq ${lastSeq} cannot be decoded: ${e.message}`
        + ` [line ${lineNo}, offset ${line.offset}]`);
    }
    const eventSpace = event.space.toString('utf8');
    const seq = event.seq;
    if (eventSpace !== space) {
      return broken(expected, 'WRONG_SPACE', `event seq ${seq} claims space '${eventSpace}' on the chain of '${space}'`);
    }
    if (seq < expected) {
      return broken(expected, 'DUPLICATE', seq === lastSeq ? `seq ${seq} appears again (expected ${expected})`
        : `seq ${seq} found after seq ${lastSeq} (expected ${expected})`);
    }
    if (seq > expected) {
      return broken(expected, 'GAP', `seq ${seq} found where ${expected} was expected (${seq - expected} missing)`);
    }
    if (!event.prev_hash.equals(lastHash)) {
      return broken(seq, 'BROKEN_LINK', `prev_hash ${short(event.prev_hash)} of seq ${seq} is not the hash `
        + `${short(lastHash)}${seq === 1n ? ' of the genesis' : ` of seq ${lastSeq}`}`);
    }
    let fp = fingerprints.get(schema);
    if (!fp) {
      fp = fingerprint(schema);
      fingerprints.set(schema, fp);
    }
    const blanked = { ...event, hash: Buffer.alloc(0), signature: Buffer.alloc(0) };
    const recomputed = sha256(Buffer.concat([fp, ...encode(schema, blanked)]));
    if (!recomputed.equals(event.hash)) {
      return broken(seq, 'BAD_HASH', `stored hash ${short(event.hash)} of seq ${seq} differs from the recomputed `
        + `${short(recomputed)}: the event's content was changed`);
    }
    const keyId = event.key_id.toString('utf8');
    const key = keys.get(keyId) ?? keyState.learned.get(keyId);
    if (!key) {
      return broken(seq, 'UNKNOWN_KEY', `seq ${seq} is signed by key id '${keyId}', which is not in the key ring`);
    }
    if (keyState.current !== null && keyState.current !== keyId) {
      return broken(seq, 'WRONG_KEY', `seq ${seq} is signed by key '${keyId}' but the chain's signing key is `
        + `'${keyState.current}' since its last rotation`);
    }
    const payload = payloadOf(schema, event);
    let rotatedTo = null;
    if (payload && payload.type === ROTATED) {
      const previous = payload.value.previous_key_id.toString('utf8');
      rotatedTo = payload.value.new_key_id.toString('utf8');
      const raw = payload.value.new_public_key;
      if (previous !== keyId) {
        return broken(seq, 'BAD_ROTATION', `key rotation at seq ${seq} replaces key '${previous}' but is signed by `
          + `key '${keyId}'`);
      }
      if (raw.length !== 32 || keyIdOf(raw) !== rotatedTo) {
        return broken(seq, 'BAD_ROTATION', `key rotation at seq ${seq} names key id '${rotatedTo}' for a public key `
          + 'whose id is not that');
      }
      rotatedTo = { id: rotatedTo, key: publicKeyObject(raw) };
    }
    if (!ed25519Verify(key, event.hash, event.signature)) {
      return broken(seq, 'BAD_SIGNATURE', `signature of seq ${seq} does not verify with key '${keyId}'`);
    }
    lastSeq = seq;
    lastHash = event.hash;
    keyState.signed(keyId, seq);
    if (rotatedTo) {
      keyState.current = rotatedTo.id;
      keyState.learned.set(rotatedTo.id, rotatedTo.key);
    } else if (payload && payload.type === COMPROMISED) {
      keyState.mark(payload.value.key_id.toString('utf8'), payload.value.from_seq, seq);
    }
    if (wanted.has(seq)) seen.set(seq, event.hash.toString('hex'));
  }
  if (header === null) throw new InputError('empty export: no header line');
  const all = new Map([...keyState.learned, ...keys]);
  const checkpoints = [...wanted.values()].map((c) => checkCheckpoint(c, space, all, seen));
  return {
    ok: true, space, events, headSeq: String(lastSeq), headHash: lastHash.toString('hex'), keysFrom, checkpoints,
    suspects: keyState.suspects(),
  };
}

/** A checkpoint holds when it names this space, its seq is in the verified chain with that hash, and it is signed. */
export function checkCheckpoint(checkpoint, space, keys, seen) {
  const seq = BigInt(checkpoint.seq);
  const hash = String(checkpoint.hash).toLowerCase();
  const fail = (message) => ({ ok: false, seq: String(seq), hash, message });
  if (checkpoint.space !== space) return fail(`checkpoint of space '${checkpoint.space}', export of '${space}'`);
  const key = keys.get(checkpoint.key_id);
  if (!key) return fail(`checkpoint signed by key id '${checkpoint.key_id}', which is not in the key ring`);
  const signature = Buffer.from(checkpoint.signature, 'hex');
  if (!ed25519Verify(key, checkpointMessage(space, seq, hash), signature)) {
    return fail(`checkpoint signature does not verify with key '${checkpoint.key_id}'`);
  }
  if (!seen.has(seq)) return fail(`seq ${seq} is not in the export`);
  if (seen.get(seq) !== hash) return fail(`the export's hash at seq ${seq} is ${seen.get(seq)}, the checkpoint's ${hash}`);
  return { ok: true, seq: String(seq), hash, message: 'confirmed' };
}

export class InputError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// Command line.

const USAGE = 'usage: node verify.mjs EXPORT.jsonl [--keys FILE] [--checkpoint FILE.json]...\n'
  + '  --keys        public keys to trust: public-keys.json, a .pub file of lines \'<key id> <hex key>\' or an export\n'
  + '                (default: the keys in the export\'s own header; pin them to trust something else than the file)\n'
  + '  --checkpoint  a signed checkpoint (GET /v1/spaces/{space}/chain/checkpoint) to confirm against the export\n';

export async function main(argv, out = process.stdout, err = process.stderr) {
  let file = null;
  let keysFile = null;
  const checkpointFiles = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      out.write(USAGE);
      return 0;
    }
    if (arg === '--keys' || arg === '--checkpoint') {
      const value = argv[++i];
      if (value === undefined) {
        err.write(`error: ${arg} needs a value\n${USAGE}`);
        return 2;
      }
      if (arg === '--keys') keysFile = value;
      else checkpointFiles.push(value);
    } else if (arg.startsWith('--') || file !== null) {
      err.write(`error: unexpected argument '${arg}'\n${USAGE}`);
      return 2;
    } else {
      file = arg;
    }
  }
  if (file === null) {
    err.write(`error: no export file\n${USAGE}`);
    return 2;
  }
  let result;
  try {
    const keys = keysFile === null ? undefined : readKeyFile(fs.readFileSync(keysFile, 'utf8'));
    const checkpoints = checkpointFiles.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
    const input = fs.createReadStream(file, { encoding: 'utf8' });
    result = await verifyExport(readline.createInterface({ input, crlfDelay: Infinity }), { keys, checkpoints });
  } catch (e) {
    err.write(`error: ${e.message}\n`);
    return 2;
  }
  if (!result.ok) {
    out.write(`BROKEN ${result.space} seq=${result.seq} ${result.problem} ${result.message}\n`);
    return 1;
  }
  out.write(`OK ${result.space} ${result.events} events head ${result.headSeq} ${result.headHash}\n`);
  for (const s of result.suspects) {
    out.write(`SUSPECT ${result.space} key=${s.keyId} seqs=${s.fromSeq}..${s.toSeq} trusted_up_to=${s.trustedUpTo} `
      + `marked_at=${s.markedAtSeq}\n`);
  }
  if (result.keysFrom === 'export header') {
    err.write('note: signatures checked with the keys of the export\'s own header; pass --keys to pin the keys\n');
  }
  let status = 0;
  for (const c of result.checkpoints) {
    out.write(`CHECKPOINT ${c.ok ? 'OK' : 'BAD'} ${result.space} seq ${c.seq} ${c.hash}${c.ok ? '' : ` ${c.message}`}\n`);
    if (!c.ok) status = 1;
  }
  return status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}

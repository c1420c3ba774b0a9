// Tests of the second-language verifier: node --test verifier/
//
// The chain tests need a real export written by our Java code: ChainExportIT (memory-worker) writes one to
// memory-worker/target/verifier/chain-export.jsonl and runs these tests with MEMORYCHAIN_EXPORT pointing at it.
// Without an export those tests are skipped with the reason (the IT requires that none is skipped).

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  canonicalForm, checkCheckpoint, checkpointMessage, decode, encode, fingerprint, keyIdOf, keyRing, main,
  parseSchema, Reader, sha256, unframe, verifyExport,
} from './verify.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const EXPORT = process.env.MEMORYCHAIN_EXPORT
  ?? path.join(here, '..', 'memory-worker', 'target', 'verifier', 'chain-export.jsonl');
const haveExport = fs.existsSync(EXPORT);
const noExport = haveExport ? false
  : `no export at ${EXPORT}: run ChainExportIT (memory-worker) or set MEMORYCHAIN_EXPORT`;

describe('Avro', () => {
  test('zig-zag varints of longs and ints round-trip at their limits', () => {
    const schema = parseSchema('"long"');
    for (const n of [0n, -1n, 1n, 63n, -64n, 64n, 2147483647n, -2147483648n, 9223372036854775807n,
      -9223372036854775808n]) {
      const bytes = Buffer.concat(encode(schema, n));
      const reader = new Reader(bytes);
      assert.equal(decode(schema, reader), n);
      assert.equal(reader.pos, bytes.length);
    }
    // the spec's examples: 0 -> 00, -1 -> 01, 1 -> 02, -2 -> 03, 64 -> 80 01
    assert.equal(Buffer.concat(encode(schema, -2n)).toString('hex'), '03');
    assert.equal(Buffer.concat(encode(schema, 64n)).toString('hex'), '8001');
  });

  test('a record with every type decodes and re-encodes to the same bytes', () => {
    const schema = parseSchema({
      type: 'record', name: 'All', namespace: 'ex', fields: [
        { name: 'n', type: 'null' }, { name: 'b', type: 'boolean' }, { name: 'i', type: 'int' },
        { name: 'l', type: { type: 'long', logicalType: 'timestamp-millis' } }, { name: 'f', type: 'float' },
        { name: 'd', type: 'double' }, { name: 'by', type: 'bytes' }, { name: 's', type: 'string' },
        { name: 'e', type: { type: 'enum', name: 'Colour', symbols: ['RED', 'GREEN'] } },
        { name: 'fx', type: { type: 'fixed', name: 'Four', size: 4 } },
        { name: 'a', type: { type: 'array', items: 'Colour' } }, { name: 'm', type: { type: 'map', values: 'long' } },
        { name: 'u', type: ['null', 'string', 'Four'] },
      ],
    });
    const f = Buffer.alloc(4);
    f.writeFloatLE(1.5);
    const d = Buffer.alloc(8);
    d.writeDoubleLE(-0.25);
    const value = {
      n: null, b: true, i: -7, l: 1735689600000n, f: { raw: f }, d: { raw: d }, by: Buffer.from([0, 255]),
      s: Buffer.from('café ☕', 'utf8'), e: { index: 1 }, fx: Buffer.from('abcd'), a: [{ index: 0 }, { index: 1 }],
      m: [[Buffer.from('k'), 3n]], u: { index: 2, value: Buffer.from('wxyz') },
    };
    const bytes = Buffer.concat(encode(schema, value));
    const reader = new Reader(bytes);
    const back = decode(schema, reader);
    assert.equal(reader.pos, bytes.length);
    assert.deepEqual(Buffer.concat(encode(schema, back)), bytes);
    assert.equal(back.s.toString('utf8'), 'café ☕');
    assert.equal(back.f.raw.readFloatLE(0), 1.5);
  });

  test('arrays written in several blocks, with byte sizes, re-encode as one block', () => {
    const schema = parseSchema({ type: 'array', items: 'int' });
    // block of 2 (count -2, size 2 bytes): 1, 2; block of 1: 3; end
    const bytes = Buffer.from([0x03, 0x04, 0x02, 0x04, 0x02, 0x06, 0x00]);
    const value = decode(schema, new Reader(bytes));
    assert.deepEqual(value, [1, 2, 3]);
    assert.equal(Buffer.concat(encode(schema, value)).toString('hex'), '0602040600');
  });

  test('parsing canonical form follows the spec: full names, only parsing attributes, named types once', () => {
    const schema = parseSchema({
      type: 'record', name: 'Event', namespace: 'io.ex', doc: 'stripped', fields: [
        { name: 'actor', type: { type: 'record', name: 'Actor', fields: [{ name: 'id', type: { type: 'string' } }] } },
        { name: 'other', type: 'Actor', doc: 'a reference' },
        { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' }, default: 0 },
        { name: 'kind', type: { type: 'enum', name: 'k.Kind', symbols: ['A'], default: 'A' } },
        { name: 'again', type: 'k.Kind' },
        { name: 'h', type: { type: 'fixed', name: 'H', namespace: '', size: '016' } },
      ],
    });
    assert.equal(canonicalForm(schema), '{"name":"io.ex.Event","type":"record","fields":['
      + '{"name":"actor","type":{"name":"io.ex.Actor","type":"record","fields":[{"name":"id","type":"string"}]}},'
      + '{"name":"other","type":"io.ex.Actor"},{"name":"at","type":"long"},'
      + '{"name":"kind","type":{"name":"k.Kind","type":"enum","symbols":["A"]}},{"name":"again","type":"k.Kind"},'
      + '{"name":"h","type":{"name":"H","type":"fixed","size":16}}]}');
    assert.equal(fingerprint(schema).length, 32);
  });

  test('a truncated record is an error, not a partial value', () => {
    const schema = parseSchema({ type: 'record', name: 'R', fields: [{ name: 's', type: 'string' }] });
    assert.throws(() => decode(schema, new Reader(Buffer.from([0x0a, 0x61]))), /beyond the record/);
  });
});

describe('keys and checkpoints', () => {
  test('key ids are recomputed from the raw key and a wrong stated id is refused', () => {
    const { publicKey } = crypto.generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const id = keyIdOf(raw);
    assert.equal(id, sha256(raw).toString('hex').slice(0, 16));
    assert.ok(keyRing([{ key_id: id, public_key_base64: raw.toString('base64') }]).has(id));
    assert.throws(() => keyRing([{ key_id: '0000000000000000', public_key_hex: raw.toString('hex') }]), /does not match/);
  });

  test('a checkpoint holds only with its exact space, seq, hash and a valid signature', () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const keys = keyRing([{ public_key_hex: raw.toString('hex') }]);
    const hash = sha256(Buffer.from('head')).toString('hex');
    const signature = crypto.sign(null, checkpointMessage('s', 7n, hash), privateKey).toString('hex');
    const checkpoint = { space: 's', seq: 7, hash, key_id: keyIdOf(raw), signature };
    const seen = new Map([[7n, hash]]);
    assert.equal(checkCheckpoint(checkpoint, 's', keys, seen).ok, true);
    assert.match(checkCheckpoint({ ...checkpoint, seq: 8 }, 's', keys, new Map([[8n, hash]])).message, /signature/);
    assert.match(checkCheckpoint(checkpoint, 's', keys, new Map([[7n, '00'.repeat(32)]])).message, /the export's hash/);
    assert.match(checkCheckpoint(checkpoint, 's', keys, new Map()).message, /not in the export/);
  });
});

// A small chain written here, in the export format, with its own schema: enough to check rotations and compromise
// marks without the Java code (the real chain export of a service that rotated is checked by ChainKeyRotationIT).
const ROTATION_SCHEMA = {
  type: 'record', name: 'MemoryEvent', namespace: 'io.memorychain.avro', fields: [
    { name: 'space', type: 'string' }, { name: 'seq', type: 'long' }, { name: 'prev_hash', type: 'bytes' },
    { name: 'hash', type: 'bytes' }, { name: 'signature', type: 'bytes' }, { name: 'key_id', type: 'string' },
    { name: 'payload', type: [
      { type: 'record', name: 'MemoryPinned', fields: [{ name: 'memory_id', type: 'string' }] },
      { type: 'record', name: 'SigningKeyRotated', fields: [
        { name: 'previous_key_id', type: 'string' }, { name: 'new_key_id', type: 'string' },
        { name: 'new_public_key', type: 'bytes' }, { name: 'reason', type: ['null', 'string'] }] },
      { type: 'record', name: 'SigningKeyCompromised', fields: [
        { name: 'key_id', type: 'string' }, { name: 'from_seq', type: 'long' }, { name: 'reason', type: 'string' }] },
    ] },
  ],
};

function newKey() {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  return { raw, id: keyIdOf(raw), privateKey };
}

class ChainWriter {
  constructor(space) {
    this.space = space;
    this.schema = parseSchema(ROTATION_SCHEMA);
    this.fp = fingerprint(this.schema);
    this.events = [];
    this.prev = Buffer.alloc(32);
  }

  /** Appends an event with this payload ({index, value}) signed by `key`. */
  append(payload, key) {
    const event = {
      space: Buffer.from(this.space), seq: BigInt(this.events.length + 1), prev_hash: this.prev, hash: Buffer.alloc(0),
      signature: Buffer.alloc(0), key_id: Buffer.from(key.id), payload,
    };
    event.hash = sha256(Buffer.concat([this.fp, ...encode(this.schema, event)]));
    event.signature = crypto.sign(null, event.hash, key.privateKey);
    this.events.push(event);
    this.prev = event.hash;
    return this;
  }

  pin(n, key) {
    for (let i = 0; i < n; i++) this.append({ index: 0, value: { memory_id: Buffer.from(`m${i}`) } }, key);
    return this;
  }

  rotate(previousId, to, signer) {
    return this.append({ index: 1, value: { previous_key_id: Buffer.from(previousId), new_key_id: Buffer.from(to.id),
      new_public_key: to.raw, reason: { index: 0, value: null } } }, signer);
  }

  compromise(key, fromSeq, signer) {
    return this.append({ index: 2, value: { key_id: Buffer.from(key.id), from_seq: BigInt(fromSeq),
      reason: Buffer.from('leaked') } }, signer);
  }

  /** The export's lines; its header trusts `trusted` only. */
  lines(trusted) {
    const header = { format: 'memorychain-chain-export-v1', space: this.space, schemas: { 1: ROTATION_SCHEMA },
      keys: trusted.map((k) => ({ key_id: k.id, public_key_hex: k.raw.toString('hex') })) };
    return [JSON.stringify(header), ...this.events.map((e) => {
      const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, 1]), ...encode(this.schema, e)]);
      return JSON.stringify({ seq: Number(e.seq), value: framed.toString('base64') });
    })];
  }
}

describe('signing-key rotation and compromised keys', () => {
  const oldKey = newKey();
  const newKey2 = newKey();

  test('a chain that spans a rotation verifies with only the old key trusted', async () => {
    const chain = new ChainWriter('s').pin(3, oldKey).rotate(oldKey.id, newKey2, oldKey).pin(3, newKey2);
    const result = await verifyExport(chain.lines([oldKey]));
    assert.equal(result.ok, true, result.message);
    assert.equal(result.events, 7);
    assert.deepEqual(result.suspects, []);
  });

  test('a rotation not signed by the key it replaces is refused', async () => {
    const chain = new ChainWriter('s').pin(2, oldKey).rotate(oldKey.id, newKey2, newKey2);
    const result = await verifyExport(chain.lines([oldKey, newKey2]));
    assert.equal(result.problem, 'BAD_ROTATION');
    assert.equal(result.seq, '3');
  });

  test('a rotation whose public key does not hash to its key id is refused', async () => {
    const chain = new ChainWriter('s').pin(1, oldKey);
    chain.append({ index: 1, value: { previous_key_id: Buffer.from(oldKey.id), new_key_id: Buffer.from(newKey2.id),
      new_public_key: newKey().raw, reason: { index: 0, value: null } } }, oldKey);
    const result = await verifyExport(chain.lines([oldKey]));
    assert.equal(result.problem, 'BAD_ROTATION');
    assert.equal(result.seq, '2');
  });

  test('after a rotation the old key may no longer sign', async () => {
    const chain = new ChainWriter('s').pin(1, oldKey).rotate(oldKey.id, newKey2, oldKey).pin(1, newKey2).pin(1, oldKey);
    const result = await verifyExport(chain.lines([oldKey]));
    assert.equal(result.problem, 'WRONG_KEY');
    assert.equal(result.seq, '4');
  });

  test('events of a compromised key after the marked seq are suspect, not a break', async () => {
    const chain = new ChainWriter('s').pin(6, oldKey).rotate(oldKey.id, newKey2, oldKey).pin(2, newKey2)
      .compromise(oldKey, 4, newKey2).pin(1, newKey2);
    const result = await verifyExport(chain.lines([oldKey]));
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(result.suspects, [{ keyId: oldKey.id, fromSeq: '5', toSeq: '7', trustedUpTo: '4',
      markedAtSeq: '10' }]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-')), 'export.jsonl');
    fs.writeFileSync(file, `${chain.lines([oldKey]).join('\n')}\n`);
    let out = '';
    const status = await main([file], { write: (t) => { out += t; } }, { write: () => {} });
    assert.equal(status, 0);
    assert.match(out, new RegExp(`^OK s 11 events head 11 `));
    assert.match(out, new RegExp(`\nSUSPECT s key=${oldKey.id} seqs=5\\.\\.7 trusted_up_to=4 marked_at=10\n`));
  });
});

describe('the worked example of docs/chain-format.md (written there by the Java ChainFormatDocTest)', () => {
  const doc = fs.readFileSync(path.join(here, '..', 'docs', 'chain-format.md'), 'utf8');
  const example = doc.slice(doc.indexOf('<!-- worked-example:begin'), doc.indexOf('<!-- worked-example:end'));
  const cell = (label) => Buffer.from(example.match(new RegExp(`\\| ${label}[^|]*\\| \`([0-9a-f]+)\``))[1], 'hex');
  const blocks = [...example.matchAll(/```\n([0-9a-f\n]+)```/g)].map((m) => Buffer.from(m[1].replace(/\n/g, ''), 'hex'));
  const [canonical, wire] = blocks;
  const publicKey = cell('public key');
  const hash = cell('hash = SHA-256');

  test('its hash is the SHA-256 of its canonical bytes, which start with the fingerprint', () => {
    assert.deepEqual(sha256(canonical), hash);
    assert.deepEqual(canonical.subarray(0, 32), cell('writer schema fingerprint'));
  });

  test('its key id and signature check with node:crypto alone', () => {
    assert.equal(keyIdOf(publicKey).toString(), cell('key id').toString('hex'));
    const keys = keyRing([{ public_key_hex: publicKey.toString('hex') }]);
    assert.ok(crypto.verify(null, hash, keys.get(keyIdOf(publicKey)), cell('signature = Ed25519')));
  });

  test('its wire record with hash and signature blanked is the canonical bytes after the fingerprint', () => {
    assert.deepEqual(unframe(wire), { schemaId: 1, offset: 5 });
    const hashAt = wire.indexOf(Buffer.concat([Buffer.from([0x40]), hash]));
    const signature = cell('signature = Ed25519');
    const blanked = Buffer.concat([wire.subarray(5, hashAt), Buffer.from([0, 0]),
      wire.subarray(hashAt + 33 + 2 + signature.length)]);
    assert.deepEqual(blanked, canonical.subarray(32));
  });

  test('its checkpoint verifies, and not for another seq', () => {
    const checkpoint = JSON.parse(example.match(/```json\n([^`]+)```/)[1]);
    const keys = keyRing([{ public_key_hex: publicKey.toString('hex') }]);
    assert.equal(checkCheckpoint(checkpoint, 'demo', keys, new Map([[1n, hash.toString('hex')]])).ok, true);
    assert.equal(checkCheckpoint({ ...checkpoint, seq: 2 }, 'demo', keys, new Map([[2n, hash.toString('hex')]])).ok,
      false);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// On a real export (see the top of the file).

function readExport() {
  return fs.readFileSync(EXPORT, 'utf8').split('\n').filter((l) => l.trim());
}

function header(lines) {
  return JSON.parse(lines[0]);
}

function indexOfSeq(lines, seq) {
  const index = lines.findIndex((l, i) => i > 0 && JSON.parse(l).seq === seq);
  assert.ok(index > 0, `seq ${seq} in the export`);
  return index;
}

/** The schema and decoded event of line `index`. */
function decodeLine(lines, index) {
  const line = JSON.parse(lines[index]);
  const value = Buffer.from(line.value, 'base64');
  const { schemaId, offset } = unframe(value);
  const schema = parseSchema(header(lines).schemas[schemaId]);
  const reader = new Reader(value, offset);
  return { line, value, schema, schemaId, event: decode(schema, reader) };
}

function withLine(lines, index, line) {
  const copy = lines.slice();
  copy[index] = JSON.stringify(line);
  return copy;
}

function reframe(schemaId, schema, event) {
  const head = Buffer.alloc(5);
  head.writeInt32BE(schemaId, 1);
  return Buffer.concat([head, ...encode(schema, event)]).toString('base64');
}

/** A middle seq whose event carries some text to forge. */
function forgeableSeq(lines) {
  const n = lines.length - 1;
  return Math.max(2, Math.floor(n / 2));
}

describe('a real chain export', { skip: noExport }, () => {
  test('verifies, with every hash, link and signature recomputed', async () => {
    const lines = readExport();
    const result = await verifyExport(lines);
    assert.equal(result.ok, true, result.message);
    assert.equal(result.events, lines.length - 1);
    assert.equal(result.headSeq, String(lines.length - 1));
    assert.equal(result.headHash, JSON.parse(lines.at(-1)).event.hash, 'the head is the last event\'s hash');
  });

  test('a changed content byte is BAD_HASH at that seq', async () => {
    const lines = readExport();
    const seq = forgeableSeq(lines);
    const index = indexOfSeq(lines, seq);
    const { line, value } = decodeLine(lines, index);
    const text = Buffer.from(line.event.request_id, 'utf8'); // every event carries its request id
    const at = value.indexOf(text);
    value[at] = value[at] === 0x61 ? 0x62 : 0x61;
    const result = await verifyExport(withLine(lines, index, { ...line, value: value.toString('base64') }));
    assert.equal(result.ok, false);
    assert.equal(result.problem, 'BAD_HASH');
    assert.equal(result.seq, String(seq));
  });

  test('a forged record re-hashed and re-signed with another key is BAD_SIGNATURE at that seq', async () => {
    const lines = readExport();
    const seq = forgeableSeq(lines);
    const index = indexOfSeq(lines, seq);
    const { line, schema, schemaId, event } = decodeLine(lines, index);
    const forged = { ...event, request_id: Buffer.from('forged-request', 'utf8') };
    const blanked = { ...forged, hash: Buffer.alloc(0), signature: Buffer.alloc(0) };
    forged.hash = sha256(Buffer.concat([fingerprint(schema), ...encode(schema, blanked)]));
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    forged.signature = crypto.sign(null, forged.hash, privateKey); // key_id still names the real key
    const result = await verifyExport(withLine(lines, index, { ...line, value: reframe(schemaId, schema, forged) }));
    assert.equal(result.ok, false);
    assert.equal(result.problem, 'BAD_SIGNATURE');
    assert.equal(result.seq, String(seq));
  });

  test('a dropped record is a GAP at its seq', async () => {
    const lines = readExport();
    const seq = forgeableSeq(lines);
    const dropped = lines.filter((_, i) => i !== indexOfSeq(lines, seq));
    const result = await verifyExport(dropped);
    assert.equal(result.ok, false);
    assert.equal(result.problem, 'GAP');
    assert.equal(result.seq, String(seq));
  });

  test('a dropped record with the later seqs renumbered is a BROKEN_LINK there', async () => {
    const lines = readExport();
    const seq = forgeableSeq(lines);
    const index = indexOfSeq(lines, seq + 1);
    const { line, schema, schemaId, event } = decodeLine(lines, index);
    const renumbered = { ...event, seq: BigInt(seq) };
    const tampered = withLine(lines, index, { ...line, value: reframe(schemaId, schema, renumbered) })
      .filter((_, i) => i !== index - 1);
    const result = await verifyExport(tampered);
    assert.equal(result.ok, false);
    assert.equal(result.problem, 'BROKEN_LINK');
    assert.equal(result.seq, String(seq));
  });

  test('a record repeated is a DUPLICATE', async () => {
    const lines = readExport();
    const index = indexOfSeq(lines, 2);
    const repeated = [...lines.slice(0, index + 1), lines[index], ...lines.slice(index + 1)];
    const result = await verifyExport(repeated);
    assert.equal(result.problem, 'DUPLICATE');
    assert.equal(result.seq, '3');
  });

  test('keys that do not include the signer make seq 1 UNKNOWN_KEY', async () => {
    const { publicKey } = crypto.generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const result = await verifyExport(readExport(), { keys: keyRing([{ public_key_hex: raw.toString('hex') }]) });
    assert.equal(result.problem, 'UNKNOWN_KEY');
    assert.equal(result.seq, '1');
  });

  test('the command line prints OK with the head, or BROKEN with the seq, and exits 0 or 1', async () => {
    const out = [];
    const err = [];
    const sink = (into) => ({ write: (s) => into.push(s) });
    assert.equal(await main([EXPORT], sink(out), sink(err)), 0);
    const n = readExport().length - 1;
    assert.match(out.join(''), new RegExp(`^OK ${header(readExport()).space.replace('.', '\\.')} ${n} events head ${n} [0-9a-f]{64}\\n$`));
    assert.equal(await main(['--nope'], sink(out), sink(err)), 2);
  });
});

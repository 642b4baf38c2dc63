// Shared by the Node Flight peer's server.js and client.js: the Flight service
// loaded from format/Flight.proto, and IPC streams cut into FlightData
// messages and joined back. Needs NODE_PATH=third_party/node-flight/node_modules
// (installed by .ci/install-flight-peers).
'use strict';
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO = path.join(__dirname, '..', '..', 'format', 'Flight.proto');

// No size limits: Flight messages routinely pass gRPC's 4 MiB default.
const CHANNEL_OPTIONS = {
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
};

function loadService() {
  const def = protoLoader.loadSync(PROTO, {
    keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  return grpc.loadPackageDefinition(def).arrow.flight.protocol.FlightService;
}

// A scalar field of the Message flatbuffer's root table, read by hand:
// `fallback` when absent. Slots: 1 header_type (ubyte), 3 bodyLength (long).
function messageField(header, slot, read, fallback) {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const table = view.getUint32(0, true);
  const vtable = table - view.getInt32(table, true);
  const vtableSize = view.getUint16(vtable, true);
  const entry = 4 + 2 * slot;
  if (entry >= vtableSize) return fallback;
  const at = view.getUint16(vtable + entry, true);
  return at === 0 ? fallback : read(view, table + at);
}

function bodyLength(header) {
  return messageField(header, 3, (v, at) => Number(v.getBigInt64(at, true)), 0);
}

// MessageHeader union tag: 1 Schema, 2 DictionaryBatch, 3 RecordBatch.
const RECORD_BATCH = 3;
function headerType(header) {
  return messageField(header, 1, (v, at) => v.getUint8(at), 0);
}

// The record batch messages of `messages` get app_metadata "0", "1", ...
// (the default integration scenario's numbering); others get none.
function numberBatches(messages) {
  let index = 0;
  return messages.map((m) => (headerType(m.data_header) === RECORD_BATCH
    ? { ...m, app_metadata: Buffer.from(String(index++)) } : m));
}

// The app_metadata of the record batch messages, as text, in order.
function batchMetadata(messages) {
  return messages.filter((m) => m.data_header && m.data_header.length > 0 &&
                                headerType(m.data_header) === RECORD_BATCH)
    .map((m) => Buffer.from(m.app_metadata || []).toString());
}

// An encapsulated IPC stream (continuation, length, metadata, body; legacy
// 4-byte prefixes accepted) cut into {data_header, data_body} messages. The
// end-of-stream marker ends it.
function splitStream(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let pos = 0;
  while (pos + 4 <= buf.length) {
    let length = buf.readInt32LE(pos);
    pos += 4;
    if (length === -1) {
      length = buf.readInt32LE(pos);
      pos += 4;
    }
    if (length === 0) break;
    const data_header = buf.subarray(pos, pos + length);
    pos += length;
    const n = bodyLength(data_header);
    const data_body = buf.subarray(pos, pos + n);
    pos += n;
    out.push({ data_header, data_body });
  }
  return out;
}

function pad8(n) {
  return (8 - (n % 8)) % 8;
}

// One encapsulated message: continuation, length, header padded to 8, body.
function frame(header, body) {
  const padding = pad8(8 + header.length);
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(0xffffffff, 0);
  prefix.writeInt32LE(header.length + padding, 4);
  return [prefix, header, Buffer.alloc(padding), body || Buffer.alloc(0)];
}

// FlightData messages (those with a header) back into an IPC stream.
function joinStream(messages) {
  const parts = [];
  for (const m of messages) {
    if (!m.data_header || m.data_header.length === 0) continue;
    parts.push(...frame(m.data_header, m.data_body));
  }
  parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
  return Buffer.concat(parts);
}

// The encapsulated schema message FlightInfo.schema carries.
function encapsulatedSchema(messages) {
  const first = messages.find((m) => m.data_header && m.data_header.length > 0);
  return first ? Buffer.concat(frame(first.data_header, first.data_body)) : Buffer.alloc(0);
}

function descriptorKey(d) {
  if (!d) return '';
  return d.type === 'CMD' ? 'cmd:' + Buffer.from(d.cmd).toString('hex') : 'path:' + d.path.join('/');
}

// --key value pairs; a key given more than once collects its values in an array.
function parseArgs(argv) {
  const args = {};
  for (let i = 2; i < argv.length; ++i) {
    if (!argv[i].startsWith('--')) throw new Error('unexpected argument ' + argv[i]);
    const key = argv[i].slice(2);
    const value = i + 1 < argv.length && !argv[i + 1].startsWith('--') ? argv[++i] : true;
    if (key in args) args[key] = [].concat(args[key], value); else args[key] = value;
  }
  return args;
}

module.exports = {
  grpc, CHANNEL_OPTIONS, loadService, splitStream, joinStream, encapsulatedSchema,
  descriptorKey, parseArgs, numberBatches, batchMetadata,
};

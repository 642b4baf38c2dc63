// A Flight client in Node.js (grpc-js + apache-arrow), the peer alkaid's
// Flight server is checked against: uploads an IPC stream with DoPut, asks
// GetFlightInfo, downloads every endpoint with DoGet and checks that the
// table came back equal (same schema, same values).
//
//   NODE_PATH=third_party/node-flight/node_modules node test_util/flight_peer/client.js \
//       --port PORT [--path NAME] [--stream FILE.stream | --rows N]
//
// Without --stream a built-in table of --rows rows (default 4) is sent. Exits 0 and prints "ok"
// when everything matched; otherwise prints the difference and exits 1.
'use strict';
const fs = require('fs');
const arrow = require('apache-arrow');
const common = require('./flight_common');
const { grpc } = common;

// `rows` rows (4 by default; a million makes 8 MB messages, past gRPC's
// default 4 MiB limit).
function builtInTable(rows) {
  const n = rows || 4;
  const names = ['a', 'bb', null, 'dddd'];
  return arrow.tableFromArrays({
    id: Int32Array.from({ length: n }, (_, i) => i + 1),
    value: Float64Array.from({ length: n }, (_, i) => (i % 2 ? -i : i * 0.5)),
    name: Array.from({ length: n }, (_, i) => names[i % 4]),
  });
}

function doPut(client, descriptor, messages) {
  return new Promise((resolve, reject) => {
    const call = client.DoPut();
    const results = [];
    call.on('data', (r) => results.push(r));
    call.on('error', reject);
    call.on('end', () => resolve(results));
    messages.forEach((m, i) => call.write(i === 0 ? { ...m, flight_descriptor: descriptor } : m));
    call.end();
  });
}

function getFlightInfo(client, descriptor) {
  return new Promise((resolve, reject) => {
    client.GetFlightInfo(descriptor, (err, info) => (err ? reject(err) : resolve(info)));
  });
}

function doGet(client, ticket) {
  return new Promise((resolve, reject) => {
    const call = client.DoGet(ticket);
    const messages = [];
    call.on('data', (m) => messages.push(m));
    call.on('error', reject);
    call.on('end', () => resolve(messages));
  });
}

// Values as JSON (BigInts as strings) for comparison and for the report.
function rows(table) {
  return JSON.stringify(table.toArray().map((r) => r.toJSON()),
    (k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

async function main() {
  const args = common.parseArgs(process.argv);
  if (!args.port) throw new Error('--port is required');
  const Service = common.loadService();
  const client = new Service('localhost:' + args.port, grpc.credentials.createInsecure(),
    common.CHANNEL_OPTIONS);
  const bytes = args.stream ? fs.readFileSync(args.stream) : arrow.tableToIPC(builtInTable(Number(args.rows || 4)), 'stream');
  const sent = arrow.tableFromIPC(bytes);
  const descriptor = { type: 'PATH', path: [args.path || 'node-peer'], cmd: Buffer.alloc(0) };

  await doPut(client, descriptor, common.splitStream(bytes));
  const info = await getFlightInfo(client, descriptor);
  const problems = [];
  if (Number(info.total_records) !== -1 && Number(info.total_records) !== sent.numRows) {
    problems.push(`FlightInfo.total_records ${info.total_records}, sent ${sent.numRows} rows`);
  }
  if (info.schema.length > 0) {
    const schema = arrow.tableFromIPC(Buffer.concat([info.schema, Buffer.alloc(8, 0)])).schema;
    if (!schema.fields.every((f, i) => sent.schema.fields[i] && f.name === sent.schema.fields[i].name &&
                             String(f.type) === String(sent.schema.fields[i].type))) {
      problems.push('FlightInfo.schema differs: ' + schema + ' vs ' + sent.schema);
    }
  }
  const got = [];
  for (const endpoint of info.endpoint) {
    const messages = await doGet(client, endpoint.ticket);
    got.push(arrow.tableFromIPC(common.joinStream(messages)));
  }
  const received = got.length === 0 ? null : got.reduce((a, b) => a.concat(b));
  if (received === null) {
    problems.push('no endpoint');
  } else {
    if (String(received.schema) !== String(sent.schema)) {
      problems.push('schema differs: ' + received.schema + ' vs ' + sent.schema);
    }
    if (rows(received) !== rows(sent)) problems.push('values differ');
  }
  client.close();
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`ok: ${sent.numRows} rows, ${sent.schema.fields.length} columns`);
}

main().catch((e) => {
  console.error('client.js: ' + (e.details || e.message));
  process.exit(1);
});

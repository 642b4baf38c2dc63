// A Flight client in Node.js (grpc-js + apache-arrow) running the default
// scenario of Arrow's Flight integration tests, the peer alkaid's
// integration server is checked against. For each IPC stream file: Arrow JS
// reads it and re-encodes it; DoPut uploads it under descriptor path [FILE],
// record batch i carrying app_metadata "i", and the server must echo each
// one as a PutResult; GetFlightInfo; DoGet from every endpoint (each of its
// locations, or this server when none), where record batch i must carry
// app_metadata "i" and the table Arrow JS decodes must equal the one sent
// (schema and values).
//
//   NODE_PATH=third_party/node-flight/node_modules node test_util/flight_peer/client.js \
//       --port PORT --stream FILE.stream [--stream FILE2.stream ...]
//
// Prints "ok FILE" per file that matched and "FAILED FILE: why" per file that
// did not; exits 1 when any failed.
'use strict';
const fs = require('fs');
const arrow = require('apache-arrow');
const common = require('./flight_common');
const { grpc } = common;

function doPut(client, descriptor, messages) {
  return new Promise((resolve, reject) => {
    const call = client.DoPut();
    const results = [];
    call.on('data', (r) => results.push(Buffer.from(r.app_metadata).toString()));
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

// Values as JSON (BigInts as strings) for comparison.
function rows(table) {
  return JSON.stringify(table.toArray().map((r) => r.toJSON()),
    (k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function numbers(n) {
  return Array.from({ length: n }, (_, i) => String(i));
}

// "host:port" of a grpc:// or grpc+tcp:// location URI.
function target(uri) {
  const m = /^grpc(\+tcp)?:\/\/(.+?)\/?$/.exec(uri);
  if (!m) throw new Error('location ' + uri + ' is not grpc+tcp');
  return m[2];
}

async function runOne(Service, client, file) {
  const sent = arrow.tableFromIPC(fs.readFileSync(file));
  const messages = common.numberBatches(common.splitStream(arrow.tableToIPC(sent, 'stream')));
  const descriptor = { type: 'PATH', path: [file], cmd: Buffer.alloc(0) };
  const problems = [];

  const acks = await doPut(client, descriptor, messages);
  // Counted from what is sent: Arrow JS may hold an empty batch it does not write.
  const expectedAcks = numbers(common.batchMetadata(messages).length);
  if (JSON.stringify(acks) !== JSON.stringify(expectedAcks)) {
    problems.push(`DoPut: PutResults ${JSON.stringify(acks)}, expected ${JSON.stringify(expectedAcks)}`);
  }
  const info = await getFlightInfo(client, descriptor);
  if (Number(info.total_records) !== -1 && Number(info.total_records) !== sent.numRows) {
    problems.push(`FlightInfo.total_records ${info.total_records}, sent ${sent.numRows} rows`);
  }
  const infoSchema = arrow.tableFromIPC(Buffer.concat([info.schema, Buffer.alloc(8, 0)])).schema;
  if (String(infoSchema) !== String(sent.schema)) {
    problems.push('FlightInfo.schema ' + infoSchema + ', sent ' + sent.schema);
  }
  if (info.endpoint.length === 0) problems.push('no endpoint');
  for (const endpoint of info.endpoint) {
    const sources = endpoint.location.length === 0 ? [client]
      : endpoint.location.map((l) => new Service(target(l.uri), grpc.credentials.createInsecure(),
        common.CHANNEL_OPTIONS));
    for (const source of sources) {
      const got = await doGet(source, endpoint.ticket);
      if (source !== client) source.close();
      const tags = common.batchMetadata(got);
      if (JSON.stringify(tags) !== JSON.stringify(expectedAcks)) {
        problems.push(`DoGet: app_metadata ${JSON.stringify(tags)}, expected ${JSON.stringify(expectedAcks)}`);
      }
      const received = arrow.tableFromIPC(common.joinStream(got));
      if (String(received.schema) !== String(sent.schema)) {
        problems.push('DoGet: schema ' + received.schema + ', sent ' + sent.schema);
      } else if (rows(received) !== rows(sent)) {
        problems.push('DoGet: values differ');
      }
    }
  }
  return problems;
}

async function main() {
  const args = common.parseArgs(process.argv);
  if (!args.port) throw new Error('--port is required');
  const files = [].concat(args.stream || []);
  if (files.length === 0) throw new Error('--stream FILE is required');
  const Service = common.loadService();
  const client = new Service('localhost:' + args.port, grpc.credentials.createInsecure(),
    common.CHANNEL_OPTIONS);
  let failed = 0;
  for (const file of files) {
    let problems;
    try {
      problems = await runOne(Service, client, file);
    } catch (e) {
      problems = [e.details || e.message];
    }
    if (problems.length === 0) {
      console.log('ok ' + file);
    } else {
      ++failed;
      console.log('FAILED ' + file + ': ' + problems.join('; '));
    }
  }
  client.close();
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error('client.js: ' + (e.details || e.message));
  process.exit(1);
});

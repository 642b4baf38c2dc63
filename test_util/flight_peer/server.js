// A Flight server in Node.js (grpc-js + apache-arrow) serving the default
// scenario of Arrow's Flight integration tests, the peer alkaid's
// integration client is checked against:
//  - DoPut echoes each message's app_metadata as a PutResult as it arrives,
//    and after a clean half-close decodes the upload with Arrow JS and keeps
//    the table under its descriptor (a cancelled or broken upload keeps
//    nothing);
//  - GetFlightInfo describes it: one endpoint, no location (same server),
//    ticket = the descriptor key;
//  - DoGet sends it back re-encoded by Arrow JS, record batch i carrying
//    app_metadata "i".
//
//   NODE_PATH=third_party/node-flight/node_modules node test_util/flight_peer/server.js --port 0
//
// Prints "Server listening on localhost:PORT" once it accepts calls; exits 0
// on SIGTERM.
'use strict';
const arrow = require('apache-arrow');
const common = require('./flight_common');
const { grpc } = common;

const tables = new Map();  // descriptor key -> { descriptor, table }

function fail(call, code, message) {
  call.emit('error', { code, details: message });
}

function doPut(call) {
  const messages = [];
  let descriptor = null;
  let broken = false;
  call.on('data', (m) => {
    if (!descriptor && m.flight_descriptor) descriptor = m.flight_descriptor;
    messages.push(m);
    if (m.app_metadata && m.app_metadata.length > 0) call.write({ app_metadata: m.app_metadata });
  });
  call.on('cancelled', () => { broken = true; });
  call.on('error', () => { broken = true; });
  call.on('end', () => {
    if (broken) return;
    if (!descriptor) {
      fail(call, grpc.status.INVALID_ARGUMENT, 'DoPut: the first message has no descriptor');
      return;
    }
    let table;
    try {
      table = arrow.tableFromIPC(common.joinStream(messages));
    } catch (e) {
      fail(call, grpc.status.INVALID_ARGUMENT, 'DoPut: Arrow JS cannot read the upload: ' + e.message);
      return;
    }
    tables.set(common.descriptorKey(descriptor), { descriptor, table });
    call.end();
  });
}

function getFlightInfo(call, callback) {
  const key = common.descriptorKey(call.request);
  const entry = tables.get(key);
  if (!entry) {
    callback({ code: grpc.status.NOT_FOUND, details: 'no flight ' + key });
    return;
  }
  const messages = common.splitStream(arrow.tableToIPC(entry.table, 'stream'));
  callback(null, {
    schema: common.encapsulatedSchema(messages),
    flight_descriptor: entry.descriptor,
    endpoint: [{ ticket: { ticket: Buffer.from(key) }, location: [] }],
    total_records: String(entry.table.numRows),
    total_bytes: '-1',
  });
}

function doGet(call) {
  const key = Buffer.from(call.request.ticket).toString();
  const entry = tables.get(key);
  if (!entry) {
    fail(call, grpc.status.NOT_FOUND, 'no flight for ticket ' + key);
    return;
  }
  const messages = common.splitStream(arrow.tableToIPC(entry.table, 'stream'));
  for (const m of common.numberBatches(messages)) call.write(m);
  call.end();
}

function main() {
  const args = common.parseArgs(process.argv);
  const server = new grpc.Server(common.CHANNEL_OPTIONS);
  const unimplemented = (call, callback) => {
    const error = { code: grpc.status.UNIMPLEMENTED, details: 'not offered by the Node peer' };
    if (callback) callback(error); else fail(call, error.code, error.details);
  };
  const service = common.loadService().service;
  const handlers = {};
  for (const name of Object.keys(service)) handlers[name] = unimplemented;
  Object.assign(handlers, { DoPut: doPut, GetFlightInfo: getFlightInfo, DoGet: doGet });
  server.addService(service, handlers);
  server.bindAsync('localhost:' + (args.port || 0), grpc.ServerCredentials.createInsecure(),
    (err, port) => {
      if (err) {
        console.error('server.js: ' + err.message);
        process.exit(1);
      }
      console.log('Server listening on localhost:' + port);
    });
  process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
}

main();

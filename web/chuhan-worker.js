// chuhan's Web Worker: the engine compiled to WebAssembly, spoken to exactly like the native binary.
//
//   const engine = new Worker("chuhan-worker.js");      // chuhan.wasm is fetched from beside this file
//   engine.onmessage = (e) => console.log(e.data);       // one line the engine wrote, e.g. "uciok"
//   engine.postMessage("uci");                           // one or more UCI/UCCI lines
//
// Another location for the wasm: new Worker("chuhan-worker.js?wasm=/path/to/chuhan.wasm").
// Lines sent before the module is ready are kept and handed over in order. The search runs on this
// worker's thread, so a line sent while the engine thinks is read when the search has answered; `go
// infinite` and `go ponder` therefore answer after at most ten seconds by themselves (web/README.md).
// After `quit` the worker closes, as the native engine exits.
"use strict";

const wasmUrl = new URL(new URLSearchParams(self.location.search).get("wasm") || "chuhan.wasm", self.location.href);
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const waiting = [];
let exports = null;

function writeLine(ptr, len) {
    self.postMessage(decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len)));
}

function send(text) {
    const bytes = encoder.encode(text);
    const ptr = exports.chuhan_input(bytes.length);
    // The input buffer is taken after chuhan_input, which may have grown (and so replaced) the memory.
    new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
    if (exports.chuhan_send(bytes.length)) {
        self.close();
    }
}

function receive(text) {
    try {
        send(text);
    } catch (err) {
        // A trap in the engine (a bug: it never panics on bad input) leaves the module unusable.
        self.postMessage("info string chuhan stopped: " + err);
        self.close();
    }
}

self.onmessage = (event) => {
    const text = String(event.data);
    if (exports) {
        receive(text);
    } else {
        waiting.push(text);
    }
};

const imports = { env: { chuhan_write_line: writeLine, chuhan_now_ms: () => performance.now() } };

async function load() {
    const response = await fetch(wasmUrl);
    if (!response.ok) {
        throw new Error(wasmUrl + ": HTTP " + response.status);
    }
    // instantiateStreaming needs the application/wasm type; some servers send another, so read it whole.
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
    return instance.exports;
}

load().then(
    (ready) => {
        exports = ready;
        while (waiting.length > 0 && exports) {
            receive(waiting.shift());
        }
    },
    (err) => self.postMessage("info string chuhan cannot load " + wasmUrl + ": " + err),
);

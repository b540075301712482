// chuhan's Web Worker: the engine compiled to WebAssembly, spoken to exactly like the native binary.
//
//   const engine = new Worker("chuhan-worker.js");      // chuhan.wasm is fetched from beside this file
//   engine.onmessage = (e) => console.log(e.data);       // one line the engine wrote, e.g. "uciok"
//   engine.postMessage("uci");                           // one or more UCI/UCCI lines
//
// It loads chuhan-simd.wasm where the browser has SIMD128, chuhan.wasm elsewhere; another module or
// location: new Worker("chuhan-worker.js?wasm=/path/to/chuhan.wasm").
// Lines sent before the module is ready are kept and handed over in order. The search runs on this
// worker's thread, so a line sent while the engine thinks is read when the search has answered; `go
// infinite` and `go ponder` therefore answer after at most ten seconds by themselves (web/README.md).
// After `quit` the worker closes, as the native engine exits.
"use strict";

// A module of one function returning a v128 constant: it validates only where the browser has SIMD128.
const SIMD_PROBE = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
    0x03, 0x02, 0x01, 0x00, // one function of type 0
    0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array(16).fill(0), 0x0b, // body: v128.const 0
]);
const hasSimd = WebAssembly.validate(SIMD_PROBE);
// chuhan-simd.wasm: the same engine built with SIMD128 (the network's inner loops vectorised, the same
// results); chuhan.wasm is the portable build for browsers without it.
const wasmName = new URLSearchParams(self.location.search).get("wasm") || (hasSimd ? "chuhan-simd.wasm" : "chuhan.wasm");
const wasmUrl = new URL(wasmName, self.location.href);
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

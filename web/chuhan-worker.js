// chuhan's Web Worker: the engine compiled to WebAssembly, spoken to exactly like the native binary.
//
//   const engine = new Worker("chuhan-worker.js");      // chuhan.wasm is fetched from beside this file
//   engine.onmessage = (e) => console.log(e.data);       // one line the engine wrote, e.g. "uciok"
//   engine.postMessage("uci");                           // one or more UCI/UCCI lines
//
// It loads chuhan-simd.wasm where the browser has SIMD128, chuhan.wasm elsewhere; another module or
// location: new Worker("chuhan-worker.js?wasm=/path/to/chuhan.wasm").
// Lines sent before the module is ready are kept and handed over in order. The search runs on this
// worker's thread, so a message sent while the engine thinks is read only when the search has answered.
// Where the page is cross-origin isolated, chuhan-engine.js (a drop-in for `new Worker`) also writes each
// `stop`, `ponderhit` and `isready` into memory it shares with this worker, and the running search reads
// them from there at once (`chuhan_interrupt` below). Without that, `go infinite` and `go ponder` answer
// after at most ten seconds by themselves (web/README.md). After `quit` the worker closes, as the native
// engine exits.
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

// Urgent lines shared with the page (chuhan-engine.js): control[0] counts the entries written; entry i,
// at control[1 + i % URGENT_RING], is `line * 4 + kind`, where `line` numbers the page's lines from 1
// in the order posted and kind is 1 stop, 2 ponderhit, 3 isready.
const URGENT_RING = 64;
let control = null;
let received = 0; // lines received so far: the number of the one being handled
let handling = 0;
let cursor = 0; // urgent entries read
const pulled = new Set(); // numbers of lines a search already acted on, skipped when they arrive

// Polled by a running search: takes the urgent lines that come next in order (the search cannot act on
// a line that an ordinary line comes before) and returns 1 for stop, 2 for ponderhit, 0 for nothing,
// after waiting up to waitMs for one. An isready is answered here, as the native engine answers it
// during a search.
function interrupt(waitMs) {
    if (!control) {
        return 0;
    }
    for (;;) {
        const count = Atomics.load(control, 0);
        cursor = Math.max(cursor, count - URGENT_RING); // entries overwritten are simply read in order later
        while (cursor < count) {
            const entry = Atomics.load(control, 1 + (cursor % URGENT_RING));
            const line = Math.floor(entry / 4);
            const next = handling + 1 + pulled.size;
            if (line > next) {
                break;
            }
            cursor += 1;
            if (line < next) {
                continue; // already handled in order
            }
            pulled.add(line);
            const kind = entry % 4;
            if (kind === 3) {
                self.postMessage("readyok");
            } else {
                return kind;
            }
        }
        if (!(waitMs > 0)) {
            return 0;
        }
        Atomics.wait(control, 0, count, waitMs);
        waitMs = 0;
    }
}

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

function receive(text, line) {
    handling = line;
    try {
        send(text);
    } catch (err) {
        // A trap in the engine (a bug: it never panics on bad input) leaves the module unusable.
        self.postMessage("info string chuhan stopped: " + err);
        self.close();
    }
}

self.onmessage = (event) => {
    const shared = event.data && event.data.chuhanControl;
    if (typeof SharedArrayBuffer === "function" && shared instanceof SharedArrayBuffer) {
        control = new Int32Array(shared);
        if (exports && received === 0) {
            exports.chuhan_interruptible();
        }
        return;
    }
    received += 1;
    if (pulled.delete(received)) {
        return;
    }
    const text = String(event.data);
    if (exports) {
        receive(text, received);
    } else {
        waiting.push([text, received]);
    }
};

const imports = {
    env: {
        chuhan_write_line: writeLine,
        chuhan_now_ms: () => performance.now(),
        chuhan_interrupt: interrupt,
    },
};

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
        if (control) {
            exports.chuhan_interruptible();
        }
        while (waiting.length > 0 && exports) {
            receive(...waiting.shift());
        }
    },
    (err) => self.postMessage("info string chuhan cannot load " + wasmUrl + ": " + err),
);

// One thread of chuhan's threaded browser build. chuhan-threads.wasm is the native engine loop built for
// wasm32-wasip1-threads: it reads its input from stdin, writes its lines to stdout and starts its search
// threads with the standard library, exactly as natively. chuhan-engine.js (on the page) gives every
// thread of it a Web Worker running this script over one shared memory, and this script is the
// operating system each of them sees: the WASI calls the module imports, answered from the page.
//
// The page starts the first worker (the engine's main thread); when the module starts a thread
// (`wasi.thread-spawn`), its worker asks the page for another one. Every worker is the page's own child,
// so each posts its output straight to the page; lines are numbered as they are written, and the page
// puts them back in that order. The input is a ring in shared memory written by the page, so the
// engine's input thread waits for it with Atomics.wait and `stop` reaches a running search at once.
// Files do not exist here (no preopened directory): EvalFile and tablebases answer that they cannot read.
"use strict";

/** Slots of the control array (Int32Array over a SharedArrayBuffer); chuhan-engine.js uses the same. */
const IN_WRITTEN = 0; // bytes the page has written into the input ring, ever (wrapping at 2^32)
const IN_READ = 1; // bytes the engine has read from it, ever
const OUT_SEQ = 2; // output messages numbered so far
const NEXT_TID = 3; // thread ids given out so far

// WASI error numbers.
const ESUCCESS = 0;
const EBADF = 8;
const EINVAL = 28;
const ESPIPE = 70;
const ENOTCAPABLE = 76;

/** proc_exit: unwinds the module to this worker's top, which reports the code to the page. */
class Exit {
    constructor(code) {
        this.code = code;
    }
}

let memory = null;
let control = null;
let ring = null;
let args = ["chuhan"];
let env = [];
const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
const encoder = new TextEncoder();
// Bytes written to stdout and stderr that do not end a line yet (each thread writes whole lines).
let outTail = "";
let errTail = "";

const view = () => new DataView(memory.buffer);
// A copy, not a view: TextDecoder and crypto refuse views of shared memory.
const copyOut = (ptr, len) => new Uint8Array(memory.buffer, ptr, len).slice();

/** The bytes of an iovec array, one after another. */
function gather(iovs, count) {
    const v = view();
    const parts = [];
    for (let i = 0; i < count; i++) {
        parts.push(copyOut(v.getUint32(iovs + 8 * i, true), v.getUint32(iovs + 8 * i + 4, true)));
    }
    return parts;
}

function fdWrite(fd, iovs, count, writtenPtr) {
    if (fd !== 1 && fd !== 2) {
        return EBADF;
    }
    let n = 0;
    let text = "";
    for (const part of gather(iovs, count)) {
        n += part.length;
        text += decoders[fd].decode(part, { stream: true });
    }
    view().setUint32(writtenPtr, n, true);
    if (fd === 1) {
        const lines = (outTail + text).split("\n");
        outTail = lines.pop();
        if (lines.length > 0) {
            // Numbered here, while the engine's output lock is held: the page's order is the engine's.
            self.postMessage({ chuhanOut: Atomics.add(control, OUT_SEQ, 1), lines });
        }
    } else {
        const lines = (errTail + text).split("\n");
        errTail = lines.pop();
        if (lines.length > 0) {
            self.postMessage({ chuhanErr: lines });
        }
    }
    return ESUCCESS;
}

/** stdin: waits until the page has written something, then takes what fits. */
function fdRead(fd, iovs, count, readPtr) {
    if (fd !== 0) {
        return EBADF;
    }
    let written = Atomics.load(control, IN_WRITTEN);
    let read = Atomics.load(control, IN_READ);
    while (written === read) {
        Atomics.wait(control, IN_WRITTEN, written);
        written = Atomics.load(control, IN_WRITTEN);
    }
    const v = view();
    const bytes = new Uint8Array(memory.buffer);
    let available = (written - read) >>> 0;
    let n = 0;
    for (let i = 0; i < count && available > 0; i++) {
        const ptr = v.getUint32(iovs + 8 * i, true);
        const len = Math.min(v.getUint32(iovs + 8 * i + 4, true), available);
        for (let k = 0; k < len; k++) {
            bytes[ptr + k] = ring[((read + k) >>> 0) % ring.length];
        }
        read = (read + len) | 0;
        available -= len;
        n += len;
    }
    Atomics.store(control, IN_READ, read);
    v.setUint32(readPtr, n, true);
    return ESUCCESS;
}

/** Strings as `args_get`/`environ_get` lay them out: pointers, then the NUL-ended bytes. */
function sizes(list, countPtr, bytesPtr) {
    const v = view();
    v.setUint32(countPtr, list.length, true);
    v.setUint32(bytesPtr, list.reduce((sum, s) => sum + encoder.encode(s).length + 1, 0), true);
    return ESUCCESS;
}

function strings(list, pointersPtr, bufferPtr) {
    const v = view();
    const bytes = new Uint8Array(memory.buffer);
    let at = bufferPtr;
    list.forEach((s, i) => {
        v.setUint32(pointersPtr + 4 * i, at, true);
        const encoded = encoder.encode(s);
        bytes.set(encoded, at);
        bytes[at + encoded.length] = 0;
        at += encoded.length + 1;
    });
    return ESUCCESS;
}

function clockTimeGet(id, _precision, timePtr) {
    // The monotonic clock must agree between threads: each worker's performance.now() counts from its
    // own start, so add its origin (a wall time in ms) to compare across workers.
    const ms = id === 0 ? Date.now() : performance.timeOrigin + performance.now();
    view().setBigUint64(timePtr, BigInt(Math.round(ms * 1e6)), true);
    return ESUCCESS;
}

function randomGet(ptr, len) {
    const bytes = new Uint8Array(memory.buffer);
    for (let at = 0; at < len; at += 65536) {
        const chunk = new Uint8Array(Math.min(65536, len - at));
        crypto.getRandomValues(chunk);
        bytes.set(chunk, ptr + at);
    }
    return ESUCCESS;
}

/** stdin, stdout and stderr are there (and are not terminals); no other descriptor exists. */
function fdFdstatGet(fd, statPtr) {
    if (fd > 2) {
        return EBADF;
    }
    const v = view();
    for (let i = 0; i < 24; i += 4) {
        v.setUint32(statPtr + i, 0, true);
    }
    return ESUCCESS;
}

const stdio = (fd, ok) => (fd <= 2 ? ok : EBADF);

const wasi = {
    args_sizes_get: (countPtr, bytesPtr) => sizes(args, countPtr, bytesPtr),
    args_get: (pointersPtr, bufferPtr) => strings(args, pointersPtr, bufferPtr),
    environ_sizes_get: (countPtr, bytesPtr) => sizes(env, countPtr, bytesPtr),
    environ_get: (pointersPtr, bufferPtr) => strings(env, pointersPtr, bufferPtr),
    clock_time_get: clockTimeGet,
    random_get: randomGet,
    fd_write: fdWrite,
    fd_read: fdRead,
    fd_fdstat_get: fdFdstatGet,
    fd_close: (fd) => stdio(fd, ESUCCESS),
    fd_sync: (fd) => stdio(fd, ESUCCESS),
    fd_seek: (fd) => stdio(fd, ESPIPE),
    fd_filestat_get: () => EBADF,
    fd_filestat_set_size: () => EBADF,
    fd_prestat_get: () => EBADF, // no preopened directory: the end of the list
    fd_prestat_dir_name: () => EBADF,
    path_open: () => ENOTCAPABLE,
    path_filestat_get: () => ENOTCAPABLE,
    path_create_directory: () => ENOTCAPABLE,
    path_rename: () => ENOTCAPABLE,
    sched_yield: () => ESUCCESS,
    proc_exit: (code) => {
        throw new Exit(code);
    },
};

/** wasi.thread-spawn: a new thread id; the page starts its worker, which runs wasi_thread_start. */
function threadSpawn(startArg) {
    const tid = Atomics.add(control, NEXT_TID, 1) + 1;
    if (tid > 0x1fffffff) {
        return -EINVAL;
    }
    self.postMessage({ chuhanSpawn: tid, arg: startArg });
    return tid;
}

// Any WASI call the module may import and this script does not know: fails cleanly.
const imports = {
    env: {},
    wasi: { "thread-spawn": threadSpawn },
    wasi_snapshot_preview1: new Proxy(wasi, { get: (target, name) => target[name] || (() => ENOTCAPABLE) }),
};

/**
 * The page's messages: first { chuhanThread: { module, memory, control, ring, args, env } }, on which this
 * worker instantiates the module and waits (the page keeps such a worker spare, so that a thread starts
 * without waiting for a worker to load); then { chuhanRun: { tid, arg } }: tid 0 is the engine's main
 * thread (`_start`), any other runs `wasi_thread_start(tid, arg)`. Ends with { chuhanEnd: tid, ... }.
 */
let instance = null;
let failure = null;

self.onmessage = (event) => {
    const data = event.data || {};
    if (data.chuhanThread) {
        const start = data.chuhanThread;
        ({ memory, control } = start);
        ring = new Uint8Array(start.ring);
        args = start.args || args;
        env = start.env || env;
        imports.env.memory = memory;
        try {
            instance = new WebAssembly.Instance(start.module, imports);
        } catch (e) {
            failure = String(e);
        }
    } else if (data.chuhanRun) {
        run(data.chuhanRun.tid, data.chuhanRun.arg);
    }
};

function run(tid, arg) {
    let code = 0;
    let error = failure;
    if (instance) {
        try {
            if (tid === 0) {
                instance.exports._start();
            } else {
                instance.exports.wasi_thread_start(tid, arg);
            }
        } catch (e) {
            if (e instanceof Exit) {
                code = e.code;
            } else {
                code = null;
                error = String(e);
            }
        }
    }
    if (outTail) {
        self.postMessage({ chuhanOut: Atomics.add(control, OUT_SEQ, 1), lines: [outTail] });
        outTail = "";
    }
    self.postMessage({ chuhanEnd: tid, code, error, outputs: Atomics.load(control, OUT_SEQ) });
}

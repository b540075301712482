// chuhan's engine for a page, behind the interface of a Web Worker (postMessage/onmessage/terminate).
//
//   import { ChuhanEngine } from "chuhan/chuhan-engine.js";
//   const engine = new ChuhanEngine();                   // or new ChuhanEngine(workerUrl, options)
//   engine.onmessage = (e) => console.log(e.data);       // one line the engine wrote
//   engine.postMessage("setoption name Threads value 4");
//   engine.postMessage("go infinite");                   // one or more UCI/UCCI lines
//   engine.postMessage("stop");                          // answered at once, as natively
//
// Where the page is cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
// `Cross-Origin-Embedder-Policy: require-corp`) and the browser has WebAssembly SIMD, it runs the threaded
// build, chuhan-threads.wasm: the native engine with its own search threads (`Threads`), one Web Worker
// each over one shared memory (chuhan-threads.js); `stop`, `ponderhit` and `isready` reach a running
// search as natively. Elsewhere it runs the one-thread worker (chuhan-worker.js): the search shares the
// worker's only thread, so a plain message waits for the search to end; isolated, this class writes each
// urgent line also into a little memory it shares with that worker, which the search reads every few
// thousand nodes; not isolated, infinite searches end by themselves after ten seconds (`interruptible`).
// A threaded engine that cannot start (its module missing, memory refused) falls back to the worker with
// the lines sent so far.

/** Lines a running search acts on, and their codes in the one-thread worker's shared memory. */
const URGENT = new Map([["stop", 1], ["ponderhit", 2], ["isready", 3]]);
/** Entries of that shared ring; must equal URGENT_RING in chuhan-worker.js. */
const URGENT_RING = 64;

/** Slots of the threaded engine's control array; must equal those in chuhan-threads.js. */
const IN_WRITTEN = 0;
const IN_READ = 1;
const OUT_SEQ = 2;
const CONTROL_SLOTS = 4;
/** Bytes of the threaded engine's input ring (a power of two: positions wrap at 2^32). */
const INPUT_RING = 1 << 20;
/** Workers kept ready (module instantiated) for the next threads the engine starts. */
const SPARE_WORKERS = 2;
/** The threaded module's memory: 64 KiB pages at the start and at most (1 GiB, its own limit). */
const MEMORY_PAGES = 64;
const MEMORY_MAX_PAGES = 16384;

const encoder = new TextEncoder();

/** A module of one function returning a v128 constant: valid only where the browser has SIMD128. */
const SIMD_PROBE = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01,
    0x00, 0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array(16).fill(0), 0x0b,
]);

export class ChuhanEngine {
    /**
     * Starts the engine. `workerUrl`: the one-thread worker (by default chuhan-worker.js beside this
     * file). `options.threads`: false keeps to the one-thread worker even where threads could run;
     * `options.threadsWasm`, `options.threadsScript`: where chuhan-threads.wasm and chuhan-threads.js
     * are (by default beside this file).
     */
    constructor(workerUrl = new URL("chuhan-worker.js", import.meta.url), options = {}) {
        /** Called with a MessageEvent for each line the engine writes. */
        this.onmessage = null;
        this.workerUrl = workerUrl;
        this.worker = null;
        this.control = null;
        this.posted = 0;
        this.threads = null;
        if (options.threads !== false && ChuhanEngine.threadsPossible) {
            this.startThreads(
                options.threadsWasm || new URL("chuhan-threads.wasm", import.meta.url),
                options.threadsScript || new URL("chuhan-threads.js", import.meta.url),
            );
        } else {
            this.startWorker();
        }
    }

    /** Whether this page can run the threaded build: cross-origin isolated, with WebAssembly SIMD. */
    static get threadsPossible() {
        return Boolean(globalThis.crossOriginIsolated) && typeof SharedArrayBuffer === "function" &&
            typeof Atomics === "object" && WebAssembly.validate(SIMD_PROBE);
    }

    /** Whether the threaded build runs (until it fails to start: then false). */
    get threaded() {
        return this.threads !== null;
    }

    /** Whether `stop`, `ponderhit` and `isready` reach a running search. */
    get interruptible() {
        return this.threads !== null || this.control !== null;
    }

    /** Sends one or more lines (separated by "\n"); empty lines are left out. */
    postMessage(text) {
        for (const raw of String(text).split("\n")) {
            const line = raw.trim();
            if (line === "") {
                continue;
            }
            if (this.threads) {
                if (this.threads.sent) {
                    this.threads.sent.push(line);
                }
                this.writeInput(line + "\n");
                continue;
            }
            this.posted += 1;
            this.worker.postMessage(line);
            const kind = URGENT.get(line);
            if (kind && this.control) {
                const count = Atomics.load(this.control, 0);
                Atomics.store(this.control, 1 + (count % URGENT_RING), this.posted * 4 + kind);
                Atomics.store(this.control, 0, count + 1);
                Atomics.notify(this.control, 0);
            }
        }
    }

    /** Ends the engine at once (`quit` ends it after the engine's answer). */
    terminate() {
        if (this.threads) {
            for (const worker of [...this.threads.workers.values(), ...this.threads.spares]) {
                worker.terminate();
            }
            this.threads.workers.clear();
            this.threads.spares = [];
            clearInterval(this.threads.flusher);
            this.threads.ended = true;
        }
        if (this.worker) {
            this.worker.terminate();
        }
    }

    emit(line) {
        if (this.onmessage) {
            this.onmessage(new MessageEvent("message", { data: line }));
        }
    }

    // --- the one-thread worker ---

    startWorker(lines = []) {
        this.worker = new Worker(this.workerUrl);
        this.worker.onmessage = (event) => this.onmessage && this.onmessage(event);
        if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
            this.control = new Int32Array(new SharedArrayBuffer(4 * (1 + URGENT_RING)));
            this.worker.postMessage({ chuhanControl: this.control.buffer });
        }
        for (const line of lines) {
            this.postMessage(line);
        }
    }

    // --- the threaded build ---

    startThreads(wasmUrl, scriptUrl) {
        const t = {
            control: new Int32Array(new SharedArrayBuffer(4 * CONTROL_SLOTS)),
            ring: new Uint8Array(new SharedArrayBuffer(INPUT_RING)),
            backlog: new Uint8Array(0), // input that did not fit in the ring yet
            flusher: null,
            sent: [], // every line, until the engine has started (for the fallback)
            workers: new Map(), // thread id -> its worker
            spares: [], // workers with the module instantiated, waiting for a thread
            start: null, // what every thread's worker is given
            script: scriptUrl,
            nextOut: 0,
            pendingOut: new Map(),
            ended: false,
            exit: null,
        };
        this.threads = t;
        this.loadThreads(wasmUrl).then(
            (module) => {
                if (t.ended) {
                    return;
                }
                const memory = new WebAssembly.Memory({ initial: MEMORY_PAGES, maximum: MEMORY_MAX_PAGES, shared: true });
                // The engine caps `Threads` at the machine's hardware threads, which only the page knows.
                const env = [`CHUHAN_HARDWARE_THREADS=${navigator.hardwareConcurrency || 1}`];
                t.start = { module, memory, control: t.control, ring: t.ring.buffer, args: ["chuhan"], env };
                this.startThread(0, 0);
                t.sent = null;
            },
        ).catch((err) => this.fallBack(err));
    }

    async loadThreads(wasmUrl) {
        const response = await fetch(wasmUrl);
        if (!response.ok) {
            throw new Error(wasmUrl + ": HTTP " + response.status);
        }
        return WebAssembly.compile(await response.arrayBuffer());
    }

    /** The threaded build could not start: the one-thread worker takes the lines sent so far. */
    fallBack(err) {
        const t = this.threads;
        if (!t || t.ended || t.sent === null) {
            return;
        }
        console.warn("chuhan: the threaded build cannot start (" + err + "); one thread instead");
        this.terminate();
        this.threads = null;
        this.startWorker(t.sent);
    }

    /** Runs thread `tid` on a spare worker, and readies another spare for the next thread. */
    startThread(tid, arg) {
        const t = this.threads;
        while (t.spares.length < SPARE_WORKERS + 1) {
            const worker = new Worker(t.script);
            worker.onmessage = (event) => this.fromThread(event.data);
            worker.onerror = (event) => this.stopped("a thread's worker failed: " + (event.message || "error"));
            worker.postMessage({ chuhanThread: t.start });
            t.spares.push(worker);
        }
        const worker = t.spares.shift();
        worker.postMessage({ chuhanRun: { tid, arg } });
        t.workers.set(tid, worker);
    }

    fromThread(message) {
        const t = this.threads;
        if (!t || t.ended) {
            return;
        }
        if (message.chuhanOut !== undefined) {
            // Workers' messages may overtake one another: lines go out in the order they were numbered.
            t.pendingOut.set(message.chuhanOut, message.lines);
            while (t.pendingOut.has(t.nextOut)) {
                const lines = t.pendingOut.get(t.nextOut);
                t.pendingOut.delete(t.nextOut);
                t.nextOut += 1;
                for (const line of lines) {
                    this.emit(line);
                }
            }
            this.endIfDone();
        } else if (message.chuhanSpawn !== undefined) {
            this.startThread(message.chuhanSpawn, message.arg);
        } else if (message.chuhanErr !== undefined) {
            for (const line of message.chuhanErr) {
                console.debug("chuhan: " + line);
            }
        } else if (message.chuhanEnd !== undefined) {
            const worker = t.workers.get(message.chuhanEnd);
            if (worker) {
                worker.terminate();
                t.workers.delete(message.chuhanEnd);
            }
            if (message.error !== null && message.error !== undefined) {
                this.stopped(message.error);
            } else if (message.chuhanEnd === 0 || message.code !== 0) {
                // The engine exited (`quit`): end once every line written before has arrived.
                t.exit = message.outputs;
                this.endIfDone();
            }
        }
    }

    endIfDone() {
        const t = this.threads;
        if (t.exit !== null && t.nextOut >= t.exit) {
            this.terminate();
        }
    }

    /** A trap in the engine (a bug: it never panics on bad input) leaves it unusable. */
    stopped(reason) {
        this.emit("info string chuhan stopped: " + reason);
        this.terminate();
    }

    /** Appends text to the input ring (what does not fit waits in a backlog, retried every 20 ms). */
    writeInput(text) {
        const t = this.threads;
        const bytes = encoder.encode(text);
        const joined = new Uint8Array(t.backlog.length + bytes.length);
        joined.set(t.backlog);
        joined.set(bytes, t.backlog.length);
        t.backlog = joined;
        this.flushInput();
        if (t.backlog.length > 0 && t.flusher === null) {
            t.flusher = setInterval(() => this.flushInput(), 20);
        }
    }

    flushInput() {
        const t = this.threads;
        const written = Atomics.load(t.control, IN_WRITTEN);
        const free = INPUT_RING - ((written - Atomics.load(t.control, IN_READ)) >>> 0);
        const n = Math.min(free, t.backlog.length);
        for (let k = 0; k < n; k++) {
            t.ring[((written + k) >>> 0) % INPUT_RING] = t.backlog[k];
        }
        t.backlog = t.backlog.subarray(n);
        Atomics.store(t.control, IN_WRITTEN, (written + n) | 0);
        Atomics.notify(t.control, IN_WRITTEN);
        if (t.backlog.length === 0 && t.flusher !== null) {
            clearInterval(t.flusher);
            t.flusher = null;
        }
    }
}

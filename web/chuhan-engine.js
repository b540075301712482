// chuhan's engine for a page: the Web Worker (chuhan-worker.js) behind the same postMessage/onmessage
// interface, plus `stop`, `ponderhit` and `isready` that reach a search while it runs.
//
//   import { ChuhanEngine } from "chuhan/chuhan-engine.js";
//   const engine = new ChuhanEngine();                   // or new ChuhanEngine(workerUrl)
//   engine.onmessage = (e) => console.log(e.data);       // one line the engine wrote
//   engine.postMessage("go infinite");                   // one or more UCI/UCCI lines
//   engine.postMessage("stop");                          // answered at once, as natively
//
// The worker searches on its only thread, so a plain message waits for the search to end. Where the page
// is cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
// `Cross-Origin-Embedder-Policy: require-corp`), this class shares a little memory with the worker and
// writes each urgent line there too; the search reads it every few thousand nodes. Elsewhere it is a
// plain worker (infinite searches then end by themselves after ten seconds): see `interruptible`.

/** Lines a running search acts on, and their codes in the shared memory. */
const URGENT = new Map([["stop", 1], ["ponderhit", 2], ["isready", 3]]);
/** Entries of the shared ring; must equal URGENT_RING in chuhan-worker.js. */
const URGENT_RING = 64;

export class ChuhanEngine {
    /** Starts the worker (by default chuhan-worker.js beside this file). */
    constructor(workerUrl = new URL("chuhan-worker.js", import.meta.url)) {
        this.worker = new Worker(workerUrl);
        /** Called with a MessageEvent for each line the engine writes. */
        this.onmessage = null;
        this.worker.onmessage = (event) => this.onmessage && this.onmessage(event);
        this.posted = 0;
        this.control = null;
        if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
            this.control = new Int32Array(new SharedArrayBuffer(4 * (1 + URGENT_RING)));
            this.worker.postMessage({ chuhanControl: this.control.buffer });
        }
    }

    /** Whether `stop`, `ponderhit` and `isready` reach a running search (the page is cross-origin isolated). */
    get interruptible() {
        return this.control !== null;
    }

    /** Sends one or more lines (separated by "\n"); empty lines are left out. */
    postMessage(text) {
        for (const raw of String(text).split("\n")) {
            const line = raw.trim();
            if (line === "") {
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

    /** Ends the worker at once (`quit` ends it after the engine's answer). */
    terminate() {
        this.worker.terminate();
    }
}

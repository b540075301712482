// The conversation with the engine: UCI lines out, searches answered in the order they were asked (they
// queue), each search's info lines parsed as they come.

import { ChuhanEngine } from "../chuhan-engine.js";

/** The fields of a UCI `info` line with a score, or null for other info lines. */
export function parseInfo(line) {
    const t = line.split(" ");
    if (t[0] !== "info" || !t.includes("score")) {
        return null;
    }
    const info = { multipv: 1, pv: [] };
    for (let i = 1; i < t.length; i++) {
        switch (t[i]) {
            case "depth": case "seldepth": case "multipv": case "nodes": case "nps": case "time":
                info[t[i]] = Number(t[++i]);
                break;
            case "score":
                info.score = { kind: t[i + 1], value: Number(t[i + 2]) };
                i += 2;
                if (t[i + 1] === "lowerbound" || t[i + 1] === "upperbound") {
                    info.bound = t[++i];
                }
                break;
            case "wdl":
                info.wdl = [Number(t[i + 1]), Number(t[i + 2]), Number(t[i + 3])];
                i += 3;
                break;
            case "pv":
                info.pv = t.slice(i + 1);
                i = t.length;
                break;
        }
    }
    return info;
}

export class Engine {
    /** Starts the worker at `workerUrl`; `log(line, direction)` sees every line. */
    constructor(workerUrl, log) {
        this.worker = new ChuhanEngine(workerUrl);
        this.log = log || (() => {});
        this.pending = [];
        this.ready = new Promise((resolve) => (this.onUciOk = resolve));
        this.worker.onmessage = (e) => this.receive(String(e.data));
        this.send("uci");
    }

    /** Whether the engine runs the threaded build (several search threads possible). */
    get threaded() {
        return this.worker.threaded;
    }

    send(line) {
        this.log(line, "out");
        this.worker.postMessage(line);
    }

    receive(line) {
        this.log(line, "in");
        if (line === "uciok") {
            this.onUciOk();
            return;
        }
        const search = this.pending[0];
        if (!search) {
            return;
        }
        if (line.startsWith("bestmove")) {
            this.pending.shift();
            const [, best, , ponder] = line.split(" ");
            search.resolve({ best: best === "(none)" ? null : best, ponder: ponder || null, last: search.last });
            return;
        }
        const info = parseInfo(line);
        if (info) {
            if (info.multipv === 1) {
                search.last = info;
            }
            search.onInfo(info);
        }
    }

    /** Sends `lines` (position, options) and `go`; resolves with the best move when the engine answers. */
    search(lines, go, onInfo) {
        return new Promise((resolve) => {
            this.pending.push({ resolve, onInfo, last: null });
            for (const line of lines) {
                this.send(line);
            }
            this.send(go);
        });
    }
}

// Types for the chuhan browser package: the worker (chuhan-worker.js) and the rules service
// (chuhan-rules.js).

/**
 * The engine as a Web Worker: `new Worker(new URL("chuhan/chuhan-worker.js", import.meta.url))`.
 * Send UCI or UCCI lines (one message may hold several, separated by "\n"); every message received is one
 * line the engine wrote, exactly as the native `chuhan` binary writes it on stdout.
 */
export interface ChuhanWorker extends Worker {
    postMessage(lines: string): void;
    onmessage: ((this: Worker, event: MessageEvent<string>) => void) | null;
}

/**
 * The engine for a page (`chuhan/chuhan-engine.js`): the worker behind the same interface, plus `stop`,
 * `ponderhit` and `isready` that reach a running search where the page is cross-origin isolated.
 */
export declare class ChuhanEngine {
    /**
     * Starts the engine: the threaded build where the page is cross-origin isolated and has WebAssembly
     * SIMD, else the one-thread worker (by default chuhan-worker.js beside chuhan-engine.js).
     */
    constructor(workerUrl?: string | URL, options?: ChuhanEngineOptions);
    /** Whether this page can run the threaded build. */
    static readonly threadsPossible: boolean;
    /** Called with each line the engine writes, exactly as the native binary writes it on stdout. */
    onmessage: ((event: MessageEvent<string>) => void) | null;
    /** Whether the threaded build runs (`Threads` then starts that many search threads). */
    readonly threaded: boolean;
    /** Whether stop, ponderhit and isready reach a running search (the page is cross-origin isolated). */
    readonly interruptible: boolean;
    /** Sends one or more UCI/UCCI lines, separated by "\n". */
    postMessage(lines: string): void;
    /** Ends the worker at once. */
    terminate(): void;
}

/** How ChuhanEngine starts. */
export interface ChuhanEngineOptions {
    /** false: the one-thread worker even where the threaded build could run (default true). */
    threads?: boolean;
    /** Where chuhan-threads.wasm is (default: beside chuhan-engine.js). */
    threadsWasm?: string | URL;
    /** Where chuhan-threads.js is (default: beside chuhan-engine.js). */
    threadsScript?: string | URL;
}

/** The referee's answer for a game. */
export interface GameDescription {
    ok: true;
    /** The position after the moves. */
    fen: string;
    turn: "red" | "black";
    /** The side to move is in check. */
    check: boolean;
    /** Legal moves in ICCS coordinates (`h2e2`); empty once the game is over. */
    legal: string[];
    /** The game's moves in Chinese notation (`炮二平五`). */
    moves: string[];
    /** The requested line from the last position, in Chinese notation, up to its first illegal move. */
    line: string[];
    result: "*" | "1-0" | "0-1" | "1/2-1/2";
    /** The rule that ended the game ("ongoing" while it goes on). */
    reason:
        | "ongoing"
        | "checkmate"
        | "stalemate"
        | "perpetual-check"
        | "perpetual-chase"
        | "forbidden-repetition"
        | "repetition-draw"
        | "move-limit"
        | "dead-position"
        | "illegal-move";
    /** What happened, in words (empty while the game goes on). */
    detail: string;
}

/** A request the referee could not use. */
export interface DescriptionError {
    ok: false;
    error: string;
}

/** The rules service. */
export interface Rules {
    /** The game from `fen` (null: the start position) after `moves`, with `line` in Chinese notation. */
    describe(moves: string[], fen?: string | null, line?: string[] | null): GameDescription | DescriptionError;
}

/** Loads chuhan.wasm on the calling thread for the rules service. */
export function loadRules(wasmUrl: string | URL): Promise<Rules>;

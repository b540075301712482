// The rules service for a page: legal moves, moves in Chinese notation and the referee's verdict, answered
// at once from the same chuhan.wasm the worker runs (the worker may be busy searching).
//
//   import { loadRules } from "./chuhan-rules.js";
//   const rules = await loadRules(new URL("chuhan.wasm", import.meta.url));
//   rules.describe(["h2e2", "h9g7"], null, ["h0g2"]);
//   // { ok, fen, turn, check, legal: ["a9a8", ...], moves: ["炮二平五", "马8进7"], line: ["马二进三"],
//   //   result: "*" | "1-0" | "0-1" | "1/2-1/2", reason: "ongoing" | "checkmate" | "perpetual-check" | ...,
//   //   detail: "the verdict in words" }  or  { ok: false, error }

/** Loads the module from `wasmUrl` and returns the service. */
export async function loadRules(wasmUrl) {
    const response = await fetch(wasmUrl);
    if (!response.ok) {
        throw new Error(wasmUrl + ": HTTP " + response.status);
    }
    // The engine's output and clock are not used by the rules service, and it never searches, so nothing
    // interrupts it.
    const imports = {
        env: { chuhan_write_line: () => {}, chuhan_now_ms: () => performance.now(), chuhan_interrupt: () => 0 },
    };
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
    const wasm = instance.exports;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    return {
        /** The game from `fen` (null: the start) after `moves`, with `line` written in Chinese. */
        describe(moves, fen, line) {
            let request = (fen ? "position fen " + fen : "position startpos") + (moves.length ? " moves " + moves.join(" ") : "");
            if (line && line.length) {
                request += "\nline " + line.join(" ");
            }
            const bytes = encoder.encode(request);
            const ptr = wasm.chuhan_input(bytes.length);
            new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
            const len = wasm.chuhan_referee(bytes.length);
            return JSON.parse(decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.chuhan_answer(), len)));
        },
    };
}

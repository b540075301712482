// Drives the page in headless chromium (Debian's, through playwright-core; no browser download).
//
//   node web/test/drive.mjs play  URL OUT_DIR [ENGINE_MOVES]   a game through the board's clicks
//   node web/test/drive.mjs bench URL                          bench in the worker (SIMD128 and portable builds) and in
//                                                              the threaded build (1 and all threads); load to uciok
//   node web/test/drive.mjs lines URL [worker|threads] < INPUT INPUT's lines to the one-thread worker or the threaded
//                                                              build; prints what it writes up to bestmove
//   node web/test/drive.mjs stop  URL                          stop, ponderhit and isready reach a running search, in
//                                                              the threaded build and in the one-thread worker
//
// play: the person's side (Red) clicks the analysis panel's best move on the board, chuhan answers; it
// goes on until chuhan has played ENGINE_MOVES (default 20) moves in one game. Every engine move must be
// in the referee's legal list, the analysis panel must have updated, and the page must report no error.
// The page runs the threaded build with a thread a core (the test fails if it does not).
// Writes OUT_DIR/screenshot.png and OUT_DIR/game.txt (the moves, for a replay by the native binary).
// Exit status 0 only when everything passed.
import { createRequire } from "node:module";
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const { chromium } = require(path.resolve("web/tools/node_modules/playwright-core"));
const [mode, url, outDir, engineMovesArg] = process.argv.slice(2);
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

function fail(message) {
    console.error("web test: FAIL: " + message);
    process.exitCode = 1;
}

async function launch() {
    return chromium.launch({ executablePath: chromiumPath, headless: true, args: ["--no-sandbox"] });
}

async function play(browser) {
    const want = Number(engineMovesArg || 20);
    const page = await browser.newPage({ viewport: { width: 1040, height: 720 } });
    page.on("pageerror", (e) => fail("page error: " + e.message));
    await page.goto(url);
    await page.waitForFunction(() => window.chuhanPage && window.chuhanPage.ready, null, { timeout: 60000 });
    const start = await page.evaluate(() => ({ uciok: window.chuhanPage.uciokMs, threaded: window.chuhanPage.threaded, threads: window.chuhanPage.threads }));
    console.log(`web test: uciok ${Math.round(start.uciok)} ms after navigation; ${start.threaded ? "threaded build, " + start.threads + " search threads" : "one-thread build"}`);
    if (!start.threaded) {
        fail("the cross-origin isolated page did not start the threaded build");
    }
    for (let games = 1; ; games++) {
        for (;;) {
            const s = await page.evaluate(() => ({ moves: window.chuhanPage.state.moves.length, over: window.chuhanPage.state.over, engine: window.chuhanPage.state.engineInGame }));
            if (s.over || s.engine >= want) {
                break;
            }
            // Red's turn: wait for the analysis of this position, then click its best move.
            await page.waitForFunction((n) => window.chuhanPage.analysis.ply === n || window.chuhanPage.state.over, s.moves, { timeout: 60000 });
            const best = await page.evaluate(() => window.chuhanPage.analysis.best);
            if (await page.evaluate(() => window.chuhanPage.state.over)) {
                break;
            }
            await page.click(`[data-square="${best.slice(0, 2)}"]`);
            await page.click(`[data-square="${best.slice(2, 4)}"]`);
            await page.waitForFunction((n) => window.chuhanPage.state.moves.length >= n + 2 || window.chuhanPage.state.over, s.moves, { timeout: 60000 });
        }
        const s = await page.evaluate(() => window.chuhanPage.state);
        console.log(`web test: game ${games}: ${s.moves.length} plies, chuhan played ${s.engineInGame}; ${s.result} ${s.status}`);
        if (s.engineInGame >= want) {
            writeFileSync(path.join(outDir, "game.txt"), s.moves.join(" ") + "\n");
            break;
        }
        if (games === 3) {
            fail(`no game of ${want} engine moves in 3 games`);
            break;
        }
        await page.click("#new-game");
    }
    const probe = await page.evaluate(() => window.chuhanPage);
    const illegal = probe.engineMoves.filter((m) => !m.legal);
    if (illegal.length) {
        fail("illegal engine moves: " + JSON.stringify(illegal));
    }
    if (probe.errors.length) {
        fail("page errors: " + probe.errors.join("; "));
    }
    const lines = await page.locator("#lines li").count();
    const stats = await page.textContent("#search-stats");
    if (probe.analysisUpdates < 10 || lines < 1 || !/depth \d+/.test(stats)) {
        fail(`the analysis panel did not update (${probe.analysisUpdates} updates, ${lines} lines, "${stats}")`);
    }
    console.log(`web test: ${probe.engineMoves.length} engine moves, all legal: ${illegal.length === 0}; analysis updates: ${probe.analysisUpdates}; panel: ${lines} lines, "${stats}"`);
    await page.screenshot({ path: path.join(outDir, "screenshot.png") });
    await controls(page);
}

/** Flip, a pasted FEN, a mate played by dragging and shown in words, take back, a refused FEN. */
async function controls(page) {
    // The board redraws its squares whenever the analysis or the game changes, so a0 can be replaced between
    // the wait and the measurement (boundingBox() is then null): measure again until one attempt sees it.
    const a0 = async () => {
        const square = page.locator('[data-square="a0"]');
        for (let attempt = 0; attempt < 50; attempt++) {
            await square.waitFor();
            const box = await square.boundingBox();
            if (box) {
                return box.y;
            }
            await page.waitForTimeout(20);
        }
        throw new Error("a0 never stayed on the board long enough to be measured");
    };
    const before = await a0();
    await page.click("#flip");
    const flipped = await a0();
    await page.click("#flip");
    if (!(flipped < before && (await a0()) === before)) {
        fail(`flip did not turn the board (a0 at y ${before}, then ${flipped})`);
    }
    // The rook on a9 mates: d8 is the other rook's and e9 faces the red king.
    await page.fill("#fen", "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    await page.click("#set-fen");
    // This move by dragging the rook (the game above was played by clicks).
    await page.dragAndDrop('[data-square="a0"]', '[data-square="a9"]');
    const status = await page.textContent("#status");
    if (!/Red wins: checkmate/.test(status)) {
        fail(`the page did not show the mate in words: "${status}"`);
    }
    await page.click("#take-back");
    const back = await page.evaluate(() => window.chuhanPage.state);
    if (back.moves.length !== 0 || back.over) {
        fail(`take back did not undo the mate: ${JSON.stringify(back)}`);
    }
    await page.fill("#fen", "not a fen");
    await page.click("#set-fen");
    if (!/FEN refused/.test(await page.textContent("#status"))) {
        fail("a bad FEN was not refused in words");
    }
    console.log(`web test: flip, FEN, a mate by drag shown in words ("${status.trim()}"), take back and a refused FEN: checked`);
}

/** Milliseconds from navigation to `uciok`: in a fresh context (cold) and again after a reload (cached). */
async function loadTimes(browser) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const times = [];
    for (let i = 0; i < 2; i++) {
        if (i === 0) {
            await page.goto(url + "?analyse=0");
        } else {
            await page.reload();
        }
        await page.waitForFunction(() => window.chuhanPage && window.chuhanPage.uciokMs !== null, null, { timeout: 60000 });
        times.push(await page.evaluate(() => window.chuhanPage.uciokMs));
    }
    await context.close();
    return times;
}

async function bench(browser) {
    const [cold, cached] = await loadTimes(browser);
    console.log(`web bench: page load to uciok: cold ${Math.round(cold)} ms, cached ${Math.round(cached)} ms`);
    const page = await browser.newPage();
    await page.goto(url + "?analyse=0");
    await page.waitForFunction(() => window.chuhanPage && window.chuhanPage.ready, null, { timeout: 60000 });
    for (const wasm of ["chuhan-simd.wasm", "chuhan.wasm"]) {
        const lines = await benchIn(page, wasm);
        for (const line of lines.slice(-2)) {
            console.log(`web bench: ${wasm === "chuhan.wasm" ? "wasm-portable" : "wasm-simd128"} ${line}`);
        }
    }
    const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
    for (const threads of cores > 1 ? [1, cores] : [1]) {
        const lines = await benchThreaded(page, threads);
        for (const line of lines.slice(-2)) {
            console.log(`web bench: wasm-threads(${threads}) ${line}`);
        }
    }
}

/** The lines of `bench threads N` in the threaded build. */
async function benchThreaded(page, threads) {
    return page.evaluate(async (threads) => {
        const { ChuhanEngine } = await import("../chuhan-engine.js");
        const engine = new ChuhanEngine();
        const out = await new Promise((resolve) => {
            const out = [];
            engine.onmessage = (e) => {
                out.push(e.data);
                if (String(e.data).startsWith("Nodes/second")) {
                    resolve(out);
                }
            };
            engine.postMessage(`bench threads ${threads}`);
        });
        engine.terminate();
        return engine.threaded ? out : ["not threaded"];
    }, threads);
}

/** The lines of `bench` in a worker running `wasm`. */
async function benchIn(page, wasm) {
    return page.evaluate(
        (wasm) =>
            new Promise((resolve) => {
                const worker = new Worker("../chuhan-worker.js?wasm=" + wasm);
                const out = [];
                worker.onmessage = (e) => {
                    out.push(e.data);
                    if (String(e.data).startsWith("Nodes/second")) {
                        resolve(out);
                    }
                };
                worker.postMessage("bench");
            }),
        wasm,
    );
}

/** Prints the lines of the one-thread worker or of the threaded build for the input on stdin, up to its first `bestmove`. */
async function lines(browser, kind) {
    const input = (await new Promise((resolve) => {
        let text = "";
        process.stdin.on("data", (d) => (text += d));
        process.stdin.on("end", () => resolve(text));
    })).trim();
    const page = await browser.newPage();
    await page.goto(url + "?analyse=0");
    await page.waitForFunction(() => window.chuhanPage && window.chuhanPage.ready, null, { timeout: 60000 });
    const out = await page.evaluate(
        async ([input, kind]) => {
            const { ChuhanEngine } = await import("../chuhan-engine.js");
            const worker = kind === "threads" ? new ChuhanEngine() : new Worker("../chuhan-worker.js");
            const out = await new Promise((resolve) => {
                const out = [];
                worker.onmessage = (e) => {
                    out.push(e.data);
                    if (String(e.data).startsWith("bestmove")) {
                        resolve(out);
                    }
                };
                worker.postMessage(input);
            });
            worker.terminate();
            return kind === "threads" && !worker.threaded ? ["the threaded build did not start"] : out;
        },
        [input, kind || "worker"],
    );
    process.stdout.write(out.join("\n") + "\n");
}

/**
 * In the cross-origin isolated page, through chuhan-engine.js: `go infinite` answers `stop` long before the
 * ten-second cap of a search that cannot be interrupted, `go ponder` answers after `ponderhit` within its
 * clock, an `isready` sent during a search is answered during it, and every `isready` gets one `readyok`.
 */
async function stop(browser) {
    for (const threads of [true, false]) {
        await stopIn(browser, threads);
    }
}

async function stopIn(browser, threads) {
    const page = await browser.newPage();
    await page.goto(url + "?analyse=0");
    await page.waitForFunction(() => window.chuhanPage && window.chuhanPage.ready, null, { timeout: 60000 });
    const result = await page.evaluate(async (threads) => {
        const { ChuhanEngine } = await import("../chuhan-engine.js");
        const engine = new ChuhanEngine(new URL("../chuhan-worker.js", location.href), { threads });
        const seen = [];
        let waiter = null;
        engine.onmessage = (e) => {
            seen.push({ line: String(e.data), at: performance.now() });
            if (waiter && waiter.test(String(e.data))) {
                const w = waiter;
                waiter = null;
                w.resolve(performance.now());
            }
        };
        // A line that never comes resolves as never (Infinity) after 15 s, so the checks below fail.
        const until = (re) =>
            new Promise((resolve) => {
                waiter = { test: (l) => re.test(l), resolve };
                setTimeout(() => resolve(Infinity), 15000);
            });
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        engine.postMessage("uci");
        await until(/^uciok$/);
        engine.postMessage("position startpos\ngo infinite");
        await until(/^info depth 6 /);
        const readySent = performance.now();
        engine.postMessage("isready");
        const readyAt = await until(/^readyok$/);
        const bestBeforeReady = seen.some((s) => s.line.startsWith("bestmove"));
        await sleep(200);
        const stopSent = performance.now();
        engine.postMessage("stop");
        const stopAt = await until(/^bestmove /);
        engine.postMessage("position startpos moves h2e2 h9g7\ngo ponder wtime 1000 btime 1000");
        await until(/^info depth 4 /);
        const hitSent = performance.now();
        engine.postMessage("ponderhit");
        const hitAt = await until(/^bestmove /);
        engine.postMessage("isready");
        await until(/^readyok$/);
        const readyoks = seen.filter((s) => s.line === "readyok").length;
        engine.terminate();
        return {
            threaded: engine.threaded,
            isolated: engine.interruptible,
            readyMs: readyAt - readySent,
            bestBeforeReady,
            stopMs: stopAt - stopSent,
            ponderhitMs: hitAt - hitSent,
            readyoks,
        };
    }, threads);
    console.log(`web test: stop: ${JSON.stringify(result)}`);
    if (result.threaded !== threads) {
        fail(threads ? "the threaded build did not start" : "options.threads = false still started the threaded build");
    }
    if (!result.isolated) {
        fail("the page is not cross-origin isolated, so stop cannot reach a running search");
    }
    // The cap of a search that cannot be interrupted is 10 s: these answers must come well before it.
    if (result.bestBeforeReady || result.readyMs > 5000) {
        fail("isready during a search was not answered during it");
    }
    if (result.stopMs > 5000) {
        fail(`go infinite answered stop only after ${Math.round(result.stopMs)} ms`);
    }
    if (result.ponderhitMs > 5000) {
        fail(`go ponder answered ponderhit only after ${Math.round(result.ponderhitMs)} ms`);
    }
    if (result.readyoks !== 2) {
        fail(`two isready were answered by ${result.readyoks} readyok lines`);
    }
}

const browser = await launch();
try {
    if (mode === "play") {
        mkdirSync(outDir, { recursive: true });
        await play(browser);
    } else if (mode === "bench") {
        await bench(browser);
    } else if (mode === "lines") {
        await lines(browser, outDir);
    } else if (mode === "stop") {
        await stop(browser);
    } else {
        fail("usage: drive.mjs play URL OUT_DIR [ENGINE_MOVES] | bench URL | lines URL [worker|threads] < INPUT | stop URL");
    }
} catch (e) {
    fail(String(e && e.stack ? e.stack : e));
} finally {
    await browser.close();
}

// The page's game: who moves, the searches it asks for, and what it shows. The engine worker plays and
// analyses; the rules module (the same wasm, on this thread) gives the legal moves, the Chinese notation
// and the referee's verdicts. URL parameters for tests and links: side=red|black|none, movetime=ms,
// analyse=0|1, analysetime=ms, threads=N.
import { loadRules } from "../chuhan-rules.js";
import { Board } from "./board.js";
import { Engine } from "./engine.js";
import { drawGraph, redCentipawns } from "./graph.js";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const RESULTS = { "1-0": "Red wins", "0-1": "Black wins", "1/2-1/2": "Draw" };
const REASONS = {
    checkmate: "checkmate (将死)",
    stalemate: "no legal move (困毙)",
    "perpetual-check": "perpetual check (长将) is forbidden",
    "perpetual-chase": "perpetual chase (长捉) is forbidden",
    "forbidden-repetition": "a forbidden repetition",
    "repetition-draw": "repetition, both sides allowed",
    "move-limit": "the move limit without a capture",
    "dead-position": "neither side can mate",
    "illegal-move": "an illegal move",
};

for (const id of ["side", "movetime"]) {
    const value = params.get(id);
    if (value !== null && ![...$(id).options].some((o) => o.value === value)) {
        $(id).add(new Option(id === "movetime" ? `${Number(value) / 1000} s` : value, value));
    }
    if (value !== null) {
        $(id).value = value;
    }
}
if (params.has("analyse")) {
    $("analyse").checked = params.get("analyse") !== "0";
}
const analyseTime = Number(params.get("analysetime") || 1000);

/** What tests (and the curious, in the console) can read. */
const probe = { ready: false, uciokMs: null, engineMoves: [], errors: [], analysisUpdates: 0, analysis: { ply: -1, best: null }, log: [] };
window.chuhanPage = probe;

const game = { startFen: null, moves: [], byEngine: [], desc: null, selected: null, version: 0, searched: -1, evals: [], lines: [] };
const board = new Board($("board"), onSquare);
const rules = await loadRules(new URL("../chuhan.wasm", import.meta.url));
const engine = new Engine(new URL("../chuhan-worker.js", import.meta.url), (line, direction) => {
    probe.log.push((direction === "in" ? "< " : "> ") + line);
    if (probe.log.length > 400) {
        probe.log.shift();
    }
    if (direction === "in" && line.startsWith("id name ")) {
        $("engine-state").textContent = line.slice(8);
    }
});
await engine.ready;
probe.uciokMs = performance.now();
$("engine-state").textContent += ` · ready (uciok ${Math.round(probe.uciokMs)} ms after the page opened)`;
engine.send("setoption name UCI_ShowWDL value true");

// Search threads: as many as the machine has (at most 8) where the threaded build runs; one otherwise.
const threadsMax = engine.threaded ? Math.min(8, navigator.hardwareConcurrency || 1) : 1;
for (let n = 2; n <= threadsMax; n++) {
    $("threads").add(new Option(String(n), String(n)));
}
$("threads").value = String(Math.min(threadsMax, Math.max(1, Number(params.get("threads")) || threadsMax)));
$("threads").disabled = threadsMax === 1;
$("threads").title = engine.threaded ? "search threads (Web Workers sharing one memory)"
    : "one thread: the page is not cross-origin isolated or the browser lacks WebAssembly SIMD";
$("threads").onchange = () => {
    probe.threads = Number($("threads").value);
    engine.send(`setoption name Threads value ${probe.threads}`);
};
$("threads").onchange();
probe.threaded = engine.threaded;
$("engine-state").textContent += engine.threaded ? " · threaded build" : " · one-thread build";

function humans() {
    const side = $("side").value;
    return side === "none" ? ["red", "black"] : [side];
}

function positionLine() {
    const base = game.startFen ? "position fen " + game.startFen : "position startpos";
    return game.moves.length ? base + " moves " + game.moves.join(" ") : base;
}

function over() {
    return game.desc.result !== "*";
}

function humanToMove() {
    return !over() && humans().includes(game.desc.turn);
}

/** The game changed: ask the referee, draw, and start the search it needs. */
function update() {
    const desc = rules.describe(game.moves, game.startFen);
    if (!desc.ok) {
        probe.errors.push("referee: " + desc.error);
        $("status").textContent = desc.error;
        return;
    }
    game.desc = desc;
    game.selected = null;
    render();
    schedule();
}

function render() {
    const { desc } = game;
    const targets = game.selected ? desc.legal.filter((m) => m.startsWith(game.selected)).map((m) => m.slice(2)) : [];
    board.draw(desc.fen, game.selected, targets, game.moves[game.moves.length - 1]);
    // One item a move number: Red's move and Black's reply (a game from a FEN may start with Black's).
    const blackFirst = game.startFen !== null && game.startFen.split(" ")[1] === "b";
    const plies = blackFirst ? ["…", ...desc.moves] : desc.moves;
    const items = [];
    for (let i = 0; i < plies.length; i += 2) {
        items.push(Object.assign(document.createElement("li"), { textContent: plies.slice(i, i + 2).join("  ") }));
    }
    $("moves").replaceChildren(...items);
    $("moves").scrollTop = $("moves").scrollHeight;
    let status;
    if (over()) {
        status = `${RESULTS[desc.result]}: ${REASONS[desc.reason] || desc.reason}. ${desc.detail}`;
    } else {
        status = `${desc.turn === "red" ? "Red" : "Black"} to move${desc.check ? ", in check" : ""}`;
        if (!humanToMove()) {
            status += " — chuhan is thinking";
        }
    }
    $("status").textContent = status;
    probe.state = {
        moves: [...game.moves],
        over: over(),
        engineInGame: game.byEngine.filter(Boolean).length,
        result: desc.result,
        status,
    };
    drawGraph($("graph"), game.evals, game.moves.length);
}

function strengthLines() {
    const [kind, value] = $("strength").value.split(":");
    return kind === "elo"
        ? ["setoption name Skill Level value 20", "setoption name UCI_LimitStrength value true", `setoption name UCI_Elo value ${value}`]
        : ["setoption name UCI_LimitStrength value false", `setoption name Skill Level value ${value}`];
}

/** Starts the engine's move or the analysis of the position, once per position. */
function schedule() {
    if (over() || game.searched === game.version) {
        return;
    }
    const version = game.version;
    const ply = game.moves.length;
    const redToMove = game.desc.turn === "red";
    const play = !humans().includes(game.desc.turn);
    if (!play && !$("analyse").checked) {
        return;
    }
    game.searched = version;
    game.lines = [];
    const options = play ? [...strengthLines(), "setoption name MultiPV value 1"] : ["setoption name UCI_LimitStrength value false", "setoption name Skill Level value 20", "setoption name MultiPV value 3"];
    const go = `go movetime ${play ? Number($("movetime").value) : analyseTime}`;
    const legal = game.desc.legal;
    engine.search([...options, positionLine()], go, (info) => version === game.version && showInfo(info, redToMove)).then(({ best, last }) => {
        if (version !== game.version) {
            return;
        }
        game.evals[ply] = redCentipawns(last && last.score, redToMove);
        if (!play) {
            probe.analysis = { ply, best };
            render();
            return;
        }
        const ok = best !== null && legal.includes(best);
        probe.engineMoves.push({ ply, move: best, legal: ok });
        if (!ok) {
            probe.errors.push(`engine move ${best} at ply ${ply} is not legal`);
            $("status").textContent = `chuhan answered ${best}, which is not legal here`;
            return;
        }
        game.moves.push(best);
        game.byEngine.push(true);
        game.version += 1;
        update();
    });
}

function showInfo(info, redToMove) {
    if (!info.score || info.bound) {
        return;
    }
    probe.analysisUpdates += 1;
    game.lines[info.multipv - 1] = info;
    const items = game.lines.filter(Boolean).map((line) => {
        const cp = redCentipawns(line.score, redToMove);
        const score = line.score.kind === "mate" ? `${cp > 0 ? "+" : "-"}M${Math.abs(line.score.value)}` : `${cp > 0 ? "+" : ""}${(cp / 100).toFixed(2)}`;
        const li = document.createElement("li");
        li.innerHTML = `<span class="score"></span>`;
        li.firstChild.textContent = score;
        const chinese = rules.describe(game.moves, game.startFen, line.pv.slice(0, 10));
        li.append(" " + (chinese.ok ? chinese.line.join(" ") : line.pv.join(" ")));
        return li;
    });
    $("lines").replaceChildren(...items);
    if (info.multipv === 1) {
        if (info.wdl) {
            const [w, d, l] = info.wdl;
            const [red, black] = redToMove ? [w, l] : [l, w];
            $("wdl").querySelector(".red").style.width = red / 10 + "%";
            $("wdl").querySelector(".draw").style.width = d / 10 + "%";
            $("wdl").querySelector(".black").style.width = black / 10 + "%";
            $("wdl").title = `Red ${red / 10}% · draw ${d / 10}% · Black ${black / 10}%`;
        }
        const nps = info.nps >= 1e6 ? (info.nps / 1e6).toFixed(2) + " M" : Math.round(info.nps / 1000) + " k";
        $("search-stats").textContent = `depth ${info.depth}/${info.seldepth} · ${info.nodes.toLocaleString("en")} nodes · ${nps}nodes/s`;
    }
}

/** A press or release on a point of the board. */
function onSquare(square, kind) {
    if (!humanToMove()) {
        return;
    }
    const move = game.selected + square;
    if (game.selected && game.selected !== square && game.desc.legal.includes(move)) {
        game.moves.push(move);
        game.byEngine.push(false);
        game.version += 1;
        update();
        return;
    }
    if (kind === "down") {
        game.selected = game.desc.legal.some((m) => m.startsWith(square)) ? square : null;
        render();
    }
}

function newGame(fen) {
    game.startFen = fen;
    game.moves = [];
    game.byEngine = [];
    game.evals = [];
    game.version += 1;
    update();
}

$("new-game").onclick = () => newGame(null);
$("flip").onclick = () => {
    board.flipped = !board.flipped;
    render();
};
$("take-back").onclick = () => {
    if (game.moves.length === 0) {
        return;
    }
    game.moves.pop();
    game.byEngine.pop();
    // Back to a position where a person moves (the engine's reply goes too).
    while (game.moves.length > 0 && !humans().includes(rules.describe(game.moves, game.startFen).turn)) {
        game.moves.pop();
        game.byEngine.pop();
    }
    game.evals.length = game.moves.length + 1;
    game.version += 1;
    update();
};
$("set-fen").onclick = () => {
    const fen = $("fen").value.trim();
    const desc = rules.describe([], fen);
    if (desc.ok) {
        newGame(fen);
    } else {
        $("status").textContent = "FEN refused: " + desc.error;
    }
};
for (const id of ["side", "analyse"]) {
    $(id).onchange = () => {
        game.version += 1;
        update();
    };
}

update();
probe.ready = true;

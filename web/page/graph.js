// The evaluation over the game: one point per position, from Red's side, clamped at ±10 pawns (mates
// at the edge), drawn into an SVG polyline.
const NS = "http://www.w3.org/2000/svg";
const CLAMP = 1000;

/** A score from the engine (side to move) as Red's centipawns, clamped for the graph. */
export function redCentipawns(score, redToMove) {
    if (!score) {
        return null;
    }
    const cp = score.kind === "mate" ? Math.sign(score.value || -1) * CLAMP : Math.max(-CLAMP, Math.min(CLAMP, score.value));
    return redToMove ? cp : -cp;
}

/** Draws `evals` (by ply, null where unknown) into `svg`, the last `plies` positions of the game. */
export function drawGraph(svg, evals, plies) {
    const [w, h] = [300, 80];
    svg.replaceChildren();
    const zero = document.createElementNS(NS, "line");
    Object.entries({ x1: 0, y1: h / 2, x2: w, y2: h / 2, stroke: "#aaa", "stroke-width": 1 }).forEach(([k, v]) => zero.setAttribute(k, v));
    svg.appendChild(zero);
    const n = Math.max(plies, 2);
    const points = [];
    for (let i = 0; i <= plies; i++) {
        if (evals[i] !== undefined && evals[i] !== null) {
            points.push(`${(i / n) * w},${h / 2 - (evals[i] / CLAMP) * (h / 2 - 2)}`);
        }
    }
    const line = document.createElementNS(NS, "polyline");
    Object.entries({ points: points.join(" "), fill: "none", stroke: "#b22", "stroke-width": 2 }).forEach(([k, v]) => line.setAttribute(k, v));
    svg.appendChild(line);
}

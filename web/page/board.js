// The board in SVG: the grid with the river and the palaces, the pieces as their traditional characters,
// and one invisible target per point that reports clicks and drags as squares ("e3").
const NS = "http://www.w3.org/2000/svg";
const CELL = 60;
const MARGIN = 40;
const FILES = "abcdefghi";
/** The characters of each FEN letter: red upper case, black lower case. */
const CHARACTERS = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵", k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };

function element(name, attributes, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attributes)) {
        e.setAttribute(k, v);
    }
    if (parent) {
        parent.appendChild(e);
    }
    return e;
}

/** The pieces of a FEN's board part, by square. */
export function piecesOf(fen) {
    const pieces = new Map();
    fen.split(" ")[0].split("/").forEach((row, i) => {
        let file = 0;
        for (const ch of row) {
            if (ch >= "1" && ch <= "9") {
                file += Number(ch);
            } else {
                pieces.set(FILES[file] + (9 - i), ch);
                file += 1;
            }
        }
    });
    return pieces;
}

export class Board {
    /** A board in `container`; `onSquare(square, "down" | "up")` hears presses and releases. */
    constructor(container, onSquare) {
        this.flipped = false;
        this.onSquare = onSquare;
        this.svg = element("svg", { viewBox: `0 0 ${2 * MARGIN + 8 * CELL} ${2 * MARGIN + 9 * CELL}` });
        container.appendChild(this.svg);
        this.svg.addEventListener("pointerup", (e) => {
            // A drag ends over another point than it began: find the point under the pointer.
            const hit = document.elementFromPoint(e.clientX, e.clientY);
            if (hit && hit.dataset && hit.dataset.square) {
                this.onSquare(hit.dataset.square, "up");
            }
        });
    }

    /** Where the point `square` is drawn. */
    point(square) {
        const file = FILES.indexOf(square[0]);
        const rank = Number(square.slice(1));
        const col = this.flipped ? 8 - file : file;
        const row = this.flipped ? rank : 9 - rank;
        return [MARGIN + col * CELL, MARGIN + row * CELL];
    }

    /** Draws `fen` with `selected` (a square or null), the `targets` it may go to and the `last` move. */
    draw(fen, selected, targets, last) {
        this.svg.replaceChildren();
        this.drawGrid();
        const pieces = piecesOf(fen);
        if (last) {
            for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
                const [x, y] = this.point(sq);
                element("rect", { class: "last", x: x - 28, y: y - 28, width: 56, height: 56, rx: 6 }, this.svg);
            }
        }
        for (const [sq, letter] of pieces) {
            const [x, y] = this.point(sq);
            const red = letter === letter.toUpperCase();
            const g = element("g", { class: `piece ${red ? "red" : "black"}${sq === selected ? " selected" : ""}` }, this.svg);
            element("circle", { cx: x, cy: y, r: 26 }, g);
            const t = element("text", { x, y }, g);
            t.textContent = CHARACTERS[letter];
        }
        for (const sq of targets) {
            const [x, y] = this.point(sq);
            element("circle", { class: "target", cx: x, cy: y, r: 7 }, this.svg);
        }
        for (let f = 0; f < 9; f++) {
            for (let r = 0; r < 10; r++) {
                const sq = FILES[f] + r;
                const [x, y] = this.point(sq);
                const hit = element("rect", { class: "hit", x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, "data-square": sq }, this.svg);
                hit.addEventListener("pointerdown", (e) => {
                    e.preventDefault();
                    this.onSquare(sq, "down");
                });
            }
        }
    }

    drawGrid() {
        const g = element("g", { class: "grid" }, this.svg);
        const [x0, x1] = [MARGIN, MARGIN + 8 * CELL];
        const [y0, y1] = [MARGIN, MARGIN + 9 * CELL];
        for (let r = 0; r < 10; r++) {
            element("line", { x1: x0, y1: y0 + r * CELL, x2: x1, y2: y0 + r * CELL }, g);
        }
        for (let f = 0; f < 9; f++) {
            const x = x0 + f * CELL;
            if (f === 0 || f === 8) {
                element("line", { x1: x, y1: y0, x2: x, y2: y1 }, g);
            } else {
                // Inner files stop at the river.
                element("line", { x1: x, y1: y0, x2: x, y2: y0 + 4 * CELL }, g);
                element("line", { x1: x, y1: y0 + 5 * CELL, x2: x, y2: y1 }, g);
            }
        }
        for (const top of [y0, y0 + 7 * CELL]) {
            const [l, r] = [x0 + 3 * CELL, x0 + 5 * CELL];
            element("line", { x1: l, y1: top, x2: r, y2: top + 2 * CELL }, g);
            element("line", { x1: r, y1: top, x2: l, y2: top + 2 * CELL }, g);
        }
        const y = y0 + 4.5 * CELL;
        const left = element("text", { class: "river", x: x0 + 2 * CELL, y, "text-anchor": "middle", "dominant-baseline": "central" }, this.svg);
        left.textContent = "楚 河";
        const right = element("text", { class: "river", x: x0 + 6 * CELL, y, "text-anchor": "middle", "dominant-baseline": "central" }, this.svg);
        right.textContent = "汉 界";
    }
}

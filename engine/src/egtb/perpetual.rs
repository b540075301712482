//! The perpetual-check rule on the positions plain retrograde analysis leaves undecided.
//!
//! Those positions form a game graph: from each, the side to move has moves to other undecided positions,
//! and "exits" to positions whose value is known (a capture into a smaller table, or a decided position of
//! this table). Play that stays in the graph forever is judged by docs/rules.md, art. 26.1: a side that,
//! from some point on, checks on every one of its moves while the other does not, loses; both checking
//! for ever, or neither, is a draw. The chase rules (arts. 27-29) are not modelled.
//!
//! For a side `c`, the positions from which its opponent `d` can force "c checks on every move from some
//! point on, d does not" (or reach a position already won for `d`) are a one-pair Rabin condition,
//! FG(c checks) and GF(d does not check), solved by the nested fixed point
//!   W = μZ. νX. μY. CPre_d(edges into Z or to a win for d, d's quiet edges into X, checking edges into Y)
//! where `CPre_d` holds at a `d` node when some move qualifies and at a `c` node when every move does.
//! `W` for Red and `W` for Black are disjoint (their winning conditions contradict), and everything else in
//! the graph is a draw.
//!
//! Order, not plies: a position the rule decides gets the round `k` of the outer fixed point μZ that first
//! holds it and its layer `r` in that round's attractor μY (0 for a node whose own edges already qualify),
//! packed as `k << 8 | r` (see [`pack`]). Along the winner's strategy this standing never rises: the loser's
//! quiet moves lead to a lower round; within a round the winner's checks and the loser's checks lead to a
//! lower layer, and the winner's quiet moves may go anywhere in the round (the loser must then check on and
//! on, which the rule punishes). So the winner converts by choosing, among moves into rule losses, the lowest
//! round, then a quiet move, then the lowest layer ([`super::probe::order_moves`]); taking the lowest number
//! alone could let the loser slip out of the rule by checking only every other move. See docs/rules.md,
//! "Endgame tablebases".

use super::table::Wdl;
use crate::types::Color;

/// Marks an edge that leaves the graph.
pub const EXTERNAL: u32 = u32::MAX;

/// Where a move leads, and whether it gives check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The node it reaches, or [`EXTERNAL`].
    pub to: u32,
    /// Whether the move gives check.
    pub check: bool,
    /// For an external edge: its value for the side that plays it, and the plies to mate after it.
    pub exit: (Wdl, u16),
}

/// The undecided positions and their moves.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// The side to move in each node.
    pub mover: Vec<Color>,
    /// Node `v`'s edges are `edges[start[v]..start[v + 1]]`.
    pub start: Vec<usize>,
    /// All edges.
    pub edges: Vec<Edge>,
}

impl Graph {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.mover.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.mover.is_empty()
    }

    fn out(&self, v: usize) -> &[Edge] {
        &self.edges[self.start[v]..self.start[v + 1]]
    }
}

/// What the rule decides for one node: result for the side to move and its packed standing ([`pack`]).
pub type Decision = Option<(Wdl, u16)>;

/// The most rounds and layers [`pack`] holds: rounds 1..=126, layers 0..=255 (so that the generator's
/// codes, 3 + 2 × the number, stay within 16 bits and the table's flag bit stays free).
pub const MAX_ROUND: u32 = 126;
/// See [`MAX_ROUND`].
pub const MAX_LAYER: u32 = 255;

/// A node's standing as one number that orders like (round, layer); `None` when it does not fit.
pub fn pack(round: u32, layer: u32) -> Option<u16> {
    (round <= MAX_ROUND && layer <= MAX_LAYER).then_some((round << 8 | layer) as u16)
}

/// The round of a packed standing.
pub fn round_of(packed: u16) -> u16 {
    packed >> 8
}

/// Where the fixed point placed a decided node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Standing {
    round: u32,
    layer: u32,
}

/// The rule's standings need more rounds or layers than [`pack`] holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The most rounds seen.
    pub rounds: u32,
    /// The most layers seen.
    pub layers: u32,
}

/// Reverse adjacency: for each node, (predecessor, edge number).
struct Reverse {
    start: Vec<usize>,
    list: Vec<(u32, u32)>,
}

fn reverse(g: &Graph) -> Reverse {
    let n = g.len();
    let mut start = vec![0usize; n + 1];
    for e in &g.edges {
        if e.to != EXTERNAL {
            start[e.to as usize + 1] += 1;
        }
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut list = vec![(0u32, 0u32); start[n]];
    for v in 0..n {
        for ei in g.start[v]..g.start[v + 1] {
            let e = g.edges[ei];
            if e.to != EXTERNAL {
                list[fill[e.to as usize]] = (v as u32, ei as u32);
                fill[e.to as usize] += 1;
            }
        }
    }
    Reverse { start, list }
}

/// Decides every node of `g` under the perpetual-check rule: `None` stays a draw.
pub fn solve(g: &Graph) -> Result<Vec<Decision>, TooDeep> {
    let rev = reverse(g);
    let mut out: Vec<Decision> = vec![None; g.len()];
    let mut deepest = TooDeep { rounds: 0, layers: 0 };
    for c in Color::ALL {
        let checks = (0..g.len()).any(|v| g.mover[v] == c && g.out(v).iter().any(|e| e.check));
        if !checks {
            continue;
        }
        for (v, standing) in won_against(g, &rev, c).into_iter().enumerate() {
            let Some(st) = standing else { continue };
            debug_assert!(out[v].is_none(), "a node lost for both sides");
            deepest.rounds = deepest.rounds.max(st.round);
            deepest.layers = deepest.layers.max(st.layer);
            let packed = pack(st.round, st.layer).unwrap_or(0);
            out[v] = Some((if g.mover[v] == c { Wdl::Loss } else { Wdl::Win }, packed));
        }
    }
    if pack(deepest.rounds, deepest.layers).is_none() {
        return Err(deepest);
    }
    Ok(out)
}

/// The nodes from which `c`'s opponent forces a loss of `c` by the rule (or into a position won for it),
/// with their standings.
fn won_against(g: &Graph, rev: &Reverse, c: Color) -> Vec<Option<Standing>> {
    let n = g.len();
    let mut z = vec![false; n];
    let mut standing: Vec<Option<Standing>> = vec![None; n];
    let mut scratch =
        Scratch { y: vec![false; n], pending: vec![0; n], layer: vec![0; n], queue: Vec::new() };
    let candidates = candidates(g, rev, c);
    for round in 1.. {
        // νX, from the candidates down: each X is the attractor computed inside the previous one, so the
        // attractor need only look at the nodes still in X (the sequence only shrinks).
        let mut x = candidates.clone();
        let mut members: Vec<u32> = (0..n as u32).filter(|&v| x[v as usize]).collect();
        loop {
            attractor(g, rev, c, &z, &x, &members, &mut scratch);
            let kept: Vec<u32> = members.iter().copied().filter(|&v| scratch.y[v as usize]).collect();
            for &v in &members {
                scratch.y[v as usize] = false;
            }
            if kept.len() == members.len() {
                break;
            }
            for &v in &members {
                x[v as usize] = false;
            }
            for &v in &kept {
                x[v as usize] = true;
            }
            members = kept;
        }
        // The last attractor ran over X itself: its layers are the new nodes' standings in this round.
        for &v in &members {
            let v = v as usize;
            if !z[v] {
                standing[v] = Some(Standing { round, layer: scratch.layer[v] });
            }
        }
        if x == z {
            break;
        }
        z = x;
    }
    standing
}

/// The nodes that might be lost for `c` by the rule: all but those from which `c` can always step, without
/// checking, into a drawn exit or another such node, and those of the opponent whose every move leads to
/// such nodes or to exits it does not win. Cuts the fixed point down to where `c` can be held to checks.
fn candidates(g: &Graph, rev: &Reverse, c: Color) -> Vec<bool> {
    let n = g.len();
    let never = |v: usize, e: &Edge| -> bool {
        e.to == EXTERNAL && if g.mover[v] == c { e.exit.0 != Wdl::Loss } else { e.exit.0 != Wdl::Win }
    };
    // Safe nodes never enter the opponent's winning region; found by propagation from the exits.
    let mut safe = vec![false; n];
    let mut pending = vec![0u32; n];
    let mut queue = Vec::new();
    for v in 0..n {
        if g.mover[v] == c {
            if g.out(v).iter().any(|e| !e.check && never(v, e)) {
                safe[v] = true;
                queue.push(v);
            }
        } else {
            pending[v] = g.out(v).iter().filter(|e| !never(v, e)).count() as u32;
            if pending[v] == 0 {
                safe[v] = true;
                queue.push(v);
            }
        }
    }
    while let Some(v) = queue.pop() {
        for &(u, ei) in &rev.list[rev.start[v]..rev.start[v + 1]] {
            let u = u as usize;
            if safe[u] {
                continue;
            }
            if g.mover[u] == c {
                if !g.edges[ei as usize].check {
                    safe[u] = true;
                    queue.push(u);
                }
            } else {
                pending[u] -= 1;
                if pending[u] == 0 {
                    safe[u] = true;
                    queue.push(u);
                }
            }
        }
    }
    safe.into_iter().map(|s| !s).collect()
}

/// Buffers reused by every attractor computation.
struct Scratch {
    y: Vec<bool>,
    pending: Vec<u32>,
    /// Each node's layer in the last attractor that held it.
    layer: Vec<u32>,
    queue: Vec<usize>,
}

/// μY. CPre_d(edges into `z` or to a decided win for d, d's non-checking edges into `x`, c's checking
/// edges and any d edge into Y), for d the opponent of `c`, computed over `members` (the nodes of `x`):
/// leaves the result in `s.y`, set only on members, and each node's layer in `s.layer`. Breadth first, so
/// a node of `d` lies one layer above its lowest move into Y and a node of `c` one above its highest check.
fn attractor(g: &Graph, rev: &Reverse, c: Color, z: &[bool], x: &[bool], members: &[u32], s: &mut Scratch) {
    let base = |mover: Color, e: &Edge| -> bool {
        if e.to == EXTERNAL {
            // A move into a known position helps d only if d wins there.
            return if mover == c { e.exit.0 == Wdl::Loss } else { e.exit.0 == Wdl::Win };
        }
        z[e.to as usize] || (mover != c && !e.check && x[e.to as usize])
    };
    const BLOCKED: u32 = u32::MAX;
    s.queue.clear();
    for &v in members {
        let v = v as usize;
        let mover = g.mover[v];
        if mover != c {
            if g.out(v).iter().any(|e| base(mover, e)) {
                s.y[v] = true;
                s.layer[v] = 0;
                s.queue.push(v);
            }
            continue;
        }
        let mut p = 0;
        for e in g.out(v) {
            if base(mover, e) {
                continue;
            }
            if e.check && e.to != EXTERNAL {
                p += 1;
            } else {
                p = BLOCKED;
                break;
            }
        }
        s.pending[v] = p;
        if p == 0 {
            s.y[v] = true;
            s.layer[v] = 0;
            s.queue.push(v);
        }
    }
    let mut head = 0;
    while head < s.queue.len() {
        let v = s.queue[head];
        head += 1;
        for &(u, ei) in &rev.list[rev.start[v]..rev.start[v + 1]] {
            let u = u as usize;
            if s.y[u] || !x[u] {
                continue;
            }
            let mover = g.mover[u];
            if mover != c {
                s.y[u] = true;
                s.layer[u] = s.layer[v] + 1;
                s.queue.push(u);
                continue;
            }
            let e = &g.edges[ei as usize];
            if s.pending[u] == BLOCKED || base(mover, e) || !e.check {
                continue;
            }
            s.pending[u] -= 1;
            if s.pending[u] == 0 {
                s.y[u] = true;
                s.layer[u] = s.layer[v] + 1;
                s.queue.push(u);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(nodes: &[(Color, &[(u32, bool)])]) -> Graph {
        let mut g = Graph::default();
        for &(mover, edges) in nodes {
            g.start.push(g.edges.len());
            g.mover.push(mover);
            for &(to, check) in edges {
                g.edges.push(Edge { to, check, exit: (Wdl::Draw, 0) });
            }
        }
        g.start.push(g.edges.len());
        g
    }

    #[test]
    fn one_sided_perpetual_check_loses() {
        use Color::*;
        // Red checks (0 -> 1), Black steps aside quietly (1 -> 0): Red is held only by checking.
        let g = graph(&[(Red, &[(1, true)]), (Black, &[(0, false)])]);
        // Black's quiet move qualifies at once (layer 0); Red's only move, a check, leads there (layer 1).
        let standing = |layer| pack(1, layer).unwrap();
        assert_eq!(solve(&g), Ok(vec![Some((Wdl::Loss, standing(1))), Some((Wdl::Win, standing(0)))]));
    }

    #[test]
    fn mutual_checks_and_quiet_cycles_draw() {
        use Color::*;
        let both = graph(&[(Red, &[(1, true)]), (Black, &[(0, true)])]);
        assert_eq!(solve(&both), Ok(vec![None, None]));
        let quiet = graph(&[(Red, &[(1, false)]), (Black, &[(0, false)])]);
        assert_eq!(solve(&quiet), Ok(vec![None, None]));
    }

    #[test]
    fn a_quiet_alternative_or_an_exit_saves_the_checker() {
        use Color::*;
        // Red may check (-> 1) or play quietly (-> 2); from 2 Black can only return quietly.
        let g = graph(&[(Red, &[(1, true), (2, false)]), (Black, &[(0, false)]), (Black, &[(0, false)])]);
        assert_eq!(solve(&g), Ok(vec![None, None, None]));
        let mut exit = graph(&[(Red, &[(1, true)]), (Black, &[(0, false)])]);
        exit.start[1] = 2;
        exit.edges.insert(1, Edge { to: EXTERNAL, check: false, exit: (Wdl::Draw, 0) });
        exit.start[2] = 3;
        assert_eq!(solve(&exit), Ok(vec![None, None]));
    }

    #[test]
    fn the_winner_must_not_check_for_ever_itself() {
        use Color::*;
        // Black answers Red's checks with a check (node 1) or a quiet move (node 2) and may pick.
        let g = graph(&[
            (Red, &[(1, true)]),
            (Black, &[(0, true), (2, false)]),
            (Red, &[(3, true)]),
            (Black, &[(0, false)]),
        ]);
        let s = solve(&g).unwrap();
        assert!(s.iter().all(|d| d.is_some()), "{s:?}");
        assert_eq!(s[0].map(|d| d.0), Some(Wdl::Loss));
        assert_eq!(s[1].map(|d| d.0), Some(Wdl::Win));
    }

    #[test]
    fn the_winner_is_led_to_the_lower_round_not_into_a_check_and_idle_cycle() {
        use Color::*;
        // Red (to win) may go 0 -> 1, where Black checks (-> 2), Red must step (-> 3) and Black returns
        // quietly (-> 0): one check, one idle move, a draw if Red keeps doing it. Or 0 -> 4, where Black can
        // only check (-> 5) and Red steps back quietly (-> 4): Black checks for ever and loses. Counting
        // only Black's quiet moves, node 1 looks closer (it has none); the rounds say 4 is the way.
        let g = graph(&[
            (Red, &[(1, false), (4, false)]),
            (Black, &[(2, true)]),
            (Red, &[(3, false)]),
            (Black, &[(0, false)]),
            (Black, &[(5, true)]),
            (Red, &[(4, false)]),
        ]);
        let s = solve(&g).unwrap();
        assert!(s.iter().all(|d| d.is_some()), "{s:?}");
        let round = |v: usize| round_of(s[v].unwrap().1);
        assert_eq!((round(0), round(4), round(5)), (1, 1, 1));
        assert_eq!((round(1), round(2), round(3)), (2, 2, 2));
        assert_eq!(s[1].unwrap().0, Wdl::Loss);
        assert_eq!(s[4].unwrap().0, Wdl::Loss);
    }

    #[test]
    fn standings_pack_in_order_and_refuse_what_does_not_fit() {
        assert!(pack(1, 255) < pack(2, 0));
        assert!(pack(2, 0) < pack(2, 1));
        assert_eq!(round_of(pack(37, 200).unwrap()), 37);
        assert_eq!(pack(MAX_ROUND + 1, 0), None);
        assert_eq!(pack(1, MAX_LAYER + 1), None);
        let top = u32::from(pack(MAX_ROUND, MAX_LAYER).unwrap());
        assert!(3 + 2 * top <= u32::from(u16::MAX) && top < 0x8000);
    }
}

//! Tablebase checks on small materials: every position against a plain search to mate, the tables'
//! own consistency, the mirror and colour symmetries, and the perpetual-check rule against the referee.

use engine::egtb::{generate_all, Material, Rules, TableSet, Verdict, Wdl};
use engine::fen::square_allowed;
use engine::rules::{Judgement, Reason, Referee};

use engine::{Color, Piece, Position, Square};
use std::collections::HashMap;

fn tables(names: &[&str], rules: Rules) -> TableSet {
    let targets: Vec<Material> = names.iter().map(|n| n.parse().expect("material")).collect();
    generate_all(&targets, rules, |_, _| {}).expect("generation")
}

/// Every legal position of a material (both sides to move), built from FEN text so that no code of the
/// generator is involved.
fn all_positions(material: &Material) -> Vec<Position> {
    let pieces = material.pieces();
    let mut out = Vec::new();
    let mut squares = vec![0usize; pieces.len()];
    fn rec(i: usize, pieces: &[Piece], squares: &mut Vec<usize>, out: &mut Vec<Position>) {
        if i == pieces.len() {
            let mut board = [None; 90];
            for (p, &s) in pieces.iter().zip(squares.iter()) {
                board[s] = Some(*p);
            }
            let mut rows = Vec::new();
            for r in (0..10).rev() {
                let mut row = String::new();
                let mut gap = 0;
                for f in 0..9 {
                    match board[r * 9 + f] {
                        Some(p) => {
                            if gap > 0 {
                                row.push_str(&gap.to_string());
                                gap = 0;
                            }
                            row.push(p.to_char());
                        }
                        None => gap += 1,
                    }
                }
                if gap > 0 {
                    row.push_str(&gap.to_string());
                }
                rows.push(row);
            }
            for side in ["w", "b"] {
                if let Ok(p) = Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))) {
                    out.push(p);
                }
            }
            return;
        }
        for s in 0..90 {
            let sq = Square::new(s as u8).unwrap();
            if !square_allowed(pieces[i], sq) || squares[..i].contains(&s) {
                continue;
            }
            // Like pieces in increasing order: each set of points once.
            if i > 0 && pieces[i - 1] == pieces[i] && squares[i - 1] > s {
                continue;
            }
            squares[i] = s;
            rec(i + 1, pieces, squares, out);
        }
    }
    rec(0, &pieces, &mut squares, &mut out);
    out
}

/// A plain forward search to mate, memoised by position and depth: `wins(p, n)` when the side to move
/// mates within `n` plies whatever the defence; `loses(p, n)` when it is mated within `n` plies.
#[derive(Default)]
struct MateSearch {
    memo: HashMap<(u64, u16, bool), bool>,
}

impl MateSearch {
    fn wins(&mut self, pos: &mut Position, n: u16) -> bool {
        if n == 0 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), n, true)) {
            return v;
        }
        let mut found = false;
        for &m in pos.legal_moves().as_slice() {
            pos.make_move(m);
            let lost = self.loses(pos, n - 1);
            pos.unmake_move();
            if lost {
                found = true;
                break;
            }
        }
        self.memo.insert((pos.key(), n, true), found);
        found
    }

    fn loses(&mut self, pos: &mut Position, n: u16) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if n < 2 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), n, false)) {
            return v;
        }
        let mut all = true;
        for &m in moves.as_slice() {
            pos.make_move(m);
            let won = self.wins(pos, n - 1);
            pos.unmake_move();
            if !won {
                all = false;
                break;
            }
        }
        self.memo.insert((pos.key(), n, false), all);
        all
    }
}

fn verdict(set: &TableSet, pos: &Position) -> Verdict {
    set.probe(pos).unwrap_or_else(|| panic!("no verdict for {}", pos.to_fen()))
}

/// Every position of `name` against the plain search.
fn check_against_search(name: &str, draw_depth: u16) {
    let set = tables(&[name], Rules::Chinese);
    let material: Material = name.parse().unwrap();
    let positions = all_positions(&material);
    let max = positions.iter().map(|p| verdict(&set, p).dtm).max().unwrap_or(0);
    // Draws are searched at least this deep, so that a table of draws is still checked for mates.
    let deep = (max + 2).max(draw_depth);
    let mut search = MateSearch::default();
    let mut counts = [0usize; 3];
    for p in &positions {
        let v = verdict(&set, p);
        let mut p = p.clone();
        let fen = p.to_fen();
        match v.wdl {
            Wdl::Win => {
                counts[0] += 1;
                assert!(search.wins(&mut p, v.dtm), "{name} {fen}: table win {} not found", v.dtm);
                assert!(!search.wins(&mut p, v.dtm - 1), "{name} {fen}: win in {} is shorter", v.dtm);
            }
            Wdl::Loss => {
                counts[2] += 1;
                assert!(search.loses(&mut p, v.dtm), "{name} {fen}: table loss {} not forced", v.dtm);
                assert!(
                    v.dtm < 2 || !search.loses(&mut p, v.dtm - 2),
                    "{name} {fen}: loss in {} is shorter",
                    v.dtm
                );
            }
            Wdl::Draw => {
                counts[1] += 1;
                assert!(!search.wins(&mut p, deep), "{name} {fen}: table draw but a mate exists");
                assert!(!search.loses(&mut p, deep), "{name} {fen}: table draw but it is mated");
            }
        }
        assert!(!v.perpetual, "{name} {fen}: no checks here, so no perpetual check");
    }
    assert!(!positions.is_empty());
    eprintln!("{name}: {} positions, {counts:?} (win, draw, loss), longest {max} plies", positions.len());
}

#[test]
fn krk_matches_a_plain_search() {
    check_against_search("KRK", 12);
}

#[test]
fn kpk_matches_a_plain_search() {
    check_against_search("KPK", 12);
}

#[test]
fn knka_matches_a_plain_search() {
    check_against_search("KNKA", 6);
}

#[test]
fn knk_and_kcka_match_a_plain_search() {
    check_against_search("KNK", 12);
    check_against_search("KCKA", 9);
}

/// Each win has a move to a loss one ply shorter and none to a shorter one, each draw a drawing move and
/// no winning one, each loss only moves into wins (the longest one ply shorter, or for a perpetual-check
/// loss the longest non-checking one), and mirrored and colour-swapped positions agree.
fn check_consistency(set: &TableSet, name: &str, step: usize) -> usize {
    let material: Material = name.parse().unwrap();
    check_positions(set, name, all_positions(&material).into_iter().step_by(step))
}

/// [`check_consistency`] on the given positions of `name`; returns how many the rule decides.
fn check_positions(set: &TableSet, name: &str, positions: impl Iterator<Item = Position>) -> usize {
    let mut perpetual = 0;
    for pos in positions {
        let v = verdict(set, &pos);
        let fen = pos.to_fen();
        assert_eq!(verdict(set, &pos.mirrored()), v, "{name} {fen}: mirror differs");
        assert_eq!(verdict(set, &pos.flipped()), v, "{name} {fen}: colour swap differs");
        let mut pos = pos.clone();
        let mut children = Vec::new();
        for &m in pos.legal_moves().as_slice() {
            let check = pos.gives_check(m);
            let capture = pos.is_capture(m);
            pos.make_move(m);
            children.push(Child { v: verdict(set, &pos), check, capture });
            pos.unmake_move();
        }
        let shortest_loss = children.iter().filter(|c| c.v.wdl == Wdl::Loss).map(|c| c.v.dtm).min();
        let shortest_mate =
            children.iter().filter(|c| c.v.wdl == Wdl::Loss && !c.v.perpetual).map(|c| c.v.dtm).min();
        match (v.wdl, v.perpetual) {
            (Wdl::Win, false) => assert_eq!(shortest_mate.map(|d| d + 1), Some(v.dtm), "{name} {fen}: win"),
            (Wdl::Win, true) => check_rule_win(v, &children, &format!("{name} {fen}")),
            (Wdl::Draw, _) => {
                assert!(shortest_loss.is_none(), "{name} {fen}: draw with a winning move");
                assert!(
                    children.iter().any(|c| c.v.wdl == Wdl::Draw),
                    "{name} {fen}: draw without a drawing move"
                );
            }
            (Wdl::Loss, rule) => {
                assert!(children.iter().all(|c| c.v.wdl == Wdl::Win), "{name} {fen}: loss with an escape");
                if rule {
                    check_rule_loss(v, &children, &format!("{name} {fen}"));
                } else {
                    assert!(
                        children.iter().all(|c| !c.v.perpetual),
                        "{name} {fen}: a mate through a rule win"
                    );
                    let longest = children.iter().map(|c| c.v.dtm + 1).max().unwrap_or(0);
                    assert_eq!(longest, v.dtm, "{name} {fen}: loss distance");
                }
            }
        }
        if v.perpetual {
            perpetual += 1;
        }
    }
    perpetual
}

/// A move's verdict for the side that then moves, and what the move was.
struct Child {
    v: Verdict,
    check: bool,
    capture: bool,
}

/// A rule result's standing in the table's fixed point (docs/rules.md, "Endgame tablebases"): round, layer.
fn standing(v: Verdict) -> (u16, u16) {
    (v.dtm >> 8, v.dtm & 0xFF)
}

/// The moves the rule's standings allow the winner (docs/rules.md): leave the table into a won position, a
/// lower round, or, in the same round, a quiet move from layer 0 or any move to a lower layer. Layer 0
/// exactly when a move of the first three kinds exists; otherwise one layer above the lowest such move.
fn check_rule_win(v: Verdict, children: &[Child], what: &str) {
    let (round, layer) = standing(v);
    let losses = || children.iter().filter(|c| c.v.wdl == Wdl::Loss);
    let base = losses().any(|c| {
        c.capture || !c.v.perpetual || standing(c.v).0 < round || (!c.check && standing(c.v).0 == round)
    });
    if layer == 0 {
        assert!(base, "{what}: a rule win at layer 0 without a quiet move, a lower round or an exit");
    } else {
        assert!(!base, "{what}: a rule win at layer {layer} with a move that qualifies at once");
        let lowest = losses()
            .filter(|c| !c.capture && c.v.perpetual && standing(c.v).0 == round)
            .map(|c| standing(c.v).1)
            .min();
        assert_eq!(lowest, Some(layer - 1), "{what}: a rule win's layer");
    }
}

/// The loser's moves under the rule: every quiet one leaves the table or goes to a lower round (so it
/// cannot escape by stepping aside), every check to a lower round or to a lower layer of the same one; the
/// layer is one above its highest check within the round (0 without one).
fn check_rule_loss(v: Verdict, children: &[Child], what: &str) {
    let (round, layer) = standing(v);
    let mut highest = None;
    for c in children.iter().filter(|c| !c.capture && c.v.perpetual) {
        let (r, l) = standing(c.v);
        if c.check && r == round {
            assert!(l < layer, "{what}: a check to layer {l} from layer {layer}");
            highest = highest.max(Some(l));
        } else {
            assert!(
                r < round,
                "{what}: a {} move to round {r} from round {round}",
                if c.check { "checking" } else { "quiet" }
            );
        }
    }
    assert_eq!(highest.map_or(0, |h| h + 1), layer, "{what}: a rule loss's layer");
}

#[test]
fn small_tables_are_consistent() {
    let set = tables(&["KRK", "KNKA", "KPKA"], Rules::Chinese);
    for name in ["KRK", "KNKA", "KPKA", "KNK", "KPK"] {
        check_consistency(&set, name, 1);
    }
}

/// The same checks where the perpetual-check rule decides positions (a sample of KRKN's).
#[test]
fn a_table_with_perpetual_check_results_is_consistent() {
    let set = tables(&["KRKN"], Rules::Chinese);
    let perpetual = check_consistency(&set, "KRKN", 5);
    assert!(perpetual > 0);
}

/// How the losing side plays in [`play_out`]: its moves all lose, so what is tested is whether the
/// winner's table moves convert against each way of resisting. Each way takes, among the moves of the kind
/// it wants, the one the table resists longest with.
#[derive(Copy, Clone, Debug)]
enum Resistance {
    /// A check whenever it has one (the perpetual check the rule punishes).
    Checks,
    /// A quiet move whenever it has one.
    Quiet,
    /// A check, then a quiet move, and so on (one check, one idle move: not a perpetual check).
    Alternating,
}

impl Resistance {
    const ALL: [Resistance; 3] = [Resistance::Checks, Resistance::Quiet, Resistance::Alternating];
}

/// A table whose captures lead into rule results (KRKNAA into KRKNA and KRKN): those captures are the rule's
/// to judge, never a forced mate's, so the checks above hold here too (a sample). Reading a rule result's
/// standing as plies once turned 119 of KRKNAA's wins into losses, by the parity of the number.
#[test]
fn a_table_above_rule_results_is_consistent() {
    let set = tables(&["KRKNAA"], Rules::Chinese);
    let table = set.get(&"KRKNAA".parse().unwrap()).unwrap();
    // Every slot would be 8.7 million positions: every 97th, and every one of the stretch that held eight
    // of the 119 flipped (slots 697,604 to 700,494).
    let ix = table.indexer();
    let slots = (0..table.size()).step_by(97).chain(697_000..701_000);
    let positions = slots.filter_map(|i| ix.position_of(i));
    let perpetual = check_positions(&set, "KRKNAA", positions);
    assert!(perpetual > 0);
}

/// Plays a game from `start`, the loser (`loser`) resisting as `how` says and the winner playing the
/// table's best moves ([`engine::egtb::probe::best_moves`], what the engine plays at the root), until the
/// referee ends it; returns its judgement and the plies played.
fn play_out(set: &TableSet, start: &Position, loser: Color, how: Resistance) -> (Judgement, usize) {
    play_out_with(&|p: &Position| set.probe(p), start, loser, how)
}

/// [`play_out`] with any source of verdicts.
fn play_out_with(
    probe: &dyn Fn(&Position) -> Option<Verdict>,
    start: &Position,
    loser: Color,
    how: Resistance,
) -> (Judgement, usize) {
    let mut referee = Referee::new(start.clone());
    let mut loser_moves = 0;
    for ply in 1..=400 {
        let pos = referee.position().clone();
        let m = if pos.side_to_move() == loser {
            let want_check = match how {
                Resistance::Checks => true,
                Resistance::Quiet => false,
                Resistance::Alternating => loser_moves % 2 == 0,
            };
            loser_moves += 1;
            // Within the kind it wants (any move when it has none of that kind), the table's longest resistance.
            let mut scratch = pos.clone();
            let mut options = Vec::new();
            for &m in pos.legal_moves().as_slice() {
                let (check, capture) = (pos.gives_check(m), pos.is_capture(m));
                scratch.make_move(m);
                let child = probe(&scratch).unwrap_or_else(|| panic!("no verdict for {}", scratch.to_fen()));
                scratch.unmake_move();
                options.push((
                    check == want_check,
                    engine::egtb::probe::move_order(child, capture, check),
                    m,
                ));
            }
            options.iter().max_by_key(|o| (o.0, o.1)).map(|o| o.2).expect("the loser has a move")
        } else {
            let root = engine::egtb::probe::best_moves(&pos, probe)
                .unwrap_or_else(|| panic!("no verdict around {}", pos.to_fen()));
            assert_eq!(root.verdict.wdl, Wdl::Win, "the winner's position {}", pos.to_fen());
            root.best[0]
        };
        let j = referee.play(m);
        if j.is_over() {
            return (j, ply);
        }
    }
    (referee.judgement(), 400)
}

#[test]
fn perpetual_check_loses_in_the_table_and_by_the_referee() {
    let set = tables(&["KRKN"], Rules::Chinese);
    let cycle = tables(&["KRKN"], Rules::CycleDraw);
    let material: Material = "KRKN".parse().unwrap();
    let mut differ = 0;
    let mut example = None;
    for pos in all_positions(&material) {
        let v = verdict(&set, &pos);
        let plain = verdict(&cycle, &pos);
        if v == plain {
            continue;
        }
        differ += 1;
        assert!(v.perpetual && plain.wdl == Wdl::Draw, "{}: {v:?} against {plain:?}", pos.to_fen());
        // A position where the horse's side is to move and only its checks hold off the loss.
        if example.is_none()
            && v.wdl == Wdl::Loss
            && pos.side_to_move() == Color::Black
            && pos.legal_moves().len() > 1
        {
            example = Some(pos);
        }
    }
    assert!(differ > 0, "KRKN has positions only perpetual check holds");
    let start = example.expect("a perpetual-check loss with Black to move");
    let (j, _) = play_out(&set, &start, Color::Black, Resistance::Checks);
    assert_eq!(j.result, engine::rules::GameResult::RedWins, "{}: {j:?}", start.to_fen());
    assert_eq!(j.reason, Reason::PerpetualCheck, "{}: {j:?}", start.to_fen());
    eprintln!("KRKN: {differ} verdicts differ from cycle-draw; e.g. {}: {}", start.to_fen(), j.detail);
}

/// Every position KRKN's rule decides, played out against three ways of resisting (always checking, never
/// checking, checking every other move): the table's moves win every game, by mate or by the referee's
/// perpetual-check verdict. Following the smallest number alone lost some to one check, one idle move.
#[test]
fn the_tables_moves_convert_every_rule_win_whatever_the_loser_does() {
    let set = tables(&["KRKN"], Rules::Chinese);
    let material: Material = "KRKN".parse().unwrap();
    let (mut games, mut by_rule) = (0, 0);
    for pos in all_positions(&material) {
        let v = verdict(&set, &pos);
        if !v.perpetual {
            continue;
        }
        let loser = if v.wdl == Wdl::Loss { pos.side_to_move() } else { !pos.side_to_move() };
        let winner = engine::rules::GameResult::loss_for(loser);
        for how in Resistance::ALL {
            let (j, _) = play_out(&set, &pos, loser, how);
            assert_eq!(j.result, winner, "{} against {how:?}: {j:?}", pos.to_fen());
            games += 1;
            by_rule += usize::from(j.reason == Reason::PerpetualCheck);
        }
    }
    assert!(games > 0);
    eprintln!("KRKN: {games} games from rule-decided positions, {by_rule} ended by perpetual check");
}

/// The first drawn position of `name` with a four-ply cycle of drawing moves that the referee, on its
/// third occurrence, calls a loss for one side (a chase: arts. 27-29, which the tables do not model).
fn chase_held_draw(set: &TableSet, name: &str) -> Option<(Position, Vec<engine::Move>, Judgement)> {
    let material: Material = name.parse().unwrap();
    for start in all_positions(&material) {
        if verdict(set, &start).wdl != Wdl::Draw {
            continue;
        }
        let mut pos = start.clone();
        for &m1 in pos.clone().legal_moves().as_slice() {
            let back1 = engine::Move::new(m1.to(), m1.from());
            if pos.is_capture(m1) {
                continue;
            }
            pos.make_move(m1);
            let ok1 = verdict(set, &pos).wdl == Wdl::Draw;
            if ok1 {
                for &m2 in pos.clone().legal_moves().as_slice() {
                    let back2 = engine::Move::new(m2.to(), m2.from());
                    if pos.is_capture(m2) {
                        continue;
                    }
                    let cycle = [m1, m2, back1, back2];
                    let mut referee = Referee::new(start.clone());
                    let mut j = Judgement::ongoing();
                    for &m in cycle.iter().cycle().take(8) {
                        if j.is_over() {
                            break;
                        }
                        j = referee.play(m);
                    }
                    if matches!(j.reason, Reason::PerpetualChase | Reason::ForbiddenRepetition) {
                        return Some((start, cycle.to_vec(), j));
                    }
                }
            }
            pos.unmake_move();
        }
    }
    None
}

/// docs/rules.md, "Endgame tablebases": the tables judge only checks, so a drawn position may be held by a
/// cycle of drawing moves that the referee calls a perpetual chase.
#[test]
fn tables_do_not_model_the_chase_rules() {
    let set = tables(&["KRKN"], Rules::Chinese);
    let (start, cycle, j) = chase_held_draw(&set, "KRKN").expect("a drawn KRKN cycle the referee forbids");
    assert_eq!(verdict(&set, &start).wdl, Wdl::Draw);
    assert_ne!(j.reason, Reason::PerpetualCheck);
    let moves: Vec<String> = cycle.iter().map(|m| m.to_string()).collect();
    eprintln!("KRKN draw {} with {}: referee {} ({})", start.to_fen(), moves.join(" "), j.reason, j.detail);
}

/// Polls `probe` until it answers (a background read finishing), for at most ten seconds.
fn answer_within<T>(mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    for _ in 0..1000 {
        if let Some(answer) = probe() {
            return Some(answer);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

#[test]
fn the_search_probes_never_wait_for_a_read_and_a_damaged_file_is_refused_all_the_same() {
    use engine::egtb::Tablebases;
    let (set, dir) = krka_files("background");
    let krka_pos = Position::from_fen("4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    let expected = set.probe(&krka_pos).map(|v| v.wdl);
    assert!(expected.is_some());
    // Not yet read: the first search probe misses and starts the read; a later one finds the table.
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    assert_eq!(tb.probe_wdl_loaded(&krka_pos), None);
    assert_eq!(answer_within(|| tb.probe_wdl_loaded(&krka_pos)), expected);
    assert_eq!(tb.probe_wdl(&krka_pos), expected);
    // The root probe needs every child's table read too; it gets there the same way.
    let root =
        answer_within(|| tb.probe_root_loaded(&krka_pos)).expect("KRKA and the tables it captures into");
    assert_eq!(Some(root), tb.probe_root(&krka_pos));
    // A waiting probe after a background one started: both see one read.
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    assert_eq!(tb.probe_wdl_loaded(&krka_pos), None);
    assert_eq!(tb.probe_wdl(&krka_pos), expected);
    // A damaged file read in the background: one message, never an answer.
    let krka = dir.join("KRKA.xqtb");
    let mut damaged = std::fs::read(&krka).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(&krka, &damaged).unwrap();
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    assert!(tb.take_messages().is_empty());
    assert_eq!(tb.probe_wdl_loaded(&krka_pos), None);
    let messages = answer_within(|| Some(tb.take_messages()).filter(|m| !m.is_empty())).expect("a refusal");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("KRKA.xqtb") && messages[0].contains("checksum"), "{messages:?}");
    assert_eq!(tb.probe_wdl_loaded(&krka_pos), None);
    assert_eq!(tb.probe_wdl(&krka_pos), None);
    assert!(tb.take_messages().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// KRKA and the tables it needs, in memory and written to a scratch directory of their own.
fn krka_files(name: &str) -> (TableSet, std::path::PathBuf) {
    let set = tables(&["KRKA"], Rules::Chinese);
    let dir = scratch_dir(name);
    for m in set.materials() {
        engine::egtb::file::write(set.get(m).unwrap(), Rules::Chinese, &dir).unwrap();
    }
    (set, dir)
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn files_round_trip_and_bad_files_are_refused_with_one_message() {
    use engine::egtb::Tablebases;
    let (set, dir) = krka_files("files");
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    assert!(tb.take_messages().is_empty());
    assert_eq!(tb.max_pieces(), 4);
    for pos in all_positions(&"KRKA".parse().unwrap()).iter().step_by(7) {
        assert_eq!(tb.probe(pos), set.probe(pos), "{}", pos.to_fen());
    }
    let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    assert_eq!(tb.probe(&bare).map(|v| v.wdl), Some(Wdl::Win));
    let root = tb.probe_root(&bare).unwrap();
    assert_eq!(root.verdict.dtm, 3);
    assert!(!root.best.is_empty());
    // Not covered: more pieces than any table, or a material without a file.
    assert_eq!(tb.probe(&Position::startpos()), None);
    let knk = Position::from_fen("4k4/9/9/9/9/9/9/9/9/N2K5 w - - 0 1").unwrap();
    assert_eq!(tb.probe(&knk), None);
    // Several directories, separated as the platform separates PATH; a missing one gets a message.
    let missing = dir.join("no-such-dir");
    let list = std::env::join_paths([missing.clone(), dir.clone()]).unwrap();
    let two = Tablebases::open_path_list(list.to_str().unwrap());
    assert_eq!(two.list().len(), 4);
    let messages = two.take_messages();
    assert!(messages.len() == 1 && messages[0].contains("no-such-dir"), "{messages:?}");

    // Truncated, foreign and misnamed files are refused when the directory is opened.
    let krka = dir.join("KRKA.xqtb");
    let good = std::fs::read(&krka).unwrap();
    std::fs::write(&krka, &good[..good.len() - 3]).unwrap();
    std::fs::write(dir.join("KCK.xqtb"), b"PK\x03\x04 not a table").unwrap();
    std::fs::copy(dir.join("KRK.xqtb"), dir.join("KNK.xqtb")).unwrap();
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    let messages = tb.take_messages();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("KRKA.xqtb") && m.contains("truncated")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("KCK.xqtb") && m.contains("not a chuhan")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("KNK.xqtb") && m.contains("KRK inside")), "{messages:?}");
    let krka_pos = Position::from_fen("4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    assert_eq!(tb.probe(&krka_pos), None);
    assert_eq!(tb.probe(&bare).map(|v| v.wdl), Some(Wdl::Win));

    // A damaged byte is found by the checksum on the first probe: one message, then never probed.
    let mut damaged = good.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(&krka, &damaged).unwrap();
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    let _ = tb.take_messages();
    assert_eq!(tb.probe(&krka_pos), None);
    assert_eq!(tb.probe(&krka_pos), None);
    let messages = tb.take_messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("KRKA.xqtb") && messages[0].contains("checksum"), "{messages:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A slot holds a legal position exactly when the table gives it a verdict, and that position probes to the
/// slot's verdict (the decoding that tools, tests and the fuzz target use is the generator's own).
#[test]
fn every_slot_with_a_verdict_holds_its_position() {
    let set = tables(&["KRK", "KCKA"], Rules::Chinese);
    for name in ["KRK", "KCKA"] {
        let table = set.get(&name.parse().unwrap()).unwrap();
        let mut positions = 0;
        for i in 0..table.size() {
            let pos = table.indexer().position_of(i);
            assert_eq!(pos.is_some(), table.verdict_at(i).is_some(), "{name} slot {i}");
            if let Some(pos) = pos {
                assert_eq!(set.probe(&pos), table.verdict_at(i), "{name} slot {i}: {}", pos.to_fen());
                positions += 1;
            }
        }
        assert!(positions > 0);
    }
}

/// Found by the `egtb_file` fuzz target: a file with two bytes a distance where one byte holds them all
/// loaded, and wrote back as another file (the writer picks one byte then). Such a file is not ours.
#[test]
fn a_file_with_needlessly_wide_distances_is_refused() {
    use engine::checksum::fnv1a;
    use engine::egtb::file::{decode, encode, HEADER_LEN};
    let set = tables(&["KRK"], Rules::Chinese);
    let good = encode(set.get(&"KRK".parse().unwrap()).unwrap(), Rules::Chinese);
    assert!(decode(&good, None).is_ok());
    let slots = set.get(&"KRK".parse().unwrap()).unwrap().size() as usize;
    let wdl_end = HEADER_LEN + slots.div_ceil(4);
    assert_eq!(good[68], 1, "KRK's distances fit a byte");
    let mut wide = good[..wdl_end].to_vec();
    wide[68] = 2;
    wide.extend(good[wdl_end..].iter().flat_map(|&d| [d, 0]));
    let sum = fnv1a(&wide[HEADER_LEN..]);
    wide[76..84].copy_from_slice(&sum.to_le_bytes());
    match decode(&wide, None) {
        Ok(_) => panic!("a needlessly wide file loads"),
        Err(e) => assert!(e.to_string().contains("two bytes a distance"), "{e}"),
    }
}

#[test]
#[ignore = "exploration: prints statistics"]
fn explore() {
    let names: Vec<String> =
        std::env::var("EGTB_EXPLORE").unwrap_or("KRKN".into()).split(',').map(String::from).collect();
    let targets: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    generate_all(&targets, Rules::Chinese, |t, s| eprintln!("{} {s:?}", t.material())).unwrap();
}

/// For tables too big to generate in a test: plays out positions that the perpetual-check rule decides,
/// from table files in `EGTB_DIR` (material `EGTB_MATERIAL`, every `EGTB_STEP`th slot), and checks that the
/// referee gives each game to the table's winner.
#[test]
#[ignore = "needs generated table files: EGTB_DIR, EGTB_MATERIAL"]
fn perpetual_results_from_files_hold_before_the_referee() {
    use engine::egtb::Tablebases;
    let dir = std::path::PathBuf::from(std::env::var("EGTB_DIR").expect("EGTB_DIR"));
    let material: Material = std::env::var("EGTB_MATERIAL").expect("EGTB_MATERIAL").parse().unwrap();
    let step: u64 = std::env::var("EGTB_STEP").ok().and_then(|s| s.parse().ok()).unwrap_or(100_003);
    let tb = Tablebases::open(&[dir]);
    let table = tb.table(&material).expect("the table");
    let ix = table.indexer();
    let (mut games, mut mates, mut rule, mut plies) = (0, 0, 0, 0);
    let mut i = 0;
    while i < table.size() {
        let v = table.verdict_at(i);
        i += step;
        let Some(v) = v.filter(|v| v.perpetual) else { continue };
        let pos = ix.position_of(i - step).expect("a slot with a verdict holds a legal position");
        let side = pos.side_to_move();
        let loser = if v.wdl == Wdl::Loss { side } else { !side };
        let probe = |p: &Position| tb.probe(p);
        let winner = engine::rules::GameResult::loss_for(loser);
        for how in Resistance::ALL {
            let (j, n) = play_out_with(&probe, &pos, loser, how);
            games += 1;
            plies += n;
            assert_eq!(j.result, winner, "{} against {how:?}: {j:?}", pos.to_fen());
            if j.reason == Reason::PerpetualCheck {
                rule += 1;
            } else {
                mates += 1;
            }
        }
    }
    eprintln!(
        "{material}: {games} games from rule-decided positions ({} plies on average): {rule} ended by perpetual \
         check, {mates} by mate",
        plies / games.max(1)
    );
    assert!(games > 0);
}

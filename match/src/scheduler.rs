//! Who plays whom with which opening, and running the games on worker threads.

use super::game::GameRecord;
use super::results::GameId;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;

/// One game to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its place in the schedule.
    pub id: GameId,
    /// Index into the ordered opening list.
    pub opening: usize,
    /// Round number for PGN (1-based, unique within the match).
    pub round: u64,
}

/// Engine index pairs: the first engine against each of the others (gauntlet), or every pair (round robin).
/// A two-engine match is one pairing either way.
pub fn pairings(engines: usize, round_robin: bool) -> Vec<(usize, usize)> {
    if round_robin {
        (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect()
    } else {
        (1..engines).map(|b| (0, b)).collect()
    }
}

/// The games still to play: for each game pair in turn, both colours of every pairing (so all pairings
/// progress together and pairs finish close together), leaving out the games in `done`. An odd `games`
/// leaves the last pair with one game.
pub fn jobs(pairings: usize, games: u32, openings: usize, done: &HashSet<GameId>) -> Vec<Job> {
    let mut out = Vec::new();
    for pair in 0..games.div_ceil(2) {
        for pairing in 0..pairings {
            for slot in 0..2u8 {
                let index = pair * 2 + slot as u32;
                if index >= games {
                    continue;
                }
                let id = GameId { pairing, pair, slot };
                if done.contains(&id) {
                    continue;
                }
                out.push(Job { id, opening: pair as usize % openings.max(1), round: round(id, games) });
            }
        }
    }
    out
}

/// The PGN round of game `id` in a match of `games` games per pairing (1-based, unique within the match).
pub fn round(id: GameId, games: u32) -> u64 {
    id.pairing as u64 * games as u64 + (id.pair * 2 + id.slot as u32) as u64 + 1
}

/// Plays `jobs` on `concurrency` threads. `play` runs on the workers; `on_result` runs on the calling thread
/// as each game ends, in the order they end, and returns false to stop the match (then `stop` is set and
/// unfinished games are abandoned).
pub fn run<P, R>(jobs: Vec<Job>, concurrency: usize, stop: &AtomicBool, play: P, mut on_result: R)
where
    P: Fn(&Job) -> Option<GameRecord> + Sync,
    R: FnMut(&Job, GameRecord) -> bool,
{
    let queue = Mutex::new(VecDeque::from(jobs));
    let (tx, rx) = mpsc::channel::<(Job, GameRecord)>();
    thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let tx = tx.clone();
            let queue = &queue;
            let play = &play;
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(job) = next else { break };
                match play(&job) {
                    Some(rec) => {
                        if tx.send((job, rec)).is_err() {
                            break;
                        }
                    }
                    None => break,
                }
            });
        }
        drop(tx);
        for (job, rec) in rx.iter() {
            if !on_result(&job, rec) {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        // Leaving the scope joins the workers; with `stop` set they abandon their games at the next move.
        stop.store(true, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauntlet_and_round_robin_pairings() {
        assert_eq!(pairings(2, false), vec![(0, 1)]);
        assert_eq!(pairings(2, true), vec![(0, 1)]);
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2)]);
        assert_eq!(pairings(4, true), vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    }

    #[test]
    fn pairs_share_an_opening_and_done_games_are_skipped() {
        let all = jobs(1, 5, 2, &HashSet::new());
        let summary: Vec<(u32, u8, usize, u64)> =
            all.iter().map(|j| (j.id.pair, j.id.slot, j.opening, j.round)).collect();
        assert_eq!(summary, vec![(0, 0, 0, 1), (0, 1, 0, 2), (1, 0, 1, 3), (1, 1, 1, 4), (2, 0, 0, 5)]);
        let done: HashSet<GameId> = [GameId { pairing: 0, pair: 1, slot: 0 }].into_iter().collect();
        assert_eq!(jobs(1, 5, 2, &done).len(), 4);
        let two = jobs(2, 2, 1, &HashSet::new());
        assert_eq!(two.iter().map(|j| j.round).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }
}

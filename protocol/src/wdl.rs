//! Win/draw/loss estimates for UCI's `UCI_ShowWDL`, from a logistic model of the score.
//!
//! The two constants below are fitted by maximum likelihood (`scripts/fit_wdl.py`) on chuhan's own games:
//! 600 self-play games of `chuhan match` (400 at 20,000 nodes a move, 200 at 5+0.05), 71,545 scored
//! positions after the first 16 plies. Refit after changes that move the score scale; this is the only
//! place to change.

use engine::search::Score;

/// Score (centipawns, 100 = a horse) at which the win chance reaches one half.
pub const WDL_MIDPOINT_CP: f64 = 59.0;
/// Width of the logistic curve, in centipawns.
pub const WDL_SCALE_CP: f64 = 49.0;

/// Win, draw and loss chances for the side to move, per mille, adding up to 1000.
pub fn wdl(score: Score) -> (u32, u32, u32) {
    match score {
        Score::Mate(n) if n > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let cp = cp as f64;
            let logistic = |x: f64| 1.0 / (1.0 + ((WDL_MIDPOINT_CP - x) / WDL_SCALE_CP).exp());
            let win = (logistic(cp) * 1000.0).round() as u32;
            let loss = (logistic(-cp) * 1000.0).round() as u32;
            let win = win.min(1000);
            let loss = loss.min(1000 - win);
            (win, 1000 - win - loss, loss)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_a_thousand_and_is_symmetric() {
        for cp in [-5000, -300, -120, -1, 0, 1, 50, 120, 400, 20000] {
            let (w, d, l) = wdl(Score::Cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            let (w2, _, l2) = wdl(Score::Cp(-cp));
            assert!((w as i32 - l2 as i32).abs() <= 1 && (l as i32 - w2 as i32).abs() <= 1);
        }
        let (w, d, l) = wdl(Score::Cp(WDL_MIDPOINT_CP as i32));
        assert_eq!(w, 500);
        assert!(d > l);
        assert_eq!(wdl(Score::Mate(3)), (1000, 0, 0));
        assert_eq!(wdl(Score::Mate(-2)), (0, 0, 1000));
    }

    #[test]
    fn more_score_more_wins() {
        let wins: Vec<u32> = (-10..=10).map(|i| wdl(Score::Cp(i * 40)).0).collect();
        assert!(wins.windows(2).all(|w| w[0] <= w[1]));
    }
}

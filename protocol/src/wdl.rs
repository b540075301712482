//! Win/draw/loss estimates for UCI's `UCI_ShowWDL`, from a logistic model of the score.
//!
//! The two constants below are placeholders chosen to look sensible (a horse up wins about half the time,
//! level scores are mostly draws). They will be fitted on chuhan's own games once the match runner has
//! produced enough of them; this is the only place to change.

use engine::search::Score;

/// Score (centipawns, 100 = a horse) at which the win chance reaches one half. To be fitted.
pub const WDL_MIDPOINT_CP: f64 = 120.0;
/// Width of the logistic curve, in centipawns. To be fitted.
pub const WDL_SCALE_CP: f64 = 60.0;

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

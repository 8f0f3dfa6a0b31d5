//! The accuracy of a decision and the summaries of a round or a game (marks counted, the
//! costliest decisions): shared by every game's review.

use crate::document::{ACCURACY_SCALE, DecisionReview, Mark, Summary};

/// The accuracy of one decision that lost `loss` expected points (100 when nothing is lost).
pub fn accuracy_of(loss: f64) -> f64 {
    accuracy_in(loss, ACCURACY_SCALE)
}

/// The accuracy of one decision that lost `loss` with the accuracy scale `scale`:
/// `100 × exp(−loss / scale)`.
pub fn accuracy_in(loss: f64, scale: f64) -> f64 {
    100.0 * (-loss / scale).exp()
}

/// Totals over `ds`, with accuracy scale `scale`.
pub(crate) fn summarize<'a>(ds: impl Iterator<Item = &'a DecisionReview>, scale: f64) -> Summary {
    let mut s = Summary {
        decisions: 0,
        evaluated: 0,
        loss: 0.0,
        loss_per_decision: 0.0,
        accuracy: 100.0,
        inaccuracies: 0,
        mistakes: 0,
        blunders: 0,
        oracle_agrees: None,
    };
    let mut acc = 0.0;
    for d in ds {
        s.decisions += 1;
        if let Some(h) = &d.hindsight {
            *s.oracle_agrees.get_or_insert(0) += h.agrees as usize;
        }
        if let Some(l) = d.loss {
            s.evaluated += 1;
            s.loss += l;
            acc += accuracy_in(l, scale);
        }
        match d.mark {
            Some(Mark::Inaccuracy) => s.inaccuracies += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    if s.evaluated > 0 {
        s.loss_per_decision = s.loss / s.evaluated as f64;
        s.accuracy = acc / s.evaluated as f64;
    }
    s
}

/// The indices of the three costliest decisions that lost something, costliest first.
pub(crate) fn costliest(decisions: &[DecisionReview]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..decisions.len()).filter(|&i| decisions[i].loss.is_some_and(|l| l > 0.0)).collect();
    order.sort_by(|&a, &b| {
        decisions[b].loss.unwrap_or(0.0).total_cmp(&decisions[a].loss.unwrap_or(0.0)).then(a.cmp(&b))
    });
    order.truncate(3);
    order
}

//! How a loss is marked, the accuracy of a decision, and the summaries of a round or a game:
//! shared by every game's review.

use serde::{Deserialize, Serialize};

use crate::{ACCURACY_SCALE, BLUNDER, DecisionReview, INACCURACY, MISTAKE, Summary};

/// How a loss is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// At least [`INACCURACY`] points lost.
    Inaccuracy,
    /// At least [`MISTAKE`] points lost.
    Mistake,
    /// At least [`BLUNDER`] points lost.
    Blunder,
}

impl Mark {
    /// The mark of a loss in expected round points (Oh 7), if any.
    pub fn of(loss: f64) -> Option<Mark> {
        Mark::within(loss, [INACCURACY, MISTAKE, BLUNDER])
    }

    /// The mark of a loss against `[inaccuracy, mistake, blunder]` thresholds, if any.
    pub fn within(loss: f64, thresholds: [f64; 3]) -> Option<Mark> {
        let [inaccuracy, mistake, blunder] = thresholds;
        if loss >= blunder {
            Some(Mark::Blunder)
        } else if loss >= mistake {
            Some(Mark::Mistake)
        } else if loss >= inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The word shown to people.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

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

//! The uniformly random bot, and a fast random playout of an Oh 7 game.

use oh7_core::card::CardSet;
use oh7_core::game::{Game, Seat};
use oh7_core::oh7::{Draws16, Oh7Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;

/// Chooses uniformly among the legal actions.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seeded RNG.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "bot:random".into()
    }
    fn choose(&mut self, _view: &G::View<'_>, legal: &[G::Action]) -> G::Action {
        legal[self.rng.random_range(0..legal.len() as u32) as usize]
    }
}

#[inline]
fn pick<R: Rng + ?Sized>(rng: &mut R, draws: &mut Draws16, s: CardSet) -> oh7_core::Card {
    let k = draws.below(rng, s.len());
    s.nth(k).expect("k < len")
}

/// Play `g` to its end with uniformly random legal choices, using the bitset fast path for bets
/// and plays (the same distribution as [`RandomBot`] on every seat). Returns the number of
/// decisions made.
pub fn random_oh7_game<R: Rng + ?Sized>(
    g: &mut Oh7Game,
    rng: &mut R,
    legal: &mut Vec<<Oh7Game as Game>::Action>,
) -> u64 {
    let mut n = 0;
    let mut draws = Draws16::default();
    while let Some(seat) = g.to_move().lowest() {
        n += 1;
        let plays = g.legal_plays(seat);
        if !plays.is_empty() {
            let c = pick(rng, &mut draws, plays);
            g.play_unchecked(seat, c);
            continue;
        }
        let bets = g.legal_bets(seat);
        if !bets.is_empty() {
            let c = pick(rng, &mut draws, bets);
            g.bet_unchecked(seat, c);
            continue;
        }
        other_decision(g, seat, rng, legal);
    }
    n
}

#[cold]
fn other_decision<R: Rng + ?Sized>(
    g: &mut Oh7Game,
    seat: Seat,
    rng: &mut R,
    legal: &mut Vec<<Oh7Game as Game>::Action>,
) {
    g.legal_actions(seat, legal);
    let a = legal[rng.random_range(0..legal.len() as u32) as usize];
    g.apply(seat, a).expect("a legal action");
}

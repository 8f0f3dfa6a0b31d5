//! The `beginner` Oh 7 bot: plays as a person who has just learned the rules does, so that a
//! newcomer alone against bots wins some rounds. It follows suit (only legal cards are offered),
//! but it counts its hand roughly (its high cards, and its trumps when its bet will likely name
//! the trump), overbids by about one trick, always plays its highest card while it still wants
//! tricks (no waiting to see who plays after it), and forgets to duck about half the time once
//! it has its bet. Seeded: the same seed decides the same.

use oh7_core::card::{CardSet, Kind, Suit};
use oh7_core::oh7::trick;
use oh7_core::oh7::{Action, Oh7Game, PhaseView, SeatView};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;
use crate::heuristic::{cards_of, other_decision, view_play_info};

/// The beginner bot.
pub struct BeginnerBot {
    rng: ChaCha8Rng,
}

impl BeginnerBot {
    /// A beginner with its own seeded random source.
    pub fn new(seed: u64) -> BeginnerBot {
        BeginnerBot { rng: ChaCha8Rng::seed_from_u64(seed ^ 0xbe91_4e4e) }
    }
}

/// A newcomer's count of a hand's tricks: every high card (value 6 or 7 of 0–7, ‽), and every
/// trump of value 4 or more when the suit is known or guessed.
fn rough_count(hand: CardSet, trump: Option<Suit>) -> u8 {
    let mut n = 0;
    for c in hand.iter() {
        match c.kind() {
            Kind::Regular(s) if Some(s) == trump && c.value() >= 4 => n += 1,
            Kind::Regular(_) | Kind::Star if c.value() >= 6 => n += 1,
            Kind::Interrobang => n += 1,
            _ => {}
        }
    }
    n
}

impl Bot<Oh7Game> for BeginnerBot {
    fn name(&self) -> String {
        "bot:beginner".into()
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => {
                let hand = view.hand();
                let bettable = cards_of(legal);
                // A guess at the trump: the suit of its longest suit, as a newcomer hopes.
                let longest = Suit::ALL.iter().copied().max_by_key(|s| hand.and(s.mask()).len());
                // Hopeful: a trick more than the count two times in five, two once in twenty.
                let extra = match self.rng.random_range(0..20u32) {
                    0..=11 => 0,
                    12..=18 => 1,
                    _ => 2,
                };
                let want = rough_count(hand, longest) + extra;
                let c = bettable
                    .iter()
                    .min_by_key(|c| ((c.value() as i32 - want as i32).abs(), c.id()))
                    .expect("a bettable card");
                Action::Bet(c)
            }
            (PhaseView::Playing, Action::Play(_)) => {
                let i = view_play_info(view, cards_of(legal));
                let lead = trick::lead_suit(i.trick);
                let key = |c: &oh7_core::card::Card| {
                    trick::trick_key(*c, i.trump, lead.or(c.suit())) as i32 * 16 + c.value() as i32
                };
                let highest = i.legal.iter().max_by_key(key).expect("a legal card");
                let lowest = i.legal.iter().min_by_key(key).expect("a legal card");
                let need = i.bets[i.me] as i32 - i.won[i.me] as i32;
                // Still short: the highest card. At or over the bet: forgets to duck one time in
                // three.
                let duck = need <= 0 && !self.rng.random_bool(1.0 / 3.0);
                Action::Play(if duck { lowest } else { highest })
            }
            _ => other_decision(view, legal),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::game::Game;
    use oh7_core::ruleset::{Preset, Ruleset};

    fn game_of(seed: u64) -> serde_json::Value {
        let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 3).unwrap();
        let mut bots: Vec<Box<dyn Bot<Oh7Game>>> =
            (0..4).map(|s| Box::new(BeginnerBot::new(seed + s)) as Box<dyn Bot<Oh7Game>>).collect();
        crate::play_game(&mut g, &mut bots, 100_000).unwrap();
        g.record()
    }

    #[test]
    fn a_seed_decides_the_same_and_another_seed_differently() {
        assert_eq!(game_of(1), game_of(1));
        assert_ne!(game_of(1), game_of(100));
    }

    #[test]
    fn it_counts_high_cards_and_the_trumps_it_hopes_for() {
        let hand = CardSet::from_cards(&["7S", "6H", "5S", "4S", "1C"].map(|c| c.parse().unwrap()));
        // 7S and 6H are high; 5S and 4S count only as trumps.
        assert_eq!(rough_count(hand, None), 2);
        assert_eq!(rough_count(hand, Some(Suit::S)), 4);
    }
}

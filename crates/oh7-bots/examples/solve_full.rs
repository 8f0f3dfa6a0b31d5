use oh7_bots::pi::{Position, Scorer, Solver};
use oh7_core::card::{Card, CardSet};
use oh7_core::ruleset::{Preset, Ruleset};
use rand::SeedableRng;
use rand::seq::SliceRandom;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(Preset::En);
    let players: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(4);
    let rules = Ruleset::preset(preset);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut solver = Solver::new(20);
    for i in 0..10 {
        let mut deck = rules.deck(players);
        deck.shuffle(&mut rng);
        let mut hands = [CardSet::EMPTY; 9];
        for p in 0..players {
            hands[p] = CardSet::from_cards(&deck[p * 7..p * 7 + 7]);
        }
        let bets: Vec<Card> = (0..players).map(|p| deck[p * 7]).collect();
        let trump = rules.suits(players)[0];
        let pos = Position::start(&rules, players, None, &hands, &[], 0, trump);
        solver.set_scorer(Scorer::new(&rules, &bets));
        solver.reset_nodes();
        let t = std::time::Instant::now();
        let w = solver.solve(&pos);
        println!("{i}: {:?} nodes {} {:?}", &w[..players], solver.nodes, t.elapsed());
    }
}

use oh7_bots::{play_game, seven_bot};
use oh7_core::game::Game;
use oh7_core::seven::{SevenGame, SevenRules};
fn main() {
    for lvl in ["random", "heuristic", "search"] {
        let rules = SevenRules { limit: None, ..SevenRules::default() };
        let mut g = SevenGame::new(rules, 3, 5).unwrap();
        let mut bots: Vec<_> = (0..3).map(|s| seven_bot(lvl, s).unwrap()).collect();
        let t = std::time::Instant::now();
        let n = play_game(&mut g, &mut bots, 100000);
        println!("{lvl}: {:?} decisions, winners {:?}, totals {:?} {:?}", n, g.winners(), g.totals(), t.elapsed());
    }
}

//! The tutorials' prepared deals: one seed per family, so that a newcomer's first game is the
//! same deal each time (the page's coach, `web/coach.js`, explains each first decision as it
//! comes, whatever the deal). A tutorial table seats its creator against bots only, so a deal
//! known in advance gives nobody an edge; its later games (a rematch) draw their seeds as any
//! table does.

use oh7_core::registry::GameSpec;
use oh7_core::ruleset::Preset;

/// The prepared deal of `spec`'s family (its preset's, for an Oh 7 ruleset built on one).
pub fn seed(spec: &GameSpec) -> u64 {
    match spec {
        GameSpec::Oh7 { ruleset } => match ruleset.preset {
            // Four suits, two sixes, a zero: a hand to count.
            Preset::En | Preset::Fr | Preset::Bga => 8,
            // A star and the void.
            Preset::FrAdvanced => 8,
            // Two stars and the interrobang.
            Preset::Kod7 => 0,
        },
        // The newcomer plays first, with a wild 8, a 2 and a jack to learn.
        GameSpec::Seven { .. } => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::registry::GameRequest;

    fn spec(game: &str, preset: Option<&str>) -> GameSpec {
        GameSpec::from_request(&GameRequest { game: Some(game), preset, ..Default::default() }).unwrap()
    }

    /// Seat 0's hand in the tutorial deal of `game`/`preset` at `players`, and the seats to move.
    fn dealt(game: &str, preset: Option<&str>, players: usize) -> (Vec<String>, Vec<usize>) {
        let s = spec(game, preset);
        let g = s.new_game(players, seed(&s)).unwrap();
        let hand =
            g.view_json(Some(0))["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
        (hand, g.to_move().iter().collect())
    }

    #[test]
    fn each_prepared_deal_holds_what_its_tutorial_teaches() {
        for p in ["en", "fr", "bga"] {
            let (hand, _) = dealt("oh7", Some(p), 4);
            let suits: std::collections::BTreeSet<char> = hand.iter().filter_map(|c| c.chars().last()).collect();
            assert!(suits.len() >= 3, "{p}: {hand:?}");
            assert!(hand.iter().any(|c| c.starts_with('6') || c.starts_with('7')), "{p}: {hand:?}");
        }
        let (hand, _) = dealt("oh7", Some("fr-advanced"), 4);
        assert!(hand.iter().any(|c| c.starts_with('*')) && hand.iter().any(|c| c.starts_with('V')), "{hand:?}");
        let (hand, _) = dealt("oh7", Some("kod7"), 4);
        assert!(hand.iter().any(|c| c.starts_with('*')) && hand.iter().any(|c| c == "?"), "{hand:?}");
        let (hand, to_move) = dealt("seven", None, 3);
        assert_eq!(to_move, vec![0], "the newcomer plays first");
        assert!(hand.iter().any(|c| c.starts_with('8')), "{hand:?}");
    }
}

//! The English rules summary: sentences over what [`super::Ctx`] read from the ruleset.

use super::{Ctx, FactWords, Section, Summary};
use crate::ruleset::{AfterLastAttempt, DummyFollower, EndRule, LeaderRule, Preset, Scoring};

fn title(p: Preset) -> &'static str {
    match p {
        Preset::En => "Oh 7 ? (English edition)",
        Preset::Fr => "Oh 7 ? (French edition, base game)",
        Preset::FrAdvanced => "Oh 7 ? (French edition, advanced game)",
        Preset::Kod7 => "Kod-7",
        Preset::Bga => "Oh-Seven (online rules)",
    }
}

fn cap(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub(super) fn oh7(c: &Ctx) -> Summary {
    let r = c.r;
    let t = c.t;
    let mut deck = vec!["Each player gets 7 cards; the rest is the discard, unused and unseen.".to_string()];
    for &n in &c.counts {
        let (suits, specials, len) = c.deck_of(n);
        let who = if r.uses_dummy(n) { "2 players and the Dummy".to_string() } else { format!("{n} players") };
        let copies = if r.copies(n) == 2 { ", two copies of each" } else { "" };
        let extra = if specials.is_empty() { String::new() } else { format!(", and {specials}") };
        deck.push(format!("{who}: {suits}, values 0 to 7{copies}{extra} ({len} cards)."));
    }

    let mut special = Vec::new();
    if c.stars {
        special.push("★n (star): bets n; may always be played; counts as the lead suit (below a regular card of the same value) and as a trump when trump is led.".to_string());
    }
    if c.void {
        special.push("Ø (void): bets 0; may always be played; never wins a trick.".to_string());
    }
    if let Some(m) = c.mark {
        special.push(format!(
            "{m}: can never be bet; may always be played; beats everything but trumps.{}",
            if r.leader == LeaderRule::Exclarrogatif {
                " Among players tied for first leader, its holder may reveal it to win the tie."
            } else {
                " On a tie for first leader its holder reveals it and chooses the leader."
            }
        ));
    }
    if let Some(f) = c.fifth {
        special.push(format!("{f}: the fifth suit, last in suit priority."));
    }
    if c.copies {
        special
            .push("′: the second copy of an identical card; of two identical cards the first played wins.".to_string());
    }

    let mut round = Vec::new();
    if r.passing {
        round.push(format!("Passing: before the {}, by round: 1 none, 2 one to the left, 3 two to the right, 4 three to the left, 5 two to the right, 6 one to the left, 7 none (left = the next seat clockwise). You see the cards you receive only after passing yours.", t.bets));
    }
    round.push(format!("{}: everyone chooses a card of their hand secretly; all are revealed at once. Its value is the exact number of tricks you commit to win. The cards go back to the hands and stay public.", cap(t.bets)));
    let dummy = if c.dummy { " (the Dummy's 2 included)" } else { "" };
    round.push(match (r.bet_attempts, r.after_last_attempt) {
        (None, _) => format!("If the {} sum to 7{dummy}, everyone bets again with another card, as long as everyone has an unused card (else the round is dealt again).", t.bets),
        (Some(n), AfterLastAttempt::Stands) => format!("If the {} sum to 7{dummy}, everyone bets again with another card; attempt {n} stands even if it sums to 7.", t.bets),
        (Some(n), AfterLastAttempt::Redeal) => format!("If the {} sum to 7{dummy}, everyone bets again with another card; after {n} attempts summing to 7 the round is dealt again.", t.bets),
    });
    if r.rebid_bonus {
        round.push("Each time the bids sum to 7, the top bid scores 1 point at once.".to_string());
    }
    round.push(match r.leader {
        LeaderRule::HighestBet => format!(
            "First leader and {}: the highest {} leads the first trick; ties by suit priority {}; its suit is {}.{}",
            t.trump,
            t.bet,
            c.priority,
            t.trump,
            if c.two_decks() { " With two decks, a top bid made by two identical cards forces a rebid." } else { "" }
        ),
        LeaderRule::Exclarrogatif => "First leader and trump: the highest regular bet leads (★ and Ø are ignored); its suit is trump. Among tied players the holder of ? may reveal it to win the tie; otherwise suit priority. If every bet is ★ or Ø, the highest ★ leads and chooses the trump.".to_string(),
        LeaderRule::Interrobang => "First leader and exception suit: the highest non-★ estimation leads; its suit is the exception suit (the trump). On a tie the holder of ‽ reveals it and chooses the leader among the tied players (a lot if nobody holds it). If every estimation is ★, the highest ★ leads and chooses the exception suit; tied players announce a suit first.".to_string(),
    });
    round.push(format!("Tricks: 7 per round. Follow the lead suit if you can; otherwise play anything. The highest {} wins, else the highest card of the lead suit; of identical cards, the first played.", t.trump));
    if c.dummy {
        round.push(format!(
            "Two players: the Dummy sits after them, always bets 2, never leads first, and plays last from its face-up cards (2 turned up after the bets, one more each time), wanting exactly 2 tricks. When it won the last trick it leads the top card of its pile, followed by {}. It scores nothing.",
            match r.dummy_follower {
                DummyFollower::PreviousLeader => "the leader of the previous trick",
                DummyFollower::FirstLeader => "the round's first leader",
            }
        ));
    }

    let rounds = plural(r.rounds, "round", "rounds");
    let target = r.target.unwrap_or(35);
    let scoring = vec![
        match r.scoring {
            Scoring::Basket => "Scoring (loss = |bet − tricks won|): failed: −loss; made: 2 + basket + tricks won; the basket is the losses of those who failed.",
            Scoring::DoubleBasket if c.void => "Scoring (loss = |bet − tricks won|): failed: basket − loss; made: 2 × basket + 2 + tricks won (made with Ø: no 2); the basket is the sum of all losses.",
            Scoring::DoubleBasket => "Scoring (loss = |bet − tricks won|): failed: basket − loss; made: 2 × basket + 2 + tricks won; the basket is the sum of all losses.",
            Scoring::BidPlusTwo => "Scoring: failed: −|bid − tricks won|; made: bid + 2.",
        }
        .to_string(),
        match r.end {
            EndRule::MinRounds => format!(
                "End: at least {rounds}; then the single highest score wins if it made its last bet. {}",
                if r.every_tie_replays {
                    "Any tie for the highest score plays another round."
                } else {
                    "Tie: another round if a tied player failed; else most made bets, then shared."
                }
            ),
            EndRule::MinRoundsStrict => format!("End: at least {rounds}; the winner must have made the last bet and have strictly the highest score; any tie plays another round."),
            EndRule::Target => format!("End: the first to reach {target} points at the end of a round in which they made their bet. Several at once: most made bets, then most points, then shared."),
            EndRule::FixedRounds => format!("End: exactly {rounds}; the highest score wins; tie: most made bids, then shared."),
        },
    ];

    let facts = c.facts(&FactWords {
        target: &|n| format!("Target: {n} points"),
        rounds: &|fixed| if fixed { cap(&rounds) } else { format!("At least {rounds}") },
        passing: "Card passing",
        two_decks: "Two decks",
        dummy: "With the Dummy",
        special: "Special cards",
        again: &|bets| format!("If the {bets} sum to 7, everyone goes again"),
    });

    Summary {
        title: title(r.preset).to_string(),
        preset: Some(r.preset),
        sections: vec![
            Section::new("Cards", deck),
            Section::new("Special cards", special),
            Section::new("A round", round),
            Section::new("Scoring and the end", scoring),
        ],
        facts,
    }
}

pub(super) fn seven(r: &crate::seven::SevenRules) -> Summary {
    let s = |x: &str| x.to_string();
    Summary {
        title: s("Seven — the shedding game (2 to 8 players)"),
        preset: None,
        sections: vec![
            Section::new(
                "Cards",
                vec![format!(
                    "Two standard 52-card decks (104 cards). Each player gets {}; the rest is the draw pile, whose top card is turned up to start the discard pile (its effect does not apply). A second copy of a card is marked ′.",
                    r.hand_size
                )],
            ),
            Section::new(
                "A turn",
                vec![s(
                    "Play a card matching the suit to follow or the rank of the top card, or an 8. If you cannot play, draw one card (that ends your turn).",
                )],
            ),
            Section::new(
                "Action cards",
                vec![
                    s("2: the next player plays a 2 or draws 2 × (2s in a row)."),
                    s("A♠: the next player plays A♠ or draws 5 × (A♠ in a row)."),
                    s(
                        "7: the following players may only play a 7 or pass; when the turn comes back to the last player of a 7, they play any card.",
                    ),
                    s("8: wild: name the new suit to follow (not while a 2, A♠ or 7 is pending)."),
                    s("10 reverses the direction; J: the next player loses their turn."),
                ],
            ),
            Section::new(
                "Last card",
                vec![s(
                    "Announce your last card as you play your second-to-last card. If you do not, every other player answers at once whether they call you out; if anyone does, you draw 4.",
                )],
            ),
            Section::new(
                "Scoring and the end",
                vec![
                    s(
                        "The first player with no card wins the round; the others add their cards: 2-7, 9, 10 face value; J, Q, K, A 10; A♠ 15; 8 zero.",
                    ),
                    match r.limit {
                        Some(l) => format!(
                            "A total over {l} is eliminated, exactly {l} drops back to 0; the last player left wins."
                        ),
                        None => s("One round only: the lowest total wins."),
                    },
                ],
            ),
        ],
        facts: Vec::new(),
    }
}

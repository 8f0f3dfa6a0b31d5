//! The English rules summary (`oh7 rules`, `?` in the terminal): generated from a ruleset's knobs
//! so that it is true for custom rulesets too.

use std::fmt::Write;

use crate::ruleset::{AfterLastAttempt, DeckStyle, DummyFollower, EndRule, LeaderRule, Preset, Ruleset, Scoring};

fn title(p: Preset) -> &'static str {
    match p {
        Preset::En => "Oh 7 ? (English edition)",
        Preset::Fr => "Oh 7 ? (French edition, base game)",
        Preset::FrAdvanced => "Oh 7 ? (French edition, advanced game)",
        Preset::Kod7 => "Kod-7",
        Preset::Bga => "Oh-Seven (online rules)",
    }
}

/// The summary of `r`.
pub fn summary(r: &Ruleset) -> String {
    let mut s = String::new();
    let fifth = r.fifth_symbol();
    let mark = r.mark_symbol();
    let _ = writeln!(s, "{} — preset `{}`", title(r.preset), r.preset);
    let _ = writeln!(s);
    let _ = writeln!(s, "Deck (7 cards to each player; the rest is the discard, unused and unseen):");
    for n in r.min_players as usize..=r.max_players as usize {
        let deck = r.deck(n);
        let suits: String = r.suits(n).iter().map(|x| x.symbol(fifth)).collect();
        let specials: Vec<String> = deck.iter().filter(|c| !c.is_regular()).map(|c| c.pretty(fifth, mark)).collect();
        let copies = if r.copies(n) == 2 { ", two copies of each" } else { "" };
        let extra = if specials.is_empty() { String::new() } else { format!(" + {}", specials.join(" ")) };
        let who = if r.uses_dummy(n) { "2 players + the Dummy".to_string() } else { format!("{n} players") };
        let _ = writeln!(s, "  {who:>22}: {suits} 0-7{copies}{extra} ({} cards)", deck.len());
    }
    let _ = writeln!(s);
    if r.passing {
        let _ = writeln!(
            s,
            "Passing: before the bets, by round: 1 none, 2 one left, 3 two right, 4 three left, 5 two right, 6 one left, 7 none (left = next seat clockwise)."
        );
    }
    let _ = writeln!(s, "Bets: everyone chooses a card secretly; all are revealed at once; its value is the exact");
    let _ = writeln!(s, "  number of tricks you commit to win. Bet cards go back to the hands and stay public.");
    if r.deck == DeckStyle::Advanced || r.deck == DeckStyle::Kod7 {
        let _ = writeln!(
            s,
            "  ★n bets n{}; {mark} can never be bet.",
            if r.deck == DeckStyle::Advanced { ", Ø bets 0" } else { "" }
        );
    }
    let _ = write!(
        s,
        "  If the bets sum to 7{}, everyone bets again with another card",
        if r.dummy { " (the Dummy's 2 included)" } else { "" }
    );
    match (r.bet_attempts, r.after_last_attempt) {
        (Some(n), AfterLastAttempt::Redeal) => {
            let _ = writeln!(s, "; after {n} attempts summing to 7 the round is dealt again.");
        }
        (Some(n), AfterLastAttempt::Stands) => {
            let _ = writeln!(s, "; attempt {n} stands even if it sums to 7.");
        }
        (None, _) => {
            let _ = writeln!(s, ", as long as everyone has an unused card (else the round is dealt again).");
        }
    }
    if r.rebid_bonus {
        let _ = writeln!(s, "  Each time the bids sum to 7, the top bid scores 1 point at once.");
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "First leader and trump:");
    match r.leader {
        LeaderRule::HighestBet => {
            let _ = writeln!(
                s,
                "  the highest bet leads; ties by suit priority ♠ > ♥ > ♣ > ♦ > {fifth}; its suit is trump."
            );
            if r.decks == 2 || r.preset == Preset::Bga {
                let _ = writeln!(s, "  With two decks, a top bid made by two identical cards forces a rebid.");
            }
        }
        LeaderRule::Exclarrogatif => {
            let _ = writeln!(s, "  the highest regular bet leads (★ and Ø are ignored); its suit is trump. Among tied");
            let _ = writeln!(s, "  players, the holder of ? may reveal it to win the tie; otherwise suit priority.");
            let _ = writeln!(s, "  If every bet is ★ or Ø, the highest ★ leads and chooses the trump.");
        }
        LeaderRule::Interrobang => {
            let _ = writeln!(s, "  the highest non-★ estimation leads; its suit is the exception suit. On a tie the");
            let _ = writeln!(s, "  holder of ‽ reveals it and chooses the leader among the tied players (a lot if");
            let _ = writeln!(s, "  nobody holds it). If every estimation is ★, the highest ★ leads and chooses the");
            let _ = writeln!(s, "  exception suit; tied players announce a suit first, then ‽ (or a lot) picks.");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Tricks: 7 per round. Follow the lead suit if you can; otherwise play anything.");
    if r.deck(r.max_players as usize).iter().any(|c| !c.is_regular()) {
        let _ = writeln!(s, "  Special cards may always be played. ★ counts as the lead suit (below a regular card of");
        let _ = writeln!(s, "  the same value) and as a trump when trump is led. {mark} beats everything but trumps.");
        if r.deck == DeckStyle::Advanced {
            let _ = writeln!(s, "  Ø never wins a trick.");
        }
    }
    let _ = writeln!(s, "  Highest trump wins, else the highest card of the lead suit; identical cards: first played.");
    let _ = writeln!(s);
    let _ = writeln!(s, "Scoring (loss = |bet - tricks won|):");
    match r.scoring {
        Scoring::Basket => {
            let _ = writeln!(s, "  failed: -loss; made: 2 + basket + tricks won; basket = the losses of the failed.");
        }
        Scoring::DoubleBasket => {
            let _ = writeln!(s, "  failed: basket - loss; made: 2 x basket + 2 + tricks won (made with Ø: no 2);");
            let _ = writeln!(s, "  basket = the sum of all losses.");
        }
        Scoring::BidPlusTwo => {
            let _ = writeln!(s, "  failed: -loss; made: bid + 2.");
        }
    }
    let _ = writeln!(s);
    let _ = write!(s, "End: ");
    match r.end {
        EndRule::MinRounds => {
            let _ = writeln!(
                s,
                "at least {} rounds; then the single highest score wins if it made its last bet.",
                r.rounds
            );
            if r.every_tie_replays {
                let _ = writeln!(s, "  Any tie for the highest score plays another round.");
            } else {
                let _ = writeln!(s, "  Tie: another round if a tied player failed; else most made bets, then shared.");
            }
        }
        EndRule::MinRoundsStrict => {
            let _ = writeln!(
                s,
                "at least {} rounds; the winner must have made the last bet and have strictly the",
                r.rounds
            );
            let _ = writeln!(s, "  highest score; any tie plays another round.");
        }
        EndRule::Target => {
            let _ = writeln!(
                s,
                "the first to reach {} points at the end of a round in which they made their bet.",
                r.target.unwrap_or(35)
            );
            let _ = writeln!(s, "  Several at once: most made bets, then most points, then shared.");
        }
        EndRule::FixedRounds => {
            let _ = writeln!(s, "exactly {} rounds; highest score wins; tie: most made bids, then shared.", r.rounds);
        }
    }
    if r.dummy {
        let _ = writeln!(s);
        let _ = writeln!(s, "Two players: the Dummy sits after them, always bets 2, never leads first, and plays");
        let _ = writeln!(s, "  last from its face-up cards (2 turned up after the bets, one more each time), wanting");
        let _ = writeln!(s, "  exactly 2 tricks. When it won the last trick it leads the top card of its pile,");
        let _ = writeln!(
            s,
            "  followed by {}. It scores nothing.",
            match r.dummy_follower {
                DummyFollower::FirstLeader => "the round's first leader",
                DummyFollower::PreviousLeader => "the leader of the previous trick",
            }
        );
    }
    s
}

/// The summary of Seven (`rules/seven.md`).
pub fn seven_summary() -> String {
    "Seven — the shedding game (2 to 8 players)

Cards: two standard 52-card decks (104 cards). Each player gets 8; the rest is the draw pile,
  whose top card is turned up to start the discard pile (its effect does not apply).
Turn: play a card matching the active suit or the rank of the top card, or an 8. If you cannot
  play, draw one card (that ends your turn).
Action cards:
  2   the next player plays a 2 or draws 2 x (2s in a row);
  A♠  the next player plays A♠ or draws 5 x (A♠ in a row);
  7   the following players may only play a 7 or pass; when the turn comes back to the last
      player of a 7, they play any card;
  8   wild: name the new active suit (not while a 2, A♠ or 7 is pending);
  10  reverses the direction;   J  the next player loses their turn.
Last card: announce it as you play your second-to-last card. If you do not, every other player
  answers at once whether they call you out; if anyone does, you draw 4.
Round end: the first player with no card wins the round; the others add their cards:
  2-7, 9, 10 face value; J, Q, K, A 10; A♠ 15; 8 zero.
Game end: a total over 150 is eliminated, exactly 150 drops back to 0; the last player left wins.
"
    .to_string()
}

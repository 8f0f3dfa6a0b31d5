//! The worked examples of the rule documents and one test per ruling id of `rules/oh7.md`.

use oh7_core::card::{Card, CardSet, Suit, parse_cards};
use oh7_core::game::{Game, SeatViewLike};
use oh7_core::oh7::{Action, BetBan, Oh7Game, PhaseView, RuleError};
use oh7_core::ruleset::{Preset, Ruleset};

fn c(t: &str) -> Card {
    t.parse().unwrap()
}
fn set(t: &str) -> CardSet {
    CardSet::from_cards(&parse_cards(t).unwrap())
}

/// A game of `preset` whose first deal is `hands` (one string per player) and `rest`.
fn game(rules: Ruleset, hands: &[&str], rest: &str) -> Oh7Game {
    let mut g = Oh7Game::new(rules, hands.len(), 1).unwrap();
    let hs: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    g.set_deal(&hs, &parse_cards(rest).unwrap()).unwrap();
    g
}

fn bets(g: &mut Oh7Game, cards: &str) {
    for (p, card) in parse_cards(cards).unwrap().into_iter().enumerate() {
        g.apply(p, Action::Bet(card)).unwrap_or_else(|e| panic!("seat {p} bets {card}: {e}"));
    }
}

/// Play cards in order; each card is played by the seat whose turn it is.
fn plays(g: &mut Oh7Game, cards: &str) {
    for card in parse_cards(cards).unwrap() {
        let seat = g.to_move().lowest().expect("someone to play");
        g.apply(seat, Action::Play(card)).unwrap_or_else(|e| panic!("seat {seat} plays {card}: {e}"));
    }
}

fn last_round(g: &Oh7Game) -> serde_json::Value {
    g.record()["rounds"][0].clone()
}

// The example of seeds 000 (en) and 003 (fr): Alice, Bob, Carole, David = seats 0-3.
const ALICE: &str = "3C 2C 7C 6C 5C 7S 6S";
const BOB: &str = "3H 7H 6H 5H 3S 1S 1C";
const CAROLE: &str = "2S 2H 0D 1D 2D 3D 4D";
const DAVID: &str = "0S 0H 1H 4H 5D 6D 7D";
const REST: &str = "4S 5S 0C 4C";
/// Bob wins the four trumps, then Alice wins the last three: won 3, 4, 0, 0.
const TRICKS: &str = "7H 2H 0H 6S  6H 0D 1H 2C  5H 1D 4H 3C  3H 2D 5D 5C  1S 2S 0S 7S  7C 1C 3D 6D  6C 3S 4D 7D";

fn example(preset: Preset) -> Oh7Game {
    let mut g = game(Ruleset::preset(preset), &[ALICE, BOB, CAROLE, DAVID], REST);
    // Example 1: the first bets sum to 7, so everyone bets again with another card.
    bets(&mut g, "2C 3S 2S 0H");
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 2 });
    bets(&mut g, "3C 3H 2H 0S");
    // Alice and Bob bet 3; hearts has priority over clubs: Bob leads, hearts is trump.
    assert_eq!(g.view(0).leader_and_trump(), Some((1, Suit::H)));
    plays(&mut g, TRICKS);
    g
}

#[test]
fn en_example_1_bets_and_first_leader() {
    let g = example(Preset::En);
    let r = last_round(&g);
    assert_eq!(r["bet_attempts"], serde_json::json!([["2C", "3S", "2S", "0H"], ["3C", "3H", "2H", "0S"]]));
    assert_eq!(r["bets"], serde_json::json!([3, 3, 2, 0]));
    assert_eq!(r["first_leader"], 1);
    assert_eq!(r["trump"], "H");
}

#[test]
fn en_example_2_scores() {
    let g = example(Preset::En);
    let r = last_round(&g);
    assert_eq!(r["won"], serde_json::json!([3, 4, 0, 0]));
    assert_eq!(r["points"], serde_json::json!([8, -1, -2, 5]));
    assert_eq!(g.totals(), vec![8, -1, -2, 5]);
}

#[test]
fn fr_exemple_1_paris() {
    let g = example(Preset::Fr);
    let r = last_round(&g);
    assert_eq!(r["first_leader"], 1);
    assert_eq!(r["trump"], "H");
}

#[test]
fn fr_exemple_2_scores() {
    let g = example(Preset::Fr);
    assert_eq!(last_round(&g)["points"], serde_json::json!([11, 2, 1, 8]));
}

#[test]
fn kod7_estimation_example_and_scores() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["*3 2C 7C 6C 5C 7S 6S", BOB, "2S 2H 0C 3C 4C *1 *2", "*0 0S 0H 1H 4H 4S 5S"],
        "*2' *4 *5 ?",
    );
    bets(&mut g, "2C 3S 2S *0");
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 2 });
    bets(&mut g, "*3 3H 2H 0S");
    // Bob estimated the highest non-★ card: he leads, ♥ is the exception suit.
    assert_eq!(g.view(2).leader_and_trump(), Some((1, Suit::H)));
    plays(&mut g, "7H 2H 0H 6S  6H 0C 1H 2C  5H 3C 4H *3  3H 4C *0 5C  1S 2S 0S 7S  7C 1C *1 4S  6C 3S *2 5S");
    let r = last_round(&g);
    assert_eq!(r["won"], serde_json::json!([3, 4, 0, 0]));
    assert_eq!(r["points"], serde_json::json!([8, -1, -2, 5]));
}

/// R-BET-1: ‽/? can never be used to bet.
#[test]
fn r_bet_1_interrobang_cannot_bet() {
    let mut g = game(
        Ruleset::preset(Preset::FrAdvanced),
        &["? 0S 1S 2S 3S 4S 5S", "6S 7S 0H 1H 2H 3H 4H", "5H 6H 7H *1 *2 *3 *4"],
        "V V'",
    );
    let before = g.record();
    let e = g.apply(0, Action::Bet(Card::INTERROBANG)).unwrap_err();
    assert!(matches!(e, RuleError::CannotBet { .. }), "{e}");
    assert_eq!(g.record(), before);
    assert!(!g.view(0).to_json()["hand"].as_array().unwrap().is_empty());
    let mut legal = Vec::new();
    g.legal_actions(0, &mut legal);
    assert!(!legal.contains(&Action::Bet(Card::INTERROBANG)));
    assert_eq!(legal.len(), 6);
}

/// R-BET-2: a later attempt must use a card not used in an earlier attempt of the round.
#[test]
fn r_bet_2_later_attempt_needs_another_card() {
    let mut g = example_start(Preset::En);
    bets(&mut g, "2C 3S 2S 0H");
    let e = g.apply(0, Action::Bet(c("2C"))).unwrap_err();
    assert!(matches!(e, RuleError::CannotBet { why: BetBan::UsedBefore, .. }), "{e}");
    assert_eq!(BetBan::UsedBefore.ruling(), "R-BET-2");
    g.apply(0, Action::Bet(c("3C"))).unwrap();
}

fn example_start(p: Preset) -> Oh7Game {
    game(Ruleset::preset(p), &[ALICE, BOB, CAROLE, DAVID], REST)
}

/// R-BET-3: bet cards of every attempt return to the hands and are public while held.
#[test]
fn r_bet_3_bet_cards_are_public_while_held() {
    let mut g = example_start(Preset::En);
    bets(&mut g, "2C 3S 2S 0H");
    bets(&mut g, "3C 3H 2H 0S");
    let v = g.view(2);
    assert_eq!(v.public_bet_cards(0), set("2C 3C"));
    assert_eq!(v.public_bet_cards(3), set("0H 0S"));
    assert_eq!(v.to_json()["public_bet_cards"][1], serde_json::json!(["3S", "3H"]));
    plays(&mut g, "7H 2H 0H");
    assert_eq!(g.view(2).public_bet_cards(3), set("0S"));
}

/// Sum 7 three times: `en` deals again (scores unchanged, same round number).
#[test]
fn third_sum_of_seven_deals_again_in_en() {
    let mut g = example_start(Preset::En);
    bets(&mut g, "2C 3S 2S 0H");
    bets(&mut g, "3C 3H 0D 1H");
    bets(&mut g, "5C 1S 1D 0S");
    assert_eq!(g.view(0).redeals(), 1);
    assert_eq!(g.round_number(), 1);
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 1 });
    let r = last_round(&g);
    assert_eq!(r["redeals"][0]["bet_attempts"].as_array().unwrap().len(), 3);
    assert_eq!(r["redeals"][0]["hands"][0], serde_json::json!(["6S", "7S", "2C", "3C", "5C", "6C", "7C"]));
}

/// Sum 7 three times: in `kod7` the third attempt stands.
#[test]
fn third_sum_of_seven_stands_in_kod7() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["*3 2C 7C 6C 5C 7S 6S", BOB, "2S 2H 0C 3C 4C *1 *2", "*0 0S 0H 1H 4H 4S 5S"],
        "*2' *4 *5 ?",
    );
    bets(&mut g, "2C 3S 2S *0");
    bets(&mut g, "*3 1C 3C 0S");
    bets(&mut g, "5C 1S *1 0H");
    assert_eq!(g.view(0).phase(), PhaseView::Playing);
    assert_eq!(g.view(0).bets().unwrap(), &[5, 1, 1, 0]);
    assert_eq!(g.view(0).leader_and_trump(), Some((0, Suit::C)));
}

/// `bga`: each sum of 7 gives the top bid 1 point (R-OWN-7: ties by suit priority); bids go on
/// with unused cards.
#[test]
fn r_own_7_bga_rebid_bonus_points() {
    let mut g = example_start(Preset::Bga);
    bets(&mut g, "2C 3S 2S 0H"); // top bid ♠3: Bob +1
    bets(&mut g, "3C 3H 0D 1H"); // top bid ♥3 beats ♣3: Bob +1
    bets(&mut g, "7C 5H 1D 4H"); // not 7 (17)
    assert_eq!(g.view(0).bonus(), &[0, 2, 0, 0]);
    plays(&mut g, "7C 1C 2D 5D");
    let v = g.view(0);
    assert_eq!(v.leader_and_trump(), Some((0, Suit::C)));
}

/// `bga`: when some player has no unused card left the round is dealt again; bonus stays.
#[test]
fn bga_out_of_cards_deals_again_and_keeps_bonus() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Bga), 2, 3).unwrap();
    let hs = [set("0S 0H 0C 0D 1S 1H 1C"), set("7S 7H 7C 7D 6S 6H 6C")];
    let rest: Vec<Card> = CardSet::from_cards(&Ruleset::preset(Preset::Bga).deck(2)).minus(hs[0].or(hs[1])).to_vec();
    g.set_deal(&hs, &rest).unwrap();
    // 0 + 7 = 7 every time while seat 1 bets a 7, then 1 + 6 = 7.
    bets(&mut g, "0S 7S");
    bets(&mut g, "0H 7H");
    bets(&mut g, "0C 7C");
    bets(&mut g, "0D 7D");
    bets(&mut g, "1S 6S");
    bets(&mut g, "1H 6H");
    bets(&mut g, "1C 6C"); // seven attempts, all 7: no unused card left -> deal again
    assert_eq!(g.view(0).redeals(), 1);
    assert_eq!(g.view(0).bonus(), &[0, 7]);
    assert_eq!(g.round_number(), 1);
}

/// R-LEAD-1: in `fr-advanced`, when every bet is ★ or Ø the highest ★ leads and chooses trump.
#[test]
fn r_lead_1_all_stars_highest_star_chooses_trump() {
    let mut g = game(
        Ruleset::preset(Preset::FrAdvanced),
        &["*1 0S 1S 2S 3S 4S 5S", "*4 6S 7S 0H 1H 2H 3H", "V 4H 5H 6H 7H *2 *3"],
        "V' ?",
    );
    bets(&mut g, "*1 *4 V"); // 1 + 4 + 0 = 5
    assert_eq!(g.view(0).phase(), PhaseView::ChooseTrump { leader: 1 });
    let e = g.apply(1, Action::ChooseTrump(Suit::C)).unwrap_err();
    assert!(e.to_string().contains("not a suit of this deck"), "{e}");
    g.apply(1, Action::ChooseTrump(Suit::H)).unwrap();
    assert_eq!(g.view(0).leader_and_trump(), Some((1, Suit::H)));
    assert_eq!(last_round(&g)["decisions"], serde_json::json!([{"seat": 1, "kind": "choose_trump", "value": "H"}]));
}

/// `fr-advanced`: ★ bets are ignored for the first leader; the ? holder among tied players
/// may reveal it to win the tie; R-OWN-2: every tied player is asked, so nobody learns who
/// holds ?.
#[test]
fn r_own_2_fr_advanced_question_mark_wins_a_tie() {
    let hands = ["? 2S 0H 1H 6S 7S 5H", "2H 0S 1S 3S 4S 5S 3H", "*4 4H 6H 7H *1 *2 *3"];
    let mut g = game(Ruleset::preset(Preset::FrAdvanced), &hands, "V V'");
    bets(&mut g, "2S 2H *4"); // ★4 is ignored; seats 0 and 1 tie on 2
    assert!(matches!(g.view(2).phase(), PhaseView::Reveal { .. }));
    assert_eq!(g.to_move().iter().collect::<Vec<_>>(), vec![0, 1]);
    let e = g.apply(1, Action::Reveal(true)).unwrap_err();
    assert!(e.to_string().contains("do not hold"), "{e}");
    g.apply(1, Action::Reveal(false)).unwrap();
    g.apply(0, Action::Reveal(true)).unwrap();
    assert_eq!(g.view(2).leader_and_trump(), Some((0, Suit::S)));
    assert_eq!(g.view(2).revealed_interrobang(), Some(0));
    // Seat 0 bets 2♥ and seat 1 2♠: with the reveal seat 0 leads; without it, ♠ has priority.
    let hands = ["? 2H 0H 1H 6S 7S 5H", "2S 0S 1S 3S 4S 5S 3H", "*4 4H 6H 7H *1 *2 *3"];
    let mut g = game(Ruleset::preset(Preset::FrAdvanced), &hands, "V V'");
    bets(&mut g, "2H 2S *4");
    g.apply(0, Action::Reveal(true)).unwrap();
    g.apply(1, Action::Reveal(false)).unwrap();
    assert_eq!(g.view(1).leader_and_trump(), Some((0, Suit::H)));
    let mut g = game(Ruleset::preset(Preset::FrAdvanced), &hands, "V V'");
    bets(&mut g, "2H 2S *4");
    g.apply(0, Action::Reveal(false)).unwrap();
    g.apply(1, Action::Reveal(false)).unwrap();
    assert_eq!(g.view(1).leader_and_trump(), Some((1, Suit::S)));
    assert_eq!(g.view(1).revealed_interrobang(), None);
}

/// R-LEAD-2: `kod7`, every estimation a ★: the highest ★ leads and chooses any suit of the deck.
#[test]
fn r_lead_2_kod7_all_stars() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["*6 0S 1S 2S 3S 4S 5S", "*1 6S 7S 0H 1H 2H 3H", "*0 4H 5H 6H 7H *2 *3"],
        "*4 *5 ?",
    );
    bets(&mut g, "*6 *1 *2"); // 9
    assert_eq!(g.view(0).phase(), PhaseView::ChooseTrump { leader: 0 });
    let mut legal = Vec::new();
    g.legal_actions(0, &mut legal);
    assert_eq!(legal, vec![Action::ChooseTrump(Suit::S), Action::ChooseTrump(Suit::H)]);
    g.apply(0, Action::ChooseTrump(Suit::H)).unwrap();
    assert_eq!(g.view(0).leader_and_trump(), Some((0, Suit::H)));
}

/// `kod7` tie on the highest non-★ estimation: the ‽ holder (tied or not) reveals it and
/// chooses the first leader among the tied players; R-OWN-3: the forced reveal is recorded.
#[test]
fn r_own_3_kod7_interrobang_holder_chooses_leader() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["3S 0S 1S 2S 4S 5S 6S", "3H 7S 0H 1H 2H 4H 5H", "? 6H 7H *0 *1 *2 *3"],
        "*4 *5 *6",
    );
    bets(&mut g, "3S 3H *3"); // 9; seats 0 and 1 tie on 3, ‽ is seat 2's
    assert_eq!(g.view(0).phase(), PhaseView::ChooseLeader { chooser: 2, among: oh7_core::SeatSet(0b11) });
    assert_eq!(g.view(0).revealed_interrobang(), Some(2));
    let e = g.apply(2, Action::ChooseLeader(2)).unwrap_err();
    assert!(e.to_string().contains("not among the tied players"), "{e}");
    g.apply(2, Action::ChooseLeader(1)).unwrap();
    assert_eq!(g.view(0).leader_and_trump(), Some((1, Suit::H)));
    let d = &last_round(&g)["decisions"];
    assert_eq!(
        *d,
        serde_json::json!([
            {"seat": 2, "kind": "reveal_interrobang", "value": true},
            {"seat": 2, "kind": "choose_leader", "value": 1}
        ])
    );
}

/// `kod7`: tied all-★ estimations: each tied player announces a suit, then ‽ picks the leader.
#[test]
fn kod7_all_star_tie_announce_then_interrobang() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["*1 0S 1S 2S 4S 5S 6S", "*2 7S 0H 1H 2H 4H 5H", "*5 6H 7H *0 3S 3H ?"],
        "*3 *4 *6",
    );
    bets(&mut g, "*1 *2 *5"); // 8, highest ★5 alone -> it chooses
    assert_eq!(g.view(0).phase(), PhaseView::ChooseTrump { leader: 2 });

    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 1).unwrap();
    let hs = [
        set("*2 0S 1S 2S 4S 5S 6S"),
        set("*2' 7S 0H 1H 2H 4H 5H"),
        set("*1 6H 7H 0C 1C 2C 3C"),
        set("*0 4C 5C 6C 7C 3S ?"),
    ];
    g.set_deal(&hs, &parse_cards("3H *3 *4 *5").unwrap()).unwrap();
    bets(&mut g, "*2 *2' *1 *0"); // 5; seats 0 and 1 tie with ★2
    assert_eq!(g.view(3).phase(), PhaseView::AnnounceTrump { tied: oh7_core::SeatSet(0b11) });
    g.apply(0, Action::AnnounceTrump(Suit::C)).unwrap();
    // Seat 1 does not see seat 0's announcement before all are in.
    assert_eq!(g.view(1).announced()[0], None);
    assert_eq!(g.view(0).announced()[0], Some(Suit::C));
    g.apply(1, Action::AnnounceTrump(Suit::H)).unwrap();
    assert_eq!(g.view(0).phase(), PhaseView::ChooseLeader { chooser: 3, among: oh7_core::SeatSet(0b11) });
    g.apply(3, Action::ChooseLeader(0)).unwrap();
    assert_eq!(g.view(1).leader_and_trump(), Some((0, Suit::C)));
}

/// R-LEAD-3: `bga` ties on value are broken ♠ > ♥ > ♣ > ♦.
#[test]
fn r_lead_3_bga_suit_priority() {
    let mut g = example_start(Preset::Bga);
    bets(&mut g, "3C 3S 2H 0H"); // 8; ♠3 beats ♣3
    assert_eq!(g.view(0).leader_and_trump(), Some((1, Suit::S)));
    let mut g = example_start(Preset::Bga);
    bets(&mut g, "5C 1S 0D 5D"); // 11; ♣5 beats ♦5
    assert_eq!(g.view(0).leader_and_trump(), Some((0, Suit::C)));
}

/// `bga` two decks: identical top bids force a rebid (no bonus).
#[test]
fn bga_identical_top_bids_rebid() {
    let rules = Ruleset { decks: 2, ..Ruleset::preset(Preset::Bga) };
    let mut g = Oh7Game::new(rules, 3, 1).unwrap();
    let hs = [set("5S 0H 1H 2H 3H 4H 5H"), set("5S' 0C 1C 2C 3C 4C 5C"), set("0D 1D 2D 3D 4D 5D 6D")];
    let rest: Vec<Card> = CardSet::from_cards(&rules.deck(3)).minus(hs[0].or(hs[1]).or(hs[2])).to_vec();
    g.set_deal(&hs, &rest).unwrap();
    bets(&mut g, "5S 5S' 0D");
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 2 });
    assert_eq!(g.view(0).bonus(), &[0, 0, 0]);
    bets(&mut g, "5H 4C 1D");
    assert_eq!(g.view(0).leader_and_trump(), Some((0, Suit::H)));
}

/// R-LEAD-4: with the Dummy, a ‽ in the Dummy's pile counts as held by nobody: a seeded lot.
#[test]
fn r_lead_4_interrobang_in_dummy_pile_means_lot() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 2, 11).unwrap();
    let hs = [set("3S 0S 1S 2S 4S 5S 6S"), set("3H 7S 0H 1H 2H 4H 5H")];
    let pile = parse_cards("6H 7H *0 *1 *2 *3 *4 *5 *6 ?").unwrap();
    g.set_deal(&hs, &pile).unwrap();
    bets(&mut g, "3S 3H"); // 3 + 3 + Dummy 2 = 8, tie on 3
    let d = &last_round(&g)["decisions"];
    assert_eq!(d.as_array().unwrap().len(), 1);
    assert_eq!(d[0]["kind"], "lot");
    let leader = d[0]["value"].as_u64().unwrap() as usize;
    assert_eq!(g.view(0).leader_and_trump(), Some((leader, if leader == 0 { Suit::S } else { Suit::H })));
    assert_eq!(g.view(0).revealed_interrobang(), None);
}

fn dummy_game(preset: Preset, seed: u64) -> Oh7Game {
    let mut g = Oh7Game::new(Ruleset::preset(preset), 2, seed).unwrap();
    // Pile (top first): face-up 7C 0C, then 6C 1S 2S 3S 4S 5S 6S 7S.
    let hs = [set("0H 1H 2H 3H 4H 5H 6H"), set("7H 1C 2C 3C 4C 5C 0S")];
    g.set_deal(&hs, &parse_cards("7C 0C 6C 1S 2S 3S 4S 5S 6S 7S").unwrap()).unwrap();
    g
}

/// §8: the Dummy bets 2 (counted in the sum), turns 2 cards up after the bets, plays last and
/// turns a third; R-DUMMY-1: it follows suit among its face-up cards.
#[test]
fn r_dummy_1_dummy_plays_last_following_suit() {
    let mut g = dummy_game(Preset::En, 1);
    bets(&mut g, "3H 2C"); // 3 + 2 + 2 = 7: bet again
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 2 });
    bets(&mut g, "6H 1C"); // 6 + 1 + 2 = 9; seat 0 leads, ♥ trump
    let v = g.view(1);
    assert_eq!(v.bets().unwrap(), &[6, 1, 2]);
    assert_eq!(v.dummy_faceup(), set("7C 0C"));
    assert_eq!(v.leader_and_trump(), Some((0, Suit::H)));
    // Seat 0 leads 1C? It has no clubs: it leads 0H; seat 1 follows 7H; the Dummy turns 6C
    // and has no heart: it cannot win, so it plays its lowest card, 0C.
    plays(&mut g, "0H 7H");
    let r = last_round(&g);
    assert_eq!(r["tricks"][0]["plays"], serde_json::json!([[0, "0H"], [1, "7H"], [2, "0C"]]));
    assert_eq!(r["tricks"][0]["winner"], 1);
    assert_eq!(r["dummy_faceup"], serde_json::json!(["7C", "0C"]));
    assert_eq!(g.view(0).dummy_faceup(), set("7C 6C"));
    // Seat 1 leads 1C; seat 0 has no clubs and plays 1H (trump); the Dummy turns 1S and must
    // follow clubs (7C or 6C): both lose to the trump: lowest card 6C.
    plays(&mut g, "1C 1H");
    assert_eq!(last_round(&g)["tricks"][1]["plays"][2], serde_json::json!([2, "6C"]));
}

/// §8 and R-DUMMY-3: when the Dummy won the previous trick it leads with the top card of its
/// pile (its face-up cards stay); `en`/`fr`: the round's first leader follows; `kod7`: the
/// leader of the previous trick.
#[test]
fn r_dummy_3_who_follows_the_dummy() {
    // Seat 0 leads first (bet 6♥, ♥ trump); seat 1 wins trick 1; the Dummy wins trick 2.
    let cases = [
        (Preset::En, "0C 1C 2C 7H 1S 3C 4C 5C 6C 7C", "0S 7S 0C  0H 1H 7H", 0),
        (Preset::Kod7, "*0 *1 *2 *6 1S 7H *3 *4 *5 ?", "0S 7S *0  0H 1H *2", 1),
    ];
    for (preset, pile, tricks, follower) in cases {
        let mut g = Oh7Game::new(Ruleset::preset(preset), 2, 5).unwrap();
        let hs = [set("6H 1H 0S 2S 3S 4S 5S"), set("0H 7S 2H 3H 4H 5H 6S")];
        g.set_deal(&hs, &parse_cards(pile).unwrap()).unwrap();
        bets(&mut g, "6H 0H"); // 6 + 0 + 2 = 8
        assert_eq!(g.view(0).leader_and_trump(), Some((0, Suit::H)));
        for trick in parse_cards(tricks).unwrap().chunks(3) {
            for &card in &trick[..2] {
                let seat = g.to_move().lowest().unwrap();
                g.apply(seat, Action::Play(card)).unwrap();
            }
        }
        let r = last_round(&g);
        let t = &r["tricks"];
        let expect: Vec<serde_json::Value> = parse_cards(tricks)
            .unwrap()
            .chunks(3)
            .map(|ch| serde_json::json!(ch.iter().map(|c| c.to_string()).collect::<Vec<_>>()))
            .collect();
        for (i, e) in expect.iter().enumerate() {
            let got: Vec<String> =
                t[i]["plays"].as_array().unwrap().iter().map(|p| p[1].as_str().unwrap().to_string()).collect();
            assert_eq!(serde_json::json!(got), *e, "{preset} trick {}", i + 1);
        }
        assert_eq!((t[0]["winner"].clone(), t[1]["winner"].clone()), (serde_json::json!(1), serde_json::json!(2)));
        // Trick 3: the Dummy leads the top of its pile (1S), then the follower.
        assert_eq!(t[2]["plays"][0], serde_json::json!([2, "1S"]), "{preset}");
        assert_eq!(g.to_move().lowest(), Some(follower), "{preset}");
        assert_eq!(g.view(0).dummy_faceup().len(), 2);
    }
}

/// R-SCORE-1: the Dummy scores nothing and its loss never enters the basket.
#[test]
fn r_score_1_dummy_has_no_score() {
    let mut g = dummy_game(Preset::Fr, 2);
    bets(&mut g, "6H 1C"); // 9
    plays(&mut g, "0H 7H  1C 1H  6H 0S  5H 2C  4H 3C  3H 4C  2H 5C");
    let r = &g.record()["rounds"][0];
    let won: Vec<i64> = r["won"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(won.iter().sum::<i64>(), 7);
    assert_eq!(r["points"].as_array().unwrap().len(), 2);
    // The basket holds the two players' losses only.
    let loss0 = (6 - won[0]).abs();
    let loss1 = (1 - won[1]).abs();
    let basket = loss0 + loss1;
    let expect = |loss: i64, w: i64| if loss == 0 { 2 * basket + 2 + w } else { basket - loss };
    assert_eq!(r["points"], serde_json::json!([expect(loss0, won[0]), expect(loss1, won[1])]));
    assert_eq!(g.record()["rounds"][0]["totals"].as_array().unwrap().len(), 2);
}

/// R-PASS-1: passing "to the left" gives to the next seat clockwise (seat + 1); round 2 passes
/// one card left, round 3 two right.
#[test]
fn r_pass_1_left_is_next_seat() {
    let rules = Ruleset { passing: true, ..Ruleset::preset(Preset::Bga) };
    let mut g = Oh7Game::new(rules, 3, 9).unwrap();
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 1 }, "round 1 passes nothing");
    finish_round_randomly(&mut g);
    assert_eq!(g.round_number(), 2);
    assert_eq!(g.view(0).phase(), PhaseView::Passing { count: 1, to_left: true });
    let hands: Vec<CardSet> = (0..3).map(|p| g.view(p).hand()).collect();
    let given: Vec<Card> = hands.iter().map(|h| h.first().unwrap()).collect();
    g.apply(0, Action::Pass(given[0].bit())).unwrap();
    // Seat 0's choice is secret: seat 1 sees only that seat 0 decided.
    assert_eq!(g.view(1).my_pending(), None);
    assert_eq!(g.view(0).my_pending(), Some(given[0].to_string()));
    let e = g.apply(1, Action::Pass(hands[1])).unwrap_err();
    assert!(matches!(e, RuleError::PassCount { expected: 1, got: 7 }));
    g.apply(1, Action::Pass(given[1].bit())).unwrap();
    g.apply(2, Action::Pass(given[2].bit())).unwrap();
    for p in 0..3 {
        let from = (p + 2) % 3;
        assert!(g.view(p).hand().contains(given[from]), "seat {p} receives from seat {from}");
        assert_eq!(g.view(p).my_passes(), (given[p].bit(), given[from].bit()));
    }
    finish_round_randomly(&mut g);
    assert_eq!(g.view(0).phase(), PhaseView::Passing { count: 2, to_left: false });
}

fn finish_round_randomly(g: &mut Oh7Game) {
    let start = g.round_number();
    let mut legal = Vec::new();
    while g.round_number() == start && !g.is_over() {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        g.apply(seat, legal[legal.len() / 2]).unwrap();
    }
}

/// R-PLAY-1 in the engine: a player may keep ★ and follow suit, or play ★ while holding it.
#[test]
fn r_play_1_star_never_obliged() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["3S 0S 1S 2S 4S 5S 6S", "2H 7S 0H 1H 3H 4H 5H", "? 6H 7H *0 *1 *2 *3"],
        "*4 *5 *6",
    );
    bets(&mut g, "3S 2H *3"); // 8; seat 0 leads, ♠ exception suit
    plays(&mut g, "0S");
    // Seat 1 holds 7♠ and must follow with it; seat 2 holds no ♠ and may play anything.
    let e = g.apply(1, Action::Play(c("0H"))).unwrap_err();
    assert!(matches!(e, RuleError::MustFollow { lead: Suit::S, .. }), "{e}");
    g.apply(1, Action::Play(c("7S"))).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(2, &mut legal);
    assert_eq!(legal.len(), 7);
}

/// R-PLAY-2 in the engine: a ★ played on a trump lead counts as a trump.
#[test]
fn r_play_2_star_on_trump_lead() {
    let mut g = game(
        Ruleset::preset(Preset::Kod7),
        &["3S 0S 1S 2S 4S 5S 6S", "2H 7S 0H 1H 3H 4H 5H", "? 6H 7H *0 *1 *2 *6"],
        "*4 *5 *3",
    );
    bets(&mut g, "3S 2H *1"); // 6; ♠ exception suit, seat 0 leads
    plays(&mut g, "4S 7S *6");
    // 7♠ is the highest trump; ★6 is a trump below it.
    assert_eq!(last_round(&g)["tricks"][0]["winner"], 1);
    plays(&mut g, "0H *2 5S"); // lead ♥: ★2 counts as ♥ (2 > 0), 5♠ trumps
    assert_eq!(last_round(&g)["tricks"][1]["winner"], 0);
}

/// Bad actions change nothing and say what was wrong.
#[test]
fn illegal_actions_leave_the_game_unchanged() {
    let mut g = example_start(Preset::En);
    let before = g.record();
    let errors = [
        (0, Action::Play(c("3C")), "cannot play a card now: the table is betting"),
        (0, Action::Bet(c("4S")), "4S is not in your hand"),
        (7, Action::Bet(c("4S")), "there is no seat 7: seats are 0 to 3"),
        (0, Action::ChooseTrump(Suit::S), "cannot choose the trump now: the table is betting"),
    ];
    for (seat, a, msg) in errors {
        assert_eq!(g.apply(seat, a).unwrap_err().to_string(), msg);
        assert_eq!(g.record(), before);
    }
    g.apply(0, Action::Bet(c("3C"))).unwrap();
    let e = g.apply(0, Action::Bet(c("2C"))).unwrap_err();
    assert_eq!(e.to_string(), "seat 0 has nothing to decide now (waiting for seat 1, seat 2, seat 3)");
    bets_from(&mut g, 1, "3H 2H 0S");
    let e = g.apply(0, Action::Play(c("3C"))).unwrap_err();
    assert!(e.to_string().starts_with("seat 0 has nothing to decide now"), "{e}");
    g.apply(1, Action::Play(c("3S"))).unwrap();
    let e = g.apply(2, Action::Play(c("0D"))).unwrap_err();
    assert_eq!(e.to_string(), "cannot play 0D: you must follow S (you hold 2S)");
}

fn bets_from(g: &mut Oh7Game, first: usize, cards: &str) {
    for (i, card) in parse_cards(cards).unwrap().into_iter().enumerate() {
        g.apply(first + i, Action::Bet(card)).unwrap();
    }
}

/// Parsing actions typed by a person, per phase.
#[test]
fn parse_actions_by_phase() {
    let mut g = example_start(Preset::En);
    assert_eq!(g.parse_action(0, "3c").unwrap(), Action::Bet(c("3C")));
    assert_eq!(g.parse_action(0, "bet 3♣").unwrap(), Action::Bet(c("3C")));
    assert!(g.parse_action(0, "9Z").unwrap_err().to_string().contains("unknown card `9Z`"));
    bets(&mut g, "3C 3H 2H 0S");
    assert_eq!(g.parse_action(1, "play 7h").unwrap(), Action::Play(c("7H")));
}

/// R-OWN-1: identical top bids force a rebid; when the attempt limit is reached, the round is
/// dealt again.
#[test]
fn r_own_1_identical_top_bids_at_the_limit_deal_again() {
    let rules = Ruleset { decks: 2, ..Ruleset::preset(Preset::En) };
    let mut g = Oh7Game::new(rules, 3, 1).unwrap();
    let hs = [set("5S 6S 7S 0C 1C 2C 3C"), set("5S' 6S' 7S' 0C' 1C' 2C' 3C'"), set("0H 1H 2H 3H 4H 5H 6H")];
    let rest: Vec<Card> = CardSet::from_cards(&rules.deck(3)).minus(hs[0].or(hs[1]).or(hs[2])).to_vec();
    g.set_deal(&hs, &rest).unwrap();
    bets(&mut g, "5S 5S' 0H");
    bets(&mut g, "6S 6S' 1H");
    assert_eq!(g.view(0).redeals(), 0);
    bets(&mut g, "7S 7S' 2H");
    assert_eq!(g.view(0).redeals(), 1);
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 1 });
}

/// R-OWN-4: a shared highest ★ when every bet is a ★ (custom ruleset): a seeded lot picks the
/// leader among them, who chooses the trump.
#[test]
fn r_own_4_shared_highest_star_draws_a_lot() {
    let rules = Ruleset { leader: oh7_core::ruleset::LeaderRule::Exclarrogatif, ..Ruleset::preset(Preset::Kod7) };
    let mut g = Oh7Game::new(rules, 4, 3).unwrap();
    let hs = [
        set("*2 0S 1S 2S 4S 5S 6S"),
        set("*2' 7S 0H 1H 2H 4H 5H"),
        set("*1 6H 7H 0C 1C 2C 3C"),
        set("*0 4C 5C 6C 7C 3S ?"),
    ];
    g.set_deal(&hs, &parse_cards("3H *3 *4 *5").unwrap()).unwrap();
    bets(&mut g, "*2 *2' *1 *0");
    let d = &last_round(&g)["decisions"];
    assert_eq!(d[0]["kind"], "lot");
    let leader = d[0]["value"].as_u64().unwrap() as usize;
    assert!(leader < 2);
    assert_eq!(g.view(0).phase(), PhaseView::ChooseTrump { leader });
}

/// R-OWN-6: the deal is a Fisher-Yates shuffle of the deck in id order with uniform 16-bit draws
/// from ChaCha8 seeded with the game's seed; 7 cards to each seat in turn; the rest in order.
#[test]
fn r_own_6_deal_from_the_seed() {
    use rand::{RngCore, SeedableRng};
    for (preset, n, seed) in [(Preset::En, 4, 9u64), (Preset::Kod7, 2, 10), (Preset::Bga, 7, 11)] {
        let rules = Ruleset::preset(preset);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // 16-bit draws, low half of each 32-bit word first.
        let mut halves = std::iter::from_fn(|| {
            let w = rng.next_u32();
            Some([w & 0xFFFF, w >> 16])
        })
        .flatten();
        let mut deck = rules.deck(n);
        for i in (1..deck.len()).rev() {
            // Lemire's unbiased multiply-and-reject on 16 bits, written independently of the engine.
            let bound = (i + 1) as u32;
            let j = loop {
                let m = halves.next().unwrap() * bound;
                if (m & 0xFFFF) >= (65536 % bound) {
                    break (m >> 16) as usize;
                }
            };
            deck.swap(i, j);
        }
        let g = Oh7Game::new(rules, n, seed).unwrap();
        let rec = g.record();
        for p in 0..n {
            let expect: CardSet = CardSet::from_cards(&deck[p * 7..p * 7 + 7]);
            assert_eq!(set_of(&rec["rounds"][0]["hands"][p]), expect, "{preset} seat {p}");
        }
        let rest: Vec<String> = deck[n * 7..].iter().map(|c| c.to_string()).collect();
        if n == 2 {
            assert_eq!(rec["rounds"][0]["dummy_pile"], serde_json::json!(rest));
        } else {
            assert_eq!(rec["rounds"][0]["discard"].as_array().unwrap().len(), rest.len());
        }
    }
}

fn set_of(v: &serde_json::Value) -> CardSet {
    v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().parse::<Card>().unwrap()).collect()
}

/// R-OWN-8: the passing cycle repeats after round 7 (round 8 passes nothing, round 9 one left).
#[test]
fn r_own_8_passing_cycle_repeats() {
    let rules = Ruleset { passing: true, rounds: 10, ..Ruleset::preset(Preset::Bga) };
    let mut g = Oh7Game::new(rules, 4, 21).unwrap();
    while g.round_number() < 8 {
        finish_round_randomly(&mut g);
    }
    assert_eq!(g.view(0).phase(), PhaseView::Betting { attempt: 1 });
    finish_round_randomly(&mut g);
    assert_eq!(g.view(0).phase(), PhaseView::Passing { count: 1, to_left: true });
}

/// A whole game of random legal moves (seeded).
fn random_game(rules: Ruleset, players: usize, seed: u64) -> Oh7Game {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = Oh7Game::new(rules, players, seed).unwrap();
    let mut legal = Vec::new();
    while !g.is_over() {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(seat, a).unwrap();
    }
    g
}

/// R-END-1: `bga` ends after exactly 7 rounds; the highest score wins; a tie goes to the most
/// made bids, and a tie on those too is shared. Random games are searched for both kinds of tie.
#[test]
fn r_end_1_bga_fixed_rounds_and_its_tie_breaks() {
    let (mut by_made, mut shared) = (false, false);
    for seed in 0..3000 {
        let g = random_game(Ruleset::preset(Preset::Bga), 4, seed);
        let v = g.view(0);
        assert_eq!(v.past_rounds().len(), 7, "bga plays exactly 7 rounds");
        let (totals, made) = (v.totals(), v.made_bets());
        let top = *totals.iter().max().unwrap();
        let tied: Vec<usize> = (0..4).filter(|&p| totals[p] == top).collect();
        let most = tied.iter().map(|&p| made[p]).max().unwrap();
        let expected: Vec<usize> = tied.iter().copied().filter(|&p| made[p] == most).collect();
        assert_eq!(v.winners(), expected, "seed {seed}: totals {totals:?}, made {made:?}");
        by_made |= tied.len() > 1 && expected.len() == 1;
        shared |= expected.len() > 1;
        if by_made && shared {
            return;
        }
    }
    panic!("no tie found (broken by made bids: {by_made}, shared: {shared})");
}

/// The record's ruleset alone rebuilds the game: `bga` at every player count, with and without
/// its options, says how many decks it deals (`"decks": 2` from 5 players on) and deals the same
/// cards again.
#[test]
fn bga_records_say_how_many_decks_are_dealt() {
    for players in 2..=9 {
        for (decks, passing) in [(1, false), (2, false), (1, true), (2, true)] {
            let rules = Ruleset { decks, passing, ..Ruleset::preset(Preset::Bga) };
            let g = Oh7Game::new(rules, players, 7).unwrap();
            let rec = g.record();
            let dealt = rules.copies(players);
            assert_eq!(rec["ruleset"]["decks"], dealt, "{players} players, decks {decks}");
            let again: Ruleset = serde_json::from_value(rec["ruleset"].clone()).unwrap();
            let rebuilt = Oh7Game::new(again, players, 7).unwrap();
            assert_eq!(rebuilt.view(0).hand(), g.view(0).hand());
            assert_eq!(again.deck(players).len(), rules.deck(players).len());
            assert_eq!(again.deck(players).len(), 32 * dealt as usize, "bga: 32 cards a deck");
            assert_eq!(rebuilt.record(), rec, "{players} players: the record's ruleset rebuilds the game");
        }
    }
}

/// R-OWN-11: a target game where every total can fall (a custom ruleset's `basket` scoring) still
/// ends, by round 1,000, the highest total winning.
#[test]
fn r_own_11_a_game_ends_by_round_1000() {
    let rules = Ruleset::from_toml("preset = \"fr\"\nscoring = \"basket\"\ntarget = 35").unwrap();
    let mut g = Oh7Game::new(rules, 4, 3).unwrap();
    let mut legal = Vec::new();
    // Every seat bets as high as it can and plays its lowest card: bets fail, totals fall.
    while let Some(seat) = g.to_move().lowest() {
        g.legal_actions(seat, &mut legal);
        let a = match legal[0] {
            Action::Bet(_) => *legal
                .iter()
                .max_by_key(|a| match a {
                    Action::Bet(c) => c.value(),
                    _ => 0,
                })
                .unwrap(),
            _ => legal[0],
        };
        g.apply(seat, a).unwrap();
    }
    let view = g.view(0);
    let rounds = view.past_rounds().len() as u32;
    // Every bet failed often enough that nobody reached 35: the cap ended the game.
    assert_eq!(rounds, oh7_core::oh7::MAX_ROUNDS);
    let totals = g.totals();
    let top = totals.iter().copied().max().unwrap();
    assert!(top < 35, "{totals:?}");
    let winners = g.winners();
    assert!(!winners.is_empty() && winners.iter().all(|&w| totals[w] == top), "{totals:?} {winners:?}");
}

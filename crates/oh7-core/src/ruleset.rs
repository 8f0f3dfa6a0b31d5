//! Every knob of the Oh 7 family as one plain value (`oh7.md`: "model them as one `Ruleset`
//! value ... with five named constructors, not as five code paths"), the five presets, and
//! custom rulesets read from TOML.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Suit};

/// The five published presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Preset {
    /// "Oh 7 ?", English edition (seed 000).
    #[serde(rename = "en")]
    En,
    /// "Oh 7 ?", French edition, base game (seed 003).
    #[serde(rename = "fr")]
    Fr,
    /// "Oh 7 ?", French edition, "Jeu avancé" (seed 003).
    #[serde(rename = "fr-advanced")]
    FrAdvanced,
    /// "Kod-7" (seed 002).
    #[serde(rename = "kod7")]
    Kod7,
    /// "Oh-Seven", the online platform's rules (seed 001).
    #[serde(rename = "bga")]
    Bga,
}

impl Preset {
    /// All presets.
    pub const ALL: [Preset; 5] = [Preset::En, Preset::Fr, Preset::FrAdvanced, Preset::Kod7, Preset::Bga];

    /// The name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Preset::En => "en",
            Preset::Fr => "fr",
            Preset::FrAdvanced => "fr-advanced",
            Preset::Kod7 => "kod7",
            Preset::Bga => "bga",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesetError;
    fn from_str(s: &str) -> Result<Preset, RulesetError> {
        let l = s.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == l || (l == "fr_advanced" && *p == Preset::FrAdvanced))
            .ok_or_else(|| RulesetError::UnknownPreset(s.to_string()))
    }
}

/// Which cards make the deck for a player count (`oh7.md` §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckStyle {
    /// `en`, `fr`: one suit per player (3 to 5), values 0-7.
    OneSuitPerPlayer,
    /// `fr-advanced`: one suit fewer than players, plus ★1-4, Ø, Ø' and ?.
    Advanced,
    /// `kod7`: the card faces' player counts (§2's table).
    Kod7,
    /// `bga`: ♠♥♣♦ 0-7 (two decks from 5 players on).
    FourSuits,
}

/// What happens when the last allowed bet attempt sums to 7 again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterLastAttempt {
    /// Deal the round again from a full reshuffle (`en`, `fr`, `fr-advanced`).
    Redeal,
    /// The last attempt stands even though it sums to 7 (`kod7`).
    Stands,
}

/// How the first leader and the trump are found (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderRule {
    /// Highest bet, ties by suit priority (`en`, `fr`, `bga`).
    HighestBet,
    /// ★ and Ø ignored; the ? holder among tied players may reveal it (`fr-advanced`).
    Exclarrogatif,
    /// Highest non-★ bet; ties settled by the ‽ holder or a lot; all-★ rule (`kod7`).
    Interrobang,
}

/// The scoring formula (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Failed: `-loss`; made: `2 + basket + tricks`; basket = losses of the failed (`en`, `kod7`).
    Basket,
    /// Failed: `basket - loss`; made: `2 * basket + 2 + tricks` (no 2 with Ø) (`fr`, `fr-advanced`).
    DoubleBasket,
    /// Failed: `-loss`; made: `bid + 2` (`bga`).
    BidPlusTwo,
}

impl Scoring {
    /// §6, the one place the formula is written: a player's points for a round (bonuses aside)
    /// from its bet, the tricks it won, the others' losses (`others_loss`: the basket less its
    /// own loss, which is 0 when it made its bet) and whether it bet with Ø (`void_bet`: no 2
    /// when made, [`Scoring::DoubleBasket`]). The engine scores with it in `i32`; searches call
    /// it with an expected basket in `f64` (every formula is affine in the basket).
    #[inline]
    pub fn points<T>(self, bet: i32, won: i32, others_loss: T, void_bet: bool) -> T
    where
        T: Copy + From<i32> + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
    {
        let loss = (bet - won).abs();
        match (self, loss == 0) {
            (Scoring::Basket | Scoring::BidPlusTwo, false) => T::from(-loss),
            (Scoring::Basket, true) => T::from(2 + won) + others_loss,
            (Scoring::BidPlusTwo, true) => T::from(bet + 2),
            (Scoring::DoubleBasket, false) => others_loss,
            (Scoring::DoubleBasket, true) => T::from(2) * others_loss + T::from(if void_bet { 0 } else { 2 } + won),
        }
    }
}

/// The last round a game may have (R-OWN-11): one its end rule has not ended by then ends there
/// (and the most rounds a ruleset may ask for).
pub const MAX_ROUNDS: u32 = 1000;

/// When the game ends (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndRule {
    /// `en`: from round `rounds` on, the single highest score wins if it made its last bet;
    /// ties between players who all made it: most made bets, then shared.
    MinRounds,
    /// `kod7`: from round `rounds` on, strictly highest and made the last bet; ties replay.
    MinRoundsStrict,
    /// `fr`: first to `target` after a made bet.
    Target,
    /// `bga`: exactly `rounds` rounds; highest wins; ties: most made bids, then shared.
    FixedRounds,
}

/// Who follows the Dummy when it leads a trick (§8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DummyFollower {
    /// The round's first leader (`en`, `fr`).
    FirstLeader,
    /// The leader of the previous trick, or the last player who led (R-DUMMY-3) (`kod7`).
    PreviousLeader,
}

/// Every knob of an Oh 7 game. Build one with [`Ruleset::preset`], change fields, then
/// [`Ruleset::validate`] it (the game does so too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ruleset {
    /// The preset this ruleset starts from (shown in records as `preset`).
    pub preset: Preset,
    /// Fewest players (2 means with the Dummy where `dummy` is set).
    pub min_players: u8,
    /// Most players (at most 9).
    pub max_players: u8,
    /// Two players play with the Dummy (§8).
    pub dummy: bool,
    /// Which cards make the deck.
    pub deck: DeckStyle,
    /// 1 or 2 copies of every regular card (`bga` from 5 players on: always 2).
    pub decks: u8,
    /// The `bga` card-passing option (§9).
    pub passing: bool,
    /// How many bet attempts may sum to 7 before [`Ruleset::after_last_attempt`];
    /// `None`: no limit (`bga`: the round is dealt again when a player has no unused card).
    pub bet_attempts: Option<u8>,
    /// What happens after the last attempt sums to 7.
    pub after_last_attempt: AfterLastAttempt,
    /// `bga`: the top bid of an attempt summing to 7 scores 1 point at once.
    pub rebid_bonus: bool,
    /// How the first leader and trump are found.
    pub leader: LeaderRule,
    /// The scoring formula.
    pub scoring: Scoring,
    /// When the game ends.
    pub end: EndRule,
    /// Minimum rounds (`min_rounds`, `min_rounds_strict`) or exact rounds (`fixed_rounds`).
    pub rounds: u32,
    /// The target score of `fr` (35; options 21, 49), `None` for other end rules.
    pub target: Option<u32>,
    /// `en` option: every tie for the highest score plays another round.
    pub every_tie_replays: bool,
    /// Who follows the Dummy when it leads.
    pub dummy_follower: DummyFollower,
}

/// A ruleset or a player count that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// Not one of the five presets.
    #[error("unknown preset `{0}`: choose one of en, fr, fr-advanced, kod7, bga")]
    UnknownPreset(String),
    /// The player count is outside the ruleset's range.
    #[error("{preset} is played by {range}; got {got} players")]
    Players {
        /// Preset name.
        preset: Preset,
        /// Allowed range, in words.
        range: String,
        /// What was asked for.
        got: usize,
    },
    /// A knob has a value that cannot work.
    #[error("bad ruleset: {0}")]
    Invalid(String),
    /// The TOML file could not be read as a ruleset.
    #[error("bad ruleset file, line {line}: {message}")]
    Toml {
        /// The line of the file (1-based).
        line: usize,
        /// What is wrong, on one line.
        message: String,
    },
}

impl Ruleset {
    /// The ruleset of a preset, with its default options.
    pub fn preset(p: Preset) -> Ruleset {
        let en = Ruleset {
            preset: Preset::En,
            min_players: 2,
            max_players: 4,
            dummy: true,
            deck: DeckStyle::OneSuitPerPlayer,
            decks: 1,
            passing: false,
            bet_attempts: Some(3),
            after_last_attempt: AfterLastAttempt::Redeal,
            rebid_bonus: false,
            leader: LeaderRule::HighestBet,
            scoring: Scoring::Basket,
            end: EndRule::MinRounds,
            rounds: 7,
            target: None,
            every_tie_replays: false,
            dummy_follower: DummyFollower::FirstLeader,
        };
        match p {
            Preset::En => en,
            Preset::Fr => Ruleset {
                preset: Preset::Fr,
                max_players: 5,
                scoring: Scoring::DoubleBasket,
                end: EndRule::Target,
                target: Some(35),
                ..en
            },
            Preset::FrAdvanced => Ruleset {
                preset: Preset::FrAdvanced,
                min_players: 3,
                max_players: 6,
                dummy: false,
                deck: DeckStyle::Advanced,
                leader: LeaderRule::Exclarrogatif,
                scoring: Scoring::DoubleBasket,
                end: EndRule::Target,
                target: Some(35),
                ..en
            },
            Preset::Kod7 => Ruleset {
                preset: Preset::Kod7,
                max_players: 6,
                deck: DeckStyle::Kod7,
                after_last_attempt: AfterLastAttempt::Stands,
                leader: LeaderRule::Interrobang,
                end: EndRule::MinRoundsStrict,
                dummy_follower: DummyFollower::PreviousLeader,
                ..en
            },
            Preset::Bga => Ruleset {
                preset: Preset::Bga,
                max_players: 9,
                dummy: false,
                deck: DeckStyle::FourSuits,
                bet_attempts: None,
                rebid_bonus: true,
                scoring: Scoring::BidPlusTwo,
                end: EndRule::FixedRounds,
                ..en
            },
        }
    }

    /// Whether `players` is allowed, with a clear error if not.
    pub fn check_players(&self, players: usize) -> Result<(), RulesetError> {
        let lo = self.min_players as usize;
        let hi = self.max_players as usize;
        if (lo..=hi).contains(&players) {
            return Ok(());
        }
        let range = if lo == 2 && self.dummy {
            if hi == 3 {
                "2 (with the Dummy) or 3 players".to_string()
            } else {
                format!("2 (with the Dummy) to {hi} players")
            }
        } else if lo == hi {
            format!("{lo} players")
        } else {
            format!("{lo} to {hi} players")
        };
        Err(RulesetError::Players { preset: self.preset, range, got: players })
    }

    /// Whether a game of `players` uses the Dummy.
    pub fn uses_dummy(&self, players: usize) -> bool {
        self.dummy && players == 2
    }

    /// Copies of each regular card for `players` (`bga` from 5 players on: 2).
    pub fn copies(&self, players: usize) -> u8 {
        if self.deck == DeckStyle::FourSuits && players >= 5 { 2 } else { self.decks }
    }

    /// The deck for `players` (the Dummy plays with the three-player deck), in id order.
    pub fn deck(&self, players: usize) -> Vec<Card> {
        let n = if self.uses_dummy(players) { 3 } else { players };
        let copies = self.copies(players);
        let mut cards = Vec::new();
        let suits = |k: usize, cards: &mut Vec<Card>| {
            for s in &Suit::ALL[..k.min(5)] {
                for v in 0..8 {
                    for c in 0..copies {
                        cards.push(Card::regular(*s, v, c));
                    }
                }
            }
        };
        match self.deck {
            DeckStyle::OneSuitPerPlayer => suits(n.max(3), &mut cards),
            DeckStyle::FourSuits => suits(4, &mut cards),
            DeckStyle::Advanced => {
                suits(n.saturating_sub(1).max(2), &mut cards);
                cards.extend((1..=4).map(|v| Card::star(v, 0)));
                cards.extend([Card::void(0), Card::void(1), Card::INTERROBANG]);
            }
            DeckStyle::Kod7 => {
                let n = n.clamp(3, 6);
                suits(n - 1, &mut cards);
                // ★0 ★1 ★2 ★3 ‽ always; ★4 for 3-5; ★5 for 3-4; ★6 for 3; ★2' for 4-6;
                // ★1' for 5-6; ★0' for 6 (oh7.md §2).
                cards.extend((0..=3).map(|v| Card::star(v, 0)));
                if n <= 5 {
                    cards.push(Card::star(4, 0));
                }
                if n <= 4 {
                    cards.push(Card::star(5, 0));
                }
                if n == 3 {
                    cards.push(Card::star(6, 0));
                }
                if n >= 4 {
                    cards.push(Card::star(2, 1));
                }
                if n >= 5 {
                    cards.push(Card::star(1, 1));
                }
                if n >= 6 {
                    cards.push(Card::star(0, 1));
                }
                cards.push(Card::INTERROBANG);
            }
        }
        cards.sort();
        cards
    }

    /// The suits in the deck for `players`.
    pub fn suits(&self, players: usize) -> Vec<Suit> {
        let mut seen = [false; 5];
        for c in self.deck(players) {
            if let Some(s) = c.suit() {
                seen[s.index()] = true;
            }
        }
        Suit::ALL.into_iter().filter(|s| seen[s.index()]).collect()
    }

    /// The passes of round `round` (from 1) with the `bga` passing option (§9): how many cards
    /// each player passes and whether to the next seat clockwise (left); `None` when the round
    /// passes nothing. By round: 1 none, 2 one left, 3 two right, 4 three left, 5 two right, 6
    /// one left, 7 none, then again.
    pub fn pass_of(&self, round: u32) -> Option<(u8, bool)> {
        if !self.passing {
            return None;
        }
        const CYCLE: [(u8, bool); 7] = [(0, true), (1, true), (2, false), (3, true), (2, false), (1, true), (0, true)];
        let (n, left) = CYCLE[((round.max(1) - 1) % 7) as usize];
        (n > 0).then_some((n, left))
    }

    /// Where each of `players` seats passes its cards in round `round` (empty when it passes
    /// nothing): seat `p` gives to `pass_to(…)[p]`.
    pub fn pass_to(&self, round: u32, players: usize) -> Vec<usize> {
        match self.pass_of(round) {
            Some((_, left)) => {
                (0..players).map(|p| if left { (p + 1) % players } else { (p + players - 1) % players }).collect()
            }
            None => Vec::new(),
        }
    }

    /// The fifth suit's symbol (☆ in `fr`, ✿ in `kod7`).
    pub fn fifth_symbol(&self) -> char {
        if self.deck == DeckStyle::Kod7 { '✿' } else { '☆' }
    }

    /// The special card's symbol (‽ in `kod7`, ? in `fr-advanced`).
    pub fn mark_symbol(&self) -> char {
        if self.leader == LeaderRule::Interrobang { '‽' } else { '?' }
    }

    /// Check that the knobs can work together, with a clear error if not.
    pub fn validate(&self) -> Result<(), RulesetError> {
        let bad = |m: &str| Err(RulesetError::Invalid(m.to_string()));
        if !(2..=9).contains(&self.min_players) || self.max_players > 9 || self.min_players > self.max_players {
            return bad("min_players and max_players must satisfy 2 <= min_players <= max_players <= 9");
        }
        if !(1..=2).contains(&self.decks) {
            return bad("decks must be 1 or 2");
        }
        if self.decks == 2 && matches!(self.deck, DeckStyle::Advanced | DeckStyle::Kod7) {
            return bad("decks = 2 needs deck = \"one_suit_per_player\" or \"four_suits\"");
        }
        if self.bet_attempts == Some(0) {
            return bad("bet_attempts must be at least 1 (leave it out for no limit)");
        }
        let has_specials = matches!(self.deck, DeckStyle::Advanced | DeckStyle::Kod7);
        if has_specials && self.leader == LeaderRule::HighestBet {
            return bad(
                "a deck with ★ cards needs leader = \"exclarrogatif\" or \"interrobang\" (a ★ has no suit to make trump)",
            );
        }
        match (self.end, self.target) {
            (EndRule::Target, None) | (EndRule::Target, Some(0)) => {
                return bad("end = \"target\" needs a target score of at least 1");
            }
            (EndRule::Target, Some(_)) => {}
            (_, Some(_)) => return bad("target is only used with end = \"target\""),
            _ => {}
        }
        if self.end != EndRule::Target && !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return bad("rounds must be between 1 and 1000");
        }
        for players in self.min_players as usize..=self.max_players as usize {
            let seats = if self.uses_dummy(players) { 3 } else { players };
            let deck = self.deck(players).len();
            let need = if self.uses_dummy(players) { 14 + 9 } else { 7 * seats };
            if deck < need {
                return bad(&format!(
                    "with {players} players the deck has {deck} cards but {need} are needed; lower max_players or use decks = 2"
                ));
            }
            if players == 2 && !self.dummy && deck < 14 {
                return bad("two players need 14 cards");
            }
        }
        Ok(())
    }

    /// Read a custom ruleset: a TOML file naming a `preset` and overriding knobs.
    ///
    /// ```toml
    /// preset = "fr"
    /// target = 21
    /// ```
    pub fn from_toml(text: &str) -> Result<Ruleset, RulesetError> {
        let o: Overrides = toml::from_str(text).map_err(|e| RulesetError::Toml {
            line: e
                .span()
                .map_or(1, |r| text.as_bytes()[..r.start.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1),
            message: e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; "),
        })?;
        let mut r = Ruleset::preset(o.preset.parse()?);
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = o.$f { r.$f = v; } )* };
        }
        set!(
            min_players,
            max_players,
            dummy,
            deck,
            decks,
            passing,
            after_last_attempt,
            rebid_bonus,
            leader,
            scoring,
            end,
            rounds,
            every_tie_replays,
            dummy_follower
        );
        if let Some(v) = o.bet_attempts {
            r.bet_attempts = (v != 0).then_some(v);
        }
        if let Some(t) = o.target {
            r.target = Some(t);
        }
        if o.end.is_some_and(|e| e != EndRule::Target) && o.target.is_none() {
            r.target = None;
        }
        r.validate()?;
        Ok(r)
    }

    /// This ruleset as a TOML file that [`Ruleset::from_toml`] reads back.
    pub fn to_toml(&self) -> String {
        let mut s = toml::to_string(self).expect("a ruleset always serializes");
        if self.bet_attempts.is_none() {
            s.push_str("bet_attempts = 0 # no limit\n");
        }
        s
    }
}

/// The TOML form: a preset and optional overrides.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Overrides {
    preset: String,
    min_players: Option<u8>,
    max_players: Option<u8>,
    dummy: Option<bool>,
    deck: Option<DeckStyle>,
    decks: Option<u8>,
    passing: Option<bool>,
    /// 0 means no limit.
    bet_attempts: Option<u8>,
    after_last_attempt: Option<AfterLastAttempt>,
    rebid_bonus: Option<bool>,
    leader: Option<LeaderRule>,
    scoring: Option<Scoring>,
    end: Option<EndRule>,
    rounds: Option<u32>,
    target: Option<u32>,
    every_tie_replays: Option<bool>,
    dummy_follower: Option<DummyFollower>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate() {
        for p in Preset::ALL {
            Ruleset::preset(p).validate().unwrap();
        }
    }

    #[test]
    fn deck_sizes_match_section_2() {
        let sizes = |p: Preset, counts: &[usize]| -> Vec<usize> {
            let r = Ruleset::preset(p);
            counts.iter().map(|&n| r.deck(n).len()).collect()
        };
        assert_eq!(sizes(Preset::En, &[2, 3, 4]), [24, 24, 32]);
        assert_eq!(sizes(Preset::Fr, &[2, 3, 4, 5]), [24, 24, 32, 40]);
        assert_eq!(sizes(Preset::FrAdvanced, &[3, 4, 5, 6]), [23, 31, 39, 47]);
        assert_eq!(sizes(Preset::Kod7, &[2, 3, 4, 5, 6]), [24, 24, 32, 40, 48]);
        assert_eq!(sizes(Preset::Bga, &[2, 3, 4, 5, 9]), [32, 32, 32, 64, 64]);
        let two = Ruleset { decks: 2, ..Ruleset::preset(Preset::Bga) };
        assert_eq!(two.deck(3).len(), 64);
    }

    /// R-DECK-1: the fifth suit of `fr` 5 players and `fr-advanced` 6 players is ☆ (F).
    #[test]
    fn r_deck_1_fifth_suit_is_f() {
        assert_eq!(Ruleset::preset(Preset::Fr).suits(5), [Suit::S, Suit::H, Suit::C, Suit::D, Suit::F]);
        assert_eq!(Ruleset::preset(Preset::FrAdvanced).suits(6), [Suit::S, Suit::H, Suit::C, Suit::D, Suit::F]);
        assert_eq!(Ruleset::preset(Preset::Fr).fifth_symbol(), '☆');
    }

    #[test]
    fn kod7_stars_follow_the_card_faces() {
        let stars = |n| -> String {
            Ruleset::preset(Preset::Kod7)
                .deck(n)
                .into_iter()
                .filter(|c| !c.is_regular())
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(stars(3), "*0 *1 *2 *3 *4 *5 *6 ?");
        assert_eq!(stars(4), "*0 *1 *2 *2' *3 *4 *5 ?");
        assert_eq!(stars(5), "*0 *1 *1' *2 *2' *3 *4 ?");
        assert_eq!(stars(6), "*0 *0' *1 *1' *2 *2' *3 ?");
    }

    #[test]
    fn player_counts_have_clear_errors() {
        let en = Ruleset::preset(Preset::En);
        assert!(en.check_players(2).is_ok());
        assert_eq!(
            en.check_players(5).unwrap_err().to_string(),
            "en is played by 2 (with the Dummy) to 4 players; got 5 players"
        );
        let fa = Ruleset::preset(Preset::FrAdvanced);
        assert_eq!(
            fa.check_players(2).unwrap_err().to_string(),
            "fr-advanced is played by 3 to 6 players; got 2 players"
        );
        assert!(Ruleset::preset(Preset::Bga).check_players(9).is_ok());
    }

    #[test]
    fn toml_overrides_and_errors() {
        let r = Ruleset::from_toml("preset = \"fr\"\ntarget = 21\n").unwrap();
        assert_eq!((r.preset, r.target), (Preset::Fr, Some(21)));
        let r = Ruleset::from_toml("preset = \"bga\"\ndecks = 2\npassing = true\n").unwrap();
        assert_eq!((r.decks, r.passing), (2, true));
        assert!(Ruleset::from_toml("preset = \"xx\"").unwrap_err().to_string().contains("unknown preset `xx`"));
        assert!(
            Ruleset::from_toml("preset = \"en\"\nfoo = 1").unwrap_err().to_string().contains("unknown field `foo`")
        );
        assert!(
            Ruleset::from_toml("preset = \"en\"\ndecks = 3").unwrap_err().to_string().contains("decks must be 1 or 2")
        );
        assert!(Ruleset::from_toml("preset = \"en\"\nmax_players = 6").unwrap_err().to_string().contains("deck has"));
        assert!(
            Ruleset::from_toml("preset = \"en\"\ntarget = 5").unwrap_err().to_string().contains("target is only used")
        );
        assert!(Ruleset::from_toml("preset = [").is_err());
        for p in Preset::ALL {
            let r = Ruleset::preset(p);
            assert_eq!(Ruleset::from_toml(&r.to_toml()).unwrap(), r, "{p}");
        }
    }
}

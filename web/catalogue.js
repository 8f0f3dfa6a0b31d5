// Generated from the registry by oh7_table::bodies::catalogue_js (do not edit: regenerate
// with `OH7_WRITE_CATALOGUE=1 cargo test -p oh7-table catalogue`): every game, preset,
// player range, rule and bot level, the body of GET /api/presets.

export const CATALOGUE = {
  "games": [
    {
      "game": "oh7",
      "max_players": 4,
      "min_players": 2,
      "preset": "en",
      "ruleset": {
        "after_last_attempt": "redeal",
        "bet_attempts": 3,
        "deck": "one_suit_per_player",
        "decks": 1,
        "dummy": true,
        "dummy_follower": "first_leader",
        "end": "min_rounds",
        "every_tie_replays": false,
        "leader": "highest_bet",
        "max_players": 4,
        "min_players": 2,
        "passing": false,
        "preset": "en",
        "rebid_bonus": false,
        "rounds": 7,
        "scoring": "basket",
        "target": null
      }
    },
    {
      "game": "oh7",
      "max_players": 5,
      "min_players": 2,
      "preset": "fr",
      "ruleset": {
        "after_last_attempt": "redeal",
        "bet_attempts": 3,
        "deck": "one_suit_per_player",
        "decks": 1,
        "dummy": true,
        "dummy_follower": "first_leader",
        "end": "target",
        "every_tie_replays": false,
        "leader": "highest_bet",
        "max_players": 5,
        "min_players": 2,
        "passing": false,
        "preset": "fr",
        "rebid_bonus": false,
        "rounds": 7,
        "scoring": "double_basket",
        "target": 35
      }
    },
    {
      "game": "oh7",
      "max_players": 6,
      "min_players": 3,
      "preset": "fr-advanced",
      "ruleset": {
        "after_last_attempt": "redeal",
        "bet_attempts": 3,
        "deck": "advanced",
        "decks": 1,
        "dummy": false,
        "dummy_follower": "first_leader",
        "end": "target",
        "every_tie_replays": false,
        "leader": "exclarrogatif",
        "max_players": 6,
        "min_players": 3,
        "passing": false,
        "preset": "fr-advanced",
        "rebid_bonus": false,
        "rounds": 7,
        "scoring": "double_basket",
        "target": 35
      }
    },
    {
      "game": "oh7",
      "max_players": 6,
      "min_players": 2,
      "preset": "kod7",
      "ruleset": {
        "after_last_attempt": "stands",
        "bet_attempts": 3,
        "deck": "kod7",
        "decks": 1,
        "dummy": true,
        "dummy_follower": "previous_leader",
        "end": "min_rounds_strict",
        "every_tie_replays": false,
        "leader": "interrobang",
        "max_players": 6,
        "min_players": 2,
        "passing": false,
        "preset": "kod7",
        "rebid_bonus": false,
        "rounds": 7,
        "scoring": "basket",
        "target": null
      }
    },
    {
      "game": "oh7",
      "max_players": 9,
      "min_players": 2,
      "preset": "bga",
      "ruleset": {
        "after_last_attempt": "redeal",
        "bet_attempts": null,
        "deck": "four_suits",
        "decks": 1,
        "dummy": false,
        "dummy_follower": "first_leader",
        "end": "fixed_rounds",
        "every_tie_replays": false,
        "leader": "highest_bet",
        "max_players": 9,
        "min_players": 2,
        "passing": false,
        "preset": "bga",
        "rebid_bonus": true,
        "rounds": 7,
        "scoring": "bid_plus_two",
        "target": null
      }
    },
    {
      "game": "seven",
      "max_players": 8,
      "min_players": 2,
      "preset": "seven",
      "ruleset": {
        "hand_size": 8,
        "limit": 150,
        "round_turn_limit": 1000,
        "ten_skips_with_two": true
      }
    }
  ],
  "levels": {
    "oh7": [
      "random",
      "beginner",
      "heuristic",
      "easy",
      "medium",
      "hard",
      "ismcts",
      "expert"
    ],
    "seven": [
      "random",
      "heuristic",
      "search"
    ]
  },
  "strongest": {
    "oh7": "expert",
    "seven": "search"
  }
};

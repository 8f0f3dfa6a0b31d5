// Generated from oh7_core::wording (do not edit: regenerate with
// `OH7_WRITE_WORDING=1 cargo test -p oh7-core wording`): the wordings of the engines'
// refusals, the terminal's and the browser's.

export const WORDINGS = [
  { rule: "game_over", when: null, en: "the game is over", fr: "la partie est finie" },
  { rule: "no_such_seat", when: null, en: "there is no seat {seat}: the last seat is {last}", fr: "il n'y a pas de place {seat} : la dernière est la place {last}" },
  { rule: "no_such_seat", when: null, en: "there is no seat {seat}", fr: "il n'y a pas de place {seat}" },
  { rule: "not_your_turn", when: null, en: "it is seat {current}'s turn, not yours (the others may only call out)", fr: "c'est au tour de la place {current}, pas au vôtre (les autres peuvent seulement dénoncer)" },
  { rule: "not_your_turn", when: null, en: "seat {seat} has nothing to decide now", fr: "la place {seat} n'a rien à décider maintenant" },
  { rule: "not_in_hand", when: null, en: "{card} is not in your hand", fr: "{card} n'est pas dans votre main" },
  { rule: "unreadable", when: null, en: "cannot read \"{text}\": {detail}", fr: "impossible de lire « {text} »" },
  { rule: "unreadable", when: null, en: "cannot read that: {detail}", fr: "impossible de lire cette saisie" },
  { rule: "wrong_phase", when: null, en: "you cannot {action} now", fr: "impossible de {action} maintenant" },
  { rule: "never_bets", when: null, en: "{card} can never be your bet card", fr: "{card} ne peut jamais servir à parier" },
  { rule: "bet_before", when: null, en: "{card} was your bet card in an earlier attempt of this round: choose another card", fr: "{card} a servi à une tentative précédente de cette manche : choisissez une autre carte" },
  { rule: "must_follow", when: null, en: "you cannot play {card}: you hold {hold} and must follow {lead}", fr: "impossible de jouer {card} : vous avez {hold} et devez fournir {lead}" },
  { rule: "pass_count", when: ["expected", "1"], en: "pass exactly 1 card this round; you chose {got}", fr: "passez exactement 1 carte cette manche ; vous en avez choisi {got}" },
  { rule: "pass_count", when: null, en: "pass exactly {expected} cards this round; you chose {got}", fr: "passez exactement {expected} cartes cette manche ; vous en avez choisi {got}" },
  { rule: "not_a_choice", when: null, en: "{detail}", fr: "ce choix n'est pas possible maintenant" },
  { rule: "eliminated", when: null, en: "seat {seat} is out of the game", fr: "la place {seat} est éliminée" },
  { rule: "no_match", when: null, en: "{card} matches neither the suit asked for, {suit}, nor the rank of {top}", fr: "{card} ne correspond ni à la couleur demandée {suit} ni à la valeur de {top}" },
  { rule: "penalty_pending", when: null, en: "a penalty of {cards} cards is pending: play {answer} or draw", fr: "une pénalité de {cards} cartes est en cours : jouez {answer} ou piochez" },
  { rule: "seven_pending", when: null, en: "a 7 is pending: play a 7 or pass", fr: "un 7 est en cours : jouez un 7 ou passez" },
  { rule: "suit_missing", when: null, en: "an 8 names the new suit: choose it after {card}", fr: "un 8 annonce la nouvelle couleur : choisissez-la après {card}" },
  { rule: "suit_not_allowed", when: null, en: "only an 8 names a suit ({card} does not)", fr: "seul un 8 annonce une couleur ({card} non)" },
  { rule: "bad_announcement", when: null, en: "announce the last card only with the play that leaves you one card", fr: "annoncez la dernière carte seulement avec le coup qui vous laisse une carte" },
  { rule: "must_play", when: null, en: "you can play, so you may not draw", fr: "vous pouvez jouer, vous ne pouvez donc pas piocher" },
  { rule: "no_draw", when: null, en: "you cannot draw now: {why}", fr: "pas de pioche maintenant : {why}" },
  { rule: "no_pass", when: null, en: "you may pass only while a 7 is pending", fr: "vous ne pouvez passer que pendant un 7" },
  { rule: "no_call_out", when: null, en: "seat {seat} cannot be called out now", fr: "la place {seat} ne peut pas être dénoncée maintenant" },
  { rule: "no_window", when: null, en: "nobody can be called out now", fr: "personne n'est à dénoncer maintenant" },
  { rule: "answer_first", when: null, en: "seat {offender} did not announce the last card: answer first (call out {offender} or not)", fr: "la place {offender} n'a pas annoncé sa dernière carte : répondez d'abord (dénoncer {offender} ou non)" },
  { rule: "window_wait", when: null, en: "wait: the others are answering about seat {offender}", fr: "attendez : les autres répondent à propos de la place {offender}" },
  { rule: "already_answered", when: null, en: "you have already answered", fr: "vous avez déjà répondu" },
];

export const TERMS = {
  "action": {
    "pass cards": { en: "pass cards", fr: "passer des cartes" },
    "bet": { en: "bet", fr: "parier" },
    "play a card": { en: "play a card", fr: "jouer une carte" },
    "reveal": { en: "reveal", fr: "révéler" },
    "choose the first leader": { en: "choose the first leader", fr: "choisir le premier meneur" },
    "choose the trump": { en: "choose the trump", fr: "choisir l'atout" },
    "announce a trump": { en: "announce a trump", fr: "annoncer un atout" },
  },
  "answer": {
    "2": { en: "a 2", fr: "un 2" },
    "AS": { en: "an A♠", fr: "un A♠" },
  },
  "why": {
    "lock": { en: "a 7 is pending, play a 7 or pass", fr: "un 7 est en cours, jouez un 7 ou passez" },
    "free_play": { en: "the 7 came back to you, play any card", fr: "le 7 vous est revenu, jouez n'importe quelle carte" },
  },
};

export const GENERIC = { en: "that move is not allowed now", fr: "ce coup n'est pas permis maintenant" };

// The tutorials' coach: which lesson a newcomer at a tutorial table needs now, in words. A
// tutorial is a real table (`POST /api/tables` with `tutorial: true`: the family's prepared
// deal, the newcomer against bots); the coach reads the same state as the rest of the page
// (state.js) and explains each first decision as it comes: the bet card, following suit,
// trumps, a trick won, the score; in Seven, matching the top card, the action cards, drawing,
// the last card. Each lesson shows once (the page keeps the ones read); the newcomer may act
// without reading. Where the rules differ by edition, the words are the engine's own rules
// summary for the table (`GET /api/tables/{code}/rules`), never a second copy of the rules.
// No DOM: tested with node (web/test/coach.test.mjs).

import { parseOh7, parseSeven, suitName } from "./cards.js";
import { terms, symbols, cap } from "./rules.js";

/** The families a tutorial teaches, in the order the home page offers them. */
export const FAMILIES = ["en", "fr", "fr-advanced", "kod7", "bga", "seven"];

// Each family's game (looked up, never compared by name).
const GAME_OF = { en: "oh7", fr: "oh7", "fr-advanced": "oh7", kod7: "oh7", bga: "oh7", seven: "seven" };

/** A table's family: Seven, or the Oh 7 preset it plays. */
export function familyOf(table) {
  if (!table || !Object.hasOwn(GAMES, table.game)) return null;
  return GAMES[table.game].family(table);
}

/** The body of `POST /api/tables` that starts the tutorial of `family`. */
export function tutorialBody(family, lang, name) {
  const g = GAMES[GAME_OF[family]];
  const seats = ["human", ...Array(g.players - 1).fill(g.bot)];
  return { ...g.request(family), players: g.players, name, lang, tutorial: true, seats };
}

const WORDS = {
  en: {
    titles: { en: "Oh 7 ? (English edition)", fr: "Oh 7 ? (French edition)", "fr-advanced": "Oh 7 ?, the advanced game", kod7: "Kod-7", bga: "Oh-Seven (online rules)", seven: "Seven" },
    blurbs: {
      en: "The base game: bet with a card of your hand how many of the 7 tricks you will win, exactly.",
      fr: "The French box's base game: up to 5 players with a fifth suit, a double basket, first to 35 points.",
      "fr-advanced": "The French advanced game: the special cards ★ (star), Ø (void) and ?.",
      kod7: "Estimations, an exception suit, stars and the ‽.",
      bga: "The rules played online: bids, card passing, a bid made scores the bid + 2.",
      seven: "A shedding game: match the top card, use the action cards, be the first with no cards.",
    },
    learn: "Learn to play",
    learnHelp: "A prepared deal against bots: each new decision is explained as it comes, and you play it. About five minutes.",
    learned: "done",
    player: "Player",
    coach: "Tutorial",
    gotIt: "Got it",
    playOn: "Play on",
    home: "Home",
    you: "you",
    welcome: (title, bots) =>
      `Welcome to ${title}. You sit at the bottom, against ${bots} bots. Each decision is explained here the first time it comes; press "Got it" to go on, or simply play.`,
    sevenWelcome: (bots) =>
      `Welcome to Seven. You sit at the bottom, against ${bots} bots. The card in the middle is the top of the pile. Be the first to play all your cards. Each decision is explained here the first time it comes.`,
    specials: "Special cards in your hand:",
    pass: (n, bets) => `Before the ${bets}, you pass ${n === 1 ? "a card" : `${n} cards`} to another player: choose, then confirm. You see what you receive only after passing yours.`,
    bet: (tm) =>
      `Your ${tm.bet} is a card of your hand, chosen in secret: its value (0 to 7) is the exact number of tricks you say you will win, of this round's 7. All the ${tm.bets} are shown at once; then the cards go back to the hands, face up. The suit of the highest ${tm.bet} card becomes the ${tm.trump}, whose cards beat all others: so a high ${tm.bet} also chooses the ${tm.trump}. Count your sure winners (high cards, and many cards of the suit you may make the ${tm.trump}), then choose a card and confirm.`,
    rebet: (tm) => `The ${tm.bets} added up to 7: nobody may bet that way, so everyone chooses again, with another card of their hand.`,
    trump: (tm, who, suit, self, tied) =>
      `${self ? "Your" : `${who}'s`} ${tm.bet} was the highest${tied ? " (a tie, settled as the Rules say)" : ""}: ${self ? "you lead" : "that player leads"} the first trick (the ❶ by the name), and the suit of that card, ${suit}, is the ${tm.trump} for this round: its cards beat every card of the other suits.`,
    lead: "You lead this trick: play any card. The others must follow its suit if they can.",
    follow: (suit, specials) =>
      `${cap(suit)} was led and you hold ${suit}: you must follow suit. The cards you may play have a blue frame; the others are greyed.${specials ? " Special cards may always be played." : ""}`,
    noFollow: (suit, tm, trump) =>
      `You hold no ${suit}: play any card. A card of ${trump} (the ${tm.trump}) wins the trick unless a higher one follows; a card of another suit cannot win it.`,
    trick: (who, tm, trump, self) =>
      `${self ? "You" : who} won the trick: the highest card of ${trump} (the ${tm.trump}) wins, or else the highest card of the suit led. The winner leads the next trick, and its Tricks count goes up by one.`,
    score: (tm, bet, won, points) =>
      `The round is over. You ${tm.bet === "bid" ? "bid" : tm.bet === "estimation" ? "estimated" : "bet"} ${bet} and won ${won} ${won === 1 ? "trick" : "tricks"}: ${bet === won ? "made" : `missed by ${Math.abs(bet - won)}`}, ${points} ${Math.abs(points) === 1 ? "point" : "points"}. The summary you just read showed how each player's points were made: a ${tm.bet} made exactly scores, a missed one costs. A new round brings a new deal and new ${tm.bets}.`,
    done: (tm) => `That is the heart of the game: your ${tm.bet}, following suit, the ${tm.trump} and the score; the Rules above have the rest (when the ${tm.bets} add up to 7, how the game ends). Play on to the end of this game, or go home and start a table with friends.`,
    sevenPlay: (suit, rank) => `Your turn: play a card of the suit to follow (${suit}) or of the top card's rank (${rank}), or an 8. The cards you may play have a blue frame.`,
    actions: "Action cards:",
    wild: "An 8 is wild: play it on anything and name the suit the next player must follow.",
    draw: "No card of yours fits: draw one. That ends your turn.",
    penalty: (n) => `A 2 or the A♠ was played on you: play another of the same to pass it on, or draw ${n} cards.`,
    lock: "A 7 locks the game: play a 7 too, or pass.",
    lastCard: "You are about to play your second-to-last card:",
    callout: "A player is down to one card and did not announce it: call them out (they draw 4), or let it go.",
    sevenScore: (who, mine) => `${who} went out and won the round. The others add up the cards left in their hands${mine === null ? "" : `: you add ${mine}`}.`,
    sevenDone: "That is Seven: match the top card, use the action cards, and announce your last card as you play your second-to-last (or be called out and draw 4). Play on to the end of the game, or go home and start a table with friends.",
  },
  fr: {
    titles: { en: "Oh 7 ? (édition anglaise)", fr: "Oh 7 ? (édition française)", "fr-advanced": "Oh 7 ?, le jeu avancé", kod7: "Kod-7", bga: "Oh-Seven (règles en ligne)", seven: "Seven" },
    blurbs: {
      en: "Le jeu de base : pariez avec une carte de votre main combien des 7 plis vous remporterez, exactement.",
      fr: "Le jeu de base de la boîte française : jusqu'à 5 joueurs avec une cinquième couleur, double panier, le premier à 35 points.",
      "fr-advanced": "Le jeu avancé français : les cartes spéciales ★ (étoile), Ø (vide) et ?.",
      kod7: "Estimations, couleur d'exception, étoiles et ‽.",
      bga: "Les règles jouées en ligne : enchères, passe de cartes, une enchère réussie marque l'enchère + 2.",
      seven: "Un jeu où l'on se défausse : couvrez la carte du dessus, jouez les cartes d'action, videz votre main le premier.",
    },
    learn: "Apprendre à jouer",
    learnHelp: "Une donne préparée contre des robots : chaque nouvelle décision est expliquée quand elle arrive, et c'est vous qui jouez. Environ cinq minutes.",
    learned: "fait",
    player: "Joueur",
    coach: "Tutoriel",
    gotIt: "Compris",
    playOn: "Continuer la partie",
    home: "Accueil",
    you: "vous",
    welcome: (title, bots) =>
      `Bienvenue dans ${title}. Vous êtes en bas, face à ${bots} robots. Chaque décision est expliquée ici la première fois qu'elle se présente ; appuyez sur « Compris » pour continuer, ou jouez simplement.`,
    sevenWelcome: (bots) =>
      `Bienvenue dans Seven. Vous êtes en bas, face à ${bots} robots. La carte du milieu est le dessus de la défausse. Soyez le premier à poser toutes vos cartes. Chaque décision est expliquée ici la première fois qu'elle se présente.`,
    specials: "Les cartes spéciales de votre main :",
    pass: (n, bets) => `Avant les ${bets}, vous passez ${n === 1 ? "une carte" : `${n} cartes`} à un autre joueur : choisissez, puis confirmez. Vous ne voyez ce que vous recevez qu'après avoir passé les vôtres.`,
    bet: (tm) =>
      `Votre ${tm.bet} est une carte de votre main, choisie en secret : sa valeur (0 à 7) est le nombre exact de plis que vous annoncez, sur les 7 de la manche. ${tm.fem ? "Toutes les" : "Tous les"} ${tm.bets} sont ${tm.fem ? "montrées" : "montrés"} en même temps ; puis les cartes reviennent dans les mains, face visible. La couleur de la plus forte carte ${/^[aeéiou]/.test(tm.bet) ? "d'" : "de "}${tm.bet} devient ${tm.trumpFem ? "la" : "l'"} ${tm.trump}, qui bat toutes les autres : ${tm.fem ? "une forte" : "un fort"} ${tm.bet} choisit donc aussi ${tm.trumpFem ? "la" : "l'"} ${tm.trump}. Comptez vos plis sûrs (les fortes cartes, et beaucoup de cartes de la couleur dont vous pourriez faire ${tm.trumpFem ? "la" : "l'"} ${tm.trump}), puis choisissez une carte et confirmez.`,
    rebet: (tm) => `Les ${tm.bets} faisaient 7 en tout : c'est interdit, alors chacun choisit de nouveau, avec une autre carte de sa main.`,
    trump: (tm, who, suit, self, tied) =>
      `${self ? `Votre ${tm.bet}` : `${tm.fem ? "L'" : "Le "}${tm.bet} de ${who}`} était ${tm.fem ? "la plus haute" : "le plus haut"}${tied ? " (une égalité, départagée comme le disent les Règles)" : ""} : ${self ? "vous entamez" : "ce joueur entame"} le premier pli (le ❶ près du nom), et la couleur de cette carte, ${suit}, est ${tm.trumpFem ? "la" : "l'"} ${tm.trump} de la manche : ses cartes battent toutes celles des autres couleurs.`,
    lead: "Vous entamez ce pli : jouez la carte de votre choix. Les autres doivent fournir à sa couleur s'ils le peuvent.",
    follow: (suit, specials) =>
      `On a demandé ${suit} et vous en avez : vous devez fournir. Les cartes jouables ont un cadre bleu, les autres sont grisées.${specials ? " Les cartes spéciales peuvent toujours être jouées." : ""}`,
    noFollow: (suit, tm, trump) =>
      `Vous n'avez pas de ${suit} : jouez n'importe quelle carte. Une carte de ${trump} (${tm.trumpFem ? "la" : "l'"}${tm.trumpFem ? " " : ""}${tm.trump}) remporte le pli sauf si une plus haute suit ; une carte d'une autre couleur ne peut pas le remporter.`,
    trick: (who, tm, trump, self) =>
      `${self ? "Vous remportez" : `${who} remporte`} le pli : la plus haute carte de ${trump} (${tm.trumpFem ? "la" : "l'"}${tm.trumpFem ? " " : ""}${tm.trump}) gagne, sinon la plus haute de la couleur demandée. Le gagnant entame le pli suivant, et son compte de plis augmente d'un.`,
    score: (tm, bet, won, points) =>
      `La manche est finie. Votre ${tm.bet} était de ${bet} et vous avez remporté ${won} pli${won > 1 ? "s" : ""} : ${bet === won ? (tm.fem ? "réussie" : "réussi") : `${tm.fem ? "manquée" : "manqué"} de ${Math.abs(bet - won)}`}, ${points} point${Math.abs(points) > 1 ? "s" : ""}. Le résumé que vous venez de lire montrait comment chacun a marqué : ${tm.fem ? "une" : "un"} ${tm.bet} ${tm.fem ? "réussie" : "réussi"} exactement rapporte, ${tm.fem ? "manquée" : "manqué"}, ${tm.fem ? "elle" : "il"} coûte. Une nouvelle manche apporte une nouvelle donne et de nouve${tm.fem ? "lles" : "aux"} ${tm.bets}.`,
    done: (tm) =>
      `Voilà le cœur du jeu : ${/^[aeéiou]/.test(tm.bet) ? "l'" : "le "}${tm.bet}, fournir, ${tm.trumpFem ? "la " : "l'"}${tm.trump} et le score ; les Règles en haut disent le reste (quand les ${tm.bets} font 7, la fin de la partie). Continuez cette partie jusqu'au bout, ou revenez à l'accueil pour ouvrir une table avec des amis.`,
    sevenPlay: (suit, rank) => `À vous : jouez une carte de la couleur à suivre (${suit}) ou du rang de la carte du dessus (${rank}), ou un 8. Les cartes jouables ont un cadre bleu.`,
    actions: "Les cartes d'action :",
    wild: "Le 8 est un joker : posez-le sur n'importe quoi et nommez la couleur que le joueur suivant doit suivre.",
    draw: "Aucune de vos cartes ne convient : piochez-en une. Votre tour s'arrête là.",
    penalty: (n) => `On vous a joué un 2 ou l'as de pique : jouez-en un autre pour le passer au suivant, ou piochez ${n} cartes.`,
    lock: "Un 7 bloque le jeu : jouez un 7 vous aussi, ou passez.",
    lastCard: "Vous allez jouer votre avant-dernière carte :",
    callout: "Un joueur n'a plus qu'une carte et ne l'a pas annoncé : dénoncez-le (il pioche 4), ou laissez faire.",
    sevenScore: (who, mine) => `${who} a posé sa dernière carte et gagne la manche. Les autres comptent les cartes qui leur restent${mine === null ? "" : ` : vous ajoutez ${mine}`}.`,
    sevenDone: "Voilà Seven : couvrir la carte du dessus, jouer les cartes d'action, et annoncer sa dernière carte en jouant l'avant-dernière (sinon on peut être dénoncé et piocher 4). Continuez la partie jusqu'au bout, ou revenez à l'accueil pour ouvrir une table avec des amis.",
  },
};

/** The coach's words in `lang`. */
export function coachWords(lang) {
  return WORDS[lang] || WORDS.en;
}

/** The preset's words with their French genders. */
function termsOf(preset, lang) {
  const tm = terms(preset, lang);
  return { ...tm, fem: preset === "kod7" || preset === "bga", trumpFem: preset === "kod7" };
}

/** A section's sentences of the table's rules summary (by its place), or []. */
function sectionItems(summary, index) {
  return summary?.sections?.[index]?.items || [];
}

function nameOf(S, seat, w, named) {
  if (seat === S.you) return w.you;
  if (named) return named(seat);
  const v = S.view;
  return v?.names?.[seat] || v?.seats?.[seat] || S.table?.seats?.[seat]?.name || `#${seat}`;
}

/**
 * Oh 7's lessons, in the order they are offered: each `[id, when, text]`; the first whose `when`
 * holds and that was not read yet is the lesson now.
 */
function oh7Lessons(S, w, lang, summary, named) {
  const v = S.view;
  const tbl = S.table;
  const tm = termsOf(tbl.preset, lang);
  const rules = { ...symbols(tbl.ruleset), preset: tbl.preset };
  const kinds = new Set(S.legal.map((a) => a.kind));
  const hand = (v.hand || []).map(parseOh7).filter(Boolean);
  const specialsHeld = hand.some((c) => c.kind !== "regular");
  const playing = kinds.has("play");
  const led = v.trick?.length ? parseOh7(v.trick[0][1]) : null;
  const ledSuit = led?.kind === "regular" ? led.suit : null;
  const holdsLed = ledSuit !== null && hand.some((c) => c.kind === "regular" && c.suit === ledSuit);
  const suitWords = (s) => {
    const n = suitName(s, lang, rules);
    return `${n.name} ${n.symbol}`;
  };
  const round = v.past_rounds?.[0];
  // The special cards' sentences of the rules summary, each starting with its card's sign: only
  // those about a card in this hand.
  const held = new Set(hand.map((c) => (c.kind === "star" ? "★" : c.kind === "void" ? "Ø" : c.kind === "mark" ? rules.mark : c.suit === "F" ? rules.fifth : null)));
  if (hand.some((c) => c.copy)) held.add("′");
  const specialItems = sectionItems(summary, 1).filter((x) => [...held].some((sign) => sign && x.startsWith(sign)));
  const specialsText = () => `${w.specials} ${specialItems.join(" ")}`;
  const passCount = S.legal.find((a) => a.kind === "pass")?.cards?.length || 1;
  // The trick just won, shown on the table for a moment: the lesson comes while it is there.
  const lastTrick = S.completed || v.last_trick || v.tricks?.[0];
  // The round's trump suit (a lesson about trumps waits for it).
  const trump = v.leader_trump?.[1] || round?.trump || null;
  return [
    ["welcome", true, () => w.welcome(w.titles[familyOf(tbl)] || tbl.preset, tbl.players - 1)],
    ["specials", specialsHeld && (kinds.has("bet") || playing) && specialItems.length > 0, specialsText],
    ["pass", kinds.has("pass"), () => w.pass(passCount, tm.bets)],
    ["bet", kinds.has("bet") && (v.phase?.attempt ?? 1) === 1, () => w.bet(tm)],
    ["rebet", kinds.has("bet") && (v.phase?.attempt ?? 1) > 1, () => w.rebet(tm)],
    ["trump", !!v.leader_trump && v.phase?.name === "playing", () => w.trump(tm, nameOf(S, v.leader_trump[0], w, named), suitWords(v.leader_trump[1]), v.leader_trump[0] === S.you, (v.leader_why?.tied?.length ?? 0) > 1)],
    ["trick", !!lastTrick && lastTrick.winner !== undefined && !!trump, () => w.trick(nameOf(S, lastTrick.winner, w, named), tm, suitWords(trump), lastTrick.winner === S.you)],
    ["lead", playing && !v.trick?.length, () => w.lead],
    ["follow", playing && holdsLed, () => w.follow(suitWords(ledSuit), specialsHeld)],
    ["noFollow", playing && ledSuit !== null && !holdsLed && !!trump, () => w.noFollow(suitWords(ledSuit), tm, suitWords(trump))],
    // Once the last trick has been gathered: one thing to look at, the round's summary.
    // After the round's summary has been read and put away: one panel at a time.
    // (or, for someone who played on through it, once a second round has ended).
    ["score", (!!round && !S.completed && !S.summary) || (v.past_rounds?.length ?? 0) >= 2, () => w.score(tm, round.bets[S.you], round.won[S.you], round.points[S.you])],
    ["done", false, () => w.done(tm)],
  ];
}

const SEVEN_ACTION = /^(2|7|8|10|J)[SHCD]|^AS/;

function sevenLessons(S, w, lang, summary, named) {
  const v = S.view;
  const kinds = new Set(S.legal.map((a) => a.kind));
  const plays = S.legal.filter((a) => a.kind === "play");
  const top = v.top ? parseSeven(v.top) : null;
  const suit = v.active_suit || top?.suit;
  const round = v.past_rounds?.[0];
  const actionItems = sectionItems(summary, 2);
  const lastItems = sectionItems(summary, 3);
  const scoring = sectionItems(summary, 4).join(" ");
  const mine = round ? (round.points?.[S.you] ?? null) : null;
  return [
    ["welcome", true, () => w.sevenWelcome(S.table.players - 1)],
    ["play", plays.length > 0 && !v.penalty && !v.seven_lock, () => w.sevenPlay(suit ? `${suitName(suit, lang).name} ${suitName(suit, lang).symbol}` : "?", top?.rank ?? "?")],
    ["actions", plays.length > 0 && (v.hand || []).some((c) => SEVEN_ACTION.test(c)) && actionItems.length > 0, () => `${w.actions} ${actionItems.join(" ")}`],
    ["wild", plays.some((a) => a.suit), () => w.wild],
    ["draw", kinds.has("draw") && plays.length === 0 && !v.penalty, () => w.draw],
    ["penalty", kinds.has("draw") && !!v.penalty, () => w.penalty(v.penalty.cards)],
    ["lock", kinds.has("pass") && !!v.seven_lock, () => w.lock],
    ["lastCard", plays.some((a) => a.announce) && lastItems.length > 0, () => `${w.lastCard} ${lastItems.join(" ")}`],
    ["callout", kinds.has("call_out"), () => w.callout],
    ["score", !!round, () => `${w.sevenScore(nameOf(S, round.out, w, named), mine)} ${scoring}`.trim()],
    ["done", false, () => w.sevenDone],
  ];
}

// Each game's tutorial: its family from a table, its table (players, the bots' level), its lessons.
const GAMES = {
  oh7: { family: (table) => table.preset || "en", request: (family) => ({ game: "oh7", preset: family }), players: 4, bot: "beginner", lessons: oh7Lessons },
  seven: { family: () => "seven", request: () => ({ game: "seven" }), players: 3, bot: "heuristic", lessons: sevenLessons },
};

/**
 * The lesson a tutorial table needs now: `{id, text, last}` or null. `seen`: the ids read
 * already; `summary`: the table's rules summary in `lang` (its sentences are quoted where the
 * editions differ; a lesson that needs it waits for it). The last lesson (`last: true`) comes
 * once the score was read, and ends the tutorial. `named(seat)`: a seat's name as the page shows
 * it (else the view's).
 */
export function lesson(S, seen, lang, summary, named = null) {
  const v = S.view;
  if (!S.table || !v || S.you === null || S.table.state === "lobby") return null;
  const read = new Set(seen);
  if (read.has("done")) return null;
  const w = coachWords(lang);
  if (!Object.hasOwn(GAMES, v.game)) return null;
  const list = GAMES[v.game].lessons(S, w, lang, summary, named);
  if (read.has("score")) return { id: "done", text: list[list.length - 1][2](), last: true };
  for (const [id, when, text] of list) {
    if (when && !read.has(id)) return { id, text: text(), last: false };
  }
  return null;
}

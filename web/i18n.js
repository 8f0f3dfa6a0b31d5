// Every word on screen, in English and French, with the terms of the rule documents
// (bet / pari, trick / pli, round / manche, trump / atout, the Dummy / le Pantin, and the
// preset's own words: Kod-7's estimation and exception suit, bga's bid). Sentences are whole per
// language, never stitched from pieces. Refusals from the server are worded here from their
// code and parameters, so a French table reads French.

import { GLOSSARY } from "./glossary.js";
import { WORDINGS, TERMS } from "./wording.js";
import { face, suitName, parseOh7 } from "./cards.js";

const cap = (w) => (w ? w.charAt(0).toUpperCase() + w.slice(1) : w);
const G = GLOSSARY;
// « de pari », « d'estimation », « d'enchère ».
const de = (w) => (/^[aeiouéèêh]/i.test(w) ? `d'${w}` : `de ${w}`);
const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? "–" : `${Math.round(x * 100)}%`);
const pctFr = (x) => (x === null || x === undefined || Number.isNaN(x) ? "–" : `${Math.round(x * 100)} %`);
const num = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? "–" : Number(x).toFixed(d));

export const TEXT = {
  en: {
    title: "oh7 — Oh 7 and Seven with friends",
    tagline: "Create a table, send the invite link to your friends, and fill the seats still free with bots when you start.",
    colon: ": ",
    language: "Language",
    game: "Game",
    gameOh7: "Oh 7",
    gameSeven: "Seven",
    preset: "Rules",
    presets: { en: "Oh 7 ? (English)", fr: "Oh 7 ? (French)", "fr-advanced": "Oh 7 ? advanced (French)", kod7: "Kod-7", bga: "Oh-Seven (online rules)", seven: "Seven" },
    ruleset: "Or a custom ruleset file (TOML), instead of the rules above",
    players: "Players",
    playersAllowed: (min, max, dummy) => `${min} to ${max} players${dummy ? " (2 play with the Dummy)" : ""}.`,
    otherSeats: "The other seats",
    seat: (n) => `Seat ${n + 1}`,
    freeSeat: "free, for a friend",
    botLevel: (l) => `bot: ${l}`,
    botName: (n, l) => `Bot ${n} (${l})`,
    botShort: (n) => `Bot ${n}`,
    levels: { random: "random", heuristic: "heuristic", easy: "easy", medium: "medium", hard: "hard", ismcts: "strong (ISMCTS)", expert: "expert", search: "search" },
    yourName: "Your name",
    create: "Create the table",
    creating: "Creating…",
    invite: "Invite link: friends who open it take a free seat",
    watchLink: "Spectator link: watch only",
    seatLink: "Play your seat on another device",
    seatLinkHelp: "Open this link in another browser or on your phone to play your seat there. It is your seat's key: send it to nobody else.",
    links: "Links: invite, watch, your seat elsewhere",
    linksWatch: "Link to watch",
    copy: "Copy",
    copied: "Copied",
    takeSeat: "Take a seat",
    start: "Start the game",
    fillWith: "Seats still free when you start",
    fillBots: (l) => `fill with bots: ${l}`,
    fillNone: "wait for people",
    waitingHost: "Waiting for the host to start the game.",
    watching: "You are watching.",
    watchingBadge: "Watching",
    full: "Every seat is taken: you are watching.",
    startedWatching: "The game has started: you are watching. To play your own seat here, open “Play your seat on another device” on the device you played on.",
    seatsTitle: "Seats",
    joined: (n, m) => `${n} of ${m} seats taken by people`,
    statuses: { empty: "free seat", here: "here", away: "away", bot_for_away: "away (a bot plays)", bot: "bot" },
    seatSetting: (n) => `Seat ${n + 1}`,
    you: "you",
    host: "host",
    round: (n) => `${cap(G.en.round)} ${n}`,
    trick: (n) => `${cap(G.en.trick)} ${n}`,
    noTrump: "not chosen yet",
    won: cap(G.en.tricks),
    score: "Points",
    hand: "Your hand",
    lastTrick: "Last trick",
    wonBy: (name) => `won by ${name}`,
    takes: (name) => `${name} takes the trick`,
    continue: "Continue",
    noLastTrick: "no trick yet",
    toMove: (names) => `Waiting for ${names}`,
    yourTurn: "Your turn",
    phase: {
      passing: (n, to) => `Choose ${n} card${n > 1 ? "s" : ""} to pass to ${to}, then confirm.`,
      betting: (a, t) => `Choose your ${t.bet} card${a > 1 ? ` (${G.en.attempt} ${a})` : ""}, then confirm; it stays face down until everyone has chosen.`,
      reveal: "Tie for first leader: reveal your ? card, or not.",
      choose_leader: "Choose the first leader.",
      choose_trump: (t) => `Choose the ${t.trump}.`,
      announce_trump: (t) => `Announce a suit for the ${t.trump}.`,
      playing: "Play a card.",
      over: "The game is over.",
    },
    confirmBet: (card) => `Confirm: bet ${card}`,
    cancel: "Change",
    betChosen: (t) => `Your ${t.bet} card (face down):`,
    decided: "has chosen",
    passConfirm: (n, to) => `Pass ${n} card${n > 1 ? "s" : ""} to ${to}`,
    passed: (to) => `You passed to ${to}:`,
    received: (from) => `You received from ${from}:`,
    passNone: "No passing this round.",
    attempts: (t) => `Earlier ${t.bets} (they summed to 7 and do not count)`,
    attemptN: (n) => `${cap(G.en.attempt)} ${n}`,
    betCards: (t, n) => `${cap(t.bet)} card${n > 1 ? "s" : ""}`,
    dummy: G.en.dummy,
    dummyPile: (n) => `${n} face down`,
    reveal: (m) => `Reveal ${m}`,
    dontReveal: "Don't reveal",
    leads: (name) => `${name} leads`,
    trumpIs: (t, s) => `${cap(t.trump)}: ${s}`,
    announce: (s) => `Announce ${s}`,
    draw: "Draw",
    pass: "Pass",
    callOut: (name) => `Call out ${name}`,
    noCall: "Don't call out",
    announceLast: "and announce your last card",
    chooseSuit: "Choose the suit",
    hint: "Hint",
    hintIs: (a) => `The expert would play: ${a}`,
    rules: "Rules",
    chat: "Chat",
    chatLabel: "A chat message",
    send: "Send",
    reconnecting: "Reconnecting…",
    connected: "Connected",
    over: "Game over",
    winner: (names) => `Winner: ${names}`,
    rematch: "Play again",
    download: "Download the game record",
    scores: "Points by round (bet / tricks won)",
    waitingRematch: "The host may start another game at this table.",
    total: "Total",
    summaryTitle: (n) => `${cap(G.en.round)} ${n} is over`,
    summaryBet: (t) => cap(t.bet),
    summaryTricks: cap(G.en.tricks),
    summaryPoints: "Points",
    summaryTotal: "Total",
    dismiss: "OK",
    statsTitle: "This game in figures",
    statsGames: (n) => `The ${n} games at this table`,
    statsTable: "Table",
    statsRows: {
      nil_bid_rate: "Nil bid rate (bets of 0)",
      average_top_bid: "Average top bid",
      trump_selection_rate: "Trump chosen",
      points_per_round: "Points per round",
      average_bid: "Average bid",
      top_bid_rate: "Top bid rate",
      success_rate: "Success rate",
      overshoot_rate: "Overshoot rate (won more)",
      shortfall_rate: "Shortfall rate (won fewer)",
    },
    history: "Games at this table",
    gameN: (n) => `Game ${n}`,
    pct,
    num,
    top: "Top of the pile",
    activeSuit: "Suit to follow",
    drawPile: (n) => `Draw pile: ${n}`,
    penalty: (n) => `Penalty: draw ${n}`,
    sevenLock: "A 7 is in play: play a 7 or pass",
    direction: { clockwise: "clockwise", counterclockwise: "counter-clockwise" },
    cards: (n) => `${n} card${n === 1 ? "" : "s"}`,
    back: "oh7: new table",
    home: "oh7",
    unknownTable: "No table has this link.",
    errors: {
      malformed: "The page sent something the server does not understand: reload the page.",
      too_large: "That message is too long.",
      rate_limited: "Too many actions at once: slow down a little.",
      unknown_table: "No table has this link.",
      bad_token: "This seat link is not valid at this table.",
      spectator: "Spectators watch; they cannot play.",
      not_seated: "Take a seat first.",
      already_seated: "You have a seat at this table already.",
      table_full: "Every seat is taken: you can watch the game.",
      bad_name: (p) => `A name has 1 to ${p.max ?? 24} characters.`,
      not_host: "Only the host can do this.",
      not_started: "The game has not started yet.",
      already_started: "The game has started already.",
      not_over: "The game is not over yet.",
      game_over: "The game is over.",
      seats_free: "Some seats are free: wait for your friends, or fill them with bots.",
      not_your_turn: "It is not your turn.",
      illegal: "That move is not allowed now.",
      chat_too_long: (p) => `A chat message has 1 to ${p.max ?? 300} characters.`,
      bad_players: (p) => `This game is for ${p.min} to ${p.max} players.`,
      bad_ruleset: (p) => `The ruleset file was refused: ${p.detail ?? ""}`,
      ruleset_too_large: (p) => `A ruleset file has at most ${p.max_bytes ?? 8192} bytes.`,
      unknown_preset: "Choose rules from the list.",
      unknown_level: (p) => `Choose a bot level from the list${p.levels ? ` (${p.levels.join(", ")})` : ""}.`,
      host_seat_bot: "The first seat is yours, the host's: it cannot be a bot.",
      bad_lang: "Choose English or French.",
      bad_clock: (p) => `The turn clock is ${p.min ?? 10} to ${p.max ?? 600} seconds.`,
      preset_and_ruleset: "Give the rules from the list or a ruleset file, not both.",
      seat_taken: "A person sits there: that seat cannot be changed.",
      bad_seat: "That seat cannot be changed.",
      bad_request: "The server refused these settings.",
      too_many: "Too many tables or connections from your address: try again later.",
      storage: "The server could not save this; nothing changed. Try again.",
      shutting_down: "The server is restarting; the game is saved.",
      no_hello: "Reconnecting…",
      already_joined: "Reconnecting…",
      offline: "The server cannot be reached: check the connection and try again.",
      must_follow: "That card cannot be played now: follow the lead suit if you can.",
      card_not_now: "That card cannot be chosen now.",
    },
  },
  fr: {
    title: "oh7 — Oh 7 et Seven entre amis",
    tagline: "Créez une table, envoyez le lien d'invitation à vos amis, et complétez avec des robots les places encore libres au moment de commencer.",
    colon: " : ",
    language: "Langue",
    game: "Jeu",
    gameOh7: "Oh 7",
    gameSeven: "Seven",
    preset: "Règles",
    presets: { en: "Oh 7 ? (anglais)", fr: "Oh 7 ? (français)", "fr-advanced": "Oh 7 ? avancé (français)", kod7: "Kod-7", bga: "Oh-Seven (règles en ligne)", seven: "Seven" },
    ruleset: "Ou un fichier de règles personnalisées (TOML), à la place des règles ci-dessus",
    players: "Joueurs",
    playersAllowed: (min, max, dummy) => `De ${min} à ${max} joueurs${dummy ? " (à 2, on joue avec le Pantin)" : ""}.`,
    otherSeats: "Les autres places",
    seat: (n) => `Place ${n + 1}`,
    freeSeat: "libre, pour un ami",
    botLevel: (l) => `robot : ${l}`,
    botName: (n, l) => `Robot ${n} (${l})`,
    botShort: (n) => `Robot ${n}`,
    levels: { random: "hasard", heuristic: "heuristique", easy: "facile", medium: "moyen", hard: "difficile", ismcts: "fort (ISMCTS)", expert: "expert", search: "recherche" },
    yourName: "Votre nom",
    create: "Créer la table",
    creating: "Création…",
    invite: "Lien d'invitation : vos amis qui l'ouvrent prennent une place libre",
    watchLink: "Lien spectateur : pour regarder",
    seatLink: "Jouer votre place sur un autre appareil",
    seatLinkHelp: "Ouvrez ce lien dans un autre navigateur ou sur votre téléphone pour y jouer votre place. C'est la clé de votre place : ne l'envoyez à personne d'autre.",
    links: "Liens : invitation, spectateur, votre place ailleurs",
    linksWatch: "Lien pour regarder",
    copy: "Copier",
    copied: "Copié",
    takeSeat: "Prendre une place",
    start: "Commencer la partie",
    fillWith: "Places encore libres au début",
    fillBots: (l) => `compléter avec des robots : ${l}`,
    fillNone: "attendre des joueurs",
    waitingHost: "En attente de l'hôte pour commencer la partie.",
    watching: "Vous regardez la partie.",
    watchingBadge: "Spectateur",
    full: "Toutes les places sont prises : vous regardez la partie.",
    startedWatching: "La partie a commencé : vous la regardez. Pour jouer votre place ici, ouvrez « Jouer votre place sur un autre appareil » sur l'appareil où vous jouiez.",
    seatsTitle: "Places",
    joined: (n, m) => `${n} place${n > 1 ? "s" : ""} sur ${m} prise${n > 1 ? "s" : ""} par des joueurs`,
    statuses: { empty: "place libre", here: "présent", away: "absent", bot_for_away: "absent (un robot joue)", bot: "robot" },
    seatSetting: (n) => `Place ${n + 1}`,
    you: "vous",
    host: "hôte",
    round: (n) => `${cap(G.fr.round)} ${n}`,
    trick: (n) => `${cap(G.fr.trick)} ${n}`,
    noTrump: "pas encore choisi",
    won: cap(G.fr.tricks),
    score: "Points",
    hand: "Votre main",
    lastTrick: "Dernier pli",
    wonBy: (name) => `remporté par ${name}`,
    takes: (name) => `${name} remporte le pli`,
    continue: "Continuer",
    noLastTrick: "aucun pli pour l'instant",
    toMove: (names) => `En attente de ${names}`,
    yourTurn: "À vous de jouer",
    phase: {
      passing: (n, to) => `Choisissez ${n} carte${n > 1 ? "s" : ""} à donner à ${to}, puis confirmez.`,
      betting: (a, t) => `Choisissez votre carte ${de(t.bet)}${a > 1 ? ` (${G.fr.attempt} ${a})` : ""}, puis confirmez ; elle reste face cachée jusqu'à ce que tous aient choisi.`,
      reveal: "Égalité pour le premier meneur : dévoilez votre carte ?, ou non.",
      choose_leader: "Choisissez le premier meneur.",
      choose_trump: (t) => `Choisissez ${t.trump === "atout" ? "l'atout" : `la ${t.trump}`}.`,
      announce_trump: (t) => `Annoncez une couleur pour ${t.trump === "atout" ? "l'atout" : `la ${t.trump}`}.`,
      playing: "Jouez une carte.",
      over: "La partie est terminée.",
    },
    confirmBet: (card) => `Confirmer : ${card}`,
    cancel: "Changer",
    betChosen: (t) => `Votre carte ${de(t.bet)} (face cachée) :`,
    decided: "a choisi",
    passConfirm: (n, to) => `Donner ${n} carte${n > 1 ? "s" : ""} à ${to}`,
    passed: (to) => `Vous avez donné à ${to} :`,
    received: (from) => `Vous avez reçu de ${from} :`,
    passNone: "Pas de passe à cette manche.",
    attempts: (t) => `${cap(t.bets)} précédents (ils faisaient 7 et ne comptent pas)`,
    attemptN: (n) => `${cap(G.fr.attempt)} ${n}`,
    betCards: (t, n) => (n > 1 ? `Cartes ${de(t.bet)}` : `Carte ${de(t.bet)}`),
    dummy: G.fr.dummy,
    dummyPile: (n) => `${n} face cachée`,
    reveal: (m) => `Dévoiler ${m}`,
    dontReveal: "Ne pas dévoiler",
    leads: (name) => `${name} mène`,
    trumpIs: (t, s) => `${cap(t.trump)} : ${s}`,
    announce: (s) => `Annoncer ${s}`,
    draw: "Piocher",
    pass: "Passer",
    callOut: (name) => `Dénoncer ${name}`,
    noCall: "Ne pas dénoncer",
    announceLast: "et annoncer votre dernière carte",
    chooseSuit: "Choisissez la couleur",
    hint: "Conseil",
    hintIs: (a) => `L'expert jouerait : ${a}`,
    rules: "Règles",
    chat: "Discussion",
    chatLabel: "Un message",
    send: "Envoyer",
    reconnecting: "Reconnexion…",
    connected: "Connecté",
    over: "Partie terminée",
    winner: (names) => `Gagnant : ${names}`,
    rematch: "Rejouer",
    download: "Télécharger la partie",
    scores: "Points par manche (pari / plis remportés)",
    waitingRematch: "L'hôte peut lancer une autre partie à cette table.",
    total: "Total",
    summaryTitle: (n) => `Fin de la ${G.fr.round} ${n}`,
    summaryBet: (t) => cap(t.bet),
    summaryTricks: cap(G.fr.tricks),
    summaryPoints: "Points",
    summaryTotal: "Total",
    dismiss: "OK",
    statsTitle: "La partie en chiffres",
    statsGames: (n) => `Les ${n} parties de cette table`,
    statsTable: "Table",
    statsRows: {
      nil_bid_rate: "Taux de paris nuls (0)",
      average_top_bid: "Plus fort pari moyen",
      trump_selection_rate: "Atout choisi",
      points_per_round: "Points par manche",
      average_bid: "Pari moyen",
      top_bid_rate: "Taux de plus fort pari",
      success_rate: "Taux de réussite",
      overshoot_rate: "Taux d'excès (plus de plis)",
      shortfall_rate: "Taux de manque (moins de plis)",
    },
    history: "Parties de cette table",
    gameN: (n) => `Partie ${n}`,
    pct: pctFr,
    num: (x, d = 2) => num(x, d).replace(".", ","),
    top: "Dessus du talon",
    activeSuit: "Couleur demandée",
    drawPile: (n) => `Pioche : ${n}`,
    penalty: (n) => `Pénalité : piocher ${n}`,
    sevenLock: "Un 7 est en jeu : jouez un 7 ou passez",
    direction: { clockwise: "sens horaire", counterclockwise: "sens antihoraire" },
    cards: (n) => `${n} carte${n === 1 ? "" : "s"}`,
    back: "oh7 : nouvelle table",
    home: "oh7",
    unknownTable: "Aucune table n'a ce lien.",
    errors: {
      malformed: "La page a envoyé un message que le serveur ne comprend pas : rechargez la page.",
      too_large: "Ce message est trop long.",
      rate_limited: "Trop d'actions à la fois : ralentissez un peu.",
      unknown_table: "Aucune table n'a ce lien.",
      bad_token: "Ce lien de place n'est pas valable à cette table.",
      spectator: "Les spectateurs regardent ; ils ne peuvent pas jouer.",
      not_seated: "Prenez d'abord une place.",
      already_seated: "Vous avez déjà une place à cette table.",
      table_full: "Toutes les places sont prises : vous pouvez regarder la partie.",
      bad_name: (p) => `Un nom a de 1 à ${p.max ?? 24} caractères.`,
      not_host: "Seul l'hôte peut faire cela.",
      not_started: "La partie n'a pas encore commencé.",
      already_started: "La partie a déjà commencé.",
      not_over: "La partie n'est pas finie.",
      game_over: "La partie est terminée.",
      seats_free: "Des places sont libres : attendez vos amis, ou complétez avec des robots.",
      not_your_turn: "Ce n'est pas votre tour.",
      illegal: "Ce coup n'est pas permis maintenant.",
      chat_too_long: (p) => `Un message a de 1 à ${p.max ?? 300} caractères.`,
      bad_players: (p) => `Ce jeu se joue de ${p.min} à ${p.max} joueurs.`,
      bad_ruleset: (p) => `Le fichier de règles est refusé : ${p.detail ?? ""}`,
      ruleset_too_large: (p) => `Un fichier de règles fait au plus ${p.max_bytes ?? 8192} octets.`,
      unknown_preset: "Choisissez des règles dans la liste.",
      unknown_level: (p) => `Choisissez un niveau de robot dans la liste${p.levels ? ` (${p.levels.join(", ")})` : ""}.`,
      host_seat_bot: "La première place est la vôtre, celle de l'hôte : elle ne peut pas être un robot.",
      bad_lang: "Choisissez l'anglais ou le français.",
      bad_clock: (p) => `Le temps par coup va de ${p.min ?? 10} à ${p.max ?? 600} secondes.`,
      preset_and_ruleset: "Donnez les règles de la liste ou un fichier de règles, pas les deux.",
      seat_taken: "Un joueur est assis à cette place : elle ne peut pas être changée.",
      bad_seat: "Cette place ne peut pas être changée.",
      bad_request: "Le serveur a refusé ces réglages.",
      too_many: "Trop de tables ou de connexions depuis votre adresse : réessayez plus tard.",
      storage: "Le serveur n'a pas pu enregistrer ; rien n'a changé. Réessayez.",
      shutting_down: "Le serveur redémarre ; la partie est enregistrée.",
      no_hello: "Reconnexion…",
      already_joined: "Reconnexion…",
      offline: "Le serveur ne répond pas : vérifiez la connexion et réessayez.",
      must_follow: "Cette carte ne peut pas être jouée maintenant : fournissez la couleur appelée si vous le pouvez.",
      card_not_now: "Cette carte ne peut pas être choisie maintenant.",
    },
  },
};

/** The texts of `lang` (English if unknown). */
export function texts(lang) {
  return TEXT[lang] || TEXT.en;
}

/** A refusal worded in `lang` from its code and parameters (never the server's English). An
 *  engine refusal (`illegal` with `params.rule`) is worded from the table shared with the
 *  terminal (wording.js); `opts` ({game, rules}) refines how its cards show (the fifth suit's symbol). */
export function errorText(lang, code, params = {}, opts = {}) {
  if (code === "illegal") {
    const text = refusalText(lang, params || {}, opts);
    if (text !== null) return text;
  }
  const e = texts(lang).errors[code];
  if (typeof e === "function") return e(params || {});
  return e || texts(lang).errors.bad_request;
}

// Engine refusals: the templates of wording.js (generated from oh7_core::wording), filled the
// way the terminal fills them. Word-valued params are translated by TERMS; cards and suits are
// drawn with their symbols; seats are numbered from 1 as on the table.

const placeholders = (t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
const has = (params, name) => params[name] !== undefined && params[name] !== null;

/** The wording of an engine refusal: the first of its rule whose condition holds and whose
 *  placeholders (in both languages) the refusal provides, or null. */
export function refusalWording(params) {
  return (
    WORDINGS.find(
      (w) =>
        w.rule === params.rule &&
        (!w.when || (has(params, w.when[0]) && String(params[w.when[0]]) === w.when[1])) &&
        [...placeholders(w.en), ...placeholders(w.fr)].every((p) => has(params, p)),
    ) || null
  );
}

/** A card in the engine's notation as shown on the table ("7H" → "7♥", "AS'" → "A♠'"). */
function cardText(text, opts) {
  const game = opts.game || (parseOh7(text) ? "oh7" : "seven");
  const f = face(game, text, opts.rules || {});
  return f.copy ? `${f.face}'` : f.face;
}

const SEAT_PARAMS = ["seat", "last", "current", "offender"];

function showParam(lang, name, value, opts) {
  const v = String(value);
  if (name === "card" || name === "top") return cardText(v, opts);
  if (name === "hold") return v.split(/\s+/).filter(Boolean).map((c) => cardText(c, opts)).join(" ");
  if (name === "lead" || name === "suit") return suitName(v, lang, opts.rules || {}).symbol;
  if (SEAT_PARAMS.includes(name) && /^\d+$/.test(v)) return String(Number(v) + 1);
  return v;
}

/** An engine refusal ({rule, ...params}) as a sentence in `lang`, or null when it has no rule or
 *  no wording fits (the caller then says the generic sentence). */
export function refusalText(lang, params, opts = {}) {
  const w = params && params.rule ? refusalWording(params) : null;
  if (!w) return null;
  const l = lang === "fr" ? "fr" : "en";
  const text = w[l].replace(/\{(\w+)\}/g, (_, name) => {
    const value = String(params[name]);
    if (Object.hasOwn(TERMS, name)) return Object.hasOwn(TERMS[name], value) ? TERMS[name][value][l] : value;
    return showParam(l, name, value, opts);
  });
  return /[.!?…]$/.test(text) ? cap(text) : `${cap(text)}.`;
}

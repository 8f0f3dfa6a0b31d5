// Cards as the engine writes them ("7H", "*3", "V", "?", "3S'"; Seven: "10H", "AS", "QD'"),
// shown with their symbols and colours, spoken with their names, and sorted. No DOM here, so
// node's test runner checks it (web/test/).

import { pipOfSuit } from "./pips.js";

const OH7_SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_ORDER = "SHCDF";

const WORDS = {
  en: {
    suits: { S: "spades", H: "hearts", C: "clubs", D: "diamonds", F: "stars", Fk: "flowers" },
    values: ["zero", "one", "two", "three", "four", "five", "six", "seven"],
    ranks: { A: "ace", J: "jack", Q: "queen", K: "king" },
    of: (v, s) => `${v} of ${s}`,
    star: (v) => `star ${v}`,
    void: "void",
    interrobang: "Interrobang",
    exclarrogatif: "Exclarrogatif",
    copy: "second copy",
    actions: { plus2: "+2", plus5: "+5", lock: "7 lock", wild: "wild", reverse: "reverse", skip: "skip" },
  },
  fr: {
    suits: { S: "pique", H: "cœur", C: "trèfle", D: "carreau", F: "étoile", Fk: "fleur" },
    values: ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept"],
    ranks: { A: "as", J: "valet", Q: "dame", K: "roi" },
    of: (v, s) => `${v} de ${s}`,
    star: (v) => `étoile ${v}`,
    void: "vide",
    interrobang: "Interrobang",
    exclarrogatif: "Exclarrogatif",
    copy: "deuxième exemplaire",
    actions: { plus2: "+2", plus5: "+5", lock: "blocage", wild: "joker", reverse: "sens", skip: "passe" },
  },
};

/** Read an Oh 7 card: {kind: "regular"|"star"|"void"|"mark", value, suit, copy, text}. */
export function parseOh7(text) {
  let t = text;
  const copy = t.endsWith("'") ? 1 : 0;
  if (copy) t = t.slice(0, -1);
  if (t === "?") return { kind: "mark", value: null, suit: null, copy, text };
  if (t === "V") return { kind: "void", value: 0, suit: null, copy, text };
  if (t.startsWith("*")) return { kind: "star", value: Number(t.slice(1)), suit: null, copy, text };
  const m = /^([0-7])([SHCDF])$/.exec(t);
  if (!m) return null;
  return { kind: "regular", value: Number(m[1]), suit: m[2], copy, text };
}

/** Read a Seven card: {rank: "2".."10"|"J"|"Q"|"K"|"A", suit, copy, text}. */
export function parseSeven(text) {
  const m = /^(10|[2-9JQKA])([SHCD])('?)$/.exec(text);
  if (!m) return null;
  return { rank: m[1], suit: m[2], copy: m[3] ? 1 : 0, text };
}

// Each game's cards: how one looks, how it is spoken, where it sorts in a hand. A game is
// looked up once (`deckOf`), never compared by name.
const OH7_CARDS = {
  face(text, rules) {
    const c = parseOh7(text);
    if (!c) return { face: text, colour: "plain" };
    switch (c.kind) {
      case "mark":
        return { face: rules.mark || "‽", rank: rules.mark || "‽", suitSymbol: "", colour: "mark", copy: 0, pip: null };
      case "void":
        return { face: "Ø", rank: "Ø", suitSymbol: "", colour: "void", copy: c.copy, pip: "void" };
      case "star":
        return { face: `★${c.value}`, rank: String(c.value), suitSymbol: "★", colour: "star", copy: c.copy, pip: "star" };
      default: {
        const sym = c.suit === "F" ? rules.fifth || "☆" : OH7_SUITS[c.suit];
        const colour = c.suit === "F" ? "fifth" : red(c.suit) ? "red" : "black";
        return { face: `${c.value}${sym}`, rank: String(c.value), suitSymbol: sym, colour, copy: c.copy, pip: pipOfSuit(c.suit, rules) };
      }
    }
  },
  speak(text, w, rules) {
    const c = parseOh7(text);
    if (!c) return text;
    switch (c.kind) {
      case "mark":
        return rules.mark === "?" ? w.exclarrogatif : w.interrobang;
      case "void":
        return w.void + copyTail(c, w);
      case "star":
        return w.star(c.value) + copyTail(c, w);
      default: {
        const suit = c.suit === "F" ? (rules.fifth === "✿" ? w.suits.Fk : w.suits.F) : w.suits[c.suit];
        return w.of(w.values[c.value] ?? String(c.value), suit) + copyTail(c, w);
      }
    }
  },
  sortKey(t) {
    const c = parseOh7(t);
    if (!c) return 9999;
    if (c.kind === "regular") return SUIT_ORDER.indexOf(c.suit) * 100 + c.value * 2 + c.copy;
    if (c.kind === "star") return 600 + c.value * 2 + c.copy;
    if (c.kind === "void") return 700 + c.copy;
    return 800;
  },
};

const SEVEN_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

const SEVEN_CARDS = {
  face(text) {
    const c = parseSeven(text);
    if (!c) return { face: text, colour: "plain" };
    const sym = OH7_SUITS[c.suit];
    const colour = red(c.suit) ? "red" : "black";
    return { face: `${c.rank}${sym}`, rank: c.rank, suitSymbol: sym, colour, copy: c.copy, pip: c.suit, action: sevenAction(c) };
  },
  speak(text, w) {
    const c = parseSeven(text);
    if (!c) return text;
    return w.of(w.ranks[c.rank] || c.rank, w.suits[c.suit]) + copyTail(c, w);
  },
  sortKey(t) {
    const c = parseSeven(t);
    return c ? SUIT_ORDER.indexOf(c.suit) * 100 + SEVEN_RANKS.indexOf(c.rank) * 2 + c.copy : 9999;
  },
};

/** What a Seven card does (seven.md, "Action cards"), or null. */
function sevenAction(c) {
  if (c.rank === "A") return c.suit === "S" ? "plus5" : null;
  return { 2: "plus2", 7: "lock", 8: "wild", 10: "reverse", J: "skip" }[c.rank] || null;
}

/** An action card's short label ("+2", "skip", "passe"). */
export function actionName(key, lang = "en") {
  return (WORDS[lang] || WORDS.en).actions[key] || key;
}

const DECKS = { oh7: OH7_CARDS, seven: SEVEN_CARDS };

/** A game's cards (the Oh 7 family's for a game this page does not know). */
export function deckOf(game) {
  return Object.hasOwn(DECKS, game) ? DECKS[game] : OH7_CARDS;
}

function copyTail(c, w) {
  return c.copy ? `, ${w.copy}` : "";
}

/** What a card looks like: {face, rank, suitSymbol, colour, copy, pip (web/pips.js), action (Seven's)}. `rules`: {fifth: "☆"|"✿", mark: "‽"|"?"}. */
export function face(game, text, rules = {}) {
  return deckOf(game).face(text, rules);
}

function red(suit) {
  return suit === "H" || suit === "D";
}

/** A card's spoken name ("seven of hearts", "sept de cœur"). */
export function speak(game, text, lang = "en", rules = {}) {
  return deckOf(game).speak(text, WORDS[lang] || WORDS.en, rules);
}

/** A suit letter's symbol and spoken name. */
export function suitName(letter, lang = "en", rules = {}) {
  const w = WORDS[lang] || WORDS.en;
  if (letter === "F") return { symbol: rules.fifth || "☆", name: rules.fifth === "✿" ? w.suits.Fk : w.suits.F };
  return { symbol: OH7_SUITS[letter] || letter, name: w.suits[letter] || letter };
}

/** Sort a hand: by suit (♠♥♣♦ then the fifth), then value; stars, Ø and ‽ last. */
export function sortHand(game, cards) {
  const { sortKey } = deckOf(game);
  return [...cards].sort((a, b) => sortKey(a) - sortKey(b));
}

// The words that differ by preset (`terms`), the preset's symbols, and how a round's points and
// its first leader are explained. The rules panel and the facts on the table are not here: the
// server generates them from the table's ruleset (`GET /api/tables/{code}/rules`,
// `oh7_core::rules_summary`), the same sentences the terminal shows. No DOM: tested with node.

import { GLOSSARY } from "./glossary.js";

/** The preset's own words: Kod-7 says estimation and exception suit, bga says bid. */
export function terms(preset, lang) {
  const g = GLOSSARY[lang] || GLOSSARY.en;
  if (preset === "kod7") return { bet: g.estimation, bets: g.estimations, trump: g.exception_suit };
  if (preset === "bga") return { bet: g.bid, bets: g.bids, trump: g.trump };
  return { bet: g.bet, bets: g.bets, trump: g.trump };
}

/** A word with its first letter capitalized. */
export const cap = (w) => (w ? w.charAt(0).toUpperCase() + w.slice(1) : w);

/** The symbols of the preset: the fifth suit and the mark card. */
export function symbols(r) {
  const kod = r?.preset === "kod7" || r?.deck === "kod7";
  return { fifth: kod ? "✿" : "☆", mark: kod ? "‽" : "?" };
}

/** A pass of round `round` under the bga scheme: {count, toLeft} (count 0: none). */
export function passOf(round) {
  const scheme = [0, 1, 2, 3, 2, 1, 0];
  const count = scheme[(round - 1) % 7];
  return { count, toLeft: count === 0 ? null : [1, 3].includes(count) };
}

/**
 * How seat `s` scored round `r` (a view's `past_rounds` entry: bets, bet_cards, won, points,
 * bonus) under the table's scoring rule (oh7.md §6), as parts the page words:
 * `{made, loss, basket, tricks, bet, void, bonus, base, total}`; null for the Dummy, an unknown
 * rule, or when the parts do not add up to the points the server gave (never a wrong sentence).
 */
export function explainPoints(scoring, r, s, dummy) {
  if (s === dummy || !r?.points || r.points[s] === undefined) return null;
  const seats = r.points.map((_, p) => p).filter((p) => p !== dummy);
  const loss = (p) => Math.abs(r.bets[p] - r.won[p]);
  const basket = seats.reduce((a, p) => a + loss(p), 0);
  const made = loss(s) === 0;
  const tricks = r.won[s];
  const bonus = r.bonus?.[s] || 0;
  const isVoid = /^V/.test(r.bet_cards?.[s] || "");
  let base;
  if (scoring === "basket") base = made ? 2 + basket + tricks : -loss(s);
  else if (scoring === "double_basket") base = made ? 2 * basket + (isVoid ? 0 : 2) + tricks : basket - loss(s);
  else if (scoring === "bid_plus_two") base = made ? r.bets[s] + 2 : -loss(s);
  else return null;
  if (base + bonus !== r.points[s]) return null;
  return { scoring, made, loss: loss(s), basket, tricks, bet: r.bets[s], void: isVoid, bonus, base, total: r.points[s] };
}

/**
 * Why the first leader leads (oh7.md §4), when it is not plainly the single highest bet:
 * `{why: "suit_priority" | "revealed" | "chosen" | "lot" | "stars", leader, tied, by}` from the
 * revealed bet cards of view `v` and the table's leader rule; null before the bets are revealed or
 * when one bet simply was the highest.
 */
export function leaderWhy(rule, v) {
  const lt = v?.leader_trump;
  // The final bet cards: the last attempt of the deal, once the bets stand (the Dummy's is not
  // among them).
  const cards = v.bets ? v.bet_attempts?.at(-1) : null;
  if (!lt || !Array.isArray(cards)) return null;
  const leader = lt[0];
  const kind = (c) => (c.startsWith("*") ? "star" : c.startsWith("V") ? "void" : /^\d/.test(c) ? "regular" : "other");
  const value = (c) => Number(c.replace(/^\*/, "").charAt(0)) || 0;
  const seats = cards.map((_, p) => p).filter((p) => p !== v.dummy && typeof cards[p] === "string");
  let eligible = seats;
  if (rule === "exclarrogatif") eligible = seats.filter((p) => kind(cards[p]) === "regular");
  else if (rule === "interrobang") eligible = seats.filter((p) => kind(cards[p]) !== "star");
  else if (rule !== "highest_bet") return null;
  if (!eligible.length) return { why: "stars", leader, tied: [leader], by: null };
  const top = Math.max(...eligible.map((p) => value(cards[p])));
  const tied = eligible.filter((p) => value(cards[p]) === top);
  if (tied.length < 2 || !tied.includes(leader)) return null;
  const by = v.revealed_interrobang ?? null;
  if (rule === "exclarrogatif" && by === leader) return { why: "revealed", leader, tied, by };
  if (rule === "interrobang") return by === null ? { why: "lot", leader, tied, by } : { why: "chosen", leader, tied, by };
  return { why: "suit_priority", leader, tied, by };
}

// The words that differ by preset (`terms`), the preset's symbols, and a round's points as the
// engine explains them (`pointsWhy`; the first leader's reason is the view's `leader_why`). The rules panel and the facts on the table are not here: the
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

/**
 * How seat `s` scored round `r` (a view's `past_rounds` entry) under the table's scoring rule, as
 * the parts the page words: the engine's own (`r.why[s]`: made, loss, basket, void, base) with
 * the round's figures, `{scoring, made, loss, basket, tricks, bet, void, bonus, base, total}`;
 * null for the Dummy or when the engine gave none. No rule is computed here.
 */
export function pointsWhy(scoring, r, s) {
  const w = r?.why?.[s];
  if (!w || !scoring) return null;
  return { scoring, ...w, tricks: r.won[s], bet: r.bets[s], bonus: r.bonus?.[s] || 0, total: r.points[s] };
}

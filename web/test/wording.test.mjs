// node --test web/test/ : engine refusals worded from the table shared with the terminal.
import test from "node:test";
import assert from "node:assert/strict";
import { WORDINGS, TERMS, GENERIC } from "../wording.js";
import { errorText, refusalText, refusalWording, texts } from "../i18n.js";

const illegal = (lang, params, opts) => errorText(lang, "illegal", params, opts);

test("refusals are worded in both languages, cards and suits in symbols", () => {
  const follow = { rule: "must_follow", card: "7H", lead: "H", hold: "7H 9H" };
  assert.equal(illegal("en", follow), "You cannot play 7♥: you hold 7♥ 9♥ and must follow ♥.");
  assert.equal(illegal("fr", follow), "Impossible de jouer 7♥ : vous avez 7♥ 9♥ et devez fournir ♥.");
  const match = { rule: "no_match", card: "10H'", top: "AS", suit: "D" };
  assert.equal(illegal("fr", match), "10♥' ne correspond ni à la couleur demandée ♦ ni à la valeur de A♠.");
  assert.equal(illegal("en", { rule: "not_in_hand", card: "2F" }, { rules: { fifth: "✿" } }), "2✿ is not in your hand.");
  assert.equal(illegal("en", { rule: "not_in_hand", card: "*2" }), "★2 is not in your hand.");
});

test("word-valued params are translated, seats numbered as on the table", () => {
  assert.equal(illegal("fr", { rule: "wrong_phase", action: "choose the trump" }), "Impossible de choisir l'atout maintenant.");
  assert.equal(illegal("en", { rule: "penalty_pending", cards: 4, answer: "AS" }), "A penalty of 4 cards is pending: play an A♠ or draw.");
  assert.equal(illegal("fr", { rule: "no_draw", why: "lock" }), "Pas de pioche maintenant : un 7 est en cours, jouez un 7 ou passez.");
  assert.equal(illegal("en", { rule: "not_your_turn", seat: 0, current: 2 }), "It is seat 3's turn, not yours (the others may only call out).");
  // The singular has its own wording.
  assert.equal(illegal("en", { rule: "pass_count", expected: 1, got: 0 }), "Pass exactly 1 card this round; you chose 0.");
  assert.equal(illegal("fr", { rule: "pass_count", expected: 3, got: 1 }), "Passez exactement 3 cartes cette manche ; vous en avez choisi 1.");
  // The parser's English detail stays out of French.
  const detail = { rule: "not_a_choice", detail: "seat 3 is not among the tied players" };
  assert.equal(illegal("en", detail), "Seat 3 is not among the tied players.");
  assert.equal(illegal("fr", detail), "Ce choix n'est pas possible maintenant.");
});

test("no rule, an unknown rule or missing params fall back to the generic sentence", () => {
  for (const lang of ["en", "fr"]) {
    const generic = texts(lang).errors.illegal;
    assert.equal(illegal(lang, {}), generic);
    assert.equal(errorText(lang, "illegal"), generic);
    assert.equal(illegal(lang, { rule: "brand_new_rule", card: "7H" }), generic);
    assert.equal(illegal(lang, { rule: "must_follow", card: "7H" }), generic);
    assert.equal(refusalText(lang, { rule: "brand_new_rule" }), null);
  }
  assert.equal(GENERIC.en.toLowerCase(), texts("en").errors.illegal.toLowerCase().replace(/\.$/, ""));
});

test("every template's placeholders are filled, French differs from English", () => {
  const sample = { card: "3S", top: "AS", hold: "4H 5H", lead: "H", suit: "D", seat: 1, last: 3, current: 2, offender: 2, expected: 2, got: 1, cards: 4, text: "zz", detail: "why" };
  for (const w of WORDINGS) {
    assert.notEqual(w.en, w.fr, w.rule);
    const params = { ...sample, rule: w.rule };
    for (const [name, values] of Object.entries(TERMS)) params[name] = Object.keys(values)[0];
    if (w.when) params[w.when[0]] = w.when[1];
    assert.ok(refusalWording(params), w.rule);
    for (const lang of ["en", "fr"]) {
      const t = refusalText(lang, params);
      assert.ok(t && !/[{}]/.test(t), `${w.rule} ${lang}: ${t}`);
      assert.ok(!/\b[0-7][SHCDF]\b/.test(t), `engine notation in ${t}`);
    }
  }
  for (const [name, values] of Object.entries(TERMS)) {
    for (const [value, t] of Object.entries(values)) assert.ok(t.en && t.fr, `${name} ${value}`);
  }
});

test("the round summary says what the basket is, in both languages, by the scoring rule", () => {
  for (const lang of ["en", "fr"]) {
    const t = texts(lang);
    const one = t.basketNote("basket", lang === "en" ? "bets" : "paris");
    const two = t.basketNote("double_basket", lang === "en" ? "bets" : "paris");
    assert.notEqual(one, two);
    assert.match(one, lang === "en" ? /missed/ : /manqué/);
    assert.match(two, /2/);
  }
  assert.match(texts("en").basketNote("basket", "estimations"), /their estimation scores/);
});

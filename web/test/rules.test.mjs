// node --test web/test/ : the rules panel and the table's facts, from the rulesets the real
// server sent in the recordings (web/test/fixtures), in both languages.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { rulesSections, facts, terms, passOf } from "../rules.js";
import { texts, errorText, TEXT } from "../i18n.js";

const dir = new URL("./fixtures/", import.meta.url);
const rulesets = readdirSync(dir)
  .filter((f) => f.endsWith(".seat0.jsonl"))
  .map((f) => {
    const first = JSON.parse(readFileSync(new URL(f, dir), "utf8").split("\n")[0]);
    return { f, game: first.table.game, ruleset: first.table.ruleset, players: first.table.players };
  });

// Words that must not appear on a French page (checked as whole words).
const ENGLISH = ["the", "and", "bet", "bets", "trick", "tricks", "round", "trump", "players", "cards", "wins", "Dummy", "attempt"];

test("every recorded table carries its ruleset", () => {
  assert.ok(rulesets.length >= 7);
  for (const r of rulesets) if (r.game === "oh7") assert.ok(r.ruleset && r.ruleset.preset, r.f);
});

for (const r of rulesets) {
  test(`${r.f}: the rules panel covers the round in both languages, French without English`, () => {
    for (const lang of ["en", "fr"]) {
      const secs = rulesSections(r.game, r.ruleset, lang, r.players);
      assert.ok(secs.length >= 4, `${lang}: ${secs.length} sections`);
      for (const s of secs) {
        assert.ok(s.title.length > 0);
        for (const item of s.items) assert.ok(item.length > 10 && !item.includes("undefined"), `${lang}: ${item}`);
      }
      if (lang === "fr") {
        const all = secs.flatMap((s) => [s.title, ...s.items]).join(" ");
        for (const w of ENGLISH) assert.ok(!new RegExp(`\\b${w}\\b`).test(all), `English "${w}" in: ${all}`);
      }
    }
    const f = facts(r.game, r.ruleset, "fr", r.players);
    for (const x of f) for (const w of ENGLISH) assert.ok(!new RegExp(`\\b${w}\\b`).test(x), x);
  });
}

test("Kod-7 says estimation and exception suit; bga says bid; the others bet and trump", () => {
  assert.deepEqual(terms("kod7", "en"), { bet: "estimation", bets: "estimations", trump: "exception suit" });
  assert.equal(terms("kod7", "fr").trump, "couleur d'exception");
  assert.equal(terms("bga", "en").bet, "bid");
  assert.equal(terms("en", "fr").bet, "pari");
  const kod = rulesets.find((r) => r.ruleset?.preset === "kod7");
  const text = rulesSections("oh7", kod.ruleset, "en").flatMap((s) => s.items).join(" ");
  assert.match(text, /exception suit/);
  assert.match(text, /‽/);
  const adv = rulesets.find((r) => r.ruleset?.preset === "fr-advanced");
  const advText = rulesSections("oh7", adv.ruleset, "fr").flatMap((s) => s.items).join(" ");
  for (const sign of ["★", "Ø", "?"]) assert.ok(advText.includes(sign), `fr-advanced explains ${sign}`);
});

test("the rules name only what the table's deck has: the fifth suit from 5 or 6 players, the Dummy at 2", () => {
  const en = rulesets.find((r) => r.f.startsWith("en-4")).ruleset;
  const text = (players) => rulesSections("oh7", en, "en", players).flatMap((s) => s.items).join(" ");
  assert.ok(!text(4).includes("☆") && !text(4).includes("Dummy"), text(4));
  assert.ok(text(2).includes("the Dummy sits after them"));
  const fr = rulesets.find((r) => r.f.startsWith("fr-3")).ruleset;
  assert.ok(rulesSections("oh7", fr, "en", 5).flatMap((s) => s.items).join(" ").includes("♦ > ☆"));
  assert.ok(!rulesSections("oh7", fr, "en", 4).flatMap((s) => s.items).join(" ").includes("♦ > ☆"));
});

test("passing follows the bga scheme: none, 1 left, 2 right, 3 left, 2 right, 1 left, none", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((r) => passOf(r).count), [0, 1, 2, 3, 2, 1, 0]);
  assert.equal(passOf(2).toLeft, true);
  assert.equal(passOf(3).toLeft, false);
  assert.equal(passOf(8).count, 0);
});

test("the two languages have the same texts, and every refusal code is worded in both", () => {
  const keys = (o) => Object.keys(o).sort();
  assert.deepEqual(keys(TEXT.fr), keys(TEXT.en));
  assert.deepEqual(keys(TEXT.fr.errors), keys(TEXT.en.errors));
  for (const code of keys(TEXT.en.errors)) {
    const fr = errorText("fr", code, { min: 3, max: 6, detail: "x", levels: ["expert"], max_bytes: 8192 });
    assert.ok(fr && !fr.includes("undefined"), code);
    assert.notEqual(fr, errorText("en", code, { min: 3, max: 6, detail: "x", levels: ["expert"], max_bytes: 8192 }), `${code} is translated`);
  }
  assert.equal(errorText("fr", "bad_players", { min: 3, max: 6 }), "Ce jeu se joue de 3 à 6 joueurs.");
  assert.equal(texts("xx"), texts("en"));
});

// Issue 37 (7): "not chosen yet" agrees with the trump's word in French (l'atout, la couleur
// d'exception), and a hint reads right for a bet as for a card played.
test("the trump not yet chosen agrees with its word; a hint does not say play", () => {
  for (const [preset, want] of [["kod7", "pas encore choisie"], ["fr", "pas encore choisi"], ["fr-advanced", "pas encore choisi"]]) {
    const w = terms(preset, "fr");
    assert.equal(texts("fr").noTrump(w.trump), want, preset);
    assert.equal(TEXT.fr.rv.noTrumpYet(w.trump), want, preset);
  }
  assert.equal(texts("en").noTrump(terms("kod7", "en").trump), "not chosen yet");
  for (const lang of ["en", "fr"]) {
    const hint = texts(lang).hintIs("5♠");
    assert.ok(!/play|jouer/i.test(hint), hint);
    assert.ok(hint.includes("5♠"), hint);
  }
});

test("the game's statistics and the score sheet speak the preset's words, agreed in French", async () => {
  const { texts } = await import("../i18n.js");
  const { terms } = await import("../rules.js");
  const kod = texts("fr").statsRows(terms("kod7", "fr"));
  assert.equal(kod.average_bid, "Estimation moyenne");
  assert.equal(kod.nil_bid_rate, "Taux d'estimations nulles (0)");
  assert.equal(kod.trump_selection_rate, "Couleur d'exception choisie");
  assert.equal(texts("fr").scores(terms("kod7", "fr")), "Points par manche (estimation / plis remportés)");
  const fr = texts("fr").statsRows(terms("fr", "fr"));
  assert.equal(fr.average_top_bid, "Plus fort pari moyen");
  assert.equal(fr.trump_selection_rate, "Atout choisi");
  for (const row of Object.values(kod)) assert.ok(!/\bpari|atout/i.test(row), row);
  assert.equal(texts("en").statsRows(terms("bga", "en")).top_bid_rate, "Top bid rate");
});

// oh7.md §6's worked example: bets 3, 3, 2, 0; tricks won 3, 4, 0, 0.
test("round points explained by the table's rule: the worked examples of oh7.md §6 (R-SCORE-1)", async () => {
  const { explainPoints } = await import("../rules.js");
  const { texts } = await import("../i18n.js");
  const r = (points, extra = {}) => ({ bets: [3, 3, 2, 0], bet_cards: ["3C", "3H", "2H", "0S"], won: [3, 4, 0, 0], points, bonus: [0, 0, 0, 0], ...extra });
  const en = r([8, -1, -2, 5]);
  const parts = [0, 1, 2, 3].map((s) => explainPoints("basket", en, s, null));
  assert.deepEqual(parts.map((e) => e.base), [8, -1, -2, 5]);
  assert.equal(texts("en").why(parts[0], terms("en", "en")), "bet made: 2 + 3 (basket) + 3 (tricks) = 8");
  assert.equal(texts("en").why(parts[1], terms("en", "en")), "bet missed by 1: −1");
  const fr = r([11, 2, 1, 8]);
  const f = [0, 1, 2, 3].map((s) => explainPoints("double_basket", fr, s, null));
  assert.deepEqual(f.map((e) => e.base), [11, 2, 1, 8]);
  assert.equal(texts("fr").why(f[0], terms("fr", "fr")), "Pari réussi : 2 × 3 (panier) + 2 + 3 (plis) = 11");
  assert.equal(texts("fr").why(f[1], terms("fr", "fr")), "Pari manqué de 1 : 3 (panier) − 1 = 2");
  assert.equal(texts("fr").why(explainPoints("basket", en, 0, null), terms("kod7", "fr")), "Estimation réussie : 2 + 3 (panier) + 3 (plis) = 8");
  // Made with Ø: no 2.
  const v = r([11, 2, 1, 6], { bet_cards: ["3C", "3H", "2H", "V"] });
  assert.equal(explainPoints("double_basket", v, 3, null).base, 6);
  // bga: bid + 2, a rebid bonus on top.
  const b = r([6, -1, -2, 2], { bonus: [1, 0, 0, 0] });
  const e = explainPoints("bid_plus_two", b, 0, null);
  assert.equal(texts("en").why(e, terms("bga", "en")), "bid made: 3 + 2 = 5; + 1 rebid bonus = 6");
  // Parts that do not add up to the server's points, the Dummy, an unknown rule: no sentence.
  assert.equal(explainPoints("basket", r([9, -1, -2, 5]), 0, null), null);
  assert.equal(explainPoints("basket", en, 3, 3), null);
  assert.equal(explainPoints("mystery", en, 0, null), null);
});

test("why the first leader leads, when a tie decided it (oh7.md §4)", async () => {
  const { leaderWhy } = await import("../rules.js");
  const { texts } = await import("../i18n.js");
  const view = (cards, leader, extra = {}) => ({ bets: cards.map((c) => Number(c.replace("*", "")[0]) || 0), bet_attempts: [cards], leader_trump: [leader, "S"], dummy: null, revealed_interrobang: null, ...extra });
  assert.equal(leaderWhy("highest_bet", view(["3S", "2H", "1C", "0D"], 0)), null, "a single highest bet needs no word");
  const e = leaderWhy("highest_bet", view(["3H", "3S", "1C", "0D"], 1));
  assert.deepEqual([e.why, e.leader, e.tied], ["suit_priority", 1, [0, 1]]);
  const names = (s) => ["Ann", "Bob", "Cid", "Dee"][s];
  assert.equal(texts("en").leadWhy(e, terms("en", "en"), names), "Ann, Bob tied for the highest bet: Bob leads by suit priority.");
  // fr-advanced: ★ and Ø ignored; the ? holder revealed to win the tie.
  const r = leaderWhy("exclarrogatif", view(["*5", "2H", "2S", "V"], 1, { revealed_interrobang: 1 }));
  assert.deepEqual([r.why, r.tied], ["revealed", [1, 2]]);
  // kod7: the ‽ holder chose among the tied, or the lot when nobody holds it; all ★.
  const c = leaderWhy("interrobang", view(["*7", "4H", "4C", "1S"], 2, { revealed_interrobang: 3 }));
  assert.deepEqual([c.why, c.by, c.leader], ["chosen", 3, 2]);
  assert.equal(texts("fr").leadWhy(c, terms("kod7", "fr"), names), "Égalité pour la plus forte estimation (Bob, Cid) : Dee a dévoilé ‽ et a choisi Cid pour mener.");
  assert.equal(leaderWhy("interrobang", view(["*7", "4H", "4C", "1S"], 1)).why, "lot");
  assert.equal(leaderWhy("interrobang", view(["*7", "*3", "*4", "*1"], 0)).why, "stars");
  assert.equal(leaderWhy("highest_bet", { ...view(["3S", "3H"], 0), bets: null }), null, "nothing before the bets stand");
});

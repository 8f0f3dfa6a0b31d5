// node --test web/test/ : the tutorials' coach over recorded games (web/test/fixtures): which
// lesson comes when, each once, in both languages, and the body that starts a tutorial.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { initial, reduce } from "../state.js";
import { lesson, tutorialBody, familyOf, FAMILIES, coachWords } from "../coach.js";

const dir = new URL("./fixtures/", import.meta.url);

function frames(f) {
  const lines = readFileSync(new URL(f, dir), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const cut = lines.findIndex((m) => m.type === "__reconnect");
  return cut < 0 ? lines : lines.slice(0, cut);
}

// A rules summary shaped as the server's (sections in their order), with marked sentences.
const SUMMARY = {
  oh7: {
    sections: [
      { items: ["CARDS"] },
      // Each special card's sentence starts with its sign, as the engine writes them.
      { items: ["★n (star): STAR", "Ø (void): VOID", "?: MARK", "‽: MARK", "☆: FIFTH", "′: COPY"] },
      { items: ["ROUND"] },
      { items: ["SCORING", "END"] },
    ],
  },
  seven: { sections: [{ items: ["CARDS"] }, { items: ["TURN"] }, { items: ["ACTION-2", "ACTION-8"] }, { items: ["LAST"] }, { items: ["SCORING"] }] },
};

/** Replay a recording, reading each lesson as it shows (as a newcomer pressing "Got it"). */
function take(f, lang, summary) {
  let s = initial();
  const seen = [];
  const texts = {};
  for (const m of frames(f)) {
    // The page lets a completed trick go after a moment (its hold): here, at the next message.
    if (s.completed) s = reduce(s, { type: "local/dismiss-trick" });
    // And a round's summary is read and put away (its OK).
    if (s.summary) s = reduce(s, { type: "local/dismiss-summary" });
    s = reduce(s, m);
    for (;;) {
      const l = lesson(s, seen, lang, summary);
      if (!l || seen.includes(l.id)) break;
      seen.push(l.id);
      texts[l.id] = l.text;
      assert.ok(l.text.length > 20, `${l.id}: ${l.text}`);
      assert.doesNotMatch(l.text, /undefined|null|NaN|\[object/, `${l.id}: ${l.text}`);
    }
  }
  return { seen, texts, last: lesson(s, seen, lang, summary) };
}

test("Oh 7: welcome, the bet, the trump, a first card, a trick, the score, then the end, in order", () => {
  for (const lang of ["en", "fr"]) {
    const { seen, texts, last } = take("en-4.seat0.jsonl", lang, SUMMARY.oh7);
    for (const id of ["welcome", "bet", "trump", "trick", "score", "done"]) assert.ok(seen.includes(id), `${lang}: ${id} in ${seen}`);
    assert.ok(seen.some((id) => ["lead", "follow", "noFollow"].includes(id)), seen.join());
    const at = (id) => seen.indexOf(id);
    assert.ok(at("welcome") < at("bet") && at("bet") < at("trump") && at("trump") < at("trick") && at("trick") < at("score") && at("score") < at("done"), seen.join());
    assert.equal(new Set(seen).size, seen.length, "each lesson once");
    assert.equal(last, null, "the tutorial ends once its last lesson is read");
    // The score gives the seat's figures.
    assert.match(texts.score, lang === "en" ? /won \d+ trick/ : /remporté \d+ pli/);
  }
});

test("Oh 7: the special cards are explained from the table's rules, where the hand holds one", () => {
  const adv = take("fr-advanced-5.seat0.jsonl", "en", SUMMARY.oh7);
  assert.ok(adv.seen.includes("specials"), adv.seen.join());
  // Only the cards in the hand: the advanced game has one deck (no second copies).
  assert.match(adv.texts.specials, /STAR|VOID|MARK/);
  assert.doesNotMatch(adv.texts.specials, /COPY/);
  const plain = take("en-4.seat0.jsonl", "en", SUMMARY.oh7);
  assert.ok(!plain.seen.includes("specials"), "no special card in the en deck");
  // Without the summary yet, the lesson that quotes it waits.
  const none = take("fr-advanced-5.seat0.jsonl", "en", null);
  assert.ok(!none.seen.includes("specials"));
});

test("Oh 7: Kod-7 speaks of estimations and the exception suit; bga of bids; French agrees", () => {
  const kod = take("kod7-4.seat0.jsonl", "en", SUMMARY.oh7);
  assert.match(kod.texts.bet, /estimation/);
  assert.match(kod.texts.trump, /exception suit/);
  const kodFr = take("kod7-4.seat0.jsonl", "fr", SUMMARY.oh7);
  assert.match(kodFr.texts.trump, /la couleur d'exception/);
  assert.match(kodFr.texts.bet, /^Votre estimation/);
  const bga = take("bga-4-passing.seat0.jsonl", "en", SUMMARY.oh7);
  assert.match(bga.texts.bet, /bid/);
});

test("Seven: welcome, a card to match, the action cards, the score, then the end", () => {
  for (const lang of ["en", "fr"]) {
    const { seen, texts, last } = take("seven-3.seat0.jsonl", lang, SUMMARY.seven);
    for (const id of ["welcome", "play", "actions", "score", "done"]) assert.ok(seen.includes(id), `${lang}: ${id} in ${seen}`);
    // The recording has a 2 played on seat 0, a 7 lock, an 8 and a call-out: each is taught.
    for (const id of ["penalty", "lock", "wild", "callout", "lastCard"]) assert.ok(seen.includes(id), `${lang}: ${id} in ${seen}`);
    assert.match(texts.actions, /ACTION-2 ACTION-8/);
    assert.match(texts.lastCard, /LAST/);
    assert.equal(last, null);
  }
});

test("no lesson for a spectator, in the lobby, or before a view", () => {
  let s = initial();
  assert.equal(lesson(s, [], "en", null), null);
  for (const m of frames("en-4.spectator.jsonl")) {
    s = reduce(s, m);
    assert.equal(lesson(s, [], "en", SUMMARY.oh7), null);
  }
});

test("a tutorial's table: the newcomer in seat 0 against bots of the family", () => {
  for (const f of FAMILIES) {
    const b = tutorialBody(f, "fr", "Zoé");
    assert.equal(b.tutorial, true);
    assert.equal(b.seats[0], "human");
    assert.equal(b.seats.length, b.players);
    assert.ok(b.seats.slice(1).every((x) => x === (f === "seven" ? "heuristic" : "beginner")));
    assert.equal(familyOf({ game: b.game, preset: b.preset }), f);
    for (const lang of ["en", "fr"]) {
      assert.ok(coachWords(lang).titles[f] && coachWords(lang).blurbs[f], `${lang} ${f}`);
    }
  }
});

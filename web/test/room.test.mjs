// The public room's words, from the server's bodies (no DOM).
import test from "node:test";
import assert from "node:assert/strict";
import { openRow, matchWords, MATCH_FAMILIES } from "../room.js";
import { texts } from "../i18n.js";

const listed = {
  watch: "ab".repeat(16),
  game: "oh7",
  preset: "kod7",
  players: 4,
  seats_free: 2,
  people: ["Ann", "Bob"],
  bots: 0,
  lang: "fr",
  rated: true,
  move_hours: 24,
  host_rating: 17.6,
};

test("an open table's row names its rules, seats, pace, rating and host", () => {
  const en = openRow(texts("en"), listed);
  assert.equal(en.title, "Kod-7");
  assert.deepEqual(en.facts, ["2 of 4 seats free", "turn-based (24 h a move)", "rated", "in French"]);
  assert.equal(en.host, "Ann");
  assert.equal(en.rating, "rating 18");
  assert.deepEqual(en.others, ["Bob"]);
  const fr = openRow(texts("fr"), { ...listed, seats_free: 1, move_hours: undefined, rated: false, host_rating: undefined, game: "seven", preset: "seven" });
  assert.equal(fr.title, "Seven");
  assert.deepEqual(fr.facts, ["1 place libre sur 4", "en direct", "en français"]);
  assert.equal(fr.rating, null);
});

test("quick match says where one stands", () => {
  const t = texts("en");
  assert.deepEqual(matchWords(t, { state: "idle" }), { waiting: false, line: "" });
  const w = matchWords(t, { state: "waiting", family: "oh7:en", turn_based: false, rated: true, bots_after_s: 60, waited_s: 12, range: 9.04 });
  assert.equal(w.waiting, true);
  assert.equal(w.line, "Looking for players (Oh 7 ? (English)): 12 s");
  assert.equal(w.range, "Players within 9 rating points");
  assert.equal(w.bots, "bots fill the seats in 48 s");
  assert.equal(matchWords(t, { state: "waiting", family: "seven", waited_s: 3, range: 4.5 }).bots, "keep waiting");
  assert.equal(matchWords(t, { state: "matched", invite: "c".repeat(32) }).invite, "c".repeat(32));
});

test("every family quick match offers has a name in both languages", () => {
  for (const lang of ["en", "fr"]) {
    for (const f of MATCH_FAMILIES) {
      const title = openRow(texts(lang), { ...listed, game: f.split(":")[0], preset: f.split(":")[1] ?? f }).title;
      assert.ok(title && !title.includes(":"), `${lang} ${f}: ${title}`);
    }
  }
});

// The leaderboard's lines: people and the bots' reference ratings, one list by rating.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardLines } from "../player.js";

test("bots are placed among the people by rating, marked as bots", () => {
  const body = {
    family: "oh7:en",
    standings: [
      { name: "ann", rating: 21.5, games: 12 },
      { name: "bob", rating: 3.2, games: 4 },
    ],
    bots: [
      { bot: "expert", rating: 24.0, mu: 30, sigma: 2, games: 300 },
      { bot: "random", rating: -20.0, mu: -14, sigma: 2, games: 300 },
    ],
  };
  const lines = boardLines(body);
  assert.deepEqual(
    lines.map((l) => [l.name, l.bot]),
    [
      ["expert", true],
      ["ann", false],
      ["bob", false],
      ["random", true],
    ],
  );
});

test("a leaderboard shows its ten best people, and a body without bots shows none", () => {
  const standings = Array.from({ length: 14 }, (_, i) => ({ name: `p${i}`, rating: 30 - i, games: 1 }));
  const lines = boardLines({ standings });
  assert.equal(lines.length, 10);
  assert.ok(lines.every((l) => !l.bot));
});

test("a table's review is named by its game's number, which counts from 1", async () => {
  // Issue 58: the review of game 1 read "review of game 2".
  const { TEXT } = await import("../i18n.js");
  assert.equal(TEXT.en.acct.reviewOf(1, "expert"), "review of game 1 (expert)");
  assert.equal(TEXT.fr.acct.reviewOf(1, "expert"), "analyse de la partie 1 (expert)");
});

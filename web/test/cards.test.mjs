// node --test web/test/ : the client's card logic (no DOM).
import test from "node:test";
import assert from "node:assert/strict";
import { parseOh7, parseSeven, face, speak, sortHand, suitName } from "../cards.js";

test("Oh 7 cards read as the engine writes them", () => {
  assert.deepEqual(parseOh7("7H"), { kind: "regular", value: 7, suit: "H", copy: 0, text: "7H" });
  assert.equal(parseOh7("3S'").copy, 1);
  assert.equal(parseOh7("*3").kind, "star");
  assert.equal(parseOh7("V'").kind, "void");
  assert.equal(parseOh7("?").kind, "mark");
  assert.equal(parseOh7("9Z"), null);
});

test("faces: suit symbols always, red for hearts and diamonds, distinct specials", () => {
  assert.equal(face("oh7", "7H").colour, "red");
  assert.equal(face("oh7", "7D").colour, "red");
  assert.equal(face("oh7", "7S").colour, "black");
  assert.equal(face("oh7", "7S").suitSymbol, "♠");
  assert.equal(face("oh7", "2F", { fifth: "✿" }).suitSymbol, "✿");
  assert.equal(face("oh7", "*2").colour, "star");
  assert.equal(face("oh7", "V").face, "Ø");
  assert.equal(face("oh7", "?", { mark: "‽" }).face, "‽");
  assert.equal(face("seven", "10H").face, "10♥");
});

test("spoken names in both languages", () => {
  assert.equal(speak("oh7", "7H", "en"), "seven of hearts");
  assert.equal(speak("oh7", "7H", "fr"), "sept de cœur");
  assert.equal(speak("oh7", "3S'", "en"), "three of spades, second copy");
  assert.equal(speak("oh7", "*2", "fr"), "étoile 2");
  assert.equal(speak("oh7", "?", "en", { mark: "?" }), "Exclarrogatif");
  assert.equal(speak("seven", "QS", "en"), "queen of spades");
  assert.equal(speak("seven", "AD", "fr"), "as de carreau");
  assert.equal(suitName("F", "en", { fifth: "✿" }).name, "flowers");
});

test("hands sort by suit then value, specials last", () => {
  assert.deepEqual(sortHand("oh7", ["?", "3H", "*1", "0S", "7S", "V"]), ["0S", "7S", "3H", "*1", "V", "?"]);
  assert.deepEqual(sortHand("seven", ["AS", "2S", "10H", "JS"]), ["2S", "JS", "AS", "10H"]);
});


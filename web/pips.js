// The pips drawn on the cards, as SVG path data on a 100 × 100 box (filled with the card's
// colour, nonzero: a hole is drawn the other way round). Each suit has its own shape, so colour is never the only cue: ♠ ♥ ♣ ♦,
// the star cards' ★, the fifth suit's ☆ or ✿, the Ø and the ‽ / ?. No DOM here (node tests it).

/** A circle as a path (`hole`: drawn the other way round, so that it cuts a hole). */
function circle(cx, cy, r, hole = false) {
  const f = hole ? 1 : 0;
  return `M${cx - r} ${cy}a${r} ${r} 0 1 ${f} ${2 * r} 0a${r} ${r} 0 1 ${f} ${-2 * r} 0Z`;
}

/** A star of `n` points, outer radius `r`, inner `ri`, centred at (50, 52) (`hole`: the other way round). */
function star(n, r, ri, hole = false) {
  const pts = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const rr = i % 2 ? ri : r;
    pts.push(`${(50 + rr * Math.cos(a)).toFixed(1)} ${(52 + rr * Math.sin(a)).toFixed(1)}`);
  }
  if (hole) pts.reverse();
  return `M${pts.join("L")}Z`;
}

const STAR = star(5, 46, 19);

/** The shapes, by pip name. */
export const PIPS = {
  S:
    "M50 4C38 24 6 40 6 62C6 76 17 85 29 85C38 85 44 81 47 75C46 85 42 92 33 96L67 96C58 92 54 85 53 75C56 81 62 85 71 85C83 85 94 76 94 62C94 40 62 24 50 4Z",
  H: "M50 92C20 68 4 50 4 30C4 15 15 5 29 5C39 5 46 11 50 20C54 11 61 5 71 5C85 5 96 15 96 30C96 50 80 68 50 92Z",
  C: `${circle(50, 28, 20)}${circle(27, 60, 20)}${circle(73, 60, 20)}M45 50L38 96L62 96L55 50Z`,
  D: "M50 2L90 50L50 98L10 50Z",
  star: STAR,
  // The fifth suit's ☆: a star with a hole.
  hollowStar: `${STAR}${star(5, 30, 12.4, true)}`,
  flower: `${circle(50, 24, 19)}${circle(76, 43, 19)}${circle(66, 74, 19)}${circle(34, 74, 19)}${circle(24, 43, 19)}${circle(50, 50, 12)}`,
  // Ø: a ring crossed by a bar.
  void: `${circle(50, 50, 40)}${circle(50, 50, 29, true)}M80 8L90 14L20 92L10 86Z`,
};

/** The pip name of a suit letter (Oh 7's fifth suit by the rules' symbol). */
export function pipOfSuit(letter, rules = {}) {
  if (letter === "F") return rules.fifth === "✿" ? "flower" : "hollowStar";
  return Object.hasOwn(PIPS, letter) ? letter : null;
}

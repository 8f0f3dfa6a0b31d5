// The rules panel, generated from the table's ruleset knobs (as the server sends them in
// `table.ruleset`) with the rule documents' terms from the glossary, in English and French:
// true for every preset and for custom rulesets. Also the short facts always shown on the
// table (`facts`) and the words that differ by preset (`terms`). No DOM: tested with node.

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

/** Whether the deck of `players` has the fifth suit (☆/✿): `fr` at 5, the advanced game and
 *  Kod-7 at 6 (oh7.md §2); `bga` never. */
export function hasFifth(r, players) {
  if (!r || r.deck === "four_suits") return false;
  if (r.deck === "one_suit_per_player") return players >= 5;
  return players >= 6;
}

/** A pass of round `round` under the bga scheme: {count, toLeft} (count 0: none). */
export function passOf(round) {
  const scheme = [0, 1, 2, 3, 2, 1, 0];
  const count = scheme[(round - 1) % 7];
  return { count, toLeft: count === 0 ? null : [1, 3].includes(count) };
}

const EN = {
  title: { en: "Oh 7 ? (English edition)", fr: "Oh 7 ? (French edition)", "fr-advanced": "Oh 7 ? (French edition, advanced game)", kod7: "Kod-7", bga: "Oh-Seven (online rules)" },
  deck: {
    one_suit_per_player: (r) => `One suit per player, values 0 to 7 (♠ ♥ ♣, then ♦ at 4 players${r.max_players >= 5 ? `, ${symbols(r).fifth} at 5` : ""}). Each player gets 7 cards; the rest is the discard, unused and unseen.`,
    advanced: () => "One suit fewer than players (♠ ♥ at 3, then ♣, ♦, ☆), values 0 to 7, plus the special cards ★1 ★2 ★3 ★4, Ø, Ø' and ?. Each player gets 7 cards; the rest is the discard.",
    kod7: () => "♠ ♥ at 3 players, then ♣, ♦ and ✿, values 0 to 7, plus stars ★ and ‽. Each player gets 7 cards; the rest is the discard.",
    four_suits: (r) => `♠ ♥ ♣ ♦, values 0 to 7${r.decks === 2 ? ", two copies of each (a second copy is marked ′)" : ""}; two decks from 5 players on. Each player gets 7 cards; the rest is the discard.`,
  },
  special: {
    star: "★n (star): bets n; may always be played; counts as the lead suit (below a regular card of the same value) and as a trump when trump is led.",
    void: "Ø (void): bets 0; may always be played; never wins a trick.",
    mark: (m) => `${m}: can never be bet; beats everything but trumps.${m === "?" ? " Among players tied for first leader, its holder may reveal it to win the tie." : " On a tie for first leader its holder reveals it and chooses the leader."}`,
    fifth: (f) => `${f}: the fifth suit, last in suit priority.`,
    copy: "′: the second copy of an identical card; of two identical cards the first played wins.",
  },
  passing: (t) => `Passing: before the ${t.bets}, by round: 1 none, 2 one to the left, 3 two to the right, 4 three to the left, 5 two to the right, 6 one to the left, 7 none (left = the next seat clockwise). You see the cards you receive only after passing yours.`,
  bets: (t) => `${cap(t.bets)}: everyone chooses a card of their hand secretly; all are revealed at once. Its value is the exact number of tricks you commit to win. The cards go back to the hands and stay public.`,
  sum7: (r, t) => {
    const dummy = r.__dummyHere ? " (the Dummy's 2 included)" : "";
    if (r.bet_attempts === null || r.bet_attempts === undefined) return `If the ${t.bets} sum to 7${dummy}, everyone bets again with another card, as long as everyone has an unused card (else the round is dealt again).`;
    if (r.after_last_attempt === "stands") return `If the ${t.bets} sum to 7${dummy}, everyone bets again with another card; attempt ${r.bet_attempts} stands even if it sums to 7.`;
    return `If the ${t.bets} sum to 7${dummy}, everyone bets again with another card; after ${r.bet_attempts} attempts summing to 7 the round is dealt again.`;
  },
  rebid: "Each time the bids sum to 7, the top bid scores 1 point at once.",
  leader: {
    highest_bet: (r, t) => `First leader and ${t.trump}: the highest ${t.bet} leads the first trick; ties by suit priority ${r.__suits}; its suit is ${t.trump}.${r.decks === 2 || r.preset === "bga" ? " With two decks, a top bid made by two identical cards forces a rebid." : ""}`,
    exclarrogatif: () => "First leader and trump: the highest regular bet leads (★ and Ø are ignored); its suit is trump. Among tied players the holder of ? may reveal it to win the tie; otherwise suit priority. If every bet is ★ or Ø, the highest ★ leads and chooses the trump.",
    interrobang: () => "First leader and exception suit: the highest non-★ estimation leads; its suit is the exception suit (the trump). On a tie the holder of ‽ reveals it and chooses the leader among the tied players (a lot if nobody holds it). If every estimation is ★, the highest ★ leads and chooses the exception suit; tied players announce a suit first.",
  },
  tricks: (t) => `Tricks: 7 per round. Follow the lead suit if you can; otherwise play anything. The highest ${t.trump} wins, else the highest card of the lead suit; of identical cards, the first played.`,
  scoring: {
    basket: "Scoring (loss = |bet − tricks won|): failed: −loss; made: 2 + basket + tricks won; the basket is the losses of those who failed.",
    double_basket: "Scoring (loss = |bet − tricks won|): failed: basket − loss; made: 2 × basket + 2 + tricks won (made with Ø: no 2); the basket is the sum of all losses.",
    bid_plus_two: "Scoring: failed: −|bid − tricks won|; made: bid + 2.",
  },
  end: {
    min_rounds: (r) => `End: at least ${r.rounds} round${r.rounds === 1 ? "" : "s"}; then the single highest score wins if it made its last bet. ${r.every_tie_replays ? "Any tie for the highest score plays another round." : "Tie: another round if a tied player failed; else most made bets, then shared."}`,
    min_rounds_strict: (r) => `End: at least ${r.rounds} round${r.rounds === 1 ? "" : "s"}; the winner must have made the last bet and have strictly the highest score; any tie plays another round.`,
    target: (r) => `End: the first to reach ${r.target ?? 35} points at the end of a round in which they made their bet. Several at once: most made bets, then most points, then shared.`,
    fixed_rounds: (r) => `End: exactly ${r.rounds} round${r.rounds === 1 ? "" : "s"}; the highest score wins; tie: most made bids, then shared.`,
  },
  dummy: (r) => `Two players: the Dummy sits after them, always bets 2, never leads first, and plays last from its face-up cards (2 turned up after the bets, one more each time), wanting exactly 2 tricks. When it won the last trick it leads the top card of its pile, followed by ${r.dummy_follower === "previous_leader" ? "the leader of the previous trick" : "the round's first leader"}. It scores nothing.`,
  signs: (t) => [
    `✓ next to a seat: it has chosen (its ${t.bet} stays face down until all have chosen).`,
    "A yellow frame: whose turn it is.",
    `${cap(t.bet)} x · Tricks y: the ${t.bet} and the tricks won this round; Points: the total so far.`,
    `Small cards with a dashed edge by a seat: its ${t.bet} cards, public until played. The winner of a trick is framed in yellow.`,
  ],
  sections: { deck: "Cards", special: "Special cards and signs", round: "A round", scoring: "Scoring and the end" },
};

const FR = {
  title: { en: "Oh 7 ? (édition anglaise)", fr: "Oh 7 ? (édition française)", "fr-advanced": "Oh 7 ? (édition française, jeu avancé)", kod7: "Kod-7", bga: "Oh-Seven (règles en ligne)" },
  deck: {
    one_suit_per_player: (r) => `Une couleur par joueur, valeurs 0 à 7 (♠ ♥ ♣, puis ♦ à 4 joueurs${r.max_players >= 5 ? `, ${symbols(r).fifth} à 5` : ""}). Chacun reçoit 7 cartes ; le reste forme l'écart, ni utilisé ni regardé.`,
    advanced: () => "Une couleur de moins que de joueurs (♠ ♥ à 3, puis ♣, ♦, ☆), valeurs 0 à 7, plus les cartes spéciales ★1 ★2 ★3 ★4, Ø, Ø' et ?. Chacun reçoit 7 cartes ; le reste forme l'écart.",
    kod7: () => "♠ ♥ à 3 joueurs, puis ♣, ♦ et ✿, valeurs 0 à 7, plus des étoiles ★ et ‽. Chacun reçoit 7 cartes ; le reste forme l'écart.",
    four_suits: (r) => `♠ ♥ ♣ ♦, valeurs 0 à 7${r.decks === 2 ? ", deux exemplaires de chaque (le deuxième est marqué ′)" : ""} ; deux paquets à partir de 5 joueurs. Chacun reçoit 7 cartes ; le reste forme l'écart.`,
  },
  special: {
    star: "★n (étoile) : parie n ; se joue toujours ; compte comme la couleur appelée (sous une carte ordinaire de même valeur) et comme un atout quand l'atout est appelé.",
    void: "Ø (vide) : parie 0 ; se joue toujours ; ne remporte jamais de pli.",
    mark: (m) => `${m} : ne peut jamais servir à parier ; bat tout sauf les atouts.${m === "?" ? " Entre égalitaires pour le premier meneur, qui le détient peut le dévoiler pour remporter l'égalité." : " En cas d'égalité pour le premier meneur, qui le détient le dévoile et choisit le meneur."}`,
    fifth: (f) => `${f} : la cinquième couleur, dernière dans la priorité des couleurs.`,
    copy: "′ : le deuxième exemplaire d'une carte identique ; de deux cartes identiques, la première jouée l'emporte.",
  },
  passing: (t) => `Passe : avant les ${t.bets}, selon la manche : 1 aucune, 2 une à gauche, 3 deux à droite, 4 trois à gauche, 5 deux à droite, 6 une à gauche, 7 aucune (gauche = la place suivante dans le sens horaire). Vous voyez les cartes reçues après avoir donné les vôtres.`,
  bets: (t) => `${cap(t.bets)} : chacun choisit en secret une carte de sa main ; toutes sont dévoilées ensemble. Sa valeur est le nombre exact de plis que l'on s'engage à remporter. Les cartes retournent dans les mains et restent publiques.`,
  sum7: (r, t) => {
    const dummy = r.dummy ? " (les 2 du Pantin compris)" : "";
    if (r.bet_attempts === null || r.bet_attempts === undefined) return `Si les ${t.bets} font 7${dummy}, chacun reparie avec une autre carte, tant que chacun a une carte inutilisée (sinon la manche est redistribuée).`;
    if (r.after_last_attempt === "stands") return `Si les ${t.bets} font 7${dummy}, chacun reparie avec une autre carte ; la tentative ${r.bet_attempts} compte même si elle fait 7.`;
    return `Si les ${t.bets} font 7${dummy}, chacun reparie avec une autre carte ; après ${r.bet_attempts} tentatives faisant 7, la manche est redistribuée.`;
  },
  rebid: "Chaque fois que les enchères font 7, la plus forte enchère marque aussitôt 1 point.",
  leader: {
    highest_bet: (r, t) => `Premier meneur et ${t.trump} : ${["enchère", "estimation"].includes(t.bet) ? `la plus forte ${t.bet}` : `le plus fort ${t.bet}`} mène le premier pli ; égalité : priorité des couleurs ${r.__suits} ; sa couleur est l'${t.trump}.${r.decks === 2 || r.preset === "bga" ? " Avec deux paquets, une plus forte enchère faite par deux cartes identiques oblige à enchérir de nouveau." : ""}`,
    exclarrogatif: () => "Premier meneur et atout : le plus fort pari ordinaire mène (★ et Ø sont ignorés) ; sa couleur est l'atout. Entre égalitaires, qui détient ? peut le dévoiler pour remporter l'égalité ; sinon, priorité des couleurs. Si tous les paris sont ★ ou Ø, le plus fort ★ mène et choisit l'atout.",
    interrobang: () => "Premier meneur et couleur d'exception : la plus forte estimation non ★ mène ; sa couleur est la couleur d'exception (l'atout). En cas d'égalité, qui détient ‽ le dévoile et choisit le meneur parmi les égalitaires (tirage au sort si personne ne l'a). Si toutes les estimations sont ★, la plus forte ★ mène et choisit la couleur d'exception ; les égalitaires annoncent d'abord une couleur.",
  },
  tricks: (t) => `Plis : 7 par manche. Fournissez la couleur appelée si vous le pouvez ; sinon, jouez n'importe quelle carte. Le plus fort ${t.trump === "atout" ? "atout" : `de la ${t.trump}`} l'emporte, sinon la plus forte carte de la couleur appelée ; de cartes identiques, la première jouée.`,
  scoring: {
    basket: "Scores (perte = |pari − plis remportés|) : pari échoué : −perte ; pari réussi : 2 + panier + plis remportés ; le panier est la somme des pertes de ceux qui ont échoué.",
    double_basket: "Scores (perte = |pari − plis remportés|) : pari échoué : panier − perte ; pari réussi : 2 × panier + 2 + plis remportés (réussi avec Ø : sans les 2) ; le panier est la somme de toutes les pertes.",
    bid_plus_two: "Scores : enchère échouée : −|enchère − plis remportés| ; réussie : enchère + 2.",
  },
  end: {
    min_rounds: (r) => `Fin : au moins ${r.rounds} manches ; ensuite, le meilleur score, s'il est seul, gagne si son dernier pari est réussi. ${r.every_tie_replays ? "Toute égalité pour le meilleur score fait jouer une manche de plus." : "Égalité : une manche de plus si un égalitaire a échoué ; sinon le plus de paris réussis, puis victoire partagée."}`,
    min_rounds_strict: (r) => `Fin : au moins ${r.rounds} manches ; le gagnant doit avoir réussi son dernier pari et avoir strictement le meilleur score ; toute égalité fait jouer une manche de plus.`,
    target: (r) => `Fin : le premier à atteindre ${r.target ?? 35} points à la fin d'une manche où son pari est réussi. Plusieurs à la fois : le plus de paris réussis, puis le plus de points, puis victoire partagée.`,
    fixed_rounds: (r) => `Fin : exactement ${r.rounds} manches ; le meilleur score gagne ; égalité : le plus d'enchères réussies, puis victoire partagée.`,
  },
  dummy: (r) => `Deux joueurs : le Pantin s'assied après eux, parie toujours 2, n'est jamais premier meneur et joue en dernier parmi ses cartes visibles (2 retournées après les paris, une de plus à chaque fois), en visant exactement 2 plis. S'il a remporté le pli précédent, il ouvre avec la carte du dessus de sa pioche, suivi ${r.dummy_follower === "previous_leader" ? "du meneur du pli précédent" : "du premier meneur de la manche"}. Il ne marque pas de points.`,
  signs: (t) => [
    `✓ à côté d'une place : elle a choisi (son ${t.bet} reste face cachée jusqu'à ce que tous aient choisi).`,
    "Un cadre jaune : à qui c'est le tour.",
    `${cap(t.bet)} x · Plis y : ${t.bet} et plis remportés de la manche ; Points : le total jusqu'ici.`,
    "Les petites cartes au bord en pointillés près d'une place : ses cartes pariées, publiques jusqu'à ce qu'elles soient jouées. Le gagnant d'un pli est encadré de jaune.",
  ],
  sections: { deck: "Les cartes", special: "Cartes spéciales et signes", round: "Une manche", scoring: "Scores et fin" },
};

const SEVEN = {
  en: [
    { title: "Cards", items: ["Two standard 52-card decks (104 cards). Each player gets 8; the rest is the draw pile, whose top card is turned up to start the discard pile (its effect does not apply). A second copy of a card is marked ′."] },
    { title: "A turn", items: ["Play a card matching the suit to follow or the rank of the top card, or an 8. If you cannot play, draw one card (that ends your turn)."] },
    {
      title: "Action cards",
      items: [
        "2: the next player plays a 2 or draws 2 × (2s in a row).",
        "A♠: the next player plays A♠ or draws 5 × (A♠ in a row).",
        "7: the following players may only play a 7 or pass; when the turn comes back to the last player of a 7, they play any card.",
        "8: wild: name the new suit to follow (not while a 2, A♠ or 7 is pending).",
        "10 reverses the direction; J: the next player loses their turn.",
      ],
    },
    { title: "Last card", items: ["Announce your last card as you play your second-to-last card. If you do not, every other player answers at once whether they call you out; if anyone does, you draw 4. \"!\" next to a seat: it has announced its last card."] },
    { title: "Scoring and the end", items: ["The first player with no card wins the round; the others add their cards: 2-7, 9, 10 face value; J, Q, K, A 10; A♠ 15; 8 zero.", "A total over the limit is eliminated, exactly the limit drops back to 0; the last player left wins."] },
  ],
  fr: [
    { title: "Les cartes", items: ["Deux jeux de 52 cartes (104 cartes). Chacun en reçoit 8 ; le reste forme la pioche, dont la carte du dessus, retournée, commence le talon (son effet ne s'applique pas). Le deuxième exemplaire d'une carte est marqué ′."] },
    { title: "Un tour", items: ["Jouez un 8 ou une carte de la couleur demandée ou de la valeur de la carte du dessus. Si vous ne pouvez pas jouer, piochez une carte (cela termine votre tour)."] },
    {
      title: "Cartes spéciales",
      items: [
        "2 : le joueur suivant joue un 2 ou pioche 2 × (nombre de 2 d'affilée).",
        "A♠ : le joueur suivant joue un A♠ ou pioche 5 × (nombre d'A♠ d'affilée).",
        "7 : les suivants ne peuvent que jouer un 7 ou passer ; quand le tour revient au dernier joueur d'un 7, il joue n'importe quelle carte.",
        "8 : joker : annoncez la nouvelle couleur demandée (pas quand un 2, un A♠ ou un 7 est en cours).",
        "10 inverse le sens du jeu ; valet : le joueur suivant passe son tour.",
      ],
    },
    { title: "Dernière carte", items: ["Annoncez votre dernière carte en jouant l'avant-dernière. Sinon, tous les autres répondent en même temps s'ils vous dénoncent ; si l'un d'eux le fait, vous piochez 4. « ! » à côté d'une place : elle a annoncé sa dernière carte."] },
    { title: "Scores et fin", items: ["Qui n'a plus de carte gagne la manche ; les autres comptent leurs cartes : 2-7, 9, 10 leur valeur ; valet, dame, roi, as 10 ; A♠ 15 ; 8 zéro.", "Au-dessus de la limite, on est éliminé ; à exactement la limite, on revient à 0 ; le dernier joueur en jeu gagne."] },
  ],
};

/** The rules panel: [{title, items: [sentence]}] for the table's game and ruleset. */
export function rulesSections(game, rules, lang, players = rules?.max_players ?? 4) {
  if (game === "seven") return SEVEN[lang] || SEVEN.en;
  if (!rules) return [];
  const fifth = hasFifth(rules, players);
  const r = { ...rules, __dummyHere: !!rules.dummy && players === 2, __suits: `♠ > ♥ > ♣ > ♦${fifth ? ` > ${symbols(rules).fifth}` : ""}` };
  const L = lang === "fr" ? FR : EN;
  const t = terms(r.preset, lang);
  const sym = symbols(r);
  const deck = [L.deck[r.deck]?.(r) ?? ""];
  const special = [];
  if (r.deck === "advanced" || r.deck === "kod7") {
    special.push(L.special.star);
    if (r.deck === "advanced") special.push(L.special.void);
    special.push(L.special.mark(sym.mark));
  }
  if (fifth) special.push(L.special.fifth(sym.fifth));
  if (r.decks === 2 || r.preset === "bga" || r.deck === "kod7" || r.deck === "advanced") special.push(L.special.copy);
  special.push(...L.signs(t));
  const round = [];
  if (r.passing) round.push(L.passing(t));
  round.push(L.bets(t), L.sum7(r, t));
  if (r.rebid_bonus) round.push(L.rebid);
  round.push(L.leader[r.leader]?.(r, t) ?? "", L.tricks(t));
  if (r.dummy && players === 2) round.push(L.dummy(r));
  const scoring = [L.scoring[r.scoring] ?? "", L.end[r.end]?.(r) ?? ""];
  return [
    { title: L.title[r.preset] || r.preset, items: deck, heading: true },
    { title: L.sections.special, items: special },
    { title: L.sections.round, items: round },
    { title: L.sections.scoring, items: scoring },
  ];
}

/** The short facts always on the table: the end rule, passing, two decks, the Dummy. */
export function facts(game, r, lang, players) {
  if (game === "seven" || !r) return [];
  const fr = lang === "fr";
  const out = [];
  if (r.end === "target") out.push(fr ? `Objectif : ${r.target ?? 35} points` : `Target: ${r.target ?? 35} points`);
  else if (r.end === "fixed_rounds") out.push(fr ? `${r.rounds} manche${r.rounds > 1 ? "s" : ""}` : `${r.rounds} round${r.rounds === 1 ? "" : "s"}`);
  else out.push(fr ? `Au moins ${r.rounds} manche${r.rounds > 1 ? "s" : ""}` : `At least ${r.rounds} round${r.rounds === 1 ? "" : "s"}`);
  if (r.passing) out.push(fr ? "Passe de cartes" : "Card passing");
  if (r.decks === 2 || (r.preset === "bga" && players >= 5)) out.push(fr ? "Deux paquets" : "Two decks");
  if (r.dummy && players === 2) out.push(fr ? "Avec le Pantin" : "With the Dummy");
  if (r.deck === "advanced" || r.deck === "kod7") out.push(fr ? "Cartes spéciales ★ Ø ?".replace(" Ø", r.deck === "kod7" ? "" : " Ø").replace("?", symbols(r).mark) : "Special cards ★ Ø ?".replace(" Ø", r.deck === "kod7" ? "" : " Ø").replace("?", symbols(r).mark));
  const t = terms(r.preset, lang);
  out.push(fr ? `Si les ${t.bets} font 7, on recommence` : `If the ${t.bets} sum to 7, everyone goes again`);
  return out;
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

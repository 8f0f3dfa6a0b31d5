//! The exact max^n solver of a round's remaining tricks: [`Solver`] (the method is in the
//! module's page, [`crate::pi`]).

use oh7_core::card::{Card, CardSet, Kind};
use oh7_core::oh7::trick;
use oh7_core::oh7::{HAND, MAX_SEATS, TRICKS};
use oh7_core::ruleset::Scoring;

use super::position::{NONE, Position, Won};
use super::scorer::Scorer;
use crate::outcomes::{Outcomes, Set};

/// A table entry (16 bytes): the position's check bits (the low four: the tricks left, its
/// worth when an entry must be replaced), the search it belongs to, and the tricks each seat
/// still wins from there (3 bits a seat). An entry is **exact**, or **partial** (bits 27..31:
/// how many of the position's moves were searched before its search was abandoned, the tricks
/// being those of the best of them): a later visit resumes with the next move.
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u64,
    stamp: u32,
    packed: u32,
}

impl Entry {
    fn pack(won: &Won, next: usize) -> u32 {
        let mut x = (next as u32) << 27;
        for (s, &w) in won.iter().enumerate() {
            x |= (w as u32 & 7) << (3 * s);
        }
        x
    }

    fn won(&self) -> Won {
        let mut w = [0u8; MAX_SEATS];
        for (s, x) in w.iter_mut().enumerate() {
            *x = (self.packed >> (3 * s) & 7) as u8;
        }
        w
    }

    /// Moves searched for a partial entry; 0 for an exact one.
    fn next(&self) -> usize {
        (self.packed >> 27) as usize
    }

    fn left(&self) -> u64 {
        self.check & 0xf
    }
}

/// The seats above a node that may give up on it: its parent's and its grandparent's, each
/// with the place of its best result so far in its preference.
#[derive(Clone, Copy, Default)]
struct Bounds {
    parent: Option<(usize, u16)>,
    grand: Option<(usize, u16)>,
}

/// What the search of a position came to.
#[derive(Clone, Copy)]
enum Found {
    /// Its result.
    Exact(Won),
    /// Abandoned: the parent never chooses it.
    Pruned,
    /// Abandoned by speculation: the parent never chooses it, or if it does, the grandparent
    /// never chooses the parent. The parent decides which (and searches it again if needed).
    Spec,
    /// Not searched yet (in a list of a seat's moves).
    Unknown,
}

/// A seat's moves to search: the position, its moves in order, the outcomes still feasible
/// below it, and what an earlier, abandoned visit left (the moves searched, the best result).
#[derive(Clone, Copy)]
struct Node<'a> {
    pos: &'a Position,
    moves: &'a [Card],
    f: &'a Set,
    resume: (usize, Option<Won>),
}

/// How one pass over a seat's moves ended.
enum Pass {
    /// Every move searched, or the cut-off reached; `true` if some move's search was
    /// abandoned by speculation.
    Done(Won, bool),
    /// Abandoned (`Found::Pruned` or `Found::Spec`) before move `k`, with the best result of
    /// the moves before it; `true` if all of these are settled (none abandoned by speculation).
    Abandoned(Found, usize, Won, bool),
}

/// The exact solver; owns its transposition table (allocated once).
pub struct Solver {
    table: Vec<Entry>,
    mask: usize,
    stamp: u32,
    scorer: Scorer,
    /// Nodes visited since the last [`Solver::reset_nodes`].
    pub nodes: u64,
    /// Stop searching a seat's moves once one reaches the best score it could get (on by
    /// default; off, every move is searched, as in the brute-force tests; either way a seat
    /// keeps the best move by [`Scorer::better`] among those it searched).
    pub cutoff: bool,
    /// Stop (and set [`Solver::aborted`]) once `nodes` passes this; results are then garbage.
    pub node_limit: u64,
    /// Whether the node limit was hit since the last [`Solver::reset_nodes`].
    pub aborted: bool,
    /// Prune with the outcome sets (with the cut-off on): a seat's move is abandoned as soon as
    /// no outcome still feasible below it is both one that seat would switch to and one the
    /// seat before it prefers (on by default; results are the same either way).
    pub prune: bool,
    /// The outcome space of the current root, when it is small enough to index.
    space: Option<Outcomes>,
    /// Searches abandoned by pruning, and by speculation, since the last
    /// [`Solver::reset_nodes`].
    pub abandoned: [u64; 2],
}

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hands up to relabelling of values (see [`Solver::key`]): for each suit with a live
/// regular card, the live cards of that suit and the live ★ in order of strength, each as its
/// owner, its kind and whether it ties the card before it (identical copies); then the ★ alone,
/// then Ø and ‽/?. A hash: equal hands up to relabelling give equal values.
fn shape(pos: &Position) -> u64 {
    const P: u64 = 0x0000_0100_0000_01b3;
    let mut owner = [0u8; 128];
    let mut live = 0u128;
    for s in 0..pos.seats as usize {
        live |= pos.hands[s].0;
        for c in pos.hands[s].iter() {
            owner[c.id() as usize] = s as u8;
        }
    }
    let stars = (live >> 80) as u16;
    let mut acc: u64 = 0;
    // `order`: bit 4v+k is the ★ of value v (k = 0, 1: its copies) or the regular card of value
    // v (k = 2, 3), so that bits run in order of strength within a suit.
    let run = |acc: &mut u64, order: u32, base: u8| {
        let mut prev = u32::MAX;
        let mut z = order;
        while z != 0 {
            let b = z.trailing_zeros();
            z &= z - 1;
            let (v, regular) = (b / 4, b >> 1 & 1);
            let id = if regular == 1 { base + (2 * v + (b & 1)) as u8 } else { 80 + (2 * v + (b & 1)) as u8 };
            let group = b >> 1;
            let token = owner[id as usize] as u64 | (regular as u64) << 4 | ((group != prev) as u64) << 5;
            prev = group;
            *acc = acc.wrapping_mul(P).wrapping_add(token + 1);
        }
    };
    for su in 0..5u8 {
        let regs = (live >> (16 * su)) as u16;
        if regs != 0 {
            acc = acc.wrapping_mul(P).wrapping_add(0x100 + su as u64);
            run(&mut acc, interleave(stars, regs), su * 16);
        }
    }
    acc = acc.wrapping_mul(P).wrapping_add(0x200);
    run(&mut acc, interleave(stars, 0), 0);
    for id in 96..99 {
        let t = if live >> id & 1 == 1 { 1 + owner[id] as u64 } else { 0 };
        acc = acc.wrapping_mul(P).wrapping_add(0x300 + t);
    }
    acc
}

/// Bits 4v, 4v+1: `stars` bits 2v, 2v+1; bits 4v+2, 4v+3: `regs` bits 2v, 2v+1.
#[inline]
fn interleave(stars: u16, regs: u16) -> u32 {
    let mut z = 0u32;
    for v in 0..8 {
        z |= (stars as u32 >> (2 * v) & 3) << (4 * v) | (regs as u32 >> (2 * v) & 3) << (4 * v + 2);
    }
    z
}

impl Solver {
    /// A solver with a table of `2^bits` entries.
    pub fn new(bits: u32) -> Solver {
        let n = 1usize << bits;
        Solver {
            table: vec![Entry::default(); n],
            mask: n - 1,
            stamp: 1,
            scorer: Scorer { scoring: Scoring::Basket, players: 0, bets: [0; MAX_SEATS], void_bet: 0 },
            nodes: 0,
            cutoff: true,
            node_limit: u64::MAX,
            aborted: false,
            prune: true,
            space: None,
            abandoned: [0; 2],
        }
    }

    /// Set the bets to score with (and forget the table's contents, which depend on them).
    pub fn set_scorer(&mut self, scorer: Scorer) {
        self.scorer = scorer;
        self.stamp = self.stamp.wrapping_add(1).max(1);
    }

    /// The scorer in use.
    pub fn scorer(&self) -> &Scorer {
        &self.scorer
    }

    /// Zero the node counter.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.abandoned = [0; 2];
        self.aborted = false;
    }

    /// The final tricks won of every seat when every player plays to maximise their own score.
    pub fn solve(&mut self, pos: &Position) -> Won {
        if pos.is_over() {
            return pos.won;
        }
        self.ensure_space(pos);
        match self.search(pos, Bounds::default()) {
            Found::Exact(r) => r,
            _ => unreachable!("a root is never abandoned"),
        }
    }

    /// The result of each legal move of the seat to play (equivalent cards share a result):
    /// `out` gets `(card, final tricks won)`.
    pub fn evaluate_moves(&mut self, pos: &Position, out: &mut Vec<(Card, Won)>) {
        out.clear();
        self.ensure_space(pos);
        let legal = pos.legal();
        let reps = representatives(pos, legal);
        for c in reps.iter() {
            let mut child = *pos;
            child.play(c);
            let r = self.solve(&child);
            out.push((c, r));
        }
        // Equivalent cards get their representative's result.
        for c in legal.minus(reps).iter() {
            let r = representative_of(pos, reps, c).and_then(|rep| out.iter().find(|(x, _)| *x == rep).map(|x| x.1));
            if let Some(r) = r {
                out.push((c, r));
            }
        }
    }

    /// Index the outcomes below `pos` unless the current space already holds them (a space
    /// serves every position below its root, so the children of one root share it).
    fn ensure_space(&mut self, pos: &Position) {
        if !self.cutoff {
            return;
        }
        let seats = pos.seats as usize;
        if self.space.as_ref().is_some_and(|o| o.covers(&self.scorer, seats, &pos.won)) {
            return;
        }
        self.space = Outcomes::new(&self.scorer, seats, &pos.won);
    }

    /// The table key of a position at a trick boundary: what decides the rest of the search,
    /// and nothing more, so that positions that play out alike share an entry.
    ///
    /// - **Relative ranks.** Without a Dummy, the hands enter as, for each suit, the owners of
    ///   its live cards (the ★ interleaved where they rank) in order of strength, with the
    ///   played cards left out (as DDS keys its table). Two positions that differ only in which
    ///   of two cards with nothing live between them were played get one key. With a Dummy, its
    ///   face-down pile holds absolute cards, so the hands enter as they are.
    /// - **What each player still needs.** With [`Scoring::BidPlusTwo`] (`bga`) a player's
    ///   score depends on its own tricks only; a player already above its bet, or short by more
    ///   than the tricks left, orders the outcomes alike whatever the amount (the scores differ
    ///   by a constant, for it and in the others' sums), so the need `bet - won` enters clamped
    ///   to `-1..=left+1`. The basket scorings pay the others' losses to whoever makes it, so
    ///   the tricks won enter as they are. Either way the table holds the tricks still to win,
    ///   which the caller adds to the tricks won.
    fn key(&self, pos: &Position) -> (usize, u64) {
        let seats = pos.seats as usize;
        let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
        if pos.dummy == NONE {
            h = mix(h ^ shape(pos));
        } else {
            for s in 0..seats {
                let v = pos.hands[s].0;
                h = mix(h ^ (v as u64)).wrapping_add(mix((v >> 64) as u64 ^ (s as u64) << 58));
            }
        }
        let left = pos.tricks_left() as i32;
        let mut w: u64 = 0;
        for s in 0..seats {
            let x = if self.scorer.scoring == Scoring::BidPlusTwo && s < self.scorer.players as usize {
                (self.scorer.bets[s] as i32 - pos.won[s] as i32).clamp(-1, left + 1) + 1
            } else {
                pos.won[s] as i32
            };
            w = w << 4 | x as u64;
        }
        let extra = (pos.order[0] as u64) | (pos.pile_next as u64) << 8 | (pos.last_player_leader as u64) << 16;
        h = mix(h ^ w.rotate_left(24) ^ extra);
        let idx = mix(h ^ 0x5555) as usize & self.mask & !1;
        (idx, h & !0xf | left as u64)
    }

    /// Store in the bucket at `i` (two entries): over an entry of an older search, else over
    /// the one with fewer tricks left (the cheaper to find again). `pos` is the position
    /// stored, `won` its final tricks won (the entry keeps the tricks still to win), `next` 0
    /// for an exact result, else the moves searched for a partial one.
    #[inline]
    fn store(&mut self, i: usize, check: u64, pos: &Position, won: &Won, next: usize) {
        let mut future = *won;
        for (x, w) in future.iter_mut().zip(pos.won) {
            *x -= w;
        }
        let (a, b) = (&self.table[i], &self.table[i + 1]);
        let j = if a.stamp != self.stamp || a.check == check {
            i
        } else if b.stamp != self.stamp || b.check == check || b.left() <= a.left() {
            i + 1
        } else {
            i
        };
        self.table[j] = Entry { check, stamp: self.stamp, packed: Entry::pack(&future, next) };
    }

    /// The final tricks won from `pos` under max^n, or why the search of `pos` was abandoned:
    /// its result cannot matter to the seat before it (`bounds.parent`: that seat and the
    /// place, in its preference, of the best result it has found so far), or, speculatively,
    /// to the seat before that. A seat switches only to a result it prefers
    /// ([`Scorer::better`]), so a move none of whose possible results the parent prefers is
    /// never chosen, and need not be searched to the end.
    fn search(&mut self, pos: &Position, bounds: Bounds) -> Found {
        self.nodes += 1;
        if pos.is_over() {
            return Found::Exact(pos.won);
        }
        if self.nodes > self.node_limit {
            self.aborted = true;
            return Found::Exact(pos.won);
        }
        if pos.tricks_left() == 1 && pos.dummy == NONE {
            return Found::Exact(pos.last_trick());
        }
        let boundary = pos.trick_len == 0 || pos.order[0] == pos.dummy && pos.trick_len == 1;
        let mut slot = None;
        let mut resume = (0, None);
        if boundary && pos.tricks_left() > 1 {
            let (i, check) = self.key(pos);
            for e in &self.table[i..i + 2] {
                if e.stamp == self.stamp && e.check == check {
                    let mut r = e.won();
                    for (x, w) in r.iter_mut().zip(pos.won) {
                        *x += w;
                    }
                    if e.next() == 0 {
                        return Found::Exact(r);
                    }
                    resume = (e.next(), Some(r));
                }
            }
            slot = Some((i, check));
        }
        let s = pos.to_move();
        let legal = pos.legal();
        if legal.len() == 1 {
            // A forced move: its result is this position's, so the same bounds apply.
            let mut child = *pos;
            child.play(legal.first().expect("one"));
            let found = self.search(&child, bounds);
            if let (Found::Exact(r), Some((i, check))) = (found, slot) {
                self.store(i, check, pos, &r, 0);
            }
            return found;
        }
        let live = pos.live();
        let reps = representatives_in(pos, legal, live);
        let mut moves = [Card::INTERROBANG; HAND + 2];
        let n = order_moves(pos, reps, pos.won[s] < self.scorer.bets[s], &mut moves);
        let r = if !self.cutoff {
            self.search_all(pos, &moves[..n], None)
        } else if let Some(space) = self.space.as_ref() {
            let f = feasible(space, pos, live);
            let mut found = None;
            if let Some((p, bp)) = bounds.parent {
                if !space.any_above(&f, p, bp) {
                    found = Some(Found::Pruned);
                } else if let Some((g, bg)) = bounds.grand
                    && !space.any_above_both(&f, p, bp, g, bg)
                {
                    found = Some(Found::Spec);
                }
            }
            let found = match found {
                Some(found) => found,
                None => match self.search_sets(&Node { pos, moves: &moves[..n], f: &f, resume }, bounds) {
                    Ok(r) => Found::Exact(r),
                    Err((found, keep)) => {
                        if let (Some((next, r)), Some((i, check))) = (keep, slot) {
                            self.store(i, check, pos, &r, next);
                        }
                        found
                    }
                },
            };
            match found {
                Found::Exact(r) => r,
                _ => {
                    self.abandoned[matches!(found, Found::Spec) as usize] += 1;
                    return found;
                }
            }
        } else {
            let left = pos.tricks_left();
            let cap = self.scorer.best_possible(s, &pos.won, left, pos.trick_range(s, live), pos.dummy != NONE);
            self.search_all(pos, &moves[..n], Some(cap))
        };
        if let Some((i, check)) = slot {
            self.store(i, check, pos, &r, 0);
        }
        Found::Exact(r)
    }

    /// A seat's moves, keeping the best by [`Scorer::better`]. Without a `cap`: every move
    /// (the same result as a plain max^n search). With one: stop once a move reaches `cap`, the
    /// best score the seat could get (where the outcomes are too many to index).
    fn search_all(&mut self, pos: &Position, moves: &[Card], cap: Option<i32>) -> Won {
        let s = pos.to_move();
        let mut best: Option<(i32, Won)> = None;
        for &c in moves {
            let mut child = *pos;
            child.play(c);
            let Found::Exact(r) = self.search(&child, Bounds::default()) else {
                unreachable!("never abandoned without a parent")
            };
            let v = self.scorer.score(&r, s);
            if best.is_none_or(|(bv, br)| self.scorer.better(s, v, &r, bv, &br)) {
                best = Some((v, r));
                if cap.is_some_and(|cap| v >= cap) {
                    break;
                }
            }
        }
        best.expect("a legal move").1
    }

    /// A seat's moves over the outcomes `f` still feasible, keeping the best by
    /// [`Scorer::better`]: stop once no outcome of `f` scores more for the seat (the cut-off),
    /// and (pruning) give up once none that the seat would still switch to is preferred by the
    /// parent too, or (speculation) by both the parent and the grandparent. `Err`: why it was
    /// abandoned, and what a later visit may resume from.
    ///
    /// A first pass lets the children speculate. If one did and the seat's best result is one
    /// the parent prefers, a second pass settles the speculative children in order (the others'
    /// results are reused), so the result is the one a search without pruning finds.
    fn search_sets(&mut self, node: &Node, bounds: Bounds) -> Result<Won, (Found, Option<(usize, Won)>)> {
        let mut known = [Found::Unknown; HAND + 2];
        let mut speculate = self.prune && bounds.parent.is_some();
        loop {
            match self.pass(node, bounds, &mut known, speculate) {
                Pass::Done(r, false) => return Ok(r),
                Pass::Done(r, true) => {
                    // The true result is `r` or one of a speculative child's, which the parent
                    // does not prefer: if it does not prefer `r` either, it never chooses this.
                    let (p, bp) = bounds.parent.expect("speculation needs a parent");
                    if self.space.as_ref().expect("a space").rank(p, &r) <= bp {
                        return Err((Found::Pruned, None));
                    }
                    speculate = false;
                }
                Pass::Abandoned(found, k, r, settled) => return Err((found, settled.then_some((k, r)))),
            }
        }
    }

    /// One pass over a seat's moves for [`Solver::search_sets`]; `known` holds the moves'
    /// results from an earlier pass.
    fn pass(&mut self, node: &Node, bounds: Bounds, known: &mut [Found], speculate: bool) -> Pass {
        let Node { pos, moves, f, resume } = *node;
        let s = pos.to_move();
        // The outcome's index in the space, and its place in the seat's preference.
        let place = |solver: &Solver, r: &Won| {
            let sets = solver.space.as_ref().expect("a space");
            let k = sets.index_of(r);
            (sets.rank_at(s, k), k)
        };
        let (start, mut best) = match resume {
            (k, Some(r)) if k < moves.len() => (k, Some((place(self, &r), r))),
            _ => (0, None),
        };
        let mut fresh = best;
        let mut speculated = false;
        for (k, &c) in moves.iter().enumerate().skip(start) {
            if let Some(((rank, index), r)) = fresh.take() {
                // A new best: can the seat still score more, and would the parent (and the
                // grandparent) prefer any outcome the seat would still switch to?
                let sets = self.space.as_ref().expect("a space");
                if !sets.any_better(f, s, self.scorer.score(&r, s)) {
                    return Pass::Done(r, speculated);
                }
                if let Some((p, bp)) = bounds.parent {
                    let parent_prefers = sets.rank_at(p, index) > bp;
                    if !parent_prefers && !sets.any_above_both(f, s, rank, p, bp) {
                        return Pass::Abandoned(Found::Pruned, k, r, !speculated);
                    }
                    if speculate
                        && let Some((g, bg)) = bounds.grand
                        && !(parent_prefers && sets.rank_at(g, index) > bg)
                        && !sets.any_above_all(f, [(s, rank), (p, bp), (g, bg)])
                    {
                        return Pass::Abandoned(Found::Spec, k, r, !speculated);
                    }
                }
            }
            if matches!(known[k], Found::Unknown | Found::Spec) {
                let child_bounds = match best {
                    Some(((rank, _), _)) if self.prune => {
                        Bounds { parent: Some((s, rank)), grand: if speculate { bounds.parent } else { None } }
                    }
                    _ => Bounds::default(),
                };
                let mut child = *pos;
                child.play(c);
                known[k] = self.search(&child, child_bounds);
            }
            match known[k] {
                Found::Exact(r) => {
                    let at = place(self, &r);
                    if best.is_none_or(|((b, _), _)| at.0 > b) {
                        best = Some((at, r));
                        fresh = best;
                    }
                }
                Found::Spec => speculated = true,
                Found::Pruned | Found::Unknown => {}
            }
        }
        Pass::Done(best.expect("a legal move").1, speculated)
    }
}

/// The outcomes still feasible below `pos`: each seat wins at least its sure winners and at
/// most the tricks the others' sure winners leave (the Dummy's bounded by the tricks left).
#[inline]
fn feasible(space: &Outcomes, pos: &Position, live: CardSet) -> Set {
    let sure = pos.sure_winners(live);
    let total: u8 = sure.iter().sum();
    let left = pos.tricks_left();
    let mut lo = pos.won;
    // Without others' sure winners, the tricks won by the others bound a seat's already.
    let mut hi = [TRICKS as u8; MAX_SEATS];
    for q in 0..pos.seats as usize {
        lo[q] += sure[q];
        if total > sure[q] {
            hi[q] = pos.won[q] + left - (total - sure[q]).min(left);
        }
    }
    space.feasible(&lo, &hi)
}

/// Search order: the seat's wish decides, so that the move that reaches the seat's best score
/// (and stops its search) tends to come first. A seat short of its bet (`short`) leads its
/// strongest card; following, it tries the cards that would take the trick so far (the cheapest
/// first when it plays last), then discards its weakest. A seat at or above its bet leads its
/// weakest card; following, it ducks with its highest card that loses, and when it must win,
/// wins with its highest.
fn order_moves(pos: &Position, reps: CardSet, short: bool, out: &mut [Card; HAND + 2]) -> usize {
    let len = pos.trick_len as usize;
    let last = len + 1 == pos.seats as usize;
    // The key of the card winning the trick so far (while the lead suit is known).
    let top = pos.lead.map(|l| pos.trick_cards().iter().map(|&c| trick::trick_key(c, pos.trump, Some(l))).max());
    let mut keyed = [(0i32, Card::INTERROBANG); HAND + 2];
    let mut n = 0;
    for c in reps.iter() {
        let x = trick::trick_key(c, pos.trump, pos.lead.or(c.suit())) as i32 * 8 + c.value() as i32;
        let key = if len == 0 {
            if short { -x } else { x }
        } else {
            let wins = match top {
                Some(top) => Some(trick::trick_key(c, pos.trump, pos.lead)) > top,
                None => {
                    let mut cards = pos.trick;
                    cards[len] = c;
                    trick::winning_index(&cards[..=len], pos.trump) == len
                }
            };
            match (short, wins) {
                (true, true) if last => x,
                (true, true) => -x,
                (true, false) => 1000 + x,
                (false, false) => -x,
                (false, true) => 1000 - x,
            }
        };
        keyed[n] = (key, c);
        n += 1;
    }
    keyed[..n].sort_unstable_by_key(|k| k.0);
    for (o, k) in out.iter_mut().zip(&keyed[..n]) {
        *o = k.1;
    }
    n
}

/// One card of each class of equivalent legal cards.
pub fn representatives(pos: &Position, legal: CardSet) -> CardSet {
    representatives_in(pos, legal, pos.live())
}

/// [`representatives`] with the position's live cards already known.
fn representatives_in(pos: &Position, legal: CardSet, live: CardSet) -> CardSet {
    let s = pos.to_move();
    let gaps = live.minus(pos.hands[s]);
    let mut keep = CardSet::EMPTY;
    let mut prev: Option<Card> = None;
    for c in legal.iter() {
        if let Some(p) = prev
            && equivalent(p, c, gaps)
        {
            continue;
        }
        keep.insert(c);
        prev = Some(c);
    }
    keep
}

fn representative_of(pos: &Position, reps: CardSet, c: Card) -> Option<Card> {
    let s = pos.to_move();
    let gaps = pos.live().minus(pos.hands[s]);
    // The nearest representative below `c` through a chain of equivalent legal cards.
    reps.iter().rfind(|&r| r < c).filter(|&r| {
        let legal = pos.legal();
        let mut prev = r;
        for x in legal.iter().filter(|&x| x > r && x <= c) {
            if !equivalent(prev, x, gaps) {
                return false;
            }
            prev = x;
        }
        true
    })
}

/// Whether `lo < hi` (ids) are interchangeable given the live cards held by others (`gaps`).
#[inline]
fn equivalent(lo: Card, hi: Card, gaps: CardSet) -> bool {
    match (lo.kind(), hi.kind()) {
        (Kind::Regular(a), Kind::Regular(b)) if a == b => {
            let (va, vb) = (lo.value(), hi.value());
            if va == vb {
                return true;
            }
            // Every card of the suit from lo's value to hi's (both copies: between identical
            // cards the first played wins, so another copy of lo's value splits them too).
            let base = a.index() as u32 * 16;
            let from = base + 2 * va as u32;
            let to = base + 2 * vb as u32 + 2;
            let between = CardSet(((1u128 << to) - 1) & !((1u128 << from) - 1));
            if !between.and(gaps).is_empty() {
                return false;
            }
            // ★ of value v ranks between a regular v-1 and a regular v.
            if vb > va {
                let stars =
                    CardSet(((1u128 << (80 + 2 * vb as u32 + 2)) - 1) & !((1u128 << (80 + 2 * va as u32 + 2)) - 1));
                if !stars.and(gaps).is_empty() {
                    return false;
                }
            }
            true
        }
        (Kind::Star, Kind::Star) => lo.value() == hi.value(),
        (Kind::Void, Kind::Void) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::card::Suit;
    use oh7_core::ruleset::Preset;
    use oh7_core::ruleset::Ruleset;

    proptest::proptest! {
        /// The solver's [`Scorer`] and the engine score every round alike: random games of
        /// every preset and player count, every scored round, every player (the engine's
        /// points less its bonuses). Both call `Scoring::points`, the one formula (§6).
        #[test]
        fn the_solver_scores_rounds_as_the_engine_does(preset in 0usize..Preset::ALL.len(), seed in 0u64..10_000, pick in 0usize..8) {
            use rand::SeedableRng;
            let rules = Ruleset::preset(Preset::ALL[preset]);
            let counts: Vec<usize> = (rules.min_players as usize..=rules.max_players as usize).collect();
            let players = counts[pick % counts.len()];
            let mut g = oh7_core::oh7::Oh7Game::new(rules, players, seed).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            crate::random_oh7_game(&mut g, &mut rng, &mut Vec::new());
            let rec = oh7_core::oh7::Record::from_game(&g);
            let mut scored = 0;
            for round in rec.rounds.iter().filter(|r| r.points.len() == players) {
                let bet_cards = round.deal.bet_attempts.last().expect("a bet attempt");
                let scorer = Scorer::new(&rules, &bet_cards[..players]);
                let mut won: Won = [0; MAX_SEATS];
                for (p, w) in round.won.iter().enumerate() {
                    won[p] = *w;
                }
                for p in 0..players {
                    proptest::prop_assert_eq!(scorer.score(&won, p) + round.bonus[p], round.points[p], "seat {} of round {}", p, round.number);
                }
                scored += 1;
            }
            proptest::prop_assert!(scored > 0);
        }
    }

    fn set(t: &str) -> CardSet {
        t.split_whitespace().map(|c| c.parse::<Card>().unwrap()).collect()
    }

    /// A random deal of `rules` for `players` (with the Dummy's face-up cards and pile where it
    /// plays), at the start of play; and the shuffled deck (for bets).
    fn deal(
        rules: &Ruleset,
        players: usize,
        trump: Suit,
        leader: usize,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> (Position, Vec<Card>) {
        use rand::seq::SliceRandom;
        let mut deck = rules.deck(players);
        deck.shuffle(rng);
        let dummy = rules.uses_dummy(players).then_some(2usize);
        let seats = players + dummy.is_some() as usize;
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        for p in 0..players {
            hands[p] = CardSet::from_cards(&deck[p * 7..p * 7 + 7]);
        }
        let rest = &deck[players * 7..];
        let mut pile: Vec<Card> = Vec::new();
        if let Some(d) = dummy {
            hands[d] = CardSet::from_cards(&rest[..2]);
            pile.extend_from_slice(&rest[2..]);
        }
        (Position::start(rules, seats, dummy, &hands, &pile, leader, trump), deck)
    }

    /// Brute force: plain max^n over every legal card, no table, no cut-off, no equivalence.
    fn brute(pos: &Position, sc: &Scorer) -> Won {
        if pos.is_over() {
            return pos.won;
        }
        let s = pos.to_move();
        let mut best: Option<(i32, Won)> = None;
        let mut moves: Vec<Card> = pos.legal().iter().collect();
        moves.sort_by_key(|c| std::cmp::Reverse(trick::trick_key(*c, pos.trump, pos.lead.or(c.suit()))));
        for c in moves {
            let mut ch = *pos;
            ch.play(c);
            let r = brute(&ch, sc);
            let v = sc.score(&r, s);
            if best.is_none_or(|(bv, br)| sc.better(s, v, &r, bv, &br)) {
                best = Some((v, r));
            }
        }
        best.unwrap().1
    }

    fn scores(sc: &Scorer, w: &Won) -> Vec<i32> {
        (0..sc.players as usize).map(|p| sc.score(w, p)).collect()
    }

    #[test]
    fn scorer_matches_worked_examples() {
        // §6: bets ♣3 ♥3 ♥2 ♠0, tricks 3 4 0 0.
        let cards: Vec<Card> = ["3C", "3H", "2H", "0S"].iter().map(|c| c.parse().unwrap()).collect();
        let won = [3, 4, 0, 0, 0, 0, 0, 0, 0];
        let en = Scorer::new(&Ruleset::preset(Preset::En), &cards);
        assert_eq!(scores(&en, &won), vec![8, -1, -2, 5]);
        let fr = Scorer::new(&Ruleset::preset(Preset::Fr), &cards);
        assert_eq!(scores(&fr, &won), vec![11, 2, 1, 8]);
    }

    /// The solver equals brute force on random small endings (every preset's kind of deck, the
    /// Dummy included) with the cut-off off. With it on, a seat stops at the first move that
    /// reaches its best possible score, so ties may go another way than brute force's
    /// tie-break; the root's result must still be a max^n choice among its moves' results.
    #[test]
    fn solver_matches_brute_force_on_small_endings() {
        use rand::{SeedableRng, seq::IndexedRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut solver = Solver::new(12);
        let cases = [
            (Preset::En, 4),
            (Preset::Kod7, 4),
            (Preset::FrAdvanced, 5),
            (Preset::Bga, 5),
            (Preset::En, 2),
            (Preset::Kod7, 2),
        ];
        let mut checked = 0;
        for round in 0..60 {
            let (preset, players) = cases[round % cases.len()];
            let rules = Ruleset::preset(preset);
            let suits = rules.suits(players);
            // Deal 7 per player and play random cards until 3 tricks are left.
            let (mut pos, deck) = deal(&rules, players, suits[round % suits.len()], round % players, &mut rng);
            let seats = pos.seats as usize;
            while pos.tricks_left() > 3 || (round % 2 == 1 && pos.trick_len < 1 && pos.tricks_left() > 2) {
                let l: Vec<Card> = pos.legal().iter().collect();
                pos.play(*l.choose(&mut rng).unwrap());
            }
            let bet_cards: Vec<Card> = (0..players).map(|p| deck[p * 7 + round % 7]).collect();
            let sc = Scorer::new(&rules, &bet_cards);
            solver.set_scorer(sc);
            solver.cutoff = round % 2 == 0;
            let a = solver.solve(&pos);
            let b = brute(&pos, &sc);
            let s = pos.to_move();
            if !solver.cutoff {
                assert_eq!(a, b, "{preset} {players}: {pos:?}");
                assert_eq!(sc.score(&a, s), sc.score(&b, s));
            }
            let total: u8 = a[..seats].iter().sum();
            assert_eq!(total, 7);
            // Every move's value matches brute force too.
            let mut out = Vec::new();
            solver.evaluate_moves(&pos, &mut out);
            assert_eq!(out.len() as u32, pos.legal().len());
            // With or without the cut-off, the root's result is a max^n choice given its
            // moves' results: one of them, and worth the most to the seat to play.
            let best = out.iter().map(|(_, w)| sc.score(w, s)).max().unwrap();
            assert_eq!(sc.score(&a, s), best, "{preset} {players} round {round}");
            assert!(out.iter().any(|(_, w)| *w == a), "{preset} {players} round {round}");
            for (c, w) in out {
                let mut ch = pos;
                ch.play(c);
                let bw = brute(&ch, &sc);
                if !solver.cutoff {
                    assert_eq!(
                        w,
                        bw,
                        "move {c} {preset} {players} round {round} reps {}",
                        representatives(&pos, pos.legal())
                    );
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 60);
    }

    /// Pruning with the outcome sets changes no result: on random endings of every kind of
    /// table (the Dummy, two decks, five and six seats), the solver with pruning gives the same
    /// result for every move as without it (both keep the first move with the highest score),
    /// and it visits fewer nodes in all, or the test would prove nothing.
    #[test]
    fn pruning_changes_no_result() {
        use rand::{SeedableRng, seq::IndexedRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let (mut plain, mut pruned) = (Solver::new(14), Solver::new(14));
        plain.prune = false;
        let cases = [
            (Preset::Kod7, 6, 1),
            (Preset::Kod7, 5, 1),
            (Preset::En, 4, 1),
            (Preset::FrAdvanced, 6, 1),
            (Preset::Fr, 5, 1),
            (Preset::Bga, 5, 2),
            (Preset::En, 2, 1),
            (Preset::Kod7, 2, 1),
        ];
        let (mut nodes_plain, mut nodes_pruned, mut abandoned) = (0, 0, [0, 0]);
        for round in 0..80 {
            let (preset, players, decks) = cases[round % cases.len()];
            let rules = Ruleset { decks, ..Ruleset::preset(preset) };
            let suits = rules.suits(players);
            let (mut pos, deck) = deal(&rules, players, suits[round % suits.len()], round % players, &mut rng);
            let left = if players == 5 { 3 } else { 4 };
            while pos.tricks_left() > left || (round % 3 == 1 && pos.trick_len < 2 && pos.tricks_left() > 2) {
                let l: Vec<Card> = pos.legal().iter().collect();
                pos.play(*l.choose(&mut rng).unwrap());
            }
            let bet_cards: Vec<Card> = (0..players).map(|p| deck[p * 7 + round % 7]).collect();
            let sc = Scorer::new(&rules, &bet_cards);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (solver, out) in [(&mut plain, &mut a), (&mut pruned, &mut b)] {
                solver.set_scorer(sc);
                solver.reset_nodes();
                solver.evaluate_moves(&pos, out);
                let root = solver.solve(&pos);
                out.push((Card::INTERROBANG, root));
            }
            nodes_plain += plain.nodes;
            nodes_pruned += pruned.nodes;
            assert_eq!(plain.abandoned, [0, 0]);
            abandoned[0] += pruned.abandoned[0];
            abandoned[1] += pruned.abandoned[1];
            assert_eq!(a, b, "{preset} {players} round {round}: {pos:?}");
        }
        assert!(nodes_pruned < nodes_plain, "pruning saved nothing: {nodes_pruned} nodes against {nodes_plain}");
        // Both ways of giving up were taken, so both were checked.
        assert!(abandoned[0] > 100 && abandoned[1] > 100, "searches abandoned: {abandoned:?}");
    }

    /// Every final tricks-won vector reachable from `pos`.
    fn leaves(pos: &Position, out: &mut Vec<Won>) {
        if pos.is_over() {
            out.push(pos.won);
            return;
        }
        for c in pos.legal().iter() {
            let mut ch = *pos;
            ch.play(c);
            leaves(&ch, out);
        }
    }

    /// The cut-off bound is never below what a seat can get in any way the tricks can fall, and
    /// is reached exactly in some positions (a bound of +inf would never cut).
    #[test]
    fn best_possible_bounds_every_outcome() {
        use rand::{SeedableRng, seq::IndexedRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut exact, mut checked) = (0, 0);
        for round in 0..120 {
            let (preset, players) =
                [(Preset::En, 4), (Preset::Kod7, 5), (Preset::Fr, 4), (Preset::Bga, 4), (Preset::En, 2)][round % 5];
            let rules = Ruleset::preset(preset);
            let (mut pos, deck) = deal(&rules, players, rules.suits(players)[0], 0, &mut rng);
            let dummy = rules.uses_dummy(players).then_some(2usize);
            let left = 1 + (round % 3) as u8;
            while pos.tricks_left() > left {
                let l: Vec<Card> = pos.legal().iter().collect();
                pos.play(*l.choose(&mut rng).unwrap());
            }
            let bet_cards: Vec<Card> = (0..players).map(|p| deck[p * 7 + round % 7]).collect();
            let sc = Scorer::new(&rules, &bet_cards);
            let mut all = Vec::new();
            leaves(&pos, &mut all);
            for p in 0..players {
                let best = all.iter().map(|w| sc.score(w, p)).max().unwrap();
                let cap =
                    sc.best_possible(p, &pos.won, pos.tricks_left(), pos.trick_range(p, pos.live()), dummy.is_some());
                assert!(cap >= best, "{preset} {players} seat {p}: bound {cap} < reachable {best}");
                exact += (cap == best) as u32;
                checked += 1;
            }
        }
        assert!(exact * 4 > checked, "the bound is reached in only {exact} of {checked} cases");
    }

    /// A position of `hands` (text, one hand a seat) with no Dummy, `players` seats, ♥ trump.
    fn hand_position(hands: &[&str]) -> Position {
        let rules = Ruleset::preset(Preset::Kod7);
        let h: Vec<CardSet> = hands.iter().map(|t| set(t)).collect();
        let mut pos = Position::empty(&rules, hands.len(), None, Suit::H);
        pos.hands[..h.len()].copy_from_slice(&h);
        pos.tricks_done = (TRICKS - h[0].len() as usize) as u8;
        pos.resume(0, &[]);
        pos
    }

    fn key_of(solver: &Solver, hands: &[&str], won: [u8; 3]) -> u64 {
        let mut pos = hand_position(hands);
        pos.won[..3].copy_from_slice(&won);
        solver.key(&pos).1
    }

    /// The table key sees hands only up to relabelling of values: the order of the live cards
    /// of each suit (the ★ interleaved where they rank), who holds each, and identical copies.
    #[test]
    fn table_key_is_blind_to_values_with_the_same_order() {
        let mut solver = Solver::new(10);
        let bets: Vec<Card> = ["2S", "1S", "0S"].iter().map(|c| c.parse().unwrap()).collect();
        solver.set_scorer(Scorer::new(&Ruleset::preset(Preset::Kod7), &bets));
        let w = [0, 0, 0];
        let a = key_of(&solver, &["2H 6H", "4H 1S", "5S *3"], w);
        // Every value moved, no order changed (♥: 2 < *3 < 4 < 6 becomes 1 < *3 < 5 < 7).
        assert_eq!(a, key_of(&solver, &["1H 7H", "5H 0S", "6S *3"], w));
        // Who holds which card matters.
        assert_ne!(a, key_of(&solver, &["4H 6H", "2H 1S", "5S *3"], w));
        // The ★ moved below every ♥: another order.
        assert_ne!(a, key_of(&solver, &["2H 6H", "4H 1S", "5S *1"], w));
        // Two cards of one suit that trade places across the ★.
        assert_ne!(a, key_of(&solver, &["2H 6H", "1H 4S", "5S *3"], w));
        // The suit itself matters (♥ is trump).
        assert_ne!(a, key_of(&solver, &["2C 6C", "4C 1S", "5S *3"], w));
    }

    /// With the `bga` scoring the key holds what each player still needs, clamped: a seat
    /// already above its bet is one case whatever the amount. The basket scorings keep every
    /// count (the others' losses are paid to whoever makes it, and the spoiling tie-break adds
    /// them up).
    #[test]
    fn table_key_clamps_needs_only_where_scores_allow() {
        let hands = ["2H 6H", "4H 1S", "5S *3"];
        let bets: Vec<Card> = ["0S", "1S", "0H"].iter().map(|c| c.parse().unwrap()).collect();
        let mut solver = Solver::new(10);
        solver.set_scorer(Scorer::new(&Ruleset::preset(Preset::Bga), &bets));
        // Seat 0 bet 0 and won 1 or 3: above its bet either way.
        assert_eq!(key_of(&solver, &hands, [1, 0, 0]), key_of(&solver, &hands, [3, 0, 0]));
        assert_ne!(key_of(&solver, &hands, [0, 0, 0]), key_of(&solver, &hands, [1, 0, 0]));
        for preset in [Preset::En, Preset::Fr] {
            solver.set_scorer(Scorer::new(&Ruleset::preset(preset), &bets));
            assert_ne!(key_of(&solver, &hands, [1, 0, 0]), key_of(&solver, &hands, [3, 0, 0]), "{preset}");
        }
    }

    /// Solving a position whose tricks won differ but whose clamped needs agree gives the same
    /// tricks to come, with the table shared (the stored entry is what the second solve reads).
    #[test]
    fn shared_entries_give_the_tricks_to_come() {
        use rand::{SeedableRng, seq::IndexedRandom, seq::SliceRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let rules = Ruleset::preset(Preset::Bga);
        let mut solver = Solver::new(16);
        for _ in 0..30 {
            let mut deck = rules.deck(4);
            deck.shuffle(&mut rng);
            let hands: Vec<CardSet> = (0..4).map(|p| CardSet::from_cards(&deck[p * 7..p * 7 + 7])).collect();
            let mut pos = Position::start(&rules, 4, None, &hands, &[], 0, Suit::S);
            while pos.tricks_left() > 4 || pos.trick_len > 0 {
                let l: Vec<Card> = pos.legal().iter().collect();
                pos.play(*l.choose(&mut rng).unwrap());
            }
            let bets: Vec<Card> = (0..4).map(|p| deck[p * 7]).collect();
            let sc = Scorer::new(&rules, &bets);
            // Give seat 0 one more trick than its bet, then three more: the same case.
            let mut a = pos;
            a.won = [0; MAX_SEATS];
            a.won[0] = sc.bets[0] + 1;
            let mut b = a;
            b.won[0] = sc.bets[0] + 3;
            solver.set_scorer(sc);
            solver.cutoff = false;
            let ra = solver.solve(&a);
            solver.reset_nodes();
            let rb = solver.solve(&b);
            assert_eq!(solver.nodes, 1, "the second position did not find the first one's entry");
            solver.set_scorer(sc);
            let fresh = solver.solve(&b);
            assert_eq!(rb, fresh, "a shared entry gave another result than a fresh solve");
            assert_eq!(ra[0] - a.won[0], rb[0] - b.won[0]);
            assert_eq!(ra[1..4], rb[1..4]);
        }
    }

    /// The sure winners are sure, and the bound they give is right: in every way the tricks left
    /// can fall, each seat wins between its `trick_range` bounds. Some seats must have a sure
    /// winner, or the test would prove nothing.
    #[test]
    fn trick_range_holds_in_every_outcome() {
        use rand::{SeedableRng, seq::IndexedRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let (mut sure, mut capped) = (0, 0);
        for round in 0..150 {
            // Two decks for bga: identical copies, the first played winning.
            let (preset, players, decks) = [
                (Preset::Kod7, 4, 1),
                (Preset::FrAdvanced, 4, 1),
                (Preset::En, 3, 1),
                (Preset::Bga, 3, 2),
                (Preset::Kod7, 2, 1),
            ][round % 5];
            let rules = Ruleset { decks, ..Ruleset::preset(preset) };
            let suits = rules.suits(players);
            let (mut pos, _) = deal(&rules, players, suits[round % suits.len()], round % players, &mut rng);
            let left = 2 + (round % 2) as u8;
            while pos.tricks_left() > left || (round % 3 == 0 && pos.tricks_left() == left && pos.trick_len < 2) {
                let l: Vec<Card> = pos.legal().iter().collect();
                pos.play(*l.choose(&mut rng).unwrap());
            }
            let mut all = Vec::new();
            leaves(&pos, &mut all);
            for p in 0..players {
                let (lo, hi) = pos.trick_range(p, pos.live());
                for w in &all {
                    let f = w[p] - pos.won[p];
                    assert!(lo <= f && f <= hi, "{preset} {players} seat {p}: {f} tricks outside {lo}..={hi}: {pos:?}");
                }
                sure += (lo > 0) as u32;
                capped += (hi < pos.tricks_left()) as u32;
            }
        }
        assert!(sure > 20 && capped > 20, "sure winners in {sure} cases, capped in {capped}");
    }

    #[test]
    fn equivalence_respects_live_cards_and_stars() {
        let gaps = set("4H");
        assert!(equivalent("2H".parse().unwrap(), "3H".parse().unwrap(), gaps));
        assert!(!equivalent("3H".parse().unwrap(), "5H".parse().unwrap(), gaps));
        assert!(!equivalent("2H".parse().unwrap(), "3H".parse().unwrap(), set("*3")));
        assert!(equivalent("2H".parse().unwrap(), "3H".parse().unwrap(), set("*2")));
        assert!(equivalent("3S".parse().unwrap(), "3S'".parse().unwrap(), gaps));
    }
}

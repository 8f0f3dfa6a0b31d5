//! Perfect information for the tricks of one Oh 7 round: a compact position that lives on the
//! stack ([`Position`]), the round's scoring ([`Scorer`]) and an exact max^n solver
//! ([`Solver`]) for the remaining tricks.
//!
//! The Dummy (§8) is modelled exactly: its face-up cards are its "hand", its face-down pile is
//! an ordered array, and it plays through [`trick::dummy_choice`] like the engine.
//!
//! Solver: every player maximises their own round score (max^n; ties broken by
//! [`Scorer::better`]). Hands are bitsets; equivalent cards (same suit, no live card between
//! them, no live ★ that ranks between them) are searched once; the last trick is read off, not
//! searched; a transposition table keyed at trick boundaries (the hands up to relabelling of
//! values, the leader, the tricks won or, with the `bga` scoring, what each player still needs,
//! the Dummy's pile position) holds the tricks each seat still wins; children are searched in
//! the order the seat's wish suggests. Every final tricks vector still possible is a bit of an
//! outcome set ([`crate::outcomes`]), bounded seat by seat by sure winners: a seat stops as soon
//! as no feasible outcome scores more for it (the cut-off), and abandons a move as soon as no
//! outcome it would still switch to is one the seat before it prefers (shallow max^n pruning;
//! the abandoned search is kept in the table and resumed by a later visit), or, speculatively,
//! one both the seat before it and the seat before that prefer (the parent then settles it).
//! Pruning changes no result.
//!
//! Three files by job: [`position`] (the position and its moves), [`scorer`] (the round's
//! points), [`solver`] (the search); the outcome sets ([`crate::outcomes`]) sit between the
//! scorer and the solver.

pub mod position;
pub mod scorer;
pub mod solver;

pub use position::{NONE, PILE, Position, Won};
pub use scorer::Scorer;
pub use solver::{Solver, representatives};

//! Computer players for oh7.
//!
//! What it is for: bots that choose an action from a seat view and the legal actions, never
//! from the game state, so a bot plays the same in the simulator, the terminal and online.
//! What it is not: it does not run games (see `oh7::sim` in the binary) and does no I/O.

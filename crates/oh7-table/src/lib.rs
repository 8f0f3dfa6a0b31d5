//! A table of oh7 with no I/O (the "sans-IO" shape of `quinn-proto` or `h11`): what the log
//! rebuilds ([`core`]), the events it is made of ([`event`]), what a table does with its
//! seats, commands, rematch, clocks and bots ([`machine`]), the one projection of a table into
//! each viewer's seat view ([`project`]), the patches between a viewer's documents ([`patch`]),
//! the messages of the protocol ([`protocol`]), and a solo table that plays a person against
//! bots ([`solo`]) for the browser's "play on this device".
//!
//! Nothing here reads a clock, a socket, a file or a random source: a table's seeds come in
//! with its events, so the same events give the same table on a server and in a page. The
//! server (`oh7-server`) drives a [`machine::Machine`] from its table task (store, sockets,
//! timers); the browser drives [`solo::Solo`], a machine with one person, from a Web Worker
//! (`oh7-wasm`).

pub mod bodies;
pub mod core;
pub mod event;
pub mod machine;
pub mod patch;
pub mod project;
pub mod protocol;
pub mod solo;
pub mod token;
pub mod tutorial;

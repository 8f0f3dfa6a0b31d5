//! The benchmarks behind `oh7 bench`, out of the binary (which only parses their arguments):
//! the engine's random-play throughput (`engine`), the exact solver and a bot's decision time
//! (`solver`), the review's time and signal (`review`), and the load generator that drives a
//! real `oh7 serve` through its WebSocket client (`server`). Speed is measured here and in the
//! criterion benches, never in tests.

pub mod engine;
pub mod review;
pub mod server;
pub mod solver;

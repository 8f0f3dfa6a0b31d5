//! The rules summary of a game in each language, generated from its rules (so that it is true
//! for custom rulesets too): one source for `oh7 rules`, the terminal's `?` and the browser.
//! Reach it through the registry ([`crate::registry::GameSpec::rules_summary`]).

pub mod en;
pub mod fr;

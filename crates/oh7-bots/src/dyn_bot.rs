//! A bot for either game behind one object-safe interface: it reads the game through
//! [`DynGame`] and answers with the action's text, so a holder of `Box<dyn DynGame>` (a server
//! table, a resumed game) can ask it without knowing which game it is.
//!
//! Implemented once, for a [`Bot`] of any [`Game`], by [`ForGame`]; the bot still sees only the
//! seat's view and the legal actions, as everywhere else.

use oh7_core::DynGame;
use oh7_core::game::{Game, Seat};

use crate::Bot;

/// A bot of some game, asked through [`DynGame`] (object safe).
pub trait DynBot: Send {
    /// The bot's name as shown in records (`bot:random`, ...).
    fn name(&self) -> String;
    /// The decision of `seat` as action text, from that seat's view only; `None` if the seat
    /// owes nothing or `game` is not the game this bot plays.
    fn decide(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String>;
}

/// A [`Bot`] of the game `G`, as a [`DynBot`].
pub struct ForGame<G: Game>(pub Box<dyn Bot<G>>);

impl<G: Game + 'static> ForGame<G> {
    /// `bot` as a boxed [`DynBot`].
    pub fn boxed(bot: Box<dyn Bot<G>>) -> Box<dyn DynBot> {
        Box::new(ForGame(bot))
    }
}

impl<G: Game + 'static> DynBot for ForGame<G> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn decide(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let g = game.as_any().downcast_ref::<G>()?;
        let mut legal = Vec::new();
        g.legal_actions(seat, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let view = g.view(seat);
        Some(self.0.choose(&view, &legal).to_string())
    }
}

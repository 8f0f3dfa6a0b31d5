//! Who is at the table: connections attaching with or without a seat token, leaving, coming
//! back, and the grace period after which a bot plays for an away person.

use oh7_core::game::Seat;

use super::commands::After;
use super::{Access, Conn, ConnId, Effect, Machine, Output, Pending, Timer};
use crate::protocol::{ErrorCode, Refusal};

impl Machine {
    /// A person signed in claims the seat whose token this browser kept (a game they played as
    /// a guest before they had the account): the seat is linked to `account` if it is linked to
    /// nobody yet, so the account's pages and ratings follow it. No connection joins and nobody
    /// is told; a seat linked already (to anyone) stays as it is (`Ok(false)`: nothing to write).
    /// A token of no seat here is refused and changes nothing.
    pub fn claim(&mut self, token: &str, account: String) -> Result<(bool, Output), Refusal> {
        let Some(s) = self.core.seats.iter().position(|st| st.token_hash.is_some_and(|h| h.matches(token))) else {
            return Err(Refusal::new(ErrorCode::BadToken, "This seat token is not valid at this table."));
        };
        if self.links.contains_key(&s) {
            return Ok((false, self.take()));
        }
        let version = self.core.version;
        self.out.write = Some(Pending {
            event: None,
            checked: None,
            version,
            link: Some((s, account)),
            after: After::Claim { seat: s },
        });
        Ok((true, self.take()))
    }

    /// A connection joins: with a seat token, at that seat (linked to the connection's account
    /// if the seat is not linked yet: a guest who signed up keeps their seat, and the output
    /// holds that link to write); without one but signed in, at the seat the account holds here
    /// (by the invite link only); else as a guest or spectator. A refusal changes nothing and
    /// the connection stays as it was. Once the output is driven, [`Machine::seat_of`] says
    /// where the connection sits.
    pub fn attach(
        &mut self,
        conn: ConnId,
        access: Access,
        token: Option<&str>,
        account: Option<String>,
    ) -> Result<Output, Refusal> {
        let mut seat = None;
        if let Some(token) = token {
            if access == Access::Watch {
                return Err(Refusal::new(
                    ErrorCode::BadToken,
                    "A spectator link cannot take a seat: use the invite link.",
                ));
            }
            seat = self.core.seats.iter().position(|s| s.token_hash.is_some_and(|h| h.matches(token)));
            let Some(s) = seat else {
                return Err(Refusal::new(ErrorCode::BadToken, "This seat token is not valid at this table."));
            };
            if let Some(a) = account.clone()
                && !self.links.contains_key(&s)
            {
                let after = After::Attach { conn, access, seat: s, account: a.clone() };
                let version = self.core.version;
                self.out.write = Some(Pending { event: None, checked: None, version, link: Some((s, a)), after });
                return Ok(self.take());
            }
        } else if let Some(a) = &account
            && access == Access::Invite
        {
            seat = self.links.iter().find(|(_, held)| *held == a).map(|(s, _)| *s);
        }
        if seat.is_some_and(|s| self.barred.contains(s)) {
            return Err(Refusal::new(
                ErrorCode::Suspended,
                "This seat's account is suspended by the server's operator.",
            ));
        }
        self.join(conn, access, seat, account);
        Ok(self.take())
    }

    /// The operator suspended `account`: every seat it holds here is played by a bot for good,
    /// and the connections at those seats (or signed in as it) leave. Returns the connections
    /// to close, and what to send.
    pub fn suspend(&mut self, account: &str) -> (Vec<ConnId>, Output) {
        let seats: Vec<Seat> = self.links.iter().filter(|(_, a)| a.as_str() == account).map(|(s, _)| *s).collect();
        let mut conns: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat.is_some_and(|s| seats.contains(&s)) || c.account.as_deref() == Some(account))
            .map(|(id, _)| *id)
            .collect();
        conns.sort_unstable();
        for &c in &conns {
            self.leave(c);
        }
        for &s in &seats {
            self.barred.insert(s);
            let st = &mut self.core.seats[s];
            st.away = true;
            st.bot_for_away = true;
            tracing::info!(seat = s, "the seat's account is suspended: a bot plays it");
        }
        if !seats.is_empty() {
            self.presence();
            self.schedule();
        }
        (conns, self.take())
    }

    /// The connection takes its seat (if any) and gets its snapshot.
    pub(super) fn join(&mut self, conn: ConnId, access: Access, seat: Option<Seat>, account: Option<String>) {
        // The others hear that the seat is back; this connection gets the snapshot that says so.
        if let Some(s) = seat {
            self.seat_connected(s);
        }
        self.conns.insert(conn, Conn { seat, access, account });
        self.send_snapshot(conn);
    }

    /// Where a connection sits (`None`: a guest or spectator, or not attached).
    pub fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.conns.get(&conn).and_then(|c| c.seat)
    }

    /// The account signed in on a connection.
    pub fn account_of(&self, conn: ConnId) -> Option<&str> {
        self.conns.get(&conn).and_then(|c| c.account.as_deref())
    }

    pub(super) fn seat_connected(&mut self, s: Seat) {
        let st = &mut self.core.seats[s];
        st.conns += 1;
        if st.away {
            st.away = false;
            st.bot_for_away = false;
            st.away_epoch += 1;
            if self.grace.contains(s) {
                self.grace.remove(s);
                self.out.effects.push(Effect::CancelGrace { seat: s });
            }
            tracing::info!(seat = s, "back at the table");
            self.presence();
        }
    }

    /// A connection closed (or is too slow to keep up: it reconnects and gets a snapshot).
    pub fn detach(&mut self, conn: ConnId) -> Output {
        self.leave(conn);
        self.take()
    }

    pub(super) fn leave(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        self.sat.retain(|(k, _), _| *k != conn);
        if !self.conns.values().any(|o| o.seat == c.seat) {
            // Nobody of this kind watches any more: its document is made anew for the next.
            self.docs.remove(&c.seat);
        }
        if let Some(s) = c.seat {
            let st = &mut self.core.seats[s];
            st.conns = st.conns.saturating_sub(1);
            if st.conns == 0 && !st.away {
                st.away = true;
                st.away_epoch += 1;
                tracing::info!(seat = s, "away");
                self.start_grace(s);
                self.presence();
            }
        }
    }

    pub(super) fn start_grace(&mut self, s: Seat) {
        if self.config.move_deadline_s.is_some() {
            // Turn-based: a person is away most of the time; only the deadline calls a bot.
            return;
        }
        let epoch = self.core.seats[s].away_epoch;
        if self.grace.contains(s) {
            self.out.effects.push(Effect::CancelGrace { seat: s });
        }
        self.grace.insert(s);
        self.out
            .effects
            .push(Effect::Timer { after_ms: self.settings.grace_ms, timer: Timer::Grace { seat: s, epoch } });
    }

    pub(super) fn grace_over(&mut self, seat: Seat, epoch: u64) {
        if self.core.seats[seat].away_epoch == epoch {
            self.grace.remove(seat);
        }
        let st = &mut self.core.seats[seat];
        if st.away && st.away_epoch == epoch && !st.bot_for_away {
            st.bot_for_away = true;
            tracing::info!(seat, "a bot plays for the away seat");
            self.presence();
            self.schedule();
        }
    }
}

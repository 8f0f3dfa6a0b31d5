//! Who is at the table: connections attaching with or without a seat token, leaving, coming
//! back, and the grace period after which a bot plays for an away person.

use oh7_core::game::Seat;
use tokio::sync::mpsc;

use super::{Access, Conn, ConnId, Frame, Table, TableMsg};
use crate::protocol::{ErrorCode, Refusal};
use crate::store::Row;

impl Table {
    /// A connection joins: with a seat token, at that seat (linked to the connection's account
    /// if the seat is not linked yet: a guest who signed up keeps their seat); without one but
    /// signed in, at the seat the account holds here (by the invite link only); else as a guest
    /// or spectator.
    pub(super) async fn attach(
        &mut self,
        conn: ConnId,
        tx: mpsc::Sender<Frame>,
        access: Access,
        token: Option<String>,
        account: Option<String>,
    ) -> Result<Option<Seat>, Refusal> {
        let mut seat = None;
        if let Some(token) = token {
            if access == Access::Watch {
                return Err(Refusal::new(
                    ErrorCode::BadToken,
                    "A spectator link cannot take a seat: use the invite link.",
                ));
            }
            seat = self.core.seats.iter().position(|s| s.token_hash.is_some_and(|h| h.matches(&token)));
            let Some(s) = seat else {
                return Err(Refusal::new(ErrorCode::BadToken, "This seat token is not valid at this table."));
            };
            if let Some(a) = &account
                && !self.links.contains_key(&s)
            {
                self.link(s, a).await;
            }
        } else if let Some(a) = &account
            && access == Access::Invite
        {
            seat = self.links.iter().find(|(_, held)| *held == a).map(|(s, _)| *s);
        }
        // The others hear that the seat is back; this connection gets the snapshot that says so.
        if let Some(s) = seat {
            self.seat_connected(s);
        }
        self.conns.insert(conn, Conn { seat, access, tx, account });
        self.send_snapshot(conn);
        Ok(seat)
    }

    /// Record that `account` holds `seat` (a failed write only logs: the seat stays the
    /// person's by its token).
    async fn link(&mut self, seat: Seat, account: &str) {
        let row = Row::Link { table_id: self.id.clone(), seat, account: account.to_string() };
        match self.store.append(vec![row]).await {
            Ok(()) => {
                self.links.insert(seat, account.to_string());
            }
            Err(e) => tracing::warn!(table = %self.id, seat, error = %e, "could not link the seat to its account"),
        }
    }

    pub(super) fn seat_connected(&mut self, s: Seat) {
        let st = &mut self.core.seats[s];
        st.conns += 1;
        if st.away {
            st.away = false;
            st.bot_for_away = false;
            st.away_epoch += 1;
            if let Some(timer) = self.grace_timers.remove(&s) {
                timer.abort();
            }
            tracing::info!(table = %self.id, seat = s, "back at the table");
            self.presence();
        }
    }

    pub(super) fn detach(&mut self, conn: ConnId) {
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
                tracing::info!(table = %self.id, seat = s, "away");
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
        let me = self.me.clone();
        let grace = self.settings.grace;
        let timer = crate::spawn_here(async move {
            tokio::time::sleep(grace).await;
            let _ = me.send(TableMsg::Grace { seat: s, epoch }).await;
        });
        if let Some(old) = self.grace_timers.insert(s, timer.abort_handle()) {
            old.abort();
        }
    }

    pub(super) fn grace_over(&mut self, seat: Seat, epoch: u64) {
        if self.core.seats[seat].away_epoch == epoch {
            self.grace_timers.remove(&seat);
        }
        let st = &mut self.core.seats[seat];
        if st.away && st.away_epoch == epoch && !st.bot_for_away {
            st.bot_for_away = true;
            tracing::info!(table = %self.id, seat, "a bot plays for the away seat");
            self.presence();
            self.schedule();
        }
    }
}

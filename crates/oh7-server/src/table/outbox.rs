//! The messages: every frame a connection gets is a [`ServerMsg`]. Each kind of viewer (a seat,
//! or spectators and guests) has its document as last sent; a change sends each viewer only
//! the patch from that document to the new one, and a viewer with no document yet (a new
//! connection, a guest who just sat) gets a snapshot instead.

use std::collections::HashMap;

use oh7_core::game::Seat;

use super::{Access, ConnId, Frame, Table};
use crate::patch::diff_into;
use crate::project::{Happened, Sight, TableInfo, sight, table_part, told};
use crate::protocol::{Links, PROTOCOL, Refusal, ServerMsg};

impl Table {
    /// Public facts about the table (no codes, no tokens, no cards).
    pub(crate) fn info(&self) -> TableInfo {
        let deadline_ms = self
            .rematch_deadline
            .and_then(|d| d.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as u64);
        self.core.info(&self.config, &self.ruleset, deadline_ms, self.settings.rematch_wait.as_secs())
    }

    pub(super) fn reply(&self, conn: ConnId, msg: &ServerMsg) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.tx.try_send(msg.frame());
        }
    }

    pub(super) fn refuse(&self, conn: ConnId, id: Option<&str>, r: Refusal) {
        metrics::counter!(crate::metrics::REFUSALS, "code" => r.code.as_str()).increment(1);
        self.reply(conn, &r.to_msg(id, Some(self.core.version)));
    }

    fn snapshot_of(&self, seen: &Sight, you: Option<Seat>, access: Access) -> ServerMsg {
        let links = match access {
            Access::Invite => Links { invite: Some(self.join_code.clone()), watch: self.watch_code.clone() },
            Access::Watch => Links { invite: None, watch: self.watch_code.clone() },
        };
        ServerMsg::Snapshot {
            protocol: PROTOCOL,
            version: self.core.version,
            you,
            table: self.table_part.clone(),
            view: seen.view(),
            legal: seen.legal(),
            chat: self.core.chat.iter().cloned().collect(),
            links,
        }
    }

    pub(super) fn send_snapshot(&mut self, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else { return };
        let (seat, access) = (c.seat, c.access);
        self.note_info(self.info());
        let seen = sight(self.core.game.as_deref(), seat);
        let frame = self.snapshot_of(&seen, seat, access).frame();
        self.docs.insert(seat, seen);
        if self.conns.get(&conn).is_some_and(|c| c.tx.try_send(frame).is_err()) {
            self.detach(conn);
        }
    }

    /// The table information as sent from now on.
    fn note_info(&mut self, info: TableInfo) {
        self.table_part = table_part(&info);
        self.last_info = Some(info);
    }

    /// Tell every connection what happened, each through its own seat's projection.
    pub(super) fn broadcast(&mut self, happened: &Happened) {
        self.tell(Some(happened));
    }

    /// Tell every connection that the table information changed (someone left or came back).
    pub(super) fn presence(&mut self) {
        self.tell(None);
    }

    fn tell(&mut self, happened: Option<&Happened>) {
        let began = std::time::Instant::now();
        let version = self.core.version;
        let chat_only = matches!(happened, Some(Happened::Chat { .. }));
        // The table information is the same for every viewer: its patch is made once.
        let mut common = serde_json::Map::new();
        if !chat_only {
            // Compared typed first: most changes leave the table information as it was.
            let info = self.info();
            if self.last_info.as_ref() != Some(&info) {
                let table = table_part(&info);
                diff_into("t", &self.table_part, &table, &mut common);
                self.table_part = table;
                self.last_info = Some(info);
            }
        }
        // Per kind of viewer: the frame for its connections, or `None` for a snapshot.
        let mut frames: HashMap<Option<Seat>, Option<Frame>> = HashMap::new();
        for c in self.conns.values() {
            if frames.contains_key(&c.seat) {
                continue;
            }
            let frame = match self.docs.get_mut(&c.seat) {
                // A chat line changes no document.
                Some(_) if chat_only => {
                    let h = happened.expect("a chat line happened");
                    Some(ServerMsg::Event { version, event: told(h, c.seat), patch: Default::default() }.frame())
                }
                Some(seen) => {
                    let new = sight(self.core.game.as_deref(), c.seat);
                    let mut patch = common.clone();
                    seen.diff_into(&new, &mut patch);
                    *seen = new;
                    Some(
                        match happened {
                            Some(h) => ServerMsg::Event { version, event: told(h, c.seat), patch },
                            None => ServerMsg::Presence { version, patch },
                        }
                        .frame(),
                    )
                }
                None => {
                    self.docs.insert(c.seat, sight(self.core.game.as_deref(), c.seat));
                    None
                }
            };
            frames.insert(c.seat, frame);
        }
        let mut dead = Vec::new();
        for (&id, c) in &self.conns {
            let frame = match &frames[&c.seat] {
                Some(f) => f.clone(),
                None => self.snapshot_of(&self.docs[&c.seat], c.seat, c.access).frame(),
            };
            if c.tx.try_send(frame).is_err() {
                dead.push(id);
            }
        }
        // A client too slow to keep up is dropped; it reconnects and gets a snapshot.
        for id in dead {
            self.detach(id);
        }
        metrics::histogram!(crate::metrics::BROADCAST).record(began.elapsed());
    }

    /// Tell every connection the server is stopping.
    pub(super) fn closing(&self, reason: crate::protocol::ClosingReason) {
        let f = reason.msg(self.core.version).frame();
        for c in self.conns.values() {
            let _ = c.tx.try_send(f.clone());
        }
    }
}

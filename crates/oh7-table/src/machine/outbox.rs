//! The messages: every message a connection gets is a [`ServerMsg`] made here. Each kind of
//! viewer (a seat, or spectators and guests) has its document as last sent; a change sends each
//! viewer only the patch from that document to the new one, and a viewer with no document yet
//! (a new connection, a guest who just sat) gets a snapshot instead.

use std::collections::BTreeMap;

use oh7_core::game::Seat;

use super::{Access, ConnId, Effect, Machine};
use crate::patch::diff_into;
use crate::project::{Happened, Sight, sight, table_part, told};
use crate::protocol::{Links, PROTOCOL, Refusal, ServerMsg, Told};

impl Machine {
    pub(super) fn reply(&mut self, conn: ConnId, msg: ServerMsg) {
        if self.conns.contains_key(&conn) {
            self.out.effects.push(Effect::Send { to: vec![conn], msg });
        }
    }

    pub(super) fn refuse(&mut self, conn: ConnId, id: Option<&str>, r: Refusal) {
        let msg = r.to_msg(id, Some(self.core.version));
        self.reply(conn, msg);
    }

    fn snapshot_of(&self, seen: &Sight, you: Option<Seat>, access: Access) -> ServerMsg {
        let links = match access {
            // A table with no invite code (a solo table) has no link to give.
            Access::Invite if !self.join_code.is_empty() => {
                Links { invite: Some(self.join_code.clone()), watch: self.watch_code.clone() }
            }
            Access::Invite => Links { invite: None, watch: self.watch_code.clone() },
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
        // The table part is one document shared by every viewer: if it changed since it was last
        // told, the others are told first, so that none of them is left a patch behind.
        if self.last_info.is_some() && self.last_info != Some(self.info()) {
            let c = self.conns.remove(&conn).expect("the connection is here");
            self.presence();
            self.conns.insert(conn, c);
        }
        if self.last_info.is_none() {
            let info = self.info();
            self.table_part = table_part(&info);
            self.last_info = Some(info);
        }
        let seen = sight(self.core.game.as_deref(), seat);
        let msg = self.snapshot_of(&seen, seat, access);
        self.docs.insert(seat, seen);
        self.out.effects.push(Effect::Send { to: vec![conn], msg });
    }

    /// Tell every connection what happened (`None`: only the table information may have
    /// changed), each through its own seat's projection.
    pub(super) fn broadcast(&mut self, happened: Option<&Happened>) {
        self.tell(happened);
    }

    /// Tell every connection that the table information changed (someone left or came back).
    pub(super) fn presence(&mut self) {
        self.tell(None);
    }

    fn tell(&mut self, happened: Option<&Happened>) {
        let version = self.core.version;
        let chat_only = matches!(happened, Some(Happened::Public(Told::Chat { .. })));
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
        // The connections of each kind of viewer (and, for a snapshot, of each access), in a
        // fixed order.
        let mut kinds: BTreeMap<(Option<Seat>, bool), Vec<ConnId>> = BTreeMap::new();
        for (&id, c) in &self.conns {
            kinds.entry((c.seat, c.access == Access::Watch)).or_default().push(id);
        }
        let mut done: BTreeMap<Option<Seat>, Option<ServerMsg>> = BTreeMap::new();
        for ((seat, watch), mut to) in kinds {
            to.sort_unstable();
            if let std::collections::btree_map::Entry::Vacant(slot) = done.entry(seat) {
                let msg = match self.docs.get_mut(&seat) {
                    // A chat line changes no document.
                    Some(_) if chat_only => {
                        happened.map(|h| ServerMsg::Event { version, event: told(h, seat), patch: Default::default() })
                    }
                    Some(seen) => {
                        let new = sight(self.core.game.as_deref(), seat);
                        let mut patch = common.clone();
                        seen.diff_into(&new, &mut patch);
                        *seen = new;
                        Some(match happened {
                            Some(h) => ServerMsg::Event { version, event: told(h, seat), patch },
                            None => ServerMsg::Presence { version, patch },
                        })
                    }
                    None => {
                        self.docs.insert(seat, sight(self.core.game.as_deref(), seat));
                        None
                    }
                };
                slot.insert(msg);
            }
            let msg = match &done[&seat] {
                Some(m) => m.clone(),
                None => {
                    let access = if watch { Access::Watch } else { Access::Invite };
                    self.snapshot_of(&self.docs[&seat], seat, access)
                }
            };
            self.out.effects.push(Effect::Send { to, msg });
        }
    }
}

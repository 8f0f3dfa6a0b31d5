//! The public room's side of the lobby: the open tables list and joining one, and quick match
//! (people join the queue; each round, on whichever instance runs it, seats groups at new
//! tables whose seats their accounts hold, dealt at once).

use oh7_bots::GameBots;
use oh7_core::registry::{GameRequest, GameSpec};
use oh7_table::bodies::Listing;
use oh7_table::event::{Event, LOG_FORMAT};
use oh7_table::protocol::{ErrorCode, Refusal};
use serde::{Deserialize, Serialize};

use super::Lobby;
use crate::room::matching::{self, Group, Waiting};
use crate::secrets::{TokenHash, new_code, new_secret, new_seed};
use crate::table::TableConfig;

/// Open tables a list holds at most.
pub(crate) const LISTED: i64 = 100;
/// A quick-match table's hours per decision when turn-based.
pub(crate) const MATCH_MOVE_HOURS: u64 = 24;
/// A person in the queue whose page has not asked for news this long has left it.
pub(crate) const QUEUE_SILENCE_MS: i64 = 30_000;
/// How often a waiting person's presence is written.
pub(crate) const SEEN_EVERY_MS: i64 = 5_000;
/// A match is shown to its person this long.
pub(crate) const MATCH_SHOWN_MS: i64 = 10 * 60 * 1000;

/// An open table in the list: its public facts, its spectator code and its host's rating.
#[derive(Debug, Serialize)]
pub(crate) struct OpenTable {
    /// The table's public code.
    pub watch: String,
    /// Its facts.
    #[serde(flatten)]
    pub listing: Listing,
    /// The host's rating in the table's family (shown: `mu − 3σ`), if they have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_rating: Option<f64>,
}

/// `POST /api/match`: what a person waits for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuickMatch {
    /// The family of rules: `oh7:en`, `oh7:fr`, `oh7:fr-advanced`, `oh7:kod7`, `oh7:bga` or
    /// `seven`.
    pub family: String,
    /// A turn-based table (24 hours a decision) rather than a live one.
    #[serde(default)]
    pub turn_based: bool,
    /// A rated table.
    #[serde(default)]
    pub rated: bool,
    /// Seconds after which bots fill the empty seats (left out: never).
    pub bots_after_s: Option<u64>,
}

/// `GET /api/match`: where a person stands.
#[derive(Debug, Serialize, PartialEq)]
#[serde(tag = "state", rename_all = "lowercase")]
pub(crate) enum MatchState {
    /// Not in the queue.
    Idle,
    /// Waiting.
    Waiting {
        /// What for.
        family: String,
        /// Turn-based.
        turn_based: bool,
        /// Rated.
        rated: bool,
        /// Bots after this many seconds.
        #[serde(skip_serializing_if = "Option::is_none")]
        bots_after_s: Option<u64>,
        /// Seconds waited.
        waited_s: u64,
        /// The rating range (either side, in the shown scale's points) promised now.
        range: f64,
    },
    /// Seated: the table's invite.
    Matched {
        /// The invite code.
        invite: String,
    },
}

/// The game and rules of a family name, with the seat counts they allow.
fn family_spec(family: &str) -> Option<(GameSpec, (usize, usize))> {
    let (game, preset) = match family.split_once(':') {
        Some((g, p)) => (g, Some(p)),
        None => (family, None),
    };
    let spec = GameSpec::from_request(&GameRequest { game: Some(game), preset, ruleset: None, options: &[] }).ok()?;
    if crate::ratings::family(spec.game_name(), &spec.label()) != family {
        return None;
    }
    let sizes = spec.player_range()?;
    Some((spec, sizes))
}

fn now_ms(lobby: &Lobby) -> i64 {
    lobby.settings.clock.now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A person's state while they wait.
fn waiting(w: Waiting, now: i64) -> MatchState {
    let waited = now - w.joined_ms;
    MatchState::Waiting {
        family: w.family,
        turn_based: w.turn_based,
        rated: w.rated,
        bots_after_s: w.bots_after_s,
        waited_s: (waited.max(0) / 1000) as u64,
        range: matching::range(waited),
    }
}

fn storage() -> Refusal {
    Refusal::new(ErrorCode::Storage, "The server could not read or save this; try again.")
}

impl Lobby {
    /// The public room's store.
    pub(crate) fn room(&self) -> &dyn crate::room::RoomStore {
        self.store.room()
    }

    /// The open tables waiting for players, newest first, less those of people `viewer` blocks
    /// or who block `viewer`.
    pub(crate) async fn open_tables(&self, viewer: Option<&str>) -> Result<Vec<OpenTable>, Refusal> {
        let rows = self.room().open_tables(viewer, LISTED).await.map_err(|_| storage())?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let listing: Listing = serde_json::from_str(&r.facts).ok()?;
                Some(OpenTable {
                    watch: r.watch,
                    listing,
                    host_rating: r.host_rating.map(|(mu, sigma)| crate::ratings::shown(mu, sigma)),
                })
            })
            .collect())
    }

    /// The invite of the open table `watch`, to sit at it (`not_open` once it no longer waits;
    /// one whose host `viewer` blocks, or who blocks `viewer`, is not open to them).
    pub(crate) async fn join_open(&self, watch: &str, viewer: Option<&str>) -> Result<String, Refusal> {
        let not_open = || Refusal::new(ErrorCode::NotOpen, "This table is no longer open.");
        let invite = self.room().open_invite(watch).await.map_err(|_| storage())?.ok_or_else(not_open)?;
        if let Some(v) = viewer
            && let Some(host) = self.room().open_host(watch).await.map_err(|_| storage())?
            && host != v
            && self.room().blocks_between(v, &host).await.map_err(|_| storage())?
        {
            return Err(not_open());
        }
        Ok(invite)
    }

    /// The person at `seat` of the table of `code`: their name, and their account if they
    /// hold the seat with one (`unknown_player`: nobody sits there).
    pub(crate) async fn seat_person(&self, code: &str, seat: usize) -> Result<(String, Option<String>), Refusal> {
        let nobody = || Refusal::new(ErrorCode::UnknownPlayer, "Nobody sits at this seat.");
        let info =
            self.info(code).await.map_err(|_| Refusal::new(ErrorCode::UnknownTable, "No table has this code."))?;
        let name = info.seats.get(seat).and_then(|s| s.name.clone()).ok_or_else(nobody)?;
        let id = self.store.find_code(code).await.map_err(|_| storage())?.ok_or_else(nobody)?;
        let links = self.accounts().links(&id).await.map_err(|_| storage())?;
        Ok((name, links.into_iter().find(|(s, _)| *s == seat).map(|(_, a)| a)))
    }

    /// `account` joins the quick-match queue (or waits anew for something else).
    pub(crate) async fn join_queue(&self, account: &crate::accounts::Account, q: QuickMatch) -> Result<(), Refusal> {
        let Some((_spec, _)) = family_spec(&q.family) else {
            return Err(Refusal::new(
                ErrorCode::UnknownPreset,
                "Choose a family of rules: oh7:en, oh7:fr, oh7:fr-advanced, oh7:kod7, oh7:bga or seven.",
            )
            .param("preset", q.family.chars().take(20).collect::<String>()));
        };
        if q.bots_after_s.is_some_and(|s| s > 3600) {
            return Err(Refusal::new(ErrorCode::BadRequest, "Bots fill the seats after at most 3600 seconds."));
        }
        if self.room().is_suspended(&account.id).await.map_err(|_| storage())? {
            return Err(Refusal::new(ErrorCode::Suspended, "This account is suspended by the server's operator."));
        }
        let ratings = self.accounts().ratings_of(&account.id).await.map_err(|_| storage())?;
        // The queue compares mu; a person new to the family has the starting 25.
        let mu = ratings.iter().find(|r| r.family == q.family).map_or(25.0, |r| r.mu);
        let w = Waiting {
            account: account.id.clone(),
            name: account.name.clone(),
            family: q.family,
            turn_based: q.turn_based,
            rated: q.rated,
            bots_after_s: q.bots_after_s,
            mu,
            joined_ms: now_ms(self),
        };
        self.room().enqueue(&w, w.joined_ms).await.map_err(|_| storage())
    }

    /// `account` leaves the queue (a match already made stays made).
    pub(crate) async fn leave_queue(&self, account: &str) -> Result<bool, Refusal> {
        self.room().leave_queue(account).await.map_err(|_| storage())
    }

    /// Where `account` stands (asking counts as being there: a page that stops asking leaves).
    pub(crate) async fn match_state(&self, account: &str) -> Result<MatchState, Refusal> {
        let now = now_ms(self);
        let Some(place) = self.room().place(account).await.map_err(|_| storage())? else {
            return Ok(MatchState::Idle);
        };
        if let Some(invite) = place.matched {
            // Told once its table is written (a round claims its people first, then makes it).
            if place.matched_ms.is_some_and(|m| now - m < MATCH_SHOWN_MS) {
                if self.store.find_code(&invite).await.map_err(|_| storage())?.is_some() {
                    return Ok(MatchState::Matched { invite });
                }
                return Ok(waiting(place.waiting, now));
            }
            self.room().forget_match(account).await.map_err(|_| storage())?;
            return Ok(MatchState::Idle);
        }
        // Written at most every few seconds: a page asks every second or two.
        if now - place.seen_ms >= SEEN_EVERY_MS {
            self.room().seen(account, now).await.map_err(|_| storage())?;
        }
        Ok(waiting(place.waiting, now))
    }

    /// What the operator did since `since` (Unix seconds) reaches the tables loaded here:
    /// a suspended account's seats are played by bots, a closed table stops. Returns the time
    /// to look from next.
    pub(crate) async fn sweep_operator(&self, since: i64) -> i64 {
        // A second's overlap: something written in the second of the last look is seen again
        // (suspending twice, or closing a stopped table, changes nothing).
        let next = self.settings.clock.now_s() - 1;
        let (suspended, closed) =
            match (self.room().suspended_since(since).await, self.room().closed_since(since).await) {
                (Ok(s), Ok(c)) => (s, c),
                (Err(e), _) | (_, Err(e)) => {
                    tracing::warn!(error = %e, "could not read the operator's suspensions and closures");
                    return since;
                }
            };
        let loaded = self.handles_by_id().await;
        for id in closed {
            if let Some(h) = loaded.get(&id) {
                let _ = h.tx.send(crate::table::TableMsg::Close).await;
            }
        }
        for (account, _) in suspended {
            for h in loaded.values() {
                let _ = h.tx.send(crate::table::TableMsg::Suspend { account: account.clone() }).await;
            }
        }
        next
    }

    /// One round of quick match: groups are claimed (alone, whichever instance runs it) and
    /// each is seated at a new table, dealt at once. Returns the groups seated.
    pub(crate) async fn match_round(&self) -> Vec<Group> {
        let now = now_ms(self);
        let sizes = |f: &str| family_spec(f).map(|(_, s)| s);
        let plan =
            |waiting: &[Waiting], blocks: &[(String, String)]| matching::plan(waiting, blocks, now, &sizes, new_code);
        let groups = match self.room().claim(&plan, now, now - QUEUE_SILENCE_MS).await {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!(error = %e, "a quick-match round failed");
                return Vec::new();
            }
        };
        let mut seated = Vec::with_capacity(groups.len());
        for g in groups {
            match self.seat_group(&g).await {
                Ok(()) => seated.push(g),
                Err(r) => {
                    tracing::error!(error = %r.message, "a quick-match table could not be made; its people wait again");
                    if let Err(e) = self.room().unclaim(&g.invite).await {
                        tracing::error!(error = %e, "could not put a group back in the queue");
                    }
                }
            }
        }
        seated
    }

    /// Make a group's table: its people in the first seats (their accounts hold them), bots in
    /// the others, dealt at once.
    async fn seat_group(&self, g: &Group) -> Result<(), Refusal> {
        let (spec, _) = family_spec(&g.family).ok_or_else(storage)?;
        // A strong bot that answers at once (the strongest levels think for a second or more).
        let level = if spec.offers(oh7_bots::Level::Hard) { oh7_bots::Level::Hard } else { spec.strongest_level() };
        let seats: Vec<Option<oh7_bots::Level>> =
            (0..g.players).map(|s| if s < g.members.len() { None } else { Some(level) }).collect();
        let lang = if spec.label().starts_with("fr") { "fr" } else { "en" };
        let config = TableConfig {
            spec,
            players: g.players,
            seats,
            lang: lang.into(),
            turn_clock_s: None,
            log: LOG_FORMAT,
            rated: g.rated,
            move_deadline_s: g.turn_based.then_some(MATCH_MOVE_HOURS * 3600),
            open: false,
        };
        let mut events: Vec<Event> = g
            .members
            .iter()
            .enumerate()
            .map(|(seat, m)| Event::Join { seat, name: m.name.clone(), token_hash: TokenHash::of(&new_secret()) })
            .collect();
        events.push(Event::Start { seat: None, id: None, seed: new_seed(), fill: None });
        let links = g.members.iter().enumerate().map(|(s, m)| (s, m.account.clone())).collect();
        self.store_new_table(&config, events, links, g.invite.clone(), new_code()).await?;
        tracing::info!(players = g.players, people = g.members.len(), "quick match seated a table");
        Ok(())
    }
}

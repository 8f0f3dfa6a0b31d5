//! Reviews of a person's decisions after a game of either kind (`oh7_review`), computed on the blocking
//! pool: at most [`crate::Settings::review_jobs`] at once, the others waiting in line (each told
//! its place), one job per seat and game however often it is asked (later askers follow the
//! running job), and a finished review stored, so it is computed once. A review is read only
//! through the code of its link, which only the reviewed seat's connections are given.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use oh7_core::game::Seat;
use oh7_review::{Review, ReviewLevel, ReviewOptions, review_record};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Semaphore, mpsc};

use crate::secrets::new_code;
use crate::store::SharedStore;
use crate::store::{Row, StoredReview};
use oh7_table::protocol::{Frame, ReviewState, ReviewStatus, ServerMsg};

/// What the review page reads: the review, the game's record (public once the game is over) and
/// the table's facts.
#[derive(Debug, Serialize)]
pub(crate) struct ReviewPage<'a> {
    /// The review.
    pub review: &'a Review,
    /// The game's record.
    pub record: &'a Value,
    /// The table.
    pub table: ReviewTable,
}

/// The table's facts a review page shows.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ReviewTable {
    /// The preset's name.
    pub preset: String,
    /// The table's language.
    pub lang: String,
    /// Players.
    pub players: usize,
    /// The seats' names.
    pub names: Vec<String>,
}

/// A review asked for.
pub(crate) struct Job {
    /// The table.
    pub table_id: String,
    /// The game at the table, from 1.
    pub game: u32,
    /// The seat reviewed.
    pub seat: Seat,
    /// The game's record.
    pub record: Value,
    /// The table's facts.
    pub table: ReviewTable,
    /// The table's version (carried by the messages; reviews do not change it).
    pub version: u64,
    /// Where the asker's messages go.
    pub tx: mpsc::Sender<Frame>,
}

type Key = (String, u32, Seat);

/// A person's lock: their reviews run one at a time.
type PersonLock = Arc<tokio::sync::Mutex<()>>;

/// The review service of a server.
pub(crate) struct Reviews {
    store: SharedStore,
    level: ReviewLevel,
    jobs: Arc<Semaphore>,
    waiting: AtomicUsize,
    /// Running or waiting jobs, with who follows each.
    active: Mutex<HashMap<Key, Vec<mpsc::Sender<Frame>>>>,
    /// One job per person at a time: a lock per table and seat (their other games wait).
    persons: Mutex<HashMap<(String, Seat), PersonLock>>,
}

fn msg(version: u64, game: u32, seat: Seat, state: ReviewState) -> ReviewStatus {
    ReviewStatus { version, game, seat, state, ..ReviewStatus::default() }
}

impl Reviews {
    /// A review service writing to `store`, reviewing with `level`, `jobs` at once.
    pub(crate) fn new(store: SharedStore, level: ReviewLevel, jobs: usize) -> Arc<Reviews> {
        Arc::new(Reviews {
            store,
            level,
            jobs: Arc::new(Semaphore::new(jobs.max(1))),
            waiting: AtomicUsize::new(0),
            active: Mutex::new(HashMap::new()),
            persons: Mutex::new(HashMap::new()),
        })
    }

    /// The page of the review behind `share` (JSON), if there is one.
    pub(crate) async fn page(&self, share: &str) -> Option<String> {
        if share.len() != 32 || !share.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.store.review(share).await.ok().flatten().map(|r| r.body)
    }

    fn tell(&self, key: &Key, m: &ServerMsg) {
        let frame = m.frame();
        if let Some(subs) = self.active.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            for tx in subs {
                let _ = tx.try_send(frame.clone());
            }
        }
    }

    /// Answer a request: at once if the review is stored, else join or start its job.
    pub(crate) fn request(self: &Arc<Self>, job: Job) {
        let me = self.clone();
        crate::settings::spawn_here(async move { me.run(job).await });
    }

    async fn run(self: Arc<Self>, job: Job) {
        let Job { table_id, game, seat, record, table, version, tx } = job;
        if let Ok(Some(share)) = self.store.review_code(&table_id, game, seat, self.level.name()).await {
            let _ = tx
                .send(
                    ServerMsg::Review(ReviewStatus {
                        share: Some(share),
                        ..msg(version, game, seat, ReviewState::Done)
                    })
                    .frame(),
                )
                .await;
            return;
        }
        let key: Key = (table_id.clone(), game, seat);
        {
            let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(subs) = active.get_mut(&key) {
                // Running or waiting already: follow it.
                subs.push(tx);
                return;
            }
            active.insert(key.clone(), vec![tx]);
        }
        let queued = crate::metrics::Held::new(crate::metrics::REVIEWS_QUEUED);
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        self.tell(
            &key,
            &ServerMsg::Review(ReviewStatus {
                position: Some(ahead + 1),
                ..msg(version, game, seat, ReviewState::Queued)
            }),
        );
        // One job per person at a time: their review of another game goes first.
        let person = {
            let mut persons = self.persons.lock().unwrap_or_else(|e| e.into_inner());
            persons.retain(|_, m| Arc::strong_count(m) > 1);
            persons.entry((table_id.clone(), seat)).or_default().clone()
        };
        let _mine = person.lock().await;
        let permit = self.jobs.clone().acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        drop(queued);
        let Ok(_permit) = permit else { return };
        let _running = crate::metrics::Held::new(crate::metrics::REVIEWS_RUNNING);
        self.tell(
            &key,
            &ServerMsg::Review(ReviewStatus {
                done: Some(0),
                total: None,
                ..msg(version, game, seat, ReviewState::Running)
            }),
        );
        let opts = ReviewOptions { level: self.level, ..ReviewOptions::default() };
        let me = self.clone();
        let k = key.clone();
        let rec = record.clone();
        let result = tokio::task::spawn_blocking(move || {
            let progress = |done: usize, total: usize| {
                me.tell(
                    &k,
                    &ServerMsg::Review(ReviewStatus {
                        done: Some(done),
                        total: Some(total),
                        ..msg(version, game, seat, ReviewState::Running)
                    }),
                );
            };
            review_record(&rec, seat, &opts, &progress)
        })
        .await;
        let end = match result {
            Ok(Ok(review)) => {
                let body = serde_json::to_string(&ReviewPage { review: &review, record: &record, table })
                    .expect("a review page serializes");
                let share = new_code();
                let row = StoredReview {
                    table_id: table_id.clone(),
                    game,
                    seat,
                    level: self.level.name().to_string(),
                    share: share.clone(),
                    body,
                };
                match self.store.append(vec![Row::Review(row)]).await {
                    // Stored by another job meanwhile (`INSERT OR IGNORE`): its code is the one.
                    Ok(()) => match self.store.review_code(&table_id, game, seat, self.level.name()).await {
                        Ok(Some(code)) => ServerMsg::Review(ReviewStatus {
                            share: Some(code),
                            ..msg(version, game, seat, ReviewState::Done)
                        }),
                        _ => ServerMsg::Review(ReviewStatus {
                            share: Some(share),
                            ..msg(version, game, seat, ReviewState::Done)
                        }),
                    },
                    Err(e) => {
                        tracing::error!(table = %table_id, error = %e, "a review could not be stored");
                        ServerMsg::Review(ReviewStatus {
                            message: Some("The review could not be saved; try again.".into()),
                            ..msg(version, game, seat, ReviewState::Failed)
                        })
                    }
                }
            }
            Ok(Err(e)) => ServerMsg::Review(ReviewStatus {
                message: Some(e.to_string()),
                ..msg(version, game, seat, ReviewState::Failed)
            }),
            Err(_) => ServerMsg::Review(ReviewStatus {
                message: Some("The review stopped unexpectedly; try again.".into()),
                ..msg(version, game, seat, ReviewState::Failed)
            }),
        };
        self.tell(&key, &end);
        self.active.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
    }
}

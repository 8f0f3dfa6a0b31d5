//! Turn notices by email (`docs/accounts.md`): when the server is given an SMTP relay
//! (`--smtp HOST:PORT`), a signed-in person with an email address is told by mail when a
//! turn-based table waits for their decision. The mail carries the table's rules, the
//! deadline and the link to the table, nothing of the game (no card, no bet, no one's hand).
//!
//! A turn is told once it has waited `Settings::notice_after` (15 minutes unless set): a decision
//! made at once needs no mail.
//!
//! Once per turn: the deadline sweep reads the deadlines whose seat's account has an address
//! and no notice yet, claims each notice's key (`notices`: table, seat and the version since
//! which the seat owes) in the database, and sends only the ones it claimed, so two instances
//! sweeping at once send one mail. A mail the relay refuses gives its claim back (it is tried
//! again at the next sweep); one lost in a crash between the claim and the send is not sent.
//!
//! Plain SMTP to a relay the operator runs (Postfix, msmtpd, a provider's local agent): the
//! relay does TLS and authentication; no TLS stack is compiled into oh7.

use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::db::StoreError;

pub use crate::accounts::Notice;

/// The mail sender of a server.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// Why a mail setting cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MailSettingError {
    /// `--smtp` is not `HOST:PORT` (or `HOST`).
    #[error("--smtp {0}: give the relay as HOST:PORT (or HOST, port 25)")]
    Relay(String),
    /// `--mail-from` is not an address.
    #[error("--mail-from {0}: not an email address ({1})")]
    From(String, String),
}

impl Mailer {
    /// A sender through the relay `relay` (`HOST:PORT` or `HOST`), from `from`.
    pub fn new(relay: &str, from: &str) -> Result<Mailer, MailSettingError> {
        let (host, port) = match relay.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().map_err(|_| MailSettingError::Relay(relay.to_string()))?),
            None => (relay, 25),
        };
        if host.is_empty() || host.contains('/') {
            return Err(MailSettingError::Relay(relay.to_string()));
        }
        let from: Mailbox = from
            .parse()
            .map_err(|e: lettre::address::AddressError| MailSettingError::From(from.to_string(), e.to_string()))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .timeout(Some(Duration::from_secs(20)))
            .build();
        Ok(Mailer { transport, from })
    }

    /// Send one notice; `base` is the server's public address (`https://host`).
    pub async fn send(&self, n: &Notice, base: &str) -> Result<(), String> {
        let to: Mailbox = n.email.parse().map_err(|e: lettre::address::AddressError| e.to_string())?;
        let (subject, body) = notice_text(n, base);
        let m = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| e.to_string())?;
        self.transport.send(m).await.map(|_| ()).map_err(|e| e.to_string())
    }
}

/// Whether `email` is an address a mail can go to (what `POST /api/account/email` accepts).
pub fn valid_address(email: &str) -> bool {
    email.len() <= 254 && email.parse::<lettre::Address>().is_ok()
}

/// A notice's subject and text, in the table's language: the rules, the deadline (UTC) and
/// the link, nothing of the game.
pub fn notice_text(n: &Notice, base: &str) -> (String, String) {
    let c: Option<oh7_table::core::TableConfig> = serde_json::from_str(&n.config).ok();
    let rules = c.as_ref().map(|c| c.spec.label()).unwrap_or_default();
    let french = c.as_ref().is_some_and(|c| c.lang == "fr");
    let link = format!("{}/t/{}", base.trim_end_matches('/'), n.invite);
    let due = utc(n.due_at);
    if french {
        (
            format!("oh7 : à vous de jouer ({rules})"),
            format!(
                "Bonjour {},\n\nUne table au long cours ({rules}) attend votre décision, avant le {due} (UTC) ; \
                 passé ce délai, un robot décide pour vous.\n\nOuvrir la table : {link}\n\n-- oh7\n",
                n.name
            ),
        )
    } else {
        (
            format!("oh7: your turn ({rules})"),
            format!(
                "Hello {},\n\nA turn-based table ({rules}) waits for your decision, due {due} (UTC); \
                 after that a bot makes it for you.\n\nOpen the table: {link}\n\n-- oh7\n",
                n.name
            ),
        )
    }
}

/// `YYYY-MM-DD HH:MM` of a Unix time, UTC.
pub fn utc(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", secs / 3600, secs % 3600 / 60)
}

/// Send the notices due (each claimed first; see the module's text); `base` is the server's
/// public address.
/// `now` in Unix seconds; a notice waits `quiet` seconds of the turn first.
pub(crate) async fn send_notices(
    accounts: &dyn crate::accounts::AccountStore,
    now: i64,
    quiet: Duration,
    mailer: &Mailer,
    base: &str,
) -> Result<usize, StoreError> {
    let quiet = quiet.as_secs() as i64;
    let mut sent = 0;
    for n in accounts.notices_due().await? {
        // Told only once the turn has waited `notice_after`: a decision made at once needs no mail.
        let Some(move_s) =
            serde_json::from_str::<oh7_table::core::TableConfig>(&n.config).ok().and_then(|c| c.move_deadline_s)
        else {
            continue;
        };
        if now < n.due_at - move_s as i64 + quiet {
            continue;
        }
        if !accounts.claim_notice(&n.table_id, n.seat, n.since, now).await? {
            continue;
        }
        match mailer.send(&n, base).await {
            Ok(()) => {
                sent += 1;
                tracing::info!(table = %n.table_id, seat = n.seat, "turn notice mailed");
            }
            Err(e) => {
                tracing::warn!(table = %n.table_id, seat = n.seat, error = %e, "a turn notice could not be mailed; tried again at the next sweep");
                accounts.unclaim_notice(&n.table_id, n.seat, n.since).await?;
            }
        }
    }
    Ok(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00");
        // Python: datetime.fromtimestamp(1796000000, UTC) is 2026-11-30 00:53.
        assert_eq!(utc(1_796_000_000), "2026-11-30 00:53");
    }

    #[test]
    fn settings_are_checked() {
        assert!(Mailer::new("127.0.0.1:2525", "oh7 <oh7@example.org>").is_ok());
        assert!(Mailer::new("mail.example.org", "oh7@example.org").is_ok());
        assert!(matches!(Mailer::new("smtp://x:y", "a@b.c"), Err(MailSettingError::Relay(_))));
        assert!(matches!(Mailer::new("x:2525", "not an address"), Err(MailSettingError::From(..))));
        assert!(valid_address("ann@example.org"));
        assert!(!valid_address("ann"));
        assert!(!valid_address("ann@example.org\r\nBcc: eve@example.org"));
    }
}

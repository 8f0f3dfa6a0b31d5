//! The account routes (`/api/account/...`, and the player pages' routes): each handler reads the
//! request, asks the accounts' store and rules ([`crate::accounts`]), and answers; the session
//! cookie is read and written here only.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::accounts::*;
use crate::app::{App, ClientIp};
use crate::db::StoreError;
use crate::secrets::{new_code, new_secret};
use oh7_table::protocol::{ErrorCode, Refusal};

/// The account routes (the player pages' are [`super::players::routes`]).
pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account", get(me).delete(delete))
        .route("/api/account/signup", post(signup))
        .route("/api/account/signin", post(signin))
        .route("/api/account/signout", post(signout))
        .route("/api/account/signout-everywhere", post(signout_everywhere))
        .route("/api/account/tables", get(tables))
        .route("/api/account/turns", get(turns))
        .route("/api/account/claim", post(claim))
        .route("/api/account/email", post(set_email))
}

/// Name and password, as the forms send them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The password again (deleting an account).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Confirm {
    password: String,
}

/// Who is signed in.
#[derive(Serialize)]
struct Me<'a> {
    name: &'a str,
    /// The address turn notices go to (`null`: none).
    email: Option<&'a str>,
}

/// A refusal with its HTTP status: what every account handler answers when it changes nothing.
pub(crate) struct Refused(pub(crate) StatusCode, pub(crate) Refusal);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.0, Json(self.1.to_body())).into_response()
    }
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        tracing::error!(error = %e, "account storage failed");
        Refused(
            StatusCode::SERVICE_UNAVAILABLE,
            Refusal::new(ErrorCode::Storage, "The server could not do this now; nothing changed. Try again."),
        )
    }
}

/// A request that changes something must come from this server's own pages: a browser names
/// the page's origin (`Origin`) and whether it is another site's (`Sec-Fetch-Site`); a request
/// from another site is refused, whatever cookie it carries. (Clients that are not browsers send
/// neither, and hold no one else's cookie.)
pub(crate) fn same_origin(headers: &HeaderMap, app: &App) -> Result<(), Refused> {
    let cross = Refused(
        StatusCode::FORBIDDEN,
        Refusal::new(ErrorCode::CrossOrigin, "This request came from another site; nothing changed."),
    );
    if headers.get("sec-fetch-site").is_some_and(|v| v.as_bytes() == b"cross-site") {
        return Err(cross);
    }
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("");
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let public = app.settings.public_url.as_deref().map(|u| u.trim_end_matches('/'));
    let ours =
        !host.is_empty() && origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host);
    if ours || public == Some(origin) { Ok(()) } else { Err(cross) }
}

/// The session token the request's cookie carries.
fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .filter(|t| !t.is_empty())
}

/// The account signed in on this request (`None`: a guest, or an ended session).
pub(crate) async fn signed_in(app: &App, headers: &HeaderMap) -> Result<Option<Account>, StoreError> {
    let Some(token) = cookie_token(headers) else { return Ok(None) };
    app.lobby.accounts().session(token, now_s() - SESSION_LIFE.as_secs() as i64).await
}

/// The account a WebSocket (or a table's creation) acts for: the session's, when the request
/// comes from this server's own page (a page of another site opening a WebSocket to this
/// server carries the cookie in some browsers: it gets a guest's connection). A failed lookup
/// is a guest too.
pub(crate) async fn connection_account(app: &App, headers: &HeaderMap) -> Option<String> {
    cookie_token(headers)?;
    same_origin(headers, app).ok()?;
    match signed_in(app, headers).await {
        Ok(a) => a.map(|a| a.id),
        Err(e) => {
            tracing::warn!(error = %e, "could not read a session; served as a guest");
            None
        }
    }
}

/// The stored account of `name`, or `unknown_player`.
pub(crate) async fn named(app: &App, name: &str) -> Result<Account, Refused> {
    match app.lobby.accounts().account_named(name).await? {
        Some(s) => Ok(s.account),
        None => Err(Refused(StatusCode::NOT_FOUND, Refusal::new(ErrorCode::UnknownPlayer, "No player has this name."))),
    }
}

/// The account signed in, or `signed_out`.
pub(crate) async fn account_of(app: &App, headers: &HeaderMap) -> Result<Account, Refused> {
    signed_in(app, headers)
        .await?
        .ok_or_else(|| Refused(StatusCode::UNAUTHORIZED, Refusal::new(ErrorCode::SignedOut, "You are not signed in.")))
}

/// The cookie that holds `token` (or, `None`, ends it).
fn set_cookie(app: &App, token: Option<&str>) -> [(header::HeaderName, String); 1] {
    let secure = app.settings.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    let secure = if secure { "; Secure" } else { "" };
    let value = match token {
        Some(t) => format!("{COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", SESSION_LIFE.as_secs()),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    [(header::SET_COOKIE, value)]
}

/// Read a JSON object of type `T`.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Refused> {
    serde_json::from_slice(bytes)
        .map_err(|e| Refused(StatusCode::BAD_REQUEST, Refusal::new(ErrorCode::BadRequest, e.to_string())))
}

/// `too_many` while `name` (if any) or `ip` has failed too often.
fn not_held(app: &App, name: Option<&str>, ip: IpAddr) -> Result<(), Refused> {
    let Some(wait) = app.attempts.wait(name, ip, Instant::now()) else { return Ok(()) };
    let s = wait.as_secs().max(1);
    Err(Refused(
        StatusCode::TOO_MANY_REQUESTS,
        Refusal::new(ErrorCode::TooMany, format!("Too many attempts; try again in {} min.", s.div_ceil(60)))
            .param("retry_after_s", s),
    ))
}

/// Whether `password` is `phc`'s (off the async workers: argon2id takes tens of milliseconds).
async fn verify(password: String, phc: String) -> bool {
    tokio::task::spawn_blocking(move || verify_password(&password, &phc)).await.unwrap_or(false)
}

fn wrong(message: &str) -> Refused {
    Refused(StatusCode::UNAUTHORIZED, Refusal::new(ErrorCode::BadCredentials, message))
}

/// Open a session for `account` and answer with its cookie.
async fn open(app: &App, account: &Account, status: StatusCode) -> Result<Response, Refused> {
    let token = new_secret();
    app.lobby.accounts().open_session(&token, &account.id, now_s()).await?;
    let email = app.lobby.accounts().email_of(&account.id).await?;
    Ok((status, set_cookie(app, Some(&token)), Json(Me { name: &account.name, email: email.as_deref() }))
        .into_response())
}

async fn signup(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Credentials = body(&bytes)?;
    let name = check_name(&c.name).map_err(|r| Refused(StatusCode::BAD_REQUEST, r))?;
    check_password(&c.password).map_err(|r| Refused(StatusCode::BAD_REQUEST, r))?;
    not_held(&app, None, ip)?;
    // Sign-ups count against the address as failures do: an address cannot make accounts
    // without end.
    app.attempts.count(None, ip, Instant::now());
    let password = c.password;
    let hash = tokio::task::spawn_blocking(move || hash_password(&password)).await.map_err(|_| StoreError::Closed)?;
    let account = Account { id: new_code(), name };
    let stored = StoredAccount { account: account.clone(), password: hash };
    match app.lobby.accounts().create_account(&stored, now_s()).await {
        Err(StoreError::Taken) => Err(Refused(
            StatusCode::CONFLICT,
            Refusal::new(ErrorCode::NameTaken, "An account has this name already; choose another."),
        )),
        r => {
            r?;
            tracing::info!(account = %account.id, "account created");
            open(&app, &account, StatusCode::CREATED).await
        }
    }
}

async fn signin(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Credentials = body(&bytes)?;
    not_held(&app, Some(&c.name), ip)?;
    let stored = app.lobby.accounts().account_named(&c.name).await?;
    // An unknown name is checked against a stand-in hash: it takes as long as a wrong password.
    // (Verified before the match: a guard on `Some` would skip it for an unknown name.)
    let phc = stored.as_ref().map_or_else(|| dummy_hash().to_string(), |s| s.password.clone());
    let verified = verify(c.password, phc).await;
    match stored {
        Some(s) if verified => {
            if app.lobby.room().is_suspended(&s.account.id).await? {
                return Err(Refused(
                    StatusCode::FORBIDDEN,
                    Refusal::new(ErrorCode::Suspended, "This account is suspended by the server's operator."),
                ));
            }
            open(&app, &s.account, StatusCode::OK).await
        }
        _ => {
            app.attempts.count(Some(&c.name), ip, Instant::now());
            Err(wrong("Wrong name or password."))
        }
    }
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let email = app.lobby.accounts().email_of(&a.id).await?;
    Ok(Json(Me { name: &a.name, email: email.as_deref() }).into_response())
}

/// `POST /api/account/email`: `{"email": "ann@example.org"}` sets the address turn notices go
/// to, `{"email": null}` (or `""`) removes it.
async fn set_email(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let b: EmailBody = body(&bytes)?;
    let email = b.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
    if let Some(e) = email
        && !crate::mail::valid_address(e)
    {
        return Err(Refused(
            StatusCode::BAD_REQUEST,
            Refusal::new(ErrorCode::BadEmail, "This is not an email address (name@example.org)."),
        ));
    }
    app.lobby.accounts().set_email(&a.id, email).await?;
    Ok(Json(Me { name: &a.name, email }).into_response())
}

/// `POST /api/account/email`'s body.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EmailBody {
    email: Option<String>,
}

/// The tables where the signed-in account holds a seat, newest first.
async fn tables(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let seats = app.lobby.accounts().tables_of(&a.id).await?;
    Ok(Json(TablesBody { tables: seats }).into_response())
}

/// The turn-based tables where it is the signed-in account's turn, soonest due first.
async fn turns(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    let turns = app.lobby.accounts().turns_of(&a.id).await?;
    Ok(Json(TurnsBody { turns }).into_response())
}

/// `POST /api/account/claim`: the seats this browser played as a guest (the invite code and
/// the seat token it kept for each) follow the signed-in account from now on, so its tables,
/// figures and reviews show them. A seat already linked (to anyone) stays as it is.
async fn claim(State(app): State<Arc<App>>, headers: HeaderMap, bytes: axum::body::Bytes) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let b: ClaimBody = body(&bytes)?;
    if b.seats.len() > MAX_CLAIMS {
        return Err(Refused(
            StatusCode::BAD_REQUEST,
            Refusal::new(ErrorCode::BadRequest, format!("At most {MAX_CLAIMS} seats at once."))
                .param("max", MAX_CLAIMS),
        ));
    }
    let mut claimed = 0;
    for s in &b.seats {
        // A token that is no seat's (an old table's, or a typing slip) is passed over.
        if let Ok(true) = app.lobby.claim_seat(&s.code, &s.token, &a.id).await {
            claimed += 1;
        }
    }
    Ok(Json(ClaimedBody { claimed }).into_response())
}

/// Most seats one `POST /api/account/claim` asks for.
const MAX_CLAIMS: usize = 50;

/// `POST /api/account/claim`'s body.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    seats: Vec<ClaimSeat>,
}

/// One seat a browser kept: the table's invite code and the seat's token.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSeat {
    code: String,
    token: String,
}

/// `POST /api/account/claim`'s answer.
#[derive(Serialize)]
struct ClaimedBody {
    claimed: usize,
}

/// `GET /api/account/turns`.
#[derive(Serialize)]
struct TurnsBody {
    turns: Vec<Turn>,
}

/// `GET /api/account/tables`.
#[derive(Serialize)]
struct TablesBody {
    tables: Vec<HeldSeat>,
}

async fn signout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    if let Some(token) = cookie_token(&headers) {
        app.lobby.accounts().end_session(token).await?;
    }
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

async fn signout_everywhere(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let account = account_of(&app, &headers).await?;
    app.lobby.accounts().end_sessions(&account.id).await?;
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

async fn delete(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let c: Confirm = body(&bytes)?;
    let account = account_of(&app, &headers).await?;
    not_held(&app, Some(&account.name), ip)?;
    let Some(stored) = app.lobby.accounts().account_named(&account.name).await? else {
        return Err(wrong("Wrong password; nothing changed."));
    };
    if !verify(c.password, stored.password).await {
        app.attempts.count(Some(&account.name), ip, Instant::now());
        return Err(wrong("Wrong password; nothing changed."));
    }
    app.lobby.accounts().delete_account(&account.id).await?;
    tracing::info!(account = %account.id, "account deleted");
    Ok((StatusCode::NO_CONTENT, set_cookie(&app, None)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_read_among_others() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "a=1; oh7_session=abc; b=2".parse().unwrap());
        assert_eq!(cookie_token(&h), Some("abc"));
        h.insert(header::COOKIE, "oh7_sessionx=abc; oh7_session=".parse().unwrap());
        assert_eq!(cookie_token(&h), None);
    }
}

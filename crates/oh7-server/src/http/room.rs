//! The public room's routes: the open tables and joining one, quick match, blocks and reports
//! (`docs/protocol.md`, "The public room").

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::app::App;
use crate::http::accounts::{Refused, account_of, body, named, same_origin, signed_in};
use crate::lobby::QuickMatch;
use oh7_table::protocol::{ErrorCode, Refusal};

/// The routes.
pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/open-tables", get(open_tables))
        .route("/api/open-tables/{watch}/join", post(join))
        .route("/api/match", get(match_state).post(join_queue).delete(leave_queue))
        .route("/api/account/blocks", get(blocks).post(block))
        .route("/api/reports", post(report))
}

fn refused(r: Refusal) -> Refused {
    let status = match r.code {
        ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::NotOpen => StatusCode::CONFLICT,
        ErrorCode::Suspended => StatusCode::FORBIDDEN,
        _ => StatusCode::BAD_REQUEST,
    };
    Refused(status, r)
}

/// `GET /api/open-tables`: `{"tables": [...]}`, newest first.
async fn open_tables(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let viewer = signed_in(&app, &headers).await?.map(|a| a.id);
    #[derive(Serialize)]
    struct Body {
        tables: Vec<crate::lobby::OpenTable>,
    }
    let tables = app.lobby.open_tables(viewer.as_deref()).await.map_err(refused)?;
    let mut r = Json(Body { tables }).into_response();
    r.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    Ok(r)
}

/// `POST /api/open-tables/{watch}/join`: `{"invite": CODE}` of an open table, to sit at it.
async fn join(State(app): State<Arc<App>>, headers: HeaderMap, Path(watch): Path<String>) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let viewer = signed_in(&app, &headers).await?.map(|a| a.id);
    let invite = app.lobby.join_open(&watch, viewer.as_deref()).await.map_err(refused)?;
    #[derive(Serialize)]
    struct Body {
        invite: String,
    }
    Ok(Json(Body { invite }).into_response())
}

/// `GET /api/match`: where the signed-in person stands in the queue.
async fn match_state(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    Ok(Json(app.lobby.match_state(&a.id).await.map_err(refused)?).into_response())
}

/// `POST /api/match`: join the queue.
async fn join_queue(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let q: QuickMatch = body(&bytes)?;
    app.lobby.join_queue(&a, q).await.map_err(refused)?;
    Ok((StatusCode::ACCEPTED, Json(app.lobby.match_state(&a.id).await.map_err(refused)?)).into_response())
}

/// `DELETE /api/match`: leave the queue.
async fn leave_queue(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    app.lobby.leave_queue(&a.id).await.map_err(refused)?;
    Ok(Json(app.lobby.match_state(&a.id).await.map_err(refused)?).into_response())
}

/// The names the signed-in person blocks.
#[derive(Serialize)]
struct Blocks {
    blocked: Vec<String>,
}

async fn blocks(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, Refused> {
    let a = account_of(&app, &headers).await?;
    Ok(Json(Blocks { blocked: app.lobby.room().blocked_by(&a.id).await? }).into_response())
}

/// `POST /api/account/blocks`: `{"name": N}` or `{"table": CODE, "seat": S}` (the person at a
/// seat), and `"block": false` to unblock.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockReq {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    table: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default = "yes")]
    block: bool,
}

/// The account a request names: by its name, or as the holder of a seat.
async fn named_or_seated(
    app: &App,
    name: Option<&str>,
    table: Option<&str>,
    seat: Option<usize>,
) -> Result<crate::accounts::Account, Refused> {
    match (name, table, seat) {
        (Some(n), _, _) => named(app, n).await,
        (None, Some(code), Some(seat)) => {
            let (name, account) = app.lobby.seat_person(code, seat).await.map_err(refused)?;
            match account {
                Some(id) => Ok(crate::accounts::Account { id, name }),
                None => Err(Refused(
                    StatusCode::NOT_FOUND,
                    Refusal::new(
                        ErrorCode::UnknownPlayer,
                        "This person plays as a guest: only an account can be blocked.",
                    ),
                )),
            }
        }
        _ => Err(refused(Refusal::new(ErrorCode::BadRequest, "Name the person, or give the table and the seat."))),
    }
}

fn yes() -> bool {
    true
}

async fn block(State(app): State<Arc<App>>, headers: HeaderMap, bytes: axum::body::Bytes) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let r: BlockReq = body(&bytes)?;
    let other = named_or_seated(&app, r.name.as_deref(), r.table.as_deref(), r.seat).await?;
    if other.id == a.id {
        return Err(refused(Refusal::new(ErrorCode::BadRequest, "You cannot block yourself.")));
    }
    if r.block {
        app.lobby.room().block(&a.id, &other.id, crate::accounts::now_s()).await?;
    } else {
        app.lobby.room().unblock(&a.id, &other.id).await?;
    }
    Ok(Json(Blocks { blocked: app.lobby.room().blocked_by(&a.id).await? }).into_response())
}

/// `POST /api/reports`: `{"name": N, "table": WATCH?, "lines": [...], "reason": "..."}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportReq {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    table: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    lines: Vec<ReportedLine>,
    #[serde(default)]
    reason: String,
}

/// A chat line pointed at.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ReportedLine {
    name: String,
    text: String,
}

/// Most lines a report keeps, and the longest reason.
const REPORT_LINES: usize = 20;
const REPORT_REASON: usize = 1000;

async fn report(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, Refused> {
    same_origin(&headers, &app)?;
    let a = account_of(&app, &headers).await?;
    let r: ReportReq = body(&bytes)?;
    if r.lines.len() > REPORT_LINES || r.reason.chars().count() > REPORT_REASON {
        return Err(refused(Refusal::new(
            ErrorCode::BadRequest,
            format!("A report holds at most {REPORT_LINES} lines and {REPORT_REASON} characters."),
        )));
    }
    // The person reported: the one at a seat of the table, or a name as given.
    let reported = match (&r.table, r.seat) {
        (Some(code), Some(seat)) => app.lobby.seat_person(code, seat).await.map_err(refused)?.0,
        _ => r.name.clone().unwrap_or_default().trim().to_string(),
    };
    if reported.is_empty() || reported.chars().count() > crate::table::MAX_NAME {
        return Err(refused(Refusal::new(ErrorCode::BadName, "Name the person you report.")));
    }
    let report = crate::room::Report {
        id: crate::secrets::new_code(),
        reporter: a.name.clone(),
        reported,
        table: r.table.filter(|c| c.len() == 32 && c.bytes().all(|b| b.is_ascii_hexdigit())),
        lines: serde_json::to_value(&r.lines).unwrap_or_default(),
        reason: r.reason,
        at: crate::accounts::now_s(),
    };
    app.lobby.room().report(&a.id, &report).await?;
    tracing::info!("a report was kept for the operator");
    Ok(StatusCode::NO_CONTENT.into_response())
}

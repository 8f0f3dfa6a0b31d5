//! What every HTTP handler shares ([`App`]: the lobby, the settings, the sign-in attempts) and
//! the limits of a request, below the handlers (`http/`, `ws.rs`, `web.rs`, `profile.rs`) and
//! above the services they call.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::lobby::Lobby;
use crate::settings::Settings;

/// The address a connection comes from (the listener's own connect info, see `listen.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, crate::listen::HeaderTimeoutListener>>
    for Peer
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, crate::listen::HeaderTimeoutListener>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

/// The address a request is counted and logged under: the peer's, or, from a proxy of
/// `--trust-proxy`, the client's as the proxy wrote it ([`crate::proxy::client_ip`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientIp(pub IpAddr);

impl axum::extract::FromRequestParts<Arc<App>> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<Peer>>()
            .map_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip());
        Ok(ClientIp(crate::proxy::client_ip(peer, &parts.headers, &app.settings.trust_proxy)))
    }
}

/// What every handler shares.
pub(crate) struct App {
    /// The tables.
    pub lobby: Lobby,
    /// Limits and timings.
    pub settings: Arc<Settings>,
    pub(crate) next_conn: AtomicU64,
    /// Set when the server is stopping: new commands are refused.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    /// Failed sign-ins per account name and address.
    pub(crate) attempts: crate::accounts::Attempts,
}

impl App {
    /// The shared state.
    pub(crate) fn new(lobby: Lobby, settings: Arc<Settings>, stopping: tokio::sync::watch::Receiver<bool>) -> App {
        App { lobby, settings, next_conn: AtomicU64::new(1), stopping, attempts: Default::default() }
    }
}

/// Largest HTTP request body, in bytes.
pub(crate) const MAX_BODY: usize = 16 * 1024;

/// Largest WebSocket frame or message read, in bytes: one over [`Settings::max_message`] but
/// under this is answered `too_large` and the connection stays; one over this is answered
/// `too_large` and the connection is closed with status 1009 (its bytes are not read).
pub(crate) const MAX_FRAME: usize = 64 * 1024;

//! The listener: a connection must send the head of its first request (every header, up to the
//! blank line) within [`crate::Settings::header_timeout`], or it is dropped. Without it a
//! half-sent request or upgrade would hold its connection and task for ever (axum's `serve`
//! gives hyper no timer, so hyper's own header timeout never runs).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;

/// A TCP listener whose connections time out until their first request head has come.
pub(crate) struct HeaderTimeoutListener {
    inner: TcpListener,
    timeout: Duration,
}

impl HeaderTimeoutListener {
    /// Wrap `inner`.
    pub(crate) fn new(inner: TcpListener, timeout: Duration) -> HeaderTimeoutListener {
        HeaderTimeoutListener { inner, timeout }
    }
}

impl axum::serve::Listener for HeaderTimeoutListener {
    type Io = HeaderTimeout;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (HeaderTimeout, SocketAddr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        (HeaderTimeout { io, deadline: Some(Box::pin(tokio::time::sleep(self.timeout))), matched: 0 }, addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection whose reads fail with `TimedOut` once its deadline has passed, until the blank
/// line that ends a request head has been read.
pub(crate) struct HeaderTimeout {
    io: TcpStream,
    deadline: Option<Pin<Box<Sleep>>>,
    /// How much of `\r\n\r\n` the last bytes read match.
    matched: u8,
}

impl AsyncRead for HeaderTimeout {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(d) = &mut this.deadline
            && d.as_mut().poll(cx).is_ready()
        {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the request head took too long")));
        }
        let before = buf.filled().len();
        let r = Pin::new(&mut this.io).poll_read(cx, buf);
        if this.deadline.is_some()
            && let Poll::Ready(Ok(())) = r
        {
            for &b in &buf.filled()[before..] {
                this.matched = match (this.matched, b) {
                    (0 | 2, b'\r') => this.matched + 1,
                    (1 | 3, b'\n') => this.matched + 1,
                    (_, b'\r') => 1,
                    _ => 0,
                };
                if this.matched == 4 {
                    this.deadline = None;
                    break;
                }
            }
        }
        r
    }
}

impl AsyncWrite for HeaderTimeout {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

//! The accept loop: how many connections are served at once, how long a client has for
//! its headers, and a graceful end, where the requests in progress are answered first.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

/// How connections are served: at most `most` at once (the rest wait in the listen
/// queue, costing no file descriptor), each closed when a request's headers (or the next
/// request on an idle connection) take longer than `header_time`.
pub(super) struct Connections {
    pub(super) header_time: Duration,
    pub(super) most: u32,
}

impl Connections {
    /// Serves `app` on `listener` until `shutdown` resolves, then lets the open requests
    /// finish and returns once every connection has closed.
    pub(super) async fn serve(
        &self,
        listener: TcpListener,
        app: Router,
        shutdown: impl Future<Output = ()>,
    ) {
        let permits = Arc::new(Semaphore::new(self.most as usize));
        let (stop, stopping) = watch::channel(());
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let next = async {
                let permit = Arc::clone(&permits)
                    .acquire_owned()
                    .await
                    .expect("the semaphore is never closed");
                (permit, listener.accept().await)
            };
            let (permit, accepted) = tokio::select! {
                next = next => next,
                () = &mut shutdown => break,
            };
            match accepted {
                Ok((stream, peer)) => {
                    let connection = self.connection(stream, peer, app.clone(), stopping.clone());
                    tokio::spawn(async move {
                        connection.await;
                        drop(permit);
                    });
                }
                Err(error) => accept_failed(error).await,
            }
        }
        drop(stop);
        // Each connection holds a permit until it closes: all of them back means all closed.
        let _ = permits.acquire_many(self.most).await;
    }

    /// Serves one connection from `peer` until it closes, or until `stopping` says the
    /// server stops (then the request in progress is answered first).
    fn connection(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
        app: Router,
        mut stopping: watch::Receiver<()>,
    ) -> impl Future<Output = ()> + use<> {
        let router = TowerToHyperService::new(app);
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            hyper::service::Service::call(&router, request)
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_time);
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        async move {
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        }
    }
}

/// After a failed accept: a connection that broke off before it was accepted costs
/// nothing; anything else (out of file descriptors) gets a pause before the next try.
async fn accept_failed(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

//! The cluster as a `tower::Service` of HTTP requests (the `kube` feature): what
//! `kube::Client::new(cluster.service(), "default")` sends, answered by the in-memory server;
//! a watch answered as a stream of newline-delimited events that a write wakes.
//!
//! ```
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::{Api, Patch, PatchParams};
//! use serde_json::json;
//!
//! async fn test() -> Result<(), Box<dyn std::error::Error>> {
//!     let cluster = smd::cluster::Cluster::new();
//!     let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(cluster.service(), "default"));
//!     let config = |v: &str| json!({"apiVersion": "v1", "kind": "ConfigMap",
//!         "metadata": {"name": "settings"}, "data": {"mode": v}});
//!     api.patch("settings", &PatchParams::apply("ops"), &Patch::Apply(config("fast"))).await?;
//!     // Another manager's value for the same field: the server's 409.
//!     let refused = api.patch("settings", &PatchParams::apply("app"), &Patch::Apply(config("slow"))).await;
//!     assert!(matches!(refused, Err(kube::Error::Api(s)) if s.code == 409));
//!     let forced = PatchParams::apply("app").force();
//!     let stored = api.patch("settings", &forced, &Patch::Apply(config("slow"))).await?;
//!     let managers: Vec<_> = stored.metadata.managed_fields.unwrap_or_default()
//!         .into_iter().filter_map(|e| e.manager).collect();
//!     assert_eq!(managers, ["app"]);
//!     Ok(())
//! }
//! tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(test())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Frame;
use http_body_util::BodyExt;

use super::Cluster;
use crate::apiserver::{Request, Response, Watch};

/// The error of a request whose body could not be read.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// [`Cluster`] as a `tower::Service`: every clone serves the same cluster.
#[derive(Debug, Clone)]
pub struct ClusterService {
    cluster: Cluster,
}

impl Cluster {
    /// This cluster as a `tower::Service` for a kube-rs client:
    /// `kube::Client::new(cluster.service(), "default")`.
    pub fn service(&self) -> ClusterService {
        ClusterService {
            cluster: self.clone(),
        }
    }
}

/// The body of an answer: the whole answer at once, or a watch's events as they happen.
#[derive(Debug)]
pub struct ResponseBody(Inner);

#[derive(Debug)]
enum Inner {
    Full(Option<Bytes>),
    Watch {
        cluster: Cluster,
        watch: Box<Watch>,
        id: u64,
    },
}

impl http_body::Body for ResponseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match &mut self.get_mut().0 {
            Inner::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Inner::Watch { cluster, watch, id } => {
                let events = cluster.poll_or_wait(watch, *id, cx.waker());
                if events.is_empty() {
                    return if watch.is_ended() {
                        Poll::Ready(None)
                    } else {
                        Poll::Pending
                    };
                }
                let mut out = Vec::new();
                for event in &events {
                    // A Value always serialises; an empty line would be skipped by a client.
                    if serde_json::to_writer(&mut out, event).is_ok() {
                        out.push(b'\n');
                    }
                }
                Poll::Ready(Some(Ok(Frame::data(Bytes::from(out)))))
            }
        }
    }
}

impl Drop for ResponseBody {
    fn drop(&mut self) {
        if let Inner::Watch { cluster, id, .. } = &self.0 {
            cluster.forget_watch(*id);
        }
    }
}

impl<B> tower_service::Service<http::Request<B>> for ClusterService
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<ResponseBody>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let cluster = self.cluster.clone();
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let body = body.collect().await.map_err(Into::into)?.to_bytes();
            Ok(cluster.answer(&parts, body.to_vec()))
        })
    }
}

impl Cluster {
    fn answer(&self, parts: &http::request::Parts, body: Vec<u8>) -> http::Response<ResponseBody> {
        let header = |name: http::header::HeaderName| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned()
        };
        let mut request = Request::new(parts.method.as_str(), parts.uri.path())
            .with_user_agent(header(http::header::USER_AGENT));
        request.query = parts.uri.query().map(decode_query).unwrap_or_default();
        if !body.is_empty() {
            request = request.with_body(header(http::header::CONTENT_TYPE), body);
        }
        let watch = request.method == "GET"
            && matches!(
                request.query_value("watch"),
                "1" | "t" | "T" | "true" | "TRUE" | "True"
            );
        if watch {
            match self.watch(&request) {
                Ok(watch) => {
                    let id = self.watch_id();
                    let body = ResponseBody(Inner::Watch {
                        cluster: self.clone(),
                        watch: Box::new(watch),
                        id,
                    });
                    return reply(200, &[], body);
                }
                Err(refusal) => return full(&refusal),
            }
        }
        full(&self.handle(&request))
    }
}

fn full(response: &Response) -> http::Response<ResponseBody> {
    let body = serde_json::to_vec(&response.body).unwrap_or_default();
    reply(
        response.code,
        &response.warning_headers(),
        ResponseBody(Inner::Full(Some(Bytes::from(body)))),
    )
}

fn reply(code: u16, warnings: &[String], body: ResponseBody) -> http::Response<ResponseBody> {
    let mut response = http::Response::new(body);
    *response.status_mut() =
        http::StatusCode::from_u16(code).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    for warning in warnings {
        if let Ok(value) = http::HeaderValue::from_str(warning) {
            headers.append(http::header::WARNING, value);
        }
    }
    response
}

/// A URL query as Go's `url.ParseQuery` reads it: `&`-separated pairs, `+` a space, `%XX`
/// escapes (a pair with a bad escape is dropped).
fn decode_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((unescape(k)?, unescape(v)?))
        })
        .collect()
}

fn unescape(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_decode_as_go_reads_them() {
        assert_eq!(
            decode_query("labelSelector=app%3Dweb%2Ctier+in+%28a%29&watch=1&bad=%zz"),
            vec![
                ("labelSelector".to_owned(), "app=web,tier in (a)".to_owned()),
                ("watch".to_owned(), "1".to_owned()),
            ]
        );
    }
}

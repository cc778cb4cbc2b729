//! nginx in front of `gogo-gui --online`, for the tests that run the documented
//! configuration (`deploy/nginx-gogo.conf`): nginx in a folder of the test's own, a TLS
//! client from a loopback address of its choosing, and the test's certificate.
#![allow(dead_code)]

use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;

pub const NGINX: &str = "/usr/sbin/nginx";

/// A process killed when the test ends, however it ends.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `port`.
pub async fn listening(port: u16, what: &str, dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
        assert!(Instant::now() < deadline, "{what} did not start: {log}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The documented configuration with the test's ports, certificate and name in place of
/// the example's; each replacement must find its text, so that the file under test is the
/// documented one.
pub fn configuration(dir: &Path, http: u16, https: u16, gogo: &[u16]) -> String {
    let documented = include_str!("../../../../deploy/nginx-gogo.conf");
    let certificate = dir.join("cert.pem").display().to_string();
    let key = dir.join("key.pem").display().to_string();
    let replacements = [
        ("listen 80;", format!("listen 127.0.0.1:{http};")),
        ("listen [::]:80;", String::new()),
        ("listen 443 ssl;", format!("listen 127.0.0.1:{https} ssl;")),
        ("listen [::]:443 ssl;", String::new()),
        (
            "server 127.0.0.1:8080;",
            gogo.iter()
                .map(|port| format!("server 127.0.0.1:{port};"))
                .collect::<Vec<_>>()
                .join("\n    "),
        ),
        (
            "/etc/letsencrypt/live/shogi.example.org/fullchain.pem",
            certificate,
        ),
        ("/etc/letsencrypt/live/shogi.example.org/privkey.pem", key),
        (
            "server_name shogi.example.org;",
            "server_name localhost;".into(),
        ),
    ];
    let mut text = documented.to_string();
    for (from, to) in replacements {
        assert!(
            text.contains(from),
            "deploy/nginx-gogo.conf has no `{from}`"
        );
        text = text.replace(from, &to);
    }
    text
}

/// nginx on `site` (the documented server blocks), in `dir`, in the foreground.
pub fn start_nginx(dir: &Path, site: &str) -> Running {
    let site_path = dir.join("gogo.conf");
    std::fs::write(&site_path, site).unwrap();
    let d = dir.display();
    let main = format!(
        "worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\ndaemon off;\n\
         events {{ worker_connections 128; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  \
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  \
         include {};\n}}\n",
        site_path.display()
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    // nginx with the test's folder as its prefix, log and configuration.
    let nginx = || {
        let mut command = Command::new(NGINX);
        command
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-p")
            .arg(dir);
        command.arg("-c").arg(dir.join("nginx.conf"));
        command
    };
    let checked = nginx().arg("-t").output().unwrap();
    assert!(
        checked.status.success(),
        "nginx -t: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    Running(nginx().stdout(Stdio::null()).spawn().unwrap())
}

/// A client of the proxy from its own loopback address, trusting the test's certificate.
#[derive(Clone)]
pub struct Client {
    pub from: Ipv4Addr,
    pub port: u16,
    pub tls: tokio_rustls::TlsConnector,
}

/// An answer: status, headers (lower-case names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

impl Client {
    pub async fn connect(&self) -> TlsStream<tokio::net::TcpStream> {
        let socket = TcpSocket::new_v4().unwrap();
        socket
            .bind(SocketAddr::new(IpAddr::V4(self.from), 0))
            .unwrap();
        let tcp = socket
            .connect(SocketAddr::from(([127, 0, 0, 1], self.port)))
            .await
            .unwrap();
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        self.tls.connect(name, tcp).await.unwrap()
    }

    /// An HTTP/1.0 request (so that the answer comes unchunked and the connection closes
    /// after it), with `headers` (`Name: value` lines) and an optional JSON body.
    pub fn request(method: &str, path: &str, headers: &[String], body: Option<&Value>) -> String {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut text = format!("{method} {path} HTTP/1.0\r\nHost: localhost\r\n");
        for h in headers {
            text.push_str(h);
            text.push_str("\r\n");
        }
        if !body.is_empty() {
            text.push_str("Content-Type: application/json\r\n");
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        text
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[String],
        body: Option<&Value>,
    ) -> Answer {
        let mut stream = self.connect().await;
        stream
            .write_all(Client::request(method, path, headers, body).as_bytes())
            .await
            .unwrap();
        let mut raw = Vec::new();
        // nginx may end TLS without close_notify after an HTTP/1.0 answer.
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw)).await;
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no answer: {raw}"));
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer {
            status,
            headers,
            body: body.to_string(),
        }
    }
}

/// The test's self-signed certificate for `localhost`, written into `dir`, and a TLS
/// connector that trusts it alone.
pub fn certificate(dir: &Path) -> tokio_rustls::TlsConnector {
    let rcgen::CertifiedKey { cert, key_pair } =
        rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key_pair.serialize_pem()).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.der().clone()).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

pub fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gogo-nginx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // nginx's workers run as another user when the test runs as root: they must reach the
    // temporary folders nginx makes here.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

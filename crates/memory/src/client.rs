//! A small HTTP/1.1 client over one kept-alive connection, for the tests and the benchmark (it
//! reads replies with `Content-Length`, which is how the service answers).

use std::net::SocketAddr;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A reply: status, headers (names lower-cased) and body.
#[derive(Clone, Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// One connection to the service.
pub struct Client {
    addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
}

impl Client {
    /// A client for the service at `addr`; it connects on first use and again after a failure.
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, stream: None }
    }

    /// `GET path` (with its query).
    pub async fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        self.request("GET", path, &[], b"").await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&mut self, path: &str, body: &[u8]) -> std::io::Result<Reply> {
        self.request("POST", path, &[("Content-Type", "application/json")], body).await
    }

    /// Any request; `headers` are added to `Host` and `Content-Length`.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        let result = self.exchange(method, path, headers, body).await;
        if result.is_err() {
            self.stream = None;
        }
        result
    }

    async fn exchange(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        if self.stream.is_none() {
            let stream = TcpStream::connect(self.addr).await?;
            stream.set_nodelay(true)?;
            self.stream = Some(BufReader::new(stream));
        }
        let Some(stream) = self.stream.as_mut() else { unreachable!("connected just above") };
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n", self.addr, body.len());
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut message = head.into_bytes();
        message.extend_from_slice(body);
        stream.get_mut().write_all(&message).await?;

        let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        let mut line = String::new();
        if stream.read_line(&mut line).await? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed"));
        }
        let status =
            line.split(' ').nth(1).and_then(|s| s.parse::<u16>().ok()).ok_or_else(|| bad("bad status line"))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            if stream.read_line(&mut line).await? == 0 {
                return Err(bad("connection closed in the headers"));
            }
            let text = line.trim_end();
            if text.is_empty() {
                break;
            }
            if let Some((name, value)) = text.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        let length =
            headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse::<usize>().ok()).unwrap_or(0);
        let mut body = vec![0; length];
        stream.read_exact(&mut body).await?;
        if headers.iter().any(|(n, v)| n == "connection" && v.eq_ignore_ascii_case("close")) {
            self.stream = None;
        }
        Ok(Reply { status, headers, body })
    }
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

//! `evoboard serve` started for a test, and plain HTTP/1.1 requests to it over a socket
//! (written by hand, so that paths such as `/../` and `..%2f` reach the server unchanged).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

/// Longest a test waits for one answer: far above any request's real time, so only a
/// server that hangs makes a test fail this way.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// A running server, stopped when dropped.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

/// One answer: the status code, the headers (lower-case names) and the body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Served {
    /// Starts the server on a free loopback port, watching `runs`, with `extra` flags.
    pub fn start(runs: &Path, extra: &[&str]) -> Served {
        Served::start_in(Path::new("."), runs, extra)
    }

    /// [`Served::start`] with `dir` as the server's working directory.
    pub fn start_in(dir: &Path, runs: &Path, extra: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
            .current_dir(dir)
            .args(["serve", "--addr", "127.0.0.1:0", "--runs"])
            .arg(runs)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut first = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        let address = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no URL in the first line: {first:?}"))
            .to_string();
        assert!(first.contains("this machine only"), "{first}");
        Served { child, address }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `raw_path` exactly as given, with `body` if any.
    pub fn request(&self, method: &str, raw_path: &str, body: Option<&str>) -> Answer {
        self.request_bytes(method, raw_path, body.map(str::as_bytes))
    }

    pub fn request_bytes(&self, method: &str, raw_path: &str, body: Option<&[u8]>) -> Answer {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream.set_read_timeout(Some(ANSWER_TIMEOUT)).unwrap();
        let mut request = format!(
            "{method} {raw_path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.address
        );
        if let Some(body) = body {
            request.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        // The server may answer (413) and close before reading a large body: ignore that.
        let _ = stream.write_all(&bytes);
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .expect("the server answers in time");
        parse_answer(&answer)
    }

    pub fn post(&self, path: &str, body: &str) -> Answer {
        self.request("POST", path, Some(body))
    }

    pub fn get(&self, path: &str) -> Answer {
        self.request("GET", path, None)
    }

    /// Sends Ctrl-C (SIGINT) and waits for the server to exit; returns its status and
    /// everything it printed.
    pub fn interrupt(mut self) -> (ExitStatus, String) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let status = self.child.wait().unwrap();
        let mut printed = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut printed)
            .unwrap();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut printed)
            .unwrap();
        (status, printed)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_answer(bytes: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP header in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(body)
    } else {
        body.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

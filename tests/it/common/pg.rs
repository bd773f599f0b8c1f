//! A throw-away PostgreSQL cluster for the listing harness: `initdb` under `target/`, a free
//! loopback port, started on creation and stopped on drop (a failing test unwinds through the
//! drop too). The server tools run as the `postgres` OS user when the tests run as root
//! (`initdb` refuses root); `.ci/setup` installs the Debian package that provides both.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    pub port: u16,
}

fn server_bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (.ci/setup): no /usr/lib/postgresql")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists())
        .collect();
    found.sort();
    found.pop().expect("no /usr/lib/postgresql/*/bin/initdb")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// One of the server's tools, run as `postgres` when we are root.
fn tool(bin: &Path, name: &str) -> Command {
    let path = bin.join(name);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(path);
        c
    } else {
        Command::new(path)
    }
}

/// Runs a tool and asserts it succeeded.
fn run(bin: &Path, name: &str, args: &[&str]) {
    let out = tool(bin, name)
        .args(args)
        .output()
        .expect("run a PostgreSQL tool");
    assert!(
        out.status.success(),
        "{name} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("its address").port()
}

impl Cluster {
    pub fn start(name: &str) -> Cluster {
        let bin = server_bin();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/pg")
            .join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the cluster's directory");
        if is_root() {
            let chown = Command::new("chown").arg("postgres:").arg(&dir).status();
            assert!(
                chown.is_ok_and(|s| s.success()),
                "chown the cluster to postgres"
            );
        }
        let d = dir.to_str().expect("a UTF-8 path");
        run(
            &bin,
            "initdb",
            &["-A", "trust", "-U", "postgres", "-E", "UTF8", "-D", d],
        );
        let port = free_port();
        let opts = format!("-k {d} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off");
        let log = format!("{d}/server.log");
        run(
            &bin,
            "pg_ctl",
            &["-D", d, "-o", &opts, "-l", &log, "-w", "start"],
        );
        Cluster { bin, dir, port }
    }

    /// A new session, with lock and statement timeouts so that a wrong expectation fails
    /// instead of hanging.
    // Not every test that starts a cluster connects from Rust (the Node driver connects itself).
    #[allow(dead_code)]
    pub fn connect(&self) -> postgres::Client {
        let url = format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        );
        let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
        // `public` first: a scenario may define its own clock as `public.now()`.
        c.batch_execute(
            "SET lock_timeout = '2s'; SET statement_timeout = '5s';
             SET search_path = public, pg_catalog;",
        )
        .expect("set the timeouts");
        c
    }
}

impl Drop for Cluster {
    /// `pg_ctl stop` without asserting: a drop must not panic while a test is unwinding.
    fn drop(&mut self) {
        if let Some(d) = self.dir.to_str() {
            let _ = tool(&self.bin, "pg_ctl")
                .args(["-D", d, "-m", "fast", "-w", "stop"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

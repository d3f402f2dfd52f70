//! `evoboard serve` through its HTTP API: whole games of every kind, the simultaneous
//! opening, hints, undo and records, runs, malformed requests, path traversal, shutdown on
//! Ctrl-C, and a load of 200 concurrent games.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::server::{Answer, Served};
use serde_json::Value;

/// A fresh runs directory with one run (a copy of a shipped one) and a secret beside it.
fn runs_dir(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("evoboard-serve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let run = root.join("runs/kalah");
    std::fs::create_dir_all(&run).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations/kalah");
    for file in ["stats.csv", "run.json", "champion.evo"] {
        std::fs::copy(shipped.join(file), run.join(file)).unwrap();
    }
    std::fs::write(root.join("secret.txt"), "top secret").unwrap();
    root
}

fn new_game(server: &Served, game: &str, first: &str, second: &str) -> Value {
    let body = format!(r#"{{"game":"{game}","first":"{first}","second":"{second}"}}"#);
    let answer = server.post("/api/games", &body);
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.json()
}

/// Asserts a JSON error with `status` and returns its message.
fn error(answer: &Answer, status: u16) -> String {
    assert_eq!(answer.status, status, "{}", answer.body);
    let json = answer.json();
    json["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message: {json}"))
        .to_string()
}

/// Plays game `view` to its end: the person plays their first legal move, the engine its
/// own. Returns the final view and the number of requests sent.
fn play_out(server: &Served, mut view: Value) -> (Value, usize) {
    let id = view["id"].as_u64().unwrap();
    let mut requests = 0;
    while !view["over"].as_bool().unwrap() {
        requests += 1;
        assert!(requests < 2000, "the game does not end: {view}");
        let choosers = view["choosers"].as_array().unwrap();
        let chooser = choosers.iter().find(|c| c["chosen"] == false).unwrap();
        let answer = if chooser["human"].as_bool().unwrap() {
            let text = chooser["legal"][0]["text"].as_str().unwrap();
            let body = format!(r#"{{"move":"{text}","side":{}}}"#, chooser["side"]);
            server.post(&format!("/api/games/{id}/move"), &body)
        } else {
            server.post(&format!("/api/games/{id}/engine"), "")
        };
        assert_eq!(answer.status, 200, "{}", answer.body);
        view = answer.json();
    }
    (view, requests)
}

#[test]
fn every_game_is_played_to_its_end_and_saved_as_plays_record() {
    let root = runs_dir("games");
    let server = Served::start(&root.join("runs"), &[]);
    for game in ["othello", "kalah", "oware", "congklak", "congkak"] {
        let view = new_game(&server, game, "human", "random");
        assert_eq!(view["game"], game);
        assert!(!view["choosers"][0]["legal"].as_array().unwrap().is_empty());
        let (view, _) = play_out(&server, view);
        let result = view["result"].as_str().unwrap();
        assert!(view["recordable"].as_bool().unwrap());
        let record = server.get(&format!("/api/games/{}/record", view["id"]));
        assert_eq!(record.status, 200);
        assert!(
            record
                .header("content-disposition")
                .unwrap()
                .contains("attachment")
        );
        let moves: Vec<&str> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(
            record.body.starts_with(&format!("game: {game}\nstart: ")),
            "{}",
            record.body
        );
        assert!(
            record
                .body
                .contains(&format!("\nmoves: {}\n", moves.join(",")))
        );
        assert!(record.body.ends_with(&format!("result: {result}\n")));
        // `show --moves` replays the saved game to the same end.
        let start = record
            .body
            .lines()
            .nth(1)
            .unwrap()
            .strip_prefix("start: ")
            .unwrap();
        let shown = common::evoboard(&[
            "show",
            "--game",
            game,
            "--position",
            start,
            "--moves",
            &moves.join(","),
        ]);
        assert!(
            shown.status.success(),
            "{}",
            String::from_utf8_lossy(&shown.stderr)
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn kalah_moves_hints_undo_turns_and_resignation() {
    let root = runs_dir("kalah");
    let server = Served::start(&root.join("runs"), &[]);
    let view = new_game(&server, "kalah", "human", "random");
    let id = view["id"].as_u64().unwrap();
    let path = |what: &str| format!("/api/games/{id}/{what}");
    // Pit 3 ends in South's store: South moves again.
    let view = server.post(&path("move"), r#"{"move":"3"}"#).json();
    assert_eq!(view["log"][0], "South plays 3 (score 1–0, and moves again)");
    assert_eq!(view["choosers"][0]["side"], 0);
    assert_eq!(view["board"]["stores"], serde_json::json!([1, 0]));
    // Hints: every legal move with its value, best first.
    let hints = server.get(&path("hints")).json();
    assert_eq!(hints["engine"], "heuristic:4");
    let values: Vec<f64> = hints["hints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["value"].as_f64().unwrap())
        .collect();
    assert_eq!(
        values.len(),
        view["choosers"][0]["legal"].as_array().unwrap().len()
    );
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // Pit 3 is empty now; pit 9 does not exist; the engine is not to move.
    assert!(error(&server.post(&path("move"), r#"{"move":"3"}"#), 400).contains("3"));
    assert!(error(&server.post(&path("move"), r#"{"move":"9"}"#), 400).contains("9"));
    error(&server.post(&path("engine"), ""), 409);
    error(&server.post(&path("move"), r#"{"move":"1","side":1}"#), 409);
    error(&server.get(&path("record")), 409);
    let view = server.post(&path("move"), r#"{"move":"1"}"#).json();
    assert_eq!(view["choosers"][0]["side"], 1);
    error(&server.post(&path("move"), r#"{"move":"1"}"#), 409);
    let view = server.post(&path("engine"), "").json();
    assert_eq!(view["log"].as_array().unwrap().len(), 3);
    // Undo goes back to the person's previous turn, before both of South's moves.
    let view = server.post(&path("undo"), "{}").json();
    assert_eq!(view["moves"], serde_json::json!(["3"]));
    assert_eq!(view["log"].as_array().unwrap().len(), 1);
    let view = server.post(&path("resign"), "{}").json();
    assert!(view["over"].as_bool().unwrap());
    assert_eq!(view["result"], "South resigns");
    assert!(!view["recordable"].as_bool().unwrap());
    error(&server.get(&path("record")), 409);
    error(&server.post(&path("move"), r#"{"move":"1"}"#), 409);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn sides_are_named_as_the_page_shows_them_or_by_number() {
    let root = runs_dir("sides");
    let server = Served::start(&root.join("runs"), &[]);
    let view = new_game(&server, "kalah", "human", "human");
    let id = view["id"].as_u64().unwrap();
    let path = |what: &str| format!("/api/games/{id}/{what}");
    assert_eq!(view["seats"][0]["name"], "South");
    // The hints of South by its name (any case), its order or its number, all alike.
    let by_number = server.get(&path("hints?side=0")).json();
    for side in ["South", "south", "SOUTH", "first", "0"] {
        let answer = server.get(&path(&format!("hints?side={side}")));
        assert_eq!(answer.status, 200, "{side}: {}", answer.body);
        assert_eq!(answer.json(), by_number, "{side}");
    }
    // North is named too, and told it does not choose now.
    error(&server.get(&path("hints?side=North")), 409);
    // In bodies: a name, a number, or a number as text; a pit as a number.
    let view = server
        .post(&path("move"), r#"{"move":"3","side":"South"}"#)
        .json();
    assert_eq!(view["moves"], serde_json::json!(["3"]));
    let view = server
        .post(&path("move"), r#"{"move":1,"side":"0"}"#)
        .json();
    assert_eq!(view["moves"], serde_json::json!(["3", "1"]));
    let view = server
        .post(&path("move"), r#"{"move":"2","side":"north"}"#)
        .json();
    assert_eq!(view["moves"], serde_json::json!(["3", "1", "2"]));
    let view = server.post(&path("undo"), r#"{"side":"North"}"#).json();
    assert_eq!(view["moves"], serde_json::json!(["3", "1"]));
    let view = server.post(&path("resign"), r#"{"side":"second"}"#).json();
    assert_eq!(view["result"], "North resigns");
    // Othello's sides by their colours, with or without the piece letter.
    let view = new_game(&server, "othello", "human", "human");
    let id = view["id"].as_u64().unwrap();
    for side in ["black", "Black", "black%20(X)", "1"] {
        let answer = server.get(&format!("/api/games/{id}/hints?side={side}"));
        let expected = if side == "1" { 409 } else { 200 };
        assert_eq!(answer.status, expected, "{side}: {}", answer.body);
    }
    let wrong = error(
        &server.get(&format!("/api/games/{id}/hints?side=South")),
        400,
    );
    assert!(wrong.contains("use black or white"), "{wrong}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn every_bad_parameter_gets_one_clear_error_naming_it() {
    let root = runs_dir("clear");
    let server = Served::start(&root.join("runs"), &[]);
    let view = new_game(&server, "kalah", "human", "random");
    let id = view["id"].as_u64().unwrap();
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let game =
        |extra: &str| format!(r#"{{"game":"kalah","first":"human","second":"random"{extra}}}"#);
    // (request, body or none, what the error must say)
    let side_error = "side 'East' is not one of this game's: use South or North (or first or \
                      second, or 0 or 1)";
    let cases: Vec<(&str, String, Option<String>, Vec<&str>)> = vec![
        ("GET", path("hints?side=East"), None, vec![side_error]),
        (
            "GET",
            path("hints?side=2"),
            None,
            vec!["side '2'", "South or North"],
        ),
        (
            "GET",
            path("hints?side=-1"),
            None,
            vec!["side '-1'", "0 or 1"],
        ),
        (
            "GET",
            path("hints?sid=0"),
            None,
            vec!["unknown query parameter 'sid'", "'side'"],
        ),
        (
            "GET",
            path("hints?side=0&side=1"),
            None,
            vec!["'side' is given twice"],
        ),
        (
            "GET",
            "/api/run".to_string(),
            None,
            vec!["missing query parameter 'name'"],
        ),
        (
            "GET",
            "/api/run?name=kalah&x=1".to_string(),
            None,
            vec!["unknown query parameter 'x'", "'name'"],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"move":"3","side":"East"}"#.into()),
            vec![side_error],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"move":"3","side":7}"#.into()),
            vec!["side '7'", "South or North"],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"move":"3","side":true}"#.into()),
            vec!["'side' must name a side", "not true or false"],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"move":[3]}"#.into()),
            vec!["'move' must be a move in the game's notation", "not a list"],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"side":0}"#.into()),
            vec!["missing 'move'"],
        ),
        (
            "POST",
            path("move"),
            Some(r#"{"mv":"3"}"#.into()),
            vec!["unknown field 'mv'", "'move' or 'side'"],
        ),
        (
            "POST",
            path("undo"),
            Some(r#"{"side":"West"}"#.into()),
            vec!["side 'West'", "South or North"],
        ),
        (
            "POST",
            path("undo"),
            Some("[1]".into()),
            vec!["not a JSON object", r#"{"side": "South"}"#],
        ),
        (
            "POST",
            path("resign"),
            Some(r#"{"side":[0]}"#.into()),
            vec!["'side' must name a side", "not a list"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(game(r#","seed":"x""#)),
            vec!["'seed' must be a whole number", "not a string"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(game(r#","seed":-1"#)),
            vec!["'seed' must be a whole number", "not -1"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(game(r#","seed":1.5"#)),
            vec!["'seed' must be a whole number", "not 1.5"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(game(r#","hint_engine":4"#)),
            vec!["'hint_engine' must be a string", "not a number"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(game(r#","colour":1"#)),
            vec!["unknown field 'colour'", "'hint_engine' or 'seed'"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(r#"{"game":"kalah","first":"human"}"#.into()),
            vec!["missing 'second'", "human, or an agent spec"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(r#"{"game":1,"first":"human","second":"random"}"#.into()),
            vec!["'game' must be a string", "othello, kalah"],
        ),
        (
            "POST",
            "/api/games".to_string(),
            Some(r#"{"game":"kalah","#.into()),
            vec!["the request body is not JSON", "send an object such as"],
        ),
    ];
    for (method, target, body, needles) in cases {
        let answer = server.request(method, &target, body.as_deref());
        let message = error(&answer, 400);
        for needle in needles {
            assert!(
                message.contains(needle),
                "{method} {target} {body:?}: {message}"
            );
        }
        // Never serde's or axum's own wording.
        for raw in [
            "Failed to deserialize",
            "invalid type",
            "invalid digit",
            "expected u8",
        ] {
            assert!(
                !message.contains(raw),
                "{method} {target} {body:?}: {message}"
            );
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn congkak_opening_choices_stay_hidden_until_both_have_chosen() {
    let root = runs_dir("congkak");
    let server = Served::start(&root.join("runs"), &[]);
    let view = new_game(&server, "congkak", "human", "human");
    let id = view["id"].as_u64().unwrap();
    let choosers = view["choosers"].as_array().unwrap();
    assert_eq!(choosers.len(), 2, "both choose at once: {view}");
    let after_south = server
        .post(&format!("/api/games/{id}/move"), r#"{"move":"2","side":0}"#)
        .json();
    assert_eq!(after_south["choosers"][0]["chosen"], true);
    assert_eq!(after_south["choosers"][1]["chosen"], false);
    assert!(after_south["moves"].as_array().unwrap().is_empty());
    // Nothing in the answer gives South's hole away: the board has not moved either.
    assert_eq!(after_south["board"], view["board"]);
    error(
        &server.post(&format!("/api/games/{id}/move"), r#"{"move":"3","side":0}"#),
        409,
    );
    let after_both = server
        .post(&format!("/api/games/{id}/move"), r#"{"move":"5","side":1}"#)
        .json();
    assert_eq!(after_both["moves"], serde_json::json!(["2/5"]));
    assert!(
        after_both["log"][0]
            .as_str()
            .unwrap()
            .starts_with("both play 2/5")
    );

    // Against an engine: it chooses on its own view, unseen, then the person does.
    let view = new_game(&server, "congkak", "human", "random");
    let id = view["id"].as_u64().unwrap();
    let view = server.post(&format!("/api/games/{id}/engine"), "").json();
    assert_eq!(view["choosers"][1]["chosen"], true);
    assert!(view["moves"].as_array().unwrap().is_empty());
    let view = server
        .post(&format!("/api/games/{id}/move"), r#"{"move":"1"}"#)
        .json();
    assert!(
        view["moves"][0].as_str().unwrap().starts_with("1/"),
        "{view}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn malformed_requests_get_a_4xx_json_error() {
    let root = runs_dir("malformed");
    let server = Served::start(&root.join("runs"), &[]);
    let post = |path: &str, body: &str| server.post(path, body);
    error(&post("/api/games", "not json"), 400);
    error(&post("/api/games", r#"{"game":"kalah"}"#), 400);
    error(
        &post(
            "/api/games",
            r#"{"game":"chess","first":"human","second":"random"}"#,
        ),
        400,
    );
    error(
        &post(
            "/api/games",
            r#"{"game":"kalah","first":"human","second":"random","x":1}"#,
        ),
        400,
    );
    let spec = error(
        &post(
            "/api/games",
            r#"{"game":"kalah","first":"human","second":"heuristic:99"}"#,
        ),
        400,
    );
    assert!(spec.contains("heuristic:99"), "{spec}");
    error(
        &post(
            "/api/games",
            r#"{"game":"kalah","first":"human","second":"human","hint_engine":"random"}"#,
        ),
        400,
    );
    error(
        &post(
            "/api/games",
            r#"{"game":"kalah","first":[],"second":"random"}"#,
        ),
        400,
    );
    let huge = format!(
        r#"{{"game":"kalah","first":"{}","second":"random"}}"#,
        "h".repeat(100_000)
    );
    error(&post("/api/games", &huge), 413);
    let bytes = server.request_bytes("POST", "/api/games", Some(&[0xff, 0xfe, 0x00]));
    error(&bytes, 400);
    error(&server.get("/api/games/999"), 404);
    error(&server.get("/api/games/abc"), 404);
    error(&server.get("/api/games/-1/hints"), 404);
    error(&server.get("/api/nothing"), 404);
    error(&server.request("DELETE", "/api/games", None), 405);
    let view = new_game(&server, "othello", "human", "random");
    let id = view["id"].as_u64().unwrap();
    error(
        &post(&format!("/api/games/{id}/move"), r#"{"move":"z9"}"#),
        400,
    );
    error(
        &post(&format!("/api/games/{id}/move"), r#"{"move":"a1"}"#),
        400,
    );
    error(
        &post(
            &format!("/api/games/{id}/move"),
            r#"{"move":"d3","side":7}"#,
        ),
        400,
    );
    error(
        &post(&format!("/api/games/{id}/move"), r#"{"mv":"d3"}"#),
        400,
    );
    error(&server.get(&format!("/api/games/{id}/hints?side=x")), 400);
    error(&server.get("/api/run"), 400);
    // The server is still there and well.
    assert_eq!(server.get(&format!("/api/games/{id}")).status, 200);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn no_path_outside_the_runs_directory_is_ever_read() {
    let root = runs_dir("traversal");
    let runs = root.join("runs");
    std::os::unix::fs::symlink(&root, runs.join("escape")).unwrap();
    std::os::unix::fs::symlink(root.join("secret.txt"), runs.join("kalah/linked.evo")).unwrap();
    let server = Served::start(&runs, &[]);
    let listed = server.get("/api/runs").json();
    assert_eq!(listed["runs"].as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(server.get("/api/run?name=kalah").status, 200);
    for name in [
        "..",
        "../runs/kalah",
        "..%2fruns%2fkalah",
        "%2e%2e%2fsecret.txt",
        "kalah%2f..%2f..",
        "%2Fetc",
        "/etc",
        "escape",
        "escape/secret.txt",
        "kalah/../../runs/kalah",
        "./kalah",
        "",
        "kalah%00",
    ] {
        let answer = server.get(&format!("/api/run?name={name}"));
        assert!(
            matches!(answer.status, 400 | 404),
            "{name}: {}",
            answer.body
        );
        assert!(answer.json()["error"].is_string());
        assert!(!answer.body.contains("top secret"), "{name}");
    }
    for path in [
        "/../secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/api/run/../../secret.txt",
        "/static/..%2f..%2fsecret.txt",
        "//etc/passwd",
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        assert!(
            !answer.body.contains("top secret") && !answer.body.contains("root:"),
            "{path}"
        );
    }
    // Champions too: only from inside the runs directory.
    for spec in [
        "champion:../secret.txt",
        "champion:/etc/passwd",
        "champion:escape/secret.txt",
        "champion:kalah/linked.evo",
        "nmm:2:2:../secret.txt",
    ] {
        let body = format!(r#"{{"game":"kalah","first":"human","second":"{spec}"}}"#);
        let answer = server.post("/api/games", &body);
        assert!(
            matches!(answer.status, 400 | 404),
            "{spec}: {}",
            answer.body
        );
        assert!(answer.json()["error"].is_string());
        assert!(!answer.body.contains("top secret"), "{spec}");
    }
    // No program is started from the page, not even as an external engine.
    let started = root.join("started");
    for protocol in ["nboard", "gtp"] {
        let spec = format!("{protocol}:touch {}", started.display());
        let body = format!(r#"{{"game":"othello","first":"{spec}","second":"human"}}"#);
        let answer = server.post("/api/games", &body);
        assert_eq!(answer.status, 400, "{spec}: {}", answer.body);
        assert!(
            answer.body.contains("the page starts no programs"),
            "{}",
            answer.body
        );
    }
    assert!(!started.exists());
    // The run's own champion plays.
    let view = new_game(&server, "kalah", "human", "champion:kalah/champion.evo");
    assert_eq!(view["seats"][1]["player"], "champion:kalah/champion.evo");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_run_rewritten_while_watched_is_read_whole_and_shows_new_generations() {
    let root = runs_dir("live");
    let server = Served::start(&root.join("runs"), &[]);
    let stats = root.join("runs/kalah/stats.csv");
    let text = std::fs::read_to_string(&stats).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let run = |count: usize| {
        // As evolve does: the whole file written beside it and renamed over it.
        let partial = lines[..=count].join("\n") + "\n";
        let temporary = stats.with_extension("tmp");
        std::fs::write(&temporary, partial).unwrap();
        std::fs::rename(&temporary, &stats).unwrap();
        server.get("/api/run?name=kalah").json()
    };
    let first = run(2);
    assert_eq!(first["rows"].as_array().unwrap().len(), 2);
    assert_eq!(first["champion"], "champion:kalah/champion.evo");
    assert_eq!(first["game"], "kalah");
    let later = run(lines.len() - 1);
    assert_eq!(later["rows"].as_array().unwrap().len(), lines.len() - 1);
    assert!(later["rows"][1]["fitness_max"].is_number());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let root = runs_dir("stop");
    let server = Served::start(&root.join("runs"), &[]);
    assert_eq!(server.get("/").status, 200);
    let (status, printed) = server.interrupt();
    assert!(status.success(), "{status:?}: {printed}");
    assert!(printed.contains("stopped"), "{printed}");
    // Its handler is in place before it says where it listens: a Ctrl-C at once is clean.
    let (status, printed) = Served::start(&root.join("runs"), &[]).interrupt();
    assert!(status.success(), "{status:?}: {printed}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// The peak resident memory of process `pid` (Linux), in MiB.
fn peak_memory_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[test]
fn two_hundred_concurrent_games_against_random_are_played_to_the_end() {
    const GAMES: usize = 200;
    let root = runs_dir("load");
    // Every client thread connects from this machine: one address keeps all the games.
    let server = Served::start(&root.join("runs"), &["--max-games-per-client", "200"]);
    let clock = Instant::now();
    let results: Vec<(String, usize)> = std::thread::scope(|scope| {
        let players: Vec<_> = (0..GAMES)
            .map(|i| {
                let server = &server;
                scope.spawn(move || {
                    let game = ["kalah", "oware", "congklak", "congkak", "othello"][i % 5];
                    let (view, requests) =
                        play_out(server, new_game(server, game, "human", "random"));
                    (view["result"].as_str().unwrap().to_string(), requests)
                })
            })
            .collect();
        players.into_iter().map(|p| p.join().unwrap()).collect()
    });
    let seconds = clock.elapsed().as_secs_f64();
    assert_eq!(results.len(), GAMES);
    assert!(results.iter().all(|(result, _)| !result.is_empty()));
    let requests: usize = results.iter().map(|(_, r)| r).sum::<usize>() + GAMES;
    // Measurements, not assertions (the machine is shared): the README reports them.
    println!(
        "load: {GAMES} concurrent games, {requests} requests in {seconds:.1} s \
         ({:.0} requests/s); server peak memory {:.1} MiB",
        requests as f64 / seconds,
        peak_memory_mib(server.pid()).unwrap_or(f64::NAN)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn engine_moves_and_hints_stop_at_the_servers_move_time() {
    let root = runs_dir("time");
    let server = Served::start(&root.join("runs"), &["--move-time", "0.2"]);
    // Uncapped, a 20-ply Othello search would take far longer than the test waits.
    let body = r#"{"game":"othello","first":"heuristic:20~86400","second":"human","hint_engine":"heuristic:20~86400"}"#;
    let view = server.post("/api/games", body).json();
    let id = view["id"].as_u64().unwrap();
    let view = server.post(&format!("/api/games/{id}/engine"), "").json();
    assert_eq!(view["moves"].as_array().unwrap().len(), 1, "{view}");
    let hints = server.get(&format!("/api/games/{id}/hints")).json();
    assert!(hints["hints"].as_array().unwrap().len() >= 3, "{hints}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_least_recently_used_game_makes_room_for_a_new_one() {
    let root = runs_dir("evict");
    let server = Served::start(&root.join("runs"), &["--max-games", "2"]);
    let ids: Vec<u64> = (0..2)
        .map(|_| {
            new_game(&server, "kalah", "human", "random")["id"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(server.get(&format!("/api/games/{}", ids[0])).status, 200);
    new_game(&server, "kalah", "human", "random");
    error(&server.get(&format!("/api/games/{}", ids[1])), 404);
    assert_eq!(server.get(&format!("/api/games/{}", ids[0])).status, 200);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Creates a named pipe at `path` (reading one with no writer would wait forever).
fn make_fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// The error of a new Kalah game whose second player is `spec`, asserted to be a 4xx that
/// quotes nothing secret.
fn refused_spec(server: &Served, spec: &str) -> (u16, String) {
    let body = format!(r#"{{"game":"kalah","first":"human","second":"{spec}"}}"#);
    let answer = server.post("/api/games", &body);
    assert!(
        matches!(answer.status, 400 | 404),
        "{spec}: {} {}",
        answer.status,
        answer.body
    );
    assert!(
        !answer.body.contains("top secret"),
        "{spec}: {}",
        answer.body
    );
    (answer.status, error(&answer, answer.status))
}

#[test]
fn weights_files_in_specs_are_read_only_inside_the_runs_directory_and_never_quoted() {
    let root = runs_dir("weights");
    let run = root.join("runs/kalah");
    std::fs::write(root.join("secret.json"), r#"{"top secret": 1}"#).unwrap();
    std::fs::write(run.join("weights.json"), r#"{"h1": 2, "h2": -0.5}"#).unwrap();
    std::fs::write(
        run.join("bad.json"),
        "{\n  \"h1\": 1,\n  \"top secret\": 1\n}",
    )
    .unwrap();
    std::fs::write(run.join("text.json"), r#""top secret""#).unwrap();
    std::fs::write(run.join("value.json"), r#"{"h2": "top secret"}"#).unwrap();
    std::fs::create_dir(run.join("dir.json")).unwrap();
    make_fifo(&run.join("pipe.json"));
    std::fs::File::create(run.join("huge.json"))
        .unwrap()
        .set_len(4 << 20)
        .unwrap();
    std::os::unix::fs::symlink(root.join("secret.json"), run.join("out.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", run.join("zero.json")).unwrap();
    let server = Served::start(&root.join("runs"), &[]);
    // Outside the runs directory: refused, without telling whether the file exists.
    for spec in ["minimax:2:../secret.json", "minimax:2:/etc/passwd.json"] {
        refused_spec(&server, spec);
    }
    let (status, linked) = refused_spec(&server, "minimax:2:kalah/out.json");
    let (missing_status, missing) = refused_spec(&server, "minimax:2:kalah/missing.json");
    assert_eq!(status, missing_status);
    assert_eq!(linked.replace("out.json", "missing.json"), missing);
    refused_spec(&server, "minimax:2:kalah/zero.json");
    // Inside it: only regular files of a bounded size, read without waiting on a pipe.
    for (name, reason) in [
        ("pipe", "not a regular file"),
        ("dir", "not a regular file"),
        ("huge", "larger than"),
        ("bad", "line 3 column"),
        ("text", "a string, not an object"),
        ("value", "the weight of 'h2' is not a finite number"),
    ] {
        let (status, message) = refused_spec(&server, &format!("minimax:2:kalah/{name}.json"));
        assert_eq!(status, 400, "{message}");
        assert!(message.contains(reason), "{name}: {message}");
    }
    let body = r#"{"game":"kalah","first":"human","second":"human","hint_engine":"minimax:2:../secret.json"}"#;
    error(&server.post("/api/games", body), 400);
    let view = new_game(&server, "kalah", "human", "minimax:2:kalah/weights.json");
    assert_eq!(view["seats"][1]["player"], "minimax:2:kalah/weights.json");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_runs_viewer_follows_no_link_out_of_the_runs_directory() {
    let root = runs_dir("viewer-links");
    let runs = root.join("runs");
    let shipped = runs.join("kalah");
    std::fs::write(root.join("run.json"), r#"{"game": "top secret"}"#).unwrap();
    std::fs::copy(shipped.join("stats.csv"), root.join("stats.csv")).unwrap();
    // A run whose statistics and settings are links to files outside.
    let linked = runs.join("linked");
    std::fs::create_dir(&linked).unwrap();
    std::os::unix::fs::symlink(root.join("stats.csv"), linked.join("stats.csv")).unwrap();
    std::os::unix::fs::symlink(root.join("run.json"), linked.join("run.json")).unwrap();
    // A run whose settings never end, and one whose settings are a pipe.
    for (name, run_json) in [("zero", Some("/dev/zero")), ("piped", None)] {
        let dir = runs.join(name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::copy(shipped.join("stats.csv"), dir.join("stats.csv")).unwrap();
        match run_json {
            Some(target) => std::os::unix::fs::symlink(target, dir.join("run.json")).unwrap(),
            None => make_fifo(&dir.join("run.json")),
        }
    }
    let server = Served::start(&runs, &[]);
    let listed = server.get("/api/runs");
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert!(!listed.body.contains("top secret"), "{}", listed.body);
    let listed = listed.json();
    let names: Vec<&str> = listed["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["kalah", "piped", "zero"]);
    let answer = server.get("/api/run?name=linked");
    assert_eq!(answer.status, 404, "{}", answer.body);
    assert!(!answer.body.contains("top secret"));
    for name in ["zero", "piped"] {
        let view = server.get(&format!("/api/run?name={name}")).json();
        assert!(view["game"].is_null(), "{view}");
        assert!(!view["rows"].as_array().unwrap().is_empty(), "{view}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn champions_are_named_as_the_command_line_names_them_and_only_inside_the_runs_directory() {
    let root = runs_dir("champion-paths");
    std::os::unix::fs::symlink(root.join("secret.txt"), root.join("runs/kalah/secret.evo"))
        .unwrap();
    // Started in the directory above its runs, as `evoboard serve --runs populations` is.
    let server = Served::start_in(&root, Path::new("runs"), &[]);
    for spec in [
        "champion:runs/kalah/champion.evo",
        "champion:kalah/champion.evo",
    ] {
        let view = new_game(&server, "kalah", "human", spec);
        assert_eq!(view["seats"][1]["player"], spec);
    }
    for spec in [
        "champion:secret.txt",
        "champion:runs/../secret.txt",
        "champion:runs/kalah/secret.evo",
    ] {
        let (_, message) = refused_spec(&server, spec);
        if spec == "champion:secret.txt" {
            assert!(
                message.contains("runs directory 'runs'")
                    && message.contains("server's working directory"),
                "{message}"
            );
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn one_client_may_keep_only_its_share_of_the_games() {
    let root = runs_dir("per-client");
    let server = Served::start(&root.join("runs"), &["--max-games-per-client", "3"]);
    for _ in 0..3 {
        new_game(&server, "kalah", "human", "champion:kalah/champion.evo");
    }
    let body = r#"{"game":"kalah","first":"human","second":"random"}"#;
    let message = error(&server.post("/api/games", body), 429);
    assert!(message.contains("--max-games-per-client"), "{message}");
    // More games than a server can hold is refused at start (the address, which cannot
    // be listened on, only ends a server that accepted the flag).
    for flag in ["--max-games", "--max-games-per-client"] {
        let output = common::evoboard(&["serve", "--addr", "192.0.2.1:9", flag, "10001"]);
        let message = common::error_line(&output);
        assert!(message.contains("10000"), "{flag}: {message}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Opens a connection to `server`, sends `bytes`, and returns everything the server sends
/// before it closes the connection (the read times out only if the server never does).
fn send_and_wait_for_close(server: &Served, bytes: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    stream.write_all(bytes).unwrap();
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .expect("the server closes the connection");
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn slow_and_idle_connections_are_closed_and_their_number_is_bounded() {
    let root = runs_dir("connections");
    let flags = [
        "--header-timeout",
        "1",
        "--body-timeout",
        "1",
        "--max-connections",
        "2",
    ];
    let server = Served::start(&root.join("runs"), &flags);
    // Half a request line, or nothing at all: closed.
    send_and_wait_for_close(&server, b"GET / HT");
    send_and_wait_for_close(&server, b"");
    // Headers in time, but a body that stops: 408.
    let partial = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\"";
    let answer = send_and_wait_for_close(&server, partial);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
    // Two idle connections fill the server; a request waits until they are closed.
    let idle: Vec<_> = (0..2)
        .map(|_| std::net::TcpStream::connect(&server.address).unwrap())
        .collect();
    assert_eq!(server.get("/api/runs").status, 200);
    drop(idle);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_self_play_run_shows_no_fitness_or_diversity_and_a_population_both() {
    let root = runs_dir("series");
    let runs = root.join("runs");
    let modern = runs.join("othello-modern");
    std::fs::create_dir_all(&modern).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations/othello-modern");
    for file in ["stats.csv", "run.json"] {
        std::fs::copy(shipped.join(file), modern.join(file)).unwrap();
    }
    let server = Served::start(&runs, &[]);
    // The shipped Kalah run is one network learning by self-play (the td preset).
    let td = server.get("/api/run?name=kalah").json();
    assert_eq!(
        (&td["shows_fitness"], &td["shows_diversity"]),
        (&Value::Bool(false), &Value::Bool(false))
    );
    // The page says why those charts are absent.
    let reason = td["fitness_absent"].as_str().unwrap();
    assert!(reason.contains("0.5 every generation"), "{reason}");
    let reason = td["diversity_absent"].as_str().unwrap();
    assert!(reason.contains("one network"), "{reason}");
    // Its champion came from generation 47 and won 87.5% of its final 400-game test,
    // which the benchmark chart marks with its interval.
    assert_eq!(td["champion_generation"], 47);
    let test = &td["champion_test"];
    assert_eq!(
        (&test["generation"], &test["games"]),
        (&47.into(), &400.into())
    );
    let rate = test["win_rate"].as_f64().unwrap();
    let (low, high) = (
        test["ci_low"].as_f64().unwrap(),
        test["ci_high"].as_f64().unwrap(),
    );
    assert!((rate - 0.875).abs() < 1e-9, "{test}");
    assert!(low < rate && rate < high && high - low < 0.1, "{test}");
    let population = server.get("/api/run?name=othello-modern").json();
    assert_eq!(
        (&population["shows_fitness"], &population["shows_diversity"]),
        (&Value::Bool(true), &Value::Bool(true))
    );
    assert_eq!(population["fitness_label"], "league points");
    assert!(population["fitness_absent"].is_null() && population["diversity_absent"].is_null());
    // No champion.evo copied: nothing to mark.
    assert!(population["champion_generation"].is_null() && population["champion_test"].is_null());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_distillation_fit_shows_its_losses_epoch_by_epoch() {
    let root = runs_dir("fit");
    let runs = root.join("runs");
    let fit = runs.join("wide");
    std::fs::create_dir_all(&fit).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations/othello-mlp-wide");
    for file in ["stats.csv", "distill.json", "champion.evo"] {
        std::fs::copy(shipped.join(file), fit.join(file)).unwrap();
    }
    let server = Served::start(&runs, &[]);
    let listed = server.get("/api/runs").json();
    let entry = listed["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|run| run["name"] == "wide")
        .cloned()
        .unwrap();
    assert_eq!(
        (&entry["game"], &entry["champion"]),
        (&"othello".into(), &true.into())
    );
    let view = server.get("/api/run?name=wide").json();
    assert!(view["problem"].is_null(), "{view}");
    assert_eq!(view["champion"], "champion:wide/champion.evo");
    let losses = view["losses"].as_array().unwrap();
    let stats = std::fs::read_to_string(fit.join("stats.csv")).unwrap();
    assert_eq!(losses.len(), stats.lines().count() - 1);
    // Epoch 0 is the start: a validation loss, no training yet.
    assert_eq!(losses[0]["epoch"], 0);
    assert!(losses[0]["train_loss"].is_null());
    let last = stats.lines().last().unwrap().split(',').collect::<Vec<_>>();
    let last_loss = &losses[losses.len() - 1];
    assert_eq!(last_loss["epoch"], last[0].parse::<u32>().unwrap());
    assert_eq!(
        last_loss["validation_loss"].as_f64().unwrap(),
        last[3].parse::<f64>().unwrap()
    );
    assert!(view["rows"].as_array().unwrap().is_empty());
    // An evolution run has no losses; a fit's damaged statistics are its problem.
    assert!(server.get("/api/run?name=kalah").json()["losses"].is_null());
    std::fs::write(
        fit.join("stats.csv"),
        "epoch,learning_rate\nnot a number,x\n",
    )
    .unwrap();
    let damaged = server.get("/api/run?name=wide").json();
    assert!(damaged["losses"].as_array().unwrap().is_empty());
    assert!(
        damaged["problem"].as_str().unwrap().contains("damaged"),
        "{damaged}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

//! The NBoard protocol, driven by scripted sessions over stdin/stdout.

mod common;

fn session(player: &str, script: &str) -> Vec<String> {
    let output = common::evoboard_with_input(&["nboard", "--player", player], script);
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn a_session_answers_every_command_in_order() {
    let script = format!(
        "nboard 2\nset depth 2\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]{START}B[F5//0.01]W[D6];)\n\
         ping 1\ngo\nhint 3\nset contempt 0\nmove C3/0.5/1.2\nunknown command\nping 2\n"
    );
    let lines = session("heuristic:4", &script);
    assert_eq!(lines[0], "set myname evoboard");
    assert_eq!(lines[1], "pong 1");
    assert_eq!(lines[2], "status thinking");
    // After F5 D6 black may play C3, C4, C5, C6 or C7.
    let chosen = lines[3].strip_prefix("=== ").expect("a move reply");
    let fields: Vec<&str> = chosen.split('/').collect();
    assert_eq!(fields.len(), 3);
    assert!(
        ["C3", "C4", "C5", "C6", "C7"].contains(&fields[0]),
        "{chosen}"
    );
    assert!(fields[1].parse::<f32>().is_ok() && fields[2].parse::<f32>().is_ok());
    assert_eq!(lines[4], "status");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), 3);
    assert!(
        hints.iter().all(|h| h.ends_with(" 0 2")),
        "depth 2 after `set depth 2`: {hints:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 2");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("status ") && l.contains("illegal")),
        "{lines:?}"
    );
}

#[test]
fn moves_passes_and_bad_input_are_handled() {
    // White to move with no placement but black can move: the engine must pass.
    let pass_position = format!("BO[8 *O{} O]", "-".repeat(62));
    let script =
        format!("nboard 2\nset game (;GM[Othello]{pass_position};)\ngo\nmove A1\nping 3\n");
    let lines = session("random", &script);
    assert!(lines.iter().any(|l| l.starts_with("=== PA/")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("status illegal move")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 3");
    let broken = session("heuristic:1", "set game (;GM[Othello]BO[8 ---];)\nping 4\n");
    assert!(
        broken[0].starts_with("status cannot read the game"),
        "{broken:?}"
    );
    assert_eq!(broken[1], "pong 4");
}

#[test]
fn the_shipped_champion_plays_over_nboard() {
    let champion = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/populations/othello/champion.evo"
    );
    let lines = session(&format!("champion:{champion}"), "nboard 2\ngo\n");
    assert!(
        ["=== D3/", "=== C4/", "=== F5/", "=== E6/"]
            .iter()
            .any(|p| lines[2].starts_with(p)),
        "{lines:?}"
    );
}

#[test]
fn a_proven_result_is_reported_as_its_disc_margin() {
    // Black's a1 flips b1 and fills the board: 64–0, reported as +64 discs, not as the
    // search's internal win value.
    let board = format!("-OXXXXXX{}", "X".repeat(56));
    let script = format!(
        "nboard 2\nset game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {board} *];)\ngo\nhint 1\n"
    );
    let lines = session("heuristic:3", &script);
    assert!(
        lines.iter().any(|l| l.starts_with("=== A1/64.00/")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "search A1 64.00 0 3"),
        "{lines:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_line_and_the_session_goes_on() {
    let output = common::evoboard_with_bytes(
        &["nboard", "--player", "random"],
        b"nboard 2\nping \xff\xfe 1\nping 2\n",
    );
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "set myname evoboard",
            "status ignored a line that is not UTF-8 text",
            "pong 2"
        ]
    );
}

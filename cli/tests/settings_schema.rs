//! The library's schema of settings is the only definition of a run's settings: every
//! entry is a flag of `evolve` with its help and defaults, a key of `--print-config`'s
//! `run.json` and of plans, and each bounded setting is refused one past its bound by the
//! command line and by a plan alike, with an error naming it in each one's spelling (the
//! Python package's side is `python/tests/test_settings.py`).

mod common;

use common::{bad_input, evoboard, json_of, stdout_of};
use evoboard::evolve::schema::{Flag, Kind, SETTINGS, Setting};
use evoboard::experiments::plan::PlanFile;
use evoboard::games::othello::Othello;
use serde_json::{Value, json};

/// The values one past a setting's bounds (none for a bound that is its type's own).
fn one_past(setting: &Setting) -> Vec<Value> {
    match setting.kind {
        Kind::Whole { min, max } => {
            let mut past = Vec::new();
            if max < u64::MAX {
                past.push(json!(max + 1));
            }
            if min > 0 {
                past.push(json!(min - 1));
            }
            past
        }
        Kind::Real { min, max, open } if max >= f64::from(f32::MAX) => match open {
            true => vec![json!(min)],
            false => vec![json!(min - 1.0)],
        },
        Kind::Real { min, max, open } => {
            let below = if open { min } else { min - 1.0 };
            vec![json!(max + 1.0), json!(below)]
        }
        Kind::Wholes { max, .. } => vec![json!([max + 1])],
        _ => Vec::new(),
    }
}

/// `value` as the command line writes it.
fn as_text(value: &Value) -> String {
    match value {
        Value::Array(items) => items
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(","),
        other => other.to_string(),
    }
}

#[test]
fn every_setting_is_a_flag_with_its_defaults_and_a_key_of_run_json() {
    let help = stdout_of(&["evolve", "--help"]);
    let config = json_of(&["evolve", "--game", "othello", "--print-config"]);
    for setting in SETTINGS {
        let flag = format!("--{}", setting.flag.name());
        let paragraph: String = help
            .lines()
            .skip_while(|line| !line.trim_start().starts_with(&flag))
            .take(2)
            .collect();
        assert!(
            paragraph.contains(setting.doc) && paragraph.contains("[default: "),
            "{flag}: {paragraph:?}"
        );
        // A list of plays is left out of files while empty (older runs' bytes stay).
        assert!(
            config.get(setting.name).is_some() || setting.kind == Kind::Plays,
            "{} is not in run.json",
            setting.name
        );
    }
    let left_out = SETTINGS.iter().filter(|s| s.kind == Kind::Plays).count();
    assert_eq!(
        config.as_object().unwrap().len(),
        SETTINGS.len() - left_out,
        "run.json holds exactly the schema's settings"
    );
    let mixed = json_of(&[
        "evolve",
        "--game",
        "othello",
        "--sparring",
        "wpc:1@0.1,heuristic:2",
        "--sparring-games",
        "10",
        "--sparring-play",
        "1@0.1,2",
        "--print-config",
    ]);
    assert_eq!(mixed["sparring_play"], serde_json::json!(["1@0.1", "2"]));
}

#[test]
fn help_states_each_presets_defaults_as_the_presets_have_them() {
    let help = stdout_of(&["evolve", "--help"]);
    for stated in [
        "[default: td: 1; ctdl: 6; cocmaes: 400; others: 20]",
        "[default: td: 50000; ctdl: 10000; others: 0]",
        "[default: cocmaes: 1; others: 2]",
        "[default: td, ctdl and cocmaes: 1; others: 0.75]",
        "[default: 42 for othello, 9 for kalah and oware, 10 for congklak, 20 for congkak]",
        "[default: td]",
    ] {
        assert!(help.contains(stated), "{stated}");
    }
}

#[test]
fn print_config_resolves_renamed_flags_switches_and_words() {
    let config = json_of(&[
        "evolve",
        "--game",
        "kalah",
        "--print-config",
        "--preset",
        "modern",
        "--td-depth",
        "2",
        "--lambda",
        "0.5",
        "--no-league",
        "--hall-of-fame",
        "2",
        "--unbounded-steps",
        "--keep-checkpoints",
        "all",
        "--hidden",
        "12,6",
    ]);
    assert_eq!(config["preset"], "modern");
    assert_eq!(config["td_play_depth"], 2);
    assert_eq!(config["td_lambda"], 0.5);
    assert_eq!(config["league"], false);
    assert_eq!(config["sigma_bound"], Value::Null);
    assert_eq!(config["keep_checkpoints"], Value::Null);
    assert_eq!(config["hidden"], json!([12, 6]));
}

#[test]
fn each_bound_is_refused_one_past_it_by_the_command_line_and_by_plans() {
    let mut checked = 0;
    for setting in SETTINGS {
        for past in one_past(setting) {
            let flag = format!("--{}", setting.flag.name());
            assert!(matches!(setting.flag, Flag::Value(_)), "{flag}");
            let text = as_text(&past);
            let message = bad_input(&[
                "evolve",
                "--game",
                "othello",
                "--print-config",
                &flag,
                &text,
            ]);
            let named = format!("{flag} takes {}", setting.accepts());
            assert!(message.contains(&named), "{flag} {text}: {message}");

            let plan = format!(
                "game = \"othello\"\nseeds = [1]\n[base]\n{} = {}\n[variants.a]\n",
                setting.name,
                toml_value(&past)
            );
            let refused = PlanFile::parse(&plan)
                .and_then(|plan| plan.resolve(&Othello::start()))
                .expect_err(&plan)
                .to_string();
            let named = format!("{} takes {}", setting.name, setting.accepts());
            assert!(refused.contains(&named), "{plan}: {refused}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} bounds checked");
}

/// `value` as TOML writes it.
fn toml_value(value: &Value) -> String {
    match value {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Number(number) if number.is_f64() => format!("{:?}", number.as_f64().unwrap()),
        other => other.to_string(),
    }
}

#[test]
fn a_resumed_run_names_the_settings_it_would_change() {
    let dir = common::temp_dir("resume-settings");
    let out = dir.to_str().unwrap();
    let created = evoboard(&[
        "evolve",
        "--game",
        "kalah",
        "--preset",
        "paper",
        "--population",
        "4",
        "--generations",
        "1",
        "--bench-games",
        "0",
        "--out",
        out,
        "--no-plots",
    ]);
    assert!(created.status.success(), "{created:?}");
    let message = bad_input(&[
        "evolve",
        "--out",
        out,
        "--resume",
        "--elitism",
        "2",
        "--seed",
        "5",
    ]);
    assert!(
        message.contains("but --seed, --elitism would change; only --generations, --keep-checkpoints, --snapshots may"),
        "{message}"
    );
    let longer = json_of(&[
        "evolve",
        "--out",
        out,
        "--resume",
        "--print-config",
        "--generations",
        "3",
        "--elitism",
        "1",
    ]);
    assert_eq!(longer["generations"], 3);
    std::fs::remove_dir_all(dir).unwrap();
}

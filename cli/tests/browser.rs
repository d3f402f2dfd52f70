//! The web page in a real browser: headless Chromium, driven through WebDriver
//! (chromedriver), opens the page on Othello against the shipped champion, picks Kalah and
//! a custom spec (`random`) from the player lists, plays by clicking pits, sees the engine
//! answer, plays to the end, and takes a screenshot that must not be blank. Then the Runs
//! tab: a TD run's benchmark chart with its champion and final test marked, and notes in
//! place of the fitness and diversity it has not; a population's three charts; axis labels
//! drawn at a readable size.
//!
//! It needs Debian's `chromium` and `chromium-driver`, so `cargo test` leaves it out
//! (`#[ignore]`); `.ci/run` installs them and runs it with
//! `cargo test --release --test browser -- --ignored`. Without the browser it fails: it
//! never passes without having run. Set `EVOBOARD_SCREENSHOT=FILE` to keep the screenshot
//! (the README's picture is made this way), and `EVOBOARD_RUNS_SCREENSHOT=FILE` the Runs
//! tab's (`docs/serve-runs.png`).

mod common;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::Served;
use fantoccini::{Client, ClientBuilder, Locator};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Longest the test waits for the page to change after a click: far above the real time,
/// so only a page that never answers fails this way.
const PAGE_TIMEOUT: Duration = Duration::from_secs(60);

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> (Driver, u16) {
    for program in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(program).exists(),
            "{program} is missing: install Debian's chromium and chromium-driver packages \
             (apt-get install -y chromium chromium-driver); this test cannot run without them"
        );
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let clock = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            clock.elapsed() < PAGE_TIMEOUT,
            "chromedriver never listened"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, port)
}

async fn connect(port: u16, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a browser session starts")
}

async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn log_length(client: &Client) -> usize {
    client
        .find_all(Locator::Css("#log li"))
        .await
        .unwrap()
        .len()
}

/// Waits until `done` holds of the page's status line.
async fn wait_for_status(client: &Client, done: impl Fn(&str) -> bool) -> String {
    let clock = Instant::now();
    loop {
        let status = text_of(client, "#status").await;
        if done(&status) {
            return status;
        }
        assert!(
            clock.elapsed() < PAGE_TIMEOUT,
            "the page is stuck at: {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Chooses the option `value` of the list `css`.
async fn choose(client: &Client, css: &str, value: &str) {
    let list = client.find(Locator::Css(css)).await.unwrap();
    list.select_by_value(value).await.unwrap();
}

async fn is_shown(client: &Client, css: &str) -> bool {
    let element = client.find(Locator::Css(css)).await.unwrap();
    element.is_displayed().await.unwrap()
}

/// The page opens on a game of Othello, a person against the shipped champion, its board
/// drawn; the player lists offer it, the levels and a custom spec.
async fn opens_on_othello_against_the_champion(client: &Client) {
    wait_for_status(client, |s| s.starts_with("black (X) to move")).await;
    let squares = client
        .find_all(Locator::Css("#board circle.legal"))
        .await
        .unwrap();
    assert_eq!(squares.len(), 4, "Othello's four opening moves are marked");
    let second = client.find(Locator::Css("#second")).await.unwrap();
    let champion = "champion:othello/champion.evo";
    assert_eq!(
        second.prop("value").await.unwrap().as_deref(),
        Some(champion)
    );
    let mut offered = Vec::new();
    for option in client
        .find_all(Locator::Css("#first option"))
        .await
        .unwrap()
    {
        offered.push(option.attr("value").await.unwrap().unwrap_or_default());
    }
    for option in ["human", champion, "normal", "custom"] {
        assert!(
            offered.iter().any(|o| o == option),
            "{option} is not offered: {offered:?}"
        );
    }
    assert!(
        !is_shown(client, "#second-spec").await,
        "the spec box waits for custom"
    );
}

async fn set_field(client: &Client, css: &str, value: &str) {
    let field = client.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

/// Whether a screenshot shows a page: many colours, and much of it not the background.
fn is_drawn(png: &[u8]) -> bool {
    let image = image::load_from_memory(png).expect("a PNG").to_rgb8();
    let background = *image.get_pixel(0, image.height() - 1);
    let mut colours = std::collections::HashSet::new();
    let mut other = 0usize;
    for pixel in image.pixels() {
        colours.insert(pixel.0);
        other += usize::from(*pixel != background);
    }
    colours.len() > 50 && other * 10 > image.pixels().len()
}

async fn play_kalah(client: &Client, url: &str) -> Vec<u8> {
    client.goto(url).await.unwrap();
    assert_eq!(client.title().await.unwrap(), "evoboard");
    opens_on_othello_against_the_champion(client).await;
    choose(client, "#game", "kalah").await;
    choose(client, "#first", "human").await;
    choose(client, "#second", "custom").await;
    assert!(
        is_shown(client, "#second-spec").await,
        "custom shows the spec box"
    );
    set_field(client, "#second-spec", "random").await;
    client
        .find(Locator::Css("#new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_status(client, |s| s.starts_with("South to move")).await;
    let pits = client
        .find_all(Locator::Css("#board circle.legal"))
        .await
        .unwrap();
    assert_eq!(pits.len(), 6, "every South pit is legal at the start");
    let mut screenshot = None;
    let mut clicks = 0;
    loop {
        let status = wait_for_status(client, |s| {
            s.starts_with("South to move") || s.starts_with("Game over")
        })
        .await;
        if status.starts_with("Game over") {
            break;
        }
        let before = log_length(client).await;
        let legal = client
            .find_all(Locator::Css("#board circle.legal"))
            .await
            .unwrap();
        legal
            .last()
            .expect("a legal pit to click")
            .click()
            .await
            .unwrap();
        clicks += 1;
        assert!(clicks < 200, "the game does not end");
        let clock = Instant::now();
        while log_length(client).await <= before {
            assert!(clock.elapsed() < PAGE_TIMEOUT, "the click played nothing");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if clicks == 6 && screenshot.is_none() {
            let status = wait_for_status(client, |s| {
                s.starts_with("South to move") || s.starts_with("Game over")
            })
            .await;
            if status.starts_with("Game over") {
                continue;
            }
            client
                .find(Locator::Css("#hint"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            let clock = Instant::now();
            while client.find(Locator::Css("#hints tbody tr")).await.is_err() {
                assert!(clock.elapsed() < PAGE_TIMEOUT, "no hints shown");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            screenshot = Some(client.screenshot().await.unwrap());
        }
    }
    let log = text_of(client, "#log").await;
    assert!(log.contains("South plays"), "{log}");
    assert!(
        log.contains("North plays"),
        "the engine never answered: {log}"
    );
    let record = client.find(Locator::Css("#record")).await.unwrap();
    assert!(
        record.is_displayed().await.unwrap(),
        "a finished game can be saved"
    );
    screenshot.unwrap_or(client.screenshot().await.unwrap())
}

/// Waits until the element `css` exists.
async fn wait_for(client: &Client, css: &str) {
    let clock = Instant::now();
    while client.find(Locator::Css(css)).await.is_err() {
        assert!(clock.elapsed() < PAGE_TIMEOUT, "{css} never appears");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens run `name` from the Runs tab's list and waits for its title and benchmark line.
async fn open_run(client: &Client, name: &str) {
    client
        .find(Locator::Css(&format!("#run-list a[data-run='{name}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let clock = Instant::now();
    while !text_of(client, "#run-title")
        .await
        .starts_with(&format!("{name} —"))
    {
        assert!(clock.elapsed() < PAGE_TIMEOUT, "run {name} never shows");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_for(client, "#chart-benchmark polyline.series").await;
}

/// The smallest rendered height, in CSS pixels, of the tick labels of chart `css`.
async fn smallest_label(client: &Client, css: &str) -> f64 {
    let script = "const heights = [...document.querySelectorAll(arguments[0] + ' text.tick')] \
                  .map((t) => t.getBoundingClientRect().height); \
                  return heights.length ? Math.min(...heights) : 0;";
    let value = client
        .execute(script, vec![serde_json::json!(css)])
        .await
        .unwrap();
    value.as_f64().unwrap()
}

/// The Runs tab: the shipped Othello run (TD, one network) and the League run (a
/// population), each chart it can draw, its notes, and its champion's final test.
async fn watch_runs(client: &Client) -> Vec<u8> {
    client
        .find(Locator::Css("#tab-runs"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, "#run-list a[data-run='othello']").await;
    open_run(client, "othello").await;
    assert!(is_shown(client, "#chart-benchmark").await);
    for (chart, note) in [("fitness", "No fitness"), ("diversity", "No diversity")] {
        assert!(
            !is_shown(client, &format!("#chart-{chart}")).await,
            "{chart}"
        );
        assert!(
            is_shown(client, &format!("#{chart}-absent")).await,
            "{chart}"
        );
        let text = text_of(client, &format!("#{chart}-absent")).await;
        assert!(text.starts_with(note), "{text}");
    }
    for mark in ["champion", "test"] {
        let found = client
            .find_all(Locator::Css(&format!("#chart-benchmark g.mark.{mark}")))
            .await
            .unwrap();
        assert_eq!(found.len(), 1, "the {mark} mark");
    }
    let legend = text_of(client, "#benchmark-legend").await;
    assert!(
        legend.contains("champion (generation 38)")
            && legend.contains("final test: 97.5% of 400 fresh games"),
        "{legend}"
    );
    let height = smallest_label(client, "#chart-benchmark").await;
    assert!(height >= 12.0, "tick labels {height} px tall");
    open_run(client, "othello-league").await;
    for chart in ["fitness", "benchmark", "diversity"] {
        let css = format!("#chart-{chart}");
        assert!(is_shown(client, &css).await, "{chart}");
        wait_for(client, &format!("{css} polyline.series")).await;
        let height = smallest_label(client, &css).await;
        assert!(height >= 12.0, "{chart}: tick labels {height} px tall");
    }
    assert!(!is_shown(client, "#fitness-absent").await);
    assert!(!is_shown(client, "#diversity-absent").await);
    let legend = text_of(client, "#benchmark-legend").await;
    assert!(legend.contains("final test: 95.8% of 2000"), "{legend}");
    client.screenshot().await.unwrap()
}

#[test]
#[ignore = "needs chromium and chromedriver; .ci/run installs them and runs it"]
fn kalah_against_random_by_clicking_in_headless_chromium() {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations");
    let server = Served::start(&runs, &[]);
    let (_driver, port) = start_driver();
    let profile = std::env::temp_dir().join(format!("evoboard-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = format!("http://{}/", server.address);
    let (png, runs_png) = runtime.block_on(async {
        let client = connect(port, &profile).await;
        let png = play_kalah(&client, &url).await;
        let runs_png = watch_runs(&client).await;
        client.close().await.unwrap();
        (png, runs_png)
    });
    assert!(is_drawn(&png), "the screenshot is blank");
    assert!(is_drawn(&runs_png), "the Runs tab's screenshot is blank");
    if let Some(path) = std::env::var_os("EVOBOARD_SCREENSHOT") {
        std::fs::write(path, &png).unwrap();
    }
    if let Some(path) = std::env::var_os("EVOBOARD_RUNS_SCREENSHOT") {
        std::fs::write(path, &runs_png).unwrap();
    }
    let _ = std::fs::remove_dir_all(&profile);
}

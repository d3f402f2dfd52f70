//! The HTTP API and the page: routes, request checks and JSON errors. Every failure a
//! request can cause answers a 4xx (or, for a fault of ours, 500) with `{"error": "…"}`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::live::{LiveGame, Setup, Table, View};
use super::runs::RunsDir;
use crate::arena::AgentSpec;
use crate::arena::SpecError;
use crate::arena::spec::AgentKind;
use crate::cli::{GameName, with_game};
use crate::games::{GameError, Player};

/// Largest request body accepted: a move or a new game's settings are a few hundred bytes.
pub const MAX_BODY: usize = 4096;

/// An error answered as `{"error": message}` with `status`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// The request is well formed but does not fit the game's state (not your turn, over).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}

/// The message with its causes, as the command line prints errors.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

impl From<SpecError> for ApiError {
    fn from(error: SpecError) -> ApiError {
        ApiError::bad_request(chain(&error))
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        ApiError::bad_request(chain(&error))
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// What the handlers share.
pub struct Server {
    games: Mutex<HashMap<u64, Entry>>,
    next_id: AtomicU64,
    runs: RunsDir,
    /// Longest an engine move or a hint search may take (seconds).
    move_time: f64,
    /// Most games kept at once; the least recently used goes when a new one needs room.
    max_games: usize,
}

/// A game shared between the requests that act on it, one at a time.
type SharedGame = Arc<Mutex<Box<dyn LiveGame>>>;

struct Entry {
    game: SharedGame,
    used: Instant,
}

impl Server {
    pub fn new(runs: RunsDir, move_time: f64, max_games: usize) -> Server {
        Server {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            runs,
            move_time,
            max_games,
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        // A panic elsewhere never leaves the map half-changed: recover it.
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps a new game (dropping the least recently used one if the table is full) and
    /// returns its first view.
    fn insert(&self, game: Box<dyn LiveGame>) -> View {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let view = game.view(id);
        let mut games = self.table();
        if games.len() >= self.max_games
            && let Some(oldest) = games.iter().min_by_key(|(_, e)| e.used).map(|(&id, _)| id)
        {
            games.remove(&oldest);
        }
        let entry = Entry {
            game: Arc::new(Mutex::new(game)),
            used: Instant::now(),
        };
        games.insert(id, entry);
        view
    }

    fn get(&self, id: &str) -> ApiResult<(u64, SharedGame)> {
        let missing = || ApiError::not_found(format!("no game '{id}'"));
        let id: u64 = id.parse().map_err(|_| missing())?;
        let mut games = self.table();
        let entry = games.get_mut(&id).ok_or_else(missing)?;
        entry.used = Instant::now();
        Ok((id, Arc::clone(&entry.game)))
    }

    /// A spec from the page, made safe to run here: champion files only from inside the
    /// runs directory, and every search stopped after the server's move time.
    fn engine_spec(&self, text: &str) -> ApiResult<AgentSpec> {
        let mut spec: AgentSpec = text.parse()?;
        match &mut spec.kind {
            AgentKind::Champion { path, .. } | AgentKind::Nmm { path, .. } => {
                *path = self.runs.champion_file(path)?;
            }
            AgentKind::Random | AgentKind::First | AgentKind::Minimax { .. } => {}
        }
        let searches = !matches!(spec.kind, AgentKind::Random | AgentKind::First);
        if searches {
            let asked = spec.move_time.unwrap_or(self.move_time);
            spec.move_time = Some(asked.min(self.move_time));
        }
        Ok(spec)
    }
}

/// The routes of the page and the API.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/engine", post(engine_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/hints", get(hints))
        .route("/api/games/{id}/record", get(record))
        .route("/api/runs", get(list_runs))
        .route("/api/run", get(show_run))
        .fallback(|| async { ApiError::not_found("no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: "method not allowed here".into(),
            }
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("assets/index.html"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/app.js"),
    )
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/style.css"),
    )
}

/// A JSON body read into `T`, or the 4xx that says why not (too large, not JSON, wrong
/// fields). An empty body reads as `{}`.
fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|rejection| ApiError {
        status: rejection.status(),
        message: format!(
            "the request body could not be read: {}",
            rejection.body_text()
        ),
    })?;
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(text)
        .map_err(|error| ApiError::bad_request(format!("bad JSON request: {error}")))
}

fn path_id(id: Result<Path<String>, PathRejection>) -> ApiResult<String> {
    id.map(|Path(id)| id)
        .map_err(|rejection| ApiError::bad_request(rejection.body_text()))
}

/// Runs blocking work (searches, file reads) off the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the request failed inside the server".into(),
        })
    })
}

/// Runs `act` on game `id` and answers its view afterwards.
async fn with_game_view(
    server: Arc<Server>,
    id: String,
    act: impl FnOnce(&mut dyn LiveGame) -> ApiResult<()> + Send + 'static,
) -> ApiResult<axum::Json<View>> {
    let (id, game) = server.get(&id)?;
    blocking(move || {
        let mut game = game.lock().unwrap_or_else(|p| p.into_inner());
        act(game.as_mut())?;
        Ok(axum::Json(game.view(id)))
    })
    .await
}

/// A side named in a request: 0 (first) or 1 (second).
fn side(index: Option<u8>) -> ApiResult<Option<Player>> {
    match index {
        None => Ok(None),
        Some(0) => Ok(Some(Player::First)),
        Some(1) => Ok(Some(Player::Second)),
        Some(other) => Err(ApiError::bad_request(format!(
            "side {other}: use 0 (first) or 1 (second)"
        ))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: String,
    first: String,
    second: String,
    #[serde(default = "default_hint_engine")]
    hint_engine: String,
    #[serde(default = "default_seed")]
    seed: u64,
}

fn default_hint_engine() -> String {
    "heuristic:4".to_string()
}

fn default_seed() -> u64 {
    1
}

async fn new_game(
    State(server): State<Arc<Server>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, axum::Json<View>)> {
    let request: NewGame = json_body(body)?;
    let name = <GameName as clap::ValueEnum>::from_str(&request.game, true).map_err(|_| {
        ApiError::bad_request(format!(
            "unknown game '{}': use othello, kalah, oware, congklak or congkak",
            request.game
        ))
    })?;
    let seat = |text: &str| -> ApiResult<Option<AgentSpec>> {
        match text {
            "human" => Ok(None),
            spec => server.engine_spec(spec).map(Some),
        }
    };
    let setup = Setup {
        players: [seat(&request.first)?, seat(&request.second)?],
        hint_engine: server.engine_spec(&request.hint_engine)?,
        seed: request.seed,
    };
    let state = Arc::clone(&server);
    blocking(move || {
        let game: Box<dyn LiveGame> =
            with_game!(name, |start| Box::new(Table::new(start, &setup)?));
        Ok((StatusCode::CREATED, axum::Json(state.insert(game))))
    })
    .await
}

async fn show_game(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<axum::Json<View>> {
    with_game_view(server, path_id(id)?, |_| Ok(())).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    side: Option<u8>,
}

async fn play_move(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<View>> {
    let id = path_id(id)?;
    let request: MoveRequest = json_body(body)?;
    let player = side(request.side)?;
    with_game_view(server, id, move |game| game.play(&request.text, player)).await
}

async fn engine_move(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<axum::Json<View>> {
    with_game_view(server, path_id(id)?, |game| game.engine_move()).await
}

/// A request that may name a side.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideRequest {
    side: Option<u8>,
}

async fn undo(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<View>> {
    for_side(server, id, body, |game, player| game.undo(player)).await
}

async fn resign(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<View>> {
    for_side(server, id, body, |game, player| game.resign(player)).await
}

/// Runs `act` for the side a [`SideRequest`] body names (if any) on game `id`.
async fn for_side(
    server: Arc<Server>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
    act: fn(&mut dyn LiveGame, Option<Player>) -> ApiResult<()>,
) -> ApiResult<axum::Json<View>> {
    let id = path_id(id)?;
    let player = side(json_body::<SideRequest>(body)?.side)?;
    with_game_view(server, id, move |game| act(game, player)).await
}

async fn hints(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<SideRequest>, QueryRejection>,
) -> ApiResult<axum::Json<super::live::Hints>> {
    let Query(request) = query.map_err(|r| ApiError::bad_request(r.body_text()))?;
    let player = side(request.side)?;
    let (_, game) = server.get(&path_id(id)?)?;
    let seconds = server.move_time;
    blocking(move || {
        let game = game.lock().unwrap_or_else(|p| p.into_inner());
        game.hints(player, seconds).map(axum::Json)
    })
    .await
}

async fn record(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let (id, game) = server.get(&path_id(id)?)?;
    let text = blocking(move || game.lock().unwrap_or_else(|p| p.into_inner()).record()).await?;
    let disposition = format!("attachment; filename=\"game-{id}.txt\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

async fn list_runs(State(server): State<Arc<Server>>) -> ApiResult<axum::Json<serde_json::Value>> {
    let runs = server.runs.clone();
    blocking(move || Ok(axum::Json(serde_json::json!({ "runs": runs.list() })))).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunQuery {
    name: String,
}

async fn show_run(
    State(server): State<Arc<Server>>,
    query: Result<Query<RunQuery>, QueryRejection>,
) -> ApiResult<axum::Json<super::runs::RunView>> {
    let Query(request) = query.map_err(|r| ApiError::bad_request(r.body_text()))?;
    let runs = server.runs.clone();
    blocking(move || runs.run(&request.name).map(axum::Json)).await
}

//! The HTTP API and the page: routes, request checks and JSON errors. Every failure a
//! request can cause answers a 4xx (or, for a fault of ours, 500) with `{"error": "…"}`.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value};

use crate::common::{GameName, with_game};
use evoboard::arena::AgentSpec;
use evoboard::arena::SpecError;
use evoboard::arena::spec::AgentKind;
use evoboard::games::{GameError, Player};
use evoboard::live::champions::Champions;
use evoboard::live::{Hints, LiveError, LiveGame, Setup, Table, View};
use evoboard::runs::{RunView, RunsDir, RunsError};

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

impl From<SpecError> for ApiError {
    fn from(error: SpecError) -> ApiError {
        ApiError::bad_request(evoboard::errors::chain(&error))
    }
}

/// A live game's refusal: 409 when the request does not fit the game's state, else 400.
impl From<LiveError> for ApiError {
    fn from(error: LiveError) -> ApiError {
        match error {
            LiveError::NotNow(message) => ApiError::conflict(message),
            other => ApiError::bad_request(evoboard::errors::chain(&other)),
        }
    }
}

/// A path refused by the runs directory's gate: 404 when nothing is there, else 400.
impl From<RunsError> for ApiError {
    fn from(error: RunsError) -> ApiError {
        match error {
            RunsError::NotFound(message) => ApiError::not_found(message),
            RunsError::BadName(message) => ApiError::bad_request(message),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        ApiError::bad_request(evoboard::errors::chain(&error))
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// How long a game must have been left alone before its client's next game may take its
/// room (a page opened again leaves its last game behind).
const IDLE_GAME: Duration = Duration::from_secs(10 * 60);

/// What the handlers share.
pub struct Server {
    games: Mutex<HashMap<u64, Entry>>,
    next_id: AtomicU64,
    runs: RunsDir,
    champions: Champions,
    limits: Limits,
}

/// What the server allows a request.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest an engine move or a hint search may take (seconds).
    pub move_time: f64,
    /// Most games kept at once; the least recently used goes when a new one needs room.
    pub max_games: usize,
    /// Most games one client (IP address) may keep at once.
    pub max_games_per_client: usize,
    /// Longest a request's body may take to arrive.
    pub body_time: Duration,
}

/// A game shared between the requests that act on it, one at a time.
type SharedGame = Arc<Mutex<Box<dyn LiveGame>>>;

struct Entry {
    game: SharedGame,
    used: Instant,
    /// Who asked for it.
    client: IpAddr,
}

impl Server {
    pub fn new(runs: RunsDir, limits: Limits) -> Server {
        Server {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            runs,
            champions: Champions::default(),
            limits,
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        // A panic elsewhere never leaves the map half-changed: recover it.
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps `client`'s new game (dropping the least recently used one if the table is
    /// full) and returns its first view. A client that already keeps its share gives up
    /// its own game idle longest, if that one has been idle for [`IDLE_GAME`]; otherwise it
    /// is refused (429), so that one client cannot push everyone else's games out.
    fn insert(&self, game: Box<dyn LiveGame>, client: IpAddr) -> ApiResult<View> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let view = game.view(id);
        let mut games = self.table();
        let most = self.limits.max_games_per_client;
        let own = games.iter().filter(|(_, e)| e.client == client);
        if own.clone().count() >= most {
            let (&idlest, entry) = own.min_by_key(|(_, e)| e.used).expect("at least one");
            if entry.used.elapsed() < IDLE_GAME {
                return Err(ApiError {
                    status: StatusCode::TOO_MANY_REQUESTS,
                    message: format!(
                        "too many games: {client} keeps {most} games, all played in the last \
                         {} minutes, the most one client may (--max-games-per-client)",
                        IDLE_GAME.as_secs() / 60
                    ),
                });
            }
            games.remove(&idlest);
        }
        if games.len() >= self.limits.max_games
            && let Some(oldest) = games.iter().min_by_key(|(_, e)| e.used).map(|(&id, _)| id)
        {
            games.remove(&oldest);
        }
        let entry = Entry {
            game: Arc::new(Mutex::new(game)),
            used: Instant::now(),
            client,
        };
        games.insert(id, entry);
        Ok(view)
    }

    fn get(&self, id: &str) -> ApiResult<(u64, SharedGame)> {
        let missing = || ApiError::not_found(format!("no game '{id}'"));
        let id: u64 = id.parse().map_err(|_| missing())?;
        let mut games = self.table();
        let entry = games.get_mut(&id).ok_or_else(missing)?;
        entry.used = Instant::now();
        Ok((id, Arc::clone(&entry.game)))
    }

    /// A spec from the page, made safe to run here: every file it names (champions,
    /// weights) only from inside the runs directory, every search stopped after the
    /// server's move time, and no program started (no external engines).
    fn engine_spec(&self, text: &str) -> ApiResult<AgentSpec> {
        let mut spec: AgentSpec = text.parse()?;
        match &mut spec.kind {
            AgentKind::Champion { path, .. } | AgentKind::Nmm { path, .. } => {
                *path = self.runs.spec_file(path)?;
            }
            AgentKind::Minimax { evaluator, .. } if evaluator.ends_with(".json") => {
                *evaluator = self
                    .runs
                    .spec_file(std::path::Path::new(evaluator))?
                    .to_str()
                    .filter(|real| real.ends_with(".json"))
                    .ok_or_else(|| {
                        ApiError::bad_request(format!("'{evaluator}' is not a .json file"))
                    })?
                    .to_string();
            }
            AgentKind::Engine { .. } => {
                return Err(ApiError::bad_request(
                    "the page starts no programs: external engines are for the command line"
                        .to_string(),
                ));
            }
            AgentKind::Random | AgentKind::First | AgentKind::Minimax { .. } => {}
        }
        let searches = !matches!(spec.kind, AgentKind::Random | AgentKind::First);
        if searches {
            let most = self.limits.move_time;
            spec.move_time = Some(spec.move_time.unwrap_or(most).min(most));
        }
        Ok(spec)
    }

    /// Sets up the game `request` asks for and keeps it for `client`.
    fn create(&self, request: &NewGame, client: IpAddr) -> ApiResult<View> {
        let name = request.game.parse::<GameName>().map_err(|_| {
            ApiError::bad_request(format!(
                "unknown game '{}': use othello, kalah, oware, congklak or congkak",
                request.game
            ))
        })?;
        let seat = |text: &str| -> ApiResult<Option<AgentSpec>> {
            match text {
                "human" => Ok(None),
                spec => self.engine_spec(spec).map(Some),
            }
        };
        let setup = Setup {
            players: [seat(&request.first)?, seat(&request.second)?],
            hint_engine: self.engine_spec(&request.hint_engine)?,
            seed: request.seed,
        };
        let champions = &self.champions;
        let game: Box<dyn LiveGame> = with_game!(name, |start| Box::new(Table::new(
            start, &setup, champions
        )?));
        self.insert(game, client)
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
        .layer(from_fn_with_state(Arc::clone(&server), body_in_time))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// Reads a request's body whole before its handler runs, answering 408 when it does not
/// arrive within the server's body time (a client sending a byte a minute holds no
/// connection for long).
async fn body_in_time(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let read = Bytes::from_request(Request::from_parts(parts.clone(), body), &());
    match tokio::time::timeout(server.limits.body_time, read).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(rejection)) => body_error(rejection).into_response(),
        Err(_) => ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the request body did not arrive within {} s",
                server.limits.body_time.as_secs_f64()
            ),
        }
        .into_response(),
    }
}

/// Why a request's body could not be read (too large, broken off).
fn body_error(rejection: BytesRejection) -> ApiError {
    ApiError {
        status: rejection.status(),
        message: format!(
            "the request body could not be read: {}",
            rejection.body_text()
        ),
    }
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

/// A request's JSON object, its fields taken one by one, so that every bad input is
/// answered with the field it is in and what that field accepts (never serde's own text).
struct Fields {
    map: Map<String, Value>,
}

/// The fields of the JSON object in `body`, which may hold only `accepted` (an empty
/// body reads as `{}`); `example` is such an object, quoted when the body is not one.
fn json_fields(
    body: Result<Bytes, BytesRejection>,
    accepted: &[&str],
    example: &str,
) -> ApiResult<Fields> {
    let bytes = body.map_err(body_error)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Fields { map: Map::new() });
    }
    let value: Value = serde_json::from_slice(&bytes).map_err(|error| {
        ApiError::bad_request(format!(
            "the request body is not JSON ({error}): send an object such as {example}"
        ))
    })?;
    let Value::Object(map) = value else {
        return Err(ApiError::bad_request(format!(
            "the request body is {}, not a JSON object: send an object such as {example}",
            kind(&value)
        )));
    };
    if let Some(unknown) = map.keys().find(|key| !accepted.contains(&key.as_str())) {
        return Err(ApiError::bad_request(format!(
            "unknown field '{unknown}': this request takes {}",
            listed(accepted)
        )));
    }
    Ok(Fields { map })
}

/// What a JSON value is, in a message.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// `names` quoted and joined: `'a', 'b' or 'c'`.
fn listed(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("'{name}'")).collect();
    match quoted.split_last() {
        None => "no fields".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl Fields {
    /// Field `name` (`null` counts as absent).
    fn take(&mut self, name: &str) -> Option<Value> {
        self.map.remove(name).filter(|value| !value.is_null())
    }

    /// Text field `name`, which holds `what`.
    fn text(&mut self, name: &str, what: &str) -> ApiResult<Option<String>> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(ApiError::bad_request(format!(
                "'{name}' must be a string ({what}), not {}",
                kind(&other)
            ))),
        }
    }

    /// Text field `name`, which must be there.
    fn required_text(&mut self, name: &str, what: &str) -> ApiResult<String> {
        self.text(name, what)?
            .ok_or_else(|| ApiError::bad_request(format!("missing '{name}': {what}")))
    }

    /// The move: a string in the game's notation, or a whole number (a pit).
    fn move_text(&mut self) -> ApiResult<String> {
        let what = "a move in the game's notation, as the view's legal moves write it, \
                    e.g. \"d3\" in Othello or \"3\" in Kalah";
        match self.take("move") {
            None => Err(ApiError::bad_request(format!("missing 'move': {what}"))),
            Some(Value::String(text)) => Ok(text),
            Some(Value::Number(number)) if number.is_u64() => Ok(number.to_string()),
            Some(other) => Err(ApiError::bad_request(format!(
                "'move' must be {what}, not {}",
                kind(&other)
            ))),
        }
    }

    /// The seed of the engines' random choices: a whole number.
    fn seed(&mut self) -> ApiResult<Option<u64>> {
        match self.take("seed") {
            None => Ok(None),
            Some(Value::Number(number)) if number.is_u64() => Ok(number.as_u64()),
            Some(other) => Err(ApiError::bad_request(format!(
                "'seed' must be a whole number from 0 to 2^64 − 1 (the seed of the engines' \
                 random choices), not {}",
                match &other {
                    Value::Number(number) => number.to_string(),
                    value => kind(value).to_string(),
                }
            ))),
        }
    }

    /// The side a request names, as given: the side's name as the page shows it, `first`
    /// or `second`, or 0 or 1 ([`resolve_side`] checks it once the game is known).
    fn side(&mut self) -> ApiResult<Option<String>> {
        match self.take("side") {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(Value::Number(number)) => Ok(Some(number.to_string())),
            Some(other) => Err(ApiError::bad_request(format!(
                "'side' must name a side ({SIDES}), not {}",
                kind(&other)
            ))),
        }
    }
}

/// The ways a request may name a side, in messages.
const SIDES: &str = "its name as the game's seats give it, e.g. South or North, black or white; first or \
     second; or 0 or 1";

/// The fields of a query string (`?a=1&b=2`), which may hold only `accepted`, each once.
fn query_fields(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    accepted: &[&str],
) -> ApiResult<Map<String, Value>> {
    let Query(pairs) = query.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the query string cannot be read ({}): give {}",
            rejection.body_text(),
            listed(accepted)
        ))
    })?;
    let mut map = Map::new();
    for (key, value) in pairs {
        if !accepted.contains(&key.as_str()) {
            return Err(ApiError::bad_request(format!(
                "unknown query parameter '{key}': this request takes {}",
                listed(accepted)
            )));
        }
        if map.insert(key.clone(), Value::String(value)).is_some() {
            return Err(ApiError::bad_request(format!(
                "query parameter '{key}' is given twice: give it once"
            )));
        }
    }
    Ok(map)
}

/// The side `given` names in a game whose sides are called `names` (first, second): the
/// name (case aside; Othello's `black (X)` also as `black`), `first` or `second`, 0 or 1.
fn resolve_side(given: &str, names: [&str; 2]) -> ApiResult<Player> {
    let wanted = given.trim().to_lowercase();
    let short = |name: &str| name.split(" (").next().unwrap_or(name).to_string();
    for (player, index, ordinal) in [
        (Player::First, "0", "first"),
        (Player::Second, "1", "second"),
    ] {
        let name = names[player.index()];
        if [index, ordinal].contains(&wanted.as_str())
            || wanted == name.to_lowercase()
            || wanted == short(name).to_lowercase()
        {
            return Ok(player);
        }
    }
    Err(ApiError::bad_request(format!(
        "side '{given}' is not one of this game's: use {} or {} (or first or second, or 0 or 1)",
        short(names[0]),
        short(names[1])
    )))
}

/// The player `side` names in `game` (none when no side is given).
fn side_in(game: &dyn LiveGame, side: Option<&str>) -> ApiResult<Option<Player>> {
    let Some(given) = side else {
        return Ok(None);
    };
    let names = game.view(0).seats.map(|seat| seat.name);
    resolve_side(given, names).map(Some)
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

/// A new game's settings (`POST /api/games`).
struct NewGame {
    game: String,
    first: String,
    second: String,
    hint_engine: String,
    seed: u64,
}

impl NewGame {
    /// The settings a request's body gives, with their defaults.
    fn read(body: Result<Bytes, BytesRejection>) -> ApiResult<NewGame> {
        let example = r#"{"game": "kalah", "first": "human", "second": "heuristic:4"}"#;
        let accepted = ["game", "first", "second", "hint_engine", "seed"];
        let mut fields = json_fields(body, &accepted, example)?;
        let seat = "human, or an agent spec such as random, heuristic:4 or \
                    champion:othello/champion.evo";
        Ok(NewGame {
            game: fields.required_text(
                "game",
                "the game: othello, kalah, oware, congklak or congkak",
            )?,
            first: fields.required_text("first", &format!("who plays first: {seat}"))?,
            second: fields.required_text("second", &format!("who plays second: {seat}"))?,
            hint_engine: fields
                .text(
                    "hint_engine",
                    "the engine whose search values hints show, a searching spec such as \
                     heuristic:4",
                )?
                .unwrap_or_else(|| "heuristic:4".to_string()),
            seed: fields.seed()?.unwrap_or(1),
        })
    }
}

async fn new_game(
    State(server): State<Arc<Server>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, axum::Json<View>)> {
    let request = NewGame::read(body)?;
    blocking(move || {
        let view = server.create(&request, client.ip())?;
        Ok((StatusCode::CREATED, axum::Json(view)))
    })
    .await
}

async fn show_game(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<axum::Json<View>> {
    with_game_view(server, path_id(id)?, |_| Ok(())).await
}

async fn play_move(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<View>> {
    let id = path_id(id)?;
    let mut fields = json_fields(body, &["move", "side"], r#"{"move": "3", "side": "South"}"#)?;
    let text = fields.move_text()?;
    let side = fields.side()?;
    with_game_view(server, id, move |game| {
        let player = side_in(game, side.as_deref())?;
        Ok(game.play(&text, player)?)
    })
    .await
}

async fn engine_move(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<axum::Json<View>> {
    with_game_view(server, path_id(id)?, |game| Ok(game.engine_move()?)).await
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

/// Runs `act` for the side a `{"side"}` body names (if any) on game `id`.
async fn for_side(
    server: Arc<Server>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
    act: fn(&mut dyn LiveGame, Option<Player>) -> Result<(), LiveError>,
) -> ApiResult<axum::Json<View>> {
    let id = path_id(id)?;
    let side = json_fields(body, &["side"], r#"{"side": "South"}"#)?.side()?;
    with_game_view(server, id, move |game| {
        let player = side_in(game, side.as_deref())?;
        Ok(act(game, player)?)
    })
    .await
}

async fn hints(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> ApiResult<axum::Json<Hints>> {
    let (_, game) = server.get(&path_id(id)?)?;
    let side = match query_fields(query, &["side"])?.remove("side") {
        Some(Value::String(side)) => Some(side),
        _ => None,
    };
    let seconds = server.limits.move_time;
    blocking(move || {
        let game = game.lock().unwrap_or_else(|p| p.into_inner());
        let player = side_in(game.as_ref(), side.as_deref())?;
        Ok(axum::Json(game.hints(player, seconds)?))
    })
    .await
}

async fn record(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let (id, game) = server.get(&path_id(id)?)?;
    let text =
        blocking(move || Ok(game.lock().unwrap_or_else(|p| p.into_inner()).record()?)).await?;
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

async fn show_run(
    State(server): State<Arc<Server>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> ApiResult<axum::Json<RunView>> {
    let Some(Value::String(name)) = query_fields(query, &["name"])?.remove("name") else {
        return Err(ApiError::bad_request(
            "missing query parameter 'name': the run's name as /api/runs lists it, e.g. \
             /api/run?name=othello",
        ));
    };
    let runs = server.runs.clone();
    blocking(move || Ok(axum::Json(runs.run(&name)?))).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoboard::games::mancala::Kalah;

    fn server(max_games_per_client: usize) -> Server {
        let populations = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations");
        let limits = Limits {
            move_time: 1.0,
            max_games: 100,
            max_games_per_client,
            body_time: Duration::from_secs(1),
        };
        Server::new(RunsDir::new(&populations), limits)
    }

    fn kalah_against(second: &str, hint_engine: &str, seed: u64) -> NewGame {
        NewGame {
            game: "kalah".into(),
            first: "human".into(),
            second: second.into(),
            hint_engine: hint_engine.into(),
            seed,
        }
    }

    #[test]
    fn a_client_with_its_share_of_games_reuses_only_the_room_of_an_idle_one() {
        let server = server(2);
        let (one, other) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let request = kalah_against("random", "heuristic:2", 1);
        let first = server.create(&request, one).unwrap().id;
        server.create(&request, one).unwrap();
        let refused = server.create(&request, one).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.message.contains("--max-games-per-client"));
        server.create(&request, other).unwrap();
        // The first game left alone long enough: the client's next game takes its room.
        let long_ago = Instant::now().checked_sub(IDLE_GAME).unwrap();
        server.table().get_mut(&first).unwrap().used = long_ago;
        server.create(&request, one).unwrap();
        assert!(server.get(&first.to_string()).is_err());
        assert_eq!(server.table().len(), 3);
    }

    #[test]
    fn games_against_one_champion_share_one_loaded_network() {
        let server = server(100);
        let champion = "champion:kalah/champion.evo";
        for seed in 0..20 {
            let request = kalah_against(champion, &format!("{champion}:2"), seed);
            server
                .create(&request, IpAddr::from([127, 0, 0, 1]))
                .unwrap();
        }
        let spec: AgentSpec = champion.parse().unwrap();
        let path = server
            .runs
            .spec_file(std::path::Path::new("kalah/champion.evo"))
            .unwrap();
        let start = Kalah::game(6, 4, false);
        let network = server.champions.get(&spec, &path, &start).unwrap().network;
        let again = server.champions.get(&spec, &path, &start).unwrap().network;
        assert!(Arc::ptr_eq(&network, &again));
        // Each game's engine and hint engine hold the very network the cache hands out.
        assert!(
            Arc::strong_count(&network) >= 2 + 40,
            "{}",
            Arc::strong_count(&network)
        );
    }
}

// The page of `evoboard serve`. It draws what the server sends and sends back move texts:
// the rules, the engines and the hints all run in the server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let current = null; // the game's view, as the server last sent it
let engineBusy = false;

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attributes) {
  const node = el("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central" }, attributes || {}), parent);
  node.textContent = content;
  return node;
}

// ---------- playing ----------

// The chooser a click on the board speaks for: the first person who still has to choose.
function activeChooser(view) {
  return view.choosers.find((c) => c.human && !c.chosen) || null;
}

function engineToMove(view) {
  return !view.over && view.choosers.some((c) => !c.human && !c.chosen);
}

function render(view) {
  current = view;
  drawBoard(view);
  const chooser = activeChooser(view);
  const names = view.seats.map((s) => s.name);
  let status;
  if (view.over) {
    status = "Game over: " + view.result;
  } else if (view.choosers.length === 2) {
    const waiting = view.choosers.filter((c) => !c.chosen).map((c) => names[c.side]);
    status = chooser
      ? `${names[chooser.side]}: choose your hole (the other side looks away; choices stay hidden until both have chosen)`
      : `waiting for ${waiting.join(" and ")} to choose`;
  } else {
    const side = view.choosers[0].side;
    status = chooser ? `${names[side]} to move` : `${names[side]} (${view.seats[side].player}) is thinking…`;
  }
  $("status").textContent = `${status} — score ${view.score[0]}–${view.score[1]}`;
  const log = $("log");
  log.replaceChildren(...view.log.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  const pass = chooser && chooser.legal.find((m) => m.at === null);
  $("pass").hidden = !pass;
  $("pass").dataset.move = pass ? pass.text : "";
  $("hint").disabled = !chooser;
  $("undo").disabled = !view.seats.some((s) => s.human) || view.moves.length === 0;
  $("resign").disabled = view.over || !view.seats.some((s) => s.human);
  const record = $("record");
  record.hidden = !view.recordable;
  record.href = `/api/games/${view.id}/record`;
  $("hints").hidden = true;
  if (engineToMove(view)) scheduleEngine(view.id);
}

function scheduleEngine(id) {
  if (engineBusy) return;
  engineBusy = true;
  setTimeout(async () => {
    try {
      if (current && current.id === id) render(await api("POST", `/api/games/${id}/engine`));
    } catch (error) {
      showError(error.message);
    } finally {
      engineBusy = false;
      if (current && current.id === id && engineToMove(current)) scheduleEngine(id);
    }
  }, 250);
}

async function move(moveText) {
  const chooser = current && activeChooser(current);
  if (!chooser) return;
  try {
    showError("");
    render(await api("POST", `/api/games/${current.id}/move`, { move: moveText, side: chooser.side }));
  } catch (error) {
    showError(error.message);
  }
}

function legalAt(view) {
  const chooser = activeChooser(view);
  const spots = new Map();
  if (chooser) for (const m of chooser.legal) if (m.at !== null) spots.set(m.at, m.text);
  return [chooser, spots];
}

function drawBoard(view) {
  const board = view.board;
  const svg = board.kind === "grid" ? drawGrid(view) : drawPits(view);
  $("board").replaceChildren(svg);
}

function drawGrid(view) {
  const cell = 60, n = view.board.size, margin = 24;
  const svg = el("svg", { viewBox: `0 0 ${n * cell + margin} ${n * cell + margin}`, id: "board-svg" });
  const [, spots] = legalAt(view);
  el("rect", { x: margin, y: margin, width: n * cell, height: n * cell, fill: "#2e7d4f" }, svg);
  for (let c = 0; c < n; c++) text(svg, margin + c * cell + cell / 2, margin / 2, "abcdefgh"[c]);
  for (let r = 0; r < n; r++) text(svg, margin / 2, margin + r * cell + cell / 2, String(r + 1));
  view.board.cells.forEach((value, index) => {
    const x = margin + (index % n) * cell, y = margin + Math.floor(index / n) * cell;
    const square = el("rect", { x, y, width: cell, height: cell, fill: "transparent", stroke: "#1b4d30", "data-cell": index }, svg);
    if (value) {
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.4, fill: value === 1 ? "#111" : "#f8f8f8", stroke: "#333" }, svg);
    } else if (spots.has(index)) {
      const moveText = spots.get(index);
      const mark = el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.12, fill: "#9fd89f", class: "legal", "data-move": moveText }, svg);
      for (const target of [square, mark]) {
        target.classList.add("legal");
        target.setAttribute("data-move", moveText);
        target.addEventListener("click", () => move(moveText));
      }
    }
  });
  return svg;
}

function drawPits(view) {
  const { pits, stores, burnt } = view.board;
  const m = pits[0].length, cell = 70, height = 2 * cell + 60;
  const svg = el("svg", { viewBox: `0 0 ${(m + 2) * cell} ${height}`, id: "board-svg" });
  const [chooser, spots] = legalAt(view);
  el("rect", { x: 0, y: 20, width: (m + 2) * cell, height: 2 * cell + 20, rx: 30, fill: "#b5835a" }, svg);
  // North's store on the left, South's on the right; sowing runs anticlockwise.
  const store = (side, x) => {
    el("rect", { x: x + 8, y: 34, width: cell - 16, height: 2 * cell - 8, rx: 25, fill: "#8a5a3b" }, svg);
    text(svg, x + cell / 2, 30 + cell, String(stores[side]), { "font-size": 22, fill: "#fff", class: `store store-${side}` });
  };
  store(1, 0);
  store(0, (m + 1) * cell);
  const names = view.seats.map((s) => s.name);
  text(svg, (m + 2) * cell / 2, 10, names[1], { "font-size": 13 });
  text(svg, (m + 2) * cell / 2, height - 8, names[0], { "font-size": 13 });
  for (const side of [0, 1]) {
    for (let pit = 0; pit < m; pit++) {
      const column = side === 0 ? 1 + pit : m - pit;
      const cx = column * cell + cell / 2, cy = side === 0 ? 30 + cell * 1.5 : 30 + cell / 2;
      const mine = chooser && chooser.side === side && spots.has(pit);
      const circle = el("circle", {
        cx, cy, r: cell * 0.38,
        fill: burnt[side][pit] ? "#444" : "#d9b38c",
        stroke: mine ? "#1f9d3a" : "#6b4328", "stroke-width": mine ? 5 : 2,
        "data-side": side, "data-pit": pit,
      }, svg);
      const count = text(svg, cx, cy, burnt[side][pit] ? "✕" : String(pits[side][pit]), { "font-size": 20, fill: burnt[side][pit] ? "#ddd" : "#222", class: "count", "pointer-events": "none" });
      text(svg, cx, side === 0 ? cy + cell * 0.5 : cy - cell * 0.5, String(pit + 1), { "font-size": 11, fill: "#fff" });
      if (mine) {
        const moveText = spots.get(pit);
        circle.classList.add("legal");
        circle.setAttribute("data-move", moveText);
        circle.addEventListener("click", () => move(moveText));
        count.setAttribute("data-move", moveText);
      }
    }
  }
  return svg;
}

// ---------- players ----------

// The engines every game offers besides people and champions.
const LEVELS = [
  ["random", "random"],
  ["normal", "normal (heuristic:2)"],
  ["expert", "expert (heuristic:4)"],
  ["impossible", "impossible (heuristic:8)"],
];
const CUSTOM = "custom";
const SEATS = ["first", "second"];
let champions = []; // the runs with a champion: { name, game }

const championSpec = (run) => `champion:${run.name}/champion.evo`;

// The champions of `game`, best first: the run named after the game (the shipped run of
// the default preset, the strongest) leads.
function championsOf(game) {
  return champions
    .filter((run) => run.game === game)
    .sort((a, b) => (b.name === game) - (a.name === game) || a.name.localeCompare(b.name));
}

// Fills both player lists for the chosen game. A seat keeps its choice when the game
// offers it; a champion of another game gives way to this game's best one.
function fillPlayers() {
  const game = $("game").value;
  const best = championsOf(game)[0];
  const options = [["human", "human"]]
    .concat(championsOf(game).map((run) => [championSpec(run), `champion: ${run.name}`]))
    .concat(LEVELS, [[CUSTOM, "custom spec…"]]);
  for (const seat of SEATS) {
    const select = $(seat);
    const kept = select.value;
    select.replaceChildren(...options.map(([value, label]) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      return option;
    }));
    if (options.some(([value]) => value === kept)) {
      select.value = kept;
    } else if (kept.startsWith("champion:")) {
      select.value = best ? championSpec(best) : "normal";
    }
  }
  showSpecs();
}

// The free-text spec box of a seat shows only when "custom spec…" is chosen.
function showSpecs() {
  for (const seat of SEATS) $(`${seat}-spec`).hidden = $(seat).value !== CUSTOM;
}

// The spec a seat's choice names.
function playerOf(seat) {
  return $(seat).value === CUSTOM ? $(`${seat}-spec`).value.trim() : $(seat).value;
}

// Seats `spec` on `seat`: chosen from the list if it is there, typed as a custom spec if not.
function setPlayer(seat, spec) {
  const listed = [...$(seat).options].some((option) => option.value === spec);
  $(seat).value = listed ? spec : CUSTOM;
  if (!listed) $(`${seat}-spec`).value = spec;
  showSpecs();
}

// A person against the chosen game's strongest champion (or `normal` if it has none).
function defaultPlayers() {
  const best = championsOf($("game").value)[0];
  setPlayer("first", "human");
  setPlayer("second", best ? championSpec(best) : "normal");
}

async function loadChampions() {
  try {
    const { runs } = await api("GET", "/api/runs");
    champions = runs.filter((run) => run.champion && run.game);
  } catch (error) {
    showError(error.message);
  }
  fillPlayers();
}

async function newGame() {
  try {
    showError("");
    const view = await api("POST", "/api/games", {
      game: $("game").value,
      first: playerOf("first"),
      second: playerOf("second"),
      hint_engine: $("hint-engine").value.trim(),
      seed: Math.floor(Math.random() * 1e9),
    });
    $("log").replaceChildren();
    render(view);
  } catch (error) {
    showError(error.message);
  }
}

// Exact results (a search that saw the game's end) come as ±1,000,000 plus the final
// margin: shown as the sure result they are.
const WIN_VALUE = 1e6;

function hintValue(value) {
  if (value >= WIN_VALUE / 2) return `wins by ${Math.round(value - WIN_VALUE)}`;
  if (value <= -WIN_VALUE / 2) return `loses by ${Math.round(-value - WIN_VALUE)}`;
  return (value >= 0 ? "+" : "") + value.toFixed(2);
}

async function hints() {
  const chooser = current && activeChooser(current);
  if (!chooser) return;
  try {
    const answer = await api("GET", `/api/games/${current.id}/hints?side=${chooser.side}`);
    const body = $("hints").querySelector("tbody");
    body.replaceChildren(...answer.hints.map((h) => {
      const row = document.createElement("tr");
      row.innerHTML = "<td></td><td></td>";
      row.cells[0].textContent = h.move;
      row.cells[1].textContent = hintValue(h.value);
      return row;
    }));
    const [moveHead, valueHead] = $("hints").querySelectorAll("th");
    moveHead.textContent = `move (${answer.engine}, best first)`;
    valueHead.textContent = `${answer.engine}'s value for ${current.seats[answer.side].name}`;
    $("hints").hidden = false;
  } catch (error) {
    showError(error.message);
  }
}

async function act(what) {
  if (!current) return;
  const person = current.seats.findIndex((s) => s.human);
  const chooser = activeChooser(current);
  const side = chooser ? chooser.side : person;
  try {
    showError("");
    render(await api("POST", `/api/games/${current.id}/${what}`, { side }));
  } catch (error) {
    showError(error.message);
  }
}

// ---------- runs ----------

let watched = null; // the run shown, polled while the Runs tab is open
let pollTimer = null;

async function listRuns() {
  try {
    const { runs } = await api("GET", "/api/runs");
    const list = $("run-list");
    list.replaceChildren(...runs.map((run) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.textContent = run.name + (run.game ? ` (${run.game})` : "");
      link.dataset.run = run.name;
      link.addEventListener("click", () => watch(run.name));
      item.appendChild(link);
      return item;
    }));
    if (runs.length === 0) list.textContent = "no runs in the runs directory";
  } catch (error) {
    showError(error.message);
  }
}

async function watch(name) {
  watched = name;
  clearTimeout(pollTimer);
  await refreshRun();
}

async function refreshRun() {
  if (!watched || $("panel-runs").hidden) return;
  try {
    const run = await api("GET", `/api/run?name=${encodeURIComponent(watched)}`);
    drawRun(run);
  } catch (error) {
    showError(error.message);
  }
  pollTimer = setTimeout(refreshRun, 2000);
}

// A distillation fit: its losses epoch by epoch; its champion is the epoch of the lowest
// validation loss.
function drawFit(run) {
  const epochs = run.losses.filter((r) => r.epoch > 0);
  const best = epochs.reduce((a, r) => (a === null || r.validation_loss < a.validation_loss ? r : a), null);
  let note = run.problem
    ? `losses not readable yet: ${run.problem}`
    : `a distillation fit: ${epochs.length} epochs (updates every 2 s)`;
  if (best) note += `; champion from epoch ${best.epoch}, validation loss ${best.validation_loss.toFixed(5)}`;
  $("run-note").textContent = note;
  playChampionButton(run);
  const rows = epochs.map((r) => ({ generation: r.epoch, train_loss: r.train_loss, validation_loss: r.validation_loss }));
  lineChart($("chart-losses"), rows, [
    { key: "train_loss", colour: "#b2182b" },
    { key: "validation_loss", colour: "#2166ac" },
  ], { yTitle: "mean squared error", xTitle: "epoch" });
}

// The button that opens a game against the run's champion, when it has one.
function playChampionButton(run) {
  const champion = $("play-champion");
  champion.hidden = !(run.champion && run.game);
  champion.onclick = () => {
    showPanel("play");
    $("game").value = run.game;
    fillPlayers();
    setPlayer("first", "human");
    setPlayer("second", run.champion);
    newGame();
  };
}

const percent = (rate, digits = 1) => `${(100 * rate).toFixed(digits)}%`;

function drawRun(run) {
  $("run").hidden = false;
  $("run-title").textContent = run.name + (run.game ? ` — ${run.game}` : "");
  const fit = Array.isArray(run.losses);
  for (const part of document.querySelectorAll("#run .evolution")) part.hidden = fit;
  $("losses").hidden = !fit;
  if (fit) {
    drawFit(run);
    return;
  }
  const last = run.rows[run.rows.length - 1];
  const test = run.champion_test;
  let note = run.problem
    ? `statistics not readable yet: ${run.problem}`
    : `${run.rows.length} generations${last ? `, last ${last.generation}` : ""} (updates every 2 s)`;
  if (run.champion_generation) note += `; champion from generation ${run.champion_generation}`;
  if (test) note += `, ${percent(test.win_rate)} in its final test of ${test.games} games`;
  $("run-note").textContent = note;
  playChampionButton(run);
  const rows = run.rows;
  $("fitness-label").textContent = run.fitness_label ? `: ${run.fitness_label}` : "";
  // A chart the run has no data for says why in its place.
  absent("fitness", run.shows_fitness ? null : run.fitness_absent || "No fitness in this run.");
  absent("diversity", run.shows_diversity ? null : run.diversity_absent || "No diversity in this run.");
  for (const cell of document.querySelectorAll("#generations .fitness")) cell.hidden = !run.shows_fitness;
  for (const cell of document.querySelectorAll("#generations .diversity")) cell.hidden = !run.shows_diversity;
  if (run.shows_fitness) {
    lineChart($("chart-fitness"), rows, [
      { key: "fitness_max", colour: "#1b7837" },
      { key: "fitness_mean", colour: "#2166ac" },
      { key: "fitness_min", colour: "#b2182b" },
    ], { yTitle: run.fitness_label || "fitness" });
  }
  const benchmarked = rows.filter((r) => r.win_rate !== null);
  const championRow = benchmarked.find((r) => r.generation === run.champion_generation);
  const marks = [];
  if (test) marks.push({ kind: "test", generation: test.generation, value: test.win_rate, low: test.ci_low, high: test.ci_high, colour: "#e6550d" });
  if (championRow) marks.push({ kind: "champion", generation: championRow.generation, value: championRow.win_rate, colour: "#d62728" });
  lineChart($("chart-benchmark"), benchmarked, [{ key: "win_rate", colour: "#2166ac" }], {
    band: { low: "ci_low", high: "ci_high" },
    percent: true,
    yTitle: "win rate",
    marks,
    empty: rows.length ? "no benchmark games in this run" : "no data yet",
  });
  const legend = [];
  if (championRow) legend.push(`<span class="champion">●</span> champion (generation ${championRow.generation}): ${percent(championRow.win_rate)} of ${championRow.bench_games} benchmark games`);
  else if (run.champion_generation) legend.push(`champion (generation ${run.champion_generation}): not benchmarked`);
  if (test) legend.push(`<span class="test">┃</span> its final test: ${percent(test.win_rate)} of ${test.games} fresh games (95% interval ${percent(test.ci_low)}–${percent(test.ci_high)})`);
  $("benchmark-legend").innerHTML = legend.join("<br>");
  $("benchmark-legend").hidden = legend.length === 0;
  if (run.shows_diversity) lineChart($("chart-diversity"), rows, [{ key: "diversity", colour: "#762a83" }], { yTitle: "mean pairwise distance" });
  const body = $("generations").querySelector("tbody");
  body.replaceChildren(...rows.slice(-10).reverse().map((r) => {
    const row = document.createElement("tr");
    const cells = [
      [r.generation, ""],
      [r.fitness_max.toFixed(3), "fitness"],
      [r.fitness_mean.toFixed(3), "fitness"],
      [r.fitness_min.toFixed(3), "fitness"],
      [r.win_rate === null ? "" : percent(r.win_rate), ""],
      [r.diversity.toFixed(4), "diversity"],
      [r.seconds, ""],
    ];
    for (const [value, series] of cells) {
      const cell = document.createElement("td");
      cell.textContent = value;
      if (series) {
        cell.className = series;
        cell.hidden = series === "fitness" ? !run.shows_fitness : !run.shows_diversity;
      }
      row.appendChild(cell);
    }
    return row;
  }));
}

// Shows chart `name`, or in its place why the run has none (`reason`).
function absent(name, reason) {
  // An SVG element has no `hidden` property: its style hides it.
  $(`chart-${name}`).style.display = reason === null ? "" : "none";
  const series = $(`${name}-series`);
  if (series) series.hidden = reason !== null;
  const note = $(`${name}-absent`);
  note.hidden = reason === null;
  note.textContent = reason || "";
  // Charts with data come first, the notes of absent ones after them.
  note.closest("figure").classList.toggle("missing", reason !== null);
}

// About `count` round steps covering `low`..`high`: 1, 2 or 5 times a power of ten, and
// at least `least`.
function niceTicks(low, high, count, least = 0) {
  const raw = Math.max((high - low) / count, least);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-9));
  const ticks = [];
  for (let i = Math.ceil(low / step - 1e-9); i * step <= high * (1 + 1e-12) + 1e-12; i++) {
    ticks.push(Math.round(i * step * 1e9) / 1e9);
  }
  return { ticks, step };
}

// The digits a tick of `step` needs.
const decimals = (step) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

// A line chart of `series` over the generations: ticks and titles on both axes, an
// optional shaded band, and marks (the champion's dot, its final test as an interval).
// Win rates (`percent`) are zoomed to the data, as the run's PNG plots are.
function lineChart(svg, rows, series, options) {
  const { band, percent: isPercent, yTitle, xTitle = "generation", marks = [], empty = "no data yet" } = options || {};
  const width = 460, height = 290, left = 70, right = 28, top = 14, bottom = 52;
  const font = { "font-size": 14, fill: "#333" };
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.replaceChildren();
  if (rows.length === 0) {
    text(svg, width / 2, height / 2, empty, font);
    return;
  }
  const xs = rows.map((r) => r.generation).concat(marks.map((m) => m.generation));
  const values = rows.flatMap((r) => series.map((s) => r[s.key]).concat(band ? [r[band.low], r[band.high]] : []))
    .concat(marks.flatMap((m) => [m.value, m.low ?? m.value, m.high ?? m.value]));
  let low = Math.min(...values), high = Math.max(...values);
  if (isPercent) {
    low = Math.max(0, Math.floor((low - 0.01) * 20) / 20);
    high = Math.min(1, Math.ceil((high + 0.01) * 20) / 20);
    if (high - low < 0.1) [low, high] = low + 0.1 <= 1 ? [low, low + 0.1] : [high - 0.1, high];
  } else if (high - low < 1e-9) {
    low -= 0.5; high += 0.5;
  } else {
    const pad = (high - low) * 0.05;
    low = low >= 0 ? Math.max(0, low - pad) : low - pad;
    high += pad;
  }
  const x0 = Math.min(...xs), x1 = Math.max(x0 + 1, Math.max(...xs));
  const px = (x) => left + (x - x0) / (x1 - x0) * (width - left - right);
  const py = (y) => top + (high - y) / (high - low) * (height - top - bottom);
  const y = niceTicks(low, high, 5);
  const yDigits = decimals(isPercent ? 100 * y.step : y.step);
  for (const t of y.ticks) {
    el("line", { x1: left, y1: py(t), x2: width - right, y2: py(t), stroke: "#e4e4e4" }, svg);
    const label = isPercent ? `${(100 * t).toFixed(yDigits)}%` : t.toFixed(yDigits);
    text(svg, left - 6, py(t), label, Object.assign({ "text-anchor": "end", class: "tick" }, font));
  }
  for (const t of niceTicks(x0, x1, 6, 1).ticks) {
    el("line", { x1: px(t), y1: height - bottom, x2: px(t), y2: height - bottom + 5, stroke: "#888" }, svg);
    text(svg, px(t), height - bottom + 16, String(t), Object.assign({ class: "tick" }, font));
  }
  el("line", { x1: left, y1: top, x2: left, y2: height - bottom, stroke: "#888" }, svg);
  el("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, stroke: "#888" }, svg);
  text(svg, (left + width - right) / 2, height - 12, xTitle, Object.assign({ class: "axis-title" }, font));
  const title = text(svg, 16, (top + height - bottom) / 2, yTitle || "", Object.assign({ class: "axis-title" }, font));
  title.setAttribute("transform", `rotate(-90 16 ${(top + height - bottom) / 2})`);
  if (band) {
    const upper = rows.map((r) => `${px(r.generation)},${py(r[band.high])}`);
    const lower = rows.map((r) => `${px(r.generation)},${py(r[band.low])}`).reverse();
    el("polygon", { points: upper.concat(lower).join(" "), fill: "#9ecae1", opacity: 0.5 }, svg);
  }
  for (const s of series) {
    const points = rows.map((r) => `${px(r.generation)},${py(r[s.key])}`).join(" ");
    el("polyline", { points, fill: "none", stroke: s.colour, "stroke-width": 2, class: "series", "data-key": s.key }, svg);
  }
  for (const m of marks) {
    const x = px(m.generation);
    const group = el("g", { class: `mark ${m.kind}`, "data-generation": m.generation }, svg);
    if (m.low !== undefined) {
      el("line", { x1: x, y1: py(m.low), x2: x, y2: py(m.high), stroke: m.colour, "stroke-width": 3 }, group);
      for (const v of [m.low, m.high]) el("line", { x1: x - 6, y1: py(v), x2: x + 6, y2: py(v), stroke: m.colour, "stroke-width": 3 }, group);
    }
    el("circle", { cx: x, cy: py(m.value), r: 5, fill: m.colour, stroke: "#fff", "stroke-width": 1.5 }, group);
  }
}

// ---------- page ----------

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.panel === name);
  $("panel-play").hidden = name !== "play";
  $("panel-runs").hidden = name !== "runs";
  if (name === "runs") {
    listRuns();
    refreshRun();
  }
}

for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showPanel(tab.dataset.panel));
$("setup").addEventListener("submit", (event) => { event.preventDefault(); newGame(); });
$("hint").addEventListener("click", hints);
$("undo").addEventListener("click", () => act("undo"));
$("resign").addEventListener("click", () => act("resign"));
$("pass").addEventListener("click", () => move($("pass").dataset.move));
$("game").addEventListener("change", fillPlayers);
for (const seat of SEATS) $(seat).addEventListener("change", showSpecs);

// The page opens on a game of Othello against its strongest champion. Links into it:
// `#run=NAME` opens that run; `#game=G&first=A&second=B` starts that game instead.
(async () => {
  await loadChampions();
  const link = new URLSearchParams(location.hash.slice(1));
  if (link.has("run")) {
    showPanel("runs");
    watch(link.get("run"));
    return;
  }
  if (link.has("game")) $("game").value = link.get("game");
  fillPlayers();
  defaultPlayers();
  for (const seat of SEATS) if (link.has(seat)) setPlayer(seat, link.get(seat));
  newGame();
})();

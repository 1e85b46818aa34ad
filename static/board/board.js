/* A table's board live, for spectators (templates/public/board.html): drawn from the table's JSON (the public
   API, tournament/public/api.py: docs/api.md), read anew at each change the table's event stream tells
   (static/site/live.js's listen; the browser asks with the ETag it has: a 304 while unchanged). The 40
   squares around the edge (the first at the bottom right, as on the board), each owned one edged with its
   owner's colour, its houses or hotel, a mortgaged one hatched; the tokens on their squares; beside it (below
   it on a phone) each player's cash and net worth, whose turn, the last moves. The page's words come from
   its json_script (Django's catalogue); every figure from the JSON. */
import { listen } from "../site/live.js";
import { h } from "../console/screen/elements.js";  // (the console's element maker: h(tag, attrs, ...children))

const GROUPS = {
  "brown": "#8b4513", "light-blue": "#87ceeb", "pink": "#d63384", "orange": "#f08c00", "red": "#e03131",
  "yellow": "#fcc419", "green": "#2f9e44", "dark-blue": "#1c3f95", "railroads": "#333333", "utilities": "#adb5bd",
  "transport": "#333333"
};
// the groups of another board (Anti-Monopoly's cities): colours in the order the board names them
const OTHERS = ["#8b4513", "#87ceeb", "#d63384", "#f08c00", "#e03131", "#fcc419", "#2f9e44", "#1c3f95"];

const root = document.getElementById("live-board");
const words = JSON.parse(document.getElementById("board-words").textContent);
const boardEl = root.querySelector(".board");
const statusEl = root.querySelector(".status");
const playersEl = root.querySelector(".players");
const movesEl = root.querySelector(".moves");
let drawnBoard = null;  // the board id whose squares are drawn
let squares = [];  // the square elements by index
let reading = false;
let again = false;

function fmt(template, values) {
  return template.replace(/%\((\w+)\)s/g, function (_m, k) { return String(values[k]); });
}

function money(n) { return n.toLocaleString(document.documentElement.lang || undefined); }

// Where square i sits on an 11 × 11 grid (40 squares: 10 a side), the first at the bottom right.
function place(i, count) {
  const side = count / 4;
  const last = side + 1;
  if (i <= side) { return [last, last - i]; }
  if (i < 2 * side) { return [last - (i - side), 1]; }
  if (i <= 3 * side) { return [1, i - 2 * side + 1]; }
  return [i - 3 * side + 1, last];
}

function groupColours(list) {
  const colours = {};
  let other = 0;
  for (const sq of list) {
    if (sq.group && !(sq.group in colours)) {
      colours[sq.group] = GROUPS[sq.group] || OTHERS[other++ % OTHERS.length];
    }
  }
  return colours;
}

function drawSquares(board) {
  for (const el of squares) { el.remove(); }
  const colours = groupColours(board.squares);
  const count = board.squares.length;
  const side = count / 4 + 1;
  boardEl.style.setProperty("--side", String(side));
  squares = board.squares.map(function (sq) {
    const [row, col] = place(sq.index, count);
    const corner = sq.index % (count / 4) === 0;
    const el = h("div", { class: "square" + (corner ? " corner" : "") + " kind-" + sq.kind, "data-square": String(sq.index), title: sq.name },
      h("span", { class: "stripe" }),
      h("span", { class: "name", text: sq.name }),
      sq.price ? h("span", { class: "price", text: money(sq.price) }) : null,
      h("span", { class: "build" }),
      h("span", { class: "tokens" }));
    el.style.setProperty("grid-row", String(row));
    el.style.setProperty("grid-column", String(col));
    if (sq.group) { el.style.setProperty("--group", colours[sq.group]); el.classList.add("grouped"); }
    boardEl.append(el);
    return el;
  });
  drawnBoard = board.id;
}

function drawHoldings(data) {
  const owned = {};
  for (const hd of data.holdings) { owned[hd.square] = hd; }
  squares.forEach(function (el, i) {
    const hd = owned[i];
    const build = el.querySelector(".build");
    build.textContent = "";
    el.classList.toggle("owned", !!hd);
    el.classList.toggle("mortgaged", !!(hd && hd.mortgaged));
    if (hd) {
      el.dataset.owner = hd.owner;
      el.style.setProperty("--owner", hd.colour);
      if (hd.hotel) { build.append(h("span", { class: "hotel", title: words.hotel, text: "H" })); }
      for (let n = 0; n < hd.houses; n++) { build.append(h("span", { class: "house" })); }
      if (hd.mortgaged) { el.title = el.querySelector(".name").textContent + " — " + words.mortgaged; }
    } else {
      delete el.dataset.owner;
      el.style.removeProperty("--owner");
    }
  });
}

function drawTokens(data) {
  for (const el of squares) { el.querySelector(".tokens").textContent = ""; }
  for (const p of data.players) {
    if (p.bankrupt || !squares[p.position]) { continue; }
    const token = h("span", { class: "token" + (p.id && p.id === data.turn ? " now" : ""), "data-player": p.id, title: p.name, text: String(p.token) });
    token.style.setProperty("--colour", p.colour);
    squares[p.position].querySelector(".tokens").append(token);
  }
}

function drawPlayers(data) {
  playersEl.textContent = "";
  for (const p of data.players) {
    const marks = [];
    if (p.id && p.id === data.turn) { marks.push(words.turn); }
    if (p.in_jail) { marks.push(words.in_jail); }
    if (p.bankrupt) { marks.push(words.bankrupt); }
    const token = h("span", { class: "token", text: String(p.token || "") });
    if (p.colour) { token.style.setProperty("--colour", p.colour); }
    const li = h("li", { class: (p.id && p.id === data.turn ? "now" : "") + (p.bankrupt ? " out" : ""), "data-player": p.id || "" },
      token,
      h("span", { class: "who" }, h("span", { class: "pname", text: p.name }),
        p.role_label ? h("span", { class: "role role-" + p.role, text: p.role_label }) : null,
        marks.length ? h("span", { class: "marks", text: marks.join(" · ") }) : null),
      p.cash === undefined ? null : h("span", { class: "figure cash" }, h("small", { text: words.cash }), h("b", { text: money(p.cash) })),
      p.net_worth === undefined ? null : h("span", { class: "figure worth" }, h("small", { text: words.net_worth }), h("b", { text: money(p.net_worth) })));
    playersEl.append(li);
  }
}

function drawMoves(data) {
  movesEl.textContent = "";
  for (const m of data.moves || []) {
    movesEl.append(h("li", { "data-seq": String(m.seq) }, m.player ? h("b", { text: m.player + ": " }) : null, m.text));
  }
}

function draw(data) {
  if (data.board && data.board.id !== drawnBoard) { drawSquares(data.board); }
  if (data.status === "not_started") {
    statusEl.textContent = words.not_started;
  } else {
    const now = data.players.find(function (p) { return p.id && p.id === data.turn; });
    statusEl.textContent = data.finished ? words.finished + (data.end ? ": " + data.end : "")
      : fmt(words.round, { n: data.round }) + (now ? " · " + now.name + " " + words.turn : "");
    drawHoldings(data);
    drawTokens(data);
  }
  drawPlayers(data);
  drawMoves(data);
  root.dataset.version = String(data.version);
  root.dataset.status = data.status;
}

async function read() {
  if (reading) { again = true; return; }
  reading = true;
  try {
    const answer = await fetch(root.dataset.api + "?lang=" + encodeURIComponent(root.dataset.lang), { cache: "no-cache", headers: { Accept: "application/json" } });
    if (!answer.ok) { throw new Error(String(answer.status)); }
    draw(await answer.json());
    root.classList.remove("unreachable");
  } catch (ignored) {
    statusEl.textContent = words.unreachable;
    root.classList.add("unreachable");
  } finally {
    reading = false;
    if (again) { again = false; read(); }
  }
}

read();
listen(root.dataset.live, { told: function () { read(); }, every: 20 });

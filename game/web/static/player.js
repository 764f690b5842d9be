"use strict";
// The player page: trades the QR code's join code for a seat token, then talks over one WebSocket.
// It shows only what the server sends for this seat (the server never sends another seat's hand).
const state = {token: sessionStorage.getItem("bt-token"), ws: null, picked: null, last: null};

async function join() {
  const m = location.pathname.match(/^\/join\/([A-Za-z0-9_-]+)$/);
  if (m) {
    const r = await fetch("/api/join", {method: "POST", headers: {"Content-Type": "application/json"},
                                         body: JSON.stringify({code: m[1]})});
    const j = await r.json();
    history.replaceState(null, "", "/play");  // the code is spent: keep it out of the history
    if (!r.ok) { $("error").textContent = j.error; $("who").textContent = "not joined"; return; }
    state.token = j.token;
    sessionStorage.setItem("bt-token", j.token);
  }
  if (!state.token) { $("error").textContent = "Scan your seat's QR code on the table to join."; return; }
  connect();
}

function connect() {
  const ws = new WebSocket(wsUrl("/ws/seat"));
  state.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({op: "hello", token: state.token}));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") render(msg);
    else if (msg.type === "error") $("error").textContent = msg.error;
    else if (msg.type === "ack") $("error").textContent = "";
  };
  ws.onclose = (e) => {
    if (e.code === 4401 || e.code === 4403) {
      sessionStorage.removeItem("bt-token");
      $("who").textContent = "not joined";
      $("error").textContent = e.reason || "signed out: scan your seat's QR code again";
      return;
    }
    setTimeout(connect, 1000);  // a dropped link (Wi-Fi): try again
  };
}

function send(obj) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(obj));
}

function show(id, on) { $(id).classList.toggle("hidden", !on); }

function render(msg) {
  const pub = msg.public, me = msg.me;
  state.last = msg;
  $("title").textContent = pub.title;
  if (!me) { $("who").textContent = "your panel is not in this game"; return; }
  const player = me.player;
  $("who").textContent = (player && player.name ? player.name + " - " : "") +
                         (me.seat ? "seat " + me.seat : "panel " + me.panel) + (me.panel ? " (panel " + me.panel + ")" : "");
  $("note").textContent = me.note || (pub.paused ? "the table is paused" : "");
  show("lobby", pub.screen === "lobby");
  if (pub.screen === "lobby") {
    $("lobby-line").textContent = me.joined ? "You are in. DUEL starts when everyone is ready."
                                            : "Tap any button below to join this seat.";
  }
  show("taco", !!me.taco);
  show("zombie", !!me.zombie);
  show("score-box", !!me.score && !me.taco);
  const labels = me.taco ? {SET: "LEFT", BRAWL: "RIGHT", WAR: "PLAY", DUEL: "NO BUENO"}
                         : {SET: "SET", BRAWL: "BRAWL", WAR: "WAR", DUEL: "DUEL"};
  for (const b of ["SET", "BRAWL", "WAR", "DUEL"]) $("b-" + b).textContent = labels[b];
  if (me.taco) renderTaco(pub, me.taco);
  if (me.zombie) renderZombie(me.zombie);
  if (me.score && !me.taco) renderScore(me.score);
  renderScores($("scores"), pub);
  renderTicker($("ticker"), pub);
}

function renderTaco(pub, t) {
  const tp = pub.taco;
  let line;
  if (pub.over) line = "Game over: " + (tp.winners.length ? "seat " + tp.winners.join(" & ") + " wins" : "");
  else if (t.bot) line = "A bot plays this seat";
  else if (t.my_turn) line = tp.phase === "choose" ? "Food Fight: pick one card" : "Your turn: pick a card";
  else if (tp.phase === "window") line = t.can_block ? "NO BUENO?" : "Block window";
  else line = "Seat " + tp.turn + "'s turn";
  $("taco-line").textContent = line;
  renderMeal(t);
  // the block window counts down here: the table sends its length left once, not every tenth of a second
  const left = t.window_end === null ? 0 : t.window_end - pub.table_now;
  state.window = tp.phase === "window" && left > 0 ? {left, at: performance.now()} : null;
  tick();
  $("no-bueno").disabled = !t.can_block;
  // rebuild the buttons only when they change, so a finger on a button is not pulled from under it
  const sig = JSON.stringify([t.hand, t.options, t.choose, state.picked, tp.phase]);
  if (sig === state.sig) return;
  state.sig = sig;
  const hand = $("hand");
  hand.replaceChildren();
  if (state.picked && !(state.picked in t.options)) state.picked = null;
  t.hand.forEach((c, i) => {
    const b = el("button", {class: "card" + (state.picked === c.card ? " picked" : ""), "data-card": c.card,
                            id: "card-" + i}, c.label);
    b.disabled = !(c.card in t.options);
    b.onclick = () => { state.picked = c.card; render(state.last); };
    hand.append(b);
  });
  const opts = $("options");
  opts.replaceChildren();
  const list = tp.phase === "choose" ? t.choose : (state.picked ? t.options[state.picked] || [] : []);
  list.forEach((o, i) => {
    const b = el("button", {class: "option", id: "option-" + i}, o.label);
    b.onclick = () => {
      send({op: "move", move: o.move, sent: performance.now()});
      state.picked = null;
      state.sig = null;
      opts.replaceChildren();  // one tap, one move: the options go until the table answers
    };
    opts.append(b);
  });
  renderMeal(t);
}

function renderMeal(t) {
  $("meal").textContent = (t.meal.length ? t.meal.join(", ") : "empty") +
                          (t.score === null ? "" : "  -  " + t.score + " points");
}

function tick() {
  const w = state.window;
  const left = w ? Math.max(0, w.left - (performance.now() - w.at) / 1000) : 0;
  $("taco-count").textContent = left > 0 ? left.toFixed(1) + " s" : "";
}
setInterval(tick, 100);

function renderZombie(z) {
  $("zb-team").textContent = z.team ? z.team.toUpperCase() + " (seats " + z.teammates.join(", ") + ")" : "";
  let text = "Team Markers: zombies " + z.markers.zombies + ", survivors " + z.markers.survivors + ". ";
  text += z.sets.length ? "Your team's advantage sets: " + z.sets.map((s) => s.kind + " (seat " + s.seat + ")").join(", ")
                        : "No advantage set laid yet.";
  if (z.choice) text += "  Choosing " + z.choice.purpose + ": " + z.choice.items[z.choice.cursor] +
                        " (BRAWL / WAR move, SET chooses)";
  $("zb-detail").textContent = text;
}

function renderScore(t) {
  $("score").textContent = t.points + " points" + (t.bruises ? ", " + t.bruises + " bruises" : "");
  $("in-battle").textContent = t.in_battle ? "You're in this battle!" : "";
}

for (const b of document.querySelectorAll("[data-button]")) {
  b.onclick = () => send({op: "tap", button: b.dataset.button, sent: performance.now()});
}
$("no-bueno").onclick = () => send({op: "tap", button: "DUEL", sent: performance.now()});
$("name-form").onsubmit = (e) => {
  e.preventDefault();
  send({op: "player", name: $("name").value, colour: $("colour").value});
};
join();

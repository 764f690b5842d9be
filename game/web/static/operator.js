"use strict";
// The operator page: PIN login, then device health, match history, pause/resume/restart and settings.
let token = sessionStorage.getItem("bt-op");

async function api(path, body) {
  const r = await fetch(path, {method: body ? "POST" : "GET", headers: {"Content-Type": "application/json",
                               "Authorization": "Bearer " + (token || "")}, body: body ? JSON.stringify(body) : undefined});
  const j = await r.json();
  if (r.status === 401 && path !== "/api/operator/login") { token = null; sessionStorage.removeItem("bt-op"); show(false); }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function show(on) {
  $("login").classList.toggle("hidden", on);
  for (const id of ["controls", "devices-box", "seats-box", "history-box", "settings-box"]) $(id).classList.toggle("hidden", !on);
  $("sub").textContent = on ? "logged in" : "PIN needed";
}

function row(cells, head) {
  const tr = el("tr");
  for (const c of cells) tr.append(el(head ? "th" : "td", {}, c === null || c === undefined ? "-" : String(c)));
  return tr;
}

async function refresh() {
  if (!token) return;
  try {
    const j = await api("/api/operator/state");
    show(true);
    const op = j.operator;
    $("status").textContent = (op.paused ? "PAUSED" : "Game running") + (op.error ? "  -  failsafe: " + op.error : "") +
                              "  -  " + op.rejected + " events refused by the rules";
    const d = $("devices");
    d.replaceChildren(row(["device", "seat", "online", "battery", "link", "RSSI", "clock"], true));
    if (!op.devices.length) {
      const tr = el("tr");
      tr.append(el("td", {colspan: "7"}, "No device host: simulation mode, or no receiver plugged in."));
      d.append(tr);
    }
    for (const x of op.devices) d.append(row([x.name, x.seat, x.online ? "yes" : "NO",
      x.battery_pct === null ? "USB" : x.battery_pct + "%", x.link_pct === null ? null : x.link_pct + "%",
      x.rssi_dbm === null ? null : x.rssi_dbm + " dBm", x.synced ? x.offset_ms + " ms" : "not synced"]));
    const p = $("phones");
    p.replaceChildren(el("div", {}, op.joined.length ? "Phones on panels " + op.joined.join(", ") : "No phone joined"));
    for (const panel of op.joined) {
      const b = el("button", {}, "Free panel " + panel);
      b.onclick = () => api("/api/operator/action", {action: "free-seat", panel}).then(refresh);
      p.append(b);
    }
    const h = $("history");
    h.replaceChildren(row(["#", "game", "players", "started", "events", "done"], true));
    for (const g of j.history) {
      const names = Object.values(g.players || {}).map((p) => p.name).join(", ") || g.seats + " seats";
      const started = new Date(g.started * 1000);
      h.append(row([g.id, g.game.replace(/-/g, " "), names,
                    started.toLocaleDateString([], {month: "short", day: "numeric"}) + " " +
                    started.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}), g.events,
                    g.finished ? "yes" : "no"]));
    }
    const s = $("settings");
    s.replaceChildren();
    for (const [k, v] of Object.entries(j.settings)) s.append(row([k, v]));
  } catch (e) { $("error").textContent = e.message; }
}

$("login-form").onsubmit = async (e) => {
  e.preventDefault();
  try {
    token = (await api("/api/operator/login", {pin: $("pin").value})).token;
    sessionStorage.setItem("bt-op", token);
    $("error").textContent = "";
    refresh();
  } catch (err) { $("error").textContent = err.message; }
};
for (const a of ["pause", "resume", "restart"]) {
  $(a).onclick = () => api("/api/operator/action", {action: a}).then(refresh).catch((e) => { $("error").textContent = e.message; });
}
refresh();
setInterval(refresh, 2000);

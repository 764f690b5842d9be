"use strict";
// Small helpers shared by the pages: no framework, nothing fetched from elsewhere.
function $(id) { return document.getElementById(id); }
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function wsUrl(path) { return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path; }
function renderScores(table, pub) {
  table.replaceChildren();
  if (pub.screen === "lobby") {
    const tr = el("tr");
    tr.append(el("td", {}, "Lobby: " + pub.title + " (" + pub.variant + "), panels joined: " +
                           (pub.joined.length ? pub.joined.join(", ") : "none yet")));
    table.append(tr);
    return;
  }
  const taco = pub.taco;
  for (const s of pub.seats || []) {
    const tr = el("tr");
    const name = el("td");
    const dot = el("span", {class: "dot"});
    dot.style.background = s.colour || "#888";
    name.append(dot, document.createTextNode(s.name));
    let score = String(s.points);
    if (taco) score = taco.scores[s.seat - 1] === null ? "?" : String(taco.scores[s.seat - 1]);
    if (s.bruises) score += "  (bruises " + s.bruises + ")";
    if (taco && taco.turn === s.seat && !pub.over) score += "  <- turn";
    tr.append(name, el("td", {}, score));
    table.append(tr);
  }
}
function renderTicker(div, pub) { div.textContent = (pub.ticker || []).slice().reverse().join("\n"); }

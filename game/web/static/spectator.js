"use strict";
// The spectator page: the public view only, over /ws/watch; it sends nothing.
function connect() {
  const ws = new WebSocket(wsUrl("/ws/watch"));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type !== "state") return;
    const pub = msg.public;
    $("title").textContent = pub.title;
    $("line").textContent = pub.over ? "Game over" : pub.paused ? "Paused" : "";
    renderScores($("scores"), pub);
    renderTicker($("ticker"), pub);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}
connect();

/* The secretary's console: live over the evening's event stream, polling while it is down.
 * No inline script and no eval (the CSP forbids both): everything hangs off htmx events.
 */
(function () {
  "use strict";
  var root = document.getElementById("console-root");
  var wrap = document.getElementById("live-wrap");
  if (!root || !wrap || typeof htmx === "undefined") return;
  var conn = document.getElementById("conn");
  var pollTimer = null;

  function setConn(state, text) {
    if (!conn) return;
    conn.dataset.state = state;
    conn.textContent = text;
  }
  function startPolling() {
    if (pollTimer) return;
    setConn("polling", "reconnecting (checking every 5 s)");
    pollTimer = window.setInterval(function () { htmx.trigger(wrap, "poll"); }, 5000);
  }
  // Each notice refreshes the live part once the room is quiet for 300 ms (hx-trigger's
  // delay), and at the latest 1.5 s after the first notice not yet shown, so a busy
  // room never keeps the console waiting.
  var unservedSince = 0;
  wrap.addEventListener("sse:update", function () {
    if (!unservedSince) unservedSince = Date.now();
    window.setTimeout(function () {
      if (unservedSince && Date.now() - unservedSince >= 1500) htmx.trigger(wrap, "poll");
    }, 1550);
  });
  wrap.addEventListener("htmx:beforeRequest", function () { unservedSince = 0; });

  root.addEventListener("htmx:sseOpen", function () {
    var wasPolling = !!pollTimer;
    if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; }
    setConn("live", "live");
    if (wasPolling) htmx.trigger(wrap, "poll");
  });
  root.addEventListener("htmx:sseError", startPolling);
  root.addEventListener("htmx:sseClose", startPolling);
  window.setTimeout(function () { if (conn && conn.dataset.state === "connecting") startPolling(); }, 4000);
})();

/* The secretary's console: live over the evening's event stream, polling while it is down;
 * its forms sent by htmx and the console swapped in place (no reload, the scroll kept).
 * No inline script and no eval (the CSP forbids both): everything hangs off htmx events.
 */
(function () {
  "use strict";
  var root = document.getElementById("console-root");
  if (!root || typeof htmx === "undefined") return;

  // Refusals are swapped in like a success: refusals.js.

  // The sections the secretary folded stay folded when the console is swapped under them
  // (after a form, or when the live part refreshes).
  var folded = {};
  function noteFolds() {
    folded = {};
    root.querySelectorAll("details.fold[id]").forEach(function (d) {
      if (!d.open) folded[d.id] = true;
    });
  }
  function applyFolds() {
    root.querySelectorAll("details.fold[id]").forEach(function (d) {
      if (folded[d.id]) d.open = false;
    });
  }
  root.addEventListener("htmx:beforeSwap", noteFolds);

  // What a form just did, told in the live part (a table seated, a member checked out),
  // stays told when the live part refreshes under it (the refresh carries no message; a
  // deal dealt again at once refreshed it away within a second). The next form's answer
  // replaces it.
  var saidKept = {};
  root.addEventListener("htmx:beforeSwap", function (e) {
    saidKept = {};
    if (isPost(e)) return;
    root.querySelectorAll("#live .said-slot[data-slot]").forEach(function (slot) {
      if (slot.children.length) saidKept[slot.dataset.slot] = slot.innerHTML;
    });
  });
  root.addEventListener("htmx:afterSwap", function () {
    Object.keys(saidKept).forEach(function (name) {
      var slot = root.querySelector('#live .said-slot[data-slot="' + name + '"]');
      if (slot && !slot.children.length) slot.innerHTML = saidKept[name];
    });
    saidKept = {};
  });

  // The place of the eye: when the console is swapped in after a form, the section whose
  // form was sent stays where it was on the screen; when the live part refreshes, the
  // first section in view does. (The browser's own scroll anchoring loses its anchor with
  // the old content: on a phone the page jumped 1,500 px down, or a growing waiting list
  // pushed the form the secretary was filling out of view.)
  var PLACES = "details.fold[id], article[id], section[id]";
  var anchor = null;
  function isPost(e) { return !!(e.detail.requestConfig && e.detail.requestConfig.verb === "post"); }
  root.addEventListener("htmx:beforeSwap", function (e) {
    anchor = null;
    var place = null;
    var sent = isPost(e) && e.detail.requestConfig.elt; // the form (detail.elt is the target)
    if (sent && sent.id) {
      // A form of its own (check in, form a table): its bottom, where the button was and
      // what it did is told, stays put.
      anchor = { id: sent.id, edge: "bottom", at: sent.getBoundingClientRect().bottom };
      return;
    } else if (sent && sent.closest) {
      place = sent.closest(PLACES);
    } else if (window.scrollY > 0) {
      // The first section starting in view, else the one the screen's top is in.
      var all = root.querySelectorAll(PLACES);
      for (var i = 0; i < all.length && !place; i++) {
        if (all[i].getBoundingClientRect().top >= 0) place = all[i];
      }
      for (var j = 0; j < all.length && !place; j++) {
        if (all[j].getBoundingClientRect().bottom > 0) place = all[j];
      }
    }
    if (place) anchor = { id: place.id, edge: "top", at: place.getBoundingClientRect().top };
  });
  function keepPlace() {
    if (!anchor) return;
    var place = document.getElementById(anchor.id);
    if (place) window.scrollBy(0, place.getBoundingClientRect()[anchor.edge] - anchor.at);
  }
  // Folds are put back as soon as the new content is in (not only once it settles): a
  // refresh of the live part that lands in between must find them as the secretary left
  // them, or it would take them for open (seen under load: the waiting list reopened).
  root.addEventListener("htmx:afterSwap", function () { applyFolds(); keepPlace(); });
  // The stream's state, told again on a console swapped in after a form.
  var connState = null;
  function setConn(state, text) {
    connState = [state, text];
    var conn = document.getElementById("conn");
    if (!conn) return;
    conn.dataset.state = state;
    // The page's own words for the state, in its reader's language (issue 82).
    conn.textContent = conn.getAttribute("data-says-" + state) || text;
  }
  root.addEventListener("htmx:afterSettle", function (e) {
    applyFolds();
    keepPlace();
    anchor = null;
    if (!isPost(e)) return;
    if (connState) setConn(connState[0], connState[1]);
    // After a form: what was refused (or done) is focused where it is told, for a screen
    // reader to read it, without moving the page.
    var told = document.querySelector("#console-body [role=alert], #console-body [data-said]");
    if (told) {
      if (!told.hasAttribute("tabindex")) told.setAttribute("tabindex", "-1");
      told.focus({ preventScroll: true });
      var box = told.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) told.scrollIntoView({ block: "nearest" });
    }
  });

  var wrap = document.getElementById("live-wrap");
  if (!wrap || !document.getElementById("conn")) return; // an evening no longer open: no stream
  var pollTimer = null;
  function liveWrap() { return document.getElementById("live-wrap") || wrap; }
  function startPolling() {
    if (pollTimer) return;
    setConn("polling", "reconnecting (checking every 5 s)");
    pollTimer = window.setInterval(function () { htmx.trigger(liveWrap(), "poll"); }, 5000);
  }
  // Each notice refreshes the live part once the room is quiet for 300 ms (hx-trigger's
  // delay), and at the latest 1.5 s after the first notice not yet shown, so a busy
  // room never keeps the console waiting. (Listened for on the root: a form's swap
  // replaces the live part's wrapper.)
  var unservedSince = 0;
  root.addEventListener("sse:update", function () {
    if (!unservedSince) unservedSince = Date.now();
    window.setTimeout(function () {
      if (unservedSince && Date.now() - unservedSince >= 1500) htmx.trigger(liveWrap(), "poll");
    }, 1550);
  });
  root.addEventListener("htmx:beforeRequest", function (e) {
    if (e.target && e.target.id === "live-wrap") unservedSince = 0;
  });

  root.addEventListener("htmx:sseOpen", function () {
    var wasPolling = !!pollTimer;
    if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; }
    setConn("live", "live");
    if (wasPolling) htmx.trigger(liveWrap(), "poll");
  });
  root.addEventListener("htmx:sseError", startPolling);
  root.addEventListener("htmx:sseClose", startPolling);
  window.setTimeout(function () { if (!connState || connState[0] === "connecting") startPolling(); }, 4000);
})();

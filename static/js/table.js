/* The table page: card selection, hand order, live updates (each move's part pushed on the
 * table's stream, or fetched when the stream only tells of it) with a polling fallback.
 *
 * No inline script and no eval (the CSP forbids both): everything hangs off htmx events.
 */
(function () {
  "use strict";
  var root = document.getElementById("table-root");
  if (!root || typeof htmx === "undefined") return;
  // The end of a deal shows only while this page says so (the deal-ended class, set by
  // showDealEnd): an end already continued from, pushed again with the next deal's state,
  // takes no room while it is swapped in. Shown for a moment above the deal, it made the
  // browser keep the deal where it was on the screen by scrolling a whole end's height
  // down, and the hand was left above the phone's screen (test_phone, one run in four).
  root.classList.add("scripted");

  // Refusals are swapped in like a success: refusals.js.

  var tableId = root.dataset.table;
  var storeKey = "cooncan:hand:" + tableId;
  var conn = document.getElementById("conn");
  var pollTimer = null;
  var pollCount = 0;
  var keptSelection = null;
  var sentCards = [];
  var keptFocus = null;
  var playsOpen = false;

  function live() { return document.getElementById("live"); }
  function hand() { return document.getElementById("hand"); }
  function handCards() {
    var h = hand();
    return h ? Array.prototype.slice.call(h.querySelectorAll("button.in-hand")) : [];
  }
  function stamp() {
    var f = document.getElementById("play");
    return f ? f.dataset.stamp || "" : "";
  }
  // A stamp is "deal:version"; a later deal at the table has a larger id.
  function parseStamp(s) {
    var m = /^(\d+):(\d+)$/.exec(s || "");
    return m ? [+m[1], +m[2]] : null;
  }
  function older(a, b) {
    var x = parseStamp(a), y = parseStamp(b);
    return !!(x && y) && (x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]));
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || {}; } catch (e) { return {}; }
  }
  function save(pref) {
    try { localStorage.setItem(storeKey, JSON.stringify(pref)); } catch (e) { /* private mode */ }
  }

  // --- hand order: by suit, by rank, or the player's own (drag or Alt+arrows) --------
  function sortHand(mode) {
    var h = hand();
    if (!h) return;
    var cards = handCards();
    cards.sort(function (a, b) {
      var sa = +a.dataset.suit, sb = +b.dataset.suit, ra = +a.dataset.rank, rb = +b.dataset.rank;
      return mode === "rank" ? (ra - rb || sa - sb) : (sa - sb || ra - rb);
    });
    cards.forEach(function (c) { h.appendChild(c); });
  }
  function applyOrder() {
    var pref = load();
    var h = hand();
    if (!h) return;
    if (pref.mode === "custom" && pref.order) {
      var cards = handCards();
      var placed = [];
      pref.order.forEach(function (code) {
        for (var i = 0; i < cards.length; i++) {
          if (cards[i] && cards[i].dataset.card === code) { placed.push(cards[i]); cards[i] = null; break; }
        }
      });
      placed.concat(cards.filter(Boolean)).forEach(function (c) { h.appendChild(c); });
    } else {
      sortHand(pref.mode || "suit");
    }
    document.querySelectorAll("[data-sort]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.sort === (pref.mode || "suit")));
    });
  }
  function rememberOrder() {
    save({ mode: "custom", order: handCards().map(function (c) { return c.dataset.card; }) });
    document.querySelectorAll("[data-sort]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
  }

  // --- focus across a live refresh: the control a keyboard user is on is replaced by its
  // like in the new region (the same card, the same button), not dropped to the page ----
  function focusSelector(el) {
    var region = live();
    if (!el || !region || el === region || !region.contains(el)) return null;
    var esc = window.CSS && CSS.escape ? CSS.escape : function (v) { return v; };
    if (el.matches("#hand button.in-hand")) return '#hand button.in-hand[data-card="' + esc(el.dataset.card) + '"]';
    if (el.id) return "#" + esc(el.id);
    if (el.name) return el.tagName.toLowerCase() + '[name="' + esc(el.name) + '"][value="' + esc(el.value) + '"]';
    if (el.matches("summary")) {
      var d = el.closest("details");
      if (d && d.dataset.type) return 'details[data-type="' + esc(d.dataset.type) + '"] > summary';
      if (d && d.classList.length) return "details." + esc(d.classList[0]) + " > summary";
    }
    return null;
  }

  function selected() {
    return handCards().filter(function (c) { return c.getAttribute("aria-pressed") === "true"; });
  }

  // --- tap what you mean: the places the selected cards fit light up in the dock -----
  function showTargets() {
    var codes = selected().map(function (c) { return c.dataset.card; });
    var any = false;
    document.querySelectorAll("#live .targets .target").forEach(function (t) {
      var fits = (t.dataset.fits || "").split(" ").filter(Boolean);
      var show = t.hasAttribute("data-free") ||
        codes.some(function (code) { return fits.indexOf(code) >= 0; });
      t.hidden = !show;
      any = any || show;
      var combo = document.querySelector("#live li.combo[data-combination='" + t.dataset.combination + "']");
      if (combo && !t.hasAttribute("data-free")) combo.classList.toggle("fits", show);
    });
    var hint = document.querySelector("#live [data-targets-hint]");
    if (hint) hint.hidden = any;
    // The discard waits for a card that may be discarded (issue 56: a card just taken
    // from the stock stayed selected with the discard offered, then refused).
    var discard = document.querySelector("#live button[name=intent][value=discard][data-fits]");
    if (discard) {
      var may = discard.dataset.fits.split(" ").filter(Boolean);
      var kept = codes.length === 1 && may.indexOf(codes[0]) < 0;
      discard.disabled = kept;
      var why = document.querySelector("#live [data-discard-hint]");
      if (why) why.hidden = !kept;
    }
  }

  // --- the end of a deal: it stays (over every live refresh) until the player continues
  // Decided as a refresh is swapped in, in the same task (htmx:afterSwap), so that no
  // frame shows what the refresh brought before it is decided (issue 77: at the push's
  // settle, 20 ms later, an end already continued showed again on every refresh, and the
  // deal under it hid). The state is kept on the page's root, which no refresh replaces
  // (htmx's settle puts back a swapped element's own class). An end not yet continued
  // stays when a refresh no longer brings it (the next deal older than
  // GAMES_DEAL_END_SECONDS): a member reading it slowly does not lose it.
  var endKey = "cooncan:deal-end:" + tableId;
  var endFocused = null; // the deal whose end has had the focus once
  var keptEnd = null; // the end shown when a refresh came, not yet continued
  function endSeen(end) {
    try { return !!end && localStorage.getItem(endKey) === end.dataset.deal; } catch (err) { return false; }
  }
  function showDealEnd(focus) {
    var end = document.getElementById("deal-end");
    var form = document.getElementById("play");
    if (!form) { root.classList.remove("deal-ended"); return; }
    if (!end && keptEnd && !endSeen(keptEnd)) {
      end = keptEnd;
      form.insertBefore(end, form.querySelector(".deal-area"));
    }
    keptEnd = null;
    if (end && !endSeen(end)) {
      end.hidden = false;
      root.classList.add("deal-ended");
      if (focus && endFocused !== end.dataset.deal) end.focus({ preventScroll: false });
      endFocused = end.dataset.deal;
    } else {
      if (end) end.hidden = true;
      root.classList.remove("deal-ended");
    }
  }

  document.addEventListener("click", function (e) {
    var cont = e.target.closest && e.target.closest("[data-continue]");
    if (cont) {
      var end = document.getElementById("deal-end");
      try { localStorage.setItem(endKey, end ? end.dataset.deal : ""); } catch (err) { /* private mode */ }
      showDealEnd(false);
      var area = document.querySelector("#play .deal-area");
      if (area) { area.classList.add("fresh"); area.scrollIntoView({ block: "start" }); }
      return;
    }
    var card = e.target.closest && e.target.closest("#hand button.in-hand");
    if (card) {
      card.setAttribute("aria-pressed", card.getAttribute("aria-pressed") === "true" ? "false" : "true");
      showTargets();
      return;
    }
    var sorter = e.target.closest && e.target.closest("[data-sort]");
    if (sorter) {
      save({ mode: sorter.dataset.sort });
      applyOrder();
    }
  });

  document.addEventListener("keydown", function (e) {
    var card = e.target.closest && e.target.closest("#hand button.in-hand");
    if (!card || !e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    var h = hand();
    if (e.key === "ArrowLeft" && card.previousElementSibling) {
      h.insertBefore(card, card.previousElementSibling);
    } else if (e.key === "ArrowRight" && card.nextElementSibling) {
      h.insertBefore(card.nextElementSibling, card);
    }
    card.focus();
    rememberOrder();
  });

  var dragged = null;
  document.addEventListener("dragstart", function (e) {
    var card = e.target.closest && e.target.closest("#hand button.in-hand");
    if (!card) return;
    dragged = card;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", card.dataset.card);
  });
  document.addEventListener("dragover", function (e) {
    if (!dragged) return;
    var over = e.target.closest && e.target.closest("#hand button.in-hand");
    if (!over || over === dragged) return;
    e.preventDefault();
    var r = over.getBoundingClientRect();
    var after = e.clientX > r.left + r.width / 2;
    hand().insertBefore(dragged, after ? over.nextSibling : over);
  });
  document.addEventListener("drop", function (e) { if (dragged) e.preventDefault(); });
  document.addEventListener("dragend", function () {
    if (dragged) { dragged = null; rememberOrder(); }
  });

  // --- requests: the selected cards go with an action; a refresh says what we have ---
  document.body.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.id === "play" && e.detail.verb === "post") {
      sentCards = selected().map(function (c) { return c.dataset.card; });
      selected().forEach(function (c) {
        if (e.detail.formData) e.detail.formData.append("cards", c.dataset.card);
        else e.detail.parameters.cards = (e.detail.parameters.cards || []).concat([c.dataset.card]);
      });
    } else if (elt && elt.id === "live" && e.detail.verb === "get") {
      e.detail.parameters.since = stamp();
    }
  });

  // Before the live part is replaced, by an answer or a push: whether to replace it, and
  // what to carry over (the focus, the selection, an open "All legal plays").
  function beforeLive(html, isPost, ok) {
    // Answers can arrive out of order: a push or a live refresh (the stream tells of one's
    // own action) may show the new state before the action's own answer does, and the
    // computer players may have moved since. A success older than what is shown is not
    // swapped in: it would put the table back a move (and a player's turn with it).
    var m = ok && /data-stamp="([^"]*)"/.exec(html || "");
    if (m && older(m[1], stamp())) {
      if (isPost) sentCards = [];
      return false;
    }
    // A live refresh of the state already shown (it was asked for before one's own
    // action's answer came) changes nothing: not swapping it keeps an open decision, a
    // selection in progress and the focus just as they are.
    if (m && !isPost && m[1] === stamp()) return false;
    keptFocus = focusSelector(document.activeElement);
    // After one's own successful action the cards sent with it are spent; cards selected
    // since (the answer came after the refresh) stay selected.
    var spent = isPost && ok ? sentCards : [];
    keptSelection = selected().map(function (c) { return c.dataset.card; })
      .filter(function (code) { return spent.indexOf(code) < 0; });
    if (isPost) sentCards = [];
    // An open "All legal plays" panel stays open when the table refreshes under it.
    var plays = document.querySelector("#live details.plays");
    playsOpen = !!(plays && plays.open);
    var end = document.getElementById("deal-end");
    keptEnd = end && !end.hidden && !endSeen(end) ? end : null;
    return true;
  }
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "live") {
      var isPost = e.detail.requestConfig && e.detail.requestConfig.verb === "post";
      var ok = e.detail.xhr && e.detail.xhr.status < 400;
      if (!beforeLive(ok ? e.detail.xhr.responseText : "", isPost, ok)) e.detail.shouldSwap = false;
    }
  });
  // The swapped region: the target of an answer, the element itself for a push.
  function swapped(e) { return e.detail.target || e.detail.elt; }
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var t = swapped(e);
    if (!t || t.id !== "live") return;
    applyOrder();
    var plays = document.querySelector("#live details.plays");
    if (plays && playsOpen) plays.open = true;
    if (keptSelection && keptSelection.length) {
      var cards = handCards();
      keptSelection.forEach(function (code) {
        for (var i = 0; i < cards.length; i++) {
          if (cards[i] && cards[i].dataset.card === code) {
            cards[i].setAttribute("aria-pressed", "true");
            cards[i] = null;
            break;
          }
        }
      });
    }
    keptSelection = null;
    if (keptFocus && (!document.activeElement || document.activeElement === document.body)) {
      var again = live().querySelector(keptFocus);
      if (again) again.focus({ preventScroll: true });
    }
    keptFocus = null;
    showDealEnd(true);
    showTargets();
    var alert = live().querySelector(".notice[role=alert]");
    if (alert && e.detail.requestConfig && e.detail.requestConfig.verb === "post") {
      alert.setAttribute("tabindex", "-1");
      // Focus without letting the browser scroll the page to the sticky dock's place in
      // the flow (the bottom of the page, on a phone); scroll only if it is out of view.
      alert.focus({ preventScroll: true });
      var r = alert.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) alert.scrollIntoView({ block: "nearest" });
    }
  });

  // --- a refresh only for what is new (issue 59) ---------------------------------------
  // The stream tells every page of each move, the mover's own included, and it usually
  // tells it before the move's answer arrives: the mover's page then fetched the new
  // state a second time. A notice of a move within a deal ("club" is absent: no deal
  // dealt or ended, no club change, nothing stopped) is not fetched when the page shows
  // that version already; while one's own move is in flight it waits for the answer, at
  // most HOLD ms (a slow answer: the refresh shows the table first, as before).
  var HOLD = 300;
  var moving = false, told = null, holdTimer = 0;
  function notice(e) {
    var t = e.detail && e.detail.triggeringEvent;
    if (!t || t.type !== "sse:update" || !t.detail) return null;
    try {
      var msg = JSON.parse(t.detail.data);
      return msg && !msg.club && msg.deal != null && msg.version != null ? msg : null;
    } catch (x) { return null; }
  }
  function shownAlready(msg) {
    var shown = parseStamp((stamp().match(/^\d+:\d+/) || [""])[0]);
    return !!shown && (msg.deal < shown[0] || (msg.deal === shown[0] && msg.version <= shown[1]));
  }
  function releaseTold() {
    if (holdTimer) { window.clearTimeout(holdTimer); holdTimer = 0; }
    var waiting = told;
    told = null;
    if (waiting && !shownAlready(waiting.msg)) waiting.issue(true);
  }
  document.body.addEventListener("htmx:confirm", function (e) {
    if (!e.detail.elt || e.detail.elt.id !== "live" || e.detail.verb !== "get") return;
    var msg = notice(e);
    if (!msg) return;
    if (moving) {
      e.preventDefault();
      told = { msg: msg, issue: e.detail.issueRequest };
      if (!holdTimer) holdTimer = window.setTimeout(releaseTold, HOLD);
    } else if (shownAlready(msg)) {
      e.preventDefault();
    }
  });

  // --- a push: the stream brings this viewer's live part itself (issue 59) ------------
  // Each move's part comes rendered for this page's own user, not as a notice to fetch
  // it; it is swapped in through the checks an answer goes through (an older state or
  // the one shown is left alone) and, while one's own move is in flight, held for its
  // answer as a notice is (at most HOLD ms).
  function pushedStamp(html) {
    var m = /data-stamp="(\d+):(\d+)/.exec(html || "");
    return m ? { deal: +m[1], version: +m[2] } : null;
  }
  function applyPush(html) {
    if (beforeLive(html, false, true)) {
      // Settled at once, as an answer is (the page's htmx-config, defaultSettleDelay 0):
      // no moment shows a part not yet settled (issue 77).
      htmx.swap(live(), html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0, ignoreTitle: true });
    }
  }
  document.body.addEventListener("htmx:sseBeforeMessage", function (e) {
    if (!e.target || e.target.id !== "live" || !e.detail || e.detail.type !== "live") return;
    e.preventDefault(); // swapped here, not by the extension
    var html = e.detail.data;
    var msg = pushedStamp(html);
    if (moving && msg) {
      told = { msg: msg, issue: function () { applyPush(html); } };
      if (!holdTimer) holdTimer = window.setTimeout(releaseTold, HOLD);
      return;
    }
    applyPush(html);
  });
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.id === "play" && e.detail.requestConfig && e.detail.requestConfig.verb === "post") {
      moving = true;
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var cfg = e.detail && e.detail.requestConfig;
    if (!moving || !cfg || cfg.verb !== "post" || !e.detail.target || e.detail.target.id !== "live") return;
    moving = false;
    releaseTold();
  });

  // --- live updates: SSE first, polling while the stream is down ---------------------
  function setConn(state, text) {
    if (!conn) return;
    conn.dataset.state = state;
    // The page's own words for the state, in its reader's language (issue 82).
    conn.textContent = conn.getAttribute("data-says-" + state) || text;
  }
  function poll() {
    pollCount += 1;
    htmx.trigger(live(), "poll");
    if (pollCount % 3 === 0) htmx.trigger(document.getElementById("club"), "poll");
  }
  function startPolling() {
    if (pollTimer) return;
    setConn("polling", "reconnecting (checking every 2 s)");
    pollTimer = window.setInterval(poll, 2000);
  }
  function stopPolling() {
    if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; }
  }
  root.addEventListener("htmx:sseOpen", function () {
    var wasPolling = !!pollTimer;
    stopPolling();
    setConn("live", "live");
    if (wasPolling) { htmx.trigger(live(), "poll"); htmx.trigger(document.getElementById("club"), "poll"); }
  });
  root.addEventListener("htmx:sseError", startPolling);
  root.addEventListener("htmx:sseClose", startPolling);
  if (!root.getAttribute("sse-connect")) startPolling();
  // If the stream never opens (blocked, proxy), fall back after a few seconds.
  window.setTimeout(function () { if (conn && conn.dataset.state === "connecting") startPolling(); }, 4000);

  // The dock (this turn's actions and the hand) stays at the bottom of a phone's screen:
  // scrolling an element into view keeps it clear of the dock.
  function padForDock() {
    var dock = document.getElementById("dock");
    var sticky = dock && getComputedStyle(dock).position === "sticky";
    document.documentElement.style.scrollPaddingBottom = sticky ? dock.offsetHeight + 8 + "px" : "";
  }
  if (window.ResizeObserver) {
    var dockObserver = new ResizeObserver(padForDock);
    var watchDock = function () { var d = document.getElementById("dock"); if (d) dockObserver.observe(d); padForDock(); };
    document.body.addEventListener("htmx:afterSettle", watchDock);
    watchDock();
  }

  // After the settle, once the layout is the swapped-in part's own: then the page says
  // which state it shows, settled (#table-root's data-settled, the part's stamp), for
  // whoever waits on it (the browser tests wait for it, never for a time: issue 77).
  function settled() { root.dataset.settled = stamp(); }
  document.body.addEventListener("htmx:afterSettle", function (e) {
    var t = swapped(e);
    if (t && t.id === "live") { showDecided(); settled(); }
  });

  // --- the card a turn decides about: in view, clear of the dock ---------------------
  // When the turn comes to this player, the card in play (the turned card, the stock's
  // top) is brought above the dock if the dock covers it (issue 56: at 360 px it was
  // covered in most of Tunk's draw decisions). Only as the turn arrives: a player who
  // scrolls away during his turn is left where he is.
  var wasMyTurn = false;
  function showDecided() {
    var mine = !!live().querySelector(".your-turn");
    var cards = live().querySelectorAll(".centre .pile:last-child .card");
    var card = cards.length ? cards[cards.length - 1] : null;
    var dock = document.getElementById("dock");
    if (mine && !wasMyTurn && card) {
      var r = card.getBoundingClientRect();
      var bottom = dock && getComputedStyle(dock).position === "sticky"
        ? dock.getBoundingClientRect().top : window.innerHeight;
      if (r.top < 0 || r.bottom > bottom) card.scrollIntoView({ block: "nearest" });
    }
    wasMyTurn = mine;
  }

  // --- a round open to everyone for the same few seconds (Tonk's call round, TO5): its
  // countdown ticks here; the round's close arrives as a live update like any move.
  window.setInterval(function () {
    live().querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.max(0, (+el.dataset.countdown || 0) - 1);
      el.dataset.countdown = String(left);
      el.textContent = String(left);
    });
  }, 1000);

  applyOrder();
  showDealEnd(true);
  showDecided();
  settled();
})();

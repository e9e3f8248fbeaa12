// Every page: the print buttons (no inline scripts: the CSP allows only 'self'), and wide tables
document.addEventListener("click", (event) => {
  const button = event.target.closest(".js-print");
  if (button) window.print();
});

// A table wider than the screen says so above it (issue 56: at 360 px the washbook showed
// its first player's column with no sign that the others were a swipe away). Its region
// is already labelled "scrolls sideways" for a screen reader; this is for the eye.
(function () {
  "use strict";
  function hintWide() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var hint = wrap.previousElementSibling;
      var has = !!hint && hint.classList.contains("scroll-hint");
      var wide = wrap.scrollWidth > wrap.clientWidth + 2;
      if (wide && !has) {
        var p = document.createElement("p");
        p.className = "scroll-hint muted small";
        p.setAttribute("aria-hidden", "true");
        // The page's own words, in its reader's language (base.html, issue 82).
        p.textContent = document.body.dataset.wideHint || "Wider than the screen: swipe the table sideways for every column →";
        wrap.parentNode.insertBefore(p, wrap);
      } else if (!wide && has) {
        hint.remove();
      }
    });
  }
  window.addEventListener("load", hintWide);
  window.addEventListener("resize", hintWide);
})();

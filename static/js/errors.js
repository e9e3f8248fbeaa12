/* A form refused by the server comes back with its mistakes marked beside their fields
 * (aria-invalid); the page opens at its top, and on a phone the first mistake was a
 * screen or more below. It is brought into view and focus (issue 56), the form's summary
 * (role=alert) read with it. Pages whose forms post through htmx (the console, the
 * table) place their own refusals; this is for a page loaded whole.
 */
(function () {
  "use strict";
  function firstMistake() {
    var field = document.querySelector("main form [aria-invalid='true']");
    if (field) return { at: field, focus: field };
    var told = document.querySelector("main form .error[role=alert], main form .errorlist");
    return told ? { at: told, focus: told } : null;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var mistake = firstMistake();
    if (!mistake) return;
    // The field's label and message sit just above and below it: centre it.
    mistake.at.scrollIntoView({ block: "center" });
    if (!mistake.focus.matches("input, select, textarea, button")) {
      mistake.focus.setAttribute("tabindex", "-1");
    }
    mistake.focus.focus({ preventScroll: true });
  });
})();

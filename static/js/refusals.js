/* Pages whose refusals (400/403/409/422) carry the current state and the reason beside
 * what was refused (the table, the console): htmx swaps them in like a success. Loaded
 * before the page's own script; a file of its own, for the CSP forbids inline script.
 */
(function () {
  "use strict";
  if (typeof htmx === "undefined") return;
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "(400|403|409|422)", swap: true, error: false },
    { code: "[45]..", swap: false, error: true },
  ];
})();

/* A form with every game's options (issue 43): show the chosen game's only; none when a
   set of house rules is chosen (the table copies the set). Without this script every
   fieldset shows, and the server reads the chosen game's only. */
(function () {
  "use strict";
  function wire(form) {
    var game = form.querySelector("select[name=variant]");
    if (!game) return;
    var rules = form.querySelector("select[name=house_rules]");
    function show() {
      var usingSet = rules && rules.value !== "";
      form.querySelectorAll(".variant-options").forEach(function (fs) {
        var on = fs.dataset.variant === game.value && !usingSet;
        fs.hidden = !on;
        fs.disabled = !on;
      });
    }
    game.addEventListener("change", show);
    if (rules) rules.addEventListener("change", show);
    show();
  }
  function all() { document.querySelectorAll("form").forEach(wire); }
  all();
  document.addEventListener("htmx:afterSwap", all);
})();

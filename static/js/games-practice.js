/* The practice form shows the options of the chosen variant only, and none when a set
   of house rules is chosen (the table starts from the set; issue 43). */
(function () {
  "use strict";
  var select = document.getElementById("practice-variant");
  if (!select) return;
  var rules = document.getElementById("practice-house-rules");
  function show() {
    var usingSet = rules && rules.value !== "";
    if (usingSet) {  // the set names its game
      var game = rules.options[rules.selectedIndex].dataset.variant;
      if (game) select.value = game;
    }
    document.querySelectorAll(".variant-options").forEach(function (fs) {
      var on = fs.dataset.variant === select.value && !usingSet;
      fs.hidden = !on;
      fs.disabled = !on;
    });
  }
  select.addEventListener("change", show);
  if (rules) rules.addEventListener("change", show);
  show();
})();

/* The practice form shows the options of the chosen variant only. */
(function () {
  "use strict";
  var select = document.getElementById("practice-variant");
  if (!select) return;
  function show() {
    document.querySelectorAll(".variant-options").forEach(function (fs) {
      var on = fs.dataset.variant === select.value;
      fs.hidden = !on;
      fs.disabled = !on;
    });
  }
  select.addEventListener("change", show);
  show();
})();

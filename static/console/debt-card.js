// A debt's way out (templates/console/panel/_raise_choices.html: on the debt card, and on the card of a rent
// its payer cannot pay, before the claim): as choices are ticked, what is still owed, or what is left over
// once the debt is covered (the server says the same after the move; without JavaScript the card shows the
// whole debt); a street's mortgage that waits for the sale of its buildings ticks that sale too, and
// unticking the sale unticks the mortgage; the debt card's link to the trade form opens that form.
(function () {
  "use strict";

  function total(form) {
    var sum = 0;
    form.querySelectorAll("input[data-raises]:checked").forEach(function (i) { sum += Number(i.dataset.raises); });
    return sum;
  }

  function update(form) {
    var rest = Number(form.dataset.debt) - total(form);
    var owed = form.querySelector("[data-owed]"), left = form.querySelector("[data-left]");
    owed.hidden = rest <= 0;
    left.hidden = rest > 0;
    owed.querySelector("output").textContent = Math.max(rest, 0);
    left.querySelector("output").textContent = Math.max(-rest, 0);
  }

  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form[data-debt]");
    if (!form || !e.target.matches("input[data-raises]")) return;
    var box = e.target;
    form.querySelectorAll("input[data-raises]").forEach(function (other) {
      if (box.checked && box.dataset.needs === other.value) other.checked = true;
      if (!box.checked && other.dataset.needs === box.value) other.checked = false;
    });
    update(form);
  });
  // a panel swapped in after a refused batch comes back with the ticks restored (console-forms.js); a page
  // loaded again may come back with the browser's ticks
  function updateAll() { document.querySelectorAll("form[data-debt]").forEach(update); }
  document.addEventListener("htmx:afterSettle", updateAll);
  document.addEventListener("DOMContentLoaded", updateAll);
  window.addEventListener("pageshow", updateAll);
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[data-open-trade]");
    var trade = link && document.getElementById("trade");
    if (trade) trade.open = true;
  });
})();

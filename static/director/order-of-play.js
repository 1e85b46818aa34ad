// The order of play from the opening roll, one tap per player (templates/director/_order_of_play.html):
// the players are tapped in the order they play, each gets the next place, a second tap takes him back
// (and moves up those tapped after him). Until the first tap the places are as the page came (seat order,
// or what was sent before): "Start the game" then starts in that order; once tapping has begun it waits
// until every player has his place. The lists of places stay the form's fields (and the page without
// scripts).
function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, function (_m, k) { return values[k]; });
}

function setUp(box) {
  var form = box.closest("form");
  var start = form ? form.querySelector("button:not([type=button])") : null;
  var startBlocked = start ? start.disabled : true;  // a table of one: stays disabled
  var buttons = Array.prototype.slice.call(box.querySelectorAll("button.tap-player"));
  var progress = box.querySelector(".progress");
  var tapped = [];  // the players' select names, in the order of play

  function select(button) { return form.querySelector("select[name='" + button.dataset.placeOf + "']"); }

  function show(said) {
    buttons.forEach(function (b) {
      var at = tapped.indexOf(b.dataset.placeOf);
      var badge = b.querySelector(".place");
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      b.classList.toggle("preset", tapped.length === 0);
      badge.textContent = tapped.length === 0 ? select(b).value : (at >= 0 ? String(at + 1) : "");
    });
    var complete = tapped.length === buttons.length;
    if (complete) {
      tapped.forEach(function (name, i) { form.querySelector("select[name='" + name + "']").value = String(i + 1); });
    }
    if (start && !startBlocked) start.disabled = tapped.length > 0 && !complete;
    box.querySelector("button.again").hidden = tapped.length === 0;
    var left = buttons.length - tapped.length;
    progress.textContent = [said, tapped.length === 0 ? "" : complete ? box.dataset.done : fill(box.dataset.left, {n: left})]
      .filter(Boolean).join(" ");
  }

  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      var name = b.dataset.placeOf, at = tapped.indexOf(name), said = "";
      if (at >= 0) {
        tapped.splice(at, 1);
      } else {
        tapped.push(name);
        said = fill(box.dataset.placed, {name: b.querySelector(".name").textContent.trim(), place: tapped.length});
      }
      show(said);
    });
  });
  box.querySelector("button.again").addEventListener("click", function () {
    tapped = [];
    show("");
  });
  box.querySelector(".places").hidden = true;
  box.querySelector(".taps").hidden = false;
  show("");
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-order-of-play]").forEach(setUp);
});

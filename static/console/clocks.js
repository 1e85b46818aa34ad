// The referee's console: its clocks count down (the game's time, a move's seconds). tick() runs again after
// each drawing of the screen (console.js), and every half second.
export function tick() {
  var now = Date.now();
  document.querySelectorAll("[data-countdown]").forEach(function (el) {
    var since = Date.parse(el.dataset.countdownSince);
    if (isNaN(since)) return;
    var left = Math.max(0, Math.ceil(Number(el.dataset.countdown) - (now - since) / 1000));
    var out = el.querySelector(".countdown");
    if (out) out.textContent = left;
    el.classList.toggle("expired", left === 0);
  });
  document.querySelectorAll("[data-clock-start]").forEach(function (el) {
    var end = Date.parse(el.dataset.clockStart) + Number(el.dataset.clockMinutes) * 60000;
    var left = Math.max(0, Math.round((end - now) / 1000));
    el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    el.classList.toggle("warn", left < 300);
  });
}

document.addEventListener("DOMContentLoaded", tick);
setInterval(tick, 500);

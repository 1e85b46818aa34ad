// The referee's console: clocks count down; a move that did not get through says so. Runs again after each swap.
(function () {
  "use strict";

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var since = Date.parse(el.dataset.countdownSince);
      if (isNaN(since)) return;
      var left = Math.max(0, Math.ceil(Number(el.dataset.countdown) - (now - since) / 1000));
      var out = el.querySelector(".countdown");
      if (out) out.textContent = left;
      el.classList.toggle("expired", left === 0);
      // a timeout is deliberate: asked for confirmation until the move clock has run out
      if (left === 0 && el.hasAttribute("hx-confirm")) {
        el.dataset.confirm = el.getAttribute("hx-confirm");
        el.removeAttribute("hx-confirm");
      }
    });
    document.querySelectorAll("[data-clock-start]").forEach(function (el) {
      var end = Date.parse(el.dataset.clockStart) + Number(el.dataset.clockMinutes) * 60000;
      var left = Math.max(0, Math.round((end - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      el.classList.toggle("warn", left < 300);
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);  // scrolling to the error or the next action: console-forms.js
  // A move that did not get through says so (the form keeps its key: tapping again enters it once).
  function problem(text) {
    var console_ = document.getElementById("console");
    if (!console_ || !text) return;
    var p = document.getElementById("console-error");
    if (!p) {
      p = document.createElement("p");
      p.id = "console-error";
      p.className = "error";
      p.setAttribute("role", "alert");
      console_.insertBefore(p, console_.firstChild);
    }
    p.textContent = text;
    p.scrollIntoView({block: "center"});
  }
  function say(name) {
    var m = document.getElementById("console-messages");
    return m ? m.dataset[name] : "";
  }
  function sent(e) {
    var cfg = e.detail.requestConfig;
    return cfg && cfg.verb && cfg.verb.toLowerCase() === "post";
  }
  document.addEventListener("htmx:sendError", function (e) {
    if (sent(e)) problem(say("offline"));
  });
  // A request left hanging (a move saved whose answer is stuck on the Wi-Fi) would keep the console's
  // buttons disabled until the browser gives up: after 12 s it is given up, and the referee told.
  if (window.htmx) htmx.config.timeout = 12000;
  document.addEventListener("htmx:timeout", function (e) {
    if (sent(e)) problem(say("timeout"));
  });
  document.addEventListener("htmx:responseError", function (e) {
    if (!sent(e)) return;
    var status = e.detail.xhr.status;
    problem(say(status >= 500 ? "server" : "refused") + " (" + status + ")");
  });
  setInterval(tick, 500);
})();

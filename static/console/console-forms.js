// The referee's forms in the console panel (htmx swaps the whole panel after every request):
// - a refused move keeps what was typed: the same form in the new panel gets the values back, opened;
// - another device's move (the 10 s poll) never replaces a form being filled in: a banner offers it;
// - after a move that went through, the move just made (its undo beside it) and the action now pending are
//   brought into view; the player's "build, sell, mortgage" it was sent from stays open;
// - the trade form shows each side's own deeds and jail cards; a deed tapped in its owner's card opens it
//   filled in (who gives, who gets, the deed ticked), the cash to type next in focus;
// - a move that did not get through (no Wi-Fi, no answer, a refusal) says so.
(function () {
  "use strict";

  var POST_LIMIT = 15000;  // ms: a move's answer is awaited at most this long (htmx's timeout is shorter)
  var sent = null;         // the form of the move last sent: its key and what was typed in it
  var stayOpen = null;     // the key of a player's opened "build, sell, mortgage" the move was sent from
  var postingSince = 0;    // a move is on its way: the poll waits for its answer

  function panel() { return document.getElementById("console"); }
  function isPost(detail) {
    var cfg = detail.requestConfig;
    return !!cfg && !!cfg.verb && cfg.verb.toLowerCase() === "post";
  }
  function isPoll(elt) { return !!elt && elt.hasAttribute && elt.hasAttribute("data-poll"); }
  function posting() { return postingSince && Date.now() - postingSince < POST_LIMIT; }
  function say(name) {
    var m = document.getElementById("console-messages");
    return m ? m.dataset[name] : "";
  }

  // -- what was typed ------------------------------------------------------------------------------------
  function typed(el) {
    return !!el.name && el.tagName !== "BUTTON" && !/^(hidden|submit|button|reset)$/.test(el.type);
  }
  function checkable(el) { return el.type === "checkbox" || el.type === "radio"; }

  // The same form in the next panel: its address and its fixed hidden fields (not the version or key).
  function formKey(form) {
    var parts = [form.getAttribute("action") || ""];
    form.querySelectorAll("input[type=hidden]").forEach(function (i) {
      if (!/^(version|client_key|seen|csrfmiddlewaretoken)$/.test(i.name)) parts.push(i.name + "=" + i.value);
    });
    return parts.join("&");
  }

  function defaultIndex(select) {
    for (var i = 0; i < select.options.length; i++) if (select.options[i].defaultSelected) return i;
    return select.options.length ? 0 : -1;
  }

  // Something typed or chosen that differs from what the panel came with.
  function changed(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (!typed(el)) return false;
      if (checkable(el)) return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") return el.selectedIndex !== defaultIndex(el);
      return el.value !== el.defaultValue;
    });
  }

  function snapshot(form) {
    var checks = {}, values = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!typed(el)) return;
      if (checkable(el)) checks[el.name + "\n" + el.value] = el.checked;
      else (values[el.name] = values[el.name] || []).push(el.value);
    });
    return {key: formKey(form), checks: checks, values: values};
  }

  function restore(form, saved) {
    var values = {};
    Object.keys(saved.values).forEach(function (k) { values[k] = saved.values[k].slice(); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!typed(el)) return;
      if (checkable(el)) {
        var k = el.name + "\n" + el.value;
        if (k in saved.checks) el.checked = saved.checks[k];
      } else if (values[el.name] && values[el.name].length) {
        el.value = values[el.name].shift();
      }
    });
  }

  function findForm(root, key) {
    var forms = root.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) if (formKey(forms[i]) === key) return forms[i];
    return null;
  }

  function openAround(el) {
    for (var d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
  }

  // -- the poll: never over a form being filled in ---------------------------------------------------------
  function editing(root) {
    var active = document.activeElement;
    if (active && root.contains(active) && active.matches(
      "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea")) return true;
    return Array.prototype.some.call(root.querySelectorAll("form"), changed);
  }

  // What the other device did, as the panel the poll brought tells it (data-changed-meanwhile).
  function changedMeanwhile(html) {
    var fresh = new DOMParser().parseFromString(html || "", "text/html").getElementById("console");
    return fresh ? fresh.dataset.changedMeanwhile || "" : "";
  }

  function offerChanges(pollUrl, told) {
    var root = panel();
    if (!root) return;
    var b = document.getElementById("console-changed");
    if (b) {
      if (told) b.querySelector("small").textContent = told;  // a later poll: what changed since, all of it
      return;
    }
    b = document.createElement("button");
    b.type = "button";
    b.id = "console-changed";
    b.className = "changed";
    b.setAttribute("hx-disabled-elt", "unset");
    b.textContent = say("changed");
    var detail = document.createElement("small");
    detail.textContent = told;
    b.appendChild(detail);
    b.addEventListener("click", function () {
      htmx.ajax("GET", pollUrl.split("?")[0], {source: b, target: "#console", swap: "outerHTML"});
    });
    root.insertBefore(b, root.firstChild);
  }

  function openKeys(root) {
    var keys = [];
    root.querySelectorAll("details[open]").forEach(function (d) {
      var form = d.querySelector("form");
      if (form) keys.push(formKey(form));
    });
    return keys;
  }
  var reopen = [];

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (isPoll(elt)) {
      if (posting()) e.preventDefault();  // the move's answer brings the fresh panel
      return;
    }
    if (!isPost(e.detail)) return;
    postingSince = Date.now();
    var form = elt.closest ? elt.closest("form") : null;
    sent = form ? snapshot(form) : null;  // what was typed, kept if the move is refused
    stayOpen = form && form.closest("details.actions") ? formKey(form) : null;  // building house after house
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (isPost(e.detail)) postingSince = 0;
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail, root = panel();
    var source = d.requestConfig && d.requestConfig.elt;  // d.elt is the target here
    if (!isPoll(source) || !d.shouldSwap || !root) return;
    if (posting()) {
      d.shouldSwap = false;  // a panel read before the move was saved: the move's answer follows
    } else if (editing(root)) {
      d.shouldSwap = false;
      offerChanges(source.getAttribute("hx-get"), changedMeanwhile(d.serverResponse));
    } else {
      reopen = openKeys(root);
    }
  });

  // -- after a swap ----------------------------------------------------------------------------------------
  function afterMove(root) {
    var error = document.getElementById("console-error");
    if (!error) {
      sent = null;
      var same = stayOpen && findForm(root, stayOpen);
      if (same) openAround(same);  // the player's next building or mortgage is one tap
      stayOpen = null;
      showWhatNow(root);
      return;
    }
    stayOpen = null;
    var form = sent && findForm(root, sent.key);
    if (form && sent) {
      restore(form, sent);
      openAround(form);
      initTrades(form.parentNode);
      form.insertBefore(error, form.firstChild);  // said where the referee is, above what he typed
    }
    sent = null;
    error.scrollIntoView({block: "center"});
  }

  // -- after a move: what to do next under the thumb ------------------------------------------------------
  // The move just made (with its undo) and the next action's card in view, wherever the referee had
  // scrolled to (after a build in the players' cards the dice were 1–2 screens above). Left alone when
  // both are in sight already, so that the page does not jump at every tap.
  var SHOWN_OF_NEXT = 220;  // px of the next card that must be in sight (the dice pad's first rows)
  function showWhatNow(root) {
    var next = root.querySelector("section.now .card, section.now.finished");
    var top = root.querySelector("#just-now") || next;
    if (!top) return;
    var high = window.innerHeight;
    var first = top.getBoundingClientRect(), card = next ? next.getBoundingClientRect() : first;
    if (first.top > -1 && card.top + Math.min(card.height, SHOWN_OF_NEXT) <= high) return;
    top.scrollIntoView({block: "start"});
  }

  document.addEventListener("htmx:afterSwap", function (e) {
    var root = panel();
    if (!root || e.target !== root) return;
    initTrades(root);
    if (isPost(e.detail)) {
      afterMove(root);
    } else if (reopen.length) {
      reopen.forEach(function (key) {
        var form = findForm(root, key);
        if (form) openAround(form);
      });
      reopen = [];
    }
  });

  // -- a move that did not get through ---------------------------------------------------------------------
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
  document.addEventListener("htmx:sendError", function (e) {
    if (isPost(e.detail)) problem(say("offline"));
  });
  // A request left hanging (a move saved whose answer is stuck on the Wi-Fi) would keep the console's
  // buttons disabled until the browser gives up: after 12 s it is given up, and the referee told.
  if (window.htmx) htmx.config.timeout = 12000;
  document.addEventListener("htmx:timeout", function (e) {
    if (isPost(e.detail)) problem(say("timeout"));
  });
  document.addEventListener("htmx:responseError", function (e) {
    if (!isPost(e.detail)) return;
    var status = e.detail.xhr.status;
    problem(say(status >= 500 ? "server" : "refused") + " (" + status + ")");
  });

  // -- the trade form: each side its own -------------------------------------------------------------------
  function showSides(form) {
    form.querySelectorAll("fieldset[data-side-of]").forEach(function (side) {
      var select = form.querySelector("select[name=" + side.dataset.sideOf + "]");
      var who = select ? select.value : "";
      var cards = 0;
      side.querySelectorAll("[data-owner]").forEach(function (group) {
        var mine = group.dataset.owner === who;
        group.hidden = !mine;
        group.querySelectorAll("input").forEach(function (i) { i.disabled = !mine; });
        if (mine) cards = Number(group.dataset.jailCards || 0);
      });
      var jail = side.querySelector("[data-jail-cards-input]");
      if (jail) {
        jail.hidden = cards === 0;
        var input = jail.querySelector("input");
        input.disabled = cards === 0;
        input.max = cards;
      }
    });
  }

  // The two players differ: choosing the other one as the first swaps them.
  function notThemselves(form, changedSelect) {
    var selects = form.querySelectorAll("select[name=player], select[name=with]");
    if (selects.length !== 2) return;
    var other = selects[0] === changedSelect ? selects[1] : selects[0];
    if (other.value !== changedSelect.value) return;
    var was = changedSelect.dataset.was;
    if (was && was !== changedSelect.value) other.value = was;
  }

  function initTrades(root) {
    root.querySelectorAll("form[data-trade]").forEach(function (form) {
      form.querySelectorAll("select").forEach(function (s) { s.dataset.was = s.value; });
      if (!form.dataset.tradeReady) {
        form.dataset.tradeReady = "1";
        form.addEventListener("change", function (e) {
          if (e.target.tagName !== "SELECT") return;
          notThemselves(form, e.target);
          form.querySelectorAll("select").forEach(function (s) { s.dataset.was = s.value; });
          showSides(form);
        });
      }
      showSides(form);
    });
  }

  // A deed tapped in its owner's card (data-trade-*, tournament/console/deed_trade.py): the trade form
  // opened with its two players chosen and the deed ticked; nothing else of an earlier typing kept.
  function tradeFromDeed(link) {
    var root = panel(), form = root && root.querySelector("form[data-trade]");
    if (!form) return false;
    var d = link.dataset;
    form.reset();
    form.querySelector("select[name=player]").value = d.tradePlayer;
    form.querySelector("select[name=with]").value = d.tradeWith;
    form.querySelectorAll("select").forEach(function (s) { s.dataset.was = s.value; });
    showSides(form);
    var deed = form.querySelector("input[name=" + d.tradeSide + "_squares][value='" + d.tradeSquare + "']");
    if (deed) deed.checked = true;
    openAround(form);
    var cash = form.querySelector("input[name=" + d.tradeCash + "]");
    form.closest("details").scrollIntoView({block: "start"});
    if (cash) cash.focus({preventScroll: true});
    return true;
  }
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[data-trade-square]");
    if (link && tradeFromDeed(link)) e.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", function () { initTrades(document); });
})();

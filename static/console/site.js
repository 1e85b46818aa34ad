// Every page (no inline scripts: the Content-Security-Policy allows only the site's own files).
(function () {
  "use strict";

  // The language menu sends its form as soon as a language is chosen (without scripts: its OK button). What
  // the page's forms hold is kept for the page shown again in the other language, in this tab only
  // (sessionStorage; never a password or a file), and put back once: a half-filled form survives the switch.
  var KEPT = "forms-before-language:";
  var SKIPPED = ["hidden", "password", "file", "submit", "button", "reset", "image"];

  function fieldsOf(form, each) {
    var seen = {};  // a name repeated (the tie-breaks' selects): its n-th field
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIPPED.indexOf(el.type) >= 0 || el.hasAttribute("data-submit-on-change")) return;
      var n = seen[el.name] = (seen[el.name] || 0) + 1;
      each(el, el.name + "#" + n);
    });
  }

  function keepForms() {
    var forms = Array.prototype.map.call(document.querySelectorAll("main form"), function (form) {
      var kept = {};
      fieldsOf(form, function (el, key) {
        kept[key] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
      });
      return kept;
    });
    try { window.sessionStorage.setItem(KEPT + location.pathname, JSON.stringify(forms)); } catch (e) { /* full */ }
  }

  function putFormsBack() {
    var raw;
    try { raw = window.sessionStorage.getItem(KEPT + location.pathname); } catch (e) { return; }
    if (!raw) return;
    window.sessionStorage.removeItem(KEPT + location.pathname);
    var forms = JSON.parse(raw);
    document.querySelectorAll("main form").forEach(function (form, i) {
      var kept = forms[i] || {};
      fieldsOf(form, function (el, key) {
        if (!(key in kept)) return;
        if (el.type === "checkbox" || el.type === "radio") el.checked = kept[key];
        else el.value = kept[key];
        // what follows a field (the boards offered for a variant) follows it again, in the page's order
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  }

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches && select.matches("select[data-submit-on-change]")) {
      keepForms();
      select.form.submit();
    }
  });
  document.addEventListener("DOMContentLoaded", putFormsBack);

  // An error page's "Back" button: shown where there is a page to go back to.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-history-back]").forEach(function (button) {
      if (window.history.length < 2) return;
      button.hidden = false;
      button.addEventListener("click", function () { window.history.back(); });
    });
  });
})();

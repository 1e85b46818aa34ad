// Every page (no inline scripts: the Content-Security-Policy allows only the site's own files).
// The language menu sends its form as soon as a language is chosen (without scripts: its OK button). What
// was typed, chosen or ticked in the page's forms is kept for the page shown again in the other language,
// in this tab only (sessionStorage; never a password or a file) and for a minute at most, and put back
// once: a half-filled form survives the switch. Only what differs from the page as served is kept, each
// form known by its address (and its place among forms of that address), each box by its name and value.
var KEPT = "forms-before-language:";
var KEPT_FOR_MS = 60 * 1000;
var SKIPPED = ["hidden", "password", "file", "submit", "button", "reset", "image"];

function formsOf(each) {
  var seen = {};
  document.querySelectorAll("main form").forEach(function (form) {
    var action = form.getAttribute("action") || "";
    var n = seen[action] = (seen[action] || 0) + 1;
    each(form, action + "#" + n);
  });
}

function fieldsOf(form, each) {
  var seen = {};  // a name repeated (the tie-breaks' selects): its n-th field
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || SKIPPED.indexOf(el.type) >= 0 || el.hasAttribute("data-submit-on-change")) return;
    var box = el.type === "checkbox" || el.type === "radio";
    var key = box ? el.name + "=" + el.value : el.name;
    var n = seen[key] = (seen[key] || 0) + 1;
    each(el, key + "#" + n, box);
  });
}

function changed(el, box) {
  if (box) return el.checked !== el.defaultChecked;
  if (el.tagName === "SELECT") {
    return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
  }
  return el.value !== el.defaultValue;
}

function keepForms() {
  var forms = {};
  formsOf(function (form, formKey) {
    fieldsOf(form, function (el, key, box) {
      if (!changed(el, box)) return;
      (forms[formKey] = forms[formKey] || {})[key] = box ? el.checked : el.value;
    });
  });
  try {
    window.sessionStorage.setItem(KEPT + location.pathname, JSON.stringify({ at: Date.now(), forms: forms }));
  } catch (e) { /* storage full or refused: the switch goes on without it */ }
}

function putFormsBack() {
  var kept;
  try {
    kept = JSON.parse(window.sessionStorage.getItem(KEPT + location.pathname) || "null");
    window.sessionStorage.removeItem(KEPT + location.pathname);
  } catch (e) { return; }
  if (!kept || !kept.forms || !(Date.now() - kept.at < KEPT_FOR_MS)) return;
  formsOf(function (form, formKey) {
    var fields = kept.forms[formKey];
    if (!fields) return;
    fieldsOf(form, function (el, key, box) {
      if (!(key in fields)) return;
      if (box) el.checked = fields[key];
      else el.value = fields[key];
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

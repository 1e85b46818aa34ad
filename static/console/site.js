// Every page (no inline scripts: the Content-Security-Policy allows only the site's own files).
(function () {
  "use strict";

  // The language menu sends its form as soon as a language is chosen (without scripts: its OK button).
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches && select.matches("select[data-submit-on-change]")) select.form.submit();
  });

  // An error page's "Back" button: shown where there is a page to go back to.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-history-back]").forEach(function (button) {
      if (window.history.length < 2) return;
      button.hidden = false;
      button.addEventListener("click", function () { window.history.back(); });
    });
  });
})();

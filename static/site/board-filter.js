// A form with a variant and a board: the board select offers only the boards that fit the chosen variant.
// The server says which (the board select's data-boards-by-variant: {variant id: [board ids]}) and refuses a
// board that does not fit all the same (without this script: a message naming the boards that fit).
function filter(boardSelect, all, byVariant, variant) {
  var fitting = byVariant[variant];
  var chosen = boardSelect.value;
  boardSelect.replaceChildren.apply(boardSelect, all.filter(function (option) {
    return !fitting || fitting.indexOf(option.value) >= 0;
  }));
  var kept = Array.prototype.some.call(boardSelect.options, function (o) { return o.value === chosen; });
  boardSelect.value = kept ? chosen : (boardSelect.options.length ? boardSelect.options[0].value : "");
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("select[data-boards-by-variant]").forEach(function (boardSelect) {
    var variantSelect = boardSelect.form && boardSelect.form.elements.namedItem("variant");
    if (!variantSelect) return;
    var byVariant = JSON.parse(boardSelect.dataset.boardsByVariant);
    var all = Array.prototype.slice.call(boardSelect.options);
    var update = function () { filter(boardSelect, all, byVariant, variantSelect.value); };
    variantSelect.addEventListener("change", update);
    update();
  });
});

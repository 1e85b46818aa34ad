"""The suite runs with pytest-django's --fail-on-template-vars (pyproject.toml): a page that reads a variable
its view does not give fails the test that renders it, instead of printing nothing. A page that may lack a
variable says so: ``{% if x %}{{ x }}{% endif %}`` (``|default`` does not: the check comes before filters)."""

import pytest
from django.template import engines


def render(source: str, **context) -> str:
    return engines["django"].from_string(source).render(context)


def test_a_missing_variable_fails_the_test_that_renders_it():
    with pytest.raises(pytest.fail.Exception, match="Undefined template variable 'nothing'"):
        render("<p>{{ nothing }}</p>")


def test_a_variable_asked_for_with_if_may_be_missing():
    assert render("<p>{% if nothing %}{{ nothing }}{% endif %}</p>") == "<p></p>"
    assert render("<p>{% if x %}{{ x }}{% endif %}</p>", x="y") == "<p>y</p>"

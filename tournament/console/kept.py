"""What the referee typed in a refused form, put back into the panel for a console without JavaScript (with
JavaScript the browser keeps it: ``static/console/console-forms.js``).

A form is recognised by its hidden fields (``action``, ``square``, ``effect_kind``...): the refused one gets
its typing back, every other form its defaults.
"""

from __future__ import annotations

from django.http import QueryDict


class Kept:
    def __init__(self, post: QueryDict | None = None):
        self.post = post

    def form(self, **hidden) -> QueryDict | None:
        """The fields of the refused form if it is the one with these hidden fields, else None."""
        if self.post is None or any(self.post.get(k) != str(v) for k, v in hidden.items()):
            return None
        return self.post

    def value(self, name: str, default, **hidden):
        """A field of the form with these hidden fields: as typed if that form was refused."""
        post = self.form(**hidden)
        return post.get(name, default) if post is not None else default

    def numbers(self, name: str, **hidden) -> list[int]:
        """The boxes ticked under ``name`` (title deeds) in the refused form."""
        post = self.form(**hidden)
        return [int(v) for v in post.getlist(name) if v.isdigit()] if post is not None else []

    def ticked(self, name: str, **hidden) -> list[str]:
        """The boxes ticked under ``name`` (the debt card's choices) in the refused form, as posted."""
        post = self.form(**hidden)
        return post.getlist(name) if post is not None else []


#: Nothing refused: every form with its defaults.
NOTHING = Kept()

"""The language menu's way back (templates/base.html): the page it was chosen on, or, on a page a POST
answered, the page the POST's form was on (its referer): an address only a POST opens answers a GET with
405."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def language_next(context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    if request.method == "GET":
        return request.get_full_path()
    return request.META.get("HTTP_REFERER") or "/"

"""What a page served to the tests carries for its scripts: the JSON of a ``<script type="application/json">``
by its id (script_json), as the console's page hands its game to static/console/console.js."""

import json
import re
from html import unescape


def script_json(page: str, element_id: str) -> dict:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S)
    assert found, element_id
    return json.loads(unescape(found.group(1)))

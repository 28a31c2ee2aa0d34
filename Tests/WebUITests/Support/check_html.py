#!/usr/bin/env python3
"""Parses an HTML document from stdin with html5lib (a spec-conformant HTML5 parser) in
strict mode and prints JSON: the parse errors, every element's attributes, and the text.
Used by the WebUI tests to check that pages are well-formed HTML5 and that no feed string
became markup or a dangerous URL."""
import json
import sys

import html5lib

source = sys.stdin.buffer.read()
parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
document = parser.parse(source)
errors = [
    {"position": list(position), "code": code, "data": {k: str(v) for k, v in (data or {}).items()}}
    for position, code, data in parser.errors
]
elements = []
for element in document.iter():
    if not isinstance(element.tag, str):
        continue
    elements.append({"tag": element.tag, "attributes": dict(element.attrib)})
text = "".join(document.itertext())
json.dump({"errors": errors, "elements": elements, "text": text}, sys.stdout)

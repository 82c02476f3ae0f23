"""The Swagger UI files /docs serves are the pinned package's, byte for byte: an upgrade of
`fastapi-offline` (or a tampered install) changes the code the docs page runs, so it must
come with new digests here, on purpose."""

from __future__ import annotations

import hashlib

from carevault.api import docs_ui

DIGESTS = {  # fastapi-offline 1.7.7: swagger-ui-dist 5.32.6
    "swagger-ui-bundle.js": "4b5a9b35a1adf37f00d39c0bae23cdb37007e2946240ef035137cc85b4d55349",
    "swagger-ui.css": "ca238f7d7c2cf4480c1e77a9c3b9da915ab216e96ffd354e69076560c650c6de",
    "favicon.png": "d16f72cf5a2773eba499cc7f3db1923c6f5f73de990f739e3a05806aafec15b7",
}


def test_the_served_swagger_ui_files_are_the_pinned_ones() -> None:
    assert set(docs_ui.SWAGGER_FILES) == set(DIGESTS)
    for name, digest in DIGESTS.items():
        content = (docs_ui.assets_dir() / name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == digest, name


def test_the_page_escapes_what_it_is_given() -> None:
    page = docs_ui.docs_page('A "title" <b>', "/openapi.json?x=<y>")
    assert "<b>" not in page and "&lt;y&gt;" in page

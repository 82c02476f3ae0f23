"""The generated Python client (clients/python) keeps its token out of repr() and warns
before sending it over plain http:// to another machine. Imported from the repository, as
the end-to-end client tests do; no server needed."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client import (  # noqa: E402
    AuthenticatedClient,
    Client,
    InsecureTransportWarning,
)

TOKEN = "cvt_0123456789abcdef-secret"  # made up


def test_repr_never_shows_the_token_or_credential_headers() -> None:
    api = AuthenticatedClient(base_url="https://carevault.example", token=TOKEN)
    assert TOKEN not in repr(api) and "carevault.example" in repr(api)
    api.get_httpx_client()  # puts "Authorization: Bearer <token>" into the client's headers
    api.get_async_httpx_client()
    assert TOKEN not in repr(api)
    assert TOKEN not in repr(api.with_headers({"X-Extra": "1"}))
    assert TOKEN not in str(api) and TOKEN not in f"{api!r}"
    browser = Client(
        base_url="https://carevault.example",
        cookies={"carevault_session": "session-secret"},
        headers={"X-CSRF-Token": "csrf-secret"},
    )
    assert "session-secret" not in repr(browser) and "csrf-secret" not in repr(browser)


@pytest.mark.parametrize(
    "base_url",
    [
        "https://carevault.example",
        "https://203.0.113.5:8443/",
        "http://127.0.0.1:8000",
        "http://127.42.0.9",
        "http://[::1]:8000",
        "http://localhost:8000",
        "http://LOCALHOST.",
        "http://api.localhost",
    ],
)
def test_no_warning_for_https_or_this_machine(base_url: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AuthenticatedClient(base_url=base_url, token=TOKEN)


@pytest.mark.parametrize(
    "base_url",
    [
        "http://carevault.example",
        "http://10.0.0.5:8000",
        "http://[2001:db8::1]:8000",
        "http://localhost.example.org",
        "http://128.0.0.1",
    ],
)
def test_plain_http_to_another_host_warns_at_the_callers_line(base_url: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        AuthenticatedClient(base_url=base_url, token=TOKEN)
    assert [w.category for w in caught] == [InsecureTransportWarning]
    assert caught[0].filename == __file__  # points at the code that made the client
    assert TOKEN not in str(caught[0].message)
    assert issubclass(InsecureTransportWarning, UserWarning)

"""`carevault doctor`'s checks that need no server: which PostgreSQL logging settings would
write the pgcrypto backend's key parameters to the server log."""

import pytest

from carevault.cli.doctor import parameter_logging

QUIET = {
    "log_statement": "none",
    "log_min_duration_statement": "-1",
    "log_parameter_max_length": "-1",
    "log_parameter_max_length_on_error": "0",
}


def test_defaults_log_no_parameters() -> None:
    assert parameter_logging(QUIET) == []


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"log_statement": "all"}, "log_statement"),
        ({"log_statement": "mod"}, "log_statement"),
        ({"log_min_duration_statement": "0"}, "log_min_duration_statement"),
        ({"log_parameter_max_length_on_error": "-1"}, "on_error"),
    ],
)
def test_settings_that_log_parameters_are_named(changes: dict[str, str], expected: str) -> None:
    leaks = parameter_logging(QUIET | changes)
    assert leaks and expected in leaks[0]


def test_statement_logging_without_parameters_is_fine() -> None:
    settings = QUIET | {"log_statement": "all", "log_parameter_max_length": "0"}
    assert parameter_logging(settings) == []

